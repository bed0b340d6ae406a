"""Fast pre-tokenization for the tokenizer: safe cut places and an ASCII fast path.

For the GPT-2 and GPT-4 patterns, text is cut into blocks at places where pre-tokenization cannot
change (:func:`last_safe_cut`); blocks that are pure ASCII are split with an ASCII-only version of
the pattern compiled with the standard ``re`` module (about twice as fast as ``regex`` with Unicode
properties), other blocks with the pattern itself. On ASCII text ``\\p{L}`` is ``[A-Za-z]``,
``\\p{N}`` is ``[0-9]`` and ``\\s`` is ``[\\t\\n\\v\\f\\r ]`` (``re.ASCII``), so the pre-tokens are identical.

>>> split = make_splitter(GPT2_PATTERN)
>>> split("Hello world's 12 café")
['Hello', ' world', "'s", ' 12', ' café']
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable

import regex

from core.pretokenization.patterns import GPT2_PATTERN, GPT4_PATTERN

#: ASCII-only equivalents of the built-in patterns (compiled with re.ASCII).
ASCII_PATTERNS = {
    GPT2_PATTERN: r"""'(?:[sdmt]|ll|ve|re)| ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+(?!\S)|\s+""",
    GPT4_PATTERN: (
        r"""'(?i:[sdmt]|ll|ve|re)|[^\r\nA-Za-z0-9]?+[A-Za-z]+|[0-9]{1,3}| ?[^\sA-Za-z0-9]++[\r\n]*"""
        r"""|\s*[\r\n]|\s+(?!\S)|\s+"""
    ),
}
BLOCK_CHARS = 1 << 14  # mixed text is split in blocks of about this size

# A cut between a letter and a following non-letter is a pre-token boundary of the GPT-2 and GPT-4
# patterns that no later text can move: see :func:`last_safe_cut`.
_LAST_LETTER_THEN_OTHER = regex.compile(r"(?r)\p{L}\P{L}")
_NEXT_LETTER_THEN_OTHER = regex.compile(r"\p{L}\P{L}")


def last_safe_cut(text: str, start: int, end: int) -> int:
    """The last position ``i`` in ``(start, end)`` after a letter and before a non-letter, else -1.

    For the GPT-2 and GPT-4 patterns such an ``i`` is always a pre-token boundary, and pre-tokenizing
    ``text[:i]`` and ``text[i:]`` separately gives the same pre-tokens as the whole text, whatever
    follows: a letter can only be consumed by ``\\p{L}+`` or by the contraction alternative, both of
    which end at the next non-letter, and a non-letter can never complete a match that started before
    it (the only constructs testing it after a letter are letter tests, which fail on it exactly as
    they fail at the end of the string). Patterns have no look-behind, so matching restarts cleanly.

    >>> last_safe_cut("hello world", 0, 11)
    5
    >>> last_safe_cut("12 34", 0, 5)
    -1
    """
    m = _LAST_LETTER_THEN_OTHER.search(text, start, end)
    return -1 if m is None else m.start() + 1


def split_keeping_gaps(compiled: regex.Pattern[str], text: str) -> list[str]:
    """The matches of ``compiled`` in ``text`` and, as pieces of their own, the stretches between
    them that no (non-empty) match covers: no text is ever dropped (HF's Split "isolated").

    >>> split_keeping_gaps(regex.compile("[a-z]+"), "ab, cd!")
    ['ab', ', ', 'cd', '!']
    >>> split_keeping_gaps(regex.compile("x*"), "abxxc")
    ['ab', 'xx', 'c']
    """
    out: list[str] = []
    pos = 0
    for m in compiled.finditer(text):
        start, end = m.span()
        if start == end:  # an empty match covers nothing
            continue
        if start > pos:
            out.append(text[pos:start])
        out.append(text[start:end])  # the whole match, also when the pattern has groups
        pos = end
    if pos < len(text):
        out.append(text[pos:])
    return out


def make_covering_splitter(pattern: str | None) -> Callable[[str], list[str]]:
    """Like :func:`make_splitter`, but text that no match covers is kept as pre-tokens of its own
    (the built-in patterns cover every character already). Training uses it, so that a custom
    pattern such as ``[a-z]+`` never drops text from the counts."""
    if pattern is None or pattern in ASCII_PATTERNS:
        return make_splitter(pattern)
    compiled = regex.compile(pattern)
    return lambda text: split_keeping_gaps(compiled, text)


def make_splitter(pattern: str | None) -> Callable[[str], list[str]]:
    """A function returning the pre-tokens of a text (``regex.findall`` semantics of ``pattern``).

    ``None`` (no pre-tokenization) gives the whole text as one pre-token.
    """
    if pattern is None:
        return lambda text: [text] if text else []
    findall = regex.compile(pattern).findall
    ascii_pattern = ASCII_PATTERNS.get(pattern)
    if ascii_pattern is None or sys.version_info < (3, 11):  # re has possessive quantifiers from 3.11
        return findall
    ascii_findall = re.compile(ascii_pattern, re.ASCII).findall

    def split(text: str) -> list[str]:
        if text.isascii():
            return ascii_findall(text)
        if len(text) <= BLOCK_CHARS:
            return findall(text)
        out: list[str] = []
        pos, n = 0, len(text)
        while pos < n:
            cut = n if pos + BLOCK_CHARS >= n else last_safe_cut(text, pos, pos + BLOCK_CHARS)
            if cut <= pos:
                m = _NEXT_LETTER_THEN_OTHER.search(text, pos + BLOCK_CHARS)
                cut = n if m is None else m.start() + 1
            block = text[pos:cut]
            out += ascii_findall(block) if block.isascii() else findall(block)
            pos = cut
        return out

    return split
