"""Many words merged at once with NumPy (core.bpe.batch) give the ids of the one-word merge loops,
for merge lists (any order, repeated pairs) and for tiktoken's rank rule; the tokenizer's prefill
gives the ids it gives without it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import core.bpe.batch as bpe_batch_module
from core.bpe.batch import PairTable, _lookup, bpe_batch, prefill, split_ids
from core.bpe.merge import BYTE_TOKENS, MergeTable, bpe_ids
from core.bpe.ranks import rank_bpe
from core.errors import TokenizerError
from core.formats.spec import TokenizerSpec
from core.tokenization.tokenizer import Tokenizer

from .tok_corpus import EOT, make_corpus, trained_spec

words = st.lists(
    st.binary(min_size=1, max_size=70) | st.text("abc", min_size=1, max_size=70).map(str.encode), max_size=40
)


@st.composite
def merge_lists(draw) -> list[tuple[bytes, bytes]]:
    """Random merges over a, b, c: parts made by later merges, pairs listed twice, anything."""
    tokens = [b"a", b"b", b"c"]
    merges = []
    for _ in range(draw(st.integers(0, 30))):
        a, b = draw(st.sampled_from(tokens)), draw(st.sampled_from(tokens))
        merges.append((a, b))
        if a + b not in tokens:
            tokens.append(a + b)
    return draw(st.permutations(merges))


def _encoder(merges) -> dict[bytes, int]:
    enc = {t: i for i, t in enumerate(BYTE_TOKENS)}
    for a, b in merges:
        enc.setdefault(a + b, len(enc))
    return enc


@settings(deadline=None)
@given(
    merges=merge_lists(), ws=st.lists(st.text("abc", min_size=1, max_size=40).map(str.encode), max_size=30)
)
def test_batch_equals_the_merge_loop_for_any_merge_list(merges, ws):
    table = MergeTable.build(merges, _encoder(merges))
    got = split_ids(*bpe_batch(ws, PairTable.from_merge_table(table)))
    assert got == [tuple(bpe_ids(w, table)) for w in ws]


@settings(deadline=None)
@given(ws=words)
def test_batch_equals_the_loops_of_a_trained_vocab_by_merges_and_by_rank(ws):
    spec = trained_spec(invalid_bytes=True)
    tok = Tokenizer.from_spec(spec)
    assert split_ids(*bpe_batch(ws, PairTable.from_merge_table(tok._table))) == [
        tuple(bpe_ids(w, tok._table)) for w in ws
    ]
    ranks = {b: i for i, b in spec.ordinary_tokens().items()}
    assert split_ids(*bpe_batch(ws, _rank_table(spec))) == [tuple(rank_bpe(w, ranks)) for w in ws]


_RANK_TABLES: dict[int, PairTable] = {}


def _rank_table(spec: TokenizerSpec) -> PairTable:
    if id(spec) not in _RANK_TABLES:
        _RANK_TABLES[id(spec)] = PairTable.from_ranks(
            {b: i for i, b in spec.ordinary_tokens().items()}, spec.vocab
        )
    return _RANK_TABLES[id(spec)]


def test_words_are_cut_into_batches_of_bounded_size(monkeypatch):
    tok = Tokenizer.from_spec(trained_spec())
    ws = [w.encode() for w in make_corpus(400, seed=3).split()]
    want = [tuple(bpe_ids(w, tok._table)) for w in ws]
    monkeypatch.setattr(bpe_batch_module, "_MAX_BATCH_BYTES", 50)
    assert split_ids(*bpe_batch(ws, PairTable.from_merge_table(tok._table))) == want
    assert split_ids(*bpe_batch([], PairTable.from_merge_table(tok._table))) == []


@settings(deadline=None)
@given(
    keys=st.lists(st.integers(0, (1 << 40) - 1), max_size=300),
    probes=st.lists(st.integers(0, (1 << 40) - 1), max_size=100),
)
def test_the_hash_table_finds_every_key_and_nothing_else(keys, probes):
    ranks = np.arange(len(keys), dtype=np.int64)
    table = PairTable(np.zeros(256, np.int64), np.asarray(keys, np.int64), ranks, np.zeros(1, np.int64))
    rank: dict[int, int] = {}
    for k, r in zip(keys, ranks.tolist()):
        rank.setdefault(k, r)  # a key listed twice keeps its lowest rank
    want = [rank.get(k, bpe_batch_module._NONE) for k in keys + probes]
    assert _lookup(table, np.asarray(keys + probes, np.int64)).tolist() == want


@settings(deadline=None)
@given(rounds=st.lists(st.lists(st.integers(0, 5000), max_size=200), max_size=6))
def test_a_learning_table_asks_once_per_key_and_keeps_the_answer(rounds):
    asked: list[int] = []

    def fill(keys):
        asked.extend(keys.tolist())
        return np.where(keys % 3 == 0, bpe_batch_module._NONE, keys * 2)

    table = PairTable(
        np.zeros(256, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(1, np.int64), fill
    )
    for keys in rounds:
        got = _lookup(table, np.asarray(keys, np.int64)).tolist()
        assert got == [bpe_batch_module._NONE if k % 3 == 0 else 2 * k for k in keys]
    assert sorted(asked) == sorted({k for keys in rounds for k in keys})  # each key once
    assert table.count == len(asked) and 2 * table.count <= table.hash_keys.size


def _many_words_text() -> str:
    """A text with over 4096 pre-tokens, most of them new words (merged in one batch)."""
    return " ".join(f"{w}{i}x" for i, w in enumerate(make_corpus(2500, seed=7, eot_every=0).split()))


def _by_rank(spec: TokenizerSpec) -> TokenizerSpec:
    """The spec as a tiktoken file gives it: tokens in rank order, no merges (encoded by rank)."""
    from core.bpe.ranks import RankMerges

    ordinary = spec.ordinary_tokens()
    return TokenizerSpec(
        dict(spec.vocab),
        RankMerges([ordinary[i] for i in sorted(ordinary)]),
        spec.special_tokens,
        spec.pattern,
    )


@pytest.mark.parametrize("by", ["merges", "ranks"])
@pytest.mark.parametrize("force", [False, True])  # the plain path, the chunk path
def test_prefill_gives_the_ids_of_word_by_word_encoding(by, force, monkeypatch):
    spec = trained_spec(specials=(EOT,))
    spec = _by_rank(spec) if by == "ranks" else spec
    text = _many_words_text() + EOT + "x\udcff y " + _many_words_text()[:500]
    one_by_one = Tokenizer.from_spec(spec)
    one_by_one._chunked.prefill = None
    one_by_one._chunked.force = False
    tok = Tokenizer.from_spec(spec)
    assert (tok._by_rank is not None) == (by == "ranks")
    tok._chunked.force = force
    calls = []
    real = bpe_batch_module.bpe_batch
    monkeypatch.setattr(bpe_batch_module, "bpe_batch", lambda w, t: calls.append(len(w)) or real(w, t))
    assert tok.encode(text) == one_by_one.encode(text)
    assert calls and calls[0] > 1000  # most new words were merged in one batch


def test_prefill_leaves_lone_surrogates_to_the_tokenizer_error():
    tok = Tokenizer.from_spec(trained_spec())
    toks = [f"w{i}" for i in range(500)] + ["x\ud800"]
    prefill(tok.encoding_parts, toks)
    assert "w7" not in tok._cache  # nothing was merged in a batch: the words go one by one
    with pytest.raises(TokenizerError, match="lone surrogate"):
        tok.encode(" ".join(toks) * 3)


def test_prefill_does_not_look_through_text_whose_words_are_known(monkeypatch):
    tok = Tokenizer.from_spec(trained_spec())
    known = make_corpus(3000, seed=2, eot_every=0)
    tok.encode(known)
    calls = []
    real = bpe_batch_module.bpe_batch
    monkeypatch.setattr(bpe_batch_module, "bpe_batch", lambda w, t: calls.append(w) or real(w, t))
    toks = tok._pretokens(known * 3)
    new = [f"q{i}z" for i in range(300)]
    prefill(tok.encoding_parts, toks + new)  # the first 2,000 are known: the rest is not looked through
    assert not calls and "q7z" not in tok._cache
    prefill(tok.encoding_parts, new + toks)
    assert len(calls) == 1 and tok._cache["q7z"] == tuple(bpe_ids(b"q7z", tok._table))


def test_a_full_cache_keeps_the_words_put_in_first(monkeypatch):
    import core.bpe.support as support

    monkeypatch.setattr(support, "CACHE_LIMIT", 100)
    spec = trained_spec()
    tok = Tokenizer.from_spec(spec)
    text = " ".join(f"w{i}q" for i in range(400))
    for force in (False, True, None):  # the word-by-word, batch and chunk paths all make room
        tok._chunked.force = force
        assert tok.encode(text) == Tokenizer.from_spec(spec).encode(text)
        assert len(tok._cache) <= 100  # (a batch of new chunks may go past the limit: one text's worth)
    tok._cache.clear()
    for w in [f"w{i}q" for i in range(101)]:
        tok._cache[w]  # (a miss fills the cache)
    assert list(tok._cache)[:50] == [f"w{i}q" for i in range(50)] and "w100q" in tok._cache
    assert len(tok._cache) == 51


@pytest.mark.parametrize("force", [False, True, None])
def test_short_documents_between_special_tokens_are_merged_together(force, monkeypatch):
    spec = trained_spec(specials=(EOT,))
    docs = [" ".join(f"{w}{i}x" for w in make_corpus(30, seed=i, eot_every=0).split()) for i in range(200)]
    text = EOT.join(docs)  # 200 documents, each far under 4,096 pre-tokens
    one_by_one = Tokenizer.from_spec(spec)
    one_by_one._chunked.prefill = None
    tok = Tokenizer.from_spec(spec)
    tok._chunked.force = force
    calls = []
    real = bpe_batch_module.bpe_batch
    monkeypatch.setattr(bpe_batch_module, "bpe_batch", lambda w, t: calls.append(len(w)) or real(w, t))
    assert tok.encode(text) == one_by_one.encode(text)
    if force is False:
        assert len(calls) == 1 and calls[0] > 500  # the new words of all documents in one batch
