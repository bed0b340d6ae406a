"""Which tokenizer files of a folder belong to its latest export: exact, whatever the clock does.

Every :func:`~core.formats.export_all` writes, with its files and after them (one staged write), a
small hidden record ``.bpe-explorer-export.json``: an export id and the size and SHA-256 of each
file of that export. Loading a folder (:func:`check_folder`) sorts its tokenizer files into

* files of an earlier export (not in the record: every export rewrites it), whatever their
  modification time says (a clock set back must not make a stale file win),
* files of the latest export (in the record, same size and hash),
* files changed since (in the record, with other content: edited by hand, written by another
  tool or by a one-format ``save_*``).

The format that loads (the first present, in the order native, hf, gpt2, tiktoken) must not be
older than any other tokenizer file there; two exports within the same second are told apart by
content, not by modification times. Among files changed after the export (which no record knows)
the modification times decide, as in a folder without a record (written by an older version or
by hand).

>>> import tempfile, pathlib
>>> from core.formats import export_all, load_any
>>> from core.formats.spec import TokenizerSpec
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = export_all(d, TokenizerSpec.from_merges([(b"a", b"b")]))
>>> _ = export_all(d, TokenizerSpec.from_merges([(b"a", b"b"), (b"ab", b"c")]), "gpt2")
>>> load_any(d)
Traceback (most recent call last):
...
core.errors.FormatError: folder ...: vocab.json, merges.txt are newer than bpe.json (written after it), so they may hold another tokenizer; give the file to open (e.g. '.../vocab.json') or export all formats again
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from collections.abc import Sequence
from pathlib import Path

from core.errors import FormatError

RECORD_NAME = ".bpe-explorer-export.json"
RECORD_FORMAT = "bpe-explorer-export"
#: a record bigger than this is not ours (it lists a handful of files)
MAX_RECORD_BYTES = 1 << 16
#: files changed after an export (no record knows them) are ordered by modification time, with this slack
MTIME_SLACK = 1.0

_EARLIER, _LATEST, _LATER = 0, 1, 2


def file_digest(path: str | os.PathLike) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def record_text(files: Sequence[tuple[str, str | os.PathLike]], folder: Path | None = None) -> str:
    """The record of one export: ``files`` are (name in the folder, path of its content).

    With ``folder``, the files of its earlier exports that this one leaves in place, unchanged, are
    listed under ``earlier`` (not part of the latest export, but written by us: a later export may
    replace them without asking, see :func:`files_not_ours`)."""
    entries = {name: {"size": os.path.getsize(src), "sha256": file_digest(src)} for name, src in files}
    body: dict = {"format": RECORD_FORMAT, "version": 1, "export_id": uuid.uuid4().hex, "files": entries}
    if folder is not None:
        earlier = {
            name: {"size": size, "sha256": digest}
            for name, (size, digest) in _ours(folder).items()
            if name not in entries and _unchanged(folder / name, size, digest)
        }
        if earlier:
            body["earlier"] = earlier
    return json.dumps(body, indent=1, sort_keys=False) + "\n"


def _unchanged(path: Path, size: int, digest: str) -> bool:
    try:
        return path.is_file() and path.stat().st_size == size and file_digest(path) == digest
    except OSError:
        return False


def _ours(folder: Path) -> dict[str, tuple[int, str]]:
    """Every file the folder's record says an export of ours wrote (latest and earlier), name → (size,
    sha256)."""
    latest = read_record(folder) or {}
    out = dict(read_record(folder, "earlier") or {})
    out.update(latest)
    return out


def files_not_ours(folder: str | os.PathLike, names: Sequence[str]) -> list[str]:
    """Of the file names an export would write into ``folder``, those already there that no export of
    ours wrote (another tokenizer's ``vocab.json``, a file edited since): replacing them loses data.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "vocab.json").write_text("{}")
    >>> files_not_ours(d, ["vocab.json", "merges.txt"])
    ['vocab.json']
    """
    d = Path(folder)
    if not d.is_dir():
        return []
    ours = _ours(d)
    out = []
    for name in names:
        path = d / name
        if not path.exists():
            continue
        known = ours.get(name)
        if known is None or not _unchanged(path, *known):
            out.append(name)
    return out


def read_record(folder: Path, key: str = "files") -> dict[str, tuple[int, str]] | None:
    """The files of the folder's latest export, name → (size, sha256); None without a usable record.
    (``key="earlier"``: the files of its earlier exports still there, unchanged, when it was written.)"""
    path = folder / RECORD_NAME
    try:
        if not path.is_file() or path.stat().st_size > MAX_RECORD_BYTES:
            return None
        data = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if (
        not isinstance(data, dict)
        or data.get("format") != RECORD_FORMAT
        or not isinstance(data.get("files"), dict)
        or not isinstance(data.get(key, {}), dict)
    ):
        return None
    out: dict[str, tuple[int, str]] = {}
    for name, entry in data.get(key, {}).items():
        if not (
            isinstance(entry, dict)
            and type(entry.get("size")) is int
            and isinstance(entry.get("sha256"), str)
        ):
            return None
        out[name] = (entry["size"], entry["sha256"])
    return out


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _age(folder: Path, name: str, record: dict[str, tuple[int, str]]) -> int:
    path = folder / name
    if name in record:
        size, digest = record[name]
        try:
            same = path.stat().st_size == size and file_digest(path) == digest
        except OSError:
            return _LATER
        return _LATEST if same else _LATER
    return _EARLIER  # (even when its time says newer: a clock set back must not make a stale file win)


def check_folder(folder: Path, present: Sequence[tuple[str, tuple[str, ...]]]) -> None:
    """Refuse a folder whose first tokenizer format (the one that would load) is older than another
    tokenizer file there; ``present`` lists (format, its file names) in loading order."""
    chosen = present[0][1]
    others = [n for _, names in present[1:] for n in names if n not in chosen]
    record = read_record(folder)
    if record is None or not any(n in record for _, names in present for n in names):
        first_time = max(_mtime(folder / n) for n in chosen)
        newer = [n for n in others if _mtime(folder / n) > first_time + MTIME_SLACK]
    else:
        ages = {n: _age(folder, n, record) for _, names in present for n in names}
        mine = max(ages[n] for n in chosen)
        newer = [n for n in others if ages[n] > mine]
        if mine == _LATER:  # both changed since the export: only their times can tell
            first_time = max(_mtime(folder / n) for n in chosen)
            newer = [n for n in others if ages[n] == _LATER and _mtime(folder / n) > first_time + MTIME_SLACK]
    if newer:
        raise FormatError(
            f"folder {str(folder)!r}: {', '.join(newer)} {'is' if len(newer) == 1 else 'are'} newer "
            f"than {chosen[0]} (written after it), so they may hold another tokenizer; give the file to open "
            f"(e.g. {str(folder / newer[0])!r}) or export all formats again",
            code="folder_mixed",
            path=str(folder),
            files=", ".join(newer),
            chosen=chosen[0],
            count=len(newer),
            example=str(folder / newer[0]),
        )


def stale_files(folder: str | os.PathLike, written: Sequence[str]) -> list[str]:
    """The tokenizer files in ``folder`` that an export just made did not write (``written``: the
    names it wrote): an earlier export's, or another tool's. Reading one of them gives that other
    tokenizer, so the export names them.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "vocab.json").write_text("{}")
    >>> stale_files(d, ["bpe.json", "tokenizer.json"])
    ['vocab.json']
    """
    from core.formats import FILE_NAMES

    d = Path(folder)
    names = sorted({n for ns in FILE_NAMES.values() for n in ns} - set(written))
    return [n for n in names if (d / n).is_file()]
