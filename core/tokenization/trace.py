"""Token spans for the views: where each token of an encoding sits in the input text.

>>> spans = token_spans("é!", [195, 169, 33], {i: bytes([i]) for i in range(256)}, frozenset())
>>> [(s.start, s.end, s.byte_start, s.byte_end, s.complete_utf8) for s in spans]
[(0, 1, 0, 1, False), (0, 1, 1, 2, False), (1, 2, 2, 3, True)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import accumulate

from core.bpe.merge import utf8_lengths


@dataclass(frozen=True)
class TokenSpan:
    """One token of an encoded text, for the views.

    ``start``/``end`` are character offsets into the input (``text[start:end]`` covers the token; a
    token that splits a character shares that character with its neighbour), ``byte_start`` and
    ``byte_end`` are offsets into the input's UTF-8 bytes, and ``complete_utf8`` says whether the
    token's bytes are whole UTF-8 characters.
    """

    id: int
    token: bytes
    start: int
    end: int
    byte_start: int
    byte_end: int
    is_special: bool
    complete_utf8: bool

    @property
    def text(self) -> str:
        """The token's bytes as text (U+FFFD for partial characters)."""
        return self.token.decode("utf-8", "replace")


@dataclass(frozen=True)
class TextTrace:
    """The head of a text's trace, for a view that shows at most a few thousand tokens.

    ``spans`` are the first tokens' spans (at most the limit asked for), ``n_tokens`` counts every
    token of the text, and ``text`` is the text the offsets are into (the input, or the text the
    tokens spell where a normalizer or a prefix space changed it).
    """

    spans: list[TokenSpan]
    n_tokens: int
    text: str


def token_spans(
    text: str, ids: Iterable[int], vocab: dict[int, bytes], special_ids: frozenset[int]
) -> list[TokenSpan]:
    """Spans of ``ids`` (the encoding of ``text``) with character and byte offsets into ``text``."""
    lengths = utf8_lengths(text)
    char_starts = [0, *accumulate(lengths)]  # byte offset where each character starts
    spans: list[TokenSpan] = []
    ci = 0  # index of the character containing the current byte
    pos = 0
    for i in ids:
        tok = vocab[i]
        start_b, end_b = pos, pos + len(tok)
        while char_starts[ci + 1] <= start_b:
            ci += 1
        cj = ci
        while cj < len(lengths) and char_starts[cj + 1] < end_b:
            cj += 1
        spans.append(TokenSpan(i, tok, ci, cj + 1, start_b, end_b, i in special_ids, is_utf8(tok)))
        pos = end_b
    return spans


def is_utf8(b: bytes) -> bool:
    """Whether ``b`` is whole, valid UTF-8 characters.

    >>> is_utf8("é".encode()), is_utf8(b"\\xc3")
    (True, False)
    """
    try:
        b.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
