"""Fit the screen: the window works at 1280×700 (and narrower), splitters remember their sizes."""

from __future__ import annotations

from .gui_helpers import load, shown_window


def test_the_window_fits_a_small_laptop_screen(qtbot, window):
    hint = window.minimumSizeHint()
    assert hint.width() <= 1024 and hint.height() <= 700, hint
    window.resize(1280, 700)
    qtbot.waitUntil(lambda: window.height() <= 700)
    # the left column scrolls instead of forcing the window taller
    assert window.left_scroll.widget().minimumSizeHint().height() > window.left_scroll.viewport().height()
    assert window.left_scroll.verticalScrollBar().maximum() > 0


def test_pair_column_stays_readable_at_1024_px(qtbot, window, small_corpus):
    load(qtbot, window, small_corpus)
    window.resize(1024, 700)
    qtbot.waitUntil(lambda: window.width() <= 1024)
    table = window.pairs.table
    assert table.columnWidth(1) >= 80, (table.columnWidth(1), window.splitters["main"].sizes(), table.width())
    assert table.textElideMode().name == "ElideMiddle"


def test_splitter_sizes_are_remembered(qtbot, window):
    window.resize(1280, 700)
    main = window.splitters["main"]
    sizes = main.sizes()
    main.setSizes([sizes[0] + 60, sizes[1] - 60, sizes[2]])
    wanted = main.sizes()
    window.close()
    with shown_window(qtbot, size=(1280, 700)) as w2:
        assert w2.splitters["main"].sizes() == wanted


def test_screenshot_reopens_a_session_at_a_laptop_size(qtbot, loaded, tmp_path):
    from PySide6.QtGui import QImage

    from bpe_gui.screenshot import render

    c = loaded.controller
    c.step(12)
    qtbot.waitUntil(lambda: not c.busy and c.index.n_merges == 12, timeout=30_000)
    session = loaded.save_session(str(tmp_path / "s.bpe.json"))
    out = render(tmp_path / "shot.png", size=(1280, 720), session=session)
    img = QImage(str(out))
    assert (img.width(), img.height()) == (1280, 720)


def test_large_counts_and_changes_fit_their_columns(window):
    """On a large corpus counts have 9 digits and their changes 7: shown whole, not elided."""
    table = window.pairs.table
    fm = table.fontMetrics()
    assert table.columnWidth(2) > fm.horizontalAdvance("12,345,678") + 8
    assert table.columnWidth(3) > fm.horizontalAdvance("-1,234,566") + 8


# ---------------------------------------------------------------- panels on a laptop's screen
def _laptop(monkeypatch, width: int, height: int):
    """The screen's free area is a laptop's (the offscreen screen is 800×800)."""
    from PySide6.QtCore import QRect

    from bpe_gui.views import screen_fit

    monkeypatch.setattr(screen_fit, "free_area", lambda _widget: QRect(0, 0, width, height))


def _fitted_after(qtbot, window, action) -> None:
    """Do ``action`` (open, float or dock the Evaluate panel) and wait until the window has fitted it."""
    with qtbot.waitSignal(window.evaluate_fit.fitted, timeout=5_000):
        action()


def _fits(widget, width: int, height: int) -> bool:
    from bpe_gui.views.screen_fit import FRAME_HEIGHT, FRAME_WIDTH

    return widget.width() + FRAME_WIDTH <= width and widget.height() + FRAME_HEIGHT <= height


