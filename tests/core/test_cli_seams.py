"""What a first user of the command line ran into: -q on convert, the pyarrow check of count, a
folder named the same way by every command, and SentencePiece piece names in trace and inspect."""

from __future__ import annotations

import sys
from importlib import resources

import pytest

from core.cli import main

TEXT = "the cat sat on the mat; the dog sat on the log. " * 40


@pytest.fixture()
def trained(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(TEXT, encoding="utf-8")
    out = tmp_path / "tok"
    assert main(["train", str(corpus), "--vocab-size", "270", "--out", str(out), "-q"]) == 0
    return corpus, out


def test_convert_takes_q_as_every_command_does(tmp_path, trained, capsys):
    _corpus, tok = trained
    capsys.readouterr()
    assert (
        main(["convert", str(tok / "vocab.json"), "--out", str(tmp_path / "c"), "--format", "native", "-q"])
        == 0
    )
    err = capsys.readouterr().err
    assert "unrecognized" not in err and "note:" not in err, err
    assert (tmp_path / "c" / "bpe.json").is_file()


def test_count_says_it_needs_pyarrow_before_reading_the_corpus(tmp_path, trained, capsys, monkeypatch):
    import core.scale.counts as counts

    corpus, _tok = trained

    def no_counting(*_a, **_k):
        raise AssertionError("the corpus was counted before the pyarrow check")

    monkeypatch.setattr(counts, "count_files", no_counting)
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as where it is not installed
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    assert main(["count", str(corpus), "--out", str(tmp_path / "c.parquet")]) == 2
    err = capsys.readouterr().err
    assert "pyarrow" in err and "pre-tokenize" not in err, err


@pytest.mark.parametrize(
    "argv",
    [
        ["train", "{dir}", "--vocab-size", "300", "--out", "{tmp}/o", "-q"],
        ["encode", "--tokenizer", "{tok}", "{dir}", "--out", "{tmp}/x.npy", "-q"],
        ["eval", "--tokenizer", "{tok}", "{dir}", "-q"],
        ["inspect", "{tok}", "--corpus", "{dir}", "-q"],
        ["trace", "{tok}", "--id", "260", "--corpus", "{dir}", "-q"],
    ],
)
def test_a_folder_given_as_a_text_is_called_a_folder_by_every_command(tmp_path, trained, capsys, argv):
    """encode said "does not exist or is not a file" where train said "is a folder"."""
    _corpus, tok = trained
    folder = tmp_path / "texts"
    folder.mkdir()
    args = [a.format(dir=folder, tmp=tmp_path, tok=tok) for a in argv]
    capsys.readouterr()
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"'{folder}' is a folder; choose a text file" in err, err


def _sp_model():
    data = resources.files("mistral_common") / "data"
    return data / next(p.name for p in data.iterdir() if p.name.endswith(".model.v1"))


def test_sentencepiece_pieces_are_named_as_the_app_shows_them(capsys):
    """trace --text '▁the' failed (only ' the' worked) and inspect listed "35 ' ', 28705 ' '"."""
    with resources.as_file(_sp_model()) as path:
        assert main(["trace", str(path), "--text", "▁the", "-q"]) == 0
        by_piece = capsys.readouterr().out
        assert main(["trace", str(path), "--text", " the", "-q"]) == 0
        assert capsys.readouterr().out == by_piece
        assert by_piece.startswith("token 272 ") and "  piece '▁the'" in by_piece
        assert main(["inspect", str(path), "-q"]) == 0
    out = capsys.readouterr().out
    assert "unreachable from their text: 4 '<0x01>', 5 '<0x02>'" in out, out  # (byte pieces by name)
    assert "28705 '▁'" not in out  # (▁ is a space, reached: `a ` gives ▁a ▁)


def test_errors_say_one_special_token_not_token_s(tmp_path, capsys):
    corpus = tmp_path / "c.txt"
    corpus.write_text("hello world", encoding="utf-8")
    argv = ["train", str(corpus), "--vocab-size", "100", "--out", str(tmp_path / "o"), "-q"]
    assert main([*argv, "--special-token", "<|endoftext|>"]) == 2
    err = capsys.readouterr().err
    assert "256 bytes + 1 special token = 257" in err and "(s)" not in err, err
    assert main([*argv, "--special-token", "<a>", "--special-token", "<b>"]) == 2
    assert "+ 2 special tokens = 258" in capsys.readouterr().err


def test_encode_writes_ids_exactly_where_out_says_and_names_that_file(tmp_path, trained, capsys, monkeypatch):
    """``--out ids`` (no suffix): the ids land in ``ids`` itself, not ``ids.npy`` as numpy's save would
    make it, and the message names the whole path and says it is a .npy all the same; a quoted ``~``
    is the home folder (it was refused: "folder '~' does not exist")."""
    import numpy as np

    from core import Tokenizer
    from core.formats import load_any

    corpus, tok = trained
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    capsys.readouterr()
    assert main(["encode", str(corpus), "--tokenizer", str(tok), "--out", "ids", "--workers", "1", "-q"]) == 0
    out = capsys.readouterr().out
    assert sorted(p.name for p in work.iterdir()) == ["ids"]
    want = Tokenizer.from_spec(load_any(tok)).encode(corpus.read_text(encoding="utf-8"))
    assert np.load(work / "ids").tolist() == want
    assert out.rstrip().endswith(
        f"-> {work / 'ids'} (a NumPy .npy array, under the name given: no .npy suffix was added)"
    )
    assert (
        main(["encode", str(corpus), "--tokenizer", str(tok), "--out", "ids.npy", "--workers", "1", "-q"])
        == 0
    )
    assert capsys.readouterr().out.rstrip().endswith(f"-> {work / 'ids.npy'}")
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    assert (
        main(["encode", str(corpus), "--tokenizer", str(tok), "--out", "~/ids.npy", "--workers", "1", "-q"])
        == 0
    )
    assert capsys.readouterr().out.rstrip().endswith(f"-> {home / 'ids.npy'}")
    assert np.load(home / "ids.npy").tolist() == want
