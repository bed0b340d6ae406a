"""Tokenizer: encode/decode, special tokens, lone surrogates, trace views (FAULTS 14–18)."""

from __future__ import annotations

from unittest.mock import patch

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core import Tokenizer, TokenizerError, Trainer
from core.bpe import merge as merge_module
from core.bpe import ranks as ranks_module
from core.bpe.merge import BYTE_TOKENS, MergeTable, _bpe_ids_heap, _bpe_merge_heap, bpe_ids, bpe_merge
from core.bpe.ranks import _rank_bpe_heap, rank_bpe
from core.formats.spec import TokenizerSpec

from .reference import reference_encode
from .tok_corpus import EOT, VARIED_TEXTS, WORDS, make_corpus, trained_spec, trained_tokenizer

SPECIALS = (EOT, "<|pad|>", "<|endoftext|><|endoftext|>")
texts_with_specials = st.lists(st.one_of(st.text(), st.sampled_from(SPECIALS)), max_size=8).map("".join)
#: the corpus's words run together: one pre-token that many merges apply to
corpus_words = st.lists(st.sampled_from(WORDS), min_size=2, max_size=60).map("".join).map(str.encode)


def test_wikipedia_example() -> None:
    t = Trainer.from_text("aaabdaaabac", pattern="none")
    t.steps(3)
    tok = Tokenizer(t.vocab, t.merges, pattern="none")
    assert tok.encode("aaabdaaabac") == [258, 100, 258, 97, 99]
    assert tok.decode([258, 100, 258, 97, 99]) == "aaabdaaabac"


def test_empty(tok: Tokenizer) -> None:  # FAULTS 14
    assert tok.encode("") == []
    assert tok.decode([]) == ""
    assert tok.decode_bytes([]) == b""
    assert list(tok.encode_iterable([])) == []
    assert list(tok.encode_iterable(["", ""])) == []
    assert tok.trace("") == []


@pytest.mark.parametrize("text", VARIED_TEXTS)
def test_varied_texts_match_reference(tok: Tokenizer, text: str) -> None:
    ids = tok.encode(text)
    assert ids == reference_encode(text, trained_spec())
    assert tok.decode(ids) == text


@given(st.text())
def test_roundtrip_any_text(text: str) -> None:  # FAULTS 15
    tok = trained_tokenizer()
    ids = tok.encode(text)
    assert tok.decode(ids) == text
    assert tok.decode_bytes(ids) == text.encode("utf-8")


@given(texts_with_specials)
def test_matches_reference_with_specials(text: str) -> None:
    spec = trained_spec()
    tok = Tokenizer.from_spec(spec)
    assert tok.encode(text) == reference_encode(text, spec)
    assert tok.decode(tok.encode(text)) == text


@pytest.mark.parametrize("pattern", ["gpt4", "none"])
def test_other_patterns_match_reference(pattern: str) -> None:
    spec = trained_spec(pattern=pattern, vocab_size=400, n_words=1500)
    tok = Tokenizer.from_spec(spec)
    for text in VARIED_TEXTS:
        assert tok.encode(text) == reference_encode(text, spec)
        assert tok.decode(tok.encode(text)) == text


def test_emoji_and_cjk(tok: Tokenizer) -> None:  # FAULTS 15
    for text in ("🙃", "👨‍👩‍👧", "日本語", "한국어 텍스트", "🇫🇷🇩🇪", "\U0010ffff", "\x00\x01"):
        assert tok.decode(tok.encode(text)) == text


def test_surrogateescape_bytes_roundtrip(tok: Tokenizer) -> None:  # FAULTS 16 (documented: escapes = bytes)
    raw = b"caf\xe9 \xff\xfe ok \x80"
    text = raw.decode("utf-8", "surrogateescape")
    ids = tok.encode(text)
    assert tok.decode_bytes(ids) == raw
    assert tok.decode(ids, errors="surrogateescape") == text
    assert tok.decode(ids) == raw.decode("utf-8", "replace")


@pytest.mark.parametrize("bad, pos", [("ab\ud800cd", 2), ("\udfff", 0), ("x \udc7f", 2), ("ok\ud83d", 2)])
def test_other_lone_surrogates_raise(tok: Tokenizer, bad: str, pos: int) -> None:  # FAULTS 16
    with pytest.raises(TokenizerError, match=f"lone surrogate.*U\\+{ord(bad[pos]):04X} at character {pos}"):
        tok.encode(bad)
    with pytest.raises(TokenizerError, match="lone surrogate"):
        list(tok.encode_iterable([bad]))


