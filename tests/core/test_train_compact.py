"""The trainer's memory savings change nothing: the index built a block of words at a time, batched
merges done a block of candidates at a time, and the lean trainer's forgotten word lists give the
merges, counts, ties and records of the simple reference trainer and of the one-block paths."""

from __future__ import annotations

import dataclasses
import gc

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core.training.merge_kernels import merge_batch
from core.training.pair_index import build_index
from core.training.trainer import Trainer

from .reference import reference_merges
from .trainer_state import listed_bytes

BYTE_WORDS = st.lists(
    st.binary(min_size=1, max_size=9).map(lambda b: bytes(x % 5 + 97 if x < 200 else x for x in b)),
    min_size=1,
    max_size=30,
    unique=True,
)


def ids_of(listed) -> list[int]:
    return np.frombuffer(listed_bytes(listed), dtype=np.intc).tolist()


@given(BYTE_WORDS, st.integers(1, 40), st.data())
def test_index_built_in_blocks_equals_the_index_built_at_once(words, block, data):
    counts = tuple(data.draw(st.lists(st.integers(1, 9), min_size=len(words), max_size=len(words))))
    whole, free = build_index(tuple(words), counts, small_corpus_bytes=0, block_bytes=1 << 30)
    small, free_small = build_index(tuple(words), counts, small_corpus_bytes=10**9)
    blocks, free_blocks = build_index(tuple(words), counts, small_corpus_bytes=0, block_bytes=block)
    listed = [(k, ids_of(v)) for k, v in whole.words.items()]
    # blocks: the same counts and lists in the same order; the plain build: the same, in its order
    assert list(blocks.counts.items()) == list(whole.counts.items())
    assert [(k, ids_of(v)) for k, v in blocks.words.items()] == listed
    assert small.counts == whole.counts and sorted((k, ids_of(v)) for k, v in small.words.items()) == sorted(
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


def before_and_after(counts: dict, n: int, tie_break: str, **kw) -> tuple[Trainer, list[dict]]:
    """A trainer after ``n`` merges, and each merge's words before it (from a trainer stepped one
    merge at a time: what ``changed_words`` must give back)."""
    t = Trainer(counts, pattern=None, tie_break=tie_break, **kw)
    befores = []
    for _ in range(n):
        befores.append({w: toks for w, toks, _c in t.words()})
        if t.step() is None:
            befores.pop()
            break
    return t, befores


@settings(max_examples=60, deadline=None)
@given(WEIGHTED, st.sampled_from(["lexicographic", "first"]), st.integers(0, 6), st.booleans())
def test_history_without_old_strings_gives_back_every_merges_words(counts, tie_break, redo, long):
    """Undo history keeps a merge's old strings only where splitting its token again cannot give
    them; the words before each merge (``changed_words``) and undo are exact all the same, also
    after undo and redo (token codes made again) and with long words."""
    kw = {"long_word_tokens": 3} if long else {}
    t, befores = before_and_after(counts, 30, tie_break, **kw)
    for _ in range(redo):  # take some merges back and do them again: their codes exist already
        t.undo()
    t.steps(redo)
    now = {w: toks for w, toks, _c in t.words()}
    for rank, before in enumerate(befores):
        changed = t.changed_words(rank, limit=None)
        expected = [(w, before[w], now[w], c) for w, c in counts.items() if before[w] != _after(t, rank, w)]
        assert sorted(changed) == sorted(expected)
        assert [c for *_x, c in changed] == sorted((c for *_x, c in changed), reverse=True)
        assert t.changed_words(rank, limit=2) == changed[:2]
    while t.undo() is not None:
        pass
    fresh = Trainer(counts, pattern=None, tie_break=tie_break, **kw)
    assert t.words() == fresh.words() and t.pair_counts() == fresh.pair_counts()


def _after(t: Trainer, rank: int, word: bytes) -> tuple[bytes, ...]:
    """The tokens of ``word`` right after merge ``rank`` (its merges applied to the word's bytes)."""
    seq = [bytes([x]) for x in word]
    for a, b in t.merges[: rank + 1]:
        out, j = [], 0
        while j < len(seq):
            if j + 1 < len(seq) and seq[j] == a and seq[j + 1] == b:
                out.append(a + b)
                j += 2
            else:
                out.append(seq[j])
                j += 1
        seq = out
    return tuple(seq)


def test_history_keeps_no_old_strings_for_merges_of_new_tokens():
    t = Trainer({b"abcabc": 3, b"abd": 2, b"xab": 1}, pattern=None)
    t.steps(3)
    assert all(h.olds is None and h.split is not None for h in t._history)
    t.undo()
    t.step()  # the code of the token made again exists: a word may hold it, olds are kept
    assert t._history[-1].olds is None  # (no merge done now made it: still split)


@settings(max_examples=40, deadline=None)
@given(WEIGHTED, st.sampled_from(["lexicographic", "first"]), st.integers(0, 20))
def test_histories_with_and_without_old_strings_agree(counts, tie_break, switch):
    """Merges whose history keeps the old strings (as a subclass's, or a token made twice) and
    merges whose history splits their token again, in any mix, show and undo the same."""
    split = Trainer(counts, pattern=None, tie_break=tie_break)
    mixed = Trainer(counts, pattern=None, tie_break=tie_break)
    split.steps(switch)
    mixed.steps(switch)
    mixed._live = None  # from here on, every merge keeps its words' old strings
    split.steps(20)
    mixed.steps(20)
    assert mixed.merges == split.merges
    assert any(h.olds is not None for h in mixed._history) or len(mixed.merges) <= switch
    for rank in range(len(split.merges)):
        assert mixed.changed_words(rank, limit=None) == split.changed_words(rank, limit=None)
    for t in (split, mixed):
        t.undo_to(switch // 2)
    assert mixed.words() == split.words() and mixed.pair_counts() == split.pair_counts()


def test_pair_deltas_equal_the_tuples_they_replace_and_cross_processes_without_keys():
    import pickle

    from core.training.records import PairDeltas

    t = Trainer({b"abcab": 3, b"abd": 2, b"cabab": 1}, pattern=None)
    t.steps(2)
    rec = t.records[0]
    assert isinstance(rec.deltas, PairDeltas) and rec.deltas.pair_keys
    as_tuple = tuple(rec.deltas)
    assert rec.deltas == as_tuple and as_tuple == rec.deltas and hash(rec.deltas) == hash(as_tuple)
    sent = pickle.loads(pickle.dumps(rec))  # (what the app gets from the engine)
    assert sent == rec and sent.deltas.pair_keys == "" and tuple(sent.deltas) == as_tuple
    assert [(t._pair(k), d) for k, d in rec.deltas.keyed()] == list(as_tuple)
    fresh = Trainer({b"abcab": 3, b"abd": 2, b"cabab": 1}, pattern=None)
    t.undo()
    t._history[-1].record = dataclasses.replace(t._history[-1].record, deltas=sent.deltas)  # no keys
    t.undo()
    assert t.pair_counts() == fresh.pair_counts() and t.words() == fresh.words()


def test_doctests_of_the_compact_parts():
    import doctest

    import core.training.memory_need
    import core.training.records
    import core.training.word_store

    for module in (core.training.word_store, core.training.memory_need, core.training.records):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed


def test_word_bytes_reads_like_the_tuple_it_replaces():
    from core.training.word_store import WordBytes

    words = [b"the", b"", b" \xe4\xb8", b"cat"]
    store = WordBytes(words)
    assert len(store) == 4 and list(store) == words and store[-1] == b"cat" and store[1:3] == words[1:3]
    assert store.total_bytes == sum(map(len, words)) and list(store.lengths()) == [3, 0, 3, 3]
    assert store.joined(1, 3) == b"".join(words[1:3])
    try:
        store[4]
    except IndexError:
        pass
    else:
        raise AssertionError("store[4] should be out of range")


def test_word_lists_are_not_walked_by_the_garbage_collector():
    # (an array.array is tracked since Python 3.10: a list per live pair made every collection after a
    # run walk hundreds of thousands of them)
    t = Trainer.from_text(b"the cat sat on the mat with the hat " * 20, pattern="gpt2", keep_history=False)
    t.steps(5)
    assert t._index.words
    assert not any(gc.is_tracked(listed) for listed in t._index.words.values())
