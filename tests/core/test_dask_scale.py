"""Counting and encoding on a real Dask LocalCluster (2 worker processes) and over byte ranges."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core import train_bpe, train_bpe_from_counts
from core.pretokenization.pretokenize import count_pretokens, resolve_pattern
from core.pretokenization.scan import next_valid_cut
from core.scale.counts import count_files
from core.scale.counts_io import read_counts
from core.tokenization.npy import encode_file_to_npy

pytest.importorskip("distributed")  # the scale extra is part of the test extra
from core.scale.dask_scale import (
    count_dask,
    count_range,
    dask_client,
    encode_dask,
    load_shards,
    merge_ranges,
)

REPO = Path(__file__).resolve().parents[2]
EOT = "<|endoftext|>"
FRAGMENTS = [
    b"the",
    b" the",
    b" cat",
    b"  ",
    b"\n",
    b"\n\n",
    b"123",
    b" 4567",
    b"don't",
    b"!!",
    "\U0001f642".encode(),
    "\u4e2d\u6587".encode(),
    b"\xff",
    b"\xc3",
    b"x.\nNext",
    b"a.\nb",
    b"<|endoftext|>",
    b"<|endoftext|><|endoftext|>",
    b"<|endoftext",
    b"|>",
]


def corpus(seed: int, n: int) -> bytes:
    rng = random.Random(seed)
    return b"".join(rng.choice(FRAGMENTS) for _ in range(n))


@pytest.fixture(scope="module")
def client():
    with dask_client(workers=2) as c:  # processes, 1 thread each
        yield c


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> list[Path]:
    d = tmp_path_factory.mktemp("dask")
    out = []
    for i in range(3):
        p = d / f"part{i}.txt"
        p.write_bytes(corpus(i, 1500 + 500 * i) + EOT.encode())  # each file ends at a special token
        out.append(p)
    (d / "all.txt").write_bytes(b"".join(p.read_bytes() for p in out))
    return out


@given(
    st.lists(st.sampled_from(FRAGMENTS), max_size=120).map(b"".join),
    st.integers(1, 40),
    st.sampled_from(["gpt2", "gpt4", "none", r"\w+"]),
    st.booleans(),
)
def test_byte_ranges_cut_at_valid_cuts_add_up_to_the_whole_file(tmp_path_factory, data, step, pattern, eot):
    """Any split into nominal ranges (each task finds its own ends) counts exactly like the whole."""
    path = tmp_path_factory.mktemp("r") / "c.txt"
    path.write_bytes(data)
    specials = (EOT,) if eot else ()
    pat = resolve_pattern(pattern)
    size = len(data)
    parts = [
        count_range(0, str(path), (s, min(s + step, size)), size, pat, specials)
        for s in range(0, max(size, 1), step)
    ]
    whole = merge_ranges(*parts)
    want, stats = count_pretokens(data, list(specials), pattern, workers=1)
    got = whole.table
    assert got["token"].to_pylist() == list(want) and got["count"].to_pylist() == list(want.values())
    assert whole.n_bytes == size and whole.invalid_bytes == stats.invalid_bytes
    ref = count_files([path], list(specials), pattern, workers=1)
    assert got["pos"].to_pylist() == ref.offsets


def test_next_valid_cut_never_splits_a_special_token_or_a_word(tmp_path):
    data = b"ab<|endoftext|>cd.\nEf<|endoftext|>"
    path = tmp_path / "c.txt"
    path.write_bytes(data)
    with open(path, "rb") as f:
        cuts = [next_valid_cut(f, p, len(data), (EOT,), True) for p in range(len(data) + 1)]
    # before each special, after "d" (a letter, then "."), after ".\n" before "E"
    assert sorted(set(cuts)) == [0, 2, 17, 19, 21, len(data)]
    assert cuts == sorted(cuts)  # ranges of neighbouring tasks never overlap


@pytest.mark.timeout(240)
@pytest.mark.parametrize("tie_break", ["lexicographic", "first"])
def test_dask_counts_equal_local_counts_and_train_like_train_bpe(client, files, tmp_path, tie_break):
    got = count_dask([str(files[0].parent / "part*.txt")], [EOT], range_bytes=700, client=client)
    local = count_files(files, [EOT], workers=1)
    assert (got.tokens, got.counts, got.files, got.offsets) == (
        local.tokens,
        local.counts,
        local.files,
        local.offsets,
    )
    assert got.meta.invalid_bytes == local.meta.invalid_bytes > 0
    assert got.meta.special_occurrences == local.meta.special_occurrences
    vocab, merges = train_bpe(files[0].parent / "all.txt", 360, [EOT], tie_break=tie_break, workers=1)
    assert train_bpe_from_counts(got, 360, tie_break=tie_break) == (vocab, merges)


@pytest.mark.timeout(240)
def test_dask_encode_shards_equal_the_single_machine_encoder(client, files, tmp_path):
    from core.tokenization.tokenizer import Tokenizer

    vocab, merges = train_bpe(files[0].parent / "all.txt", 330, [EOT], workers=1)
    tok = Tokenizer(vocab, merges, [EOT])
    m = encode_dask(tok, [str(p) for p in files], tmp_path / "shards", range_bytes=900, client=client)
    want = np.concatenate(
        [np.load(encode_file_to_npy(tok, p, tmp_path / f"{p.stem}.npy").path) for p in files]
    )
    got = load_shards(tmp_path / "shards")
    assert got.dtype == np.uint16 and np.array_equal(got, want)
    manifest = json.loads((tmp_path / "shards" / "manifest.json").read_text())
    assert [s["tokens"] for s in manifest["shards"]] == [
        len(np.load(tmp_path / "shards" / s["file"])) for s in manifest["shards"]
    ]
    assert manifest["tokens"] == len(want) == m.n_tokens and len(m.shards) > len(files)


def test_dask_encode_names_the_file_and_offset_of_a_byte_the_tokenizer_lacks(client, tmp_path):
    """OLMo 1 / GPT-NeoX have no token for 0xfe: ``encode --engine dask`` said only "a surrogateescape
    character at 338" (an index in one worker's range); it names the file and the byte's offset, as the
    local encoder does."""
    from core.errors import TokenizerError
    from core.formats.spec import TokenizerSpec
    from core.tokenization.tokenizer import Tokenizer

    base = TokenizerSpec.from_merges([(b"t", b"h")])
    holed = Tokenizer({i: b for i, b in base.vocab.items() if len(b) > 1 or b[0] < 0xF5}, base.merges)
    head = b"the cat sat on the mat. " * 200
    good, bad = tmp_path / "a.txt", tmp_path / "b.txt"
    good.write_bytes(head)
    bad.write_bytes(head + b"odd \xfe end\n" + head)
    with pytest.raises(TokenizerError) as info:
        encode_dask(holed, [str(good), str(bad)], tmp_path / "shards", range_bytes=1000, client=client)
    offset = len(head) + len(b"odd ")
    assert str(info.value).startswith(f"{bad}: the byte 0xfe at offset {offset:,} "), str(info.value)
    assert info.value.params["offset"] == offset and not (tmp_path / "shards" / "manifest.json").exists()


@pytest.mark.timeout(240)
def test_dask_encode_of_a_pipeline_that_cannot_be_cut_keeps_whole_files(client, files, tmp_path):
    """An imported HF pipeline that adds a prefix space to every piece: one shard per file."""
    from tokenizers import pre_tokenizers

    from .test_hf_pipeline import configured, ours_of, trained

    hf = configured(trained(), pre_tokenizer=pre_tokenizers.ByteLevel(add_prefix_space=True))
    tok = ours_of(hf, tmp_path)
    m = encode_dask(tok, [str(p) for p in files], tmp_path / "shards", range_bytes=300, client=client)
    assert [s.source for s in m.shards] == [str(p) for p in files]
    assert np.array_equal(
        load_shards(tmp_path / "shards"),
        np.concatenate([np.load(encode_file_to_npy(tok, p, tmp_path / f"{p.stem}.npy").path) for p in files]),
    )


@pytest.mark.timeout(240)
def test_dask_encode_into_the_folder_of_an_earlier_run_leaves_only_its_own_shards(client, files, tmp_path):
    from core.scale.counts import CountsError
    from core.tokenization.tokenizer import Tokenizer

    vocab, merges = train_bpe(files[0].parent / "all.txt", 300, [EOT], workers=1)
    tok = Tokenizer(vocab, merges, [EOT])
    out = tmp_path / "shards"
    (out / "notes.txt").parent.mkdir()
    (out / "notes.txt").write_text("mine")
    many = encode_dask(tok, [str(p) for p in files], out, range_bytes=300, client=client)
    few = encode_dask(tok, [str(p) for p in files], out, range_bytes=100_000, client=client)
    assert len(many.shards) > len(few.shards) == len(files)
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [s.file for s in few.shards] + ["manifest.json", "notes.txt"]
    )
    assert np.array_equal(
        load_shards(out),
        np.concatenate([np.load(encode_file_to_npy(tok, p, tmp_path / f"{p.stem}.npy").path) for p in files]),
    )
    with pytest.raises(
        AttributeError
    ):  # a run that fails after it started: no manifest over shards of two runs
        encode_dask(tok, [str(p) for p in files], out, range_bytes=300, client=object())
    with pytest.raises(CountsError, match="did not finish"):
        load_shards(out)


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_an_unguarded_script_using_the_api_runs_its_top_level_once(files, tmp_path):
    """LocalCluster workers are started with __main__ hidden: the script is not re-run in them."""
    script = tmp_path / "plain.py"
    script.write_text(
        textwrap.dedent(f"""\
        from core.scale.dask_scale import count_dask
        print("top level ran", flush=True)
        counts = count_dask([{str(files[0])!r}], ["<|endoftext|>"], workers=2, range_bytes=500)
        print("distinct", len(counts.tokens))
        """)
    )
    r = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=200,
        cwd=tmp_path,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )
    assert r.returncode == 0, r.stderr[-2000:]
    want = len(count_files([files[0]], [EOT], workers=1).tokens)
    assert r.stdout.splitlines() == ["top level ran", f"distinct {want}"]


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_cli_count_with_dask_then_train_from_the_counts(files, tmp_path):
    out = tmp_path / "c.parquet"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "core.cli",
            "count",
            *map(str, files),
            "--out",
            str(out),
            "--special-token",
            EOT,
            "--engine",
            "dask",
            "--workers",
            "2",
            "--range-mb",
            "0.001",
        ],
        capture_output=True,
        text=True,
        timeout=200,
        cwd=REPO,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert "Completed" in r.stderr and "(dask) ->" in r.stdout  # Dask's progress bar, on stderr
    c = read_counts(out)
    assert c.word_counts() == count_files(files, [EOT], workers=1).word_counts()


def test_hidden_main_hides_the_script_while_processes_start_and_restores_it():
    from multiprocessing import spawn

    from core.scale.dask_scale import hidden_main

    main = sys.modules["__main__"]
    before = (main.__dict__.get("__file__"), main.__dict__.get("__spec__"))
    with hidden_main():
        data = spawn.get_preparation_data("w")
        assert "init_main_from_path" not in data and "init_main_from_name" not in data
    assert (main.__dict__.get("__file__"), main.__dict__.get("__spec__")) == before
