"""Files we write are like the user's other files (FAULTS 26), and writing them loses nothing (FAULTS 20)."""
from __future__ import annotations

import os
import stat
import time

import pytest

from core import Tokenizer
from core.errors import FormatError
from core.formats import export_all
from core.formats._io import TEMP_SUFFIX, atomic_write
from core.npy import encode_file_to_npy
from core.spec import TokenizerSpec

SPEC = TokenizerSpec.from_merges([(b"a", b"b")], ["<|endoftext|>"])


@pytest.fixture
def umask():
    old = os.umask(0o022)
    yield lambda m: os.umask(m)
    os.umask(old)


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
    with pytest.raises(FormatError, match="No space left.*previous file is unchanged"):
        atomic_write(target, "new")
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["merges.txt"]
