"""Minor cases of issue 25: decode of a non-sequence, None in encode_iterable, an empty --counts folder,
corpus notes on the command line, stale temp files of a killed run."""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

from core.cli import main
from core.errors import TokenizerError
from core.files import IDLE_TEMP_SECONDS, TEMP_SUFFIX, atomic_write, new_temp, remove_stale_temps
from core.formats.spec import TokenizerSpec
from core.scale.counts_schema import CountsError
from core.tokenization.tokenizer import Tokenizer


@pytest.fixture(scope="module")
def tok():
    return Tokenizer.from_spec(TokenizerSpec.from_merges([(b"a", b"b")]))


@pytest.mark.parametrize("bad", [5, None, "ab", b"ab", np.int64(3)])
def test_decode_of_something_that_is_not_a_sequence_of_ids(tok, bad):
    with pytest.raises(TokenizerError, match=r"decode\(\) takes a sequence of token ids"):
        tok.decode(bad)


def test_decode_still_takes_lists_tuples_arrays_and_iterators(tok):
    assert tok.decode([97, 98]) == tok.decode((97, 98)) == tok.decode(np.array([97, 98])) == "ab"
    assert tok.decode(iter([97])) == "a" and tok.decode([]) == ""


def test_none_in_encode_iterable_is_an_error_not_skipped(tok):
    with pytest.raises(TokenizerError, match="every item must be a str"):
        list(tok.encode_iterable(["a", None, "b"]))
    assert list(tok.encode_iterable(["a", "", "b"])) == tok.encode("ab")


def test_an_empty_folder_as_counts(tmp_path, capsys):
    pytest.importorskip("pyarrow")
    from core.scale.counts_io import read_counts

    empty = tmp_path / "counts"
    empty.mkdir()
    (empty / "_SUCCESS").write_text("", encoding="utf-8")
    with pytest.raises(CountsError, match="is a folder without data files"):
        read_counts(empty)
    assert (
        main(["train", "--counts", str(empty), "--vocab-size", "300", "--out", str(tmp_path / "o"), "-q"])
        == 2
    )
    assert "lacks the column" not in capsys.readouterr().err


def test_train_prints_the_corpus_notes(tmp_path, capsys):
    corpus = tmp_path / "bom.txt"
    corpus.write_bytes(b"\xef\xbb\xbf" + b"hello world " * 50)
    assert main(["train", str(corpus), "--vocab-size", "260", "--out", str(tmp_path / "o"), "-q"]) == 0
    assert "note: bom.txt: starts with a UTF-8 byte-order mark" in capsys.readouterr().err


def _age(path, seconds):
    t = time.time() - seconds
    os.utime(path, (t, t))


def test_a_killed_runs_temp_files_go_on_the_next_run_in_that_folder(tmp_path):
    killed = tmp_path / f".ids.npy.abc{TEMP_SUFFIX}"  # another file's, left a few minutes ago, unlocked
    killed.write_bytes(b"x" * 1000)
    _age(killed, IDLE_TEMP_SECONDS + 30)
    fd, writing = new_temp(tmp_path / "counts.parquet")  # a run writing now: locked while its fd is open
    try:
        _age(writing, IDLE_TEMP_SECONDS + 30)  # (even when it has not written for a while)
        atomic_write(tmp_path / "vocab.json", "{}")  # the next run in that folder
        assert not killed.exists() and os.path.exists(writing)
    finally:
        os.close(fd)
    assert remove_stale_temps(tmp_path) == [tmp_path / os.path.basename(writing)]  # closed: unlocked now


def test_a_fresh_unlocked_temp_file_is_kept(tmp_path):
    fresh = tmp_path / f".merges.txt.def{TEMP_SUFFIX}"  # written a moment ago (a staged export's)
    fresh.write_bytes(b"in progress")
    assert remove_stale_temps(tmp_path) == [] and fresh.exists()


def test_count_prints_the_corpus_notes(tmp_path, capsys):
    pytest.importorskip("pyarrow")
    corpus = tmp_path / "bom.txt"
    corpus.write_bytes(b"\xef\xbb\xbf" + b"hello world " * 50)
    assert main(["count", str(corpus), "--out", str(tmp_path / "c.parquet"), "-q"]) == 0
    assert "note: bom.txt starts with a UTF-8 byte-order mark" in capsys.readouterr().err
