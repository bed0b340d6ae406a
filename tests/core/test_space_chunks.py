"""Counting by space-separated chunks (core.pretokenization.space_chunks) gives exactly the plain regex counts,
in first-seen order, for every pattern it is enabled for."""

from __future__ import annotations

import re
from collections import Counter

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

import core.pretokenization.pretokenize as pretokenize
from core.formats.known import LLAMA3_PATTERN, O200K_PATTERN, QWEN35_PATTERN, QWEN_PATTERN
from core.pretokenization.chunk_counts import ChunkCounter
from core.pretokenization.patterns import GPT2_PATTERN, GPT4_PATTERN
from core.pretokenization.space_chunks import WHITESPACE, is_space_safe, mark_non_cuts
from core.tokenization.tokenizer import Tokenizer

from .tok_corpus import EOT, make_corpus, trained_spec

PROVEN = {
    "gpt2": GPT2_PATTERN,
    "gpt4": GPT4_PATTERN,
    "o200k": O200K_PATTERN,
    "llama3": LLAMA3_PATTERN,
    "qwen": QWEN_PATTERN,
    "qwen35": QWEN35_PATTERN,
}
PIECES = [
    " ",
    " ",
    " ",
    "  ",
    "   ",
    "a",
    "Zb",
    "HeLLo",
    "word",
    "日本",
    "Щи",
    "é",
    "e\u0301",
    "\u0301",
    "1",
    "23",
    "4567",
    "\t",
    "\n",
    "\r",
    "\r\n",
    "\n\n",
    " \n",
    "\u3000",
    "\xa0",
    "\x1c",
    "\x1f",
    "\x85",
    "\u2028",
    "\u2009",
    "\u200b",
    "\x0b",
    "\x0c",
    "٣",
    "Ⅻ",
    "'s",
    "'S",
    "'ll",
    "'",
    "'re",
    ".",
    "!?",
    "/",
    "，",
    "🙂",
    "\x00",
    "\x01",
    "\x7f",
    "<|e|>",
    "<|",
]
INVALID = [b"\xff", b"\xc3", b"\xe2\x80", b"\x80", b"\xed\xa0\x80", b"\xf5", b"\xc0\xaf"]

text = st.one_of(
    st.lists(st.sampled_from(PIECES), max_size=60).map("".join),
    st.text(alphabet=" \t\n\r\x0b\x1c\xa0\u3000aZ1'.", max_size=30),
)  # whitespace next to whitespace
raw = st.lists(st.one_of(text.map(str.encode), st.sampled_from(INVALID)), max_size=6).map(b"".join)


def plain_counts(pattern: str, *pieces: bytes) -> list[tuple[bytes, int]]:
    """The reference: the regex module's findall over each piece (no code of ours)."""
    counts: Counter[bytes] = Counter()
    for piece in pieces:
        found = regex.findall(pattern, piece.decode("utf-8", "surrogateescape"))
        counts.update(t.encode("utf-8", "surrogateescape") for t in found)
    return list(counts.items())


@settings(max_examples=300, deadline=None)
@given(data=raw, name=st.sampled_from(sorted(PROVEN)), split_at=st.lists(st.integers(0, 400), max_size=3))
def test_chunk_counts_equal_the_regex_counts_in_first_seen_order(data, name, split_at):
    pattern = PROVEN[name]
    cuts = sorted({min(c, len(data)) for c in split_at})
    pieces = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)])]  # as between special tokens
    got = ChunkCounter(pattern).count(*pieces)
    assert got is not None
    assert list(got.items()) == plain_counts(pattern, *pieces)


@pytest.mark.parametrize("name", sorted(PROVEN))
def test_each_built_in_and_known_pattern_is_enabled_and_others_are_not(name):
    assert is_space_safe(PROVEN[name])
    assert not is_space_safe("(?:" + PROVEN[name] + ")")
    assert not is_space_safe(r"\S+|\s+")
    assert not is_space_safe(None)


def test_whitespace_list_covers_every_character_that_either_regex_engine_calls_whitespace():
    found = {chr(c) for c in range(0x110000) if c < 0xD800 or c > 0xDFFF}
    ws = {c for c in found if regex.match(r"\s", c) or re.match(r"\s", c)} - {" "}
    assert ws == set(WHITESPACE)


