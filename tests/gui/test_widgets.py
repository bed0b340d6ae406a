"""Real widget interaction: keys, clicks, the tokenize view, tables, timeline, drag & drop."""

from __future__ import annotations

import itertools

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QApplication

from .gui_helpers import check_consistent, load

LEFT = Qt.MouseButton.LeftButton


def _focus_neutral(w) -> None:
    """Give focus to a widget that does not take arrow keys or space for itself."""
    w.activateWindow()
    w.timeline.graphics.setFocus()


def test_keyboard_step_and_undo(qtbot, loaded):
    c = loaded.controller
    _focus_neutral(loaded)
    qtbot.keyClick(loaded, Qt.Key.Key_Right)
    assert c.index.n_merges == 1
    qtbot.keyClick(loaded, Qt.Key.Key_Space)
    assert c.index.n_merges == 2
    qtbot.keyClick(loaded, Qt.Key.Key_Left)
    assert c.index.n_merges == 1
    qtbot.keyClick(loaded, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert c.index.n_merges == 0
    check_consistent(c)


def test_space_in_text_box_types_instead_of_stepping(qtbot, loaded):
    c = loaded.controller
    box = loaded.tokenize.input
    box.setPlainText("ab")
    box.setFocus()
    box.moveCursor(box.textCursor().MoveOperation.End)
    qtbot.keyClick(box, Qt.Key.Key_Space)
    qtbot.keyClick(box, Qt.Key.Key_Left)
    assert box.toPlainText() == "ab "
    assert c.index.n_merges == 0


def test_buttons_step_undo_train(qtbot, loaded):
    c = loaded.controller
    tp = loaded.training_panel
    qtbot.mouseClick(tp.step_button, LEFT)
    assert c.index.n_merges == 1
    tp.step_n.setValue(5)
    qtbot.mouseClick(tp.step_n_button, LEFT)
    assert c.index.n_merges == 6
    qtbot.mouseClick(tp.undo_button, LEFT)
    assert c.index.n_merges == 5
    tp.vocab_size.setValue(300)
    with qtbot.waitSignal(c.trained, timeout=60_000):
        qtbot.mouseClick(tp.train_button, LEFT)
    assert c.vocab_size <= 300
    assert tp.step_button.isEnabled() and not tp.cancel_button.isEnabled()
    check_consistent(c)


def test_cancel_button_stops_run(qtbot, window, sample_corpus):
    load(qtbot, window, sample_corpus)
    c = window.controller
    tp = window.training_panel
    tp.vocab_size.setValue(60_000)
    clicked = []

    def click_cancel(done, _total):
        if done and not clicked:
            clicked.append(done)
            assert tp.cancel_button.isEnabled() and not tp.step_button.isEnabled()
            qtbot.mouseClick(tp.cancel_button, LEFT)

    c.progress.connect(click_cancel)
    with qtbot.waitSignal(c.trained, timeout=60_000) as blocker:
        qtbot.mouseClick(tp.train_button, LEFT)
    assert blocker.args[0].cancelled
    assert "Cancelled" in tp.status.text()
    check_consistent(c)


def test_tokenize_view_updates_after_step(qtbot, loaded):
    tv = loaded.tokenize
    tv.set_text("the cat sat on the mat")
    assert tv.wait_idle()
    pane = tv.primary
    before = [s.id for s in pane.view.spans]
    assert len(before) == len("the cat sat on the mat")  # bytes only, no merges yet
    c = loaded.controller
    c.step(5)
    qtbot.waitUntil(lambda: [s.id for s in pane.view.spans] != before, timeout=3000)
    after = pane.view.spans
    assert len(after) < len(before)
    assert "".join(s.token.decode() for s in after) == "the cat sat on the mat"
    assert f"{len(after):,}</b> tokens" in pane.stats.text()


def test_neighbour_colours_differ_and_markers_toggle(qtbot, loaded):
    from bpe_gui.views.tokenize_view import span_colors

    tv = loaded.tokenize
    loaded.controller.step(10)
    tv.set_text("the the the\tthe\nthe")
    assert tv.wait_idle()
    ids = [s.id for s in tv.primary.view.spans]
    colors = span_colors(ids)
    assert all(a != b for a, b in itertools.pairwise(colors))
    shown = tv.primary.view.toPlainText()
    assert "·" in shown and "→" in shown and "↵" in shown
    tv.markers.setChecked(False)
    shown = tv.primary.view.toPlainText()
    assert "·" not in shown and "the the" in shown


def test_hover_shows_token_details(qtbot, loaded):
    c = loaded.controller
    c.step(20)
    tv = loaded.tokenize
    tv.set_text("the cat")
    assert tv.wait_idle()
    view = tv.primary.view
    rect = view.cursorRect(view.textCursor().__class__(view.document()))
    pos = rect.center() + QPoint(2, 0)
    qtbot.mouseMove(view.viewport(), pos)
    qtbot.waitUntil(lambda: "id " in tv.primary.info.text(), timeout=2000)
    span = view.spans[view.span_at(pos)]
    assert f"id {span.id}" in tv.primary.info.text()
    assert "hex:" in tv.primary.info.text()


def test_hover_text_names_merge_parts(qtbot, loaded):
    c = loaded.controller
    c.step(30)
    pane = loaded.tokenize.primary
    loaded.tokenize.set_text("the")
    assert loaded.tokenize.wait_idle()
    span = next(s for s in pane.view.spans if len(s.token) > 1)
    text = pane.describe(span)
    assert "merge #" in text and "+" in text


def test_pair_table_highlights_next_and_filters(qtbot, loaded):
    pv = loaded.pairs
    c = loaded.controller
    (a, b), _count = c.next_pair()
    assert pv.model.rows[0][0] == (a, b)
    assert "Next merge" in pv.next_label.text()
    c.step()
    # the merged pair left the table, its neighbours changed
    assert all(row[0] != (a, b) for row in pv.model.rows)
    assert any(row[2] for row in pv.model.rows)
    pv.filter.setText("the")
    assert pv.table.model() is pv.proxy  # the filtered view
    assert 0 < pv.proxy.rowCount() < pv.model.rowCount()
    for r in range(pv.proxy.rowCount()):
        pair = pv.model.rows[pv.proxy.mapToSource(pv.proxy.index(r, 0)).row()][0]
        assert "the" in (pair[0] + pair[1]).decode("utf-8", "replace").lower()
    pv.filter.clear()  # back to every pair
    assert pv.table.model() is pv.model and pv.table.model().rowCount() == len(pv.model.rows)


def test_ties_are_explained(qtbot, window, tmp_path):
    p = tmp_path / "ties.txt"
    p.write_text("ab cd", encoding="utf-8")
    load(qtbot, window, p)
    text = window.pairs.next_label.text()
    # "ab" and " cd": (a, b), (' ', c) and (c, d) occur once each
    assert "tied with 2 other" in text and "lexicographically greatest" in text
    c = window.controller
    c.step()
    rec = c.records[-1]
    assert rec.n_ties >= 1
    c.select_merge(0)
    assert "tied with" in window.details.browser.toPlainText()


def test_timeline_click_selects_merge(qtbot, trained):
    c = trained.controller
    tl = trained.timeline
    tl.redraw()
    QApplication.processEvents()
    vb = tl.count_plot.getViewBox()
    rank = 20
    scene_pt = vb.mapViewToScene(
        QPointF(rank, vb.viewRange()[1][0] + 0.5 * (vb.viewRange()[1][1] - vb.viewRange()[1][0]))
    )
    view_pt = tl.graphics.mapFromScene(scene_pt)
    with qtbot.waitSignal(c.merge_selected) as blocker:
        qtbot.mouseClick(tl.graphics.viewport(), LEFT, pos=view_pt)
    assert abs(blocker.args[0] - rank) <= 1
    picked = blocker.args[0]
    assert tl.selected == picked
    # the merges list selects the same merge and the details show it
    idx = trained.browser.merges_table.currentIndex()
    assert trained.browser.merges_proxy.mapToSource(idx).row() == picked
    token = c.index.merges[picked].token
    assert trained.details.rank == picked
    assert trained.browser.tree.topLevelItem(0).text(0).replace("·", " ") == token.decode("utf-8", "replace")


def test_browser_search_and_merge_tree(qtbot, trained):
    c = trained.controller
    br = trained.browser
    rank = c.index.rank_of.get(b" the")
    assert rank is not None
    br.search.setText(" the")
    qtbot.waitUntil(lambda: br.merges_proxy.rowCount() < br.merges_model.rowCount(), timeout=2000)
    assert br.merges_proxy.rowCount() >= 1
    br.tabs.setCurrentIndex(1)
    row = next(r for r in range(br.vocab_proxy.rowCount()) if br.vocab_proxy.index(r, 1).data() == "·the")
    br.vocab_table.setCurrentIndex(br.vocab_proxy.index(row, 0))
    root = br.tree.topLevelItem(0)
    assert root.text(0) == "·the" and root.childCount() == 2
    leaves = []

    def walk(item):
        if item.childCount() == 0:
            leaves.append(item.text(0))
        for i in range(item.childCount()):
            walk(item.child(i))

    walk(root)
    assert "".join(leaves) == "·the"


def test_drop_file_loads_corpus(qtbot, window, small_corpus):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(small_corpus))])
    event = QDropEvent(
        QPointF(100, 100), Qt.DropAction.CopyAction, mime, LEFT, Qt.KeyboardModifier.NoModifier
    )
    with qtbot.waitSignal(window.controller.corpus_loaded, timeout=30_000):
        window.dropEvent(event)
    assert window.controller.corpus_path == str(small_corpus)
    assert str(small_corpus.resolve()) in window.recent_files()
    actions = [a.text() for a in window.recent_menu.actions()]
    assert str(small_corpus.resolve()) in actions