def test_on_a_laptop_evaluate_opens_floated_on_the_screen_without_growing_the_window(
    qtbot, monkeypatch, window, small_corpus
):
    _laptop(monkeypatch, 1366, 768)
    window.resize(window.fitting_size(1400, 900))
    window.move(0, 0)
    load(qtbot, window, small_corpus)
    c = window.controller
    c.step(30)
    qtbot.waitUntil(lambda: not c.busy and c.index.n_merges == 30, timeout=30_000)
    before = window.size()
    assert _fits(window, 1366, 768), before
    dock = window.evaluate_dock
    # Evaluate → Evaluate tokenizers… (Ctrl+Shift+E)
    _fitted_after(qtbot, window, dock.toggleViewAction().trigger)
    assert dock.isFloating() and window.size() == before
    g = dock.geometry()
    assert g.left() >= 0 and g.top() >= 0 and g.right() < 1366 and g.bottom() < 768, g
    assert dock.height() >= 500  # a real panel, not a sliver under the views
    # docked again by the user, it stays docked: the window keeps its size, the panel scrolls
    _fitted_after(qtbot, window, lambda: dock.setFloating(False))
    assert not dock.isFloating() and window.size() == before
    assert _fits(window, 1366, 768)
    from bpe_gui.views.timeline_view import GRAPH_COMPACT_HEIGHT, GRAPH_MIN_HEIGHT

    assert window.timeline.graphics.height() >= GRAPH_COMPACT_HEIGHT  # (the panel docked below)
    # the axis titles (longer than such short plots) hide rather than overlap; they come back with room
    from bpe_gui.views.timeline_view import AXIS_TITLES_FROM

    left = window.timeline.count_plot.getAxis("left")
    window.splitters["middle"].setSizes([1, 10_000])  # the timeline as short as it goes
    qtbot.waitUntil(lambda: window.timeline.graphics.height() < AXIS_TITLES_FROM)
    assert window.timeline.graphics.height() >= GRAPH_COMPACT_HEIGHT and not left.label.isVisible()
    # everything the window needs with the panel open fits a 1280×720 screen less a 48-px task bar
    assert window.minimumSizeHint().height() + 48 <= 720 - 48, window.minimumSizeHint()
    dock.toggleViewAction().trigger()
    qtbot.waitUntil(lambda: not dock.isVisible())
    assert window.size() == before
    assert window.timeline.graphics.minimumHeight() == GRAPH_MIN_HEIGHT  # the panel closed: as tall as before
    window.splitters["middle"].setSizes([10_000, 1])
    qtbot.waitUntil(lambda: window.timeline.graphics.height() >= AXIS_TITLES_FROM)
    assert left.label.isVisible()


def test_on_a_tall_screen_evaluate_docks_below_the_views(qtbot, monkeypatch, window):
    _laptop(monkeypatch, 1920, 1200)
    window.resize(window.fitting_size(1400, 1100))
    before = window.size()
    dock = window.evaluate_dock
    _fitted_after(qtbot, window, dock.show)
    assert not dock.isFloating() and window.size() == before
    assert dock.height() >= 260


def test_evaluate_dock_gives_the_window_its_size_back(qtbot, monkeypatch, window):
    """Even where the window had to grow (a window made smaller than both need), it shrinks back."""
    _laptop(monkeypatch, 1280, 720)
    window.resize(window.fitting_size(1280, 720))
    before = window.size()
    dock = window.evaluate_dock
    _fitted_after(qtbot, window, dock.show)
    assert _fits(window, 1280, 720), window.size()
    dock.close()
    qtbot.waitUntil(lambda: window.size() == before)


def test_a_panel_floated_by_the_user_opens_on_the_screen(qtbot, monkeypatch, window):
    _laptop(monkeypatch, 1600, 1000)
    window.resize(1400, 900)
    window.move(180, 90)  # near the screen's bottom right corner: the panel must not follow it off
    dock = window.evaluate_dock
    _fitted_after(qtbot, window, dock.show)
    assert not dock.isFloating()
    # the panel's float button, or a double click on its title
    _fitted_after(qtbot, window, lambda: dock.setFloating(True))
    g = dock.geometry()
    assert g.left() >= 0 and g.top() >= 0, g
    assert _fits(dock, 1600, 1000), g
    assert g.right() < 1600 and g.bottom() < 1000, g


def test_learn_fits_a_1280x720_screen_and_esc_closes_it(qtbot, monkeypatch, window):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from bpe_gui.views.learn_view import open_learn

    _laptop(monkeypatch, 1280, 720)
    window.move(0, 0)
    learn = open_learn(window)
    qtbot.waitExposed(learn)
    assert _fits(learn, 1280, 720), learn.size()
    g = learn.geometry()
    assert g.left() >= 0 and g.top() >= 0 and g.right() < 1280 and g.bottom() < 720, g
    learn.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is learn)
    QTest.keyClick(learn.windowHandle(), Qt.Key.Key_Escape)  # as the window system delivers a key
    qtbot.waitUntil(lambda: not learn.isVisible())


