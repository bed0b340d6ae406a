"""`bpe-explorer count`, `train --counts`, the engine opening a counts file, and the scale extra's imports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.cli import main
from core.pretokenization.pretokenize import resolve_pattern
from core.scale.counts import count_files
from core.scale.counts_io import read_counts, write_counts

pytest.importorskip("pyarrow")
REPO = Path(__file__).resolve().parents[2]
EOT = "<|endoftext|>"


@pytest.fixture
def corpus(tmp_path) -> Path:
    p = tmp_path / "c.txt"
    words = " ".join(f"{'abcdefgh'[i % 8]}{i % 701}{'xyz'[i % 3] * (i % 4)}" for i in range(3000))
    p.write_bytes(
        (words + EOT + "caf\u00e9 na\u00efve \xff\n")
        .encode("utf-8", "surrogateescape")
        .replace("\xff".encode(), b"\xff")
        * 3
    )
    return p


def test_count_then_train_from_counts_writes_the_same_tokenizer_as_train(tmp_path, corpus, capsys):
    counts = tmp_path / "c.parquet"
    assert (
        main(["count", str(corpus), "--out", str(counts), "--special-token", EOT, "--pattern", "gpt4", "-q"])
        == 0
    )
    assert "(local) ->" in capsys.readouterr().out
    assert read_counts(counts).meta.pattern == resolve_pattern("gpt4")
    assert (
        main(
            [
                "train",
                "--counts",
                str(counts),
                "--vocab-size",
                "400",
                "--out",
                str(tmp_path / "a"),
                "--format",
                "native",
                "--tie-break",
                "first",
                "-q",
            ]
        )
        == 0
    )
    assert (
        main(
            [
                "train",
                str(corpus),
                "--vocab-size",
                "400",
                "--out",
                str(tmp_path / "b"),
                "--format",
                "native",
                "--special-token",
                EOT,
                "--pattern",
                "gpt4",
                "--tie-break",
                "first",
                "-q",
            ]
        )
        == 0
    )
    a, b = (json.loads((tmp_path / d / "bpe.json").read_text()) for d in "ab")
    assert a["merges"] == b["merges"] and a["special_tokens"] == b["special_tokens"]
    assert [t["content"] for t in a["special_tokens"]] == [EOT]
    assert a["pattern_regex"] == b["pattern_regex"] and len(a["merges"]) == 400 - 257


@pytest.mark.parametrize(
    "argv,fragment",
    [
        (["train", "--vocab-size", "300", "--out", "o"], "give a corpus file to train on (or --counts FILE)"),
        (["train", "CORPUS", "--counts", "COUNTS", "--vocab-size", "300", "--out", "o"], "not both"),
        (
            ["train", "--counts", "COUNTS", "--pattern", "gpt2", "--vocab-size", "300", "--out", "o"],
            "made with pattern 'gpt4', not 'gpt2'",
        ),
        (
            ["count", "CORPUS", "--out", "x.parquet", "--scheduler", "tcp://h:1"],
            "--scheduler needs --engine dask",
        ),
        (["count", "CORPUS", "--out", "x.parquet", "--range-mb", "8"], "--range-mb needs --engine dask"),
        (
            [
                "encode",
                "--tokenizer",
                "gpt2",
                "CORPUS",
                "--out",
                "x.npy",
                "--scheduler",
                "tcp://h:1",
                "--range-mb",
                "8",
            ],
            "--scheduler and --range-mb need --engine dask",
        ),
        (["count", "nothing*.txt", "--out", "x.parquet"], "no file matches"),
        (
            ["count", "CORPUS", "--out", "x.parquet", "--engine", "dask", "--scheduler", "nonsense"],
            "cannot reach the Dask scheduler at 'nonsense'",
        ),
        (["count", "CORPUS", "--out", "missing/x.parquet"], "does not exist; create it first"),
        (["train", "--counts", "CORPUS", "--vocab-size", "300", "--out", "o"], "not a readable Parquet"),
    ],
)
def test_user_errors_are_one_line_exit_2(tmp_path, corpus, capsys, monkeypatch, argv, fragment):
    monkeypatch.chdir(tmp_path)
    counts = write_counts(count_files([corpus], [EOT], "gpt4", workers=1), tmp_path / "c.parquet")
    argv = [str(corpus) if a == "CORPUS" else str(counts) if a == "COUNTS" else a for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("bpe-explorer: error:") and fragment in err and "\n" not in err


def test_encode_of_several_files_needs_the_dask_engine(tmp_path, corpus, capsys):
    assert (
        main(
            [
                "train",
                str(corpus),
                "--vocab-size",
                "300",
                "--out",
                str(tmp_path / "t"),
                "-q",
                "--format",
                "native",
            ]
        )
        == 0
    )
    assert (
        main(
            [
                "encode",
                "--tokenizer",
                str(tmp_path / "t"),
                str(corpus),
                str(corpus),
                "--out",
                str(tmp_path / "x.npy"),
            ]
        )
        == 2
    )
    assert "use --engine dask" in capsys.readouterr().err


def test_the_engine_opens_a_counts_file_like_a_corpus(tmp_path, corpus):
    from core.engine.client import Engine
    from core.training.trainer import Trainer

    counts = write_counts(count_files([corpus], [EOT], workers=1), tmp_path / "c.parquet")
    eng = Engine()
    try:
        info = eng.load(str(counts), [EOT], "gpt2", "first")
        local = Trainer.from_file(corpus, [EOT], tie_break="first")
        assert info["stats"].distinct_pretokens == local.stats.distinct_pretokens
        assert info["stats"].pretokens == local.stats.pretokens and info["special_tokens"] == [EOT]
        assert [r.pair for r in eng.steps(20)] == [r.pair for r in local.steps(20)]
        with pytest.raises(Exception, match="made with special tokens"):  # the panel disagrees
            eng.load(str(counts), [], "gpt2", "first")
    finally:
        eng.close()


def test_core_imports_dask_and_pyarrow_only_when_used():
    code = (
        "import sys, core, core.cli, core.scale.counts, core.pretokenization.scan; core.cli.build_parser(); "
        "print(sorted(m for m in ('pyarrow', 'dask', 'distributed', 'fsspec') if m in sys.modules))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert r.stdout.strip() == "[]", r.stderr


def test_a_missing_extra_is_named_in_the_error(monkeypatch):
    from core.scale.counts import CountsError, need_pyarrow
    from core.scale.dask_scale import need_dask

    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(CountsError, match=r'pip install "bpe-explorer\[scale\]"'):
        need_pyarrow()
    with pytest.raises(CountsError, match=r"dask\[distributed\].*bpe-explorer\[scale\]"):
        need_dask()
