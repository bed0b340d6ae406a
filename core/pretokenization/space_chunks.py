"""Pre-tokenize by space-separated chunks: each distinct chunk goes through the regex once.

Text is cut at every space (U+0020) that is followed by a character that is not whitespace; the
pieces between such cuts are *chunks* (all but the first start with that space). For the patterns
in :func:`is_space_safe` the pre-tokens of a text are the pre-tokens of its chunks, each chunk
pre-tokenized on its own. Cutting is ``str.split`` (C speed), counting chunks is ``Counter``
(C speed), and in real text most chunks repeat (Zipf), so the regex sees only the distinct ones.

Why the cut is exact. Let ``t[i]`` be a space and ``t[i+1]`` a character that is not ``\\s`` (as
the ``regex`` module defines it: Unicode White_Space). Every built-in alternative below matches
at least one character and together they match any character, so ``findall`` tiles the text.
It is enough to show that (a) no match that starts before ``i`` reaches past ``i`` and (b) such a
match is the same in ``t`` and in ``t[:i]``: then a match starts at ``i``, and, as no pattern
looks behind, the matches from ``i`` on are those of ``t[i:]``. Take a match starting at
``j < i``; ``t[j:i]`` is the same in both texts, and the only difference is what follows:
``t[i:]`` (a space, then a non-space) against the end of the string.

* Letter, digit and punctuation runs (``\\p{L}+``, ``\\p{N}+``, ``\\p{N}{1,3}``, the case-aware
  ``[\\p{Lu}…\\p{M}]*[\\p{Ll}…\\p{M}]+`` of o200k, ``[^\\s\\p{L}\\p{N}]+`` and the ``[\\r\\n]*`` /
  ``[\\r\\n/]*`` tails): the space at ``i`` is in none of their classes, so they stop at ``i``
  exactly as they stop at the end of the string, greedy, possessive or backtracking alike.
* Optional single characters before a run (`` ?``, ``[^\\r\\n\\p{L}\\p{N}]?`` possessive or not)
  and the contractions (``'s``, ``'ll``, … also with ``(?i)``, also as o200k's optional
  suffix): they read characters at positions ``< i``, or at ``i`` only where they need a letter
  or an apostrophe, which the space is not: they fail there as they fail at the end.
* ``\\s*[\\r\\n]`` (GPT-4) and ``\\s*[\\r\\n]+`` (o200k, Llama 3, Qwen): ``\\s*`` may run over the
  space at ``i`` but stops at ``t[i+1]``; the line break that must follow lies before ``i``
  (``t[i]`` and ``t[i+1]`` are no line breaks), so backtracking ends on the same match as at the
  end of the string.
* ``\\s+(?!\\S)``: in ``t`` the run from ``j`` reaches ``i`` at most (``t[i+1]`` is not
  whitespace); the look-ahead fails after ``t[i]`` and succeeds after ``t[i-1]`` (it sees the
  space), so the match is ``t[j:i]``, as in ``t[:i]``, where the look-ahead sees the end of the
  string. A shorter run (ending before ``i``) lies entirely before ``i``: same in both.
* ``\\s+`` is tried only where ``\\s+(?!\\S)`` failed, i.e. a single whitespace character followed
  by a non-space; that is never the case at ``i - 1`` in ``t`` (the space follows) nor in
  ``t[:i]`` (the end follows), and elsewhere both texts agree.

Each of GPT-2, GPT-4 (cl100k), o200k, Llama 3, Qwen 2 and Qwen 3.5 is built only from these
alternatives (the list is :data:`_PROVEN`); the property tests compare chunked
and plain pre-tokenization on random texts full of whitespace, digits, contractions, marks and
invalid bytes for each of them. Any other pattern keeps the plain path.

Counting (:class:`core.pretokenization.chunk_counts.ChunkCounter`) works on the corpus bytes (no decoding of the whole block, no
re-encoding of keys): spaces that are *not* cuts (followed by whitespace, or the last byte) are
first replaced by a placeholder byte that does not occur in the block (:func:`mark_non_cuts`, a few
``bytes.replace``), so that one ``bytes.split(b" ")`` gives the chunks, which ``Counter`` counts.
The distinct chunks are joined, the placeholder becomes a space again, the text is decoded
(``surrogateescape``: a space byte always ends an invalid sequence, so each chunk decodes to the
characters that decoding the block gives there) and pre-tokenized; NumPy sums ``count ×
pre-tokens`` per pre-token. Encoding (:class:`ChunkEncoder`) keeps each chunk's ids in a cache.

Whether counting by chunks pays depends on the text: prose whose words repeat is counted about
twice as fast; text whose chunks rarely repeat (indented dictionary lines, a Zipf tail of millions
of made-up words) about as fast or slower. The counting processes time both exact paths and use the
faster (:class:`PathChooser`); so does the encoder, for texts of 256 characters or more (text between
special tokens, e.g. one story of a corpus, is often short).

"""

