"""Help → What is BPE? opens a plain-words introduction before the code walk-through: what a tokenizer
is, bytes → pairs → merges, what the window's views show and what to click first, in English and in
Chinese; from it the sample corpus opens and Learn mode follows. (It opened Learn mode at the first
line of code: nothing for someone who had never trained a tokenizer.)"""

from __future__ import annotations

import re

from PySide6.QtWidgets import QDialog, QMainWindow, QPushButton, QTextBrowser

from .gui_helpers import shown_window


def _open_intro(window) -> QDialog:
    help_menu = next(a for a in window.menuBar().actions() if a.menu() and a.text() == window.tr("&Help"))
    help_menu.menu().actions()[1].trigger()  # Help → What is BPE? (after Keyboard shortcuts)
    intro = window.findChild(QDialog, "intro")
    assert intro is not None and intro.isVisible()
    return intro


def _text(intro) -> str:
    return intro.findChild(QTextBrowser, "introText").toPlainText()


def test_what_is_bpe_introduces_bpe_in_plain_words_and_leads_on_to_learn_mode(qtbot):
    with shown_window(qtbot, "en") as w:
        assert w.findChild(QMainWindow, "learnWindow") is None
        intro = _open_intro(w)
        text = _text(intro)
        # what a tokenizer is, the three ideas in order, the views, what to click first
        assert "A tokenizer cuts text into pieces called tokens" in text
        assert text.index("Bytes.") < text.index("Pairs.") < text.index("Merges.")
        for view in ("Merge timeline", "Pair counts", "Tokenize", "Merges & vocab"):
            assert view in text
        first = text[text.index("What to click first") :]
        assert "Step ▶" in first and "Train to vocab size" in first and "Sample corpus (bundled)" in first
        # Learn mode is not opened in place of it: its button leads there
        assert w.findChild(QMainWindow, "learnWindow") is None
        intro.findChild(QPushButton, "introLearn").click()
        learn = w.findChild(QMainWindow, "learnWindow")
        assert learn is not None and learn.isVisible() and not intro.isVisible()
        learn.close()
        assert _open_intro(w) is intro  # one introduction, opened again


def test_the_introduction_is_in_chinese_in_the_chinese_app(qtbot):
    with shown_window(qtbot, "zh_CN") as w:
        intro = _open_intro(w)
        text = _text(intro)
        assert intro.windowTitle() == "什么是 BPE？"
        assert "分词器" in text and "字节" in text and "合并" in text
        assert (
            "单步 ▶" in text and "训练到词表大小" in text and "示例语料（内置）" in text
        )  # as the buttons say
        # whole sentences in Chinese: no English sentence left untranslated
        assert not re.search(r"[A-Za-z]{4,} [a-z]{3,} [a-z]{3,}", text), text
        labels = [b.text() for b in intro.findChildren(QPushButton)]
        assert any("学习模式" in t for t in labels) and any("示例语料" in t for t in labels), labels


def test_its_button_opens_the_sample_corpus(qtbot):
    with shown_window(qtbot, "en") as w:
        intro = _open_intro(w)
        assert not w.controller.has_trainer
        with qtbot.waitSignal(w.controller.corpus_loaded, timeout=60_000):
            intro.findChild(QPushButton, "introSample").click()
        assert w.controller.has_trainer and not intro.isVisible()
        assert "sample_corpus" in w.windowTitle()


def test_it_fits_a_1280x720_laptop(qtbot, monkeypatch):
    from PySide6.QtCore import QRect

    from bpe_gui.views import screen_fit
    from bpe_gui.views.screen_fit import FRAME_HEIGHT, FRAME_WIDTH

    monkeypatch.setattr(screen_fit, "free_area", lambda _widget: QRect(0, 0, 1280, 720))
    with shown_window(qtbot, "zh_CN") as w:
        w.move(0, 0)
        intro = _open_intro(w)
        g = intro.geometry()
        assert g.width() + FRAME_WIDTH <= 1280 and g.height() + FRAME_HEIGHT <= 720, g
        assert g.left() >= 0 and g.top() >= 0
