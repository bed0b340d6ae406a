"""Say things once and clearly: one merge numbering, plurals, timeline axes, boundaries, hints, tooltips."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt

from bpe_gui.settings import EXPORT_FOLDER
from bpe_gui.views.timeline_view import count_range

from .gui_helpers import load

DISPLAY = Qt.ItemDataRole.DisplayRole
TOOLTIP = Qt.ItemDataRole.ToolTipRole


def _step(qtbot, w, n):
    c = w.controller
    c.step(n)
    qtbot.waitUntil(lambda: not c.busy and c.index.n_merges >= n, timeout=30_000)
    return c


def test_one_numbering_of_merges_everywhere(qtbot, loaded):
    c = _step(qtbot, loaded, 1)
    status = loaded.training_panel.status.full_text
    assert status.startswith("Merge #1:")
    b = loaded.browser
    b.merges_model.sync()
    b.vocab_model.sync()
    assert b.merges_model.data(b.merges_model.index(0, 0), DISPLAY) == 1
    tid = c.index.merges[0].token_id
    assert b.vocab_model.data(b.vocab_model.index(c.index.row_of_id(tid), 4), DISPLAY) == "merge #1"
    c.select_merge(0)
    assert "merge #1 · token id 257" in loaded.details.browser.toPlainText()
    assert b.tree.topLevelItem(0).text(2) == "#1"
    assert loaded.timeline.marker.getData()[0][0] == 1.0  # x axis: merge number
    loaded.act_undo.trigger()
    assert "Undid merge #1 " in loaded.training_panel.status.full_text


def test_plurals_say_one_merge(qtbot, loaded):
    _step(qtbot, loaded, 1)
    loaded.timeline.redraw()
    assert loaded.vocab_status.text().rstrip() == "vocab 258 · 1 merge"
    assert "1 merges" not in loaded.vocab_status.text()
    assert "<b>1</b> merge ·" in loaded.training_panel.vocab_label.text()
    assert "— 1 merge" in loaded.timeline.title.text() and "1 merges" not in loaded.timeline.title.text()
    _step(qtbot, loaded, 2)
    assert "3 merges" in loaded.vocab_status.text()


def test_tie_competitors_are_shown_as_pairs(qtbot, window, tmp_path):
    p = tmp_path / "ties.txt"
    p.write_text("ab cd " * 10, encoding="utf-8")  # a+b and c+d (and the space pairs) tie
    load(qtbot, window, p)
    c = _step(qtbot, window, 1)
    assert c.records[0].n_ties
    c.select_merge(0)
    text = window.details.browser.toPlainText()
    tied = text.split("tied with:")[1].splitlines()[0]
    assert " + " in tied


def test_count_axis_comes_from_the_data():
    assert count_range(np.array([3.0, 3_400_000.0])) == (-0.05, 7.05)
    assert count_range(np.array([5.0])) == (-0.05, 1.05)


def test_timeline_axis_follows_the_data_and_resets(qtbot, loaded, tmp_path):
    tl = loaded.timeline
    assert tl.empty.isVisible() and not tl.graphics.isVisible()  # "no merges yet" before the first merge
    c = _step(qtbot, loaded, 1)
    tl.redraw()
    assert tl.graphics.isVisible() and not tl.empty.isVisible()
    assert tl.count_curve.getData()[0][0] == 1.0  # the first point, drawn as a dot, sits at x = 1
    assert tl.count_curve.opts["symbol"] == "o"
    for _ in range(6):  # repeated range changes do not add decades
        c.step(5)
        qtbot.waitUntil(lambda: not c.busy, timeout=30_000)
        tl.redraw()
    lo, hi = tl._ranges[1], tl._ranges[2]
    counts = np.array(tl.counts, dtype=float)
    assert (lo, hi) == count_range(counts)
    assert hi <= np.log10(counts.max()) + 1.05
    big = tmp_path / "big.txt"
    big.write_text("x y " * 5000, encoding="utf-8")
    load(qtbot, loaded, big)  # a new corpus resets the axes
    assert tl._ranges is None and tl.empty.isVisible()


def test_the_first_merges_replace_the_no_merges_hint_at_once(qtbot, loaded):
    # (the plot is redrawn on a timer; the hint stayed under a title counting 40 merges until it fired)
    tl = loaded.timeline
    c = _step(qtbot, loaded, 40)
    assert "40 merges" in tl.title.text()
    assert tl.graphics.isVisible() and not tl.empty.isVisible()
    assert len(tl.count_curve.getData()[0]) == 40
    while c.index.merges:  # undone back to none: the hint comes back as the last merge goes
        c.undo()
        qtbot.waitUntil(lambda: not c.busy, timeout=30_000)
    assert tl.empty.isVisible() and not tl.graphics.isVisible()


def test_adjacent_special_tokens_show_a_boundary(qtbot, window):
    from bpe_gui.views.token_spans import SPECIAL_BG, SPECIAL_BG_2

    c = window.controller
    assert c.set_options(special_tokens=["<|a|>", "<|b|>"])
    window.tokenize.set_text("x<|a|><|b|>y")
    window.tokenize.wait_idle()
    view = window.tokenize.primary.view
    specials = [i for i, s in enumerate(view.spans) if s.is_special]
    assert len(specials) == 2
    colors = []
    for i in specials:
        cur = view.textCursor()
        cur.setPosition(view.starts[i] + 1)
        colors.append(cur.charFormat().background().color().name())
    assert colors == [SPECIAL_BG, SPECIAL_BG_2]


def test_hover_line_clears_when_the_tokenizer_changes(qtbot, loaded):
    pane = loaded.tokenize.primary
    loaded.tokenize.wait_idle()
    pane._hovered(0)
    assert "id " in pane.info.text()
    _step(qtbot, loaded, 1)
    loaded.tokenize.wait_idle()
    assert "Hover a token" in pane.info.text()


def test_empty_vocab_search_says_no_matches(qtbot, loaded):
    _step(qtbot, loaded, 5)
    b = loaded.browser
    b.search.setText("zzzzqqq")
    b._apply_search()
    assert b.no_match.isVisible() and "No matches" in b.no_match.text()
    b.search.setText("t")
    b._apply_search()
    assert not b.no_match.isVisible()


def test_file_dialogs_start_at_home_or_the_last_folder(qtbot, window, tmp_path, monkeypatch):
    seen = []
    monkeypatch.setattr(
        "bpe_gui.window.files.QFileDialog.getOpenFileName",
        lambda _parent, _title, start, _filter: (seen.append(start), ("", ""))[1],
    )
    window.open_corpus_dialog()
    assert seen[-1] == str(Path.home())
    # Import and Compare pick several files (a GPT-2 vocab with its merges file)
    monkeypatch.setattr(
        "bpe_gui.window.files.QFileDialog.getOpenFileNames",
        lambda _parent, _title, start, _filter: (seen.append(start), ([], ""))[1],
    )
    window.settings.set(EXPORT_FOLDER, str(tmp_path))
    window.import_dialog()
    assert seen[-1] == str(tmp_path)  # Import starts where the last export went


def test_statistics_have_tooltips(qtbot, loaded):
    for key, v in loaded.corpus_panel.values.items():
        assert len(v.toolTip()) > 20, key
    m = loaded.pairs.model
    for col in range(5):
        assert m.headerData(col, Qt.Orientation.Horizontal, TOOLTIP), col
    assert "bytes/token" in loaded.tokenize.primary.stats.toolTip().lower()
    assert "same highest count" in loaded.training_panel.tie.toolTip()


def test_keyboard_shortcuts_lists_every_shortcut(qtbot, window):
    from bpe_gui.dialogs.messages import ShortcutsDialog

    dlg = ShortcutsDialog(window.actions(), window)
    names = {name for name, _keys in dlg.rows}
    with_keys = [a for a in window.actions() if a.shortcuts()]
    assert len(dlg.rows) == len(with_keys)  # (the window adds mouse hints only when it opens it)
    assert {"Step", "Undo", "Save session", "Reset (0 merges)", "Messages"} <= names
    dlg.close()


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_keyboard_shortcuts_show_both_columns_whole(qtbot, window, lang):
    """At its first size (440 px) the dialog had a horizontal scroll bar: the mouse hints' keys
    ("right-click it in the timeline or the merges list") did not fit."""
    from bpe_gui.text import i18n

    i18n.install(lang)
    try:
        dlg = window.shortcuts_dialog()  # (with the mouse hints, as Help → Keyboard shortcuts opens it)
        qtbot.addWidget(dlg)
        dlg.show()
        qtbot.waitExposed(dlg)
        assert dlg.table.horizontalScrollBar().maximum() == 0
        header = dlg.table.horizontalHeader()
        for col in (0, 1):
            need = max(dlg.table.sizeHintForColumn(col), header.sectionSizeHint(col))
            assert header.sectionSize(col) >= need, (lang, col, header.sectionSize(col), need)
        dlg.close()
    finally:
        i18n.install("en")


def test_long_messages_are_elided_and_kept_whole_in_the_log(qtbot, loaded):
    long = "A very long message " * 40
    loaded.controller.message.emit(long)
    status = loaded.training_panel.status
    assert status.text().endswith("…") and status.toolTip() == long
    assert loaded.messages.messages[-1] == long
    assert loaded.statusBar().toolTip() == long


def test_browser_headers_explain_their_columns(qtbot, window):
    for model in (window.browser.merges_model, window.browser.vocab_model):
        for col in range(model.columnCount()):
            assert model.headerData(col, Qt.Orientation.Horizontal, TOOLTIP), (model, col)
