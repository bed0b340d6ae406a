"""Lines under the tokens and pane titles at a laptop's width: cut with "…" at a whole character
(a plain label clipped them at its edge, through the middle of a glyph: "é = c3" with half the "3"),
the whole text in the tooltip."""

from __future__ import annotations

import re

from PySide6.QtCore import QPoint
from PySide6.QtGui import QFont, QTextDocument, QTextOption
from PySide6.QtWidgets import QApplication, QLabel

from bpe_gui.views.fitted_label import ELLIPSIS, elide_html
from bpe_gui.views.token_spans import TokenPane
from core import Tokenizer

ACCENTS = "naïve café — 你好世界，今天天气很好。 ümlaut ß ø å"


def _doc(html: str, font: QFont, width: float | None) -> QTextDocument:
    doc = QTextDocument()
    doc.setDefaultFont(font)
    doc.setDocumentMargin(0)
    option = QTextOption()
    option.setWrapMode(
        QTextOption.WrapMode.NoWrap if width is None else QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere
    )
    doc.setDefaultTextOption(option)
    doc.setHtml(html)
    if width is not None:
        doc.setTextWidth(width)
    doc.size()
    return doc


def _shown(label: QLabel) -> str:
    """What the label draws (QLabel's own text, not a Python override)."""
    return QLabel.text(label)


def _line_count(doc: QTextDocument) -> int:
    n, block = 0, doc.begin()
    while block.isValid():
        n += block.layout().lineCount()
        block = block.next()
    return n


def _fits(label: QLabel, max_lines: int | None = None) -> bool:
    """Every line the label draws fits its width (no glyph clipped at its right edge), and in
    all it takes no more lines than ``max_lines`` (default: one per paragraph)."""
    width = label.contentsRect().width()
    paragraphs = re.split(r"<br\s*/?>", _shown(label))
    for p in paragraphs:
        if _doc(p, label.font(), None).idealWidth() > width:
            return False
    if max_lines is not None:
        return _line_count(_doc(_shown(label), label.font(), width)) <= max_lines
    return True


def _whole_items(shown: str) -> None:
    """The characters shown over their bytes are whole ("ï = c3|af, …", never "ï = c3…")."""
    first = re.split(r"<br\s*/?>", shown)[0]
    if first.endswith(ELLIPSIS):
        items = first.split(": ", 1)[1][: -len(ELLIPSIS)]
        assert re.fullmatch(r"(\S+ = [0-9a-f]{2}(\|[0-9a-f]{2})*, )+", items), first


def test_elide_html_cuts_at_a_whole_character_and_closes_its_tags(qapp):
    font = QFont()
    html = "<b>id 300</b> &nbsp; <code>caf\u00e9</code> <span style='color:#e8590c'>" + "x" * 200 + "</span>"
    out = elide_html(html, font, 120)
    assert out.endswith(ELLIPSIS + "</span>") or out.endswith(ELLIPSIS)
    assert _doc(out, font, None).idealWidth() <= 120
    # never inside a tag or an entity, and every element opened is closed
    assert re.search(r"<[^>]*$", out[: out.index(ELLIPSIS)]) is None
    assert re.search(r"&[#\w]*$", out[: out.index(ELLIPSIS)]) is None
    for tag in re.findall(r"<(\w+)[^>]*>", out):
        assert out.count(f"<{tag}") == out.count(f"</{tag}>"), out
    # an accent drawn on the character before stays with it (e + combining acute)
    combining = "e\u0301" * 60
    cut = elide_html(combining, font, 60)
    assert not cut[: -len(ELLIPSIS)].endswith("e")
    # text that fits is left whole
    assert elide_html("short", font, 200) == "short"


