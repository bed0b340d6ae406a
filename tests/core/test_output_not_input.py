"""No command writes over one of its inputs: same path, symlink or hard link; refused before any work."""

from __future__ import annotations

import os

import pytest

from core.cli import main
from core.formats import export_all
from core.formats.spec import TokenizerSpec
from core.tokenization.npy import encode_file_to_npy
from core.tokenization.tokenizer import Tokenizer

TEXT = "the cat sat on the mat; the cat ate the rat.\n" * 50


@pytest.fixture()
def corpus(tmp_path):
    p = tmp_path / "in.txt"
    p.write_text(TEXT, encoding="utf-8")
    return p


@pytest.fixture()
def tokdir(tmp_path):
    d = tmp_path / "tok"
    export_all(d, TokenizerSpec.from_merges([(b"t", b"h"), (b"th", b"e")], ["<|endoftext|>"]))
    return d


def _refused(argv, capsys, *keep):
    before = {p: p.read_bytes() for p in keep}
    assert main([*argv, *(["-q"] if argv[0] != "convert" else [])]) == 2
    err = capsys.readouterr().err
    assert "would destroy the input" in err, err
    for p, data in before.items():
        assert p.read_bytes() == data, f"{p} was changed"
    return err


def _link(kind, src, dst):
    if kind == "symlink":
        dst.symlink_to(src)
    else:
        os.link(src, dst)
    return dst


def test_encode_out_is_the_input(corpus, tokdir, capsys):
    err = _refused(["encode", "--tokenizer", str(tokdir), str(corpus), "--out", str(corpus)], capsys, corpus)
    assert "(the same file)" in err


@pytest.mark.parametrize("kind", ["symlink", "hardlink"])
def test_encode_out_is_a_link_to_the_input(corpus, tokdir, capsys, kind):
    out = _link(kind, corpus, corpus.with_name("ids.npy"))
    err = _refused(["encode", "--tokenizer", str(tokdir), str(corpus), "--out", str(out)], capsys, corpus)
    assert "through a link" in err


def test_encode_out_is_the_tokenizer_file(corpus, tokdir, capsys):
    vocab = tokdir / "vocab.json"
    _refused(
        ["encode", "--tokenizer", str(vocab), str(corpus), "--out", str(tokdir / "merges.txt")], capsys, vocab
    )


def test_encode_api_refuses_too(corpus, tmp_path):
    tok = Tokenizer.from_spec(TokenizerSpec.from_merges([(b"t", b"h")]))
    with pytest.raises(Exception, match="would destroy the input"):
        encode_file_to_npy(tok, corpus, corpus)
    assert corpus.read_text(encoding="utf-8") == TEXT


def test_count_out_is_the_input(corpus, capsys):
    pytest.importorskip("pyarrow")
    _refused(["count", str(corpus), "--out", str(corpus)], capsys, corpus)


def test_count_out_is_the_input_through_a_glob(corpus, capsys):
    pytest.importorskip("pyarrow")
    _refused(["count", str(corpus.parent / "*.txt"), "--out", str(corpus)], capsys, corpus)


@pytest.mark.parametrize("opt", ["--json", "--csv"])
def test_eval_output_is_the_input(corpus, tokdir, capsys, opt):
    _refused(["eval", "--tokenizer", str(tokdir), str(corpus), opt, str(corpus)], capsys, corpus)


def test_eval_output_is_a_tokenizer_file(corpus, tokdir, capsys):
    vocab = tokdir / "vocab.json"
    _refused(["eval", "--tokenizer", str(tokdir), str(corpus), "--json", str(vocab)], capsys, vocab)


def test_eval_json_and_csv_the_same_file(corpus, tokdir, tmp_path, capsys):
    out = tmp_path / "r.txt"
    assert (
        main(["eval", "--tokenizer", str(tokdir), str(corpus), "--json", str(out), "--csv", str(out), "-q"])
        == 2
    )
    assert "same file" in capsys.readouterr().err and not out.exists()


def test_train_out_holds_the_corpus(tmp_path, capsys):
    d = tmp_path / "d"
    d.mkdir()
    corpus = d / "vocab.json"  # a corpus whose name is one the export writes
    corpus.write_text(TEXT, encoding="utf-8")
    _refused(["train", str(corpus), "--vocab-size", "270", "--out", str(d)], capsys, corpus)


def test_train_counts_out_is_the_counts_file(tmp_path, corpus, capsys):
    pytest.importorskip("pyarrow")
    d = tmp_path / "d"
    d.mkdir()
    counts = d / "bpe.json"
    assert main(["count", str(corpus), "--out", str(counts), "-q"]) == 0
    _refused(["train", "--counts", str(counts), "--vocab-size", "270", "--out", str(d)], capsys, counts)


def test_convert_into_its_own_folder(tokdir, capsys):
    (tokdir / "bpe.json").unlink()  # the folder then loads from tokenizer.json, which convert would rewrite
    _refused(["convert", str(tokdir), "--out", str(tokdir)], capsys, tokdir / "tokenizer.json")


def test_other_outputs_still_work(corpus, tokdir, tmp_path):
    assert (
        main(["encode", "--tokenizer", str(tokdir), str(corpus), "--out", str(tmp_path / "ids.npy"), "-q"])
        == 0
    )
    assert main(["convert", str(tokdir / "bpe.json"), "--out", str(tmp_path / "c"), "--format", "hf"]) == 0


