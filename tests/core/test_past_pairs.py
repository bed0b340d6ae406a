"""The pair table before an earlier merge, from the trainer's history (core/training/past_pairs.py),
checked against a reference recount and against a fresh training stopped just before that merge."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import Trainer
from core.errors import BPEError
from core.pretokenization.pretokenize import count_pretokens
from core.training.past_pairs import pairs_before

from .reference import pretokens, reference_pair_counts

TEXT = (
    "the cat sat on the mat; the hat, that cat! aaaa abababab ab ba the theme\n"
    "日本語のテキスト 日本 the cat\x00\xff that that thatthat " + "x" * 30 + " aaaaaa"
)


def _trainer(text: str, tie_break: str = "lexicographic", long_words: bool = False, **kw) -> Trainer:
    pattern = "none" if long_words else "gpt2"
    counts, stats = count_pretokens(text, [], pattern, workers=1, is_text=True)
    if long_words:
        kw["long_word_tokens"] = 8  # (a small threshold: the long-word path too)
    return Trainer(counts, [], pattern=pattern, tie_break=tie_break, stats=stats, **kw)


def _reference_top(text: str, merges, tie_break: str, n: int, pattern: str = "gpt2") -> list:
    """The top ``n`` pairs after ``merges``, recounted from scratch (the reference oracle), ordered
    by count then by the tie rule: the greatest pair, or the pair seen first in the text."""
    counts = reference_pair_counts(text.encode("utf-8", "surrogateescape"), merges, [], pattern)
    if tie_break == "lexicographic":
        order = sorted(counts, key=lambda p: (counts[p], p), reverse=True)
    else:
        seen = {p: i for i, p in enumerate(counts)}  # (counts are in the order pairs are first seen)
        order = sorted(counts, key=lambda p: (-counts[p], seen[p]))
    return [(p, counts[p]) for p in order[:n]]


@pytest.mark.parametrize("tie_break", ["lexicographic", "first"])
@pytest.mark.parametrize("way", ["forward", "backward"])
@pytest.mark.parametrize("long_words", [False, True])
def test_the_table_before_each_merge_is_the_recounted_one(tie_break, way, long_words):
    t = _trainer(TEXT, tie_break, long_words)
    records = t.steps(60)
    assert len(records) == 60
    pattern = "none" if long_words else "gpt2"
    for k in range(len(records) + 1):
        past = pairs_before(t, k, 12, way=way) if k < len(records) else pairs_before(t, k, 12)
        expected = _reference_top(TEXT, t.merges[:k], tie_break, 12, pattern)
        assert past.top_pairs == expected, k
        if k < len(records):
            assert past.top_pairs[0] == (records[k].pair, records[k].count)  # merge k was its top pair
            assert past.n_best == records[k].n_ties + 1
            # Δ: what merge k changed, for the pairs shown
            assert past.deltas == {p: d for p, d in records[k].deltas if p in dict(past.top_pairs)}
            assert (
                past.deltas[records[k].pair] == -records[k].count or records[k].pair[0] == records[k].pair[1]
            )


@pytest.mark.parametrize("tie_break", ["lexicographic", "first"])
def test_the_table_before_merge_k_is_that_of_a_training_stopped_before_it(tie_break):
    """The sample corpus: every 7th merge of 150 against a fresh trainer that made only the merges
    before it (pairs gone since included)."""
    from pathlib import Path

    sample = Path(__file__).resolve().parents[2] / "assets" / "sample_corpus.txt"
    t = Trainer.from_file(sample, workers=1, tie_break=tie_break)
    t.steps(150)
    for k in range(0, 150, 7):
        fresh = Trainer.from_file(sample, workers=1, tie_break=tie_break)
        fresh.steps(k)
        top = fresh.top_pairs(100)
        for way in ("forward", "backward"):
            past = pairs_before(t, k, 100, way=way)
            assert past.top_pairs == top, (k, way)
            assert past.n_best == fresh.n_pairs_with_count(top[0][1])
        assert [p for p, _c in top if t.pair_count(p) == 0], "some pairs of the table then are gone now"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(["ab", "ba", "aab", " the", " a", "bb", "aaa", "\n", "cab", "b"]), max_size=40),
    st.sampled_from(["lexicographic", "first"]),
    st.integers(1, 8),
)
def test_any_text_any_table_size(pieces, tie_break, n):
    text = "".join(pieces)
    t = _trainer(text, tie_break)
    t.steps(30)
    for k in range(len(t.merges)):
        expected = _reference_top(text, t.merges[:k], tie_break, n)
        assert pairs_before(t, k, n, way="forward").top_pairs == expected
        assert pairs_before(t, k, n, way="backward").top_pairs == expected


def test_after_undo_and_steps_again_the_history_still_tells_the_past():
    t = _trainer(TEXT)
    t.steps(40)
    for k in (0, 20, 39):  # (what it keeps between calls must not outlive the merges it was made for)
        assert pairs_before(t, k, 10).top_pairs == _reference_top(TEXT, t.merges[:k], "lexicographic", 10)
    t.undo_to(25)
    t.steps(15)  # as many merges as before, the last ones others
    for k in (0, 10, 24, 30, 39):
        for way in ("forward", "backward"):
            past = pairs_before(t, k, 10, way=way)
            assert past.top_pairs == _reference_top(TEXT, t.merges[:k], "lexicographic", 10)


def test_the_reference_counts_every_occurrence():
    """(The oracle's own check: the pre-tokens of TEXT are cut as the trainer cuts them.)"""
    assert b"".join(pretokens(TEXT.encode("utf-8", "surrogateescape"), [], "gpt2")) == TEXT.encode(
        "utf-8", "surrogateescape"
    )


def test_without_history_or_out_of_range_a_clear_error():
    lean = _trainer(TEXT, keep_history=False)
    lean.steps(5)
    with pytest.raises(BPEError, match="keep_history=False"):
        pairs_before(lean, 2)
    t = _trainer(TEXT)
    t.steps(5)
    with pytest.raises(BPEError, match="not one of this trainer's merges"):
        t.pairs_before(6)
    assert t.pairs_before(5).top_pairs == t.top_pairs(100)  # the table now


@pytest.mark.parametrize("tie_break", ["lexicographic", "first"])
def test_an_extensions_new_merges_have_their_tables_too(tie_break):
    """An ExtendTrainer (words start as a base tokenizer's tokens) against a fresh one stopped
    before merge k."""
    from core import Tokenizer
    from core.tokenization.extend import ExtendTrainer

    base = _trainer(TEXT)
    base.steps(15)
    tok = Tokenizer(base.vocab, base.merges, [])
    other = "the theme of that hat: abba, aaaa, the cat's mat " * 3 + "日本語 テキスト"
    t = ExtendTrainer.from_texts(tok, [other], tie_break=tie_break)
    t.steps(30)
    for k in range(len(t.merges)):
        fresh = ExtendTrainer.from_texts(tok, [other], tie_break=tie_break)
        fresh.steps(k)
        for way in ("forward", "backward"):
            assert pairs_before(t, k, 10, way=way).top_pairs == fresh.top_pairs(10), (k, way)
