"""The pre-tokenization patterns: the built-in regexes and how a pattern name becomes a regex.

A leaf module (nothing of the project's but the errors is imported), so that every part that needs a
pattern (counting, the tokenizer's splitters, the file formats) can import it without cycles.

>>> pattern_name(resolve_pattern("gpt4"))
'gpt4'
"""

from __future__ import annotations

import regex

from core.errors import PatternError

GPT2_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
GPT4_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]++[\r\n]*"""
    r"""|\s*[\r\n]|\s+(?!\S)|\s+"""
)
# o200k_base (GPT-4o): case-aware words with contractions, numbers of up to three digits
O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
LLAMA3_PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
    r"""|\s*[\r\n]+|\s+(?!\S)|\s+"""
)
QWEN_PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
    r"""|\s*[\r\n]+|\s+(?!\S)|\s+"""
)
QWEN35_PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+"""
    r"""[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
)
PATTERNS: dict[str, str | None] = {"gpt2": GPT2_PATTERN, "gpt4": GPT4_PATTERN, "none": None}


def resolve_pattern(pattern: str | None) -> str | None:
    """Map ``"gpt2"``/``"gpt4"``/``"none"`` (or a custom regex) to the regex string (None = no split).

    >>> resolve_pattern("none") is None
    True
    """
    if pattern is None:
        return None
    if pattern in PATTERNS:
        return PATTERNS[pattern]
    if not isinstance(pattern, str) or pattern == "":
        raise PatternError(
            "pattern must be 'gpt2', 'gpt4', 'none' or a non-empty regular expression", code="pattern_empty"
        )
    try:
        compiled = regex.compile(pattern)
    except regex.error as e:
        raise PatternError(
            f"invalid pre-tokenizer regex {pattern!r}: {e}; fix the expression "
            "or use 'gpt2', 'gpt4' or 'none'",
            code="pattern_invalid",
            pattern=pattern,
            detail=str(e),
        ) from e
    if compiled.match("") is not None and compiled.fullmatch("") is not None and compiled.search("a") is None:
        raise PatternError(
            f"pre-tokenizer regex {pattern!r} only matches the empty string",
            code="pattern_matches_empty",
            pattern=pattern,
        )
    return pattern


def pattern_name(pattern: str | None) -> str:
    """The short name of a pattern if it is a built-in one, else the regex itself."""
    for name, pat in PATTERNS.items():
        if pattern == name or (pat is not None and pattern == pat) or (pat is None and pattern is None):
            return name
    return str(pattern)
