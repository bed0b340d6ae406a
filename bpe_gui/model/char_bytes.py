"""Characters over their bytes: ``我 = e6|88|91``, for tokens that hold a character outside ASCII
or only a piece of one (plain Python, no Qt)."""

from __future__ import annotations

import unicodedata


def over_bytes(ch: str) -> str:
    """A character over its UTF-8 bytes; one that shows as nothing (a no-break space, a zero-width
    joiner, a combining mark on its own …) by its code point, not as a blank before "=".

    >>> over_bytes("我")
    '我 = e6|88|91'
    >>> over_bytes("\u00a0")
    'U+00A0 = c2|a0'
    """
    shown = f"U+{ord(ch):04X}" if _invisible(ch) else ch
    return f"{shown} = " + "|".join(f"{b:02x}" for b in ch.encode("utf-8", "surrogateescape"))


def _invisible(ch: str) -> bool:
    """Whether ``ch`` alone shows as a blank or as nothing: spaces and separators, control and format
    characters, unassigned code points and lone surrogates, and combining marks."""
    return unicodedata.category(ch)[0] in "ZC" or unicodedata.category(ch) in ("Mn", "Me")


def chars_of(text: str, limit: int = 3) -> list[str]:
    """The first few distinct characters of ``text`` outside ASCII, over their bytes.

    >>> chars_of("a我们我")
    ['我 = e6|88|91', '们 = e4|bb|ac']
    """
    seen: list[str] = []
    for ch in text:
        if ord(ch) > 127 and ch not in seen:
            seen.append(ch)
            if len(seen) == limit:
                break
    return [over_bytes(ch) for ch in seen]


def chars_holding(token: bytes, word: bytes) -> list[str]:
    """The characters of ``word`` that the first occurrence of ``token`` overlaps, over their bytes
    (a token that is a piece of a character: which character it is a piece of).

    >>> chars_holding(b"\\xe6\\x88", "我们".encode())
    ['我 = e6|88|91']
    >>> chars_holding(b"x", b"abc")
    []
    """
    at = word.find(token)
    if at < 0 or not token:
        return []
    text = word.decode("utf-8", "surrogateescape")
    out: list[str] = []
    pos = 0
    for ch in text:
        n = len(ch.encode("utf-8", "surrogateescape"))
        if pos < at + len(token) and at < pos + n and ord(ch) > 127:
            out.append(over_bytes(ch))
        pos += n
    return out
