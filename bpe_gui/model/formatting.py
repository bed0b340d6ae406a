"""Readable text for bytes, pairs and numbers (plain Python, no Qt).

>>> token_label(b" the")
'·the'
>>> token_label(b"\\xe2\\x80")
'\\\\xe2\\\\x80'
>>> pair_label((b"t", b"he"))
't + he'
"""

from __future__ import annotations

import re
from functools import lru_cache
from html import escape

from core.units import size_text

#: visible stand-ins for whitespace (the tokenize view and the tables use the same ones)
WHITESPACE_MARKERS = {" ": "·", "\t": "→", "\n": "↵", "\r": "⇤"}
_CONTROL_NAMES = {"\x0b": "\\v", "\x0c": "\\f", "\x00": "\\0"}


def _escape_char(ch: str, markers: bool) -> str:
    if markers and ch in WHITESPACE_MARKERS:
        return WHITESPACE_MARKERS[ch]
    if ch in _CONTROL_NAMES:
        return _CONTROL_NAMES[ch]
    code = ord(ch)
    if code < 0x20 or code == 0x7F or 0x80 <= code < 0xA0:
        return f"\\x{code:02x}"
    if ch in ("\u2028", "\u2029", "\ufeff", "\u200b"):
        return f"\\u{code:04x}"
    return ch


def split_utf8(data: bytes) -> list[tuple[bool, bytes]]:
    """Cut bytes into runs of valid UTF-8 (True) and of bytes that are not (False).

    >>> split_utf8(b"a\\xffb")
    [(True, b'a'), (False, b'\\xff'), (True, b'b')]
    """
    out: list[tuple[bool, bytes]] = []
    rest = data
    while rest:
        try:
            rest.decode("utf-8")
        except UnicodeDecodeError as e:
            if e.start:
                out.append((True, rest[: e.start]))
            bad_end = max(e.end, e.start + 1)
            if out and not out[-1][0]:
                out[-1] = (False, out[-1][1] + rest[e.start : bad_end])
            else:
                out.append((False, rest[e.start : bad_end]))
            rest = rest[bad_end:]
            continue
        out.append((True, rest))
        break
    return out


@lru_cache(maxsize=1 << 16)
def token_label(token: bytes, markers: bool = True) -> str:
    """A one-line readable form of a token: whitespace markers, ``\\xNN`` for partial UTF-8."""
    parts = []
    for ok, run in split_utf8(token):
        if ok:
            parts.append("".join(_escape_char(ch, markers) for ch in run.decode("utf-8")))
        else:
            parts.append("".join(f"\\x{b:02x}" for b in run))
    return "".join(parts)


def piece_label(piece: str) -> str:
    """A SentencePiece piece as its model names it, on one line: ``▁`` kept (it is the piece's
    space), other whitespace as markers, control characters escaped.

    >>> piece_label("▁the"), piece_label("<0x0A>"), piece_label("\\n\\n")
    ('▁the', '<0x0A>', '↵↵')
    """
    return "".join(_escape_char(ch, True) for ch in piece)


def hex_bytes(token: bytes) -> str:
    """``b'hi'`` → ``'68 69'``."""
    return token.hex(" ")


def hex_html(token: bytes) -> str:
    """Hex bytes for rich text: the bytes of one character are joined by no-break spaces, so that a
    line breaks only between characters (a long token's hex was one unbreakable run, which Qt broke
    anywhere: ``e`` at the end of a line and ``4 b8`` on the next); bytes that are not whole UTF-8
    stand alone.

    >>> hex_html("a我".encode()), hex_html(b"\\xe6\\x88")
    ('61 e6&nbsp;88&nbsp;91', 'e6 88')
    """
    return " ".join(
        "&nbsp;".join(f"{b:02x}" for b in ch.encode("utf-8", "surrogateescape"))
        for ch in token.decode("utf-8", "surrogateescape")
    )


def token_tip_html(token: bytes, bytes_line: str) -> str:
    """A token's tooltip as rich text: its readable form (escaped: a token such as ``<p>`` is shown,
    not taken for markup) over ``bytes_line``, a translated ``bytes: {0}`` that gets :func:`hex_html`.

    >>> token_tip_html("<p>我".encode(), "bytes: {0}")
    '<qt>&lt;p&gt;我<br>bytes: 3c 70 3e e6&nbsp;88&nbsp;91</qt>'
    """
    return f"<qt>{escape(token_label(token))}<br>{bytes_line.format(hex_html(token))}</qt>"


def pair_label(pair: tuple[bytes, bytes]) -> str:
    return f"{token_label(pair[0])} + {token_label(pair[1])}"


def search_text(token: bytes) -> str:
    """What a search box matches against: the raw text, the readable label and the hex."""
    raw = token.decode("utf-8", "replace")
    return f"{raw}\x00{token_label(token)}\x00{hex_bytes(token)}"


def human_bytes(n: int) -> str:
    """``1500`` → ``'1.5 kB'``: decimal units, as the command line says them (:mod:`core.units`)."""
    return size_text(n)


def signed(n: int) -> str:
    """``5`` → ``'+5'``, ``0`` → ``''``."""
    return f"{n:+,}" if n else ""


class UnclosedQuote(ValueError):
    """A quote not closed in a line of special tokens; ``token`` is the text after it."""

    def __init__(self, message: str, token: str) -> None:
        super().__init__(message)
        self.token = token


_SPECIAL_TOKEN = re.compile(r'"([^"]*)"(?=\s|$)|(\S+)')


def parse_special_tokens(text: str) -> list[str]:
    """Special tokens typed on one line: separated by whitespace, in double quotes when one
    contains whitespace. Raises ValueError for a quote that is not closed.

    >>> parse_special_tokens('<|endoftext|> "<|end of turn|>"  [PAD]')
    ['<|endoftext|>', '<|end of turn|>', '[PAD]']
    """
    out = []
    for m in _SPECIAL_TOKEN.finditer(text):
        quoted, plain = m.groups()
        if plain is not None and plain.startswith('"') and len(plain) > 1 and not plain.endswith('"'):
            raise UnclosedQuote(
                f"special tokens: the quote before {plain!r} is not closed "
                '(write a token that contains spaces as "like this")',
                plain,  # the app says the same in its language
            )
        out.append(quoted if quoted is not None else plain)
    return out
