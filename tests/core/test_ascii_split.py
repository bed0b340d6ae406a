"""Mixed text split by the ASCII twin between its non-ASCII stretches (core.pretokenization.ascii_split) gives the
pattern's own pre-tokens, and a tokenizer using it gives tiktoken's ids."""

from __future__ import annotations

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from core.formats.known import LLAMA3_PATTERN, O200K_PATTERN, QWEN35_PATTERN, QWEN_PATTERN
from core.pretokenization.ascii_split import (
    DENSE_RUNS,
    JOIN_GAP,
    SAMPLE_CHARS,
    ascii_segmented,
    tokenizer_splitter,
)
from core.pretokenization.patterns import GPT2_PATTERN, GPT4_PATTERN
from core.tokenization.tokenizer import Tokenizer

from .tok_corpus import EOT, trained_spec

PROVEN = {
    "gpt2": GPT2_PATTERN,
    "gpt4": GPT4_PATTERN,
    "o200k": O200K_PATTERN,
    "llama3": LLAMA3_PATTERN,
    "qwen": QWEN_PATTERN,
    "qwen35": QWEN35_PATTERN,
}
ASCII = [
    " ",
    " ",
    " ",
    "  ",
    "    ",
    "a",
    "Zb",
    "HeLLo",
    "CamelCase",
    "word",
    "1",
    "23",
    "4567",
    "\t",
    "\n",
    "\r\n",
    "\n\n",
    " \n",
    "\x0b",
    "\x0c",
    "\x1c",
    "\x1f",
    "'s",
    "'S",
    "'ll",
    "'",
    "'RE",
    ".",
    "!?",
    "/",
    "\x00",
    "\x7f",
    "x" * 40,
]
OTHER = [
    "日本",
    "Щи",
    "é",
    "e\u0301",
    "\u0301",
    "\u3000",
    "\xa0",
    "\x85",
    "\u2028",
    "\u2009",
    "\u200b",
    "٣",
    "Ⅻ",
    "，",
    "🙂",
    "👍🏽",
    "\udcff",
    "\udc80\udcc3",
    "ſ",
    "'ſ",
    "\u212a",
    "Ǆa",
]
# long ASCII runs with non-ASCII pieces here and there, some further apart than JOIN_GAP
mixed = st.lists(
    st.one_of(
        st.sampled_from(ASCII),
        st.sampled_from(OTHER),
        st.integers(0, 3 * JOIN_GAP).map(lambda n: "ab cd " * (n // 6)),
    ),
    max_size=80,
).map("".join)


@settings(deadline=None)
@given(text=mixed, name=st.sampled_from(sorted(PROVEN)), dense_runs=st.sampled_from([DENSE_RUNS, 1 << 30]))
def test_split_equals_the_pattern(text, name, dense_runs):
    # (1 << 30: never dense, so every mixed text goes through the segmenting)
    assert tokenizer_splitter(PROVEN[name], dense_runs)(text) == regex.findall(PROVEN[name], text)


def test_dense_non_ascii_text_goes_to_the_pattern_whole():
    calls: list[str] = []
    full = regex.compile(GPT2_PATTERN).findall

    def spy(text):
        calls.append(text)
        return full(text)

    split = ascii_segmented(spy, spy)
    dense = "ab é cd " * DENSE_RUNS + "x" * SAMPLE_CHARS + " ascii tail"
    assert split(dense) == full(dense) and calls == [dense]
    calls.clear()
    sparse = "x" * SAMPLE_CHARS + "ab é cd " * DENSE_RUNS  # (the runs come after the sample)
    assert split(sparse) == full(sparse) and len(calls) > 1


def test_non_ascii_runs_go_to_the_pattern_and_ascii_stretches_to_the_twin():
    calls: list[tuple[str, str]] = []
    full = regex.compile(GPT2_PATTERN).findall

    def spy(kind, f):
        def split(text):
            calls.append((kind, text))
            return f(text)

        return split

    far = " x" * JOIN_GAP
    text = "a b日本 c  d" + far + " é f\u3000g" + " h é i"
    split = ascii_segmented(spy("full", full), spy("twin", full))
    assert split(text) == full(text)
    # each non-ASCII run is widened to the space cuts around it; runs close together share a call
    assert calls == [
        ("twin", "a"),
        ("full", " b日本"),
        ("twin", " c  d" + far),
        ("full", " é f\u3000g h é"),
        ("twin", " i"),
    ]


@pytest.fixture(scope="module")
def o200k_encoders():
    """A small vocab trained with o200k's pattern: tokenizers forced to the plain and the chunk path,
    and tiktoken with the same ranks."""
    tiktoken = pytest.importorskip("tiktoken")
    spec = trained_spec(pattern=O200K_PATTERN, specials=(EOT,))
    ranks = {b: i for i, b in spec.ordinary_tokens().items()}
    enc = tiktoken.Encoding(
        "t", pat_str=O200K_PATTERN, mergeable_ranks=ranks, special_tokens=spec.special_ids
    )
    plain, chunked = Tokenizer.from_spec(spec), Tokenizer.from_spec(spec)
    plain._chunked.force, chunked._chunked.force = False, True
    return plain, chunked, enc


@settings(deadline=None)
@given(text=st.lists(st.one_of(mixed, st.just(EOT)), max_size=4).map("".join))
def test_o200k_ids_equal_tiktoken_on_mixed_text(o200k_encoders, text):
    plain, chunked, enc = o200k_encoders
    text = text.replace("\udcff", "\ufffd").replace("\udc80\udcc3", "\ufffd")  # (tiktoken takes no escapes)
    want = enc.encode(text, allowed_special="all")
    assert plain.encode(text) == want
    assert chunked.encode(text) == want
    assert chunked.encode(text + " " + text) == enc.encode(text + " " + text, allowed_special="all")
