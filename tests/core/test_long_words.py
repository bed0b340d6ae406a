"""Long words (a document as one pre-token): the linked-list merge equals the string merge exactly."""

from __future__ import annotations

import tracemalloc

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from core import CorpusError, Trainer
from core.pretokenization.pretokenize import count_pretokens
from core.training.long_words import LongWord

from .reference import reference_merges, reference_pair_counts, reference_train
from .trainer_state import canonical_state

RUNS = st.builds(
    lambda ch, n: ch * n, st.sampled_from([b"a", b"\x00", b"\xff", b" ", b"ab"]), st.integers(1, 40)
)
PIECES = st.one_of(
    st.binary(min_size=1, max_size=30),
    RUNS,
    st.sampled_from([b"the", b" cat", b"\xc3\xa9", b"\xe4\xb8\xad", b"\n\n", b"\x00\x00x"]),
)
WORDS = st.lists(PIECES, min_size=1, max_size=5).map(b"".join)
WORD_COUNTS = st.dictionaries(WORDS, st.integers(1, 4), min_size=1, max_size=5)
TIES = st.sampled_from(["lexicographic", "first"])


def observable(t: Trainer, rank: int | None = None) -> tuple:
    """Everything a user can see of a trainer (tokens, counts, records' changes, word views)."""
    out = [t.words(), sorted(t.pair_counts().items()), t.top_pairs(10), t.next_pair()]
    if rank is not None:
        out.append(sorted(t.changed_words(rank, limit=None)))
    return tuple(out)


def record_fields(r) -> tuple:
    return r.pair, r.count, r.ties, r.n_ties, r.words_changed, r.occurrences_changed, dict(r.deltas)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(WORD_COUNTS, TIES, st.integers(0, 6), st.integers(0, 30), st.integers(1, 5))
def test_long_word_merges_equal_string_merges(word_counts, tie_break, threshold, n_merges, n_undo):
    """Every word longer than ``threshold`` tokens goes the linked-list way: records, tokens,
    counts, views, undo and redo equal those of the string merges and of the reference."""
    strings = Trainer(word_counts, pattern=None, tie_break=tie_break, long_word_tokens=10**9)
    linked = Trainer(word_counts, pattern=None, tie_break=tie_break, long_word_tokens=threshold)
    batched = Trainer(
        word_counts, pattern=None, tie_break=tie_break, long_word_tokens=threshold, batch_min_words=0
    )
    trainers = (strings, linked, batched)
    snapshots = [canonical_state(strings)]
    for _ in range(n_merges):
        records = [t.step() for t in trainers]
        if records[0] is None:
            assert records == [None, None, None]
            break
        assert record_fields(records[1]) == record_fields(records[0]) == record_fields(records[2])
        rank = records[0].rank
        assert observable(linked, rank) == observable(strings, rank) == observable(batched, rank)
        assert canonical_state(linked) == canonical_state(strings) == canonical_state(batched)
        snapshots.append(canonical_state(strings))
    assert linked.merges == reference_merges(word_counts, n_merges, tie_break)
    # undo takes the merges back exactly; merging again gives the same merges
    done = list(linked.merges)
    for _ in range(min(n_undo, linked.n_merges)):
        for t in trainers:
            t.undo()
        snapshots.pop()
        assert canonical_state(linked) == snapshots[-1] == canonical_state(batched)
    again = [t.steps(len(done) - t.n_merges) for t in trainers]
    assert linked.merges == done == batched.merges
    assert [record_fields(r) for r in again[1]] == [record_fields(r) for r in again[0]]
    assert canonical_state(linked) == canonical_state(strings)
    while linked.undo() is not None:
        pass
    assert linked.words() == Trainer(word_counts, pattern=None).words()


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.one_of(RUNS, st.sampled_from([b"abab", b" x", b"\x00\xff", b"<|a|>"])), max_size=40).map(
        b"".join
    ),
    st.sampled_from(["gpt2", "none"]),
    TIES,
    st.integers(0, 25),
)
def test_long_words_match_the_reference_trainer_on_text(data, pattern, tie_break, n_merges):
    try:
        counts, _ = count_pretokens(data, ["<|a|>"], pattern)
    except CorpusError:  # NUL bytes near the start: rejected as binary (the word-count test covers them)
        reject()
    t = Trainer(counts, ["<|a|>"], pattern=pattern, tie_break=tie_break, long_word_tokens=2)
    assert [r.pair for r in t.steps(n_merges)] == reference_train(
        data, n_merges, ["<|a|>"], pattern, tie_break
    )
    assert t.pair_counts() == reference_pair_counts(data, t.merges, ["<|a|>"], pattern)