def test_train_below_current_size_says_nothing_to_do(qtbot, loaded):
    c = loaded.controller
    c.step(5)
    with qtbot.waitSignal(c.trained, timeout=30_000) as blocker:
        c.train(260)
    assert blocker.args[0].n_merges == 0 and "Nothing to do" in blocker.args[0].message
    assert c.index.n_merges == 5


def test_progress_bar_says_cancelled(qtbot, window, sample_corpus):
    load(qtbot, window, sample_corpus)
    c = window.controller
    c.progress.connect(lambda done, total: c.cancel() if done else None)
    with qtbot.waitSignal(c.trained, timeout=60_000):
        c.train(60_000)
    qtbot.waitUntil(lambda: not c.busy)
    assert window.training_panel.progress.format() == "cancelled"


def test_settings_and_recent_menu_persist(qtbot, loaded, small_corpus):
    from bpe_gui import create_window

    loaded.training_panel.vocab_size.setValue(4321)
    loaded.close()
    w2 = create_window(load_sample=False)
    qtbot.addWidget(w2)
    assert w2.training_panel.vocab_size.value() == 4321
    action = next(a for a in w2.recent_menu.actions() if a.text() == str(small_corpus.resolve()))
    with qtbot.waitSignal(w2.controller.corpus_loaded, timeout=30_000):
        action.trigger()
    assert w2.controller.corpus_path == str(small_corpus.resolve())


