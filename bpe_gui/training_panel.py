"""Training controls: settings, Step / Step N / Undo / Train / Cancel, progress and status."""
from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
)

from core import GPT2_PATTERN

from .formatting import parse_special_tokens
from .widgets import pinned, status_label

PATTERNS = [("GPT-2", "gpt2"), ("GPT-4", "gpt4"), (QT_TRANSLATE_NOOP("TrainingPanel", "None (whole text)"), "none"),
            (QT_TRANSLATE_NOOP("TrainingPanel", "Custom regex…"), "custom")]
TIE_RULES = [(QT_TRANSLATE_NOOP("TrainingPanel", "Lexicographic (GPT-2, CS336)"), "lexicographic"),
             (QT_TRANSLATE_NOOP("TrainingPanel", "First seen in the corpus"), "first")]


class TrainingPanel(QGroupBox):
    def __init__(self, controller, parent=None) -> None:
        super().__init__(self.tr("Training"), parent)
        self.controller = controller
        self._cancelled = False

        self.vocab_size = QSpinBox()
        self.vocab_size.setRange(257, 10_000_000)
        self.vocab_size.setSingleStep(256)
        self.vocab_size.setGroupSeparatorShown(True)
        self.vocab_size.setValue(1000)
        self.vocab_size.setToolTip(self.tr("Size of the final vocabulary: 256 bytes + the special tokens + one "
                                           "token per merge"))
        self.specials = QLineEdit("<|endoftext|>")
        self.specials.setToolTip(self.tr('Special tokens, separated by spaces; one that contains spaces goes in '
                                 'double quotes ("<|end of turn|>"). They are never merged.'))
        self.pattern = QComboBox()
        for label, key in PATTERNS:
            self.pattern.addItem(self.tr(label), key)
        self.custom = QLineEdit()
        self.custom.setPlaceholderText(self.tr("custom pre-tokenizer regex"))
        self.custom.setText(GPT2_PATTERN)
        self.custom.setVisible(False)
        self.pattern.setToolTip(self.tr("The pre-tokenizer regex that cuts the text into pre-tokens before "
                                        "training; merges never cross pre-tokens"))
        self.tie = QComboBox()
        self.tie.setToolTip(self.tr("Which pair wins when several are equally frequent"))
        for label, key in TIE_RULES:
            self.tie.addItem(self.tr(label), key)
        self.apply_button = QPushButton(self.tr("Apply settings (re-reads the corpus)"))
        self.apply_button.setEnabled(False)

        form = QFormLayout()
        form.setVerticalSpacing(4)
        form.addRow(self.tr("Vocab size"), self.vocab_size)
        form.addRow(self.tr("Special tokens"), self.specials)
        form.addRow(self.tr("Pattern"), self.pattern)
        form.addRow("", self.custom)
        form.addRow(self.tr("Tie rule"), self.tie)

        self.undo_button = QPushButton(self.tr("◀ Undo"))
        self.undo_button.setToolTip(self.tr("Undo the last merge (← or Ctrl+Z)"))
        self.step_button = QPushButton(self.tr("Step ▶"))
        self.step_button.setToolTip(self.tr("Do one merge (→ or Space)"))
        self.step_button.setObjectName("primary")
        self.step_n = QSpinBox()
        self.step_n.setRange(1, 1_000_000)
        self.step_n.setValue(10)
        self.step_n.setPrefix("× ")
        self.step_n_button = QPushButton(self.tr("Step N"))
        self.train_button = QPushButton(self.tr("Train to vocab size"))
        self.train_button.setObjectName("accent")
        self.train_button.setToolTip(self.tr("Run the merges in the background until the vocab size (Ctrl+T)"))
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setToolTip(self.tr("Stop the running task (Esc); the merges done so far are kept"))
        self.cancel_button.setEnabled(False)
        grid = QGridLayout()
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(6)
        grid.addWidget(self.undo_button, 0, 0)
        grid.addWidget(self.step_button, 0, 1)
        grid.addWidget(self.step_n, 1, 0)
        grid.addWidget(self.step_n_button, 1, 1)
        grid.addWidget(self.train_button, 2, 0, 1, 2)

        self.progress = QProgressBar()
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.setTextVisible(True)
        self.progress.setFormat(self.tr("idle"))
        self.vocab_label = status_label(name="vocabStatus")
        self.status = status_label(lines=2, name="status")
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(self.apply_button)
        lay.addSpacing(4)
        lay.addLayout(grid)
        lay.addWidget(self.cancel_button)
        lay.addWidget(self.progress)
        lay.addWidget(pinned(self.vocab_label))
        lay.addWidget(pinned(self.status))

        self.pattern.currentIndexChanged.connect(self._settings_edited)
        self.custom.textChanged.connect(self._settings_edited)
        self.specials.textChanged.connect(self._settings_edited)
        self.tie.currentIndexChanged.connect(self._settings_edited)
        self.apply_button.clicked.connect(self.apply)
        controller.progress.connect(self._progress)
        controller.phase.connect(lambda text: self.progress.setFormat(text.rstrip(" …") + "  %p%"))
        controller.message.connect(self.status.setText)
        for sig in (controller.merges_appended, controller.merges_removed):
            sig.connect(lambda _n: self.update_vocab_label())
        controller.merges_reset.connect(self.update_vocab_label)
        controller.busy_changed.connect(self._busy_changed)
        controller.trained.connect(lambda summary: setattr(self, "_cancelled", summary.cancelled))
        self.vocab_size.valueChanged.connect(lambda _v: self.update_vocab_label())
        self.update_vocab_label()

    # ------------------------------------------------------------------ settings
    def wanted(self) -> tuple[list[str], str | None, str]:
        """(special tokens, pattern, tie rule) as edited in the panel (ValueError: unclosed quote)."""
        key = self.pattern.currentData()
        pattern = self.custom.text() if key == "custom" else key
        return parse_special_tokens(self.specials.text()), pattern, self.tie.currentData()

    def _settings_edited(self) -> None:
        self.custom.setVisible(self.pattern.currentData() == "custom")
        o = self.controller.options
        try:
            specials, pattern, tie = self.wanted()
        except ValueError:  # still typing a quoted token: Apply says what is wrong
            changed = True
        else:
            current_pattern = "none" if o.pattern is None else o.pattern
            changed = (specials != o.special_tokens or pattern != current_pattern or tie != o.tie_break)
        self.apply_button.setEnabled(changed and not self.controller.busy)

    def apply(self) -> None:
        try:
            specials, pattern, tie = self.wanted()
        except ValueError as e:
            self.controller.error.emit(self.tr('Special tokens: the quote before {0} is not closed (write a token '
                                               'that contains spaces as "like this")').format(repr(e.token)))
            return
        if self.controller.set_options(specials, pattern, tie):
            self.apply_button.setEnabled(False)

    # ------------------------------------------------------------------ status
    def _progress(self, done: int, total: int) -> None:
        pct = min(100, int(100 * done / max(total, 1)))
        if self.progress.maximum() != 100:
            self.progress.setRange(0, 100)
        if pct != self.progress.value():
            # QProgressBar.setValue repaints synchronously; with updates off it just schedules one
            self.progress.setUpdatesEnabled(False)
            self.progress.setValue(pct)
            self.progress.setUpdatesEnabled(True)

    def _busy_changed(self, busy: str) -> None:
        if busy:
            self.progress.setRange(0, 0 if busy == "load" else 100)
            self.progress.setValue(0)
        else:
            self.progress.setRange(0, 1)
            self.progress.setValue(1 if self.controller.index.n_merges else 0)
            done = self.tr("cancelled") if self._cancelled else self.tr("done")
            self._cancelled = False
            self.progress.setFormat(done if self.controller.index.n_merges else self.tr("idle"))
        self._settings_edited()

    def update_vocab_label(self) -> None:
        c = self.controller
        ix = c.index
        self.vocab_label.setText(self.tr("Vocab <b>{0}</b> / {1} · <b>{2}</b> merges · {3} special").format(
            f"{len(ix):,}", f"{self.vocab_size.value():,}", f"{ix.n_merges:,}", len(ix.special_tokens)))
