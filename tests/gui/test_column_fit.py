"""The merges and vocab tables show their bytes whole (``\\xe8\\xae`` was cut to ``\\xe…xae``)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics

from .gui_helpers import load


def _cut_cells(table, columns) -> list[str]:
    model = table.model()
    cut = []
    for row in range(model.rowCount()):
        for col in columns:
            index = model.index(row, col)
            text = str(model.data(index, Qt.ItemDataRole.DisplayRole) or "")
            font = model.data(index, Qt.ItemDataRole.FontRole)
            fm = QFontMetrics(font if isinstance(font, QFont) else table.font())
            if fm.horizontalAdvance(text) > table.columnWidth(col) - 6:
                cut.append(text)
    return cut


def test_merges_and_vocab_columns_fit_their_bytes(qtbot, window, tmp_path):
    corpus = tmp_path / "zh.txt"
    corpus.write_text(
        "我们的模型学习分词，训练数据很小。\n" * 40 + "训练 训练 词表 词表\n" * 30, encoding="utf-8"
    )
    load(qtbot, window, corpus)
    with qtbot.waitSignal(window.controller.stepped):
        window.controller.step(12)
    b = window.browser
    qtbot.waitUntil(lambda: b.merges_table.model().rowCount() == 12)
    assert not _cut_cells(b.merges_table, (2, 3, 4))
    vocab = b.vocab_table
    assert not _cut_cells(vocab, (1,))
    # hex up to the column's cap is whole; a longer one (<|endoftext|>) has it whole in its tooltip
    model = vocab.model()
    for text in _cut_cells(vocab, (2,)):
        row = next(r for r in range(model.rowCount()) if model.data(model.index(r, 2)) == text)
        assert len(text) > 30 and text in model.data(model.index(row, 2), Qt.ItemDataRole.ToolTipRole)


def test_long_parts_leave_the_token_in_sight(qtbot, window, tmp_path):
    """An imported tokenizer with long tokens (cl100k) widened Left and Right until Token and Count
    were out of a laptop's pane: the parts take a fifth of the list each, Count goes when the file has
    no counts."""
    from core.formats import export_all
    from core.formats.spec import TokenizerSpec

    from .gui_helpers import import_tokenizer

    merges = [(b"-", b"-")]
    token = b"--"
    for _ in range(7):  # ---- … 256 dashes: parts far wider than the pane
        merges.append((token, token))
        token += token
    export_all(tmp_path, TokenizerSpec.from_merges(merges), "gpt2")
    window.resize(1280, 672)
    c = window.controller
    import_tokenizer(qtbot, c, tmp_path / "vocab.json")
    qtbot.waitUntil(lambda: not c.busy and window.browser.merges_table.model().rowCount() == len(merges))
    table = window.browser.merges_table
    room = table.viewport().width()
    assert table.isColumnHidden(5)  # (no counts in GPT-2 files)
    assert table.columnWidth(2) <= max(room // 5, 90) and table.columnWidth(3) <= max(room // 5, 90)
    assert table.columnWidth(4) >= room // 5  # the token keeps a share of its own


def test_a_new_tokenizer_starts_at_the_top_of_its_lists(qtbot, trained, tmp_path):
    from .gui_helpers import import_tokenizer

    c, b = trained.controller, trained.browser
    c.export(tmp_path, ["gpt2"])
    b.merges_table.scrollToBottom()
    b.vocab_table.scrollToBottom()
    assert b.merges_table.verticalScrollBar().value() > 0
    import_tokenizer(qtbot, c, tmp_path / "vocab.json")
    qtbot.waitUntil(lambda: not c.busy)
    assert b.merges_table.verticalScrollBar().value() == 0 and b.vocab_table.verticalScrollBar().value() == 0
