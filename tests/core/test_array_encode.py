"""ArrayEncoder (the .npy path's encoder) gives exactly Tokenizer.encode's ids, and the reference
encoder's, for texts encoded one after another with one cache: special tokens, invalid bytes, runs
of spaces, new and known words, a cache that overflows, long words, every encoding rule."""

from __future__ import annotations

import doctest
import importlib
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import core.tokenization.npy as npy
from core import Tokenizer, TokenizerError
from core.bpe.ranks import RankMerges
from core.bpe.support import CACHE_MAX_WORD
from core.formats.spec import TokenizerSpec
from core.pretokenization.patterns import GPT4_PATTERN
from core.tokenization.array_encode import ArrayEncoder

from .reference import reference_encode
from .tok_corpus import EOT, trained_spec

OTHER = "<|other|>"
PIECES = [
    " ",
    " ",
    "  ",
    "    ",
    "the",
    " the",
    "cat",
    " sat",
    "don't",
    "running",
    "quickly",
    "héllo",
    "日本語",
    "🙃",
    "2024",
    "1,000",
    "\n",
    "\n\n",
    "\r\n",
    "\t",
    " \n ",
    "\u3000",
    "\xa0",
    ".",
    "!?",
    "'s",
    "'ll",
    "\udcff",
    "\udcfe\udc80",
    "\udcc3",
    "zq",
    "xkcdq",
    "qqq",
    "vwvw",
    EOT,
    OTHER,
    "<|",
    "|>",
    "\x00",
]
texts = st.lists(st.lists(st.sampled_from(PIECES), max_size=80).map("".join), min_size=1, max_size=5)


@cache
def tokenizers() -> dict[str, tuple[Tokenizer, TokenizerSpec]]:
    out = {}
    for name, kw in {
        "gpt2": {"invalid_bytes": True},
        "gpt4": {"pattern": "gpt4"},
        "custom": {"pattern": r"\p{L}+|\p{N}|[^\s\p{L}\p{N}]+"},
        "none": {"pattern": None},
    }.items():
        spec = trained_spec(specials=(EOT, OTHER), **kw)
        out[name] = (Tokenizer.from_spec(spec), spec)
    spec = out["gpt2"][1]
    ordinary = spec.ordinary_tokens()
    rank = Tokenizer(
        dict(spec.vocab), RankMerges([ordinary[i] for i in sorted(ordinary)]), list(spec.special_tokens)
    )
    assert rank._by_rank is not None  # (encodes by rank: tiktoken's rule)
    out["rank"] = (rank, spec)
    return out


@settings(max_examples=250, deadline=None)
@given(
    texts=texts,
    name=st.sampled_from(["gpt2", "gpt4", "custom", "none", "rank"]),
    limit=st.sampled_from([2, 8, 40, 1 << 19]),
    batch_min=st.sampled_from([0, 4, 1 << 30]),
)
def test_ids_equal_encode_for_texts_in_sequence(
    texts: list[str], name: str, limit: int, batch_min: int
) -> None:
    tok, _ = tokenizers()[name]
    enc = ArrayEncoder(tok, limit=limit, batch_min=batch_min)
    for text in texts:
        got = enc.encode(text)
        assert got.dtype == np.int64
        want = tok.encode(text, add_special_tokens=False)
        assert got.tolist() == want
        # room is made before a text when the cache is over the limit; long words have entries no longer used
        assert len(enc.index) <= enc.n <= max(limit, 2) + max(map(len, texts))


@settings(max_examples=60, deadline=None)
@given(texts=texts)
def test_ids_equal_the_reference_encoder(texts: list[str]) -> None:
    tok, spec = tokenizers()["gpt2"]
    enc = ArrayEncoder(tok, limit=16, batch_min=2)
    for text in texts:
        assert enc.encode(text).tolist() == reference_encode(text, spec)