def test_step_and_train_are_in_sight_on_a_1280x720_laptop(qtbot):
    from PySide6.QtCore import QPoint

    with shown_window(qtbot) as w:
        left, viewport, tp = w.splitters["left"], w.left_scroll.viewport(), w.training_panel
        buttons = (tp.step_button, tp.undo_button, tp.train_button)

        def in_sight() -> bool:
            return all(0 < b.mapTo(viewport, QPoint(0, b.height())).y() <= viewport.height() for b in buttons)

        qtbot.waitUntil(in_sight)  # once the window is shown, the left column is fitted to it
        assert left.sizes()[1] >= 140  # the selected merge keeps a pane of its own, a few lines tall


def test_cancel_comes_into_sight_while_a_task_runs_on_a_laptop(qtbot, small_corpus):
    """In Chinese at 1280×720 the left column scrolls and Cancel was below the fold during a run."""
    from PySide6.QtCore import QPoint

    with shown_window(qtbot, "zh_CN") as w:
        viewport, tp = w.left_scroll.viewport(), w.training_panel

        def in_sight(b) -> bool:
            top = b.mapTo(viewport, QPoint(0, 0)).y()
            return top >= 0 and top + b.height() <= viewport.height()

        qtbot.waitUntil(lambda: in_sight(tp.step_button))
        w.left_scroll.verticalScrollBar().setValue(0)
        load(qtbot, w, small_corpus)
        w.left_scroll.verticalScrollBar().setValue(0)
        assert not in_sight(tp.cancel_button)  # (else this test says nothing on this screen)
        seen = []
        w.controller.busy_changed.connect(lambda busy: seen.append(bool(busy) and in_sight(tp.cancel_button)))
        with qtbot.waitSignal(w.controller.trained, timeout=60_000):
            w.controller.train(320)
        assert seen and seen[0] is True
        # afterwards the column is back where the user had it (at the top, the corpus in sight)
        assert w.left_scroll.verticalScrollBar().value() == 0
        # … unless the user scrolled meanwhile
        bar = w.left_scroll.verticalScrollBar()
        bar.setValue(0)
        moved = []

        def user_scrolls(busy) -> None:
            if busy and not moved:
                bar.triggerAction(bar.SliderAction.SliderPageStepAdd)
                moved.append(bar.value())

        w.controller.busy_changed.connect(user_scrolls)
        with qtbot.waitSignal(w.controller.trained, timeout=60_000):
            w.controller.train(340)
        qtbot.waitUntil(lambda: not w.controller.busy)
        assert moved and moved[0] > 0 and bar.value() > 0  # (not put back to the top)


def test_the_left_column_is_fitted_again_when_an_import_adds_lines(qtbot, small_corpus, tmp_path):
    """After an import the corpus panel gains lines and a button: Train went below a laptop's fold
    until the user dragged the splitter."""
    from PySide6.QtCore import QPoint

    from .gui_helpers import import_tokenizer

    with shown_window(qtbot, "zh_CN") as w:
        viewport, tp = w.left_scroll.viewport(), w.training_panel

        def train_in_sight() -> bool:
            b = tp.train_button
            return 0 < b.mapTo(viewport, QPoint(0, b.height())).y() <= viewport.height()

        load(qtbot, w, small_corpus)
        with qtbot.waitSignal(w.controller.trained, timeout=60_000):
            w.controller.train(300)
        w.controller.export(tmp_path, ["gpt2"])
        import_tokenizer(qtbot, w.controller, tmp_path / "vocab.json")
        qtbot.waitUntil(lambda: not w.controller.busy)
        assert w.corpus_panel.continue_button.isVisibleTo(w)  # (an import: Step and Train are off)
        with qtbot.waitSignal(w.controller.corpus_loaded, timeout=60_000):  # an extension session
            assert w.controller.continue_training(str(small_corpus))
        qtbot.waitUntil(lambda: not w.controller.busy)
        w.left_scroll.verticalScrollBar().setValue(0)
        qtbot.waitUntil(train_in_sight)


