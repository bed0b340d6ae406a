"""A learner's walk through the app (train, step, read each view): what every view shows follows
what the learner just did."""

from __future__ import annotations

from bpe_gui.model.formatting import token_label


def _story_head(w) -> str:
    """The first line of the "What happened" panel: "a + b → ab" of the merge it tells."""
    return w.story.browser.toPlainText().splitlines()[0]


def test_after_train_the_story_tells_the_last_merge_not_the_one_before_the_run(qtbot, loaded):
    w, c = loaded, loaded.controller
    c.step()
    first = c.index.merges[0]
    assert token_label(first.token) in _story_head(w)
    with qtbot.waitSignal(c.trained, timeout=60_000):
        c.train(320)
    last = c.records[-1]
    assert last.rank == c.index.n_merges - 1 > 0
    head = _story_head(w)
    a, b = last.pair
    assert head.split("→")[-1].strip() == token_label(last.token), head
    assert token_label(a) in head and token_label(b) in head
    # its numbers are the last merge's, as its row in the merges list says
    assert f"{last.count:,}" in w.story.browser.toPlainText()
