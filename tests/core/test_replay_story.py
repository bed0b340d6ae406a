"""Replaying saved merges (Trainer.merge, as a reopened session does) records the same story as the
steps that made them: count, how many pairs tied and which, for both tie rules."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import Trainer
from core.errors import BPEError

WORDS = st.lists(
    st.sampled_from(["ab", "cd", "abab", " ab", " cd", "cdcd", "aa", "x", "日本"]), min_size=1, max_size=40
)


@pytest.mark.parametrize("tie_break", ["lexicographic", "first"])
@settings(max_examples=40, deadline=None)
@given(words=WORDS)
def test_replay_keeps_ties(tie_break, words):
    text = " ".join(words)
    made = Trainer.from_text(text, [], tie_break=tie_break).steps(12)
    again = Trainer.from_text(text, [], tie_break=tie_break)
    replayed = [again.merge(r.pair) for r in made]
    assert [(r.pair, r.count, r.n_ties, r.ties) for r in replayed] == [
        (r.pair, r.count, r.n_ties, r.ties) for r in made
    ]


def test_replay_of_a_pair_that_is_not_the_best_has_no_tie_story():
    t = Trainer.from_text("ab ab ab cd", [])
    r = t.merge((b"c", b"d"))
    assert (r.count, r.n_ties, r.ties) == (1, 0, ())
    with pytest.raises(BPEError, match="does not occur"):
        t.merge((b"q", b"q"))
