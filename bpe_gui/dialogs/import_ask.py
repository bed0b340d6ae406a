"""Ask what a tiktoken file does not store (pattern, special tokens) before importing an unknown one."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QWidget


def is_unknown_tiktoken(path: str | os.PathLike) -> bool:
    """A single tiktoken file that is not a known encoding (so its pattern and special tokens are unknown)."""
    from core.errors import BPEError
    from core.formats import detect_format
    from core.formats.companion import companion_path
    from core.formats.known import known_encoding

    p = Path(path)
    try:
        if not (p.is_file() and detect_format(p) == "tiktoken" and known_encoding(p) is None):
            return False
        # exported beside our bpe.json (which stores them): the import reads the settings from there
        return companion_path(p) is None
    except BPEError:
        return False  # the import reports the problem


class TiktokenOptionsDialog(QDialog):
    """Pattern preset or regex, and special tokens as TOKEN=ID (one per line or separated by spaces)."""

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Import %1").replace("%1", name))
        form = QFormLayout(self)
        form.addRow(
            QLabel(
                self.tr(
                    "A tiktoken file stores neither the pre-tokenizer pattern nor the special "
                    "tokens, and this one is not a known encoding."
                )
            )
        )
        self.pattern = QComboBox()
        self.pattern.setEditable(True)  # a preset or your own regex
        self.pattern.addItems(["gpt2", "gpt4", "none"])
        form.addRow(self.tr("Pattern (preset or regex):"), self.pattern)
        self.specials = QLineEdit()
        self.specials.setPlaceholderText("<|endoftext|>=50256 <|fim_prefix|>=50257")
        form.addRow(self.tr("Special tokens (TOKEN=ID):"), self.specials)
        self.problem = QLabel()
        form.addRow(self.problem)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self._check)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.options: dict = {}

    def _check(self) -> None:
        from core.errors import BPEError
        from core.formats import parse_special_ids
        from core.pretokenization.patterns import resolve_pattern

        pattern = self.pattern.currentText().strip() or "gpt2"
        try:
            resolve_pattern(pattern)
            specials = parse_special_ids(self.specials.text().split())
            if isinstance(specials, list):
                raise BPEError(
                    QCoreApplication.translate(
                        "ImportAsk", "give each special token with its id, as TOKEN=ID"
                    )
                )
        except BPEError as e:
            from bpe_gui.text.errors import error_text

            self.problem.setText(error_text(e))
            return
        self.options = {"pattern": pattern, "special_tokens": specials or {}}
        self.accept()
