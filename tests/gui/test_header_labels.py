"""Column labels are readable on a laptop (1280×720 and 1366×768, English and Chinese): the vocab's
Bytes column, wider than the pane for a tokenizer with long tokens, showed "Byt" at the pane's edge;
the overlap dialog cut "Tokens (this app)"; no column is narrower than its label."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QStyle

from bpe_gui.text import i18n

from .gui_helpers import import_tokenizer, load

SIZES = [(1280, 720), (1366, 768)]


def _label_width(header, col: int) -> int:
    text = str(header.model().headerData(col, Qt.Orientation.Horizontal))
    return header.fontMetrics().horizontalAdvance(text)


def _ink_width(header, left: int, right: int) -> int:
    """How wide the dark (text) pixels are between ``left`` and ``right`` on the header's image."""
    img = header.viewport().grab().toImage()
    xs = [
        x
        for x in range(max(left, 0), min(right, img.width()))
        if any(QColor(img.pixel(x, y)).lightness() < 140 for y in range(2, img.height() - 2))
    ]
    return xs[-1] - xs[0] + 1 if xs else 0


def _text_ink(header, text: str) -> int:
    """How wide the dark pixels of ``text`` alone are in the header's font (a full-width bracket's
    glyph is partly blank)."""
    from PySide6.QtGui import QImage, QPainter

    need = header.fontMetrics().horizontalAdvance(text)
    img = QImage(need + 20, header.fontMetrics().height() + 8, QImage.Format.Format_RGB32)
    img.fill(QColor("white"))
    painter = QPainter(img)
    painter.setFont(header.font())
    painter.setPen(QColor("black"))
    painter.drawText(10, header.fontMetrics().ascent() + 4, text)
    painter.end()
    xs = [
        x
        for x in range(img.width())
        if any(QColor(img.pixel(x, y)).lightness() < 140 for y in range(img.height()))
    ]
    return xs[-1] - xs[0] + 1 if xs else 0


def cut_labels(table) -> list[str]:
    """The labels of ``table``'s columns in sight that are not shown whole: a column narrower than
    its label, or a label whose drawn text is narrower than the text (cut at the pane's edge)."""
    header = table.horizontalHeader()
    room = header.viewport().width()
    margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
    cut = []
    for col in range(header.count()):
        if header.isSectionHidden(col):
            continue
        text = str(header.model().headerData(col, Qt.Orientation.Horizontal))
        need = _label_width(header, col)
        if header.sectionSize(col) < need + 2 * margin:
            cut.append(f"{text} (column {header.sectionSize(col)} px)")
            continue
        left = header.sectionViewportPosition(col)
        shown_left, shown_right = max(left, 0), min(left + header.sectionSize(col), room)
        if shown_right - shown_left < need + 2 * margin + 4:
            continue  # (a sliver of a column at the edge: it scrolls into sight)
        ink, whole = _ink_width(header, shown_left + 2, shown_right - 2), _text_ink(header, text)
        if ink < whole - 2:
            cut.append(f"{text} (drawn {ink} of {whole} px)")
    return cut


@pytest.fixture(params=["en", "zh_CN"])
def any_window(qtbot, request):
    from bpe_gui import create_window

    w = create_window(load_sample=False, language=request.param)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    yield w
    i18n.install("en")


def _long_tokens(tmp_path):
    """A GPT-2 style tokenizer with long tokens (dashes up to 64 bytes) and Chinese ones."""
    from core.formats import export_all
    from core.formats.spec import TokenizerSpec

    merges = [(b"-", b"-")]
    token = b"--"
    for _ in range(5):
        merges.append((token, token))
        token += token
    word = "我们的模型学习".encode()
    merges += [(word[:k], word[k : k + 1]) for k in range(1, len(word))]
    export_all(tmp_path, TokenizerSpec.from_merges(merges), "gpt2")
    return tmp_path / "vocab.json", len(merges)