from __future__ import annotations

import time
from collections.abc import Callable
from itertools import chain, compress, islice, repeat
from operator import is_
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from core.bpe.support import PretokenCache
from core.pretokenization.patterns import (
    GPT2_PATTERN,
    GPT4_PATTERN,
    LLAMA3_PATTERN,
    O200K_PATTERN,
    QWEN35_PATTERN,
    QWEN_PATTERN,
)

#: every character that is ``\\s`` for the ``regex`` module (Unicode White_Space) or for ``re``
#: (which adds U+001C..U+001F), but the space, as UTF-8: a space before one is never a cut
#: (treating more places as no cut is always exact: the chunk is just longer)
WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
# (first byte, space + character, character): a one-byte search is much cheaper than a two-byte one,
# so the first byte is looked for first
_SPACE_THEN_WS = [(w.encode()[:1], b" " + w.encode(), w.encode()) for w in WHITESPACE]
_SPACE_THEN_WS_TEXT = [(w, " " + w, w) for w in WHITESPACE]
# bytes that can mark things inside a block when absent from it: ASCII controls that are not
# whitespace first, then bytes that never occur in UTF-8
BATCH_MIN_CHUNKS = 256  # texts with more chunks than this encode their new chunks in one batch
PREFILL_PRETOKENS = 4096  # the plain path looks for many new pre-tokens (to merge at once) from this many
_MARK_CODES = (*range(0x00, 0x09), *range(0x0E, 0x1C), 0x7F)
_TEXT_MARKS = [chr(c) for c in _MARK_CODES] + ["\ufdd0", "\ufdd1", "\U0010fffe"]  # (noncharacters last)
_MARKS = [bytes([c]) for c in (*_MARK_CODES, 0xC0, 0xC1, *range(0xF5, 0x100))]


# each is made only of the alternatives the module doc goes through
_PROVEN = frozenset({GPT2_PATTERN, GPT4_PATTERN, O200K_PATTERN, LLAMA3_PATTERN, QWEN_PATTERN, QWEN35_PATTERN})


def is_space_safe(pattern: str | None) -> bool:
    """True for a (resolved) pattern whose pre-tokens restart at every space before a non-space."""
    return pattern is not None and pattern in _PROVEN


def chunks_exact(pattern: str | None, specials: tuple[str, ...] | list[str]) -> bool:
    """Whether counting by chunks gives the plain path's counts: a proven pattern, and no special
    token written with surrogate escapes (those are found in the text, not in its bytes)."""
    return is_space_safe(pattern) and not any(0xD800 <= ord(c) <= 0xDFFF for t in specials for c in t)


def free_marks(data: bytes, n: int = 2) -> list[bytes] | None:
    """``n`` distinct bytes that do not occur in ``data`` (None when there are not enough)."""
    out = []
    for m in _MARKS:
        if m not in data:
            out.append(m)
            if len(out) == n:
                return out
    return None


def mark_non_cuts(data: bytes, ph: bytes) -> bytes:
    """``data`` with every space that is not a cut (followed by whitespace or last) written as ``ph``.

    ``ph`` must not occur in ``data``. Runs of spaces: two non-overlapping passes of
    ``"  " -> ph + " "`` leave no two spaces side by side (a run of k spaces becomes pairs, plus
    one odd space that the second pass pairs), then ``" " + ph -> ph + ph`` turns every space
    that a space followed into ``ph``: all but the last space of each run. Then a space before
    any other whitespace character, and a final space, become ``ph``.

    >>> mark_non_cuts(b"a     b  \\nc ", b"#")
    b'a#### b##\\nc#'
    """
    return _mark(data, ph, b" ", _SPACE_THEN_WS)


