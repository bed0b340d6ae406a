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


def test_the_words_and_the_pairs_places_are_told_apart(qtbot, window, tmp_path):
    """'count when merged: 123' over 'changed 84 distinct words (84 occurrences)' read as a
    contradiction: the details say how often the words occur and, when the pair stands more than
    once in some, how many places it had."""
    from .gui_helpers import load

    corpus = tmp_path / "c.txt"
    corpus.write_text("abab cd " * 7 + "ab " * 3, encoding="utf-8")  # 'abab' holds a+b twice
    load(qtbot, window, corpus)
    c = window.controller
    c.step(1)
    qtbot.waitUntil(lambda: not c.busy)
    rec = c.records[0]
    assert rec.pair == (b"a", b"b") and (rec.count, rec.words_changed, rec.occurrences_changed) == (17, 3, 10)
    c.select_merge(0)
    text = window.details.browser.toPlainText()
    assert "changed 3 distinct words, which occur 10 times in the corpus" in text
    assert "some hold the pair more than once: 17 places in all" in text
    from PySide6.QtGui import QTextDocument

    from bpe_gui.views.story_view import story_html

    doc = QTextDocument()
    doc.setHtml(story_html(rec, "lexicographic", None))
    assert "3 distinct words changed, which occur 10 times in the corpus" in doc.toPlainText()