def _marked_reference(data: bytes, ph: bytes) -> bytes:
    out = bytearray()
    text = data.decode("utf-8", "surrogateescape")
    for i, c in enumerate(text):
        nxt = text[i + 1] if i + 1 < len(text) else None
        piece = c.encode("utf-8", "surrogateescape")
        if c == " " and (nxt is None or nxt == " " or nxt in WHITESPACE):
            piece = ph
        out += piece
    return bytes(out)


@settings(max_examples=300, deadline=None)
@given(data=raw)
def test_marking_turns_exactly_the_spaces_before_whitespace_or_the_end_into_the_placeholder(data):
    ph = next(bytes([b]) for b in range(256) if bytes([b]) not in data)
    assert mark_non_cuts(data, ph) == _marked_reference(data, ph)


def test_no_free_mark_byte_falls_back_to_the_plain_path(monkeypatch):
    data = bytes(range(256)) + b" the cat  sat"
    assert ChunkCounter(GPT2_PATTERN).count(data) is None
    monkeypatch.setattr(pretokenize, "COUNT_BY_CHUNKS", True)
    counts, _ = pretokenize.count_pretokens(data, [], "gpt2", workers=1, is_text=True)
    assert list(counts.items()) == plain_counts(GPT2_PATTERN, data)


@settings(max_examples=150, deadline=None)
@given(
    data=raw,
    pattern=st.sampled_from(["gpt2", "gpt4"]),
    specials=st.sampled_from([[], ["<|e|>"]]),
    block=st.sampled_from([7, 64, 1 << 20]),
)
def test_count_pretokens_gives_the_same_counts_and_order_by_either_path(data, pattern, specials, block):
    runs = []
    try:
        for forced in (False, True, None):
            pretokenize.COUNT_BY_CHUNKS = forced
            counts, stats = pretokenize.count_pretokens(
                data, specials, pattern, workers=1, block_bytes=block, is_text=True
            )
            runs.append(
                (list(counts.items()), stats.invalid_bytes, stats.special_occurrences, stats.pretokens)
            )
    finally:
        pretokenize.COUNT_BY_CHUNKS = None
    assert runs[0] == runs[1] == runs[2]


def test_a_special_token_with_an_escaped_byte_takes_the_plain_path(monkeypatch):
    monkeypatch.setattr(pretokenize, "COUNT_BY_CHUNKS", True)
    special = "\udce2\udc82\udcac"  # the bytes of "€", written as escapes: only the text path is right
    data = "a € b".encode() + b" \xe2\x82"
    counts, stats = pretokenize.count_pretokens(data, [special], "gpt2", workers=1, is_text=True)
    monkeypatch.setattr(pretokenize, "COUNT_BY_CHUNKS", False)
    plain, plain_stats = pretokenize.count_pretokens(data, [special], "gpt2", workers=1, is_text=True)
    assert list(counts.items()) == list(plain.items())
    assert stats.special_occurrences == plain_stats.special_occurrences == 0


_TOKENIZERS: dict[str, tuple[Tokenizer, Tokenizer]] = {}


def _tokenizers(name: str) -> tuple[Tokenizer, Tokenizer]:
    """(chunked, plain) tokenizers with a small trained vocab and the pattern ``name``."""
    if name not in _TOKENIZERS:
        spec = trained_spec(specials=(EOT,))
        chunked = Tokenizer(dict(spec.vocab), spec.merges, [EOT], pattern=PROVEN[name])
        plain = Tokenizer(dict(spec.vocab), spec.merges, [EOT], pattern=PROVEN[name])
        plain._chunked.force = False
        chunked._chunked.force = True
        _TOKENIZERS[name] = (chunked, plain)
    return _TOKENIZERS[name]


@settings(max_examples=200, deadline=None)
@given(data=raw, name=st.sampled_from(sorted(PROVEN)))
def test_chunked_encoding_gives_the_ids_of_plain_encoding(data, name):
    chunked, plain = _tokenizers(name)
    text = data.decode("utf-8", "surrogateescape")
    text = text + EOT + text + text  # long enough for the chunked path, twice to hit its cache
    assert chunked.encode(text) == plain.encode(text)
    assert chunked.encode_ordinary(text) == plain.encode_ordinary(text)
    # over BATCH_MIN_CHUNKS chunks, most of them new: they are encoded in one batch
    fresh = Tokenizer(dict(plain.vocab), plain.merges, [EOT], pattern=PROVEN[name])
    fresh._chunked.force = True
    words = [f"{text}{i}" for i in range(300)]
    long = " ".join(words)
    assert fresh.encode(long) == plain.encode(long)
    again = " ".join(words[::-2])  # the cached chunks, in another order
    assert fresh.encode(again) == plain.encode(again)


