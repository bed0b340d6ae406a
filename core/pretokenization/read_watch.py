"""Notice a file that changed while it was read (truncated, grown or rewritten), and say it.

A corpus read in blocks (train, count, encode) or by byte ranges (Dask) gives counts of a mix of
two versions when something writes to it meanwhile. :func:`watch` notes a file's size and
modification time when reading starts; :meth:`Watch.check` compares them, and the bytes read,
when it ends, and raises :class:`~core.errors.CorpusError` if anything differs.

>>> import tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "c.txt"
>>> _ = p.write_bytes(b"hello")
>>> w = watch(p)
>>> w.check(5)
>>> _ = p.write_bytes(b"hello world")
>>> w.check(5)
Traceback (most recent call last):
...
core.errors.CorpusError: c.txt changed while it was read: 5 bytes when reading started, 11 bytes now (5 bytes read); the result would mix two versions of the file. Run again once nothing writes to it (or copy it first)
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from core.errors import CorpusError


@dataclass(frozen=True)
class Watch:
    """A regular file's size and modification time when reading started."""

    path: str
    size: int
    mtime_ns: int

    def check(self, n_read: int | None = None) -> None:
        """Raise if the file is not as it was (or ``n_read`` bytes were read of a file of another size)."""
        try:
            st = os.stat(self.path)
            now: int | None = st.st_size
            same = st.st_size == self.size and st.st_mtime_ns == self.mtime_ns
        except OSError:
            now, same = None, False
        if same and (n_read is None or n_read == self.size):
            return
        state = "gone" if now is None else f"{now:,} bytes now"
        read = "" if n_read is None else f" ({n_read:,} bytes read)"
        raise CorpusError(
            f"{Path(self.path).name} changed while it was read: {self.size:,} bytes when reading started, "
            f"{state}{read}; the result would mix two versions of the file. Run again once nothing "
            "writes to it (or copy it first)",
            code="corpus_changed",
            name=Path(self.path).name,
            before=f"{self.size:,}",
            now="-" if now is None else f"{now:,}",
        )


def watch(source: object, fd: int | None = None) -> Watch | None:
    """A :class:`Watch` of a local regular file (from its open ``fd`` when given); None for streams,
    URLs and data in memory."""
    if not isinstance(source, (str, os.PathLike)) or "://" in os.fspath(source):
        return None
    try:
        st = os.fstat(fd) if fd is not None else os.stat(source)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return Watch(os.fspath(source), st.st_size, st.st_mtime_ns)
