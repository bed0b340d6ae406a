"""Valid cuts of byte ranges: where a file may be cut into ranges counted or encoded apart
(the rules and why they are exact: :mod:`core.pretokenization.scan`). A cut depends only on the
bytes around it, so two processes that look for the first valid cut after the same offset agree
without talking to each other.

Kept apart from :mod:`core.pretokenization.scan` (which counts with the pre-tokenizer) so that the
worker processes of :mod:`core.pretokenization.sharded_count` can find their cuts without importing
the counting side.
"""

from __future__ import annotations

from collections.abc import Collection

import regex

from core.pretokenization.patterns import GPT2_PATTERN, GPT4_PATTERN
from core.pretokenization.regex_cuts import RegexCuts
from core.pretokenization.special_matching import special_bytes_regex_overlapped

WINDOW = 1 << 16  # bytes read at a time while looking for a valid cut (at most)
FIRST_WINDOW = 1 << 12  # bytes read first
# a position right after "\n" that follows a printable ASCII byte and precedes an ASCII letter
_NEWLINE_CUT = regex.compile(rb"(?<=[\x21-\x7e]\n)(?=[A-Za-z])")
# the end of a word: a letter (any script), then a character that is neither a letter nor a mark
# (text whose lines never start with an ASCII letter, such as JSON lines, markup, Russian or
# Chinese, has plenty of those; a mark is left out because a normalizer may join it to the letter)
# (both characters free of any decomposition: a normalizer may turn "™" into letters, "é," into "e", a mark, ",")
_WORD_END = regex.compile(r"(?<=\p{L})(?<=\p{dt=none})(?=[^\p{L}\p{M}])(?=\p{dt=none})")


def cuts_at_newlines(pattern: str | None) -> bool:
    return pattern in (GPT2_PATTERN, GPT4_PATTERN)


def range_rule(pattern: str | None) -> bool | RegexCuts:
    """What else than special tokens cuts byte ranges of text pre-tokenized with ``pattern``
    (the ``newlines`` of :func:`next_valid_cut`): True for GPT-2 and GPT-4 (after newlines and at
    word ends), a :class:`core.pretokenization.regex_cuts.RegexCuts` for another pattern whose cuts it proves from
    the pattern (o200k, Llama 3, Qwen, a custom regex), else False."""
    if cuts_at_newlines(pattern):
        return True
    return (RegexCuts.for_pattern(pattern) if pattern is not None else None) or False


def _rule_cuts(buf: bytes, lo: int, hi: int, rule, most: int = 64) -> list[int]:
    """The first (at most ``most``) offsets ``q`` in ``[lo, hi]`` of ``buf`` where ``rule`` (a
    :class:`RegexCuts` or :class:`core.pretokenization.blocks.NormalizedCuts`) allows a cut. Decoding starts 4 bytes
    before ``lo`` (UTF-8 resynchronizes by then: the characters around a cut are the whole file's)
    and reads up to 8 bytes past ``hi`` (the character after the one after a cut, which a
    normalized rule looks at, is read whole)."""
    a = max(0, lo - 4)
    text = buf[a : min(len(buf), hi + 8)].decode("utf-8", "surrogateescape")
    out: list[int] = []
    offset = a
    allows = rule.allows
    for i, ch in enumerate(text):
        if offset > hi:
            break
        if i and offset >= lo and allows(text, i):
            out.append(offset)
            if len(out) >= most:
                break
        offset += len(ch.encode("utf-8", "surrogateescape"))
    return out


def _special_bytes_re(specials: tuple[str, ...]) -> regex.Pattern[bytes] | None:
    return special_bytes_regex_overlapped(tuple(specials))  # (found overlapped: the regex module)


def _word_ends(buf: bytes, lo: int, hi: int) -> list[int]:
    """Offsets ``q`` in ``[lo, hi]`` of ``buf`` where a letter ends and a character that is neither a
    letter nor a mark follows. UTF-8 resynchronizes at the first byte that is not a continuation
    byte, so from 4 bytes before ``lo`` on, the characters decoded here are the whole file's (a
    partial one at either end decodes as surrogates, which are not letters, and lies outside the range)."""
    a = max(0, lo - 4)
    text = buf[a : min(len(buf), hi + 4)].decode("utf-8", "surrogateescape")
    out: list[int] = []
    chars, offset = 0, a
    for m in _WORD_END.finditer(text):
        offset += len(text[chars : m.start()].encode("utf-8", "surrogateescape"))
        chars = m.start()
        if offset > hi:
            break
        if offset >= lo:
            out.append(offset)
    return out


def next_valid_cut(
    f, pos: int, size: int, specials: tuple[str, ...], newlines, cut_at: Collection[str] | None = None
) -> int:
    """The first valid cut ``q >= pos`` of the open file ``f`` (``size`` when there is none).

    ``newlines``: True for the cuts after newlines and at word ends (GPT-2, GPT-4), a rule with an
    ``allows(text, i)`` method (:func:`range_rule`, :func:`core.pretokenization.blocks.tokenizer_rule`) for its cuts,
    False for special tokens only.

    ``cut_at``: the special tokens a cut may go before (default: all of them); the others only
    keep cuts out of their occurrences (an imported pipeline may not split the text before some
    added tokens, see :func:`core.pretokenization.blocks.tokenizer_rule`)."""
    if pos <= 0:
        return 0
    if pos >= size:
        return size
    sre = _special_bytes_re(specials)
    longest = max((len(t.encode("utf-8", "surrogateescape")) for t in specials), default=0)
    back = max(longest, 8)  # (a UTF-8 character has up to 4 bytes: those around a cut are read whole)
    start = max(0, pos - back)
    window = FIRST_WINDOW  # a cut is usually a few bytes away: read a little first, then more
    while start < size:
        f.seek(start)
        buf = f.read(window + 2 * back)
        window = min(2 * window, WINDOW)
        if not buf:
            break
        end = start + len(buf)
        # occurrences (overlapping) of special tokens: starts, and the spans they cover
        found = [] if sre is None else list(sre.finditer(buf, overlapped=True))
        occ = [(start + m.start(), start + m.end()) for m in found]
        starts = {
            start + m.start()
            for m in found
            if cut_at is None or m.group().decode("utf-8", "surrogateescape") in cut_at
        }
        lo = pos if start == 0 else max(pos, start + back)  # (nothing before byte 0 to look at)
        hi = end - back if end < size else end
        cands = {s for s in starts if lo <= s <= hi}
        if newlines is True:
            cands.update(start + m.start() for m in _NEWLINE_CUT.finditer(buf, lo - start, hi - start + 1))
            cands.update(start + q for q in _word_ends(buf, lo - start, hi - start))
        elif newlines:
            cands.update(start + q for q in _rule_cuts(buf, lo - start, hi - start, newlines))
        for q in sorted(cands):
            if q >= size:
                return size
            if not any(s < q < e for s, e in occ):
                return q
        if hi >= size:
            return size
        if end >= size:
            break
        start = hi - back + 1
    return size