def test_partial_character_decodes_to_replacement(tok: Tokenizer) -> None:  # FAULTS 17
    ids = tok.encode("🦀")  # not in the training corpus: several byte tokens
    raw = "🦀".encode()
    assert len(ids) > 1, "the test needs an emoji split into several tokens"
    head = tok.decode(ids[:-1])
    assert head and set(head) == {"\ufffd"}
    assert tok.decode_bytes(ids[:-1]) == raw[: len(tok.decode_bytes(ids[:-1]))]
    assert tok.decode_bytes(ids) == raw
    assert tok.decode(ids[:-1] + ids) == head + "🦀"


@pytest.mark.parametrize("bad", [10**9, -1, 700, "5", None, 2.5])
def test_unknown_ids_raise(tok: Tokenizer, bad: object) -> None:  # FAULTS 18
    with pytest.raises(TokenizerError, match="not in the vocabulary"):
        tok.decode([1, bad, 2])  # type: ignore[list-item]
    with pytest.raises(TokenizerError, match="not in the vocabulary"):
        tok.decode_bytes(iter([bad]))  # type: ignore[list-item]
    with pytest.raises(TokenizerError):
        tok.id_to_token(bad)  # type: ignore[arg-type]


def test_decode_accepts_numpy() -> None:
    import numpy as np

    tok = trained_tokenizer()
    ids = tok.encode("the cat sat")
    assert tok.decode(np.array(ids, dtype=np.uint16)) == "the cat sat"


def test_special_tokens_longest_first() -> None:
    tok = trained_tokenizer(specials=SPECIALS)
    ids = tok.encode(f"a{EOT}{EOT}b{EOT}<|pad|>")
    specials = [tok.decode([i]) for i in ids if tok.is_special(i)]
    assert specials == [EOT + EOT, EOT, "<|pad|>"]


def test_special_tokens_appended_when_missing() -> None:
    spec = trained_spec(specials=())
    n = len(spec.vocab)
    tok = Tokenizer(dict(spec.vocab), spec.merges, ["<|new|>", "<|two|>"])
    assert tok.special_ids == {"<|new|>": n, "<|two|>": n + 1}
    assert tok.encode("x<|two|>") == [tok.token_to_id("x"), n + 1]
    assert tok.vocab_size == n + 2


def test_special_token_text_without_specials_is_plain_text() -> None:
    tok = trained_tokenizer()
    plain = Tokenizer(dict(tok.vocab), tok.merges)  # same vocab, no special tokens
    ids = plain.encode(f"a{EOT}b")
    assert tok.special_ids[EOT] not in ids
    assert plain.decode(ids) == f"a{EOT}b"
    assert tok.encode_ordinary(f"a{EOT}b") == ids


def test_special_equal_to_single_byte_keeps_byte_encodable() -> None:
    tok = Tokenizer(TokenizerSpec.from_merges([]).vocab, [], ["a"])  # "a" is in the vocab: id 97
    assert tok.special_ids == {"a": 97}
    assert tok.encode("bab") == [98, 97, 98]
    tok = Tokenizer.from_spec(TokenizerSpec.from_merges([(b"b", b"a")], ["a"]))  # trainer layout
    assert tok.special_ids == {"a": 256}
    assert tok.encode("bab") == [98, 256, 98]
    assert tok.encode_ordinary("bab") == [257, 98]
    assert tok.decode(tok.encode("bab")) == "bab"


def test_constructor_errors() -> None:
    vocab = TokenizerSpec.from_merges([]).vocab
    with pytest.raises(TokenizerError, match=r"merge 0 .* not in the vocab"):
        Tokenizer(vocab, [(b"a", b"b")])
    del vocab[10]
    with pytest.raises(TokenizerError, match="0x0a"):
        Tokenizer(vocab, [])
    with pytest.raises(TokenizerError, match="not bytes"):
        Tokenizer({0: "a"}, [])  # type: ignore[dict-item]
    with pytest.raises(TokenizerError, match="str"):
        trained_tokenizer().encode(b"bytes")  # type: ignore[arg-type]