def test_on_a_1280x720_laptop_the_tokens_get_the_height_before_the_text_input(qtbot):
    # (the input took its whole 110 px and left the token view two lines of the four-line default
    # text in Chinese; the tokens are what the view is for)
    for language in ("zh_CN", "en"):
        with shown_window(qtbot, language) as w:
            t = w.tokenize
            qtbot.waitUntil(lambda t=t: t.primary.view.height() > 0)
            line = t.input.fontMetrics().lineSpacing()
            assert t.primary.view.height() > t.input.height(), (
                language,
                t.primary.view.height(),
                t.input.height(),
            )
            assert t.input.height() >= 3 * line  # three lines of the text still in sight
    with shown_window(qtbot, "zh_CN", size=(1920, 1040)) as w:  # a tall window gives the input its 110 px
        assert w.tokenize.input.height() == w.tokenize.input.maximumHeight() == 110


def test_after_a_restart_step_undo_and_train_are_in_sight_on_a_1366x768_laptop(qtbot, small_corpus):
    """The column fitted to the story (scrolled to the training panel, the corpus panel's room given
    to the story) was saved as the user's layout and restored without its scroll: Step, Undo and
    Train stayed below the fold after a restart, also after more steps."""
    from PySide6.QtCore import QPoint

    size = (1366, 768)

    def buttons_in_sight(w) -> bool:
        viewport, tp = w.left_scroll.viewport(), w.training_panel
        return all(
            b.mapTo(viewport, QPoint(0, 0)).y() >= 0
            and b.mapTo(viewport, QPoint(0, b.height())).y() <= viewport.height()
            for b in (tp.step_button, tp.undo_button, tp.train_button)
        )

    with shown_window(qtbot, size=size) as w:
        load(qtbot, w, small_corpus)
        for _ in range(2):
            with qtbot.waitSignal(w.controller.stepped, timeout=30_000):
                w.controller.step(1)
        # fitted for reading: the column scrolled to the training panel, the story given its room
        qtbot.waitUntil(lambda: w._reading_fitted and w.left_scroll.verticalScrollBar().value() > 0)
        assert buttons_in_sight(w)
        fitted = w.splitters["left"].sizes()
        w.close()
    with shown_window(qtbot, size=size) as w2:
        qtbot.waitUntil(lambda: buttons_in_sight(w2))
        load(qtbot, w2, small_corpus)
        for _ in range(3):
            with qtbot.waitSignal(w2.controller.stepped, timeout=30_000):
                w2.controller.step(1)
            qtbot.waitUntil(lambda: buttons_in_sight(w2))
        # a column the user sized is theirs: restored as they left it
        sp = w2.splitters["left"]
        total = sum(sp.sizes())
        sp.setSizes([total // 2, total - total // 2])
        sp.splitterMoved.emit(total // 2, 1)  # (what a drag of the handle signals)
        mine = sp.sizes()
        assert mine != fitted
        w2.close()
    with shown_window(qtbot, size=size) as w3:
        qtbot.waitUntil(lambda: w3.splitters["left"].sizes() == mine)
        # a column an earlier version saved (fitted by the window, under the old key) is not restored
        w3.settings.remove_splitter_state("left_by_user")
        w3.settings.set_splitter_state("left", w3.splitters["left"].saveState())
        w3.settings.sync()
    with shown_window(qtbot, size=size) as w4:
        assert not w4._left_by_user
        qtbot.waitUntil(lambda: buttons_in_sight(w4))


def test_a_long_reason_under_the_custom_regex_is_shown_whole(qtbot):
    """A four-line reason (a regex that can match the empty string) got two lines' height, cut
    through its first and last line."""
    with shown_window(qtbot, "zh_CN", size=(1280, 720)) as w:
        tp = w.training_panel
        tp.pattern.setCurrentIndex(tp.pattern.findData("custom"))
        for text in (r"\p{L}*|\s+|\d", "(", r"\w+|\s+"):
            tp.custom.setText(text)
            hint = tp.pattern_hint
            if not hint.isVisible():
                continue
            qtbot.waitUntil(lambda h=hint: h.width() > 0 and h.height() >= h.heightForWidth(h.width()))
        tp.custom.setText(r"\p{L}*|\s+|\d")
        assert (
            tp.pattern_hint.heightForWidth(tp.pattern_hint.width())
            > 3 * tp.pattern_hint.fontMetrics().height()
        )
