"""Pre-tokenize mixed text with the fast ASCII twin wherever it is ASCII, and the pattern elsewhere.

The ``re`` twin of a pattern (:mod:`core.pretokenization.ascii_pattern`, or the hand-written ones of
:mod:`core.pretokenization.splitting`) finds the same pre-tokens as the pattern on ASCII text in about half the
time. A text holding a single non-ASCII character could not use it as a whole; here it is cut into
stretches at *space cuts* (a space followed by a character that is not whitespace), which are exact
pre-token cuts for the patterns :func:`core.pretokenization.space_chunks.is_space_safe` accepts (the proof is in
that module's doc): the pre-tokens of the text are those of the stretches, each pre-tokenized on its
own. Each run of non-ASCII characters is widened to the space cuts around it and given to the
pattern; the ASCII stretches between go to the twin. Runs close to each other share one call.

>>> import re, regex
>>> from core.pretokenization.patterns import O200K_PATTERN
>>> from core.pretokenization.ascii_pattern import ascii_twin
>>> split = ascii_segmented(regex.compile(O200K_PATTERN).findall, ascii_twin(O200K_PATTERN).findall)
>>> split("Hello world, café au lait!  Big 日本語 text")
['Hello', ' world', ',', ' café', ' au', ' lait', '!', ' ', ' Big', ' 日本語', ' text']
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable

import regex

from core.pretokenization.ascii_pattern import ascii_twin
from core.pretokenization.space_chunks import WHITESPACE, is_space_safe
from core.pretokenization.splitting import ASCII_PATTERNS, make_splitter

Splitter = Callable[[str], list[str]]
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
#: a space cut: a space before a character that no engine calls whitespace (U+001C..U+001F included)
_CUT = re.compile("[ ](?=[^ " + re.escape(WHITESPACE) + "])")
_WS = frozenset(WHITESPACE + " ")
#: non-ASCII runs closer than this (characters between their stretches) are pre-tokenized together
JOIN_GAP = 200
#: a text with this many non-ASCII runs in its first SAMPLE_CHARS characters goes to the pattern whole:
#: with a non-ASCII word every few dozen characters, finding the stretches costs more than the twin saves
DENSE_RUNS = 8
SAMPLE_CHARS = 2048


def ascii_segmented(full: Splitter, ascii_findall: Splitter, dense_runs: int = DENSE_RUNS) -> Splitter:
    """A splitter giving ``full(text)`` for a space-safe pattern, with ASCII stretches split by the
    twin ``ascii_findall``. ``full`` must tile the text (every built-in pattern does). A text with
    ``dense_runs`` non-ASCII runs or more in its first :data:`SAMPLE_CHARS` characters goes to ``full``
    whole."""
    search = _NON_ASCII.search
    runs = _NON_ASCII.findall
    cut_after = _CUT.search

    def split(text: str) -> list[str]:
        if text.isascii():
            return ascii_findall(text)
        if len(runs(text, 0, SAMPLE_CHARS)) >= dense_runs:
            return full(text)
        out: list[str] = []
        pos, n = 0, len(text)
        while True:
            m = search(text, pos)
            if m is None:
                if pos < n:
                    out += ascii_findall(text[pos:])
                return out
            start = _cut_before(text, pos, m.start())
            if start > pos:
                out += ascii_findall(text[pos:start])
            end = m.end()
            while True:
                c = cut_after(text, end)
                end = n if c is None else c.start()
                m = search(text, end, end + JOIN_GAP)
                if m is None:
                    break
                end = m.end()
            out += full(text[start:end])
            if end >= n:
                return out
            pos = end

    return split


def _cut_before(text: str, lo: int, hi: int) -> int:
    """The last space cut in ``(lo, hi]`` (``text[hi]`` is not ASCII), or ``lo`` when there is none."""
    i = text.rfind(" ", lo + 1, hi)
    while i > lo and text[i + 1] in _WS:
        i = text.rfind(" ", lo + 1, i)
    return i if i > lo else lo


def tokenizer_splitter(pattern: str | None, dense_runs: int = DENSE_RUNS) -> Splitter:
    """The tokenizer's pre-tokenizer for a (resolved) pattern: ASCII text is split by the pattern's
    twin for ``re``; for a space-safe pattern also the ASCII stretches of mixed text (unless dense:
    :func:`ascii_segmented`); for a custom pattern, text no match covers is kept as pre-tokens of its own."""
    from core.bpe.support import covering

    if pattern is None:
        return make_splitter(pattern)
    src = ASCII_PATTERNS.get(pattern)
    twin = (
        re.compile(src, re.ASCII) if src is not None and sys.version_info >= (3, 11) else ascii_twin(pattern)
    )
    if twin is not None and is_space_safe(pattern):  # (these patterns match every character)
        return ascii_segmented(regex.compile(pattern).findall, twin.findall, dense_runs)
    if pattern in ASCII_PATTERNS:
        return make_splitter(pattern)
    return covering(regex.compile(pattern), twin)
