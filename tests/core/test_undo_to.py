"""Trainer.undo_to (rewind/reset in one count update) ends exactly where step-by-step undo does."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core import Trainer
from core.errors import BPEError
from core.pretokenize import count_pretokens

from .trainer_state import canonical_state

PIECES = ["the", " cat", " sat", " on", " the", " mat", "aaaa", "ab" * 5, "\x00\xff", " 日本", "\n\n", "x" * 40]


def _trainer(text: str, tie_break: str, long_words: bool) -> Trainer:
    pattern = "none" if long_words else "gpt2"
    counts, stats = count_pretokens(text, [], pattern, workers=1, is_text=True)
    kw = {"long_word_tokens": 8} if long_words else {}  # a small threshold: the long-word path too
    return Trainer(counts, [], pattern=pattern, tie_break=tie_break, stats=stats, **kw)


@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=60).map("".join),
       st.integers(1, 40), st.data(), st.sampled_from(["lexicographic", "first"]), st.booleans())
def test_undo_to_equals_undo_one_by_one(text, n, data, tie_break, long_words):
    a = _trainer(text, tie_break, long_words)
    b = _trainer(text, tie_break, long_words)
    a.steps(n)
    b.steps(n)
    before = len(a.merges)
    keep = data.draw(st.integers(0, before))
    assert a.undo_to(keep) == before - keep
    while len(b.merges) > keep:
        b.undo()
    assert len(a.merges) == keep and canonical_state(a) == canonical_state(b)
    # and training goes on identically from there
    assert [r.pair for r in a.steps(5)] == [r.pair for r in b.steps(5)]


def test_undo_to_counts_and_refuses_a_lean_trainer():
    t = Trainer.from_text("the cat sat on the mat " * 20)
    t.steps(6)
    assert t.undo_to(10) == 0 and t.undo_to(2) == 4 and len(t.merges) == 2 and t.undo_to(0) == 2
    lean = Trainer.from_text("aaaa bbbb", keep_history=False)
    lean.steps(1)
    with pytest.raises(BPEError, match="keep_history=False"):
        lean.undo_to(0)
