"""One selection: the merge the user picks in any view is the one every view shows and acts on."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QMenu

from bpe_gui.model.session import SessionModel
from bpe_gui.model.state import VocabIndex


def _menu_shown(qtbot) -> QMenu:
    qtbot.waitUntil(
        lambda: any(isinstance(w, QMenu) and w.isVisible() for w in QApplication.topLevelWidgets())
    )
    return next(w for w in QApplication.topLevelWidgets() if isinstance(w, QMenu) and w.isVisible())


def test_right_click_on_a_scrolled_merges_list_acts_on_the_row_under_the_cursor(qtbot, trained):
    w, c = trained, trained.controller
    br = w.browser
    w.resize(1280, 720)
    table, proxy = br.merges_table, br.merges_proxy
    qtbot.waitUntil(lambda: proxy.rowCount() == c.index.n_merges, timeout=5000)
    assert c.index.n_merges >= 30
    c.select_merge(17)  # picked in the timeline first (as a user does), so the list shows #18 centred
    for picked in (20, 5, c.index.n_merges - 1):
        table.scrollTo(proxy.index(picked, 0))
        pos = table.visualRect(proxy.index(picked, 0)).center()
        table.customContextMenuRequested.emit(pos)
        menu = _menu_shown(qtbot)
        # the menu, the list, the details, the timeline and the window's Rewind all name the same merge
        assert f"#{picked + 1}" in menu.actions()[0].text()
        assert c.selected_merge == picked
        assert proxy.mapToSource(table.currentIndex()).row() == picked
        assert w.details.rank == picked and w.timeline.selected == picked
        menu.close()


def test_rewind_from_the_menu_rewinds_to_the_merge_it_names(qtbot, trained):
    w, c = trained, trained.controller
    table, proxy = w.browser.merges_table, w.browser.merges_proxy
    qtbot.waitUntil(lambda: proxy.rowCount() == c.index.n_merges, timeout=5000)
    c.select_merge(2)
    pos = table.visualRect(proxy.index(7, 0)).center()
    table.customContextMenuRequested.emit(pos)
    menu = _menu_shown(qtbot)
    with qtbot.waitSignal(c.merges_removed, timeout=20_000):
        menu.actions()[0].trigger()
    assert c.index.n_merges == 8  # merge #8 is the last one
    assert c.selected_merge == 7


def test_window_rewind_uses_the_selection_of_any_view(qtbot, trained):
    w, c = trained, trained.controller
    c.select_merge(4)  # as a click on the timeline or the vocab list does
    with qtbot.waitSignal(c.merges_removed, timeout=20_000):
        w.rewind_to_selected()
    assert c.index.n_merges == 5 and c.selected_merge == 4


def test_the_model_keeps_one_valid_selection():
    m = SessionModel()
    m.index = VocabIndex.base([])
    m.absorb([])  # (no merges: nothing can be picked)
    assert m.select(0) is False and m.selected is None
    m.index.extend([((b"a", b"b"), 5), ((b"ab", b"c"), 3), ((b"x", b"y"), 2)])
    m.records = [object(), object(), object()]
    assert m.select(2) and m.selected == 2 and m.current_step == 3
    assert m.select(3) is False and m.selected == 2  # out of range: the selection stays
    m.pop(1)  # the selected merge is taken back: the last merge left is selected
    assert m.selected == 1 and m.current_step == 2
    m.base_vocab()  # the merges are replaced: nothing is selected
    assert m.selected is None


def test_a_token_clicked_in_the_tokenize_view_selects_the_merge_that_made_it(qtbot, trained):
    w, c = trained, trained.controller
    view = w.tokenize.primary.view
    w.tokenize.input.setPlainText("the cat sat on the mat")
    qtbot.waitUntil(lambda: any(c.index.rank_of.get(s.token) is not None for s in view.spans), timeout=10_000)
    i, span = next((k, s) for k, s in enumerate(view.spans) if c.index.rank_of.get(s.token) is not None)
    rank = c.index.rank_of[span.token]
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QTextCursor

    cursor = QTextCursor(view.document())
    cursor.setPosition(view.starts[i] + 1)  # inside the token's first character
    at = view.cursorRect(cursor).center()
    assert view.span_at(at) == i
    with qtbot.waitSignal(c.merge_selected):
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at)
    assert c.selected_merge == rank and w.details.rank == rank and w.timeline.selected == rank
    one_byte = next((k for k, s in enumerate(view.spans) if len(s.token) == 1 and not s.is_special), None)
    if one_byte is not None:  # a byte token: no merge made it; the selection stays
        with qtbot.waitSignal(c.message):
            view.clicked.emit(one_byte)
        assert c.selected_merge == rank


def test_a_part_of_the_merge_tree_clicked_selects_its_merge_and_the_tree_stays(qtbot, trained):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QTreeWidgetItemIterator

    w, c = trained, trained.controller
    br, ix = w.browser, c.index
    w.resize(1280, 720)
    # a merge whose token was built from a token another merge made (a tree of three levels at least)
    rank = next(r for r, m in enumerate(ix.merges) if ix.rank_of.get(m.pair[0]) is not None)
    c.select_merge(rank)
    root = br.tree.topLevelItem(0)
    assert root.text(2) == f"#{rank + 1:,}"
    part = root.child(0)  # the left token, made by an earlier merge
    left_rank = ix.rank_of[ix.merges[rank].pair[0]]
    qtbot.waitUntil(lambda: br.tree.viewport().height() > 3 * br.tree.visualItemRect(root).height())
    rect = br.tree.visualItemRect(part)
    qtbot.mouseClick(br.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert c.model.selected == left_rank  # every view follows …
    assert br.merges_proxy.mapToSource(br.merges_table.currentIndex()).row() == left_rank
    assert br.tree.topLevelItem(0).text(2) == f"#{rank + 1:,}"  # … and the tree still shows the whole token
    assert br.tree.currentItem().text(2) == f"#{left_rank + 1:,}"
    # a byte in the tree (no merge made it) selects nothing
    it = QTreeWidgetItemIterator(br.tree)
    while it.value() is not None and it.value().childCount():
        it += 1
    leaf = it.value()
    qtbot.mouseClick(br.tree.viewport(), Qt.MouseButton.LeftButton, pos=br.tree.visualItemRect(leaf).center())
    assert c.model.selected == left_rank