def test_tooltip_and_timeline_title(qtbot, loaded):
    c = loaded.controller
    c.step(3)
    loaded.timeline.redraw()
    assert "3 merges" in loaded.timeline.title.text()
    pane = loaded.tokenize.primary
    loaded.tokenize.set_text("the cat")
    assert loaded.tokenize.wait_idle()
    assert "id " in pane.describe(pane.view.spans[0])


@pytest.mark.parametrize("tab", ["merges", "vocab"])
def test_undo_of_the_selected_merge_selects_the_one_before(qtbot, loaded, tab):
    c = loaded.controller
    br = loaded.browser
    for _ in range(5):
        qtbot.keyClick(loaded, Qt.Key.Key_Right)
    qtbot.waitUntil(lambda: br.merges_model.rowCount() == 5 and c.index.n_merges == 5, timeout=3000)
    if tab == "merges":
        table, proxy = br.merges_table, br.merges_proxy
        row = 4
    else:
        br.tabs.setCurrentIndex(1)
        table, proxy = br.vocab_table, br.vocab_proxy
        row = c.index.row_of_id(c.index.merges[4].token_id)
    qtbot.waitUntil(lambda: proxy.rowCount() > row, timeout=3000)
    qtbot.mouseClick(table.viewport(), LEFT, pos=table.visualRect(proxy.index(row, 1)).center())
    qtbot.waitUntil(lambda: loaded.details.rank == 4, timeout=2000)
    qtbot.keyClick(loaded, Qt.Key.Key_Left)  # undo the selected merge
    qtbot.waitUntil(lambda: br.merges_model.rowCount() == 4 and loaded.details.rank == 3, timeout=3000)
    assert c.index.n_merges == 4
    assert br.merges_proxy.mapToSource(br.merges_table.currentIndex()).row() == 3
    check_consistent(c)


def test_step_n_says_when_the_corpus_runs_out_of_pairs(qtbot, window, tmp_path):
    path = tmp_path / "tiny.txt"
    path.write_text("abcabc abd", encoding="utf-8")
    load(qtbot, window, path)
    c = window.controller
    messages = []
    c.message.connect(messages.append)
    with qtbot.waitSignal(c.stepped) as blocker:
        c.step(1000)
    made = len(blocker.args[0])
    assert 0 < made < 1000 and c.index.n_merges == made
    assert f"Did {made} of 1,000 merges: no pair is left" in messages[-1]
    with qtbot.waitSignal(c.stepped):
        c.step(5)
    assert "No pair left" in messages[-1]


