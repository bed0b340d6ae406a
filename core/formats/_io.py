"""File helpers shared by the formats: atomic writes, JSON with line numbers, error messages."""

from __future__ import annotations

import contextlib
import contextvars
import json
import os
import tempfile
import time
from collections.abc import Iterable, Iterator
from glob import escape as glob_escape
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any

import regex

from ..errors import FormatError
from ._json_keys import no_repeated_keys

_SURROGATE = regex.compile("[\ud800-\udfff]")
#: a lone surrogate that is not a byte kept by ``surrogateescape`` (U+DC80..U+DCFF)
_LONE_SURROGATE = regex.compile("[\ud800-\udc7f\udd00-\udfff]")


def check_token_text(where: str, token: str) -> str:
    """A special token read from a file: refused (FormatError naming the file) when it holds a lone
    surrogate, which no UTF-8 file can carry (a JSON ``\\ud800`` escape can). ``where`` starts the
    message ("FILE: line N: ")."""
    bad = _LONE_SURROGATE.search(token)
    if bad is not None:
        raise FormatError(
            f"{where}special token {token!r} contains a lone surrogate (U+{ord(bad.group()):04X}), "
            "which is not valid Unicode; the file is damaged (fix or remove that token)"
        )
    return token


TEMP_SUFFIX = ".bpe-explorer.tmp"  # our temp files: recognisable, so a killed run's leftovers are removed
STALE_TEMP_SECONDS = 600
MAX_ID = 1 << 31  # ids are below 2^31 in every format we read (tiktoken and HF use 32-bit ids; .npy uint32)


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


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):  # a key came twice: name the first one
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise _DuplicateKey(k)
            seen.add(k)
    return out


class _DuplicateKey(Exception):
    pass


def load_json(path: str | os.PathLike, text: str) -> Any:
    """Parse JSON text, naming the file and line on errors (duplicate object keys are errors too)."""
    try:
        data = json.loads(text)  # a third faster than with a hook per object; repeats are ruled out next
        if no_repeated_keys(text, data):
            return data
        return json.loads(text, object_pairs_hook=_no_duplicates)  # finds the repeated key, if any
    except json.JSONDecodeError as e:
        raise FormatError(
            f"{path}: line {e.lineno}: not valid JSON ({e.msg}); the file is truncated or was edited by hand"
        ) from e
    except RecursionError:
        raise FormatError(
            f"{path}: the JSON is nested too deeply to read; a tokenizer file is never nested "
            "that deep, so the file is damaged or not a tokenizer"
        ) from None
    except _DuplicateKey as e:
        key = e.args[0]
        lines = lines_with(text, json.dumps(key, ensure_ascii=False) + ":") or lines_with(
            text, json.dumps(key) + ":"
        )
        where = f"lines {lines[0]} and {lines[1]}" if len(lines) > 1 else "twice"
        raise FormatError(
            f"{path}: {where}: the key {key!r} appears twice; each token must be listed once"
        ) from None


def lines_with(text: str, needle: str) -> list[int]:
    """1-based numbers of the lines containing ``needle`` (at most the first two)."""
    out: list[int] = []
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


def dump_lines(
    head: dict[str, Any], lists: dict[str, Iterable[Any]], tail: dict[str, Any] | None = None
) -> str:
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


_BYTES = tuple(bytes([b]) for b in range(256))
#: bytes that never occur in UTF-8 text: a vocab may leave them out (GPT-NeoX, OLMo 1, DeepSeek Coder)
NON_UTF8_BYTES = frozenset([0xC0, 0xC1, *range(0xF5, 0x100)])


def missing_bytes(tokens: Iterable[bytes]) -> list[int]:
    """The byte values that have no single-byte token, leaving out the 13 that never occur in UTF-8
    (only text that needs one of those is refused, when it is encoded, naming its position)."""
    have = set(tokens)
    return [b for b in range(256) if _BYTES[b] not in have and b not in NON_UTF8_BYTES]


def missing_bytes_error(path: str | os.PathLike, missing: list[int]) -> FormatError:
    shown = ", ".join(f"0x{b:02x}" for b in missing[:8]) + (" ..." if len(missing) > 8 else "")
    return FormatError(
        f"{path}: no single-byte token for {len(missing)} byte(s) ({shown}); a byte-level "
        "BPE vocab needs all 256 bytes (all but the 13 that never occur in UTF-8), so this is "
        "not a complete byte-level tokenizer file"
    )


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


def parse_special_ids(values: Iterable[str]) -> list[str] | dict[str, int] | None:
    """``--special-token`` values: all ``TOKEN=ID`` (a dict, the ids a tiktoken file needs) or all plain
    tokens (a list); ``None`` when there are none. Mixing the two is an error.

    >>> parse_special_ids(["<|endoftext|>=100257", "<|fim_prefix|>=100258"])
    {'<|endoftext|>': 100257, '<|fim_prefix|>': 100258}
    >>> parse_special_ids(["<|endoftext|>"])
    ['<|endoftext|>']
    """
    values = list(values)
    if not values:
        return None
    pairs = [v.rpartition("=") for v in values]
    with_id = [bool(tok) and sep == "=" and i.isascii() and i.isdigit() for tok, sep, i in pairs]
    if not any(with_id):
        return values
    if not all(with_id):
        plain = [v for v, w in zip(values, with_id) if not w]
        raise FormatError(
            f"special tokens {plain[:3]!r} have no id while others do; give every one as "
            "TOKEN=ID (e.g. '<|endoftext|>=100257') or none of them"
        )
    out: dict[str, int] = {}
    for tok, _, i in pairs:
        if tok in out:
            raise FormatError(f"special token {tok!r} is given twice")
        if int(i) >= MAX_ID:
            raise FormatError(f"special token {tok!r}: id {i} is too large (ids go up to 2^31-1)")
        out[tok] = int(i)
    if len(set(out.values())) < len(out):
        raise FormatError("two special tokens are given the same id; each needs its own")
    return out