def test_dask_encode_shard_folder_holds_an_input_shard(tmp_path, tokdir, capsys):
    out = tmp_path / "shards"
    out.mkdir()
    shard = out / "shard-00000.npy"  # a text file named like a shard: the run would write over it
    shard.write_text(TEXT, encoding="utf-8")
    _refused(
        ["encode", "--tokenizer", str(tokdir), str(shard), "--engine", "dask", "--out", str(out)],
        capsys,
        shard,
    )


# the exploring commands (audit, inspect, compare, trace, train --extend) keep the same rule
def test_audit_json_is_the_corpus(corpus, tmp_path, capsys):
    merges = tmp_path / "merges.txt"
    merges.write_text("t h\n", encoding="utf-8")
    _refused(["audit", str(corpus), "--merges", str(merges), "--json", str(corpus)], capsys, corpus)
    _refused(["audit", str(corpus), "--merges", str(merges), "--json", str(merges)], capsys, merges)


@pytest.mark.parametrize("command", ["inspect", "trace"])
def test_json_is_a_file_of_the_tokenizer(command, tokdir, capsys):
    target = tokdir / "vocab.json"
    extra = ["--id", "256"] if command == "trace" else []
    _refused([command, str(tokdir), *extra, "--json", str(target)], capsys, target)


def test_compare_json_is_a_corpus_file(corpus, tokdir, capsys):
    _refused(
        ["compare", str(tokdir), str(tokdir), "--corpus", str(corpus), "--json", str(corpus)], capsys, corpus
    )


@pytest.mark.parametrize("kind", ["symlink", "hardlink"])
def test_extend_out_holds_the_base_through_a_link(corpus, tokdir, tmp_path, capsys, kind):
    out = tmp_path / "extended"
    out.mkdir()
    _link(kind, tokdir / "vocab.json", out / "vocab.json")
    _refused(
        [
            "train",
            str(corpus),
            "--extend",
            str(tokdir),
            "--vocab-size",
            "300",
            "--format",
            "gpt2",
            "--out",
            str(out),
        ],
        capsys,
        tokdir / "vocab.json",
    )


# ------------------------------------------------------------------ --out names a file of another kind
def _encode_argv(tokdir, corpus, out, *extra):
    return ["encode", "--tokenizer", str(tokdir), str(corpus), "--out", str(out), "-q", *extra]


def test_encode_does_not_replace_a_file_that_is_not_a_npy_without_force(corpus, tokdir, tmp_path, capsys):
    """A slip such as --out notes.txt replaced a document with ids, with only a note about the suffix."""
    notes = tmp_path / "notes.txt"
    notes.write_text("precious words\n", encoding="utf-8")
    assert main(_encode_argv(tokdir, corpus, notes)) == 2
    err = capsys.readouterr().err
    assert "exists and is not a .npy file" in err and "--force" in err and "precious words" in err, err
    assert notes.read_text(encoding="utf-8") == "precious words\n"
    assert main(_encode_argv(tokdir, corpus, notes, "--force")) == 0
    assert notes.read_bytes().startswith(b"\x93NUMPY")


@pytest.mark.parametrize("earlier", [b"", None])
def test_encode_replaces_an_earlier_npy_or_an_empty_file(corpus, tokdir, tmp_path, earlier):
    out = tmp_path / "ids.npy"
    if earlier is None:
        assert main(_encode_argv(tokdir, corpus, out)) == 0  # an earlier run's .npy
    else:
        out.write_bytes(earlier)
    assert main(_encode_argv(tokdir, corpus, out)) == 0
    assert out.read_bytes().startswith(b"\x93NUMPY")


def test_count_does_not_replace_a_file_that_is_not_parquet_without_force(corpus, tmp_path, capsys):
    pytest.importorskip("pyarrow")
    doc = tmp_path / "doc.md"
    doc.write_text("# my notes\n", encoding="utf-8")
    assert main(["count", str(corpus), "--out", str(doc), "-q"]) == 2
    assert "exists and is not a Parquet file" in capsys.readouterr().err
    assert doc.read_text(encoding="utf-8") == "# my notes\n"
    assert main(["count", str(corpus), "--out", str(doc), "-q", "--force"]) == 0
    assert doc.read_bytes().startswith(b"PAR1")
    assert main(["count", str(corpus), "--out", str(doc), "-q"]) == 0  # (now a counts file: replaced)


@pytest.mark.parametrize("command", ["train", "encode", "count", "convert"])
def test_an_empty_out_is_refused_not_taken_as_the_current_folder(
    command, corpus, tokdir, tmp_path, capsys, monkeypatch
):
    """``--out "$OUT"`` with OUT unset wrote the files into the current folder."""
    if command == "count":
        pytest.importorskip("pyarrow")
    monkeypatch.chdir(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    argv = {
        "train": ["train", str(corpus), "--vocab-size", "260", "--out", "", "-q"],
        "encode": ["encode", "--tokenizer", str(tokdir), str(corpus), "--out", "", "-q"],
        "count": ["count", str(corpus), "--out", "", "-q"],
        "convert": ["convert", str(tokdir), "--out", ""],
    }[command]
    assert main(argv) == 2
    assert "--out is empty" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.mark.parametrize("value", ["0", "-2", "two"])
def test_workers_below_one_are_refused(value, corpus, tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        main(["train", str(corpus), "--vocab-size", "260", "--out", str(tmp_path / "o"), "--workers", value])
    assert e.value.code == 2
    assert "--workers" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()
