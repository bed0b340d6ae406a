"""Writing and reading files safely: atomic writes (all of one export, or nothing), temp files that a
killed run leaves are cleaned up, and output paths checked before a long run starts."""

from __future__ import annotations

import contextlib
import contextvars
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from core.errors import BPEError, CorpusError, FormatError

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

    Our temp files in that folder (of any file) that a killed run left are removed first
    (:func:`remove_stale_temps`). The new file is locked while ``fd`` is open. Call it inside the
    ``try`` that removes the temp file on failure.
    """
    remove_stale_temps(path.parent)
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
    _lock(fd)  # (held until the writer closes it, or dies)
    return fd, name


#: a temp file unlocked (its writer closed it, or died) and unchanged for this long is a killed run's
IDLE_TEMP_SECONDS = 60


def remove_stale_temps(folder: Path) -> list[Path]:
    """Remove our temp files in ``folder`` that no run is writing: unlocked and unchanged for a minute
    (a run that was killed), or unchanged for ten minutes. Returns the files removed."""
    now = time.time()
    removed = []
    for old in folder.glob(f".*{TEMP_SUFFIX}"):
        try:
            idle = now - old.stat().st_mtime
            if idle > STALE_TEMP_SECONDS or (idle > IDLE_TEMP_SECONDS and not _locked(old)):
                old.unlink()
                removed.append(old)
        except OSError:
            pass
    return removed


def _lock(fd: int) -> None:
    try:
        import fcntl
    except ImportError:  # (Windows: the ten-minute rule only)
        return
    with contextlib.suppress(OSError):
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _locked(path: Path) -> bool:
    """True when another open file holds the lock of ``path`` (its writer runs); True when unknown."""
    try:
        import fcntl
    except ImportError:
        return True
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)


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
        raise FormatError(
            f"{str(path)!r} is a folder; choose a file name to write to", code="write_folder", path=str(path)
        )
    if not path.parent.is_dir():
        raise FormatError(
            f"folder {str(path.parent)!r} does not exist; create it first",
            code="folder_missing",
            path=str(path.parent),
        )
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
            "permissions and free space (the previous file is unchanged)",
            code="write_failed",
            path=str(path),
            reason=str(e.strerror or e),
        ) from e
    finally:
        discard(tmp)
    return path


_STAGE: contextvars.ContextVar[list[tuple[str, Path]] | None] = contextvars.ContextVar("stage", default=None)


def staged_files() -> list[tuple[str, Path]]:
    """Inside :func:`staged_writes`: the (temp file, final path) of each file written so far."""
    return list(_STAGE.get() or [])


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
                    ),
                    code="publish_failed_after" if done else "publish_failed",
                    path=str(path),
                    reason=str(e.strerror or e),
                    done=", ".join(done),
                ) from e
            stage[i] = ("", path)
    finally:
        if staged:
            _STAGE.reset(token)
        for tmp, _ in stage:
            discard(tmp or None)


def text_file_problem(path: str | os.PathLike, what: str = "text file") -> CorpusError | None:
    """The error for a text to read that is not a file: a folder is called a folder with the same
    words in every command (as ``train`` says it), a missing path is named; None for a file or a
    stream (FIFO, pipe, device).

    >>> str(text_file_problem("."))
    "'.' is a folder; choose a text file"
    """
    p = Path(path)
    if p.is_dir():
        return CorpusError(f"{str(p)!r} is a folder; choose a text file", code="corpus_folder", path=str(p))
    if not p.exists():
        return CorpusError(
            f"{what} {str(p)!r} does not exist; check the path", code="corpus_missing", path=str(p)
        )
    return None


def unreadable(path: Path, e: OSError) -> FormatError:
    """The error for a file that exists but cannot be read (permissions, a disk error)."""
    return FormatError(
        f"cannot read {str(path)!r}: {e.strerror or e}",
        code="file_unreadable",
        path=str(path),
        reason=str(e.strerror or e),
    )


def read_text(path: str | os.PathLike, what: str) -> str:
    """Read a UTF-8 file, turning I/O and decoding problems into :class:`FormatError`."""
    path = Path(path)
    if path.is_dir():
        raise FormatError(
            f"{what} {str(path)!r} is a folder; choose a file", code="file_folder", path=str(path)
        )
    if not path.is_file():
        raise FormatError(
            f"{what} {str(path)!r} does not exist or is not a file; check the path",
            code="file_missing",
            path=str(path),
        )
    try:
        data = path.read_bytes()
    except OSError as e:
        raise FormatError(
            f"cannot read {what} {str(path)!r}: {e.strerror or e}; check its permissions",
            code="file_unreadable",
            path=str(path),
            reason=str(e.strerror or e),
        ) from e
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise FormatError(
            f"{path}: line {line}: not valid UTF-8 (byte 0x{data[e.start]:02x}); {what} files are UTF-8 text",
            code="file_not_utf8",
            file=str(path),
            line=line,
            byte=f"0x{data[e.start]:02x}",
        ) from e


def refuse_empty_path(path: str | os.PathLike, what: str) -> None:
    """An empty path (``--out ""``, often a shell variable not set) is refused: it named the
    current folder, where the files were written unasked."""
    if not os.fspath(path).strip():
        raise BPEError(f"{what} is empty; give a path (is a shell variable in it unset?)")


def check_out_file(path: str | os.PathLike, what: str = "output file") -> Path:
    """Check before a long run that ``path`` can be written as a file (not a folder, in a writable folder)."""
    refuse_empty_path(path, what)
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


#: how each kind of single-file output starts: a file there that does not is not replaced
#: without --force (a corpus or a document named as --out by a slip of the keyboard)
NPY_MAGIC = b"\x93NUMPY"
PARQUET_MAGIC = b"PAR1"


def check_replace_file(
    path: str | os.PathLike, kind: str, starts: Callable[[bytes], bool], *, what: str, force: bool
) -> None:
    """Refuse, before any work, to replace an existing file at ``path`` that is not of the ``kind``
    the command writes (``starts(first bytes)`` is False): without ``force`` a run would replace
    it. An empty file, or one of that kind (an earlier run's), is replaced as asked."""
    p = Path(path).expanduser()
    if force or not p.is_file():
        return
    try:
        with open(p, "rb") as f:
            head = f.read(64)
    except OSError:
        return  # (not readable: the write says what is wrong)
    if not head or starts(head):
        return
    shown = head[:24].decode("utf-8", "replace")
    raise BPEError(
        f"{what} {str(p)!r} exists and is not a {kind} (it starts {shown!r}); this would replace it: "
        f"give another path, or --force to replace it"
    )


def check_out_folder(path: str | os.PathLike, what: str = "output folder") -> Path:
    """Check before a long run that ``path`` is, or can be created as, a writable folder."""
    refuse_empty_path(path, what)
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


# ---------------------------------------------------------------------------- outputs are not inputs
# No command writes over one of its own inputs (the same file, also through a symlink or a hard link):
# every command that writes (train, encode, convert, count, eval) calls check_not_inputs before any work,
# with the files it will write and the paths it reads; a clash is refused naming both paths.

#: at most this many files of an input folder are compared (a counts folder of Parquet parts, a tokenizer
#: folder); deeper trees are not walked further
MAX_FOLDER_FILES = 100_000


def _identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of the file ``path`` names (links followed); None when it does not exist."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


def _resolved(path: Path) -> Path:
    try:
        return path.expanduser().resolve()
    except (OSError, RuntimeError, ValueError):
        return path.expanduser().absolute()


def input_files(path: str | os.PathLike) -> Iterator[Path]:
    """The local files an input path names: itself, or the files under a folder. Streams ("-"),
    URLs and glob patterns that match nothing give none (globs are expanded)."""
    import glob

    text = os.fspath(path)
    if text == "-" or "://" in text:
        return
    if glob.has_magic(text):
        for hit in glob.glob(os.path.expanduser(text), recursive=True):
            yield from input_files(hit) if not glob.has_magic(hit) else ()
        return
    p = Path(text).expanduser()
    if p.is_dir():
        seen = 0
        for root, _dirs, files in os.walk(p):
            for name in files:
                yield Path(root) / name
            seen += len(files)
            if seen > MAX_FOLDER_FILES:
                return
    elif p.exists():
        yield p


def check_not_inputs(
    outputs: Iterable[tuple[str | os.PathLike, str]], inputs: Iterable[str | os.PathLike | Path]
) -> None:
    """Refuse an output that is one of the inputs: the same path, or the same file through a symlink or
    a hard link (compared by device and inode). ``outputs`` are (path, what) pairs, ``what`` naming the
    option in the message ("--out"); ``inputs`` are the files or folders the command reads."""
    outs = [(Path(o).expanduser(), what) for o, what in outputs]
    if not outs:
        return
    by_path: dict[Path, tuple[Path, str]] = {}
    by_id: dict[tuple[int, int], tuple[Path, str]] = {}
    for out, what in outs:
        by_path[_resolved(out)] = (out, what)
        ident = _identity(out)
        if ident is not None:
            by_id[ident] = (out, what)
    for item in inputs:
        for f in input_files(item):
            ident = _identity(f)
            hit = by_path.get(_resolved(f)) or (by_id.get(ident) if ident is not None else None)
            if hit is None:
                continue
            out, what = hit
            same = os.path.abspath(out) == os.path.abspath(f.expanduser())
            how = "the same file" if same else "the same file, through a link"
            raise BPEError(
                f"{what} {str(out)!r} is the input {str(f)!r} ({how}): writing it would destroy "
                "the input; choose another output path"
            )


SHARD_NAME = re.compile(r"shard-\d+\.npy")


def check_shard_folder(out: str | os.PathLike, inputs: Iterable[str | os.PathLike]) -> None:
    """``encode --engine dask``: the shard folder's manifest and shards (written, or removed as the
    leftovers of an earlier run) must not be inputs."""
    refuse_empty_path(out, "--out")
    folder = Path(out).expanduser()
    check_not_inputs([(folder / "manifest.json", "--out")], inputs)
    where = _resolved(folder)
    for item in inputs:
        for f in input_files(item):
            if SHARD_NAME.fullmatch(f.name) and _resolved(f.parent) == where:
                raise BPEError(
                    f"--out {str(folder)!r} is the folder of the input {str(f)!r}, whose name is a shard's: "
                    "the run writes (or removes) its shards there, which would destroy the input; choose another output folder"
                )


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
