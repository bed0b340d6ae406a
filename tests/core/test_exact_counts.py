"""Pair counts are exact integer sums (float64 weights lost units above 2^53), and absurd counts are refused."""

from __future__ import annotations

import random

import numpy as np
import pytest

from core.errors import CorpusError
from core.pretokenization.exact_counts import int_bincount
from core.training.count_bounds import MAX_PAIR_TOTAL
from core.training.trainer import Trainer

from .reference import reference_merges

BIG = 2**54

PATHS = [  # the small-corpus path, the NumPy index, the batch kernels
    {},
    {"small_corpus_bytes": 0},
    {"small_corpus_bytes": 0, "batch_min_words": 1},
]


def test_int_bincount_is_exact_above_2_to_53():
    ids = np.array([0, 0, 1, 2, 2])
    w = np.array([BIG, 1, 3, BIG - 1, 1], dtype=np.int64)
    assert int_bincount(ids, w, 4).tolist() == [BIG + 1, 3, BIG, 0]
    assert int_bincount(np.array([1, 1]), np.array([2, 3]), 3).tolist() == [0, 5, 0]  # the fast path
    assert int_bincount(np.array([], dtype=np.int64), np.array([], dtype=np.int64), 2).tolist() == [0, 0]


@pytest.mark.parametrize("kw", PATHS)
def test_a_one_unit_difference_at_2_to_54_decides(kw):
    words = {b"ab": BIG, b"abz": 1, b"cd": BIG}  # (a, b) = 2^54 + 1 beats (c, d) = 2^54
    words.update({bytes([101 + i % 10, 101 + i // 10]): 3 for i in range(100)})
    t = Trainer(dict(words), keep_history=False, **kw)
    t.run(256 + 6)
    assert t.merges == reference_merges(words, 6)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("kw", PATHS)
def test_huge_counts_train_like_the_reference(kw, seed):
    rng = random.Random(seed)
    words: dict[bytes, int] = {}
    for _ in range(300):
        w = bytes(rng.choice(b"abcd") for _ in range(rng.randint(2, 8)))
        huge = rng.random() < 0.05  # (about 15 words of 2^54: the sums stay within the bound)
        words[w] = BIG + rng.randint(0, 3) if huge else rng.randint(1, 9)
    t = Trainer(dict(words), keep_history=False, **kw)
    t.run(256 + 25)
    assert t.merges == reference_merges(words, 25)


@pytest.mark.parametrize(
    "counts, message",
    [
        ({b"ab": MAX_PAIR_TOTAL // 2}, "more than this trainer sums exactly"),
        ({b"ab": 2**70}, "more than this trainer sums exactly"),
        ({b"ab": 0}, "must be positive integers"),
        ({b"ab": -5}, "must be positive integers"),
        ({b"ab": 2.5}, "must be positive integers"),
        ({b"ab": "7"}, "must be positive integers"),
    ],
)
def test_counts_out_of_bounds_are_refused(counts, message):
    with pytest.raises(CorpusError, match=message):
        Trainer(counts)


def test_numpy_int_counts_are_summed_exactly():
    counts = {b"ab": np.int64(2**62 - 1), b"cd": np.int64(2**62 - 1)}  # (an int64 sum would wrap)
    with pytest.raises(CorpusError, match="more than this trainer sums exactly"):
        Trainer(counts)


def test_a_counts_file_with_a_count_of_2_to_54(tmp_path, capsys):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    from core.cli import main

    path = tmp_path / "c.parquet"
    tokens = [b"ab", b"abz", b"cd"] + [bytes([101 + i % 10, 101 + i // 10]) for i in range(100)]
    counts = [BIG, 1, BIG] + [3] * 100
    pq.write_table(
        pa.table({"token": pa.array(tokens, pa.binary()), "count": pa.array(counts, pa.int64())}), path
    )
    out = tmp_path / "tok"
    assert (
        main(
            [
                "train",
                "--counts",
                str(path),
                "--pattern",
                "none",
                "--vocab-size",
                "262",
                "--out",
                str(out),
                "-q",
            ]
        )
        == 0
    )
    from core.formats import load_any

    assert list(load_any(out / "bpe.json").merges) == reference_merges(dict(zip(tokens, counts)), 6)