def test_lookups(tok: Tokenizer) -> None:
    spec = trained_spec()
    a, b = spec.merges[5]
    tid = tok.token_to_id(a + b)
    assert tok.id_to_token(tid) == a + b
    assert tok.parts(tid) == (a, b)
    assert tok.token_rank(tid) == 5
    assert tok.merge_rank((a, b)) == 5
    assert tok.merge_rank((b"\x00", b"\x00")) is None
    assert tok.parts(65) is None and tok.token_rank(65) is None
    assert tok.token_to_id(EOT) == tok.special_ids[EOT] == 256
    assert tok.is_special(256) and not tok.is_special(65)
    assert tok.vocab_size == len(spec.vocab)
    assert tok.pattern == "gpt2" and tok.special_tokens == [EOT]
    with pytest.raises(TokenizerError, match="not a token"):
        tok.token_to_id(b"\x00\x01\x02zzz")


def test_spec_roundtrip(tok: Tokenizer) -> None:
    spec = tok.to_spec()
    assert spec == trained_spec()
    assert Tokenizer.from_spec(spec).to_spec() == spec


def test_trace_offsets(tok: Tokenizer) -> None:
    text = f"héllo 🦀 wörld{EOT}日本"
    spans = tok.trace(text)
    assert [s.id for s in spans] == tok.encode(text)
    raw = text.encode()
    assert b"".join(s.token for s in spans) == raw
    for s in spans:
        assert raw[s.byte_start : s.byte_end] == s.token
        assert s.token in text[s.start : s.end].encode()
        if s.complete_utf8:
            assert text[s.start : s.end] == s.token.decode()
        assert s.is_special == (s.token == EOT.encode())
    assert spans[0].start == 0 and spans[-1].end == len(text)
    assert any(not s.complete_utf8 for s in spans), "the emoji should be split into partial tokens"
    partial = [s for s in spans if not s.complete_utf8]
    assert all(text[s.start : s.end] in ("🦀", " 🦀") for s in partial)


def test_pretokenize(tok: Tokenizer) -> None:
    assert tok.pretokenize(f"Hello world{EOT}  x") == [
        ("Hello", False),
        (" world", False),
        (EOT, True),
        (" ", False),
        (" x", False),
    ]


@given(st.text(min_size=1, max_size=30))
def test_merge_trace_ends_with_the_encoding(word: str) -> None:
    tok = trained_tokenizer()
    steps = tok.merge_trace(word)
    raw = word.encode()
    final = steps[-1].parts if steps else tuple(BYTE_TOKENS[b] for b in raw)
    assert b"".join(final) == raw
    assert list(final) == bpe_merge(raw, tok._ranks)
    for s in steps:
        assert tok.merge_rank(s.pair) == s.rank
        assert s.parts[s.position] == s.token


def test_merge_trace_of_a_trained_word(tok: Tokenizer) -> None:
    steps = tok.merge_trace(" running")
    assert steps and steps[-1].parts == (b" running",)
    assert [s.rank for s in steps] == sorted(s.rank for s in steps)


@given(st.binary(max_size=300))
def test_heap_merge_equals_simple_merge(word: bytes) -> None:
    tok = trained_tokenizer(invalid_bytes=True)
    simple = bpe_merge(word, tok._ranks) if len(word) <= 96 else None
    heap = _bpe_merge_heap(word, tok._ranks) if word else []
    if simple is not None:
        assert heap == simple
    ids = bpe_ids(word, tok._table)
    assert ids == [tok._encoder[t] for t in heap]
    if len(word) > 1:
        assert _bpe_ids_heap(list(map(tok._table.byte_ids.__getitem__, word)), tok._table) == ids


def test_long_pretokens_are_fast_and_exact() -> None:  # FAULTS 10 for encoding
    tok = trained_tokenizer()
    for text in (" " * 200_000 + "x", "a" * 200_000, "日" * 50_000):
        ids = tok.encode(text)
        assert tok.decode(ids) == text


def test_merge_table_ties_leftmost() -> None:
    merges = [(b"a", b"a")]
    enc = {bytes([i]): i for i in range(256)} | {b"aa": 256}
    table = MergeTable.build(merges, enc)
    assert bpe_ids(b"aaa", table) == [256, 97]
    assert _bpe_ids_heap([97, 97, 97], table) == [256, 97]


