"""A learner's walk through the app (train, step, read each view): what every view shows follows
what the learner just did."""

from __future__ import annotations

from bpe_gui.model.formatting import token_label

from .gui_helpers import load, shown_window


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

    from .gui_helpers import reimport_trained

    with shown_window(qtbot, "zh_CN") as w:
        c = w.controller
        load(qtbot, w, small_corpus)
        reimport_trained(qtbot, c, tmp_path)
        c.select_merge(3)
        browsers = (w.details.browser, w.story.browser)

        def readable() -> bool:
            return all(b.viewport().height() >= 4 * b.fontMetrics().lineSpacing() for b in browsers)

        qtbot.waitUntil(readable)
        # what an import can do next stays in sight: Continue training, at the top of the column
        button, viewport = w.corpus_panel.continue_button, w.left_scroll.viewport()
        assert button.isVisibleTo(w)
        assert 0 <= button.mapTo(viewport, QPoint(0, button.height())).y() <= viewport.height()


def _select_row(view, row: int) -> None:
    from PySide6.QtCore import QItemSelectionModel

    table = view.table
    flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
    table.selectionModel().select(table.model().index(row, 0), flags)


def _highlighted(view) -> list:
    """The pair column's text of the rows the table shows selected."""
    table = view.table
    return [table.model().index(i.row(), 1).data() for i in table.selectionModel().selectedRows()]


def test_a_pair_picked_in_the_pair_table_stays_picked_as_steps_move_it(qtbot, window, sample_corpus):
    """The learner picks a pair to watch it climb; after a step the highlight stayed on the row
    number, on another pair (the table keeps its 100 rows, so Qt kept the selection by row)."""
    w, c = window, window.controller
    load(qtbot, w, sample_corpus)
    view = w.pairs
    c.step()
    assert len(view.model.rows) == 100
    _select_row(view, 3)
    watched, label = view.model.rows[3][0], view.model.index(3, 1).data()
    moved = False
    for _ in range(4):
        c.step()
        rows = [r[0] for r in view.model.rows]
        if watched not in rows:  # merged: nothing else is highlighted in its place
            assert _highlighted(view) == [] and view.selected_pair() is None
            break
        moved |= rows.index(watched) != 3
        assert _highlighted(view) == [label]
        assert view.selected_pair() == watched
    assert moved or watched not in rows  # (else this test says nothing)
    # Undo moves it back, and the pick goes with it
    c.undo()
    assert view.selected_pair() in (watched, None)
    # with a filter typed, the pick follows its pair among the rows shown
    view.filter.setText("e")
    _select_row(view, 2)
    watched = view.selected_pair()
    c.step()
    rows = [r[0] for r in view.model.rows]
    assert view.selected_pair() == (watched if watched in rows else None)
    if watched in rows:
        shown = view.table.model().mapFromSource(view.model.index(rows.index(watched), 1))
        assert _highlighted(view) == [shown.data()]


def test_compared_token_views_are_the_same_height(qtbot, trained):
    """Side by side, the pane whose text has characters cut into bytes had two lines of them under its
    tokens, and its token view was two lines shorter than the other's: their lines did not match."""
    from core.tokenization.tokenizer import Tokenizer

    w = trained
    w.resize(1280, 672)
    tv = w.tokenize
    vocab = {i: bytes([i]) for i in range(256)}
    vocab[256] = "é".encode()
    other = Tokenizer(vocab, [(b"\xc3", b"\xa9")], [])
    tv.set_text("the café, the cat")
    tv.set_comparison(other, "other")
    assert tv.wait_idle()
    primary, secondary = tv.primary, tv.secondary
    qtbot.waitUntil(lambda: primary.split_chars.isVisibleTo(w) and not secondary.split_chars.isVisibleTo(w))
    qtbot.waitUntil(lambda: primary.view.height() == secondary.view.height())
    assert primary.view.geometry().top() == secondary.view.geometry().top()
    tv.set_comparison(None)
    # alone again, the split characters take no room when there are none
    tv.set_text("the cat")
    assert tv.wait_idle()
    assert (
        not primary.split_chars.isVisibleTo(w) and not primary.split_chars.sizePolicy().retainSizeWhenHidden()
    )


