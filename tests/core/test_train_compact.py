"""The trainer's memory savings change nothing: the index built a block of words at a time, batched
merges done a block of candidates at a time, and the lean trainer's forgotten word lists give the
merges, counts, ties and records of the simple reference trainer and of the one-block paths."""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core.training.merge_kernels import merge_batch
from core.training.pair_index import build_index
from core.training.trainer import Trainer

from .reference import reference_merges

BYTE_WORDS = st.lists(
    st.binary(min_size=1, max_size=9).map(lambda b: bytes(x % 5 + 97 if x < 200 else x for x in b)),
    min_size=1,
    max_size=30,
    unique=True,
)


@given(BYTE_WORDS, st.integers(1, 40), st.data())
def test_index_built_in_blocks_equals_the_index_built_at_once(words, block, data):
    counts = tuple(data.draw(st.lists(st.integers(1, 9), min_size=len(words), max_size=len(words))))
    whole, free = build_index(tuple(words), counts, small_corpus_bytes=0, block_bytes=1 << 30)
    small, free_small = build_index(tuple(words), counts, small_corpus_bytes=10**9)
    blocks, free_blocks = build_index(tuple(words), counts, small_corpus_bytes=0, block_bytes=block)
    listed = [(k, v.tolist()) for k, v in whole.words.items()]
    # blocks: the same counts and lists in the same order; the plain build: the same, in its order
    assert list(blocks.counts.items()) == list(whole.counts.items())
    assert [(k, v.tolist()) for k, v in blocks.words.items()] == listed
    assert small.counts == whole.counts and sorted((k, v.tolist()) for k, v in small.words.items()) == sorted(
        listed
    )
    assert free == free_small == free_blocks


# token codes of every width: bytes, 16-bit codes and codes above 2^16 (UTF-32 arrays)
CODE_WORDS = st.lists(
    st.text(alphabet="abcĀ中\U00010000", min_size=1, max_size=10), min_size=1, max_size=12, unique=True
)


@given(
    CODE_WORDS,
    st.data(),
    st.sampled_from([("a", "b"), ("a", "a"), ("中", "a"), ("Ā", "\U00010000"), ("c", "中")]),
    st.integers(1, 30),
)
def test_batched_merge_in_blocks_equals_one_block(words, data, pair, block):
    counts = np.array(data.draw(st.lists(st.integers(1, 2**40), min_size=len(words), max_size=len(words))))
    arr = np.empty(len(words), dtype=object)
    arr[:] = words
    ids = np.arange(len(words), dtype=np.intc)
    small = all(ord(ch) < 1 << 16 for w in words for ch in w)
    ca, cb = pair
    cab = "Y" if data.draw(st.booleans()) else "\u4e01"
    one = merge_batch(arr, ids, counts, ca, cb, cab, "\x00", small, block_chars=1 << 30)
    many = merge_batch(arr, ids, counts, ca, cb, cab, "\x00", small, block_chars=block)
    assert list(many.deltas.items()) == list(one.deltas.items())  # the same changes in the same order
    assert [(k, np.asarray(v).tolist()) for k, v in many.new_index.items()] == [
        (k, np.asarray(v).tolist()) for k, v in one.new_index.items()
    ]
    assert many.wids.tolist() == one.wids.tolist() and many.written.tolist() == one.written.tolist()
    assert list(many.news) == list(one.news) and list(many.olds) == list(one.olds)
    assert many.occurrences == one.occurrences
    assert list(arr) == words  # nothing changed: the trainer applies the result


WEIGHTED = st.dictionaries(
    st.binary(min_size=1, max_size=12).map(lambda b: bytes(x % 4 + 97 if x < 220 else x for x in b)),
    st.integers(1, 6),
    min_size=1,
    max_size=25,
)


def records(t: Trainer, ordered: bool = True) -> list:
    """The records as the app shows them (the deltas' order only where the paths agree on it)."""
    out = []
    for r in t.records:
        d = dataclasses.asdict(r)
        if not ordered:
            d["deltas"] = sorted(r.deltas)
        out.append(d)
    return out


@settings(max_examples=60, deadline=None)
@given(WEIGHTED, st.sampled_from(["lexicographic", "first"]), st.booleans(), st.integers(1, 25))
def test_compact_paths_train_like_the_reference(counts, tie_break, history, block):
    n = 40
    expected = reference_merges(counts, n, tie_break)
    word_path = Trainer(
        counts, pattern=None, tie_break=tie_break, keep_history=history, batch_min_words=10**9
    )
    one_block = Trainer(
        counts,
        pattern=None,
        tie_break=tie_break,
        keep_history=history,
        batch_min_words=1,
        batch_block_chars=1 << 30,
    )
    blocks = Trainer(
        counts,
        pattern=None,
        tie_break=tie_break,
        keep_history=history,
        batch_min_words=1,
        batch_block_chars=block,
        small_corpus_bytes=0,
    )
    for t in (word_path, one_block, blocks):
        t.steps(n)
        assert t.merges == expected
        assert t.pair_counts() == word_path.pair_counts()
    assert records(blocks) == records(one_block)  # blocks change nothing, not even the deltas' order
    assert records(blocks, ordered=False) == records(word_path, ordered=False)
    if history:  # and undo takes every merge back exactly
        while blocks.undo() is not None:
            pass
        fresh = Trainer(counts, pattern=None, tie_break=tie_break, batch_min_words=1)
        assert blocks.pair_counts() == fresh.pair_counts()
        assert blocks.words() == fresh.words()


def test_lean_trainer_forgets_the_word_lists_of_pairs_gone_from_every_word():
    counts = {b"abcab": 3, b"abd": 2, b"cabab": 1, b"xyz": 1}
    lean = Trainer(counts, pattern=None, keep_history=False)
    full = Trainer(counts, pattern=None)
    for t in (lean, full):
        t.steps(3)  # (a, b), then pairs with ab
    assert lean.merges == full.merges
    assert set(lean._index.words) == set(lean._index.counts)  # only pairs that still occur
    assert set(full._index.words) > set(full._index.counts)  # (kept for undo)
