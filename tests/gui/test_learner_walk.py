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


def test_an_imported_tokenizer_leaves_the_selected_merge_readable_on_a_laptop(qtbot, small_corpus, tmp_path):
    """At 1280×720 in Chinese an import's note and Continue button grew the panels above, and the
    left column was fitted to keep Train (off for an import) in sight: the selected merge and What
    happened were left one line, cut mid-sentence."""
    from PySide6.QtCore import QPoint

    from bpe_gui import create_window
    from bpe_gui.text import i18n

    from .gui_helpers import import_tokenizer, load

    w = create_window(load_sample=False, language="zh_CN")
    try:
        qtbot.addWidget(w)
        w.resize(1280, 672)  # 720 less a title bar and a task bar
        w.show()
        qtbot.waitExposed(w)
        c = w.controller
        load(qtbot, w, small_corpus)
        with qtbot.waitSignal(c.trained, timeout=60_000):
            c.train(300)
        c.export(tmp_path, ["hf"])
        import_tokenizer(qtbot, c, tmp_path / "tokenizer.json")
        qtbot.waitUntil(lambda: not c.busy)
        c.select_merge(3)
        browsers = (w.details.browser, w.story.browser)

        def readable() -> bool:
            return all(b.viewport().height() >= 4 * b.fontMetrics().lineSpacing() for b in browsers)

        qtbot.waitUntil(readable)
        # what an import can do next stays in sight: Continue training, at the top of the column
        button, viewport = w.corpus_panel.continue_button, w.left_scroll.viewport()
        assert button.isVisibleTo(w)
        assert 0 <= button.mapTo(viewport, QPoint(0, button.height())).y() <= viewport.height()
        c.shutdown()
    finally:
        i18n.install("en")
