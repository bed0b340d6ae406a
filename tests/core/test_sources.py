"""Corpora read as streams (issue 13 §6): FIFOs, pipes and ``-`` give what the same bytes as a file give."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from core import Cancelled, CorpusError
from core.pretokenization.pretokenize import count_pretokens
from core.pretokenization.sources import StreamReader, is_stream, open_stream, read_head

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX-only (Windows has none)")
ROOT = Path(__file__).resolve().parents[2]
SPECIALS = ["<|endoftext|>"]


def _corpus(n_bytes: int) -> bytes:
    words = [
        "hello",
        " world",
        " 日本語の文",
        " Привет",
        "\n",
        " 123",
        "  ",
        "\r\n",
        "é",
        "<|endoftext|>",
        "\n\n x",
    ]
    out, i = [], 0
    size = 0
    while size < n_bytes:
        w = words[(i * 7919 + i // 3) % len(words)]
        out.append(w)
        size += len(w.encode())
        i += 1
    return "".join(out).encode() + b"\xff tail"  # one invalid byte: kept byte-exactly


def _feed(fifo: Path, data: bytes, delay: float = 0.0) -> threading.Thread:
    def write() -> None:
        if delay:
            time.sleep(delay)  # (the reader must wait for a writer that comes late)
        with open(fifo, "wb") as w:
            for i in range(0, len(data), 50_000):
                w.write(data[i : i + 50_000])

    th = threading.Thread(target=write, daemon=True)
    th.start()
    return th


@needs_fifo
@pytest.mark.parametrize("pattern", ["gpt2", "gpt4", r"\p{L}+|\s+|[^\s\p{L}]+"])
def test_a_fifo_counts_like_the_same_bytes_in_a_file(tmp_path, pattern):
    data = _corpus(3 << 20)
    (tmp_path / "c.txt").write_bytes(data)
    fifo = tmp_path / "c.fifo"
    os.mkfifo(fifo)
    th = _feed(fifo, data, delay=0.3)
    got, stats = count_pretokens(fifo, SPECIALS, pattern, workers=2, block_bytes=256 << 10)
    th.join(30)
    want, want_stats = count_pretokens(tmp_path / "c.txt", SPECIALS, pattern, workers=1, block_bytes=1 << 30)
    assert list(got.items()) == list(want.items())  # same counts in the same first-seen order
    assert stats.size_bytes == len(data) and stats.invalid_bytes == want_stats.invalid_bytes == 1
    assert stats.chunks >= 8  # read in blocks, not as one piece


@needs_fifo
def test_a_fifo_without_a_writer_can_be_cancelled_and_leaves_no_thread(tmp_path):
    fifo = tmp_path / "c.fifo"
    os.mkfifo(fifo)
    calls = []

    def progress(phase, done, total):
        calls.append(phase)
        return len(calls) < 5  # cancel after a few polls while open() waits for a writer

    with pytest.raises(Cancelled):
        count_pretokens(fifo, progress=progress)
    assert not [t for t in threading.enumerate() if t.name == "open-fifo"]


@needs_fifo
def test_a_stalled_writer_can_be_cancelled(tmp_path):
    fifo = tmp_path / "c.fifo"
    os.mkfifo(fifo)
    gate = threading.Event()

    def write() -> None:
        with open(fifo, "wb") as w:
            w.write(b"some text ")
            w.flush()
            gate.wait(30)  # holds the FIFO open without writing more

    th = threading.Thread(target=write, daemon=True)
    th.start()
    seen = []

    def progress(phase, done, total):
        seen.append(done)
        return len(seen) < 20

    try:
        with pytest.raises(Cancelled):
            count_pretokens(fifo, progress=progress)
    finally:
        gate.set()
        th.join(10)


@needs_fifo
def test_encode_to_npy_from_a_fifo_equals_the_file(tmp_path):
    from core.formats.spec import TokenizerSpec
    from core.tokenization.npy import encode_file_to_npy
    from core.tokenization.tokenizer import Tokenizer

    data = _corpus(2 << 20)
    (tmp_path / "c.txt").write_bytes(data)
    tok = Tokenizer.from_spec(
        TokenizerSpec.from_merges([(b"h", b"e"), (b"l", b"l"), (b" ", b"w")], ["<|endoftext|>"])
    )
    fifo = tmp_path / "c.fifo"
    os.mkfifo(fifo)
    th = _feed(fifo, data)
    r = encode_file_to_npy(tok, fifo, tmp_path / "a.npy", workers=2, block_bytes=200 << 10)
    th.join(30)
    encode_file_to_npy(tok, tmp_path / "c.txt", tmp_path / "b.npy", workers=1)
    assert np.load(tmp_path / "a.npy").tolist() == np.load(tmp_path / "b.npy").tolist()
    assert r.n_bytes == len(data)


def _cli(args: list[str], cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    code = f"import sys; sys.path.insert(0, {str(ROOT)!r}); from core.cli import main; raise SystemExit(main({args!r}))"
    return subprocess.run(
        [sys.executable, "-c", code], input=stdin, cwd=cwd, capture_output=True, timeout=300
    )


def test_train_count_and_encode_read_dash_as_stdin(tmp_path):
    data = _corpus(1 << 20)
    (tmp_path / "c.txt").write_bytes(data)
    for src, out in (("-", "a"), ("c.txt", "b")):
        r = _cli(
            ["train", src, "--vocab-size", "300", "--out", out, "--special-token", SPECIALS[0], "-q"],
            tmp_path,
            data if src == "-" else None,
        )
        assert r.returncode == 0, r.stderr.decode()
    for name in ("vocab.json", "merges.txt"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    for src, out in (("-", "a.npy"), ("c.txt", "b.npy")):
        r = _cli(
            ["encode", "--tokenizer", "b", src, "--out", out, "-q"], tmp_path, data if src == "-" else None
        )
        assert r.returncode == 0, r.stderr.decode()
    assert (tmp_path / "a.npy").read_bytes() == (tmp_path / "b.npy").read_bytes()
    pytest.importorskip("pyarrow")
    for src, out in (("-", "a.parquet"), ("c.txt", "b.parquet")):
        r = _cli(
            ["count", src, "--out", out, "--special-token", SPECIALS[0], "-q"],
            tmp_path,
            data if src == "-" else None,
        )
        assert r.returncode == 0, r.stderr.decode()
    from core.scale.counts_io import read_counts

    a, b = read_counts(tmp_path / "a.parquet"), read_counts(tmp_path / "b.parquet")
    assert a.word_counts() == b.word_counts() and a.meta.size_bytes == b.meta.size_bytes == len(data)


def test_read_head_serves_the_head_again_without_seeking():
    class OneWay(io.RawIOBase):
        def __init__(self, data: bytes) -> None:
            self.inner = io.BytesIO(data)

        def readable(self) -> bool:
            return True

        def read(self, n: int = -1) -> bytes:
            return self.inner.read(n)

    head, s = read_head(OneWay(b"0123456789"), 4)
    assert head == b"0123"
    assert s.read(2) + s.read(5) + s.read(100) + s.read(1) == b"0123456789"


@needs_fifo
def test_the_app_engine_refuses_a_fifo_at_once(tmp_path):
    from core.engine.client import Engine

    fifo = tmp_path / "c.fifo"
    os.mkfifo(fifo)
    assert is_stream(fifo) and is_stream("-") and not is_stream(tmp_path)
    engine = Engine()
    try:  # the engine answers (nobody writes to the FIFO: opening it would wait forever)
        with pytest.raises(CorpusError, match=r"read only once.*save the text to a file"):
            engine.load(str(fifo), [])
    finally:
        engine.close()


@needs_fifo
def test_open_stream_reads_in_pieces_of_at_most_the_asked_size(tmp_path):
    fifo = tmp_path / "c.fifo"
    os.mkfifo(fifo)
    th = _feed(fifo, b"x" * 300_000)
    with open_stream(fifo) as s:
        assert isinstance(s, StreamReader)
        sizes = []
        while chunk := s.read(100_000):
            sizes.append(len(chunk))
    th.join(10)
    assert sizes == [100_000, 100_000, 100_000]


def _children(pid: int) -> list[int]:
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = Path(f"/proc/{name}/stat").read_bytes()
            except OSError:
                continue
            if int(stat.rsplit(b")", 1)[1].split()[1]) == pid:
                out.append(int(name))
    return out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds the workers through /proc")
def test_ctrl_c_on_the_command_line_prints_no_worker_traceback(tmp_path):
    import signal

    (tmp_path / "c.txt").write_bytes(_corpus(24 << 20))
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r}); from core.cli import main; "
        "raise SystemExit(main(['train', 'c.txt', '--vocab-size', '5000', '--out', 'o', '--workers', '2', '-q']))"
    )
    p = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 120
        while len(_children(p.pid)) < 2 and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)  # (waits for the condition: both workers started)
        assert len(_children(p.pid)) >= 2, "the workers did not start"
        os.killpg(p.pid, signal.SIGINT)  # what Ctrl+C in a terminal does: the whole process group
        try:
            _, err = p.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            pytest.fail("the command line did not end after Ctrl+C")
    finally:
        if p.poll() is None:  # (never leave it running: it and its workers are our own group)
            for pid in [p.pid, *_children(p.pid)]:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            p.communicate(timeout=30)
    assert p.returncode == 130
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err, err.decode()[-2000:]
    assert b"interrupted" in err
