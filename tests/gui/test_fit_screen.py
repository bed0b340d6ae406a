"""Fit the screen: the window works at 1280×700 (and narrower), splitters remember their sizes."""

from __future__ import annotations

from .gui_helpers import load


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
    from bpe_gui import create_window

    window.resize(1280, 700)
    main = window.splitters["main"]
    sizes = main.sizes()
    main.setSizes([sizes[0] + 60, sizes[1] - 60, sizes[2]])
    wanted = main.sizes()
    window.close()
    w2 = create_window(load_sample=False)
    qtbot.addWidget(w2)
    w2.resize(1280, 700)
    w2.show()
    qtbot.waitExposed(w2)
    assert w2.splitters["main"].sizes() == wanted
    w2.controller.shutdown()


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
