"""The trainer's parts alone: the pair index and its invariant, the merge kernels, the doctests."""

from __future__ import annotations

import doctest
import importlib
import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.training.merge_kernels import Interrupted, merge_batch, merge_words, word_sites
from core.training.pair_index import PairIndex, build_index

from .trainer_state import listed_bytes


@pytest.mark.parametrize(
    "name",
    [
        f"training.{m}"
        for m in ["records", "token_codes", "pair_index", "merge_kernels", "long_words", "vocab", "trainer"]
    ],
)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(f"core.{name}"))
    assert result.attempted and not result.failed


PAIRS = st.sampled_from(["ab", "ba", "aa", "xy", "Zc"])  # pair keys: the two tokens' codes


@given(st.lists(st.lists(st.tuples(PAIRS, st.integers(-3, 5)), max_size=6), max_size=8), st.integers(1, 6))
def test_pair_index_keeps_its_invariant(batches, floor):
    """Counts, buckets and the lazily-deleting heap agree after any sequence of changes, whatever
    the floor below which pairs may stay out of the buckets."""
    index = PairIndex({}, {}, floor=floor)
    truth: Counter = Counter()
    for batch in batches:
        delta: dict = {}
        for p, d in batch:
            if truth[p] + delta.get(p, 0) + d >= 0:  # counts never go negative in a real merge
                delta[p] = delta.get(p, 0) + d
        for p, d in delta.items():
            truth[p] += d
        returned = index.apply_deltas(delta)
        assert dict(returned) == {p: d for p, d in delta.items() if d}
        positive = {p: c for p, c in truth.items() if c > 0}
        assert index.counts == positive
        # every pair counted at least `floor` times is in a bucket at or above its count (stale keys
        # allowed until a bucket is read); no bucket is below the floor, which only goes down
        assert all(
            any(p in b and c >= n for c, b in index.buckets.items())
            for p, n in positive.items()
            if n >= index.floor
        )
        assert all(c >= index.floor for c in index.buckets) and index.floor <= floor
        assert set(index.heap) >= {-c for c in index.buckets}  # stale counts allowed, no count missing
        best = index.best()
        assert (best is None) == (not positive)
        if best is not None:
            top = max(positive.values())
            assert best == (top, {p for p, n in positive.items() if n == top})
        exact = {c: {p for p in positive if positive[p] == c} for c in set(positive.values())}
        assert {c: set(b) for c, b in index.exact_buckets()} == exact
        assert all(index.n_with_count(c) == len(exact.get(c, ())) for c in range(1, 8))


def test_pair_index_truncate_takes_back_exactly_what_was_added():
    index, free = build_index((b"abab", b"ab", b"ba"), (1, 2, 3))
    assert index.ids("ab").tolist() == [0, 1] and index.ids("ba").tolist() == [0, 2]
    assert free == [i for i in range(256) if i not in (ord("a"), ord("b"))]
    before = {k: listed_bytes(v) for k, v in index.words.items()}
    sizes = index.add_word_ids({"ab": [2, 0], "Za": np.array([1], dtype=np.intc)})
    assert (
        index.ids("ab").tolist() == [0, 1, 2]
        and index.n_listed("ab") == 4
        and index.ids("Za").tolist() == [1]
    )
    index.truncate(sizes)
    assert {k: listed_bytes(v) for k, v in index.words.items()} == before


def recount(words: list[str], counts: list[int]) -> Counter:
    out: Counter = Counter()
    for w, c in zip(words, counts):
        for x, y in itertools.pairwise(w):
            out[x + y] += c
    return out


def test_word_sites_returns_the_changes_of_one_word():
    changes, made, n = word_sites("aaaa", 0, "a", "a", "Z")
    assert n == 2 and made == ["ZZ"]
    total: Counter = Counter()
    for p, d in changes:
        total[p] += d
    total["aa"] -= n
    assert +total == Counter({"ZZ": 1}) and -total == Counter({"aa": 3})


WORDS = st.lists(st.text(alphabet="abcZ", min_size=1, max_size=12), min_size=1, max_size=8, unique=True)


@given(WORDS, st.lists(st.integers(1, 4), min_size=8, max_size=8), st.sampled_from(["ab", "aa", "ba", "cZ"]))
def test_merge_kernels_return_exact_changes_and_change_nothing(words, counts, pair):
    """Both kernels return the pair-count changes a recount gives, and leave the words alone."""
    counts = counts[: len(words)]
    arr = np.empty(len(words), dtype=object)
    arr[:] = words
    ids = np.arange(len(words), dtype=np.intc)
    ca, cb, cab = pair[0], pair[1], "Y"
    before = recount(words, counts)
    after = recount([w.replace(ca + cb, cab) for w in words], counts)
    expected = {p: after[p] - before[p] for p in before.keys() | after.keys() if after[p] != before[p]}
    one = merge_words(arr, ids, tuple(counts), ca, cb, cab, {}, set())
    many = merge_batch(arr, ids, np.array(counts, dtype=np.int64), ca, cb, cab, "\x00", True)
    for m in (one, many):
        assert {p: d for p, d in m.deltas.items() if d} == expected
        assert list(arr) == words  # nothing changed: the trainer applies the result
        changed = [i for i, w in enumerate(words) if ca + cb in w]
        assert m.wids.tolist() == changed and m.occurrences == sum(counts[i] for i in changed)
        assert list(m.news) == [words[i].replace(ca + cb, cab) for i in changed]
        made = {p for p, d in expected.items() if d > 0}
        listed = {p: set(np.asarray(v).tolist()) for p, v in m.new_index.items()}
        for p in made:  # every word holding a pair the merge made is listed under it
            assert {i for i in changed if "".join(p) in words[i].replace(ca + cb, cab)} <= listed[p]


def test_merge_words_checks_its_interrupt_and_raises_before_changing_anything():
    words = np.empty(5000, dtype=object)
    words[:] = [f"ab{i}" for i in range(5000)]
    with pytest.raises(Interrupted):
        merge_words(
            words,
            np.arange(5000, dtype=np.intc),
            (1,) * 5000,
            "a",
            "b",
            "Y",
            {},
            set(),
            interrupt=lambda: True,
        )
    assert words[0] == "ab0"