def test_the_merge_panes_are_not_titled_twice(qtbot, window):
    """The tabs "Selected merge" and "What happened" each had the same words again as a title above
    the text: a line of the story fewer at 1280×720."""
    from PySide6.QtWidgets import QLabel

    w = window
    tabs = w.info_tabs
    for i in range(tabs.count()):
        pane = tabs.widget(i)
        name = tabs.tabText(i)
        shown = [lab.text() for lab in pane.findChildren(QLabel) if lab.isVisibleTo(w)]
        assert not any(name in text for text in shown), (name, shown)
        # the text starts right under the tab bar
        assert pane.browser.geometry().top() <= 12


def test_the_tokenize_view_marks_the_token_of_the_selected_merge(qtbot, trained):
    """Every view followed a merge picked in the list (timeline, details, vocab, tree) but the
    tokenize view: the learner could not see where the merge's token stands in the text."""
    w, c = trained, trained.controller
    tv = w.tokenize
    tv.set_text("the cat sat on the mat. the dog")
    assert tv.wait_idle()
    view = tv.primary.view
    assert view.extraSelections() == []
    spans = view.spans
    made = [s.token for s in spans if c.index.rank_of.get(s.token) is not None]
    token = max(made, key=lambda t: sum(s.token == t for s in spans))  # (" the" or "the": more than once)
    want = [i for i, s in enumerate(spans) if s.token == token]
    assert len(want) >= 2
    rank = c.index.rank_of[token]
    c.select_merge(rank)
    marks = view.extraSelections()
    # each place the token stands is marked, and only those
    assert [m.cursor.selectionStart() for m in marks] == [view.starts[i] for i in want]
    text = view.toPlainText()
    for m in marks:
        shown = text[m.cursor.selectionStart() : m.cursor.selectionEnd()].replace("\u2060", "")
        assert shown.replace("·", " ") == token.decode()
    info = tv.primary.info.text()
    assert f"#{rank + 1}" in info and f"{len(want)} times" in info, info
    # a new text is marked the same way, without picking the merge again
    tv.set_text("the end of the cat")
    assert tv.wait_idle()
    assert len(view.extraSelections()) == sum(s.token == token for s in view.spans)
    # a merge whose token the text does not hold as a token of its own: nothing marked, and why
    absent = next(m for m in c.index.merges if all(s.token != m.token for s in view.spans))
    c.select_merge(absent.rank)
    assert view.extraSelections() == []
    assert "not a token of its own" in tv.primary.info.text()
    assert tv.primary.info.toolTip() == tv.primary.info.text()  # (whole where the line is too narrow)
    # Reset: no merge is selected, nothing is marked
    c.select_merge(rank)
    assert c.reset()
    qtbot.waitUntil(lambda: c.index.n_merges == 0 and not c.busy)
    assert c.selected_merge is None and tv.wait_idle()
    qtbot.waitUntil(lambda: view.extraSelections() == [])
    assert "orange" not in tv.primary.info.text() and "Hover a token" in tv.primary.info.text()


