"""Hex bytes in tooltips break between characters only: a long token's hex was one unbreakable run
that Qt broke anywhere ("e" at a line's end, "6 88 91" on the next) or, in the tables' plain-text
tips, between any two bytes of a character."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument

from .gui_helpers import import_tokenizer

WORD = "我们的模型学习分词训练数据很小"  # 15 characters, 45 bytes (one pre-token)
NBSP = "\u00a0"


def _laid_out(html: str, width: int) -> str:
    """The text of ``html`` as rich text wraps it at ``width`` pixels, a line a row (its own line
    breaks and the wraps alike)."""
    doc = QTextDocument()
    doc.setHtml(html)
    doc.setTextWidth(width)
    doc.size()  # (lays the lines out)
    rows = []
    block = doc.begin()
    while block.isValid():
        layout, text = block.layout(), block.text()
        for k in range(layout.lineCount()):
            line = layout.lineAt(k)
            rows.append(text[line.textStart() : line.textStart() + line.textLength()].rstrip("\u2028"))
        block = block.next()
    return "\n".join(rows)


def _hex_words(laid_out: str, after: str) -> list[str]:
    """The hex after ``after``, split where a line may break (a space or a wrap), not at no-break
    spaces: its words up to the first that is not hex."""
    words = []
    for w in re.split(r"[ \n]+", laid_out.split(after, 1)[1]):
        if not re.fullmatch(r"[0-9a-f\u00a0]+", w):
            break
        words.append(w)
    return words


def _by_character(text: str) -> list[str]:
    return [NBSP.join(f"{b:02x}" for b in ch.encode()) for ch in text]


def _import_long_token(qtbot, window, tmp_path) -> bytes:
    """A tokenizer whose last merge makes WORD, one byte at a time."""
    from core.formats import export_all
    from core.formats.spec import TokenizerSpec

    token = WORD.encode()
    merges = [(token[:k], token[k : k + 1]) for k in range(1, len(token))]
    export_all(tmp_path, TokenizerSpec.from_merges(merges), "gpt2")
    c = window.controller
    import_tokenizer(qtbot, c, tmp_path / "vocab.json")
    qtbot.waitUntil(lambda: not c.busy and window.browser.merges_table.model().rowCount() == len(merges))
    return token


def test_table_tooltips_keep_each_characters_hex_together(qtbot, window, tmp_path):
    token = _import_long_token(qtbot, window, tmp_path)
    b = window.browser
    merges = b.merges_model
    tips = [merges.data(merges.index(merges.rowCount() - 1, 4), Qt.ItemDataRole.ToolTipRole)]
    vocab = b.vocab_model
    row = next(r for r in range(vocab.rowCount()) if vocab.data(vocab.index(r, 2)) == token.hex(" "))
    tips += [vocab.data(vocab.index(row, col), Qt.ItemDataRole.ToolTipRole) for col in (1, 2)]
    for tip in tips:
        for width in (180, 260, 420):
            laid = _laid_out(tip, width)
            assert _hex_words(laid, "bytes: ") == _by_character(WORD), laid
            assert len(laid.split("\n")) > 2  # (it does wrap, between characters)


def test_the_tokenize_hover_keeps_each_characters_hex_together(qtbot, window, tmp_path):
    token = _import_long_token(qtbot, window, tmp_path)
    tv = window.tokenize
    tv.set_text(WORD)
    assert tv.wait_idle()
    pane = tv.primary
    span = next(s for s in pane.view.spans if s.token == token)
    laid = _laid_out(pane.describe(span), 300)
    assert _hex_words(laid, "hex: ") == _by_character(WORD), laid


def test_a_token_that_looks_like_markup_is_shown_in_its_tooltip(qtbot, window, tmp_path):
    """A table tip is rich text: a token such as ``<p>`` is escaped, not taken for markup."""
    from core.formats import export_all
    from core.formats.spec import TokenizerSpec

    export_all(tmp_path, TokenizerSpec.from_merges([(b"<", b"p"), (b"<p", b">")]), "gpt2")
    c = window.controller
    import_tokenizer(qtbot, c, tmp_path / "vocab.json")
    merges = window.browser.merges_model
    qtbot.waitUntil(lambda: not c.busy and merges.rowCount() == 2)
    tip = merges.data(merges.index(1, 4), Qt.ItemDataRole.ToolTipRole)
    assert _laid_out(tip, 300).startswith("<p>\nbytes: 3c 70 3e")
