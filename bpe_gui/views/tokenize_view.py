"""Tokenize view: typed or pasted text shown as coloured token spans, with hover details.

It re-tokenizes when the text or the tokenizer changes (debounced). Building a Tokenizer for a
large vocab takes tens of milliseconds, so after a step or a run it is built, and the text
traced, in a worker thread; the controller caches the result. A second tokenizer (e.g. GPT-2
files) can be shown side by side.
"""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING

from PySide6.QtCore import QEventLoop, QMimeData, QSize, Qt, QThread, QTimer
from PySide6.QtGui import QTextCharFormat, QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from core.tokenization.tokenizer import Tokenizer
    from core.tokenization.trace import TextTrace

from bpe_gui.jobs import worker
from bpe_gui.model.formatting import token_label
from bpe_gui.text.plural import plural
from bpe_gui.views.token_spans import (  # noqa: F401 - shown_text, span_colors: re-exported for tests
    TokenPane,
    shown_text,
    span_colors,
    trace_for_view,
)
from core import BPEError

DEFAULT_TEXT = (
    "The quick brown fox jumps over the lazy dog. Tokenizers split text into pieces;\n"
    "naïve café — and numbers like 12345 or 3.14159.<|endoftext|>Once upon a time"
)
SYNC_CHARS = 4000  # a cached tokenizer traces texts up to this size on the GUI thread
DEBOUNCE_MS = 60  # after typing
TOKENIZER_DEBOUNCE_MS = 250  # after the merges changed: stepping fast rebuilds the tokenizer once
INPUT_LINES = 3  # the text input's height before a taller window gives it more (up to 110 px)
CR_SHOWN = "\u21e4"  # ⇤: a carriage return in the text to tokenize (Qt's text edit keeps none)
CR_PROPERTY = QTextFormat.Property.UserProperty + 1  # (in the ⇤'s character format: it stands for a \r)
PS_SHOWN = "\u00b6"  # ¶: a paragraph separator (U+2029), which Qt's text edit turns into a line break
PS_PROPERTY = QTextFormat.Property.UserProperty + 2  # (in the ¶'s character format: it stands for U+2029)
#: the characters Qt's text edit keeps none of: (what stands for it in the text, its format's property)
KEPT_AS = {"\r": (CR_SHOWN, CR_PROPERTY), "\u2029": (PS_SHOWN, PS_PROPERTY)}
_KEPT = re.compile("([\r\u2029])")


class TextInput(QPlainTextEdit):
    """The text to tokenize, character for character as it was typed or pasted.

    Qt's text edit turns a carriage return into a line break (a pasted CRLF text lost its \\r, a lone
    \\r became \\n): here one is kept, shown as ⇤ and marked as a carriage return in its character
    format, so that a ⇤ typed or pasted as itself stays a ⇤. The text is read from the document's
    fragments, not with toPlainText(), which turns a no-break space into a space and a line separator
    (U+2028) into \\n: the tokens shown were not those of the pasted text. A paragraph separator
    (U+2029), which the text edit also turns into a line break, is kept the same way, shown as ¶.
    """

    def insertFromMimeData(self, source) -> None:
        if source.hasText():
            self.insert_text(source.text())
            return
        super().insertFromMimeData(source)

    def insert_text(self, text: str) -> None:
        """Insert ``text`` at the cursor, each carriage return as a marked ⇤, each paragraph separator
        as a marked ¶."""
        cursor = self.textCursor()
        plain = QTextCharFormat()
        cursor.beginEditBlock()
        for part in _KEPT.split(text):
            if part in KEPT_AS:
                shown, prop = KEPT_AS[part]
                marked = QTextCharFormat()
                marked.setProperty(prop, True)
                cursor.insertText(shown, marked)
            elif part:
                cursor.insertText(part, plain)
        cursor.endEditBlock()
        self.setTextCursor(cursor)
        self.ensureCursorVisible()

    def sizeHint(self) -> QSize:
        """Three lines of text: in a short window the tokens below get the height first (the input
        took its 110 px and left the token view two lines of a four-line text at 1280×720)."""
        hint = super().sizeHint()
        frame = self.frameWidth() * 2 + int(self.document().documentMargin() * 2)
        return QSize(hint.width(), self.fontMetrics().lineSpacing() * INPUT_LINES + frame)

    def text(self) -> str:
        """The text as it is tokenized (a marked ⇤ is a carriage return, a marked ¶ a U+2029)."""
        raw = self.document().toRawText()  # (no-break spaces kept; blocks end in U+2029)
        if CR_SHOWN not in raw and PS_SHOWN not in raw:
            # no ⇤ or ¶ to tell apart: the whole text at once, not fragment by fragment
            return raw.replace("\u2029", "\n")
        return self._text_between(0, None)

    def _text_between(self, start: int, end: int | None) -> str:
        """The text between two positions of the document (UTF-16 units, as Qt counts them; ``end``
        None: to the end), each marked ⇤ a carriage return, each marked ¶ a U+2029 and each block
        break a \\n."""
        out = []
        block = self.document().begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                at, piece = fragment.position(), fragment.text()
                lo, hi = (
                    max(start, at),
                    fragment.length() + at if end is None else min(end, at + fragment.length()),
                )
                if lo < hi:
                    if (lo, hi) != (at, at + fragment.length()):
                        units = piece.encode("utf-16-le", "surrogatepass")
                        piece = units[2 * (lo - at) : 2 * (hi - at)].decode("utf-16-le", "surrogatepass")
                    form = fragment.charFormat()
                    for real, (shown, prop) in KEPT_AS.items():
                        if form.property(prop):
                            piece = piece.replace(shown, real)
                    out.append(piece)
                it += 1
            brk = block.position() + block.length() - 1  # (the block's break, or the end of the text)
            block = block.next()
            if block.isValid() and start <= brk and (end is None or brk < end):
                out.append("\n")
        return "".join(out)

    def createMimeDataFromSelection(self) -> QMimeData:
        """Copy and drag give the text as it is tokenized: carriage returns and no-break spaces as they
        are (a copied ⇤ pasted back stays a carriage return)."""
        cursor = self.textCursor()
        data = QMimeData()
        data.setText(self._text_between(cursor.selectionStart(), cursor.selectionEnd()))
        return data

    def set_text(self, text: str) -> None:
        self.clear()
        self.insert_text(text)
        self.moveCursor(QTextCursor.MoveOperation.Start)


