"""The ``bpe-explorer`` command line: train, encode, and one-line user errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from core import Tokenizer
from core.cli import main
from core.formats import load_any

TEXT = (
    "Once upon a time there was a tiny robot. The robot liked gardens.<|endoftext|>"
    "Every morning the robot watered 12 plants, then 13, then 14.<|endoftext|>"
) * 40


@pytest.fixture()
def corpus(tmp_path):
    p = tmp_path / "corpus.txt"
    p.write_text(TEXT, encoding="utf-8")
    return p


def test_train_writes_all_formats(tmp_path, corpus, capsys):
    out = tmp_path / "tok"
    rc = main(
        [
            "train",
            str(corpus),
            "--vocab-size",
            "300",
            "--special-token",
            "<|endoftext|>",
            "--out",
            str(out),
            "-q",
        ]
    )
    assert rc == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == [
        ".bpe-explorer-export.json",
        "bpe.json",
        "bpe.tiktoken",
        "merges.txt",
        "tokenizer.json",
        "vocab.json",
    ]
    stdout = capsys.readouterr().out
    assert "trained 43 merges, vocab size 300" in stdout
    spec = load_any(out)
    assert len(spec.merges) == 43 and spec.special_tokens == ("<|endoftext|>",)
    assert json.loads((out / "bpe.json").read_text())["training"]["corpus"] == "corpus.txt"


def test_train_subset_of_formats_and_options(tmp_path, corpus):
    out = tmp_path / "tok"
    rc = main(
        [
            "train",
            str(corpus),
            "--vocab-size",
            "280",
            "--pattern",
            "gpt4",
            "--tie-break",
            "first",
            "--format",
            "gpt2,native",
            "--out",
            str(out),
            "-q",
            "--workers",
            "1",
        ]
    )
    assert rc == 0
    assert sorted(p.name for p in out.iterdir()) == [
        ".bpe-explorer-export.json",
        "bpe.json",
        "merges.txt",
        "vocab.json",
    ]
    spec = load_any(out / "bpe.json")
    assert spec.tie_break == "first" and spec.pattern == "gpt4"


def test_encode_to_npy_equals_tokenizer(tmp_path, corpus, capsys):
    out = tmp_path / "tok"
    assert (
        main(
            [
                "train",
                str(corpus),
                "--vocab-size",
                "300",
                "--special-token",
                "<|endoftext|>",
                "--out",
                str(out),
                "-q",
            ]
        )
        == 0
    )
    ids_path = tmp_path / "ids.npy"
    assert main(["encode", "--tokenizer", str(out), str(corpus), "--out", str(ids_path), "-q"]) == 0
    ids = np.load(ids_path)
    tok = Tokenizer.from_spec(load_any(out / "bpe.json"))
    assert ids.dtype == np.uint16 and ids.tolist() == tok.encode(TEXT)


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["train", "MISSING", "--vocab-size", "300", "--out", "OUT"], "does not exist"),
        (["train", "CORPUS", "--vocab-size", "10", "--out", "OUT"], "smaller than 256"),
        (["train", "CORPUS", "--vocab-size", "300", "--out", "OUT", "--format", "zip"], "unknown format"),
        (
            ["train", "CORPUS", "--vocab-size", "300", "--out", "OUT", "--pattern", "(bad"],
            "invalid pre-tokenizer",
        ),
        (["train", "CORPUS", "--vocab-size", "300", "--out", "OUT", "--special-token", ""], "empty string"),
        (["encode", "--tokenizer", "MISSING", "CORPUS", "--out", "OUT"], "does not exist"),
    ],
)
def test_user_errors_are_one_line_exit_2(tmp_path, corpus, capsys, argv, fragment):
    argv = [
        str(corpus)
        if a == "CORPUS"
        else str(tmp_path / "nope")
        if a == "MISSING"
        else str(tmp_path / "out")
        if a == "OUT"
        else a
        for a in argv
    ]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("bpe-explorer: error:") and fragment in err
    assert "\n" not in err and "Traceback" not in err


def test_console_entry_point_subprocess(tmp_path, corpus):
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "core.cli",
            "train",
            str(corpus),
            "--vocab-size",
            "5",
            "--out",
            str(tmp_path / "o"),
        ],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr and "smaller than 256" in r.stderr
    r = subprocess.run([sys.executable, "-m", "core.cli", "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "train" in r.stdout and "encode" in r.stdout


def _trained(tmp_path, corpus):
    out = tmp_path / "tok"
    assert main(["train", str(corpus), "--vocab-size", "300", "--out", str(out), "-q"]) == 0
    return out


@pytest.mark.parametrize(
    "where, fragment",
    [("folder", "is a folder"), ("under_file", "is a file, not a folder"), ("no_parent", "does not exist")],
)
def test_encode_out_is_checked_before_the_run(tmp_path, corpus, capsys, monkeypatch, where, fragment):
    import core.formats

    tok = _trained(tmp_path, corpus)
    (tmp_path / "afile").write_text("x")
    out = {
        "folder": tmp_path,
        "under_file": tmp_path / "afile" / "ids.npy",
        "no_parent": tmp_path / "nope" / "ids.npy",
    }[where]
    loaded = []
    monkeypatch.setattr(core.formats, "load_any", lambda *a, **k: loaded.append(a))
    assert main(["encode", "--tokenizer", str(tok), str(corpus), "--out", str(out), "-q"]) == 2
    err = capsys.readouterr().err
    assert fragment in err and str(out) in err
    assert loaded == []  # refused before the tokenizer was even loaded


def test_train_out_that_is_a_file_is_refused_before_training(tmp_path, corpus, capsys, monkeypatch):
    import core.pretokenization.pretokenize

    (tmp_path / "afile").write_text("x")
    counted = []
    monkeypatch.setattr(
        core.pretokenization.pretokenize, "count_pretokens", lambda *a, **k: counted.append(a)
    )
    for out in (tmp_path / "afile", tmp_path / "afile" / "sub"):
        assert main(["train", str(corpus), "--vocab-size", "300", "--out", str(out), "-q"]) == 2
        assert "is a file" in capsys.readouterr().err
    assert counted == []


def test_encode_takes_special_token_ids_for_a_tiktoken_file(tmp_path, corpus):
    from core.formats import save_tiktoken

    tok = _trained(tmp_path, corpus)
    spec = load_any(tok / "bpe.json")
    path = save_tiktoken(spec, tmp_path / "plain.tiktoken")  # specials are not stored in the file
    ids_path = tmp_path / "ids.npy"
    assert (
        main(
            [
                "encode",
                "--tokenizer",
                str(path),
                str(corpus),
                "--out",
                str(ids_path),
                "-q",
                "--special-token",
                "<|endoftext|>=1000",
            ]
        )
        == 0
    )
    ids = np.load(ids_path).tolist()
    assert ids.count(1000) == TEXT.count("<|endoftext|>")
    assert ids == Tokenizer.from_spec(load_any(path, special_tokens={"<|endoftext|>": 1000})).encode(TEXT)


@pytest.mark.parametrize(
    "values, fragment",
    [
        (["<|a|>=5", "<|b|>"], "no id while others do"),
        (["<|a|>=5", "<|b|>=5"], "same id"),
        (["<|a|>=99999999999"], "too large"),
    ],
)
def test_special_token_ids_given_badly_are_clear_errors(values, fragment):
    from core.errors import FormatError
    from core.formats import parse_special_ids

    with pytest.raises(FormatError, match=fragment):
        parse_special_ids(values)


@pytest.mark.parametrize(
    "content, says",
    [
        ("", "the corpus is empty"),
        ("<|endoftext|><|endoftext|>", "no text outside its special tokens"),
        ("ab ab", "the corpus ran out of pairs: final vocab size 259"),  # 256 + 1 special + ab, " ab"
    ],
)
def test_train_says_why_it_made_fewer_merges(tmp_path, capsys, content, says):
    corpus = tmp_path / "c.txt"
    corpus.write_text(content, encoding="utf-8")
    rc = main(
        [
            "train",
            str(corpus),
            "--vocab-size",
            "300",
            "--special-token",
            "<|endoftext|>",
            "--out",
            str(tmp_path / "tok"),
            "-q",
        ]
    )
    assert rc == 0  # (FAULTS: an empty corpus trains to the bytes and special tokens, and says so)
    out = capsys.readouterr().out
    assert says in out
    # the corpus's size in bytes (an empty one read "on 0 counted pre-tokens", as a counts file would)
    assert f"on {len(content.encode())} bytes" in out and "counted pre-tokens" not in out
    assert (tmp_path / "tok" / "bpe.json").exists()


def test_a_known_encoding_name_outside_eval_names_the_file_to_give(tmp_path, capsys, monkeypatch):
    # eval --tokenizer cl100k_base works; encode/inspect/convert --tokenizer cl100k_base said only
    # "'cl100k_base' does not exist; check the path"
    from core.evaluation.known_encodings import KNOWN
    from core.formats import ENCODING_NAMES

    assert {name: enc.file.removesuffix(".tiktoken") for name, enc in KNOWN.items()} == ENCODING_NAMES
    monkeypatch.chdir(tmp_path)
    text = tmp_path / "t.txt"
    text.write_text("hello", encoding="utf-8")
    assert main(["encode", "--tokenizer", "cl100k_base", str(text), "--out", str(tmp_path / "i.npy")]) == 2
    err = capsys.readouterr().err
    assert "read only by 'bpe-explorer eval --tokenizer'" in err and "path/to/cl100k_base.tiktoken" in err
    assert main(["inspect", "gpt2", "-q"]) == 2
    assert "path/to/r50k_base.tiktoken" in capsys.readouterr().err
    assert main(["inspect", "gpt3", "-q"]) == 2
    assert "does not exist; check the path" in capsys.readouterr().err