def mark_non_cuts_text(text: str, ph: str) -> str:
    """:func:`mark_non_cuts` for a ``str`` (``ph`` a character absent from it).

    >>> mark_non_cuts_text("a  b\\u3000 c ", "#")
    'a# b\\u3000 c#'
    """
    return _mark(text, ph, " ", _SPACE_THEN_WS_TEXT)


def _mark(data, ph, space, space_then_ws):
    double = space + space
    if double in data:
        data = data.replace(double, ph + space)
        if double in data:
            data = data.replace(double, ph + space)
        data = data.replace(space + ph, ph + ph)
    for lead, sw, w in space_then_ws:
        if lead in data and sw in data:
            data = data.replace(sw, ph + w)
    if data.endswith(space):
        data = data[:-1] + ph
    return data


class PathChooser:
    """Which of two exact paths (by chunks, or the plain regex over all the text) is faster on the
    text a process sees: which one wins depends on the text (prose with repeating words: chunks;
    text whose chunks rarely repeat, e.g. indented lines: the plain path), so each path is timed
    on one call of every ``probe_every``, and the faster one does the rest. The results are the
    same either way. The first call takes the plain path: a process that sees one or two blocks
    (a small corpus) then costs what it cost before the chunk path existed."""

    probe_every = 16
    probing = False  # the last pick is the chunk path's probe (a counter may time it on part of the input)

    def __init__(self) -> None:
        self.calls = 0
        self.rate: dict[bool, float] = {}  # seconds per unit of input, last measured

    def pick(self) -> bool:
        """True: by chunks."""
        self.calls += 1
        phase = self.calls % self.probe_every
        self.probing = phase == 2
        if phase in (1, 2) or len(self.rate) < 2:
            return phase == 2
        return self.rate[True] <= self.rate[False]

    def record(self, chunked: bool, seconds: float, size: int) -> None:
        self.rate[chunked] = seconds / max(1, size)


class EncodeChooser(PathChooser):
    """:class:`PathChooser` for the encoder: the plain path is timed again on the third call, after
    the chunk path's probe, so that the first comparison is not of a cold plain call (every word
    new) against a warmer chunk call (which would pick chunks for text where they lose)."""

    def pick(self) -> bool:
        self.calls += 1
        phase = self.calls % self.probe_every
        if phase in (1, 2, 3) or len(self.rate) < 2:
            return phase == 2
        return self.rate[True] <= self.rate[False]


