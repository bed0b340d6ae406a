"""GPT-2's byte-level alphabet: each byte as one printable character, the way vocab.json, merges.txt and
tokenizer.json write token bytes."""

from __future__ import annotations


def bytes_to_unicode() -> dict[int, str]:
    """GPT-2's table from each byte to a printable character (printable Latin-1 bytes map to themselves).

    >>> bytes_to_unicode()[ord(" ")], bytes_to_unicode()[ord("a")]
    ('Ġ', 'a')
    """
    bs = (
        list(range(ord("!"), ord("~") + 1))
        + list(range(ord("¡"), ord("¬") + 1))
        + list(range(ord("®"), ord("ÿ") + 1))
    )
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


BYTE_TO_CHAR: dict[int, str] = bytes_to_unicode()
CHAR_TO_BYTE: dict[str, int] = {c: b for b, c in BYTE_TO_CHAR.items()}
_ENCODE_TABLE = [BYTE_TO_CHAR[i] for i in range(256)]


def token_to_str(token: bytes) -> str:
    """A token's bytes as a GPT-2 string (lossless: one character per byte).

    >>> token_to_str(b" the\\xff")
    'Ġtheÿ'
    """
    return "".join(map(_ENCODE_TABLE.__getitem__, token))


def str_to_token(s: str) -> bytes:
    """Inverse of :func:`token_to_str`; raises ``KeyError`` on a character outside the table.

    >>> str_to_token("Ġthe")
    b' the'
    """
    return bytes(map(CHAR_TO_BYTE.__getitem__, s))