def test_a_full_cache_keeps_the_first_words_and_stays_exact() -> None:
    tok, _ = tokenizers()["gpt2"]
    enc = ArrayEncoder(tok, limit=100, batch_min=1)
    words = [" " + "".join(chr(97 + i // 26**k % 26) for k in range(3)) + "z" for i in range(400)]
    first = "".join(words[:60])
    assert enc.encode(first).tolist() == tok.encode(first)
    rest = "".join(words[60:]) + EOT + first
    assert enc.encode(rest).tolist() == tok.encode(rest)
    assert enc.n == len(enc.index) == 2 + 400  # (over the limit: room is made before the next text)
    first_50 = list(enc.index.items())[:50]
    again = "".join(words[::-1])
    assert enc.encode(again).tolist() == tok.encode(again)
    # the special tokens and the 48 words seen first stay, with their entries; the 352 others come again
    assert list(enc.index.items())[:50] == first_50 and first_50[2] == (words[0], 2)
    assert enc.n == len(enc.index) == 50 + 352


def test_long_words_are_not_kept() -> None:
    tok, _ = tokenizers()["gpt2"]
    enc = ArrayEncoder(tok, batch_min=1)
    long = "ab" * CACHE_MAX_WORD
    text = f"the {long} cat{EOT}{long}"
    assert enc.encode(text).tolist() == tok.encode(text)
    assert long not in enc.index and " " + long not in enc.index and " cat" in enc.index
    assert enc.encode(text).tolist() == tok.encode(text)  # (the entries after the dropped ones are right)
    assert enc.encode(" cat").tolist() == tok.encode(" cat")


def test_errors_are_the_tokenizers() -> None:
    tok, _ = tokenizers()["gpt2"]
    enc = ArrayEncoder(tok, batch_min=1)
    with pytest.raises(TokenizerError, match="lone surrogate"):
        enc.encode("ok \ud800 no")
    assert enc.n == len(enc.index) == 2  # (the new words of the failed text are not kept)
    assert enc.encode("ok, no").tolist() == tok.encode("ok, no")
    base = TokenizerSpec.from_merges([(b"a", b"b")])
    no_holes = {
        i: b for i, b in base.vocab.items() if not (b[0] in (0xC0, 0xC1) or b[0] >= 0xF5) or len(b) > 1
    }
    holed = Tokenizer(no_holes, base.merges)
    with pytest.raises(TokenizerError, match="0xff"):
        holed.encode("ab \udcff")
    with pytest.raises(TokenizerError, match="0xff"):
        ArrayEncoder(holed).encode("ab \udcff")
    assert ArrayEncoder(holed).encode("ab \udcc3").tolist() == holed.encode("ab \udcc3")


def test_gpt4_pattern_through_the_ascii_twin_and_the_regex() -> None:
    tok, _ = tokenizers()["gpt4"]
    assert tok.pattern_regex == GPT4_PATTERN
    text = ("plain ascii words 123 4567 don't\n\n  " * 50) + "naïve 日本語 x" + (" more ascii" * 100)
    assert ArrayEncoder(tok, batch_min=1).encode(text).tolist() == tok.encode(text)


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("seed", [0, 1])
def test_file_ids_equal_encode_across_block_boundaries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int, seed: int
) -> None:
    import random

    monkeypatch.setattr(npy, "SINGLE_PROCESS_BYTES", 0)
    rng = random.Random(seed)
    raw = b"".join(rng.choice(PIECES).encode("utf-8", "surrogateescape") for _ in range(30000))
    (tmp_path / "in.txt").write_bytes(raw)
    tok, _ = tokenizers()["gpt2"]
    r = npy.encode_file_to_npy(
        tok, tmp_path / "in.txt", tmp_path / "out.npy", workers=workers, block_bytes=3000
    )
    ids = np.load(tmp_path / "out.npy")
    assert r.workers == workers
    assert ids.tolist() == tok.encode(raw.decode("utf-8", "surrogateescape"), add_special_tokens=False)
    assert tok.decode_bytes(ids) == raw


def test_room_made_after_long_words_keeps_the_right_entries() -> None:
    tok, _ = tokenizers()["gpt2"]
    enc = ArrayEncoder(tok, limit=20, batch_min=1)
    words = [" " + "".join(chr(97 + i // 26**k % 26) for k in range(2)) + "q" for i in range(60)]
    long = " " + "xy" * CACHE_MAX_WORD
    texts = [
        long + "".join(words[:5]) + long + "yx",
        "".join(words[5:30]),
        "".join(words[8:14] + words[30:45]),
        "".join(words[::-1]),
    ]
    for text in texts:
        assert enc.encode(text).tolist() == tok.encode(text)
    assert len(enc.index) <= enc.n and long not in enc.index


def test_ids_of_long_words_no_longer_used_are_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    import core.tokenization.array_encode as array_encode

    monkeypatch.setattr(array_encode, "FLAT_LIMIT", 64)
    tok, _ = tokenizers()["gpt2"]
    enc = ArrayEncoder(tok, batch_min=1)
    long = " " + "zq" * CACHE_MAX_WORD  # (hundreds of ids: over the limit at once)
    texts = [long + " the cat", " the dog" + long, " sat on the mat", " the cat" + long + " ran"]
    for text in texts:
        n_before = enc.n_flat
        assert enc.encode(text).tolist() == tok.encode(text)
        # room is made before a text when over the limit: the first entries held a long word, so all go
        assert n_before <= 64 or enc.n_flat <= 2 + len(tok.encode(text))
    assert long not in enc.index


@pytest.mark.parametrize("name", ["tokenization.array_encode", "tokenization.npy", "bpe.batch"])
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(f"core.{name}"))
    assert result.attempted and not result.failed


def test_threads_sharing_one_encoder_get_the_right_ids() -> None:
    from concurrent.futures import ThreadPoolExecutor

    tok, _ = tokenizers()["gpt2"]
    enc = ArrayEncoder(tok, limit=300, batch_min=1)
    words = [" " + "".join(chr(97 + i // 26**k % 26) for k in range(3)) for i in range(3000)]
    texts = ["".join(words[i : i + 400]) + EOT + "".join(words[i + 7 : i + 200]) for i in range(0, 2600, 100)]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda t: enc.encode(t).tolist(), texts))
    assert got == [tok.encode(t) for t in texts]
