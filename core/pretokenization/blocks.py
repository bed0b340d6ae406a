"""Cutting a corpus stream into blocks where pre-tokenization provably restarts (any script).

A cut at byte ``c`` is safe when pre-tokenizing ``text[:c]`` and ``text[c:]`` separately (each
scanned from its own start, the first one ending at ``c``) gives exactly the pre-tokens of the
whole text. Cuts are made

* just before a special token (the text is split there anyway), found by scanning the stream from
  its start, so the matches are the ones a scan of the whole text finds;
* for the GPT-2 and GPT-4 patterns, at one of these places (``X`` is the last character before
  the cut, ``Y`` the first after it; none of them needs ASCII):

  - ``X`` a letter and ``Y`` not a letter: letters are consumed only by ``\\p{L}+`` (or the
    contraction alternative), which ends at ``Y`` in the whole text and at the end of
    ``text[:c]``; no alternative that starts at or before ``X`` can cross ``Y`` (the pattern
    tests ``Y`` only as a letter, which fails there exactly as the end of the string fails);
  - ``X`` a digit and ``Y`` whitespace: digit runs end the same way, and whitespace starts a new
    pre-token in both patterns;
  - GPT-4: ``X`` a line break (``\\r`` or ``\\n``) and ``Y`` not whitespace: a whitespace run
    that ends in a line break is one pre-token (``\\s*[\\r\\n]``), as are punctuation plus its
    line breaks (``[\\r\\n]*``), whether ``Y`` or the end of the string follows;
  - GPT-2: ``Y`` a line break followed by a non-space: that line break is a pre-token of its own
    (``\\s+(?!\\S)`` leaves it to ``\\s+``), and the whitespace before it ends as it does at the
    end of a string (``\\s+(?!\\S)`` sees a space next, or the end).

  In every case the pattern has no look-behind, so matching after the cut starts afresh.
  The property tests check these cuts against the whole text for random texts and cut sizes.

A custom pattern is cut where :mod:`core.pretokenization.regex_cuts` proves it safe from the pattern's structure
(a pattern with look-behind, anchors or back references, and ``none``, only before special tokens).
Blocks are bounded by about ``block_bytes`` whenever such places exist; a stretch without any (one
20 MB word) stays one block.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import regex

from core.pretokenization.patterns import GPT2_PATTERN, GPT4_PATTERN
from core.pretokenization.pipeline_cuts import block_cuts
from core.pretokenization.regex_cuts import RegexCuts
from core.pretokenization.special_matching import special_bytes_regex

BLOCK_BYTES = 4 << 20
MAX_BLOCK_BYTES = 16 << 20
_HOLD = 4  # bytes kept back at the end: the character after a cut must be complete (UTF-8: <= 4)
_WINDOW = 1 << 18
_SPACE_AT_END = regex.compile(r"\s*$")  # the tail searched first for a cut, before the whole new stretch

_CUT_RE = {
    "gpt2": regex.compile(r"(?r)\p{L}\P{L}|\p{N}\s|[\r\n]\S"),
    "gpt4": regex.compile(r"(?r)\p{L}\P{L}|\p{N}\s|[\r\n]\S"),
    "builtin": regex.compile(r"(?r)\p{L}\P{L}|\p{N}\s"),  # safe for both (no line-break rule)
}
# characters Unicode normalization (NFC/NFD/NFKC/NFKD) may join to or reorder with the character
# before them: combining marks (ccc > 0), the "Maybe" of the quick checks (Hangul vowels and trailing
# consonants, some Indic vowel signs) and the characters whose compatibility decomposition starts
# with one (Hangul compatibility and halfwidth jamo, halfwidth voiced sound marks, Tibetan vowels)
_JOINS_BEFORE = (
    r"[\p{NFC_QC=M}\p{NFKC_QC=M}\P{ccc=0}\u0f73\u0f75\u0f81\u3131-\u318e\uff9e\uff9f"
    r"\uffa0-\uffdc]"
)
# the same cuts, but not before such a character, and with the letter and the character after it
# free of any decomposition (NFKC makes "TM" of "™" and NFD "e" + U+0301 of "é": the classes the cut
# relies on would change): for a tokenizer that normalizes its text
_JOINS = regex.compile(_JOINS_BEFORE)
_PLAIN = r"(?=\p{dt=none})"
_CUT_RE.update(
    {
        f"{name}-normalized": regex.compile(
            r"(?r)"
            + _PLAIN
            + r"\p{L}(?!"
            + _JOINS_BEFORE
            + r")"
            + _PLAIN
            + r"\P{L}|\p{N}\s"
            + (r"|[\r\n](?!" + _JOINS_BEFORE + r")" + _PLAIN + r"\S" if name != "builtin" else "")
        )
        for name in list(_CUT_RE)
    }
)


@dataclass(frozen=True)
class PipelineRule:
    """The cut rule for a tokenizer with an imported HF pipeline (see :func:`tokenizer_rule`):
    ``rule`` for the text (None: none), ``cut_tokens`` the added tokens a cut may go before (all the
    special tokens when None), ``lstrip_tokens`` those whose cut goes before the whitespace they eat,
    ``whole``: never cut."""

    rule: str | RegexCuts | NormalizedCuts | None
    cut_tokens: frozenset[str] | None = None
    lstrip_tokens: frozenset[str] = frozenset()
    whole: bool = False


def rule_for_pattern(pattern: str | None, builtin: dict[str, str]) -> str | RegexCuts | None:
    """The cut rule for a resolved pattern: the name of a built-in rule (``builtin`` maps the
    built-in patterns to their names), a :class:`RegexCuts` for a custom pattern it can prove cuts
    for, else None (cut before special tokens only; also for ``None``, no pre-tokenization)."""
    if pattern is None:
        return None
    if pattern in builtin:
        return builtin[pattern]
    return RegexCuts.for_pattern(pattern)


class NormalizedCuts:
    """The cuts of a :class:`RegexCuts` for text that a normalizer changes (NFC, NFKC, ..., Lowercase):
    only between two characters that normalization leaves as they are and joins to nothing, where
    the character after them joins to nothing either. Around such a cut the normalized text has the
    same two characters, and normalizing both sides apart gives the normalized whole; so the
    regex's proof about those two characters holds in the text the regex sees.

    A character is left as it is when it has no decomposition at all (canonical or compatibility:
    Unicode never changes a decomposition once made, so this holds in the older tables HF uses
    too) and, with Lowercase, is its own lowercase."""

    def __init__(self, cuts: RegexCuts, normalizers: tuple[str, ...]) -> None:
        self.cuts = cuts
        self.lowercase = "Lowercase" in normalizers
        self._stable: dict[str, bool] = {}

    def stable(self, ch: str) -> bool:
        known = self._stable.get(ch)
        if known is None:
            known = self._stable[ch] = (
                unicodedata.normalize("NFKD", ch) == ch
                and not _JOINS.match(ch)
                and not (self.lowercase and ch.lower() != ch)
            )
        return known

    def allows(self, text: str, c: int) -> bool:
        """Is a cut before ``text[c]`` safe (``0 < c``; False when ``text[c + 1]`` is not there)?"""
        if c + 1 >= len(text):
            return False
        x, y = text[c - 1], text[c]
        return self.stable(y) and self.stable(x) and not _JOINS.match(text[c + 1]) and self.cuts.safe(x, y)

    def last_cut(self, text: str, lo: int, hi: int) -> int:
        """The last such cut ``c`` with ``lo < c`` and ``c + 1 < hi``, or -1."""
        allows = self.allows
        for c in range(hi - 2, lo, -1):
            if allows(text, c):
                return c
        return -1


def _split_rule(split: str, builtin_rule: str | RegexCuts | None) -> str | RegexCuts | None:
    """The cut rule of a pipeline's first split (a regex, or "gpt2" for ByteLevel's own)."""
    if split in ("gpt2", GPT2_PATTERN):
        return "gpt2"
    if split == GPT4_PATTERN:
        return "gpt4"
    if isinstance(builtin_rule, RegexCuts) and builtin_rule.pattern == split:
        return builtin_rule
    return RegexCuts.for_pattern(split)


def tokenizer_rule(tokenizer, builtin_rule: str | RegexCuts | None) -> str | RegexCuts | PipelineRule | None:
    """``builtin_rule`` (the rule of the tokenizer's pattern), or for a tokenizer that goes through
    an imported HF pipeline a :class:`PipelineRule`: where the pipeline's pre-tokenizer starts with a
    regex split, that regex's cuts (built-in rules or :class:`RegexCuts`), kept off characters a
    normalizer may change or join (:class:`NormalizedCuts`), and cuts before added tokens as HF splits
    them (:func:`core.pretokenization.pipeline_cuts.block_cuts`)."""
    conf = getattr(tokenizer, "pipeline_config", None)
    if conf is None:
        return builtin_rule
    cuts = block_cuts(conf)
    rule: str | RegexCuts | NormalizedCuts | None = None
    if cuts.mode in ("pattern", "normalized"):
        rule = (
            _split_rule(cuts.split, builtin_rule)
            if cuts.split is not None
            else (builtin_rule if isinstance(builtin_rule, str) else None)
        )
    if isinstance(rule, str) and cuts.mode == "normalized":
        rule += "-normalized"
    elif isinstance(rule, RegexCuts) and cuts.mode == "normalized":
        rule = NormalizedCuts(rule, cuts.normalizers)
    return PipelineRule(rule, cuts.cut_tokens, cuts.lstrip_tokens, cuts.mode == "whole")


def _last_rule_cut(buf: bytearray, lo: int, hi: int, rule: str | RegexCuts | NormalizedCuts) -> int:
    """The last safe cut in ``(lo, hi]`` by the pattern rule (see the module doc), or -1.

    Only whole characters are looked at: ``lo`` and ``hi`` move to character boundaries, and a
    cut needs both its characters (``X`` and ``Y``) inside ``buf[lo:hi]``.
    """
    while lo < hi and 0x80 <= buf[lo] < 0xC0:
        lo += 1
    while hi > lo and hi < len(buf) and 0x80 <= buf[hi] < 0xC0:
        hi -= 1
    if hi - lo < 2:
        return -1
    text = bytes(buf[lo:hi]).decode("utf-8", "surrogateescape")
    if not isinstance(rule, str):
        at = rule.last_cut(text, max(0, len(text) - _WINDOW), len(text))
        if at < 0 and len(text) > _WINDOW:
            at = rule.last_cut(text, 0, len(text) - _WINDOW + 1)
        return -1 if at <= 0 else lo + len(text[:at].encode("utf-8", "surrogateescape"))
    cut_re = _CUT_RE[rule]
    m = cut_re.search(text, max(0, len(text) - _WINDOW))
    if m is None and len(text) > _WINDOW:
        m = cut_re.search(text, 0, len(text) - _WINDOW + 2)
    if m is None:
        return -1
    at = m.start() if (rule.startswith("gpt2") and m.group()[0] in "\r\n") else m.start() + 1
    if at == 0:
        return -1
    return lo + len(text[:at].encode("utf-8", "surrogateescape"))


def auto_block_bytes(size: int, workers: int) -> int:
    """The block size for counting ``size`` bytes in ``workers`` processes: at least four blocks per
    process (so the processes finish together), between 4 and 16 MB. Larger blocks cost less in
    all: their counts overlap less (a frequent word is listed once per block), so there is less to
    send back and to add up; on a 500 MB corpus with 2.0M distinct pre-tokens, 16 MB blocks took
    22% less CPU than 4 MB blocks (tests/benchmarks/RESULTS.md). ``size`` 0 (a stream): 4 MB."""
    if size <= 0:
        return BLOCK_BYTES
    return max(BLOCK_BYTES, min(MAX_BLOCK_BYTES, size // (4 * max(1, workers))))


def iter_blocks(
    stream,
    specials: list[str],
    rule: str | bool | RegexCuts | NormalizedCuts | PipelineRule | None,
    block_bytes: int = BLOCK_BYTES,
    poll: Callable[[], None] | None = None,
) -> Iterator[bytes]:
    """Cut a binary stream into blocks at safe places (see the module doc), in one linear pass.

    ``rule``: ``"gpt2"``, ``"gpt4"``, a :class:`RegexCuts` (a custom pattern), a :class:`PipelineRule`
    (an imported HF pipeline: :func:`tokenizer_rule`), ``None`` (specials only); ``True`` (the older
    "a built-in pattern" flag) takes the cuts that are safe for both built-in patterns. ``poll()`` is called
    before every read (it may raise, e.g. :class:`core.Cancelled`), so that a stretch without a
    place to cut (one 1 GB word) can be cancelled while it is read.

    Each read of ``block_bytes`` is searched once (new bytes only), so a long stretch without a
    safe place costs linear time; the data is kept in one growing buffer (no quadratic copying).
    """
    cut_tokens: frozenset[str] | None = None
    lstrip: frozenset[str] = frozenset()
    if isinstance(rule, PipelineRule):
        if rule.whole:
            yield from _whole(stream, poll)
            return
        cut_tokens, lstrip, rule = rule.cut_tokens, rule.lstrip_tokens, rule.rule
    if rule is True:
        rule = "builtin"
    elif rule is False:
        rule = None
    sre = special_bytes_regex(tuple(specials))  # (a trie: compiles fast for thousands of tokens)
    longest = max((len(t.encode("utf-8", "surrogateescape")) for t in specials), default=0)
    hold = max(longest, _HOLD)
    buf = bytearray()
    scan_from = 0  # specials: where the scan of the whole stream continues (a match boundary)
    searched = 0  # rule cuts: bytes before this were searched already (none was found there)
    last_end = 0  # the end of the last special token found: rule cuts come after it
    while True:
        if poll is not None:
            poll()
        data = stream.read(block_bytes)
        if not data:
            if buf:
                yield bytes(buf)
            return
        buf += data
        if len(buf) < block_bytes:
            continue
        limit = len(buf) - hold
        cut = 0
        if sre is not None:
            # a match starting at or before limit cannot grow with bytes that come later
            pos = scan_from
            for m in sre.finditer(buf, scan_from):
                if m.start() > limit:
                    break
                if cut_tokens is None:
                    cut = m.start()
                else:
                    cut = _token_cut(buf, m, last_end, cut_tokens, lstrip, cut)
                last_end = pos = m.end()
            # no match of the whole scan starts in [pos, limit]: the next search may begin after it
            scan_from = max(pos, limit + 1, 0)
        if rule is not None and limit > max(last_end, searched):
            c = _last_rule_cut(buf, max(last_end, searched, 1), limit, rule)
            if c > cut:
                cut = c
            searched = limit
        if cut > 0:
            yield bytes(buf[:cut])
            del buf[:cut]
            scan_from = max(0, scan_from - cut)
            searched = max(0, searched - cut)
            last_end = max(0, last_end - cut)


def _token_cut(
    buf: bytearray,
    m: regex.Match[bytes],
    prev_end: int,
    cut_tokens: frozenset[str],
    lstrip: frozenset[str],
    cut: int,
) -> int:
    """The cut before added token ``m`` if a cut may go there (before the whitespace it strips), else ``cut``."""
    token = m.group().decode("utf-8", "surrogateescape")
    if token not in cut_tokens:
        return cut
    start = m.start()
    if token in lstrip:
        before = bytes(buf[prev_end:start]).decode("utf-8", "surrogateescape")
        space = _SPACE_AT_END.search(before)  # (as core.pipeline.hf strips it; matches any text)
        start -= len(before[space.start() :].encode("utf-8", "surrogateescape")) if space is not None else 0
    return max(start, cut)


def _whole(stream, poll: Callable[[], None] | None) -> Iterator[bytes]:
    """The whole stream as one block."""
    parts = []
    while True:
        if poll is not None:
            poll()
        data = stream.read(BLOCK_BYTES)
        if not data:
            break
        parts.append(data)
    if parts:
        yield b"".join(parts)
