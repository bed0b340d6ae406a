"""Exact block cuts for custom pre-tokenization patterns (core/pretokenization/regex_cuts.py, issue 13 §6)."""

from __future__ import annotations

import io

import numpy as np
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from core.formats.spec import TokenizerSpec
from core.pretokenization.blocks import iter_blocks
from core.pretokenization.pretokenize import block_rule, count_pretokens
from core.pretokenization.regex_cuts import RegexCuts
from core.pretokenization.splitting import split_keeping_gaps
from core.tokenization.npy import encode_file_to_npy
from core.tokenization.tokenizer import Tokenizer

#: tricky patterns: look-ahead (positive, negative, \s+(?!\S)), possessive and atomic groups, lazy
#: and counted repeats, zero-width matches, alternation order, patterns that leave text uncovered,
#: inline flags (scoped, and global ones written after atoms), comments, named groups
TRICKY = [
    r"\s+(?!\S)|\s+|\w+|[^\w\s]+",
    r"'(?:[sdmt]|ll|ve|re|em)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+",  # GPT-2's + 'em
    r"[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]++[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+",
    r"[a-z]+",
    r"x*",
    r"\d+|[A-Z]",
    r"a(?=bc)|b(?!a)|.",
    r"(?=a)|a|b",
    r"abc|ab|a|.",
    r"a+?b|a|.",
    r"(?>a+)b|a+|.",
    r"a++b|.",
    r"\p{N}{2,3}|\p{L}{1,2}|\s",
    r"(?i:[a-c])+|[^a-c]",
    r"a(?i)b|.",
    r"(?P<w>\w+)(?#words)|\S|\s+",
    r".+",
    r"(?s).{1,3}",
    r"[^\s]+|\s",
    r"(?:ab)*c|.",
    r"a(?=\s*\n)|\n\n|.",
    r"(?a)\w+|\W",
]
#: patterns that read before the match start or the end of the text: no cut is proved for them
NO_CUT = [
    r"(?<=a)b|.",
    r"(?<!\s)\w+|.",
    r"\b\w|.",
    r"^a|.",
    r"a$|.",
    r"(a)\1|.",
    r"\Ga|.",
    r"(?x) a | .",
    r"(?r)ab|.",
    r"[[:alpha:]]+|.",
    r"(?V1)[\w--a]+|.",
]

ALPHABET = "abcxAB1 2\n\t.'é日\r"
texts = st.text(alphabet=ALPHABET, max_size=80)


def _pieces(pattern: str, text: str) -> list[str]:
    return split_keeping_gaps(regex.compile(pattern), text)


@settings(max_examples=300, deadline=None)
@given(text=texts, pattern=st.sampled_from(TRICKY))
def test_every_proved_cut_splits_the_text_exactly(text, pattern):
    cuts = RegexCuts.for_pattern(pattern)
    assert cuts is not None
    whole = _pieces(pattern, text)
    for c in range(1, len(text)):
        if cuts.safe(text[c - 1], text[c]):
            assert _pieces(pattern, text[:c]) + _pieces(pattern, text[c:]) == whole, (c, text[:c], text[c:])


@settings(max_examples=300, deadline=None)
@given(
    data=st.one_of(texts.map(str.encode), st.binary(max_size=60).map(lambda b: b"x" + b)),
    block=st.integers(1, 24),
    pattern=st.sampled_from(TRICKY + NO_CUT),
    specials=st.sampled_from([[], ["<|e|>"], ["ab", "b"]]),
)
def test_counts_with_tiny_blocks_equal_one_block(data, block, pattern, specials):
    # (a tokenizer file's pattern, as an extension counts with: x* and (?=a) are refused for training)
    kw = {"workers": 1, "allow_nul": True, "pattern_of_file": True}
    got, _ = count_pretokens(data, specials, pattern, block_bytes=block, **kw)
    want, _ = count_pretokens(data, specials, pattern, block_bytes=1 << 20, **kw)
    assert list(got.items()) == list(want.items())
    blocks = list(iter_blocks(io.BytesIO(data), specials, block_rule(pattern), block))
    assert b"".join(blocks) == data


