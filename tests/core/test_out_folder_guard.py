"""An export never replaces another tokenizer's files without being asked to: ``train``, ``convert``
and ``train --extend`` refuse an --out folder that holds tokenizer files bpe-explorer did not write
there (before any work; ``--force`` replaces them); files of our own earlier exports are replaced.
A format that cannot hold a tokenizer (vocab.json of a SentencePiece model) is left out by convert,
the others are written (it wrote nothing)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from core.cli import main
from core.errors import FormatError
from core.formats import export_all, load_any
from core.formats.spec import TokenizerSpec

TEXT = "the cat sat on the mat. the dog sat on the log.\n" * 30
SMALL = TokenizerSpec.from_merges([(b"t", b"h")])
BIG = TokenizerSpec.from_merges([(b"t", b"h"), (b"th", b"e")])


@pytest.fixture
def corpus(tmp_path) -> Path:
    p = tmp_path / "c.txt"
    p.write_text(TEXT, encoding="utf-8")
    return p


def _foreign(folder: Path) -> dict[str, bytes]:
    folder.mkdir()
    files = {"vocab.json": json.dumps({"x": 0}).encode(), "merges.txt": b"#version: 0.2\n"}
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return files


def _unchanged(folder: Path, files: dict[str, bytes]) -> bool:
    return all((folder / n).read_bytes() == d for n, d in files.items())


def test_train_refuses_another_tokenizers_files_before_the_run(tmp_path, corpus, capsys):
    out = tmp_path / "gpt2"
    files = _foreign(out)
    assert main(["train", str(corpus), "--vocab-size", "270", "--out", str(out), "-q"]) == 2
    err = capsys.readouterr().err
    assert (
        "already holds vocab.json, merges.txt, which no export of bpe-explorer wrote" in err
        and "--force" in err
    )
    assert _unchanged(out, files) and not (out / "bpe.json").exists()  # (refused before the run)
    assert main(["train", str(corpus), "--vocab-size", "270", "--out", str(out), "-q", "--force"]) == 0
    assert len(load_any(out / "vocab.json").merges) == 270 - 256


def test_our_own_exports_are_replaced_without_asking(tmp_path, corpus):
    out = tmp_path / "out"
    for size in ("270", "280"):  # (a second run into the same folder)
        assert main(["train", str(corpus), "--vocab-size", size, "--out", str(out), "-q"]) == 0
    export_all(out, SMALL, "gpt2")  # the record now lists the GPT-2 files; bpe.json is an earlier export's
    export_all(out, BIG)  # … still ours: replaced
    assert load_any(out).merges == BIG.merges


def test_a_file_edited_since_the_export_is_not_replaced(tmp_path):
    export_all(tmp_path, SMALL)
    (tmp_path / "tokenizer.json").write_text("{}", encoding="utf-8")  # edited by hand
    with pytest.raises(FormatError, match=r"already holds tokenizer\.json") as e:
        export_all(tmp_path, BIG)
    assert e.value.code == "export_replaces" and e.value.params["files"] == "tokenizer.json"
    assert (tmp_path / "tokenizer.json").read_text() == "{}"
    export_all(tmp_path, BIG, replace_others=True)
    assert load_any(tmp_path / "tokenizer.json").merges == BIG.merges


def test_convert_and_extend_refuse_too(tmp_path, corpus, capsys):
    base = tmp_path / "base"
    export_all(base, SMALL)
    out = tmp_path / "other"
    files = _foreign(out)
    assert main(["convert", str(base / "bpe.json"), "--out", str(out)]) == 2
    assert "already holds" in capsys.readouterr().err and _unchanged(out, files)
    argv = [
        "train",
        str(corpus),
        "--extend",
        str(base / "bpe.json"),
        "--vocab-size",
        "262",
        "--out",
        str(out),
    ]
    assert main([*argv, "-q"]) == 2
    assert "already holds" in capsys.readouterr().err and _unchanged(out, files)
    assert main([*argv, "-q", "--force"]) == 0
    assert not _unchanged(out, files)


def test_convert_of_a_sentencepiece_model_writes_the_formats_that_hold_it(tmp_path, capsys):
    model = Path(str(resources.files("mistral_common") / "data" / "tokenizer.model.v1"))
    out = tmp_path / "sp"
    assert main(["convert", str(model), "--out", str(out)]) == 2
    assert "export 'hf' or 'native'" in capsys.readouterr().err and not out.exists()  # (lossy: asked first)
    assert main(["convert", str(model), "--out", str(out), "--allow-lossy"]) == 2  # (not all were written)
    err = capsys.readouterr().err
    assert "the gpt2 format was not written" in err and "--format hf,native" in err
    assert (out / "tokenizer.json").is_file() and (out / "bpe.json").is_file()
    assert not (out / "vocab.json").exists()
    assert load_any(out / "tokenizer.json").vocab == load_any(model).vocab


def test_files_left_from_an_earlier_export_are_named(tmp_path, corpus, capsys):
    """A SentencePiece export over a GPT-2 one left vocab.json & co. of the old tokenizer beside the new
    files without a word: reading them gave the other tokenizer."""
    out = tmp_path / "o"
    assert main(["train", str(corpus), "--vocab-size", "270", "--out", str(out), "-q"]) == 0
    capsys.readouterr()
    assert (
        main(["train", str(corpus), "--vocab-size", "280", "--out", str(out), "-q", "--format", "native"])
        == 0
    )
    err = capsys.readouterr().err
    assert (
        "also holds bpe.tiktoken, merges.txt, tokenizer.json, vocab.json from before, not written now" in err
    )
    assert main(["train", str(corpus), "--vocab-size", "280", "--out", str(out), "-q"]) == 0
    assert "from before" not in capsys.readouterr().err  # (all written now)


def test_a_counts_file_given_as_the_corpus_points_to_counts(tmp_path, capsys):
    counts = tmp_path / "c.parquet"
    counts.write_bytes(b"PAR1\x00\x00binary")
    assert main(["train", str(counts), "--vocab-size", "300", "--out", str(tmp_path / "o"), "-q"]) == 2
    err = capsys.readouterr().err
    assert f"--counts {counts}" in err and "--allow-nul" not in err
