"""Helpers shared by the format readers and writers: JSON with line numbers, compact dumps, error messages.

Atomic writes and temp files live in :mod:`core.files`."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from json.encoder import encode_basestring
from typing import Any

import regex

from core.errors import FormatError
from core.formats._json_keys import no_repeated_keys

_SURROGATE = regex.compile("[\ud800-\udfff]")
#: a lone surrogate that is not a byte kept by ``surrogateescape`` (U+DC80..U+DCFF)
_LONE_SURROGATE = regex.compile("[\ud800-\udc7f\udd00-\udfff]")


def check_token_text(where: str, token: str, **place: Any) -> str:
    """A special token read from a file: refused (FormatError naming the file) when it holds a lone
    surrogate, which no UTF-8 file can carry (a JSON ``\\ud800`` escape can). ``where`` starts the
    message ("FILE: line N: "); ``place`` says the same for the error's params (``file``, ``line`` …)."""
    bad = _LONE_SURROGATE.search(token)
    if bad is not None:
        raise FormatError(
            f"{where}special token {token!r} contains a lone surrogate (U+{ord(bad.group()):04X}), "
            "which is not valid Unicode; the file is damaged (fix or remove that token)",
            code="file_special_surrogate",
            token=token,
            codepoint=f"U+{ord(bad.group()):04X}",
            **place,
        )
    return token


MAX_ID = 1 << 31  # ids are below 2^31 in every format we read (tiktoken and HF use 32-bit ids; .npy uint32)


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
            f"{path}: line {e.lineno}: not valid JSON ({e.msg}); the file is truncated or was edited by hand",
            code="json_invalid",
            file=str(path),
            line=e.lineno,
            detail=e.msg,
        ) from e
    except RecursionError:
        raise FormatError(
            f"{path}: the JSON is nested too deeply to read; a tokenizer file is never nested "
            "that deep, so the file is damaged or not a tokenizer",
            code="json_too_deep",
            file=str(path),
        ) from None
    except _DuplicateKey as e:
        key = e.args[0]
        lines = lines_with(text, json.dumps(key, ensure_ascii=False) + ":") or lines_with(
            text, json.dumps(key) + ":"
        )
        where = f"lines {lines[0]} and {lines[1]}" if len(lines) > 1 else "twice"
        lines_given = {"line": lines[0], "line2": lines[1]} if len(lines) > 1 else {}
        raise FormatError(
            f"{path}: {where}: the key {key!r} appears twice; each token must be listed once",
            code="json_key_repeated_lines" if lines_given else "json_key_repeated",
            file=str(path),
            key=key,
            **lines_given,
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


def line_no(text: str, needle: str) -> int:
    """The 1-based number of the first line containing ``needle`` (0 when not found), for an error's params."""
    lines = lines_with(text, needle)
    return lines[0] if lines else 0


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
        "not a complete byte-level tokenizer file",
        code="vocab_bytes_missing",
        file=str(path),
        count=len(missing),
        shown=shown,
    )


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
            "TOKEN=ID (e.g. '<|endoftext|>=100257') or none of them",
            code="special_ids_mixed",
            shown=repr(plain[:3]),
        )
    out: dict[str, int] = {}
    for tok, _, i in pairs:
        if tok in out:
            raise FormatError(f"special token {tok!r} is given twice", code="special_duplicate", token=tok)
        if int(i) >= MAX_ID:
            raise FormatError(
                f"special token {tok!r}: id {i} is too large (ids go up to 2^31-1)",
                code="special_id_invalid",
                token=tok,
                shown=i,
            )
        out[tok] = int(i)
    if len(set(out.values())) < len(out):
        raise FormatError(
            "two special tokens are given the same id; each needs its own", code="special_ids_same"
        )
    return out
