"""No command writes over one of its own inputs (the same file, also through a symlink or a hard link).

Every command that writes (``train``, ``encode``, ``convert``, ``count``, ``eval``) calls
:func:`check_not_inputs` before any work, with the files it will write and the paths it reads. A
clash is refused with a :class:`~core.errors.BPEError` naming both paths; nothing is read or written.

>>> import pathlib, tempfile
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> corpus = d / "in.txt"
>>> _ = corpus.write_text("hello")
>>> check_not_inputs([(corpus, "--out")], [corpus])
Traceback (most recent call last):
...
core.errors.BPEError: --out ... is the input ... (the same file): writing it would destroy the input; choose another output path
>>> check_not_inputs([(d / "out.npy", "--out")], [corpus])
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from .errors import BPEError

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


def tokenizer_inputs(path: str | os.PathLike) -> list[Path]:
    """The files a tokenizer path is read from: the file and, for a GPT-2 file, the other file of its pair;
    the files of a folder. A known encoding name ("cl100k_base") gives none."""
    p = Path(path).expanduser()
    if not p.exists():
        return []
    files = list(input_files(p))
    if p.is_file():
        from .formats import find_merges_for, find_vocab_for

        for find in (find_merges_for, find_vocab_for):
            with contextlib.suppress(BPEError):
                files.append(find(p))
    return files


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
