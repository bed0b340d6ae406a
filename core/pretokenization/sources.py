"""Opening a corpus: a regular file, or a stream (a FIFO, a pipe, ``/dev/stdin``, ``-`` for stdin).

A stream is read once, front to back, in blocks: never opened twice, never seeked. The first
64 KB (for the encoding check) are kept and served again (:func:`read_head`), so nothing is lost.
Nothing here waits forever without asking ``poll()`` (which may raise, e.g. :class:`core.Cancelled`):

* opening a FIFO waits for a writer, so on POSIX it is opened in a helper thread while the caller
  polls; on a cancel the helper is released by opening the FIFO once for writing (non-blocking) and
  closing it, so that no thread is left blocked;
* every read waits with ``select`` (0.2 s at a time, then ``poll()``), on POSIX. Windows has no
  FIFOs (``os.mkfifo`` is POSIX-only) and ``select`` there takes sockets only, so stdin is read with
  plain blocking reads (Ctrl+C still stops the command line).

>>> import io
>>> head, stream = read_head(io.BytesIO(b"abc"), 2)
>>> head, stream.read(10)
(b'ab', b'abc')
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from core.errors import CorpusError

#: The name that means "standard input" on the command line and in the API.
STDIN = "-"
_WAIT = 0.2  # seconds between two polls while a stream has nothing to read
_POSIX = os.name == "posix"

Poll = Callable[[], None]


def is_stream(source: object) -> bool:
    """True for ``"-"`` and for paths of FIFOs and character devices (read once, not seekable).

    >>> is_stream("-"), is_stream(__file__)
    (True, False)
    """
    if isinstance(source, str) and source == STDIN:
        return True
    if not isinstance(source, (str, os.PathLike)):
        return False
    try:
        mode = os.stat(source).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)


class StreamReader(io.RawIOBase):
    """A file descriptor read front to back; ``read(n)`` returns ``n`` bytes unless the stream ends.

    While nothing arrives, ``poll`` is called every 0.2 s (POSIX), so a stalled writer can be
    cancelled. ``poll`` may be set after construction (the caller's progress callback).
    """

    def __init__(self, fd: int, name: str, *, owns: bool = True, poll: Poll | None = None) -> None:
        super().__init__()
        self._fd, self.name, self._owns, self.poll = fd, name, owns, poll
        self._eof = False

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False

    def _wait(self) -> None:
        if not _POSIX:
            return
        import select

        while not select.select([self._fd], [], [], _WAIT)[0]:
            if self.poll is not None:
                self.poll()

    def read(self, n: int = -1) -> bytes:
        parts: list[bytes] = []
        want = n if n is not None and n >= 0 else 1 << 62
        got = 0
        while got < want and not self._eof:
            self._wait()
            try:
                data = os.read(self._fd, min(want - got, 1 << 20))
            except BlockingIOError:
                continue
            except OSError as e:
                raise CorpusError(
                    f"cannot read {self.name}: {e.strerror or e}",
                    code="corpus_unreadable",
                    path=self.name,
                    reason=str(e.strerror),
                ) from e
            if not data:
                self._eof = True
            parts.append(data)
            got += len(data)
        return b"".join(parts)

    def close(self) -> None:
        if not self.closed and self._owns:
            os.close(self._fd)
        super().close()


class _Replay(io.RawIOBase):
    """A stream whose first bytes were read already: serves them again, then the rest."""

    def __init__(self, head: bytes, rest: BinaryIO) -> None:
        super().__init__()
        self._head, self._rest = head, rest
        self.name = getattr(rest, "name", "<stream>")

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        if not self._head:
            return self._rest.read(n)
        if n is None or n < 0:
            out, self._head = self._head + self._rest.read(), b""
            return out
        out, self._head = self._head[:n], self._head[n:]
        if len(out) < n:
            out += self._rest.read(n - len(out))
        return out

    def close(self) -> None:
        self._rest.close()
        super().close()


def read_head(stream, n: int = 65536):
    """The first ``n`` bytes of ``stream`` and a stream that starts from the beginning again.

    A seekable stream is rewound; any other keeps the bytes and serves them first (no second read).
    """
    head = stream.read(n)
    seekable = getattr(stream, "seekable", None)
    if seekable is not None and seekable():
        stream.seek(0)
        return head, stream
    return head, _Replay(head, stream)


def _open_fifo(path: str, poll: Poll | None) -> int:
    """Open a FIFO for reading without ever blocking the caller beyond ``poll()``'s say."""
    box: dict[str, object] = {}

    def opener() -> None:
        try:
            box["fd"] = os.open(path, os.O_RDONLY)
        except OSError as e:
            box["error"] = e

    th = threading.Thread(target=opener, name="open-fifo", daemon=True)
    th.start()
    th.join(_WAIT)
    while th.is_alive():
        try:
            if poll is not None:
                poll()
        except BaseException:
            _release(path, th)
            fd = box.get("fd")
            if isinstance(fd, int):
                os.close(fd)
            raise
        th.join(_WAIT)
    if "error" in box:
        e = box["error"]
        assert isinstance(e, OSError)  # (set by opener only)
        raise CorpusError(
            f"cannot read corpus {path!r}: {e.strerror}",
            code="corpus_unreadable",
            path=path,
            reason=str(e.strerror),
        ) from e
    fd = box["fd"]
    assert isinstance(fd, int)
    return fd


def _release(path: str, th: threading.Thread, tries: int = 100) -> None:
    """Let a thread blocked in ``open(fifo)`` return: be its writer for a moment (never blocks).

    A reader blocked in ``open`` counts as a reader (Linux, the BSDs), so the non-blocking open for
    writing succeeds and wakes it. Tried for about 5 s; a thread still blocked after that (the
    FIFO was replaced meanwhile) is a daemon thread and does not keep the process alive.
    """
    for _ in range(tries):
        if not th.is_alive():
            return
        with contextlib.suppress(OSError):  # (ENXIO: the reader is not there yet / any more)
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        th.join(0.05)


def open_stream(source: str | os.PathLike, poll: Poll | None = None) -> StreamReader:
    """Open ``"-"`` (stdin) or a FIFO / character device as a :class:`StreamReader`."""
    if isinstance(source, str) and source == STDIN:
        if sys.stdin is None:
            raise CorpusError("there is no standard input to read the corpus from; give a file")
        if not _POSIX:  # (select takes sockets only on Windows: plain blocking reads)
            return _BlockingStdin(sys.stdin.buffer)  # type: ignore[return-value]
        return StreamReader(sys.stdin.fileno(), "<stdin>", owns=False, poll=poll)
    path = os.fspath(source)
    mode = os.stat(path).st_mode
    if stat.S_ISFIFO(mode) and _POSIX:
        fd = _open_fifo(path, poll)
    else:  # a character device (a terminal, /dev/stdin as a tty) opens at once
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError as e:
            raise CorpusError(
                f"cannot read corpus {path!r}: {e.strerror}",
                code="corpus_unreadable",
                path=path,
                reason=str(e.strerror),
            ) from e
    return StreamReader(fd, Path(path).name, poll=poll)


class _BlockingStdin(io.RawIOBase):
    def __init__(self, raw: BinaryIO) -> None:
        super().__init__()
        self._raw, self.name, self.poll = raw, "<stdin>", None

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        return self._raw.read(n)

    def close(self) -> None:  # stdin stays open for the caller
        super().close()