def test_the_hover_line_forgets_the_token_when_the_pointer_leaves(qtbot, trained):
    """The line under the tokens kept the last hovered token's details after the pointer left, over
    what it says with none hovered (what the orange tokens are)."""
    from PySide6.QtCore import QEvent, QPointF, Qt
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    w, c = trained, trained.controller
    tv = w.tokenize
    tv.set_text("the cat sat on the mat")
    assert tv.wait_idle()
    pane, view = tv.primary, tv.primary.view
    rank = c.index.rank_of[view.spans[0].token]
    c.select_merge(rank)
    note = pane.info.text()
    assert f"#{rank + 1}" in note
    view.moveCursor(view.textCursor().MoveOperation.Start)
    pos = QPointF(view.cursorRect().center()) + QPointF(3, 0)
    move = QMouseEvent(
        QEvent.Type.MouseMove,
        pos,
        pos,
        Qt.MouseButton.NoButton,
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(view.viewport(), move)
    assert pane.info.text().startswith(f"<b>id {view.spans[0].id}</b>")
    QApplication.sendEvent(view, QEvent(QEvent.Type.Leave))  # the pointer leaves the text
    assert pane.info.text() == note


def test_a_picked_merge_whose_token_is_out_of_sight_is_scrolled_to(qtbot, trained):
    from PySide6.QtGui import QTextCursor

    w, c = trained, trained.controller
    w.resize(1280, 672)
    tv = w.tokenize
    filler = "zq " * 400  # (no merge of the small corpus makes "zq")
    tv.set_text(filler + "lighthouse")
    assert tv.wait_idle()
    view = tv.primary.view
    bar = view.verticalScrollBar()
    assert bar.maximum() > 0 and bar.value() == 0
    token = max((s.token for s in view.spans), key=len)
    assert c.index.rank_of.get(token) is not None and token.strip() in b"lighthouse"
    c.select_merge(c.index.rank_of[token])
    (mark,) = view.extraSelections()
    at = QTextCursor(view.document())
    at.setPosition(mark.cursor.selectionStart())
    assert bar.value() > 0 and view.viewport().rect().intersects(view.cursorRect(at))
    # typing on (the text tokenized again) leaves the scroll where the user has it
    bar.setValue(0)
    tv.set_text(filler + "lighthouse ")
    assert tv.wait_idle()
    assert bar.value() == 0


def test_a_token_picked_in_the_longest_list_selects_its_merge_in_every_view(qtbot, trained):
    """Picking a token in "Longest" showed its merge tree and nothing else: the selected merge, the
    timeline and the lists stayed on the merge picked before (the Vocab tab selected it)."""
    from PySide6.QtCore import Qt

    w, c = trained, trained.controller
    br = w.browser
    c.select_merge(0)
    br.tabs.setCurrentWidget(br.lists.longest)
    role = Qt.ItemDataRole.UserRole
    qtbot.waitUntil(lambda: len(br.lists.longest.item(0).data(role)) > 1)  # (refreshed after the run)
    item = br.lists.longest.item(0)
    token = item.data(role)
    rank = c.index.rank_of[token]
    assert rank != 0
    br.lists.longest.setCurrentItem(item)
    assert c.selected_merge == rank
    assert w.details.rank == rank and w.timeline.selected == rank
    assert br.merges_proxy.mapToSource(br.merges_table.currentIndex()).row() == rank
    assert br.tree.topLevelItem(0).text(1) == str(c.index.merges[rank].token_id)
    assert br.tabs.currentWidget() is br.lists.longest  # (the list stays on show)


def test_pasted_crlf_text_keeps_its_carriage_returns(qtbot, trained, tmp_path):
    """Qt's text edit turned a pasted \\r\\n into a line break alone (and a lone \\r into \\n): the
    learner pasting Windows code never saw the \\r tokens the tokenizer makes of it."""
    from PySide6.QtCore import QMimeData

    from core.formats.session import load_session

    w = trained
    tv = w.tokenize
    pasted = "def f(x):\r\n\treturn x\r\nold mac\rend"
    tv.input.clear()
    data = QMimeData()
    data.setText(pasted)
    tv.input.insertFromMimeData(data)  # what Ctrl+V does with the clipboard's text
    assert tv.input.text() == pasted
    assert tv.input.toPlainText().count("\u21e4") == 3  # (shown as ⇤)
    assert tv.wait_idle()
    spans = tv.primary.view.spans
    assert b"".join(s.token for s in spans) == pasted.encode()
    assert sum(s.token.count(b"\r") for s in spans) == 3
    assert "⇤" in tv.primary.view.toPlainText()
    # the session keeps the text as it was pasted, and gives it back so
    path = w.save_session(str(tmp_path / "s.bpe.json"))
    assert path is not None and load_session(path).text == pasted
    tv.set_text("a\rb")
    assert tv.input.text() == "a\rb" and tv.wait_idle()
    assert [s.token for s in tv.primary.view.spans if b"\r" in s.token]


def test_a_pasted_text_is_tokenized_character_for_character(qtbot, trained):
    """The text was read with toPlainText(), which turns a no-break space into a space and a line
    separator into \\n, and every ⇤ into \\r: a text pasted from a web page got other ids than
    Tokenizer.encode (and the CLI) give it."""
    from PySide6.QtCore import QMimeData
    from PySide6.QtGui import QTextCursor

    tv = trained.tokenize
    pasted = "prix\u00a0: 12\u00a0€ — voir\u2028ci-dessous ⇤ retour\r\nfin"
    tv.input.clear()
    data = QMimeData()
    data.setText(pasted)
    tv.input.insertFromMimeData(data)
    assert tv.input.text() == pasted
    assert tv.wait_idle()
    ids = [s.id for s in tv.primary.view.spans]
    assert ids == trained.controller.tokenizer().encode(pasted)
    assert b"".join(s.token for s in tv.primary.view.spans) == pasted.encode()
    # typed after a carriage return, a ⇤ stays itself; a session's text comes back the same
    tv.input.moveCursor(QTextCursor.MoveOperation.End)
    tv.input.insertPlainText("⇤")
    assert tv.input.text() == pasted + "⇤"
    tv.set_text(pasted)
    assert tv.input.text() == pasted
    # copied and pasted back (Ctrl+A, Ctrl+C, Ctrl+V), the text is the same: its \\r, no-break spaces …
    tv.input.selectAll()
    copied = tv.input.createMimeDataFromSelection()
    assert copied.text() == pasted
    tv.input.clear()
    tv.input.insertFromMimeData(copied)
    assert tv.input.text() == pasted


def test_a_pasted_paragraph_separator_is_kept(qtbot, trained):
    """A paragraph separator (U+2029) became a line break in the text edit, so the text was tokenized
    with \\n in its place: other ids than Tokenizer.encode's. It is kept, shown as ¶, and a ¶ typed
    or pasted as itself stays a ¶."""
    from PySide6.QtCore import QMimeData
    from PySide6.QtGui import QTextCursor

    tv = trained.tokenize
    pasted = "first paragraph\u2029second one\u2028same paragraph ¶ pilcrow\r\n\u2029\u2029end"
    tv.input.clear()
    data = QMimeData()
    data.setText(pasted)
    tv.input.insertFromMimeData(data)
    assert tv.input.text() == pasted
    assert tv.wait_idle()
    ids = [s.id for s in tv.primary.view.spans]
    assert ids == trained.controller.tokenizer().encode(pasted)
    assert b"".join(s.token for s in tv.primary.view.spans) == pasted.encode()
    # copied from the box, it comes back as pasted; typed after it, a ¶ is itself; sessions keep it
    tv.input.selectAll()
    assert tv.input.createMimeDataFromSelection().text() == pasted
    tv.input.moveCursor(QTextCursor.MoveOperation.End)
    tv.input.insertPlainText("¶")
    assert tv.input.text() == pasted + "¶"
    tv.set_text("only\u2029paragraphs")
    assert tv.input.text() == "only\u2029paragraphs"


def test_a_step_with_no_merge_selected_brings_what_happened_to_the_front(qtbot, loaded):
    """After Step the front tab (Selected merge) only said "click a point of the timeline or a row of
    the merges list": the story of the merge just made was behind the other tab."""
    w, c = loaded, loaded.controller
    tabs = w.info_tabs
    assert tabs.currentWidget() is w.details and c.selected_merge is None
    c.step()
    assert tabs.currentWidget() is w.story
    assert "→" in w.story.browser.toPlainText().splitlines()[0]
    # once the learner picks a merge and reads its details, steps leave that tab on show
    c.select_merge(0)
    tabs.setCurrentWidget(w.details)
    c.step()
    assert tabs.currentWidget() is w.details and w.details.rank == 0
    # after Reset (nothing selected) a Train brings the story of its last merge to the front
    assert c.reset()
    qtbot.waitUntil(lambda: c.index.n_merges == 0 and not c.busy)
    tabs.setCurrentWidget(w.details)
    with qtbot.waitSignal(c.trained, timeout=60_000):
        c.train(300)
    assert tabs.currentWidget() is w.story


def test_the_left_column_scrolls_back_after_a_run_started_from_a_field(qtbot, small_corpus):
    """In Chinese at 1280×720, with the cursor left in a training field (the vocab size just typed,
    then Tab), Train disabled that field and the column scrolled to the next focused widget before the
    window heard of the run: afterwards the column stayed there, the corpus panel cut off at the top."""
    with shown_window(qtbot, "zh_CN") as w:
        c, tp = w.controller, w.training_panel
        load(qtbot, w, small_corpus)
        bar = w.left_scroll.verticalScrollBar()
        bar.setValue(0)
        w.activateWindow()
        tp.specials.setFocus()
        qtbot.waitUntil(tp.specials.hasFocus)
        moved = []
        bar.valueChanged.connect(lambda v: moved.append(v) if c.busy else None)
        with qtbot.waitSignal(c.trained, timeout=60_000):
            c.train(320)
        qtbot.waitUntil(lambda: not c.busy)
        assert moved and moved[0] > 0  # (the run scrolled the column: else this test says nothing)
        assert bar.value() == 0
