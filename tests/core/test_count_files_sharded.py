"""`bpe-explorer count` / core.scale.counts.count_files with worker processes: the workers read local
files by byte ranges and sum the counts among themselves (core.pretokenization.sharded_count with
positions); the counts file equals one process's byte for byte in its table and metadata; this
process reads only streams; cancel ends the workers."""

from __future__ import annotations

import os
import tempfile
import threading

import pytest

from core.errors import Cancelled
from core.pretokenization.sharded_count import POSITION_BITS
from core.scale import counts as counts_mod
from core.scale.counts import count_files
from core.scale.counts_io import read_counts, write_counts
from core.scale.counts_schema import POS_BITS
from core.workers.procs import live_children
from tests.core.test_sharded_count import EOT, corpus


def same(a, b) -> None:
    assert a.tokens == b.tokens
    assert a.counts == b.counts
    assert a.files == b.files
    assert a.offsets == b.offsets
    assert a.meta == b.meta
    assert a.notes == b.notes


def files(tmp_path) -> list[str]:
    paths = []
    for i, (seed, n) in enumerate([(20, 9000), (21, 3000), (22, 7000)]):
        data = corpus(seed, n)
        if i == 1:
            data = b"\xef\xbb\xbf" + data  # a byte-order mark: a note
        p = tmp_path / f"c{i}.txt"
        p.write_bytes(data)
        paths.append(str(p))
    (tmp_path / "empty.txt").write_bytes(b"")
    paths.insert(2, str(tmp_path / "empty.txt"))
    return paths


def test_position_bits_are_the_counts_files_own():
    assert POSITION_BITS == POS_BITS


@pytest.mark.parametrize(
    ("pattern", "workers", "block"),
    [("gpt2", 2, 3001), ("gpt4", 3, 4096), (r"\p{L}+|\p{N}+|[^\p{L}\p{N}]+", 2, 2048), (None, 2, 4096)],
)
def test_workers_give_one_process_counts_file(tmp_path, monkeypatch, pattern, workers, block):
    paths = files(tmp_path)
    one = count_files(paths, [EOT], pattern, workers=1, block_bytes=block)
    # the workers read the local files themselves: this process cuts no block of them
    monkeypatch.setattr(
        counts_mod, "iter_blocks", lambda *a, **k: pytest.fail("the parent read a local file's blocks")
    )
    many = count_files(paths, [EOT], pattern, workers=workers, block_bytes=block)
    assert many.workers == workers and many.meta.chunks > 4
    same(many, one)
    write_counts(one, tmp_path / "one.parquet")
    write_counts(many, tmp_path / "many.parquet")
    same(read_counts(tmp_path / "many.parquet"), read_counts(tmp_path / "one.parquet"))
    assert live_children() == []


def test_a_stream_among_files_is_read_here_and_summed_by_the_workers(tmp_path):
    paths = files(tmp_path)
    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)
    data = corpus(23, 6000)

    def feed() -> None:
        with open(fifo, "wb") as f:
            f.write(data)

    (tmp_path / "same.txt").write_bytes(data)
    one = count_files([paths[0], str(tmp_path / "same.txt"), paths[1]], [EOT], workers=1, block_bytes=4096)
    writer = threading.Thread(target=feed)
    writer.start()
    try:
        many = count_files([paths[0], str(fifo), paths[1]], [EOT], workers=2, block_bytes=4096)
    finally:
        writer.join()
    assert many.tokens == one.tokens and many.counts == one.counts
    assert many.files == one.files and many.offsets == one.offsets
    assert many.meta.invalid_bytes == one.meta.invalid_bytes
    assert many.meta.special_occurrences == one.meta.special_occurrences


def test_cancel_ends_the_workers_and_removes_their_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    paths = files(tmp_path)
    calls = []

    def progress(phase, done, total):
        calls.append(done)
        return len(calls) < 4

    with pytest.raises(Cancelled):
        count_files(paths, [EOT], workers=2, block_bytes=2048, progress=progress)
    assert live_children() == []
    assert [n for n in os.listdir(tmp_path) if n.startswith("bpe-count-")] == []


def test_a_file_changed_while_the_workers_read_it_is_refused(tmp_path, monkeypatch):
    from core.errors import CorpusError

    paths = files(tmp_path)
    grown = []

    def progress(phase, done, total):
        if done and not grown:  # something appends to the first file while it is counted
            with open(paths[0], "ab") as f:
                f.write(b" more text")
            grown.append(True)

    with pytest.raises(CorpusError, match="changed while it was read"):
        count_files(paths, [EOT], workers=2, block_bytes=4096, progress=progress)
    assert live_children() == []


def test_many_files_keep_one_open_per_worker(tmp_path):
    import resource

    paths = []
    for i in range(150):
        p = tmp_path / f"f{i:03}.txt"
        p.write_bytes(corpus(100 + i, 300))
        paths.append(str(p))
    one = count_files(paths, [EOT], workers=1, block_bytes=1024)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(100, hard), hard))  # (the workers inherit it)
    try:
        many = count_files(paths, [EOT], workers=2, block_bytes=1024)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    same(many, one)


def test_too_many_open_files_is_not_called_a_full_disk(tmp_path):
    import errno

    from core.pretokenization import sharded_count

    err = sharded_count._no_room(str(tmp_path), OSError(errno.EMFILE, "Too many open files"))
    assert "ulimit -n" in str(err) and "room" not in str(err)
    err = sharded_count._no_room(str(tmp_path), OSError(errno.ENOSPC, "No space left on device"))
    assert "needs room" in str(err) and "TMPDIR" in str(err)
