"""Corpus panel: which corpus is loaded and what it looks like (size, pre-tokens, invalid bytes)."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
)

from bpe_gui.model.formatting import human_bytes
from bpe_gui.model.marks import QT_TRANSLATE_NOOP
from bpe_gui.text import core as core_text
from bpe_gui.views.fitted_label import FittedLabel


class CorpusPanel(QGroupBox):
    def __init__(self, controller, parent=None) -> None:
        super().__init__(self.tr("Corpus"), parent)
        self.controller = controller
        # (a long file name ends in "…" at a whole character, the whole of it in the tooltip: an OLMo
        # file's name was cut through a letter at 1366 px)
        self.name = FittedLabel(self.tr("<i>no corpus</i>"))
        self.open_button = QPushButton(self.tr("Open…"))
        self.recent_button = QToolButton()
        self.recent_button.setText(self.tr("Recent"))
        self.recent_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        # the menu arrow gets room of its own (drawn over the last letter otherwise)
        self.recent_button.setStyleSheet("QToolButton { padding-right: 14px; }")
        self.values: dict[str, QLabel] = {}
        # two label/value pairs a row: three rows instead of five leave the selected merge room on a
        # laptop (1280×720, Chinese: it had one line)
        form = QGridLayout()
        form.setContentsMargins(0, 4, 0, 0)
        form.setHorizontalSpacing(8)
        form.setVerticalSpacing(2)
        form.setColumnMinimumWidth(2, 8)
        self.tips = {
            "Size": self.tr("Size of the corpus file"),
            "Pre-tokens": self.tr(
                "How many pieces the pre-tokenizer pattern cut the text into (words, "
                "numbers, punctuation runs …). Pairs are counted and merged inside them only."
            ),
            "Distinct": self.tr(
                "How many different pre-tokens there are: the trainer works on these, each with its count"
            ),
            "Invalid bytes": self.tr(
                "Bytes that are not valid UTF-8. They are kept exactly and trained on like any other byte."
            ),
            "Specials found": self.tr(
                "How often the special tokens occur in the corpus; the text is split "
                "at them and they are never merged"
            ),
        }
        for n, key in enumerate(
            (
                QT_TRANSLATE_NOOP("CorpusPanel", "Size"),
                QT_TRANSLATE_NOOP("CorpusPanel", "Pre-tokens"),
                QT_TRANSLATE_NOOP("CorpusPanel", "Distinct"),
                QT_TRANSLATE_NOOP("CorpusPanel", "Invalid bytes"),
                QT_TRANSLATE_NOOP("CorpusPanel", "Specials found"),
            )
        ):
            v = QLabel("–")
            v.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.values[key] = v
            label = QLabel(self.tr(key))
            label.setToolTip(self.tips[key])
            v.setToolTip(self.tips[key])
            row, col = divmod(n, 2)
            form.addWidget(label, row, 3 * col)
            form.addWidget(v, row, 3 * col + 1)
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        self.notes.setObjectName("notes")
        self.notes.setVisible(False)

        buttons = QHBoxLayout()
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.recent_button)
        buttons.addStretch(1)
        # after an import (and while extending): learn new merges on top of the tokenizer on show
        self.continue_button = QPushButton(self.tr("Continue training from this tokenizer…"))
        self.continue_button.setToolTip(
            self.tr(
                "Pick a corpus and learn new merges on top of this tokenizer, step by step: its tokens "
                "and ids stay, new ones follow its last id"
            )
        )
        self.continue_button.setVisible(False)
        lay = QVBoxLayout(self)
        lay.addWidget(self.name)
        lay.addLayout(buttons)
        lay.addWidget(self.continue_button)
        lay.addLayout(form)
        lay.addWidget(self.notes)
        controller.corpus_loaded.connect(self.show_stats)
        controller.merges_reset.connect(self._maybe_imported)

    def show_stats(self, stats) -> None:
        path = self.controller.corpus_path or ""
        self.name.setText(f"<b>{escape(stats.name)}</b>")
        ext = self.controller.model.extension
        if ext is not None:
            self.name.setText(
                self.tr(
                    "<b>{0}</b><br><span style='color:#667'>new merges on top of <b>{1}</b></span>"
                ).format(escape(stats.name), escape(ext.name))
            )
        self.name.setToolTip(path)
        self.values["Size"].setText(f"{human_bytes(stats.size_bytes)}")
        self.values["Size"].setToolTip(
            self.tr("Size of the corpus file: %1 bytes").replace("%1", f"{stats.size_bytes:,}")
        )
        self.values["Pre-tokens"].setText(f"{stats.pretokens:,}")
        self.values["Distinct"].setText(f"{stats.distinct_pretokens:,}")
        inv = self.values["Invalid bytes"]
        inv.setText(f"{stats.invalid_bytes:,}")
        inv.setStyleSheet("color:#c62828; font-weight:600" if stats.invalid_bytes else "")
        self.values["Specials found"].setText(f"{getattr(stats, 'special_occurrences', 0):,}")
        notes = [core_text.note(n) for n in stats.notes]
        if stats.size_bytes == 0:
            notes.append(self.tr("the file is empty: training will make no merges"))
        self.notes.setText("\n".join(f"• {n}" for n in notes))
        self.notes.setVisible(bool(notes))

    def _maybe_imported(self) -> None:
        c = self.controller
        if c.has_trainer or not c.source_name:
            return
        self.name.setToolTip("")  # (not the last corpus's path: the whole text where it is cut)
        self.name.setText(
            self.tr(
                "<i>imported tokenizer</i> <b>{0}</b><br>"
                "<span style='color:#667'>open a corpus to train</span>"
            ).format(escape(c.source_name))
        )
        for v in self.values.values():
            v.setText("–")
            v.setStyleSheet("")
        self.notes.setVisible(False)