def test_repr(tok: Tokenizer) -> None:
    assert "vocab_size=" in repr(tok)


@pytest.mark.parametrize("kw", [{}, {"pattern": "gpt4"}, {"invalid_bytes": True}, {"tie_break": "first"}])
def test_trained_tokens_encode_to_themselves(kw: dict) -> None:
    """Why the whole-pre-token lookup is safe: merging a trained token's bytes gives that token."""
    spec = trained_spec(**kw)
    tok = Tokenizer.from_spec(spec)
    for a, b in spec.merges:
        assert bpe_merge(a + b, tok._ranks) == [a + b]


@given(
    st.one_of(st.binary(min_size=2, max_size=400), corpus_words),
    st.sampled_from([b"", b"a" * 300, b" " * 300, "日".encode() * 100]),
)
def test_the_heap_merge_on_arrays_merges_as_on_lists(word: bytes, run: bytes) -> None:
    # words above COMPACT_HEAP_BYTES (a run of megabytes of one character) keep the heap merge's links
    # in arrays; with the threshold at 0 every word takes that branch: the same ids as the lists give
    # and as the merge on bytes, by merges and by ranks
    word = word + run + word
    tok = trained_tokenizer(invalid_bytes=True)
    ids = list(map(tok._table.byte_ids.__getitem__, word))
    want = [tok._encoder[t] for t in _bpe_merge_heap(word, tok._ranks)]
    ranks = {t: i for i, t in tok.vocab.items() if not tok.is_special(i)}
    assert _bpe_ids_heap(ids, tok._table) == want
    by_rank = _rank_bpe_heap(word, ranks)
    with (
        patch.object(merge_module, "COMPACT_HEAP_BYTES", 0),
        patch.object(ranks_module, "COMPACT_HEAP_BYTES", 0),
    ):
        assert _bpe_ids_heap(ids, tok._table) == want
        assert _rank_bpe_heap(word, ranks) == by_rank


def test_a_word_above_the_array_threshold_encodes_as_the_merge_on_bytes() -> None:
    tok = trained_tokenizer(invalid_bytes=True)
    word = (
        make_corpus(8000, seed=3, eot_every=0)
        .encode()
        .replace(b" ", b"")[: merge_module.COMPACT_HEAP_BYTES * 2]
    )
    assert len(word) > merge_module.COMPACT_HEAP_BYTES
    assert bpe_ids(word, tok._table) == [tok._encoder[t] for t in _bpe_merge_heap(word, tok._ranks)]
    ranks = {t: i for i, t in tok.vocab.items() if not tok.is_special(i)}
    with patch.object(ranks_module, "COMPACT_HEAP_BYTES", len(word)):
        on_lists = rank_bpe(word, ranks)
    assert rank_bpe(word, ranks) == on_lists


def test_a_pretoken_of_hundreds_of_kilobytes_is_encoded_in_bounded_memory() -> None:
    # FAULTS 10: a heap entry was a tuple and each link an int object: 110 to 200 bytes of memory a
    # byte of the word (a 20 MB line of "x": 4.3 GB and 125 s); now 45 to 75
    import tracemalloc

    for tok in (
        trained_tokenizer(),
        Tokenizer.from_spec(TokenizerSpec.from_merges([(b"x", b"x"), (b"xx", b"xx")])),
    ):
        text = "x" * 120_000
        tok.encode("x")
        tracemalloc.start()
        try:
            ids = tok.encode(text)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert tok.decode(ids) == text
        assert peak < 90 * len(text), peak / len(text)


def test_trace_head_is_the_trace_cut_with_the_whole_count(tok: Tokenizer) -> None:
    """A view shows the first tokens of a long text: their spans are those of the whole trace, the
    count is of all tokens, also where the cut falls inside a character or after a stray byte."""
    text = f"héllo 🦀 wörld{EOT}日本 \udcff x🦀y"
    spans = tok.trace(text)
    assert any(not s.complete_utf8 for s in spans[1:-1])
    for limit in range(len(spans) + 2):
        head = tok.trace_head(text, limit)
        assert head.spans == spans[:limit]
        assert head.n_tokens == len(spans)
        assert head.text == text
