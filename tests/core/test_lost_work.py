"""Unclear errors and lost work (issue 25): errors name the right file and come before the work."""

from __future__ import annotations

import builtins
import os

import pytest

import core.tokenization.npy
from core.cli import main
from core.formats import export_all, load_any
from core.formats.partial_export import export_what_fits
from core.formats.spec import TokenizerSpec

TEXT = "hello world | foo bar | hello again\n" * 40


@pytest.fixture()
def corpus(tmp_path):
    p = tmp_path / "c.txt"
    p.write_text(TEXT, encoding="utf-8")
    return p


@pytest.fixture()
def tokdir(tmp_path):
    d = tmp_path / "tok"
    export_all(d, TokenizerSpec.from_merges([(b"h", b"e")], ["<|endoftext|>"]))
    return d


def test_encode_of_an_unreadable_input_names_the_input(corpus, tokdir, tmp_path, capsys, monkeypatch):
    real_open = builtins.open

    def no_read(path, *a, **k):
        if os.fspath(path) == str(corpus):
            raise PermissionError(13, "Permission denied", str(corpus))
        return real_open(path, *a, **k)

    monkeypatch.setattr(core.tokenization.npy, "open", no_read, raising=False)
    out = tmp_path / "ids.npy"
    assert main(["encode", "--tokenizer", str(tokdir), str(corpus), "--out", str(out), "-q"]) == 2
    err = capsys.readouterr().err
    assert f"cannot read the input '{corpus}': Permission denied" in err and "ids.npy" not in err
    assert not out.exists() and not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("special", ["|", "o", "\n"])
def test_a_one_byte_special_token_is_refused_before_training(corpus, tmp_path, capsys, special):
    out = tmp_path / "out"
    assert (
        main(
            ["train", str(corpus), "--vocab-size", "280", "--special-token", special, "--out", str(out), "-q"]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert "is a single byte" in err and "--format tiktoken,native" in err
    assert not out.exists()  # refused before the run (it trained, then wrote nothing)
    assert (
        main(
            [
                "train",
                str(corpus),
                "--vocab-size",
                "280",
                "--special-token",
                special,
                "--out",
                str(out),
                "--format",
                "tiktoken,native",
                "-q",
            ]
        )
        == 0
    )
    assert load_any(out / "bpe.json").special_tokens == (special,)


def test_a_one_byte_special_token_of_a_counts_file(corpus, tmp_path, capsys):
    pytest.importorskip("pyarrow")
    counts = tmp_path / "c.parquet"
    assert main(["count", str(corpus), "--special-token", "|", "--out", str(counts), "-q"]) == 0
    assert (
        main(["train", "--counts", str(counts), "--vocab-size", "280", "--out", str(tmp_path / "o"), "-q"])
        == 2
    )
    assert "is a single byte" in capsys.readouterr().err


def test_what_fits_is_written_when_a_format_cannot_hold_the_tokenizer(tmp_path):
    spec = TokenizerSpec.from_merges([(b"h", b"e")], ["|"])
    written, failed = export_what_fits(tmp_path, spec, "all")
    assert sorted(written) == ["native", "tiktoken"] and sorted(failed) == ["gpt2", "hf"]
    assert "same token" in str(failed["gpt2"]) and "each token once" in str(failed["hf"])
    assert load_any(tmp_path).special_tokens == ("|",)  # the folder loads: one export, no mixed files
    assert not (tmp_path / "vocab.json").exists()


def test_eval_checks_its_outputs_before_the_work(corpus, tokdir, tmp_path, capsys):
    out = tmp_path / "no" / "such" / "r.json"
    assert main(["eval", "--tokenizer", str(tokdir), "/no/such/corpus.txt", "--json", str(out), "-q"]) == 2
    assert "does not exist; create it first" in capsys.readouterr().err  # the folder, before the corpus


@pytest.mark.parametrize("command", ["count", "eval"])
def test_a_read_only_output_folder_is_found_first(corpus, tokdir, tmp_path, capsys, monkeypatch, command):
    ro = tmp_path / "ro"
    ro.mkdir()
    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda p, mode, **k: False if os.fspath(p) == str(ro) else real_access(p, mode, **k)
    )
    missing = str(tmp_path / "missing.txt")  # read first, it would fail with another message
    if command == "count":
        argv = ["count", missing, "--out", str(ro / "c.parquet"), "-q"]
    else:
        argv = ["eval", "--tokenizer", str(tokdir), missing, "--json", str(ro / "r.json"), "-q"]
    assert main(argv) == 2
    assert "is not writable; choose another folder" in capsys.readouterr().err


def test_a_folder_that_takes_no_format_gives_one_error(tmp_path, monkeypatch):
    import core.files

    spec = TokenizerSpec.from_merges([(b"h", b"e")], ["|"])

    def no_temp(path):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(core.files, "new_temp", no_temp)
    with pytest.raises(Exception, match="No space left on device") as e:
        export_what_fits(tmp_path, spec, "tiktoken,native")
    assert "cannot write" in str(e.value)
