"""File helpers shared by the formats: atomic writes, JSON with line numbers, error messages."""
from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Iterable
from glob import escape as glob_escape
from json.encoder import encode_basestring  # type: ignore[attr-defined]
from pathlib import Path
from typing import Any

import regex

from ..errors import FormatError

_SURROGATE = regex.compile("[\ud800-\udfff]")


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
        try:
            os.unlink(tmp)
        except OSError:
            pass


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
    try:
        fd, tmp = new_temp(path)
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        publish(tmp, path)
        tmp = None
    except OSError as e:
        raise FormatError(f"cannot write {str(path)!r}: {e.strerror or e}; check the folder's "
                          "permissions and free space (the previous file is unchanged)") from e
    finally:
        discard(tmp)
    return path


def read_text(path: str | os.PathLike, what: str) -> str:
    """Read a UTF-8 file, turning I/O and decoding problems into :class:`FormatError`."""
    path = Path(path)
    if not path.is_file():
        raise FormatError(f"{what} {str(path)!r} does not exist or is not a file; check the path")
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise FormatError(f"{path}: line {line}: not valid UTF-8 (byte 0x{data[e.start]:02x}); "
                          f"{what} files are UTF-8 text") from e


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _DuplicateKey(k)
        out[k] = v
    return out


class _DuplicateKey(Exception):
    pass


def load_json(path: str | os.PathLike, text: str) -> Any:
    """Parse JSON text, naming the file and line on errors (duplicate object keys are errors too)."""
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as e:
        raise FormatError(f"{path}: line {e.lineno}: not valid JSON ({e.msg}); the file is "
                          "truncated or was edited by hand") from e
    except _DuplicateKey as e:
        key = e.args[0]
        lines = lines_with(text, json.dumps(key, ensure_ascii=False) + ":") or \
            lines_with(text, json.dumps(key) + ":")
        where = f"lines {lines[0]} and {lines[1]}" if len(lines) > 1 else "twice"
        raise FormatError(f"{path}: {where}: the key {key!r} appears twice; each token must be listed "
                          "once") from None


def lines_with(text: str, needle: str) -> list[int]:
    """1-based numbers of the lines containing ``needle`` (at most the first two)."""
    out = []
    start = 0
    while len(out) < 2:
        i = text.find(needle, start)
        if i < 0:
            break
        out.append(text.count("\n", 0, i) + 1)
        start = i + len(needle)
    return out


def line_of(text: str, needle: str) -> str:
    """``"line N: "`` for the first line containing ``needle``, or ``""`` when not found."""
    lines = lines_with(text, needle)
    return f"line {lines[0]}: " if lines else ""


def dump_lines(head: dict[str, Any], lists: dict[str, Iterable[Any]], tail: dict[str, Any] | None = None) -> str:
    """A JSON object with scalars on one line each and lists/objects one element per line.

    One element per line keeps files diff-able and lets error messages name a line.

    >>> print(dump_lines({"a": 1}, {"b": [[1, 2], [3, 4]]}), end="")
    {
     "a": 1,
     "b": [
      [1, 2],
      [3, 4]
     ]
    }
    """
    parts: list[str] = []
    for k, v in head.items():
        parts.append(f" {json.dumps(k)}: {compact(v)}")
    for k, seq in lists.items():
        body = ",\n".join(f"  {compact(x)}" for x in seq)
        parts.append(f" {json.dumps(k)}: [\n{body}\n ]" if body else f" {json.dumps(k)}: []")
    for k, v in (tail or {}).items():
        parts.append(f" {json.dumps(k)}: {compact(v)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def dump_mapping(m: dict[str, Any]) -> str:
    """A flat JSON object with one key per line.

    >>> print(dump_mapping({"a": 1, "b": 2}), end="")
    {
     "a": 1,
     "b": 2
    }
    """
    body = ",\n".join(f" {compact(k)}: {compact(v)}" for k, v in m.items())
    return "{\n" + body + "\n}\n" if body else "{}\n"


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))
_ASCII_ENCODER = json.JSONEncoder(separators=(", ", ": "))


def compact(v: Any) -> str:
    r"""One-line JSON for ``v``; non-ASCII text is kept readable, lone surrogates are escaped.

    >>> compact(["Ġa", 1]), compact(chr(0xDCFF))
    ('["Ġa", 1]', '"\\udcff"')
    """
    if type(v) is int:
        return str(v)
    s = encode_basestring(v) if type(v) is str else _ENCODER.encode(v)
    if not s.isascii() and _SURROGATE.search(s):  # a lone surrogate cannot be written as UTF-8
        s = _ASCII_ENCODER.encode(v)
    return s


def missing_bytes(tokens: Iterable[bytes]) -> list[int]:
    """The byte values that have no single-byte token."""
    have = {t[0] for t in tokens if len(t) == 1}
    return [b for b in range(256) if b not in have]


def missing_bytes_error(path: str | os.PathLike, missing: list[int]) -> FormatError:
    shown = ", ".join(f"0x{b:02x}" for b in missing[:8]) + (" ..." if len(missing) > 8 else "")
    return FormatError(f"{path}: no single-byte token for {len(missing)} byte(s) ({shown}); a byte-level "
                       "BPE vocab needs all 256 bytes, so this is not a complete byte-level tokenizer file")