class ChunkEncoder:
    """Encodes text chunk by chunk: the ids of each distinct chunk are kept in a cache, so a
    repeated word costs one dict lookup (no regex, no per-pre-token lookups).

    ``split`` gives a text's pre-tokens, ``encode_pretoken`` a pre-token's ids (cached by the
    tokenizer). The shared cache holds chunks written with the placeholder ``"\\x00"``; a text
    that contains a NUL takes another placeholder and a cache of its own.
    """

    PH = "\x00"
    MIN_CHARS = 256
    GROUP_CHARS = 1 << 16  # texts are encoded in groups of about this many characters (one path each)
    force: bool | None = None  # True / False: always / never by chunks (tests); None: by timing

    def __init__(
        self,
        split: Callable[[str], list[str]],
        encode_pretoken: Callable[[str], tuple[int, ...]],
        pattern: str | None,
        prefill: Callable[[list[str]], None] | None = None,
    ) -> None:
        from core.bpe.support import PretokenCache

        self.split = split
        self.encode_pretoken = encode_pretoken
        self.prefill = prefill  # puts many new pre-tokens into encode_pretoken's cache at once
        self.cache = PretokenCache(lambda piece: self._ids(" " + piece.replace(self.PH, " ")))
        self.chooser = EncodeChooser()
        if not is_space_safe(pattern):
            self.force = False  # chunks are exact only for the proven patterns

    def _ids(self, text: str) -> tuple[int, ...]:
        return tuple(chain.from_iterable(map(self.encode_pretoken, self.split(text))))

    def plain(self, text: str) -> list[int]:
        """Pre-tokenize, then encode each pre-token."""
        return self.plain_all([text])[0]

    def plain_all(self, texts: list[str]) -> list[list[int]]:
        """:meth:`plain` of each text; the new pre-tokens of all of them are merged together (a block
        of a corpus holds many short documents between special tokens)."""
        toks = list(map(self.split, texts))
        if self.prefill is not None and sum(map(len, toks)) >= PREFILL_PRETOKENS:
            self.prefill(toks[0] if len(toks) == 1 else list(chain.from_iterable(toks)))
        get = self.encode_pretoken
        return [list(chain.from_iterable(map(get, t))) for t in toks]

    def encode(self, text: str) -> list[int]:
        """The ids of ``text``: by chunks or :meth:`plain`, whichever :class:`PathChooser` finds
        faster; texts under ``MIN_CHARS`` go the plain way."""
        return self.encode_all([text])[0]

    def encode_all(self, texts: list[str]) -> list[list[int]]:
        """:meth:`encode` of each text. Texts are taken in groups of about ``GROUP_CHARS``; each group
        goes one path, the plain path looking for the new pre-tokens of the whole group at once."""
        out: list[list[int]] = []
        group: list[str] = []
        size = 0
        for i, text in enumerate(texts):
            group.append(text)
            size += len(text)
            if size >= self.GROUP_CHARS or i == len(texts) - 1:
                out += self._encode_group(group, size)
                group, size = [], 0
        return out

    def _encode_group(self, texts: list[str], size: int) -> list[list[int]]:
        if (self.force is None and size < self.MIN_CHARS) or self.force is False:
            return self.plain_all(texts)
        chunked = self.chooser.pick() if self.force is None else True
        t0 = time.perf_counter()
        if chunked:
            out = [ids if (ids := self._encode(t)) is not None else self.plain(t) for t in texts]
        else:
            out = self.plain_all(texts)
        self.chooser.record(chunked, time.perf_counter() - t0, size)
        return out

    def _encode(self, text: str) -> list[int] | None:
        """The ids of ``text`` by chunks, or None when every placeholder candidate occurs in it."""
        ph, cache = self.PH, self.cache
        if ph in text:
            free = next((c for c in _TEXT_MARKS if c not in text), None)
            if free is None:
                return None
            from core.bpe.support import PretokenCache

            ph = free
            cache = PretokenCache(lambda piece: self._ids(" " + piece.replace(free, " ")))
        parts = mark_non_cuts_text(text, ph).split(" ")
        out = list(self._ids(parts[0].replace(ph, " "))) if parts[0] else []
        if len(parts) > BATCH_MIN_CHUNKS:
            self._learn(parts, ph, cache)
        out += chain.from_iterable(map(cache.__getitem__, islice(parts, 1, None)))
        return out

    def _learn(self, parts: list[str], ph: str, cache: PretokenCache) -> None:
        """Encode the chunks of ``parts[1:]`` missing from ``cache`` with one call of the splitter
        (a cut before each chunk is exact: the joined text gives each chunk's pre-tokens)."""
        from core.bpe.support import CACHE_LIMIT, CACHE_MAX_WORD

        distinct = dict.fromkeys(islice(parts, 1, None))
        new = list(compress(distinct, map(is_, map(cache.get, distinct), repeat(None))))
        if len(cache) + len(new) > CACHE_LIMIT:
            cache.make_room(len(new))
            new = [k for k in distinct if k not in cache]
        new = [k for k in new if len(k) < CACHE_MAX_WORD]  # (longer ones are encoded one by one)
        if not new:
            return
        toks = self.split(" " + " ".join(new).replace(ph, " "))
        # the chunk of each pre-token, by character offsets (chunk ends are pre-token ends)
        ends = np.cumsum(np.fromiter(map(len, new), np.int64, len(new)) + 1)
        stops = np.searchsorted(
            np.cumsum(np.fromiter(map(len, toks), np.int64, len(toks))), ends, side="right"
        ).tolist()
        if self.prefill is not None:
            self.prefill(toks)
        ids = list(map(self.encode_pretoken, toks))
        per_chunk = map(chain.from_iterable, map(ids.__getitem__, map(slice, [0, *stops[:-1]], stops)))
        cache.update(zip(new, map(tuple, per_chunk)))
