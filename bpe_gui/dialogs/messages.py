"""View → Messages (every status and error message, in full) and Help → Keyboard shortcuts."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QPlainTextEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from bpe_gui.text.qt_strings import plain_action_text

MAX_MESSAGES = 2000


class MessageLog(QDialog):
    """Keeps every message the app showed (status lines are elided; here they are whole)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Messages"))
        self.messages: list[str] = []
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.text.setMaximumBlockCount(MAX_MESSAGES)
        self.text.setPlaceholderText(self.tr("No messages yet."))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        clear = buttons.addButton(self.tr("Clear"), QDialogButtonBox.ButtonRole.ResetRole)
        clear.clicked.connect(self.clear)
        lay = QVBoxLayout(self)
        lay.addWidget(self.text)
        lay.addWidget(buttons)
        self.resize(640, 360)

    def add(self, message: str, error: bool = False) -> None:
        if not message:
            return
        if self.messages and self.messages[-1] == message:
            return
        self.messages.append(message)
        del self.messages[:-MAX_MESSAGES]
        stamp = time.strftime("%H:%M:%S")
        prefix = self.tr("error") + ": " if error else ""
        self.text.appendPlainText(f"{stamp}  {prefix}{message}")

    def clear(self) -> None:
        self.messages.clear()
        self.text.clear()


class ShortcutsDialog(QDialog):
    """Every keyboard shortcut of the window's actions, read from the actions themselves."""

    def __init__(self, actions, parent=None, extra: list[tuple[str, str]] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        rows: list[tuple[str, str]] = []
        for a in actions:
            shortcuts = [k.toString(k.SequenceFormat.NativeText) for k in a.shortcuts()]
            if shortcuts:
                rows.append((plain_action_text(a.text()), ", ".join(shortcuts)))
        rows += list(extra or [])
        self.table = QTableWidget(len(rows), 2)
        self.table.setHorizontalHeaderLabels([self.tr("Action"), self.tr("Keys")])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for r, (name, keys) in enumerate(rows):
            self.table.setItem(r, 0, QTableWidgetItem(name))
            item = QTableWidgetItem(keys)
            item.setTextAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(r, 1, item)
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setStretchLastSection(True)
        self.rows = rows
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        lay = QVBoxLayout(self)
        lay.addWidget(self.table)
        lay.addWidget(buttons)
        # wide enough for both columns whole (a fixed 440 px left a horizontal scroll bar in English
        # and cut the longest action names), up to the screen's width
        table_w = (
            self.table.horizontalHeader().length()
            + self.table.verticalScrollBar().sizeHint().width()
            + 2 * self.table.frameWidth()
        )
        margins = lay.contentsMargins()
        screen = self.screen().availableGeometry().width() if self.screen() is not None else 1280
        width = min(max(440, table_w + margins.left() + margins.right() + 8), screen - 40)
        self.resize(width, min(600, 80 + 26 * len(rows)))
