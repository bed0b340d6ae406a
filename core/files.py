"""Writing and reading files safely: atomic writes (all of one export, or nothing), temp files that a
killed run leaves are cleaned up, and output paths checked before a long run starts."""

from __future__ import annotations

import contextlib
import contextvars
import os
import tempfile
import time
from collections.abc import Iterator
from glob import escape as glob_escape
from pathlib import Path

from core.errors import FormatError

TEMP_SUFFIX = ".bpe-explorer.tmp"  # our temp files: recognisable, so a killed run's leftovers are removed
STALE_TEMP_SECONDS = 600


def file_mode() -> int:
    """The mode a plain ``open(path, "w")`` gives a new file here: 0o666 less the umask."""
    try:  # Linux shows the umask without changing it (os.umask would, for every thread, for a moment)
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def new_temp(path: Path) -> tuple[int, str]:
    """A temp file beside ``path`` (same folder: the final rename is atomic); returns (fd, name).

    Temp files of ``path`` left by a run that was killed more than ten minutes ago are removed first.
    Call it inside the ``try`` that removes the temp file on failure.
    """
    now = time.time()
    for old in path.parent.glob(f".{glob_escape(path.name)}.*{TEMP_SUFFIX}"):
        try:
            if now - old.stat().st_mtime > STALE_TEMP_SECONDS:
                old.unlink()
        except OSError:
            pass
    return tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)


def publish(tmp: str | os.PathLike, path: str | os.PathLike) -> None:
    """Give a finished temp file the usual mode (umask applied) and move it into place atomically."""
    os.chmod(tmp, file_mode())
    os.replace(tmp, path)


def discard(tmp: str | None) -> None:
    if tmp is not None:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def atomic_write(path: str | os.PathLike, data: str | bytes) -> Path:
    """Write ``data`` to ``path`` through a temp file in the same folder and ``os.replace``.

    A crash or a full disk leaves the previous file (or no file), never half a file. The new file
    gets the mode a plain ``open()`` would give it (0o644 under the usual umask 022).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "x.txt"
    >>> atomic_write(p, "hi").read_text()
    'hi'
    """
    path = Path(path)
    if path.is_dir():
        raise FormatError(f"{str(path)!r} is a folder; choose a file name to write to")
    if not path.parent.is_dir():
        raise FormatError(f"folder {str(path.parent)!r} does not exist; create it first")
    raw = data.encode("utf-8") if isinstance(data, str) else data
    tmp: str | None = None
    stage = _STAGE.get()
    try:
        fd, tmp = new_temp(path)
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        if stage is not None:
            stage.append((tmp, path))  # published with the others by staged_writes
        else:
            publish(tmp, path)
        tmp = None
    except OSError as e:
        raise FormatError(
            f"cannot write {str(path)!r}: {e.strerror or e}; check the folder's "
            "permissions and free space (the previous file is unchanged)"
        ) from e
    finally:
        discard(tmp)
    return path


_STAGE: contextvars.ContextVar[list[tuple[str, Path]] | None] = contextvars.ContextVar("stage", default=None)


@contextlib.contextmanager
def staged_writes() -> Iterator[None]:
    """Make the :func:`atomic_write` calls inside the block one whole: every file is written to its temp
    file first; only when all are written are they moved into place, one rename after another. A
    failure (full disk, bad input) before that leaves all the previous files and no temp file.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> with staged_writes():
    ...     _ = atomic_write(d / "a", "1")
    ...     (d / "a").exists()
    False
    >>> (d / "a").read_text()
    '1'
    """
    if _STAGE.get() is not None:  # inside another staged block: its files join that one
        yield
        return
    stage: list[tuple[str, Path]] = []
    token = _STAGE.set(stage)
    staged = True
    try:
        yield
        _STAGE.reset(token)
        staged = False
        for i, (tmp, path) in enumerate(stage):
            try:
                publish(tmp, path)
            except OSError as e:
                done = [q.name for _, q in stage[:i]]
                raise FormatError(
                    f"cannot write {str(path)!r}: {e.strerror or e}; "
                    + (
                        f"{', '.join(done)} already replaced, the other files are unchanged; export again"
                        if done
                        else "the previous files are unchanged"
                    )
                ) from e
            stage[i] = ("", path)
    finally:
        if staged:
            _STAGE.reset(token)
        for tmp, _ in stage:
            discard(tmp or None)


def read_text(path: str | os.PathLike, what: str) -> str:
    """Read a UTF-8 file, turning I/O and decoding problems into :class:`FormatError`."""
    path = Path(path)
    if not path.is_file():
        raise FormatError(f"{what} {str(path)!r} does not exist or is not a file; check the path")
    try:
        data = path.read_bytes()
    except OSError as e:
        raise FormatError(
            f"cannot read {what} {str(path)!r}: {e.strerror or e}; check its permissions"
        ) from e
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise FormatError(
            f"{path}: line {line}: not valid UTF-8 (byte 0x{data[e.start]:02x}); {what} files are UTF-8 text"
        ) from e


def check_out_file(path: str | os.PathLike, what: str = "output file") -> Path:
    """Check before a long run that ``path`` can be written as a file (not a folder, in a writable folder)."""
    p = Path(path).expanduser()
    if p.is_dir():
        raise FormatError(f"{what} {str(p)!r} is a folder; give a file name (e.g. {str(p / 'out.npy')!r})")
    parent = p.parent
    if parent.exists() and not parent.is_dir():
        raise FormatError(f"{what} {str(p)!r}: {str(parent)!r} is a file, not a folder; choose another path")
    if not parent.is_dir():
        raise FormatError(f"{what} {str(p)!r}: folder {str(parent)!r} does not exist; create it first")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise FormatError(f"{what} {str(p)!r}: folder {str(parent)!r} is not writable; choose another folder")
    return p


def check_out_folder(path: str | os.PathLike, what: str = "output folder") -> Path:
    """Check before a long run that ``path`` is, or can be created as, a writable folder."""
    p = Path(path).expanduser()
    if p.exists() and not p.is_dir():
        raise FormatError(f"{what} {str(p)!r} is a file; give a folder")
    existing = p
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise FormatError(
            f"{what} {str(p)!r}: {str(existing)!r} is a file, not a folder; choose another path"
        )
    if not os.access(existing, os.W_OK | os.X_OK):
        raise FormatError(
            f"{what} {str(p)!r}: folder {str(existing)!r} is not writable; choose another folder"
        )
    return p


#: (magic bytes, kind, the command that unpacks such a file and keeps it)
_PACKED = (
    (b"\x1f\x8b", "gzip", "gunzip -k"),
    (b"\xfd7zXZ\x00", "xz", "unxz -k"),
    (b"\x28\xb5\x2f\xfd", "zstd", "unzstd"),
    (b"PK\x03\x04", "zip", "unzip"),
)
NPY_MAGIC = b"\x93NUMPY"


def packed_kind(head: bytes) -> tuple[str, str] | None:
    """``(kind, unpack command)`` when ``head`` (a file's first bytes) starts a gzip, bzip2, xz, zstd or
    zip archive, else None: such files are named (not called "binary" or "not UTF-8") and refused."""
    for magic, kind, command in _PACKED:
        if head.startswith(magic):
            return kind, command
    if head[:3] == b"BZh" and head[4:10] == b"1AY&SY":
        return "bzip2", "bunzip2 -k"
    return None


def is_npy(head: bytes) -> bool:
    """``head`` starts a NumPy ``.npy`` array file (token ids written by ``encode``, for one)."""
    return head.startswith(NPY_MAGIC)