def test_the_split_characters_line_is_cut_cleanly_with_the_whole_text_in_its_tooltip(qtbot):
    pane = TokenPane("<b>t</b>")
    qtbot.addWidget(pane)
    pane.resize(420, 300)
    pane.show()
    qtbot.waitExposed(pane)
    pane.tokenizer = Tokenizer({i: bytes([i]) for i in range(256)}, [])
    spans = pane.tokenizer.trace(ACCENTS)
    pane.show_tokens(spans, ACCENTS, True)
    label = pane.split_chars
    assert not label.isHidden()
    assert _fits(label), _shown(label)
    assert _shown(label).rstrip("</>abcdefghijklmnopqrstuvwxyz").endswith(ELLIPSIS)
    _whole_items(_shown(label))
    # the whole text: the label's text, and its tooltip
    assert "你 = e4|bd|a0" in label.toolTip() and "你 = e4|bd|a0" in label.text()
    # the hover line: a long token's details cut cleanly, whole in the tooltip
    long_token = next(i for i, s in enumerate(spans) if not s.complete_utf8)
    pane.view.hovered.emit(long_token)
    assert _fits(pane.info) and ELLIPSIS in _shown(pane.info), _shown(pane.info)
    assert "partial UTF-8" in pane.info.toolTip() and pane.info.toolTip() == pane.info.text()
    # wider, more is shown; wide enough, all of it
    pane.resize(2400, 300)
    qtbot.waitUntil(lambda: ELLIPSIS not in _shown(label))
    assert "你 = e4|bd|a0" in _shown(label)


def test_side_by_side_titles_and_split_lines_fit_their_panes_at_1280(qtbot, trained, tmp_path):
    """At 1280×720 the two panes side by side cut their titles and the byte-split lines at their
    edges, and the split lines' third line was cut in half: now each line fits, the characters
    come first (in fewer words), and the tooltips hold the whole text."""
    w = trained
    c = w.controller
    w.resize(1280, 720)
    qtbot.waitUntil(lambda: w.width() <= 1280)
    folder = tmp_path / "a tokenizer with a rather long folder name for its files"
    c.export(folder, ["gpt2"])
    tv = w.tokenize
    with qtbot.waitSignal(c.tokenizer_loaded, timeout=30_000):
        assert w.compare_with(folder / "vocab.json")
    qtbot.waitUntil(lambda: tv.secondary.tokenizer is not None)
    tv.set_text(ACCENTS + " " + ACCENTS)
    assert tv.wait_idle()
    for pane in (tv.primary, tv.secondary):
        qtbot.waitUntil(lambda p=pane: not p.split_chars.isHidden())
        split = pane.split_chars
        lines = split.height() // split.fontMetrics().lineSpacing()
        assert _fits(split, max_lines=lines), (_shown(split), split.width(), lines)
        assert "ï = c3|af" in _shown(split)  # the characters are on show, not only their lead-in
        _whole_items(_shown(split))
        assert "Characters split into byte tokens" in split.toolTip()
        assert "pre-token" in split.toolTip()  # (the pattern's note: whole in the tooltip)
        assert _fits(pane.title), _shown(pane.title)
    title = tv.secondary.title
    assert ELLIPSIS in _shown(title) and "rather long folder name" in title.toolTip()
    # a Chinese title (a fallback font's taller line) beside a Latin one: the token views line up
    tv.secondary.title.setText("<b>中文分词器/vocab.json</b>")
    qtbot.waitUntil(lambda: "中文" in QLabel.text(tv.secondary.title))
    for _ in range(3):  # (the layouts take the label's new height)
        QApplication.processEvents()
    assert tv.primary.view.mapTo(tv, QPoint(0, 0)).y() == tv.secondary.view.mapTo(tv, QPoint(0, 0)).y()
    # alone again: the long lead-in comes back
    tv.set_comparison(None)
    assert tv.wait_idle()
    assert "Characters split into byte tokens" in _shown(tv.primary.split_chars)
    assert _fits(tv.primary.split_chars)


def test_a_long_tokenizer_name_in_the_corpus_panel_ends_in_an_ellipsis(qtbot, tmp_path):
    """OLMo's file, allenai_gpt-neox-olmo-dolma-v1_5.json, imported at 1366×768: the corpus panel cut
    'imported tokenizer allenai_gpt-neox-olmo-do' through a letter at its edge, with no tooltip."""
    from core.formats import export_all

    from .gui_helpers import import_tokenizer, shown_window

    name = "allenai_gpt-neox-olmo-dolma-v1_5.json"
    tok = Tokenizer({i: bytes([i]) for i in range(256)} | {256: b"ab"}, [(b"a", b"b")])
    export_all(tmp_path, tok, ["hf"])
    (tmp_path / "tokenizer.json").rename(tmp_path / name)
    with shown_window(qtbot, size=(1366, 768)) as w:
        import_tokenizer(qtbot, w.controller, str(tmp_path / name))
        label = w.corpus_panel.name
        qtbot.waitUntil(lambda: "imported tokenizer" in _shown(label))
        assert _fits(label), _shown(label)
        assert ELLIPSIS in _shown(label) and name in label.toolTip()
