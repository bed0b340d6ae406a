"""Trainer.undo_to (rewind/reset in one count update) ends exactly where step-by-step undo does."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core import Trainer
from core.errors import BPEError
from core.pretokenization.pretokenize import count_pretokens
from core.training import undo as trainer_undo

from .trainer_state import canonical_state, listed_bytes

PIECES = [
    "the",
    " cat",
    " sat",
    " on",
    " the",
    " mat",
    "aaaa",
    "ab" * 5,
    "\x00\xff",
    " 日本",
    "\n\n",
    "x" * 40,
]


def _trainer(text: str, tie_break: str, long_words: bool) -> Trainer:
    pattern = "none" if long_words else "gpt2"
    counts, stats = count_pretokens(text, [], pattern, workers=1, is_text=True)
    kw = {"long_word_tokens": 8} if long_words else {}  # a small threshold: the long-word path too
    return Trainer(counts, [], pattern=pattern, tie_break=tie_break, stats=stats, **kw)


def _index_lists(t: Trainer) -> dict[str, bytes]:
    """The index's word lists as they are (stale ids included): undo cuts them back exactly."""
    return {key: listed_bytes(listed) for key, listed in t._index.words.items()}


@given(
    st.lists(st.sampled_from(PIECES), min_size=1, max_size=60).map("".join),
    st.integers(1, 40),
    st.data(),
    st.sampled_from(["lexicographic", "first"]),
    st.booleans(),
    st.sampled_from(["chosen by cost", "undo", "reset and replay"]),
    st.booleans(),
)
def test_undo_to_equals_undo_one_by_one(text, n, data, tie_break, long_words, path, given_pair):
    a = _trainer(text, tie_break, long_words)
    b = _trainer(text, tie_break, long_words)
    if given_pair and a.pair_counts():  # a merge of a pair that is not the best (as a replayed session does)
        worst = min(a.pair_counts())
        a.merge(worst)
        b.merge(worst)
    a.steps(n)
    b.steps(n)
    before = len(a.merges)
    records = list(a.records)
    keep = data.draw(st.integers(0, before))
    if path != "chosen by cost":  # force one of the two ways of a rewind
        a._replay_is_cheaper = lambda _keep, replay=(path == "reset and replay"): replay
    undone, release = a.undo_to_in_two(keep)
    assert undone == before - keep
    while len(b.merges) > keep:
        b.undo()
    assert len(a.merges) == keep and canonical_state(a) == canonical_state(b)
    assert a.records == records[:keep]  # a replay makes the same records, ties and count changes included
    assert _index_lists(a) == _index_lists(b)
    release()  # frees the undone history only
    assert canonical_state(a) == canonical_state(b)
    # and training goes on identically from there
    assert a.steps(5) == b.steps(5)


def test_reset_restores_the_start_and_training_repeats_itself():
    text = "the cat sat on the mat; the hat is flat. " * 30 + "x" * 50
    t = _trainer(text, "lexicographic", long_words=True)  # one long word (the run of x) too
    fresh = _trainer(text, "lexicographic", long_words=True)
    start = canonical_state(t)
    first = t.steps(30)
    assert t.undo_to(0) == 30 and t.merges == [] and t.records == [] and t._history == []
    assert canonical_state(t) == start == canonical_state(fresh)
    assert t.steps(30) == first == fresh.steps(30)
    assert t.undo_to(0) == 30 and t.undo_to(0) == 0


def test_rewind_cost_chooses_replay_for_a_few_kept_merges(monkeypatch):
    # the first merges change the most words: keeping one of many costs less by replaying it (on a
    # corpus this small only without the fixed cost per merge, which is for large ones)
    monkeypatch.setattr(trainer_undo, "REPLAY_MERGE_COST", 0)
    t = Trainer.from_text("".join(f" w{i % 97}ab{i % 13}cd" for i in range(3000)))
    t.steps(60)
    assert t._replay_is_cheaper(1)
    assert not t._replay_is_cheaper(59)


def test_undo_to_counts_and_refuses_a_lean_trainer():
    t = Trainer.from_text("the cat sat on the mat " * 20)
    t.steps(6)
    assert t.undo_to(10) == 0 and t.undo_to(2) == 4 and len(t.merges) == 2 and t.undo_to(0) == 2
    lean = Trainer.from_text("aaaa bbbb", keep_history=False)
    lean.steps(1)
    with pytest.raises(BPEError, match="keep_history=False"):
        lean.undo_to(0)


def test_engine_reset_and_rewind_answer_as_an_in_process_trainer(tmp_path):
    # the engine answers first and frees the undone history afterwards: what follows still matches
    from core.engine.client import Engine

    corpus = tmp_path / "corpus.txt"
    words = [f"w{i:x}{'abcdefgh'[i % 8] * (i % 5)}" for i in range(3000)]
    corpus.write_bytes(("the cat sat on the mat. " * 50 + " ".join(words) + "\n").encode())
    local = Trainer.from_file(corpus, [])
    eng = Engine()
    try:
        eng.load(str(corpus), [])
        assert eng.steps(80) == local.steps(80)
        reply = eng.undo_to(30, 10)
        assert reply["undone"] == local.undo_to(30) == 50
        assert reply["top_pairs"] == local.top_pairs(10)
        assert eng.words_with_token(b"at") == local.words_with_token(b"at")
        assert eng.steps(20) == local.steps(20)
        reply = eng.undo_to(0, 10)  # reset
        assert reply["undone"] == local.undo_to(0) == 50
        assert reply["top_pairs"] == local.top_pairs(10) == Trainer.from_file(corpus, []).top_pairs(10)
        assert eng.merges() == [] and eng.steps(40) == local.steps(40)
    finally:
        eng.close()


def test_the_undone_history_can_be_freed_in_a_thread():
    text = "the cat sat on the mat; the hat is flat. " * 30
    t = _trainer(text, "first", long_words=False)
    fresh = _trainer(text, "first", long_words=False)
    made = t.steps(25)
    n, release = t.undo_to_in_two(0, background=True)
    assert n == len(made) > 10 and canonical_state(t) == canonical_state(fresh)
    release()  # starts the thread; the trainer is usable meanwhile
    assert t.steps(10) == fresh.steps(10)
    for th in threading.enumerate():
        if th.name == "free undone merges":
            th.join()
    assert canonical_state(t) == canonical_state(fresh)
