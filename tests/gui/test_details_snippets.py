"""The details of a merge: 'Show where this token occurs in the corpus' finds the first places where
the tokenizer makes the token (core.token_home), in a worker, and shows them with the token marked."""

from __future__ import annotations

from itertools import accumulate

from .gui_helpers import SMALL_TEXT


def test_snippets_of_the_selected_merge(qtbot, loaded, small_corpus):
    w = loaded
    c = w.controller
    for _ in range(15):
        c.step(1)
    qtbot.waitUntil(lambda: not c.busy, timeout=30_000)
    rank = 14
    c.select_merge(rank)
    d = w.details
    assert "Show where this token occurs in the corpus" in d.browser.toPlainText()
    assert d.find_snippets()
    qtbot.waitUntil(lambda: d._snip_job is None, timeout=30_000)
    text = d.browser.toPlainText()
    assert "Where it occurs" in text
    # the oracle: the byte offsets where the whole text's encoding has the token
    tok = c.tokenizer()
    token = c.index.merges[rank].token
    tid = tok.token_to_id(token)
    ids = tok.encode(SMALL_TEXT)
    starts = [0, *accumulate(len(tok.vocab[i]) for i in ids)]
    want = [starts[k] for k, i in enumerate(ids) if i == tid][:3]
    for off in want:
        assert f"byte {off:,}" in text
    # kept for this merge: selecting another one and back shows them again without a search
    c.select_merge(3)
    c.select_merge(rank)
    assert "Where it occurs" in d.browser.toPlainText() and d._snip_job is None