@pytest.mark.parametrize("size", SIZES)
def test_the_vocab_and_merges_labels_are_whole_for_long_tokens(qtbot, any_window, tmp_path, size):
    w = any_window
    w.resize(*size)
    c, b = w.controller, w.browser
    path, n = _long_tokens(tmp_path)
    import_tokenizer(qtbot, c, path)
    qtbot.waitUntil(lambda: not c.busy and b.merges_table.model().rowCount() == n)
    for tab, table in ((1, b.vocab_table), (0, b.merges_table)):
        b.tabs.setCurrentIndex(tab)
        qtbot.waitUntil(table.isVisible)
        header = table.horizontalHeader()
        if tab == 1:  # (the case: a column runs past the pane's edge)
            last = max(i for i in range(header.count()) if not header.isSectionHidden(i))
            assert header.sectionViewportPosition(last) + header.sectionSize(last) > header.viewport().width()
        assert not cut_labels(table), (tab, cut_labels(table))
        # scrolled sideways, the labels in sight are whole too (each is drawn again where it shows)
        bar = table.horizontalScrollBar()
        for value in (bar.maximum() // 2, bar.maximum()):
            bar.setValue(value)
            qtbot.wait(10)
            assert not cut_labels(table), (tab, value, cut_labels(table))
        bar.setValue(0)


@pytest.mark.parametrize("size", SIZES)
def test_the_merges_count_label_is_whole_after_training(qtbot, any_window, tmp_path, size):
    w = any_window
    w.resize(*size)
    corpus = tmp_path / "zh.txt"
    corpus.write_text(
        ("我们的模型学习分词，训练数据很小。\n" * 40 + "训练 训练 词表 词表\n" * 30) * 40, encoding="utf-8"
    )
    load(qtbot, w, corpus)
    c, b = w.controller, w.browser
    with qtbot.waitSignal(c.trained, timeout=60_000):
        c.train(300)
    qtbot.waitUntil(lambda: b.merges_table.model().rowCount() == c.index.n_merges)
    assert not b.merges_table.isColumnHidden(5)  # (Count: a trained corpus has counts)
    for tab, table in ((0, b.merges_table), (1, b.vocab_table)):
        b.tabs.setCurrentIndex(tab)
        qtbot.waitUntil(table.isVisible)
        assert not cut_labels(table), (tab, cut_labels(table))


def test_the_overlap_dialogs_labels_are_whole(qtbot, any_window, tmp_path, small_corpus):
    from bpe_gui.dialogs.overlap_dialog import open_overlap

    w = any_window
    w.resize(1280, 720)
    load(qtbot, w, small_corpus)
    c = w.controller
    with qtbot.waitSignal(c.trained, timeout=60_000):
        c.train(330)
    c.export(tmp_path, ["gpt2"])
    path, _n = _long_tokens(tmp_path / "long")
    with qtbot.waitSignal(c.tokenizer_loaded, timeout=30_000):
        assert w.compare_with(path)
    dlg = open_overlap(w)
    assert not cut_labels(dlg.files_table)  # (before a run, too)
    dlg.add_file(str(small_corpus))
    with qtbot.waitSignal(dlg.finished_compare, timeout=60_000):
        assert dlg.run()
    for k in range(dlg.tabs.count()):
        dlg.tabs.setCurrentIndex(k)
        table = dlg.tabs.currentWidget()
        qtbot.waitUntil(table.isVisible)
        assert not cut_labels(table), (dlg.tabs.tabText(k), cut_labels(table))
        header = table.horizontalHeader()
        last = header.count() - 1  # every column in sight ("Id there" went out of sight)
        assert header.sectionViewportPosition(last) + header.sectionSize(last) <= header.viewport().width()
    long = dlg.tables["only_b"]
    row = next(r for r in range(long.rowCount()) if long.item(r, 2).text().startswith("2d 2d 2d 2d 2d"))
    assert "2d 2d 2d" in long.item(row, 2).toolTip()  # (cut in its cell, whole in its tooltip)
    dlg.close()
