"""Learn mode: a BPE algorithm run line by line on a small text, with its variables beside the code.

Three walk-throughs (core.learn): the lecture algorithm on raw bytes, the CS336 trainer with its
incremental update, and encoding. Step / Back / Play move through the recorded frames; the current
line of code is highlighted and the variables show their values at that moment.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer
from PySide6.QtGui import QAction, QColor, QFont, QKeySequence, QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
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
from bpe_gui.views.screen_fit import place_on_screen
from core.errors import BPEError
from core.learn import Walk, encoding, lecture, show, training

KINDS = ("lecture", "training", "encoding")
#: the example of the CS336 assignment handout (its BPE training example)
HANDOUT = "low low low low low lower lower widest widest widest newest newest newest newest newest newest"
#: its merges with whitespace pre-tokenization, as the handout lists them
HANDOUT_MERGES = "s t, e st, o w, l ow, w est, n e, ne west, w i, wi d, wid est, low e, lowe r"
EXAMPLES = {
    "lecture": "aaabdaaabac",
    "training": HANDOUT,
    "encoding": "the lowest newest<|endoftext|>low",
}
MERGES = {"lecture": 3, "training": 12, "encoding": 6}
#: the pre-tokenizer of each walk-through when it is picked (the lecture algorithm has none)
DEFAULT_PATTERN = {"lecture": "none", "training": "whitespace", "encoding": "gpt2"}
PATTERN_KEYS = ("gpt2", "whitespace", "none")
PLAY_MS = 700


EDIT_PAUSE_MS = 400  # a pause in typing this long runs the walk-through on the new text


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
        self._add_keys()
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
        # typing runs the walk-through again once the typing pauses (Enter does it at once): the frames
        # always describe the text in the field
        self._edited = QTimer(self)
        self._edited.setSingleShot(True)
        self._edited.setInterval(EDIT_PAUSE_MS)
        self._edited.timeout.connect(self.rerun)
        for field in (self.text, self.specials):
            field.textEdited.connect(lambda _t: self._edited.start())
        self.merges = QSpinBox()
        self.merges.setRange(0, 50)
        self.merges.setToolTip(self.tr("How many merges to learn"))
        self.merges.valueChanged.connect(lambda _v: self.rerun())
        self.pattern = QComboBox()
        self.pattern.addItems(
            [
                self.tr("GPT-2 regex"),
                self.tr("Whitespace (\\S+)"),
                self.tr("None (whole piece)"),
            ]
        )
        self.pattern.setToolTip(
            self.tr(
                "How the text is cut into pre-tokens before counting: GPT-2's regex (a word keeps its "
                "leading space, so “low” and “ low” differ), runs of non-space characters (\\S+), or not at all"
            )
        )
        self.pattern.currentIndexChanged.connect(lambda _i: self.rerun())
        top = QHBoxLayout()
        top.addWidget(self.algo)
        self.text_label = QLabel(self.tr("Text:"))
        top.addWidget(self.text_label)
        top.addWidget(self.text, 3)
        self.specials_label = QLabel(self.tr("Special tokens:"))
        top.addWidget(self.specials_label)
        top.addWidget(self.specials, 1)
        self.pattern_label = QLabel(self.tr("Pre-tokens:"))
        top.addWidget(self.pattern_label)
        top.addWidget(self.pattern)
        self.merges_label = QLabel(self.tr("Merges:"))
        top.addWidget(self.merges_label)
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
        split.setSizes([640, 480])  # the code's longest line fits at 1280×720
        self.story = QLabel()
        self.story.setWordWrap(True)
        self.story.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.story.setMinimumHeight(48)
        # (top-aligned: a one-line sentence sat in the middle of its two lines, under an empty one)
        self.story.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.story.setObjectName("learnStory")
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setObjectName("learnNote")
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        lay = QVBoxLayout(self)
        lay.addLayout(top)
        # the buttons stay right under the inputs whatever the note below says (one line, two or
        # none): a click lands on the same button in every walk-through
        lay.addLayout(bar)
        lay.addWidget(self.note)
        lay.addWidget(self.story)
        lay.addWidget(split, 1)

    # ------------------------------------------------------------------ running
    def set_kind(self, kind: str) -> None:
        self.kind = kind
        self.algo.blockSignals(True)
        self.algo.setCurrentIndex(KINDS.index(kind))
        self.algo.blockSignals(False)
        self.text.setText(EXAMPLES[kind])
        self.text.setCursorPosition(0)  # (the example's start in sight, not its end)
        # the lecture algorithm has no special tokens and no pre-tokenizer (the note says so): their
        # fields are hidden there rather than shown doing nothing
        for w in (self.specials, self.specials_label, self.pattern, self.pattern_label):
            w.setVisible(kind != "lecture")
        self.merges.blockSignals(True)
        self.merges.setValue(MERGES[kind])
        self.merges.blockSignals(False)
        self.pattern.blockSignals(True)
        self.pattern.setCurrentIndex(PATTERN_KEYS.index(DEFAULT_PATTERN[kind]))
        self.pattern.blockSignals(False)
        self.rerun()

    def pattern_key(self) -> str:
        """The chosen pre-tokenizer: "gpt2", "whitespace" or "none" (always "none" for the lecture)."""
        return "none" if self.kind == "lecture" else PATTERN_KEYS[self.pattern.currentIndex()]

    def _note_text(self) -> str:
        """A line under the inputs about the example and the chosen pre-tokenizer."""
        if self.kind == "lecture":
            return self.tr(
                "The lecture's algorithm: the whole text as raw bytes (no special tokens, no "
                "pre-tokenization), ids instead of bytes, and ties go to the pair seen first."
            )
        key = self.pattern_key()
        if self.kind == "training" and self.text.text().split() == HANDOUT.split():
            if key == "whitespace":
                return self.tr(
                    "The CS336 handout's example. With whitespace pre-tokenization it gives the handout's "
                    "merges: %1."
                ).replace("%1", HANDOUT_MERGES)
            if key == "gpt2":
                return self.tr(
                    "The CS336 handout's example with GPT-2's regex: “low” and “ low” (with its space) are "
                    "different pre-tokens, so the counts and merges differ from the handout's, which "
                    "splits on whitespace."
                )
        if key == "none":
            return self.tr("No pre-tokenization: merges may cross spaces (only special tokens cut the text).")
        return ""

    def _specials(self) -> list[str]:
        return [s for s in self.specials.text().split() if s]

    def compute(self) -> Walk:
        """Run the current walk-through on the current text (raises BPEError on bad input)."""
        text, n = self.text.text(), self.merges.value()
        if self.kind == "lecture":
            return lecture.walk(text, n)
        key = self.pattern_key()
        if self.kind == "training":
            return training.walk(text, self._specials(), n, pattern=key)
        from core.tokenization.tokenizer import Tokenizer
        from core.training.trainer import Trainer

        pattern = training.LEARN_PATTERNS[key]
        t = Trainer.from_text(text, self._specials(), pattern=pattern)
        t.steps(n)
        return encoding.walk(Tokenizer(t.vocab, t.merges, self._specials(), pattern=pattern), text)

    def rerun(self) -> None:
        self._edited.stop()
        self.timer.stop()
        self.btn_play.setText(self.tr("Play"))
        self.note.setText(self._note_text())
        self.note.setVisible(bool(self.note.text()))
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
        """Show frame ``pos`` (clamped to the recorded frames): highlighted line, variables, sentence
        and position all come from that one frame."""
        if self.walk is None or not self.walk.frames:
            return
        n = len(self.walk.frames)
        pos = max(0, min(pos, n - 1))
        f = self.walk.frames[pos]
        sentence = describe(self.kind, f)  # first: nothing changes if it fails
        self.at = pos
        self._highlight(f.line)
        self.vars.setRowCount(len(f.values))
        for r, (name, value) in enumerate(f.values.items()):
            self.vars.setItem(r, 0, QTableWidgetItem(name))
            item = QTableWidgetItem(show(value))
            item.setToolTip(show(value, 200))
            self.vars.setItem(r, 1, item)
        self.vars.resizeColumnToContents(0)
        self.vars.resizeRowsToContents()
        self.story.setText(sentence)
        self.position.setText(
            self.tr("Line %1 of the code · step %2 / %3")
            .replace("%1", str(f.line + 1))
            .replace("%2", f"{self.at + 1:,}")
            .replace("%3", f"{n:,}")
        )
        if self.walk.truncated and self.at >= n - 2:
            self.position.setText(
                self.position.text() + " · " + self.tr("the text is long: later steps are not shown")
            )
        self.btn_back.setEnabled(self.at > 0)
        self.btn_step.setEnabled(self.at < n - 1)
        self.btn_end.setEnabled(self.at < n - 1)  # (it stayed enabled on the last frame)

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

    def _add_keys(self) -> None:
        """← and → step from anywhere in the view (the code, the table, a button, a list), except
        where they move a text cursor (the text and special-token fields keep them)."""
        for w in (self.code, self.code.viewport(), self.vars, self.vars.viewport(), self.algo, self.pattern):
            w.installEventFilter(self)
        for b in (self.btn_reset, self.btn_back, self.btn_step, self.btn_play, self.btn_end):
            b.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.KeyPress and event.modifiers() == Qt.KeyboardModifier.NoModifier:
            if event.key() == Qt.Key.Key_Right:
                self.go(self.at + 1)
                return True
            if event.key() == Qt.Key.Key_Left:
                self.go(self.at - 1)
                return True
        return super().eventFilter(obj, event)

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Right:
            self.go(self.at + 1)
        elif event.key() == Qt.Key.Key_Left:
            self.go(self.at - 1)
        else:
            super().keyPressEvent(event)


class LearnWindow(QMainWindow):
    """The Learn window: Esc closes it."""

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.close()
        else:
            super().keyPressEvent(event)


def open_learn(parent) -> QWidget:
    """Open (or raise) the Learn window of ``parent``'s main window: sized to fit the screen,
    brought back when it was minimised; Esc closes it."""
    win = parent.findChild(QMainWindow, "learnWindow")  # (one Learn window a main window)
    if win is None:
        win = LearnWindow(parent)
        win.setWindowTitle(QCoreApplication.translate("LearnView", "Learn BPE — step by step"))
        win.setCentralWidget(LearnView(win))
        win.setObjectName("learnWindow")
        close = QAction(win)  # Esc closes it, as it does a dialog
        close.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        close.triggered.connect(win.close)
        win.addAction(close)
    if not win.isVisible():  # fits the screen (a 1280×720 laptop too), placed over the main window
        place_on_screen(win, 1200, 720, over=parent.window())
    if win.isMinimized():  # (brought back by Help → Learn when it was minimised)
        win.setWindowState(win.windowState() & ~Qt.WindowState.WindowMinimized)
        win.showNormal()
    win.show()
    win.raise_()
    win.activateWindow()
    return win
