"""What a pre-tokenizer regex does to text of every kind, found by running it over a probe text.

Two properties matter beyond the regex compiling:

- **Empty matches.** A regex that can match the empty string (``\\p{L}*|\\s+``) cuts text differently
  in each library: BPE Explorer skips empty matches and makes the text between matches one
  pre-token, HF ``tokenizers`` cuts that text at every empty match, and tiktoken fails on it (a Rust
  panic). :func:`check_training_pattern` refuses such a regex wherever a pattern is given for
  training, naming the fix.
- **Coverage.** A regex that does not match all text (``\\p{L}+`` leaves spaces and punctuation out):
  BPE Explorer and HF make each stretch no match covers a pre-token of its own, tiktoken drops it.
  :func:`uncovered_chars` names what is left out (the tiktoken export is lossy then:
  :mod:`core.formats.losses`).

Both are found on :data:`PROBE_TEXT` (letters of several scripts, digits, spaces, tabs, newlines,
punctuation, symbols, CJK, emoji, combining marks, control characters), whole and one character at a
time, so that a regex anchored at the start or end of a text is caught too.

>>> empty_match(r"\\p{L}*|\\s+|\\d")
"before ','"
>>> empty_match(r"\\p{L}+|\\s+|\\d") is None
True
>>> uncovered_chars(r"\\p{L}+")[:3]
[',', ' ', '!']
"""

from __future__ import annotations

from functools import lru_cache

import regex

from core.errors import PatternError
from core.pretokenization.patterns import resolve_pattern

#: a little of everything a corpus holds
PROBE_TEXT = (
    "Hello, World! It's 2024: they'll say \"don't\" — ÀÉÎõü ßæ Ωμέγα Привет мир.\n"
    "  two  spaces\tand a tab\r\nCRLF\n\n\nblank lines 12345 0.5 ٣٤٥ ²³ Ⅻ ½ $3.50 €9,99 ¥ £\n"
    "+/-=<> #@&* %^ ~`|\\ (x) [y] {z} 'q' «quote» ¿qué? ¡sí! ... …\n"
    "中文字符，测试。日本語のテキスト、カタカナ。한국어 텍스트 ไทย العربية עברית हिन्दी\n"
    "emoji 👍🏽 👨\u200d👩\u200d👧 🎉🎉 e\u0301 \u00a0nbsp\u200bzero\u3000ideo \x00\x01\x1f\x7f end "
)


@lru_cache(maxsize=64)
def empty_match(pattern: str) -> str | None:
    """Where the regex ``pattern`` matches the empty string on the probe text ("before ','", "at the
    end of a text", "on an empty text"), or None when it never does there."""
    compiled = regex.compile(pattern)
    for text in (PROBE_TEXT, *dict.fromkeys(PROBE_TEXT)):
        for m in compiled.finditer(text):
            if m.start() == m.end():
                return f"before {text[m.start()]!r}" if m.start() < len(text) else "at the end of a text"
    return "on an empty text" if compiled.search("") is not None else None


@lru_cache(maxsize=64)
def uncovered_chars(pattern: str) -> list[str]:
    """The characters of the probe text that no match of ``pattern`` covers, first seen first (empty
    when the regex matches all of it: GPT-2's, cl100k's, o200k's … do)."""
    compiled = regex.compile(pattern)
    out: dict[str, None] = {}
    for text in (PROBE_TEXT, *dict.fromkeys(PROBE_TEXT)):
        covered = bytearray(len(text))
        for m in compiled.finditer(text):
            covered[m.start() : m.end()] = b"\x01" * (m.end() - m.start())
        out.update((text[i], None) for i, c in enumerate(covered) if not c)
    return list(out)


def shown_chars(chars: list[str], limit: int = 3) -> str:
    """``' ', '.', ',' …``: the first few of ``chars`` as Python writes them."""
    return ", ".join(map(repr, chars[:limit])) + (" …" if len(chars) > limit else "")


def check_training_pattern(pattern: str | None) -> str | None:
    """:func:`~core.pretokenization.patterns.resolve_pattern` for a pattern given to train with: the
    regex (None for "none"), refusing also one that can match the empty string (PatternError, code
    ``pattern_can_match_empty``), whose pre-tokens HF and tiktoken would cut otherwise.

    A pattern read from a tokenizer file is not checked this way (it is the file's; loading keeps it).
    """
    regex_ = resolve_pattern(pattern)
    if regex_ is None:
        return None
    where = empty_match(regex_)
    if where is not None:
        raise PatternError(
            f"pre-tokenizer regex {regex_!r} can match the empty string ({where}); HF tokenizers cut text "
            "at every empty match and tiktoken fails on it, so the exported files would not give the ids "
            "BPE Explorer gives: make every alternative match at least one character (+ instead of *, "
            "{1,} instead of {0,}, no ? after a whole alternative)",
            code="pattern_can_match_empty",
            pattern=regex_,
            found=where,
        )
    return regex_