def test_chunked_encoding_of_a_text_holding_every_placeholder_candidate():
    chunked, plain = _tokenizers("gpt2")
    text = "".join(map(chr, range(0x20))) + " the  cat \x00 sat\n " * 20 + "\ufdd0\ufdd1\U0010fffe \x7f"
    assert chunked.encode(text) == plain.encode(text)
    assert chunked.decode(chunked.encode(text)) == text


@pytest.mark.parametrize("word", ["ab", "the cat, ", "日本 'll\n", "x\udcff"])
def test_chunks_encoded_in_a_batch_are_cached_with_their_own_ids(word):
    _, plain = _tokenizers("gpt2")
    fresh = Tokenizer(dict(plain.vocab), plain.merges, [EOT])
    fresh._chunked.force = True
    words = [f"{word}{i}" for i in range(300)]
    long, again = " ".join(words), " ".join(words[::-2])  # the second reuses the first's chunks, reordered
    assert fresh.encode(long) == plain.encode(long)
    assert fresh.encode(again) == plain.encode(again)


def test_the_encoder_takes_chunks_only_for_proven_patterns_and_long_texts():
    spec = trained_spec(specials=(EOT,))
    custom = Tokenizer(dict(spec.vocab), spec.merges, [EOT], pattern=r"\S+|\s+")
    assert custom._chunked.force is False
    auto = Tokenizer(dict(spec.vocab), spec.merges, [EOT])
    assert auto._chunked.force is None
    auto.encode("the cat " * 10)
    assert auto._chunked.chooser.calls == 0  # short: plain, no timing
    text = "the cat sat on the mat. " * 5000
    ids = [auto.encode(text) for _ in range(4)]
    assert auto._chunked.chooser.calls == 4 and set(auto._chunked.chooser.rate) == {True, False}
    plain = Tokenizer(dict(spec.vocab), spec.merges, [EOT])
    plain._chunked.force = False
    assert ids == [plain.encode(text)] * 4


def test_path_chooser_starts_plain_then_keeps_the_faster_path():
    from core.pretokenization.space_chunks import PathChooser

    c = PathChooser()
    assert c.pick() is False  # the plain path first (a small corpus costs what it did before)
    c.record(False, 2.0, 1000)
    assert c.pick() is True  # then the chunk path is timed
    c.record(True, 1.0, 1000)
    picks = [c.pick() for _ in range(c.probe_every - 2)]
    assert all(picks)  # chunks were faster
    assert c.pick() is False and c.pick() is True  # probes again, plain first
    c.record(False, 0.5, 1000)
    assert c.pick() is False  # now plain is faster


def test_the_encoders_chooser_times_plain_again_after_the_chunk_probe():
    from core.pretokenization.space_chunks import EncodeChooser

    c = EncodeChooser()
    assert [c.pick(), c.pick()] == [False, True]  # plain (cold: every word new), then chunks
    c.record(False, 9.0, 1000)
    c.record(True, 2.0, 1000)
    assert c.pick() is False  # plain again, now warm: the comparison is fair
    c.record(False, 1.0, 1000)
    assert c.pick() is False  # plain is faster once warm
    c.record(False, 3.0, 1000)
    assert c.pick() is True


def test_many_short_texts_are_encoded_in_groups_each_taking_one_path():
    spec = trained_spec(specials=(EOT,))
    tok = Tokenizer(dict(spec.vocab), spec.merges, [EOT])
    plain = Tokenizer(dict(spec.vocab), spec.merges, [EOT])
    plain._chunked.force = False
    tok._chunked.GROUP_CHARS = 2000
    docs = [make_corpus(60, seed=i, eot_every=0) for i in range(60)]  # ~300 characters each
    text = EOT.join(docs)
    assert tok.encode(text) == plain.encode(text)
    groups, size = 0, 0
    for i, d in enumerate(docs):  # a group closes once it holds 2,000 characters, or at the end
        size += len(d)
        if size >= 2000 or i == len(docs) - 1:
            groups, size = groups + 1, 0
    assert 5 < groups < 60 and tok._chunked.chooser.calls == groups  # one choice of path per group