@settings(max_examples=120, deadline=None)
@given(text=texts, block=st.integers(1, 24), pattern=st.sampled_from(TRICKY))
def test_encodings_with_tiny_blocks_equal_encode(tmp_path_factory, text, block, pattern):
    tok = Tokenizer.from_spec(
        TokenizerSpec.from_merges(
            [(b"a", b"b"), (b"ab", b"c"), (b" ", b"x"), (b"\n", b"\n")], ["<|e|>"], pattern=pattern
        )
    )
    d = tmp_path_factory.mktemp("enc")
    (d / "in.txt").write_bytes(text.encode())
    encode_file_to_npy(tok, d / "in.txt", d / "out.npy", workers=1, block_bytes=block)
    assert np.load(d / "out.npy").tolist() == tok.encode(text)


_ATOMS = st.sampled_from(["a", "b", "[ab]", r"\s", r"\S", ".", r"\w", "[^a]", r"\n", " "])


def _combine(children):
    one = children.map(lambda c: f"(?:{c})")
    return st.one_of(
        st.lists(children, min_size=2, max_size=3).map("".join),
        st.lists(children, min_size=2, max_size=3).map("|".join),
        st.tuples(one, st.sampled_from(["*", "+", "?", "{1,2}", "*?", "++", "?+", "{2}"])).map("".join),
        children.map(lambda c: f"(?={c})"),
        children.map(lambda c: f"(?!{c})"),
        children.map(lambda c: f"(?>{c})"),
    )


random_patterns = st.recursive(_ATOMS, _combine, max_leaves=6)


@settings(max_examples=500, deadline=None)
@given(pattern=random_patterns, text=st.text(alphabet="ab \n.", max_size=30))
def test_every_proved_cut_is_exact_for_random_patterns(pattern, text):
    cuts = RegexCuts.for_pattern(pattern)
    assert cuts is not None, pattern  # (these constructs are all modelled)
    whole = _pieces(pattern, text)
    for c in range(1, len(text)):
        if cuts.safe(text[c - 1], text[c]):
            assert _pieces(pattern, text[:c]) + _pieces(pattern, text[c:]) == whole, (pattern, c, text)


def test_patterns_that_look_behind_or_at_the_ends_get_no_cut():
    for p in NO_CUT:
        assert RegexCuts.for_pattern(p) is None, p
    for p in TRICKY:
        assert RegexCuts.for_pattern(p) is not None, p


def test_a_custom_pattern_is_streamed_in_many_blocks():
    data = ("the cat sat on the mat, 42 times.\n" * 4000).encode()
    pattern = r"\s+(?!\S)|\s+|\w+|[^\w\s]+"
    blocks = list(iter_blocks(io.BytesIO(data), [], block_rule(pattern), 4096))
    assert len(blocks) >= len(data) // 8192 and max(map(len, blocks)) <= 2 * 4096
    got, stats = count_pretokens(data, [], pattern, workers=2, block_bytes=4096, pattern_of_file=True)
    assert got == dict(
        count_pretokens(data, [], pattern, workers=1, block_bytes=1 << 30, pattern_of_file=True)[0]
    )
    assert stats.chunks >= 10


def test_the_cut_rule_knows_which_pairs_are_safe():
    cuts = RegexCuts.for_pattern(r"\s+(?!\S)|\s+|\w+|[^\w\s]+")
    assert cuts.safe("a", " ")  # a word ends before a space, whatever follows
    assert not cuts.safe(" ", "a")  # \s+(?!\S) looks at "a": the space's match depends on it
    assert not cuts.safe("a", "b")
    letters = RegexCuts.for_pattern(r"[a-z]+")
    assert letters.safe("a", "!") and not letters.safe("!", "a")  # "!" is uncovered: never cut after it
    assert not RegexCuts.for_pattern(r"(?i)[a-z]+|.").safe("a", "B")  # (?i) applies to the set


def test_flags_turned_off_in_a_group_are_off_for_its_atoms():
    # (?a) makes \w ASCII; (?-a:\w) inside takes é again: a cut between "a" and "é" is then unsafe
    cuts = RegexCuts.for_pattern(r"(?a)(?-a:\w)+|.")
    assert not cuts.safe("a", "é")
    assert RegexCuts.for_pattern(r"(?a)\w+|.").safe("a", "é")
