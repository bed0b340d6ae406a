"""Files we write are like the user's other files (FAULTS 26), and writing them loses nothing (FAULTS 20)."""

from __future__ import annotations

import os
import stat
import time

import pytest

from core import Tokenizer
from core.errors import FormatError
from core.files import TEMP_SUFFIX, atomic_write
from core.formats import export_all
from core.formats.spec import TokenizerSpec
from core.tokenization.npy import encode_file_to_npy

SPEC = TokenizerSpec.from_merges([(b"a", b"b")], ["<|endoftext|>"])


@pytest.fixture
def umask():
    old = os.umask(0o022)
    yield lambda m: os.umask(m)
    os.umask(old)


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits (Windows has a read-only flag only)")
@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_exports_and_npy_get_the_mode_a_plain_open_gives(tmp_path, umask, mask, mode):
    umask(mask)
    files = [p for ps in export_all(tmp_path / "out", SPEC).values() for p in ps]
    corpus = tmp_path / "c.txt"
    corpus.write_text("ab ab abc<|endoftext|>", encoding="utf-8")
    files.append(encode_file_to_npy(Tokenizer.from_spec(SPEC), corpus, tmp_path / "ids.npy", workers=1).path)
    plain = tmp_path / "plain.txt"
    plain.write_text("x", encoding="utf-8")
    assert stat.S_IMODE(plain.stat().st_mode) == mode
    assert {p.name: stat.S_IMODE(p.stat().st_mode) for p in files} == {p.name: mode for p in files}


def test_leftover_temp_files_of_a_killed_run_are_removed(tmp_path):
    target = tmp_path / "vocab.json"
    old = tmp_path / f".vocab.json.abc123{TEMP_SUFFIX}"
    old.write_text("half a file", encoding="utf-8")
    an_hour_ago = time.time() - 3600
    os.utime(old, (an_hour_ago, an_hour_ago))
    fresh = tmp_path / f".vocab.json.def456{TEMP_SUFFIX}"  # maybe another run writing right now
    fresh.write_text("in progress", encoding="utf-8")
    atomic_write(target, "{}")
    assert not old.exists() and fresh.exists() and target.read_text(encoding="utf-8") == "{}"


def test_a_failed_write_keeps_the_old_file_and_no_temp_file(tmp_path, monkeypatch):
    target = tmp_path / "merges.txt"
    target.write_text("old", encoding="utf-8")

    def full_disk(*_a, **_k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(FormatError, match=r"No space left.*previous file is unchanged"):
        atomic_write(target, "new")
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["merges.txt"]


def test_deeply_nested_json_is_a_format_error(tmp_path):
    from core.formats import load_any

    p = tmp_path / "deep.json"
    p.write_text("[" * 200_000 + "]" * 200_000)
    with pytest.raises(FormatError, match="nested too deeply") as e:
        load_any(p)
    assert "deep.json" in str(e.value)


def test_an_unreadable_file_is_a_format_error(tmp_path, monkeypatch):
    from pathlib import Path

    from core.formats import load_any

    p = tmp_path / "bpe.tiktoken"
    p.write_text("YQ== 0\n")

    def denied(self):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_bytes", denied)  # chmod 0 does not stop root, who runs CI here
    with pytest.raises(FormatError, match="Permission denied") as e:
        load_any(p)
    assert "bpe.tiktoken" in str(e.value)


def test_an_export_that_fails_part_way_leaves_the_previous_export_whole(tmp_path, monkeypatch):
    from core.formats import load_any

    old = TokenizerSpec.from_merges([(b"a", b"b")], ["<|e|>"])
    new = TokenizerSpec.from_merges([(b"a", b"b"), (b"ab", b"c"), (b"x", b"y")], ["<|e|>"])
    export_all(tmp_path, old)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    real_fsync = os.fsync
    calls = []

    def full_disk_at_the_third_file(fd):
        calls.append(fd)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", full_disk_at_the_third_file)
    with pytest.raises(FormatError, match="No space left"):
        export_all(tmp_path, new)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # no new vocab.json, no temp files
    monkeypatch.undo()
    for name in ("vocab.json", "merges.txt", "bpe.json", "tokenizer.json", "bpe.tiktoken"):
        assert load_any(tmp_path / name, special_tokens=["<|e|>"]).merges == old.merges, name
    export_all(tmp_path, new)
    assert load_any(tmp_path).merges == new.merges and load_any(tmp_path / "vocab.json").merges == new.merges