def test_browser_search_jumps_to_a_token_id(qtbot, trained):
    c = trained.controller
    br = trained.browser
    merge = c.index.merges[40]
    br.search.setText(f"#{merge.token_id}")
    qtbot.waitUntil(lambda: trained.details.rank == 40, timeout=2000)
    assert br.tabs.currentIndex() == 1
    current = br.vocab_proxy.mapToSource(br.vocab_table.currentIndex()).row()
    assert c.index.id_at(current) == merge.token_id
    assert br.vocab_proxy.rowCount() == len(c.index)  # nothing is filtered out
    # a byte: selected, with its one-node tree
    br.search.setText("# 104")
    qtbot.waitUntil(lambda: br.tree.topLevelItem(0).text(0) == "h", timeout=2000)
    messages = []
    br.message.connect(messages.append)  # the view says it (the window shows it in the status bar)
    br.search.setText("#99999")
    qtbot.waitUntil(lambda: bool(messages), timeout=2000)
    assert "No token has id 99,999" in messages[-1]


def test_a_pinned_label_is_tall_enough_for_chinese_text(qapp):
    """Chinese glyphs come from a fallback font with a taller line; the box must not cut their bottoms."""
    from bpe_gui.views.widgets import pinned, status_label

    label = status_label("")
    box = pinned(label)
    label.setText("词表 <b>100,261</b> / 1,000 · <b>100,000</b> 次合并")
    assert box.sizeHint().height() >= label.sizeHint().height()
    label.setText("Vocab <b>100,261</b>")
    assert box.sizeHint().height() >= label.sizeHint().height()


def test_timeline_draws_the_known_counts_when_some_merges_have_none(qtbot, window):
    """An extension's bpe.json records counts for its new merges only: those are drawn."""
    from core.formats.spec import TokenizerSpec
    from core.tokenization.tokenizer import Tokenizer

    c = window.controller
    merges = [(b"a", b"b"), (b"ab", b"c"), (b"x", b"y"), (b"xy", b"z")]
    spec = TokenizerSpec.from_merges(merges, [])
    tok = Tokenizer.from_spec(spec)
    from bpe_gui.model.session import tokenizer_index

    records = [
        type("R", (), {"pair": p, "count": n, "rank": i})()
        for i, (p, n) in enumerate(zip(merges, [0, 0, 7, 5]))
    ]
    c.model.show_tokenizer(tok, records, "ext", tokenizer_index(tok, records))
    c.merges_reset.emit()
    tl = window.timeline
    tl.redraw()
    xs, ys = tl.count_curve.getData()
    assert list(xs) == [3.0, 4.0] and [round(10**y) for y in ys] == [7, 5]  # (a log axis)
    assert "0×" not in tl.title.text()


def test_a_new_corpus_clears_the_vocab_search(qtbot, loaded, small_corpus):
    br = loaded.browser
    br.search.setText("zzzz-not-a-token")
    from .gui_helpers import load

    load(qtbot, loaded, small_corpus)  # another corpus: its rows are not hidden by the old search
    assert br.search.text() == ""


def test_the_next_merge_box_holds_four_lines_of_chinese_or_korean(qtbot, tmp_path):
    """Continuing Qwen2.5 on a corpus with Japanese and Korean: 'Next merge: 。 + 日本語のテキスト → …'
    took three lines and 'Last merge: 。한국어 …' the fourth, cut in half at the box's bottom (the
    box was four Latin lines high; these glyphs come from a taller fallback font)."""
    from PySide6.QtGui import QTextDocument

    from .gui_helpers import load, shown_window

    corpus = tmp_path / "cjk.txt"
    corpus.write_text("。日本語のテキスト、カタカナ。한국어 텍스트 " * 3, encoding="utf-8")
    with shown_window(qtbot, size=(1366, 768)) as w:
        load(qtbot, w, corpus)
        c = w.controller
        c.step(6)
        qtbot.waitUntil(lambda: not c.busy)
        label = w.pairs.next_label
        text = label.text()
        assert "Next merge" in text and "Last merge" in text
        doc = QTextDocument()
        doc.setDefaultFont(label.font())
        doc.setHtml(text)
        doc.setTextWidth(label.contentsRect().width())
        lines = sum(doc.findBlockByNumber(k).layout().lineCount() for k in range(doc.blockCount()))
        assert lines <= 4, lines  # (what the box is for)
        # four lines of the text as it is drawn fit the box
        full = QTextDocument()
        full.setDefaultFont(label.font())
        full.setHtml("<br>".join(["<code>日本語 한국어</code> 词表 Ag"] * 4))
        assert full.size().height() <= label.contentsRect().height(), (full.size(), label.contentsRect())