class TokenizeJob(worker.Job):
    """Build a Tokenizer from plain data (unless one is given) and trace a text with it; and with the
    tokenizer compared side by side (``second``), where one is."""

    kind = "tokenize"

    def __init__(
        self, version: int, args: tuple | None, tokenizer: Tokenizer | None, text: str, second=None
    ) -> None:
        super().__init__()
        self.version, self.args, self.tokenizer, self.text = version, args, tokenizer, text
        self.second = second
        self.second_value: TextTrace | None = None
        self.second_error: str | None = None

    def work(self) -> None:
        if self.second is not None:
            try:
                self.second_value = trace_for_view(self.second, self.text)
            except BPEError as e:
                self.second_error = str(e)
        tok = worker.tokenizer_from(self.tokenizer, self.args)
        self.tokenizer = tok
        self.result.value = trace_for_view(tok, self.text)


class TokenizeView(QWidget):
    def __init__(self, controller, parent=None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.input = TextInput()
        self.input.setPlaceholderText(self.tr("Type or paste text to tokenize …"))
        self.input.set_text(DEFAULT_TEXT)
        self.input.setMaximumHeight(110)
        self.input.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.input.setMinimumHeight(48)  # two lines: a short window keeps room for the timeline
        self.input.setAcceptDrops(False)  # a dropped file opens it (the window handles the drop)
        self.markers = QCheckBox(self.tr("Markers · → ↵"))
        self.markers.setToolTip(self.tr("Show spaces, tabs and newlines as · → ↵"))
        self.markers.setChecked(True)
        self.compare_button = QPushButton(self.tr("Compare with…"))
        self.compare_button.setToolTip(
            self.tr(
                "Open a second tokenizer (GPT-2 vocab.json/merges.txt, tokenizer.json, "
                "tiktoken or native file) to compare side by side"
            )
        )
        self.close_compare = QPushButton(self.tr("Close comparison"))
        self.close_compare.setVisible(False)
        self.primary = TokenPane(self.tr("<b>This tokenizer</b>"))
        self.secondary = TokenPane("")
        self.secondary.setVisible(False)
        self.panes = QSplitter(Qt.Orientation.Horizontal)
        self.panes.addWidget(self.primary)
        self.panes.addWidget(self.secondary)
        for pane in (self.primary, self.secondary):
            pane.view.setMinimumHeight(56)
        # a token clicked in this tokenizer's text: its merge becomes the selected one (every view
        # shows it; the details offer the corpus snippets where the token occurs)
        self.primary.view.clicked.connect(self._token_clicked)
        # side by side, a token clicked in either pane: the tokens of both that hold its bytes turn blue
        self.secondary.view.clicked.connect(lambda i: self._link(self.secondary, i))
        # … and the selected merge's token is marked wherever it stands in the text
        controller.merge_selected.connect(lambda _rank: self._mark_selected(reveal=True))
        controller.selection_cleared.connect(self._mark_selected)

        bar = QHBoxLayout()
        bar.addWidget(QLabel(self.tr("<b>Tokenize</b>")))
        bar.addStretch(1)
        bar.addWidget(self.markers)
        bar.addWidget(self.compare_button)
        bar.addWidget(self.close_compare)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addLayout(bar)
        # height beyond their hints: a part to the input (up to its 110 px), three to the tokens
        lay.addWidget(self.input, 1)
        lay.addWidget(self.panes, 3)

        self._job: TokenizeJob | None = None
        self._thread: QThread | None = None
        self._pending = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.refresh)
        self.input.textChanged.connect(lambda: self._timer.start(DEBOUNCE_MS))
        self.markers.toggled.connect(self.refresh)
        self.close_compare.clicked.connect(lambda: self.set_comparison(None))
        controller.tokenizer_changed.connect(lambda: self._timer.start(TOKENIZER_DEBOUNCE_MS))
        controller.busy_changed.connect(lambda _b: self._timer.start())
        # an import's merges arrive in batches while its tokenizer (whole from the start) is shown:
        # the title follows them (it said 40,000 merges of cl100k's 100,000 until the tokens were redone)
        controller.merges_appended.connect(lambda _n: self._import_title())
        self.refresh()

    # ------------------------------------------------------------------ public
    def set_text(self, text: str) -> None:
        self.input.set_text(text)
        self.refresh()

    def set_comparison(self, tokenizer, name: str = "") -> None:
        """Show a second tokenizer next to the current one (None closes the comparison)."""
        self.secondary.tokenizer = tokenizer
        self.secondary.name = name
        self.secondary.title.setText(f"<b>{escape(name)}</b>")
        self.secondary.setVisible(tokenizer is not None)
        self.close_compare.setVisible(tokenizer is not None)
        for pane in (self.primary, self.secondary):
            pane.set_compact(tokenizer is not None)
        self.refresh()

    @property
    def idle(self) -> bool:
        """No tokenization is running or waiting."""
        return self._job is None and not self._pending and not self._timer.isActive()

    def wait_idle(self, timeout_ms: int = 10_000) -> bool:
        """Run the event loop until the view shows the current text and tokenizer."""
        loop = QEventLoop()
        waited = 0
        while not self.idle and waited < timeout_ms:
            QTimer.singleShot(10, loop.quit)
            loop.exec()
            waited += 10
        return self.idle

    def _token_clicked(self, i: int) -> None:
        spans = self.primary.view.spans
        if not 0 <= i < len(spans):
            return
        self._select_merge_of(spans[i])
        self._link(self.primary, i)  # (side by side: its message is the one left in the status bar)

    def _link(self, pane: TokenPane, i: int) -> None:
        """Side by side: mark in blue, in both panes, the tokens holding the bytes of token ``i`` of
        ``pane``, and say in the status bar how each tokenizer cuts them."""
        other = self.secondary if pane is self.primary else self.primary
        if not self.secondary.isVisibleTo(self) or not 0 <= i < len(pane.view.spans):
            return
        if pane.shown_text != other.shown_text:  # (a normalizer changed one text: offsets differ)
            pane.view.link(None)
            other.view.link(None)
            self.controller.message.emit(
                self.tr("The two tokenizers change the text differently: their tokens cannot be lined up.")
            )
            return
        span = pane.view.spans[i]
        byte_range = (span.byte_start, span.byte_end)
        here = [pane.view.spans[j] for j in pane.view.link(byte_range)]
        there = [other.view.spans[j] for j in other.view.link(byte_range)]

        def cut(spans: list) -> str:  # (the first 8: a Chinese clause can be dozens of byte tokens)
            shown = " + ".join(f"{token_label(s.token)} ({s.id:,})" for s in spans[:8])
            return shown + (" + …" if len(spans) > 8 else "")

        text = self.tr("In blue, the same bytes in both: %n token(s) in %1: %2; ", "", len(here))
        text = plural(text, len(here)).replace("%1", pane.name).replace("%2", cut(here))
        rest = self.tr("%n token(s) in %1: %2.", "", len(there))
        rest = plural(rest, len(there)).replace("%1", other.name).replace("%2", cut(there))
        self.controller.message.emit(text + rest)

    def _select_merge_of(self, span) -> None:
        """The merge that makes ``span``'s token becomes the selected one (or the status bar says why none)."""
        rank = None if span.is_special else self.controller.index.rank_of.get(span.token)
        if rank is None:
            sp = self.controller.index.char_model
            if sp is not None and not span.is_special and not sp.is_byte_fallback(span.id):
                # (a SentencePiece model's alphabet: its characters are pieces no merge makes)
                text = self.tr("Token {0} is a character piece of the model: no merge makes it.")
            elif sp is not None and not span.is_special:
                text = self.tr("Token {0} is a byte-fallback piece: no merge makes it.")
            elif span.is_special and self.controller.index.is_plain_added(span.id):
                text = self.tr("Token {0} is an added token (not special): no merge makes it.")
            elif span.is_special:
                text = self.tr("Token {0} is a special token: no merge makes it.")
            else:
                text = self.tr("Token {0} was made by no merge (a byte or a special token).")
            self.controller.message.emit(text.format(f"{span.id:,}"))
            return
        self.controller.select_merge(rank)

    def shutdown(self) -> None:
        """Wait for a running tokenization (called when the window closes)."""
        self._pending = False
        self._timer.stop()
        if self._thread is not None and self._job is not None:
            self._job.cancel()
            self._thread.wait()
            self._finished()

    # ------------------------------------------------------------------ tokenizing
    def _mark_selected(self, reveal: bool = False) -> None:
        c = self.controller
        rank, merges = c.selected_merge, c.index.merges
        if rank is None or not 0 <= rank < len(merges):
            self.primary.mark_merge(None, None)
        else:  # (scrolled to when picked, not each time the text is tokenized again)
            self.primary.mark_merge(rank, merges[rank].token, reveal=reveal)

    def refresh(self) -> None:
        self._timer.stop()
        c = self.controller
        self._mark_selected()  # (an undo or a new corpus may have moved or cleared the selection)
        text = self.input.text()
        markers = self.markers.isChecked()
        second = self.secondary.tokenizer
        if second is not None and len(text) <= SYNC_CHARS:
            self.secondary.tokenize_text(text, markers)
            second = None
        # (a longer text is traced in the job with this tokenizer's: on the GUI thread, GPT-2 beside
        # a pasted megabyte held the window about 0.4 s after every key and step)
        if c.busy in ("train", "step"):
            self.primary.stats.setText(self.tr("<i>Re-tokenizes when the run is over …</i>"))
            return
        self._show_title()
        tok = c.cached_tokenizer()
        if tok is not None and len(text) <= SYNC_CHARS and self._job is None:
            self.primary.tokenizer = tok
            self.primary.tokenize_text(text, markers)
            return
        if self._job is not None:
            self._pending = True
            return
        args = None if tok is not None else c.tokenizer_args()
        version = c.version if args is None else args[0]
        job = TokenizeJob(version, None if args is None else args[1:], tok, text, second)
        self._job = job
        self._pending = False
        self._thread = worker.start(job, self._finished)

    def _show_title(self) -> None:
        c = self.controller
        name = c.source_name or self.tr("current tokenizer")
        n = c.index.n_merges
        self.primary.name = name
        self.primary.title.setText(
            f"<b>{escape(name)}</b> <span style='color:#667'>— "
            + plural(self.tr("%n merge(s)", "", n), n)
            + "</span>"
        )

    def _import_title(self) -> None:
        if self.controller.busy == "import":
            self._show_title()

    def _finished(self) -> None:
        job, thread = self._job, self._thread
        if job is None or thread is None:
            return
        worker.join(thread)
        self._job = self._thread = None
        c = self.controller
        c.store_tokenizer(job.version, job.tokenizer)
        current = job.version == c.version and job.text == self.input.text()
        if current and not c.busy:
            self.primary.tokenizer = job.tokenizer
            res = job.result
            if res.error is not None:
                self.primary.show_error(res.error_message or "", self.markers.isChecked())
            elif res.value is not None:
                self.primary.show_trace(res.value, job.text, self.markers.isChecked())
            if res.crash is not None:
                worker.report_crash(res.crash)
        if current and job.second is not None and job.second is self.secondary.tokenizer:
            markers = self.markers.isChecked()
            if job.second_value is not None:
                self.secondary.show_trace(job.second_value, job.text, markers)
            elif job.second_error is not None:
                self.secondary.show_error(job.second_error, markers)
        if self._pending or not current:
            self._pending = False
            self._timer.start()
