"""A folder exported twice never loads as a mixed folder: the export record decides by content, not by clock."""

from __future__ import annotations

import json
import os
import re

import pytest

from core.cli import main
from core.errors import FormatError
from core.formats import export_all, load_any, save_native
from core.formats.export_record import RECORD_NAME
from core.formats.spec import TokenizerSpec

SMALL = TokenizerSpec.from_merges([(b"a", b"b")], ["<|endoftext|>"])
BIG = TokenizerSpec.from_merges([(b"a", b"b"), (b"ab", b"c"), (b"c", b"d")], ["<|endoftext|>"])
TOKEN_FILES = ("bpe.json", "tokenizer.json", "vocab.json", "merges.txt", "bpe.tiktoken")


def _same_time(folder, t=1_700_000_000):
    """Every file gets the same modification time: only the content can tell the exports apart."""
    for p in folder.iterdir():
        os.utime(p, (t, t))


def test_the_issue_two_trainings_back_to_back(tmp_path, capsys):
    corpus = tmp_path / "c.txt"
    corpus.write_text("the quick brown fox jumps over the lazy dog. " * 300, encoding="utf-8")
    d = tmp_path / "d"
    assert main(["train", str(corpus), "--vocab-size", "265", "--out", str(d), "-q"]) == 0
    assert main(["train", str(corpus), "--vocab-size", "275", "--format", "gpt2", "--out", str(d), "-q"]) == 0
    capsys.readouterr()
    assert main(["encode", "--tokenizer", str(d), str(corpus), "--out", str(tmp_path / "ids.npy"), "-q"]) == 2
    assert "vocab.json, merges.txt are newer than bpe.json" in capsys.readouterr().err
    assert not (tmp_path / "ids.npy").exists()
    assert len(load_any(d / "vocab.json").merges) == 275 - 256


@pytest.mark.parametrize("stale_time", ["same", "stale_in_the_future"])
def test_a_later_partial_export_is_found_whatever_the_clock(tmp_path, stale_time):
    export_all(tmp_path, SMALL)
    export_all(tmp_path, BIG, "gpt2")
    _same_time(tmp_path)
    if stale_time == "stale_in_the_future":
        os.utime(tmp_path / "bpe.json", (2_000_000_000, 2_000_000_000))
    with pytest.raises(FormatError, match=re.escape("vocab.json, merges.txt are newer than bpe.json")):
        load_any(tmp_path)
    assert load_any(tmp_path / "vocab.json").merges == BIG.merges


def test_without_native_too(tmp_path):
    export_all(tmp_path, SMALL, "hf,gpt2")
    export_all(tmp_path, BIG, "gpt2")
    _same_time(tmp_path)
    with pytest.raises(FormatError, match=re.escape("newer than tokenizer.json")):
        load_any(tmp_path)


def test_a_later_export_of_the_first_format_loads(tmp_path):
    export_all(tmp_path, SMALL)
    export_all(tmp_path, BIG, "native")  # the latest export is the one that loads: no error
    _same_time(tmp_path)
    assert load_any(tmp_path).merges == BIG.merges


def test_touched_files_with_the_same_content_are_no_alarm(tmp_path):
    export_all(tmp_path, SMALL)
    os.utime(tmp_path / "vocab.json", (2_000_000_000, 2_000_000_000))  # newer by the clock, same content
    assert load_any(tmp_path).merges == SMALL.merges


def test_files_changed_after_the_export(tmp_path):
    export_all(tmp_path, SMALL)
    save_native(BIG, tmp_path / "bpe.json")  # an edit of the file that loads: it is the newest
    assert load_any(tmp_path).merges == BIG.merges
    with pytest.raises(FormatError, match=r"already holds bpe\.json, which no export"):
        export_all(tmp_path, SMALL)  # (the edited file is not replaced without asking)
    export_all(tmp_path, SMALL, replace_others=True)
    (tmp_path / "vocab.json").write_text(json.dumps({"x": 0}), encoding="utf-8")  # another tool wrote it
    _same_time(tmp_path)
    with pytest.raises(FormatError, match=re.escape("vocab.json is newer than bpe.json")):
        load_any(tmp_path)


def test_an_export_that_fails_before_its_record_is_published(tmp_path, monkeypatch):
    export_all(tmp_path, SMALL)
    real = os.replace

    def no_record(src, dst):
        if os.fspath(dst).endswith(RECORD_NAME):
            raise OSError(28, "No space left on device")
        real(src, dst)

    monkeypatch.setattr(os, "replace", no_record)
    with pytest.raises(FormatError, match="already replaced"):
        export_all(tmp_path, BIG, "gpt2")
    monkeypatch.setattr(os, "replace", real)
    _same_time(tmp_path)
    with pytest.raises(
        FormatError, match=re.escape("newer than bpe.json")
    ):  # the old record does not know them
        load_any(tmp_path)


@pytest.mark.parametrize(
    "junk",
    [b"", b"{", b"[1]", b'{"format": "bpe-explorer-export", "files": {"vocab.json": 5}}', b"\xff" * 10],
)
def test_a_damaged_record_falls_back_to_the_times(tmp_path, junk):
    export_all(tmp_path, SMALL)
    (tmp_path / RECORD_NAME).write_bytes(junk)
    assert load_any(tmp_path).merges == SMALL.merges


def test_the_record_lists_the_files_of_its_export(tmp_path):
    written = export_all(tmp_path, SMALL, "gpt2,native")
    record = json.loads((tmp_path / RECORD_NAME).read_text(encoding="utf-8"))
    assert sorted(record["files"]) == sorted(p.name for ps in written.values() for p in ps)
    assert all(record["files"][p.name]["size"] == p.stat().st_size for ps in written.values() for p in ps)
