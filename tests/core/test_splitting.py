"""The fast splitter gives exactly the pre-tokens of ``regex.findall`` with the pattern."""

from __future__ import annotations

import re
import sys

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st

import core.pretokenization.splitting as splitting
from core.pretokenization.pretokenize import GPT2_PATTERN, GPT4_PATTERN

from .tok_corpus import make_corpus

PATTERNS = [GPT2_PATTERN, GPT4_PATTERN]
ASCII = [chr(i) for i in range(128)]
needs_311 = pytest.mark.skipif(sys.version_info < (3, 11), reason="the ASCII fast path needs Python 3.11")


@needs_311
@pytest.mark.parametrize("pattern", PATTERNS)
def test_ascii_pattern_equals_unicode_pattern_on_all_ascii_triples(pattern: str) -> None:
    fast = re.compile(splitting.ASCII_PATTERNS[pattern], re.ASCII)
    slow = regex.compile(pattern)
    text = "".join(a + b + c for a in ASCII for b in ASCII for c in "' a1\n\r\t.S")
    assert fast.findall(text) == slow.findall(text)


@needs_311
@pytest.mark.parametrize("pattern", PATTERNS)
@given(text=st.lists(st.sampled_from([*ASCII, "'s", "'LL", "  ", "\r\n"]), max_size=80).map("".join))
def test_ascii_pattern_on_generated_ascii(pattern: str, text: str) -> None:
    assert re.compile(splitting.ASCII_PATTERNS[pattern], re.ASCII).findall(text) == regex.findall(
        pattern, text
    )


@pytest.mark.parametrize("pattern", PATTERNS)
@given(
    parts=st.lists(
        st.one_of(st.text(max_size=6), st.sampled_from(["hello ", "x'll", "12 ", "  ", "\n"])), max_size=60
    )
)
def test_blocks_give_the_same_pretokens(pattern: str, parts: list[str]) -> None:
    text = "".join(parts)
    old = splitting.BLOCK_CHARS
    splitting.BLOCK_CHARS = 7  # tiny blocks: many cuts, ASCII and non-ASCII blocks mixed
    try:
        assert splitting.make_splitter(pattern)(text) == regex.findall(pattern, text)
    finally:
        splitting.BLOCK_CHARS = old


@pytest.mark.parametrize("pattern", PATTERNS)
def test_long_mixed_text(pattern: str) -> None:
    text = make_corpus(20000, seed=4) + " plain ascii tail " * 2000
    assert splitting.make_splitter(pattern)(text) == regex.findall(pattern, text)


def test_none_and_custom_patterns() -> None:
    assert splitting.make_splitter(None)("a b") == ["a b"]
    assert splitting.make_splitter(None)("") == []
    assert splitting.make_splitter(r"\d+|\D+")("ab12c") == ["ab", "12", "c"]