@pytest.mark.parametrize("keep_history", [True, False])
def test_a_long_run_of_one_byte_halves_at_every_merge(keep_history):
    """100,003 x's as one word (FAULTS 10 in small): x+x, xx+xx, … exactly as the string merge."""
    n = 100_003
    t = Trainer({b"x" * n: 1}, pattern=None, keep_history=keep_history, long_word_tokens=16)
    records = t.steps(100)
    assert [r.pair for r in records[:16]] == [(b"x" * 2**k, b"x" * 2**k) for k in range(16)]
    assert records[0].count == n - 1 and records[0].occurrences_changed == 1
    strings = Trainer({b"x" * n: 1}, pattern=None, keep_history=keep_history, long_word_tokens=10**9)
    assert [record_fields(r) for r in records] == [record_fields(r) for r in strings.steps(100)]
    # n = 65536 + 32768 + 1024 + 512 + 128 + 32 + 2 + 1: eight tokens after 16 merges, then 7 more
    assert len(records) == 16 + 7
    assert t.words() == [(b"x" * n, (b"x" * n,), 1)]


def test_plan_returns_the_pair_changes_of_a_merge():
    """The kernel alone: sites left to right, overlapping runs merged from the left, deltas returned."""
    w = LongWord("aaaaab")
    m = w.plan(ord("a"), ord("a"), ord("Z"))
    assert m.sites.tolist() == [0, 2] and m.absorbed.tolist() == [1, 3]
    # a a a a a b -> Z Z a b: (a,a) 4 -> 0, (a,b) stays, (Z,Z) +1, (Z,a) +1
    assert m.deltas == {(97, 97): -4, (90, 90): 1, (90, 97): 1}
    u = w.apply(m)
    assert w.codes() == "ZZab" and w.first_site(ord("a"), ord("b")) == 4
    assert w.plan(ord("a"), ord("a"), ord("Y")) is None
    w.undo(u)
    assert w.codes() == "aaaaab" and w.codes_before([]) == "aaaaab"
    assert {k: sum(map(len, v)) for k, v in w.positions.items()} == {97 << 21 | 97: 4, 97 << 21 | 98: 1}


@pytest.mark.parametrize("word", [b"x" * 1_000_000, b" " * 1_000_000, b"the cat sat on a mat. " * 45_455])
def test_one_enormous_word_trains_in_bounded_memory(word):
    """FAULTS 10 on the trainer's side: merging in a 1 MB word allocates a few dozen bytes per
    byte of it in all (arrays of 4-byte ints), whatever the number of merges."""
    t = Trainer({word: 1}, pattern=None)
    tracemalloc.start()
    try:
        records = t.run(256 + 300)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    tokens = t.words()[0][1]
    assert b"".join(tokens) == word
    assert tokens == (word,) and records[-1].token == word  # merged until one token was left
    assert peak < 64 * len(word)


@given(WORDS, st.integers(1, 7))
def test_a_long_word_sorted_a_chunk_at_a_time_lists_the_same_positions(word, chunk):
    # (the positions were sorted in one piece: a 20 MB line took 160 MB of temporaries more)
    import numpy as np

    import core.training.long_words as lw

    whole = LongWord(word.decode("latin-1"))
    saved = lw.POSITION_CHUNK
    lw.POSITION_CHUNK = chunk
    try:
        chunked = LongWord(word.decode("latin-1"))
    finally:
        lw.POSITION_CHUNK = saved
    assert whole.positions.keys() == chunked.positions.keys()
    for key, parts in whole.positions.items():
        assert np.concatenate(parts).tolist() == np.concatenate(chunked.positions[key]).tolist()
