"""Learn mode: a BPE algorithm run line by line on a small text, with its variables beside the code.

Three walk-throughs (core.learn): the lecture algorithm on raw bytes, the CS336 trainer with its
incremental update, and encoding. Step / Back / Play move through the recorded frames; the current
line of code is highlighted and the variables show their values at that moment.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from bpe_gui.text.learn import describe
from core.errors import BPEError
from core.learn import Walk, encoding, lecture, show, training

KINDS = ("lecture", "training", "encoding")
EXAMPLES = {
    "lecture": "aaabdaaabac",
    "training": "low low lower<|endoftext|>newest widest newest",
    "encoding": "the lowest newest<|endoftext|>low",
}
MERGES = {"lecture": 3, "training": 6, "encoding": 6}
PLAY_MS = 700


class LearnView(QWidget):
    """The Learn tab: pick a walk-through, edit its text, and step through it."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.walk: Walk | None = None
        self.at = 0  # the frame on show (an index into walk.frames)
        self.kind = "lecture"
        self.timer = QTimer(self)
        self.timer.setInterval(PLAY_MS)
        self.timer.timeout.connect(self._tick)
        self._build()
        self.set_kind("lecture")

    # ------------------------------------------------------------------ layout
    def _build(self) -> None:
        self.algo = QComboBox()
        self.algo.addItems(
            [
                self.tr("1. The lecture algorithm (raw bytes)"),
                self.tr("2. The CS336 trainer"),
                self.tr("3. Encoding a text"),
            ]
        )
        self.algo.setToolTip(self.tr("Which algorithm to walk through"))
        self.algo.currentIndexChanged.connect(lambda i: self.set_kind(KINDS[i]))
        self.text = QLineEdit()
        self.text.setToolTip(self.tr("The small text the algorithm runs on; edit it and press Enter"))
        self.text.returnPressed.connect(self.rerun)
        self.specials = QLineEdit("<|endoftext|>")
        self.specials.setToolTip(self.tr("Special tokens, separated by spaces (never split or merged)"))
        self.specials.returnPressed.connect(self.rerun)
        self.merges = QSpinBox()
        self.merges.setRange(0, 50)
        self.merges.setToolTip(self.tr("How many merges to learn"))
        self.merges.valueChanged.connect(lambda _v: self.rerun())
        top = QHBoxLayout()
        top.addWidget(self.algo)
        self.text_label = QLabel(self.tr("Text:"))
        top.addWidget(self.text_label)
        top.addWidget(self.text, 3)
        self.specials_label = QLabel(self.tr("Special tokens:"))
        top.addWidget(self.specials_label)
        top.addWidget(self.specials, 1)
        top.addWidget(QLabel(self.tr("Merges:")))
        top.addWidget(self.merges)

        self.btn_reset = QPushButton(self.tr("« Start"))
        self.btn_back = QPushButton(self.tr("◀ Back"))
        self.btn_step = QPushButton(self.tr("Step ▶"))
        self.btn_play = QPushButton(self.tr("Play"))
        self.btn_end = QPushButton(self.tr("End »"))
        self.btn_reset.clicked.connect(lambda: self.go(0))
        self.btn_back.clicked.connect(lambda: self.go(self.at - 1))
        self.btn_step.clicked.connect(lambda: self.go(self.at + 1))
        self.btn_play.clicked.connect(self.toggle_play)
        self.btn_end.clicked.connect(lambda: self.go(len(self.walk.frames) - 1 if self.walk else 0))
        self.btn_step.setToolTip(self.tr("Run the next line (Right arrow)"))
        self.btn_back.setToolTip(self.tr("Go back one line (Left arrow)"))
        self.position = QLabel()
        bar = QHBoxLayout()
        for b in (self.btn_reset, self.btn_back, self.btn_step, self.btn_play, self.btn_end):
            bar.addWidget(b)
        bar.addWidget(self.position, 1)

        self.code = QPlainTextEdit()
        self.code.setReadOnly(True)
        self.code.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.Monospace)
        self.code.setFont(mono)
        self.code.setToolTip(self.tr("The algorithm; the highlighted line is the one just run"))
        self.vars = QTableWidget(0, 2)
        self.vars.setHorizontalHeaderLabels([self.tr("Variable"), self.tr("Value")])
        for column, tip in enumerate(
            (
                self.tr("A variable of the code at this line"),
                self.tr("Its value right after the highlighted line ran"),
            )
        ):
            header = self.vars.horizontalHeaderItem(column)
            if header is not None:
                header.setToolTip(tip)
        self.vars.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.vars.verticalHeader().setVisible(False)
        self.vars.setWordWrap(True)
        self.vars.setFont(mono)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.code)
        split.addWidget(self.vars)
        split.setSizes([560, 560])
        self.story = QLabel()
        self.story.setWordWrap(True)
        self.story.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.story.setMinimumHeight(48)
        self.story.setObjectName("learnStory")

        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addLayout(bar)
        lay.addWidget(self.story)
        lay.addWidget(split, 1)

    # ------------------------------------------------------------------ running
    def set_kind(self, kind: str) -> None:
        self.kind = kind
        self.algo.blockSignals(True)
        self.algo.setCurrentIndex(KINDS.index(kind))
        self.algo.blockSignals(False)
        self.text.setText(EXAMPLES[kind])
        self.specials.setEnabled(kind != "lecture")
        self.specials_label.setEnabled(kind != "lecture")
        self.merges.blockSignals(True)
        self.merges.setValue(MERGES[kind])
        self.merges.blockSignals(False)
        self.rerun()

    def _specials(self) -> list[str]:
        return [s for s in self.specials.text().split() if s]

    def compute(self) -> Walk:
        """Run the current walk-through on the current text (raises BPEError on bad input)."""
        text, n = self.text.text(), self.merges.value()
        if self.kind == "lecture":
            return lecture.walk(text, n)
        if self.kind == "training":
            return training.walk(text, self._specials(), n)
        from core.tokenization.tokenizer import Tokenizer
        from core.training.trainer import Trainer

        t = Trainer.from_text(text, self._specials())
        t.steps(n)
        return encoding.walk(Tokenizer(t.vocab, t.merges, self._specials()), text)

    def rerun(self) -> None:
        self.timer.stop()
        try:
            self.walk = self.compute()
        except BPEError as e:
            from bpe_gui.text.errors import error_text

            self.walk = None
            self.story.setText(error_text(e))
            return
        self.code.setPlainText("\n".join(self.walk.code))
        self.go(0)

    def go(self, pos: int) -> None:
        """Show frame ``pos`` (clamped to the recorded frames)."""
        if self.walk is None or not self.walk.frames:
            return
        n = len(self.walk.frames)
        self.at = max(0, min(pos, n - 1))
        f = self.walk.frames[self.at]
        self._highlight(f.line)
        self.vars.setRowCount(len(f.values))
        for r, (name, value) in enumerate(f.values.items()):
            self.vars.setItem(r, 0, QTableWidgetItem(name))
            item = QTableWidgetItem(show(value))
            item.setToolTip(show(value, 200))
            self.vars.setItem(r, 1, item)
        self.vars.resizeRowsToContents()
        self.story.setText(describe(self.kind, f))
        self.position.setText(
            self.tr("Line %1 of the code · step %2 / %3")
            .replace("%1", str(f.line + 1))
            .replace("%2", str(self.at + 1))
            .replace("%3", str(n))
        )
        if self.walk.truncated and self.at == n - 1:
            self.position.setText(
                self.position.text() + " · " + self.tr("the text is long: later steps are not shown")
            )
        self.btn_back.setEnabled(self.at > 0)
        self.btn_step.setEnabled(self.at < n - 1)

    def _highlight(self, line: int) -> None:
        block = self.code.document().findBlockByNumber(line)
        sel = QTextEdit.ExtraSelection()
        sel.format.setBackground(QColor(255, 214, 102, 150))
        sel.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        cur = QTextCursor(block)
        sel.cursor = cur
        self.code.setExtraSelections([sel])
        self.code.setTextCursor(cur)
        self.code.ensureCursorVisible()

    def toggle_play(self) -> None:
        if self.timer.isActive():
            self.timer.stop()
            self.btn_play.setText(self.tr("Play"))
        else:
            if self.walk is not None and self.at >= len(self.walk.frames) - 1:
                self.go(0)
            self.timer.start()
            self.btn_play.setText(self.tr("Pause"))

    def _tick(self) -> None:
        if self.walk is None or self.at >= len(self.walk.frames) - 1:
            self.timer.stop()
            self.btn_play.setText(self.tr("Play"))
            return
        self.go(self.at + 1)

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Right:
            self.go(self.at + 1)
        elif event.key() == Qt.Key.Key_Left:
            self.go(self.at - 1)
        else:
            super().keyPressEvent(event)


def open_learn(parent) -> QWidget:
    """Open (or raise) the Learn window of ``parent``'s main window."""
    from PySide6.QtWidgets import QMainWindow

    win = parent.findChild(QMainWindow, "learnWindow")  # (one Learn window a main window)
    if win is None:
        win = QMainWindow(parent)
        win.setWindowTitle(QCoreApplication.translate("LearnView", "Learn BPE — step by step"))
        win.setCentralWidget(LearnView(win))
        win.setObjectName("learnWindow")
        win.resize(1200, 720)
    win.show()
    win.raise_()
    return win
