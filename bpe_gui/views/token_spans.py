"""Coloured token spans: the read-only view with hover details, and a pane with stats.

Neighbouring tokens always get different colours; whitespace can be shown with markers (· → ↵).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from html import escape
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontDatabase, QTextCharFormat, QTextCursor, QTextOption
from PySide6.QtWidgets import QTextEdit, QToolTip, QVBoxLayout, QWidget

from bpe_gui.model.char_bytes import chars_of
from bpe_gui.model.formatting import WHITESPACE_MARKERS, hex_html, piece_label, token_label
from bpe_gui.model.marks import QT_TRANSLATE_NOOP
from bpe_gui.text.plural import plural
from bpe_gui.views.fitted_label import FittedLabel
from bpe_gui.views.widgets import status_label
from core import BPEError
from core.pretokenization.patterns import GPT2_PATTERN, GPT4_PATTERN
from core.tokenization.trace import TextTrace

if TYPE_CHECKING:
    from core.tokenization.tokenizer import Tokenizer

PALETTE = [
    "#ffd6a5",
    "#caffbf",
    "#9bf6ff",
    "#bdb2ff",
    "#ffc6ff",
    "#fdffb6",
    "#a0c4ff",
    "#ffadad",
    "#b9fbc0",
    "#f1c0e8",
    "#cfbaf0",
    "#ffe5b4",
]
SPECIAL_BG = "#3a3f58"
SPECIAL_BG_2 = "#6b5a94"  # a special token right after another one: the boundary shows
ADDED_BG = "#1f6b63"  # an added token that is not special (HF "special": false): never merged either
ADDED_BG_2 = "#3c8f86"
FALLBACK_FG = "#8a1c1c"  # a byte-fallback piece (<0xE4>) of a SentencePiece model: underlined too
MARK_BG = "#e8590c"  # the selected merge's token (the timeline marks the merge in the same colour)
LINK_BG = "#1971c2"  # side by side: the tokens holding the bytes of the token clicked in either pane
MAX_RENDERED = 20_000
BREAK = "\u200b"  # zero-width space: where a line may break
JOIN = "\u2060"  # word joiner: where it may not
_HAN_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}")  # two Chinese characters side by side
HOVER_HINT = QT_TRANSLATE_NOOP(
    "TokenPane",
    "<span style='color:#778'>Hover a token to see its id, bytes and merge; click it to select its merge.</span>",
)


def trace_for_view(tokenizer, text: str) -> TextTrace:
    """What a pane shows of ``text``: the spans of its first :data:`MAX_RENDERED` tokens and the
    number of all of them. Only the shown tokens get a span: a span for each token of a pasted
    megabyte made the tokenize view take seconds after every key and every step."""
    head = getattr(tokenizer, "trace_head", None)
    if head is not None:
        return head(text, MAX_RENDERED)
    spans = tokenizer.trace(text)  # (a tokenizer without trace_head)
    spelled = b"".join(s.token for s in spans)
    same = spelled == text.encode("utf-8", "surrogateescape")
    return TextTrace(
        spans[:MAX_RENDERED], len(spans), text if same else spelled.decode("utf-8", "surrogateescape")
    )


def span_colors(ids: list[int]) -> list[int]:
    """A palette index per token: by id, moved on when it equals the previous token's colour.

    >>> span_colors([5, 5, 17])
    [5, 6, 5]
    """
    out: list[int] = []
    n = len(PALETTE)
    prev = -1
    for i in ids:
        c = i % n
        if c == prev:
            c = (c + 1) % n
        out.append(c)
        prev = c
    return out


def shown_text(span, markers: bool) -> str:
    """What the view shows for a token: its text (with markers) or hex for partial UTF-8."""
    if not span.complete_utf8:
        return token_label(span.token, markers)
    text = span.token.decode("utf-8", "surrogateescape")
    if markers:
        text = "".join(WHITESPACE_MARKERS.get(ch, ch) + ("\n" if ch == "\n" else "") for ch in text)
    return text


def unbreakable(text: str) -> str:
    """``text`` with word joiners between its characters: a line never breaks inside it (the hex
    of a partial character, a special token, a token shown with markers).

    >>> unbreakable("ab") == "a\u2060b"
    True
    >>> len(unbreakable("abc"))
    5
    """
    out: list[str] = []
    for ch in text:
        if out and ch != "\n" and out[-1] != "\n":
            out.append(JOIN)
        out.append(ch)
    return "".join(out)


class TokenSpanView(QTextEdit):
    """A read-only text showing spans; emits the hovered span index (-1 when none) and the span
    clicked (a click, not a drag that selects text)."""

    hovered = Signal(int)
    clicked = Signal(int)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAnywhere)
        self.setMouseTracking(True)
        self.viewport().setMouseTracking(True)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setPointSize(max(font.pointSize(), 11))
        self.document().setDefaultFont(font)
        self.spans: list = []
        self.starts: list[int] = []
        self.describe: Callable[[Any], str] | None = None  # the hover text of a span
        #: a SentencePiece-style model: its byte-fallback pieces are shown by name and underlined
        self.char_model: Any = None
        #: whether a token id is an added token that is not special (drawn apart from special ones)
        self.plain_added: Callable[[int], bool] | None = None
        self.marked: bytes | None = None  # the token marked wherever it stands (the selected merge's)
        #: side by side: the input's bytes [start, end) of the token clicked in either pane; the
        #: tokens here that hold any of them are marked in blue (cleared when the text is shown again)
        self.linked: tuple[int, int] | None = None
        self._ends: list[int] = []
        self._hover = -1

    def show_spans(self, spans: list, markers: bool, n_tokens: int | None = None) -> None:
        """Show the spans (the first :data:`MAX_RENDERED`); ``n_tokens``: all tokens of the text, where
        ``spans`` holds only the first of them."""
        self.clear()
        # lines break between tokens (with markers a zero-width space follows each one), never
        # inside a token such as the hex of a partial character, unless it is longer than a line
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.spans = spans[:MAX_RENDERED]
        self.starts = []
        self._ends = []
        cursor = QTextCursor(self.document())
        cursor.beginEditBlock()
        colors = span_colors([s.id for s in self.spans])
        fmt = QTextCharFormat()
        plain = QTextCharFormat()
        prev_special_bg = None
        for span, ci in zip(self.spans, colors):
            self.starts.append(cursor.position())
            if span.is_special:
                added = self.plain_added is not None and self.plain_added(span.id)
                first, second = (ADDED_BG, ADDED_BG_2) if added else (SPECIAL_BG, SPECIAL_BG_2)
                bg = second if prev_special_bg == first else first
                prev_special_bg = bg
                fmt.setBackground(QColor(bg))
                fmt.setForeground(QColor("white"))
                fmt.setFontWeight(QFont.Weight.Bold)
            else:
                prev_special_bg = None
                fmt.setBackground(QColor(PALETTE[ci]))
                fmt.setForeground(QColor("#1b1f2a") if span.complete_utf8 else QColor("#a23b00"))
                fmt.setFontWeight(QFont.Weight.Normal)
            fmt.setFontItalic(not span.complete_utf8)
            fallback = self.char_model is not None and self.char_model.is_byte_fallback(span.id)
            fmt.setFontUnderline(fallback)
            if fallback:
                fmt.setForeground(QColor(FALLBACK_FG))
                fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DotLine)
            if fallback:  # the piece's name (<0x0A>); a newline byte still ends the line
                shown = piece_label(self.char_model.piece(span.id)) + ("\n" if span.token == b"\n" else "")
            else:
                shown = shown_text(span, markers)
            if markers or span.is_special or not span.complete_utf8:
                shown = unbreakable(shown)
            cursor.insertText(shown, fmt)
            self._ends.append(cursor.position())
            if markers:  # (without markers, lines break at the text's own spaces)
                cursor.insertText(BREAK, plain)
        total = max(len(spans), n_tokens or 0)
        if total > len(self.spans):
            plain = QTextCharFormat()
            cursor.insertText(
                "\n" + self.tr("… {0} more tokens not shown").format(f"{total - len(self.spans):,}"), plain
            )
        cursor.endEditBlock()
        self._hover = -1
        self.linked = None  # (the bytes of another text, or of this one tokenized anew)
        self.mark(self.marked)

    def mark(self, token: bytes | None) -> int:
        """Mark every place ``token`` stands as a token of its own (None: none); returns how many."""
        self.marked = token
        marks = []
        if token is not None:
            fmt = QTextCharFormat()
            fmt.setBackground(QColor(MARK_BG))
            fmt.setForeground(QColor("white"))
            for span, start, end in zip(self.spans, self.starts, self._ends):
                if span.token == token and not span.is_special:
                    cursor = QTextCursor(self.document())
                    cursor.setPosition(start)
                    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
                    sel = QTextEdit.ExtraSelection()
                    sel.cursor = cursor
                    sel.format = fmt
                    marks.append(sel)
        n = len(marks)
        if self.linked is not None:
            fmt = QTextCharFormat()
            fmt.setBackground(QColor(LINK_BG))
            fmt.setForeground(QColor("white"))
            for i in self.linked_spans():
                cursor = QTextCursor(self.document())
                cursor.setPosition(self.starts[i])
                cursor.setPosition(self._ends[i], QTextCursor.MoveMode.KeepAnchor)
                sel = QTextEdit.ExtraSelection()
                sel.cursor = cursor
                sel.format = fmt
                marks.append(sel)
        self.setExtraSelections(marks)
        return n

    def linked_spans(self) -> list[int]:
        """Indexes of the spans holding any byte of :attr:`linked`."""
        if self.linked is None:
            return []
        start, end = self.linked
        return [i for i, s in enumerate(self.spans) if s.byte_start < end and s.byte_end > start]

    def link(self, byte_range: tuple[int, int] | None) -> list[int]:
        """Mark in blue the tokens holding any of the input's bytes ``byte_range`` (None: none) and
        scroll to the first one; returns their indexes."""
        self.linked = byte_range
        self.mark(self.marked)
        found = self.linked_spans()
        if found:
            at = QTextCursor(self.document())
            at.setPosition(self.starts[found[0]])
            if not self.viewport().rect().intersects(self.cursorRect(at)):
                self.setTextCursor(at)
                self.ensureCursorVisible()
        return found

    def reveal_mark(self) -> None:
        """Scroll to the first marked token unless one is in sight already."""
        marks = self.extraSelections()
        if not marks:
            return
        area = self.viewport().rect()
        places = []
        for sel in marks:
            at = QTextCursor(self.document())
            at.setPosition(sel.cursor.selectionStart())
            if area.intersects(self.cursorRect(at)):
                return
            places.append(at)
        self.setTextCursor(places[0])
        self.ensureCursorVisible()

    def span_at(self, pos: QPoint) -> int:
        """Index of the span under a viewport position, or -1."""
        if not self.spans:
            return -1
        doc_pos = pos + QPoint(self.horizontalScrollBar().value(), self.verticalScrollBar().value())
        at = self.document().documentLayout().hitTest(doc_pos, Qt.HitTestAccuracy.ExactHit)
        if at < 0:
            return -1
        i = bisect.bisect_right(self.starts, at) - 1
        return i if 0 <= i < len(self.spans) else -1

    def mouseMoveEvent(self, event) -> None:
        i = self.span_at(event.position().toPoint())
        if i != self._hover:
            self._hover = i
            self.hovered.emit(i)
            if i >= 0 and self.describe is not None:
                QToolTip.showText(event.globalPosition().toPoint(), self.describe(self.spans[i]), self)
            else:
                QToolTip.hideText()
        super().mouseMoveEvent(event)

    def leaveEvent(self, event) -> None:
        # the pointer left the text: the line under it says again what it says with nothing hovered
        # (it kept the last token's details, over what the orange tokens are)
        if self._hover != -1:
            self._hover = -1
            self.hovered.emit(-1)
        super().leaveEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        super().mouseReleaseEvent(event)
        if event.button() == Qt.MouseButton.LeftButton and not self.textCursor().hasSelection():
            i = self.span_at(event.position().toPoint())
            if i >= 0:
                self.clicked.emit(i)


class TokenPane(QWidget):
    """One tokenizer's output: a header, the span view, stats and hover info."""

    def __init__(self, title: str, parent=None) -> None:
        super().__init__(parent)
        self.tokenizer: Tokenizer | None = None
        self._text = ""  # the text shown (hover text names the characters a token holds)
        self.name = ""  # the tokenizer's name (side by side, the status bar names the pane)
        # (the title, the split characters and the hover line end in "…" where the pane is too
        # narrow for them, at a whole character; their tooltips hold the whole text)
        self.title = FittedLabel(title)
        self.title.hold_any_script()  # (side by side, a Chinese title and a Latin one line up)
        self.view = TokenSpanView()
        self.view.describe = self.describe
        self.stats = status_label(name="tokenStats")
        self.stats.setToolTip(
            self.tr(
                "Tokens: how many tokens the text becomes. Bytes/token and chars/token: "
                "how much text one token carries on average (higher = better compression)."
            )
        )
        self.split_chars = FittedLabel(name="splitChars", after=", ")  # (a character with all its bytes)
        self.split_chars.setVisible(False)
        self._compact = False  # side by side with another pane
        #: under the tokens: the characters cut into byte tokens (over their bytes), and whether the
        #: pattern's note on Chinese clauses is said
        self._split: tuple[list[str], bool] = ([], False)
        self._marked_rank: int | None = None  # the selected merge, whose token the view marks
        self._mark_note = ""
        self.info = FittedLabel(self.tr(HOVER_HINT), name="hoverInfo")
        self.info.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.title)
        lay.addWidget(self.view, 1)
        lay.addWidget(self.stats)
        lay.addWidget(self.split_chars)
        lay.addWidget(self.info)
        self.view.hovered.connect(self._hovered)

    @property
    def shown_text(self) -> str:
        """The text the tokens spell (the input unless a normalizer changed it)."""
        return self._text

    def set_compact(self, compact: bool) -> None:
        """Side by side with another pane (half the width): the stats wrap onto two lines, the split
        characters have two lines (each of their lines cut with "…" where it is too long, whole in
        the tooltip) and the hover line is left out (hovering a token shows the same text as its tooltip)."""
        self._compact = compact
        self.split_chars.set_lines(2 if compact else 0)
        for label in (self.stats, self.split_chars):
            label.setWordWrap(compact)
            label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
            if compact:
                label.setFixedHeight(label.fontMetrics().lineSpacing() * 2 + 6)
            else:
                label.setMinimumHeight(0)
                label.setMaximumHeight(16777215)  # (QWIDGETSIZE_MAX: its own height again)
        # side by side, the split characters keep their two lines when this text has none: the two
        # token views stay the same height, their lines side by side (one pane's was two lines shorter)
        policy = self.split_chars.sizePolicy()
        policy.setRetainSizeWhenHidden(compact)
        self.split_chars.setSizePolicy(policy)
        self.info.setVisible(not compact)
        if not self.split_chars.isHidden():  # (the shorter words side by side, the longer alone)
            self._say_split(*self._split)

    def tokenize_text(self, text: str, markers: bool) -> None:
        """Tokenize ``text`` here (on the calling thread) and show it."""
        tok = self.tokenizer
        self.view.char_model = getattr(tok, "char_model", None)
        self.view.plain_added = getattr(tok, "is_plain_added", None)
        if tok is None:
            self.view.show_spans([], markers)
            self.split_chars.setVisible(False)
            self.stats.setText(self.tr("No tokenizer."))
            return
        try:
            traced = trace_for_view(tok, text)
        except BPEError as e:
            self.show_error(str(e), markers)
            return
        self.show_trace(traced, text, markers)

    def show_error(self, message: str, markers: bool) -> None:
        self.view.show_spans([], markers)
        self.split_chars.setVisible(False)
        self._show_idle()
        self.stats.setText(f"<span style='color:#c62828'>{escape(message)}</span>")

    def show_tokens(self, spans: list, text: str, markers: bool) -> None:
        """Show already computed spans of ``text`` (all its tokens) and their stats."""
        # a normalizer or a dummy prefix (SentencePiece's "▁") changes the text: the spans' offsets
        # are into the text the tokens spell, and the hover names that text's characters
        spelled = b"".join(s.token for s in spans)
        same = spelled == text.encode("utf-8", "surrogateescape")
        shown = text if same else spelled.decode("utf-8", "surrogateescape")
        self.show_trace(TextTrace(spans, len(spans), shown), text, markers)

    def show_trace(self, traced: TextTrace, text: str, markers: bool) -> None:
        """Show the head of a text's trace (:func:`trace_for_view`) and the whole text's stats."""
        spans = traced.spans
        self._text = traced.text
        n_vocab = len(self.tokenizer.vocab) if self.tokenizer is not None else 0
        self.view.char_model = getattr(self.tokenizer, "char_model", None)
        self.view.plain_added = getattr(self.tokenizer, "is_plain_added", None)
        self.view.show_spans(spans, markers, traced.n_tokens)
        self._show_split_chars(spans, self._text)
        self._note_mark()
        self._show_idle()  # what was hovered belongs to the text shown before
        n = traced.n_tokens
        n_bytes = len(text.encode("utf-8", "surrogateescape"))
        if n:
            self.stats.setText(
                self.tr(
                    "<b>{0}</b> tokens · <b>{1}</b> bytes/token · <b>{2}</b> chars/token · vocab {3}"
                ).format(f"{n:,}", f"{n_bytes / n:.2f}", f"{len(text) / n:.2f}", f"{n_vocab:,}")
            )
        else:
            self.stats.setText(self.tr("0 tokens · vocab {0}").format(f"{n_vocab:,}"))

    def _show_split_chars(self, spans: list, text: str) -> None:
        """Under the tokens: the characters that are cut into byte tokens, over their bytes."""
        chars = chars_of("".join(text[s.start : s.end] for s in spans if not s.complete_utf8), limit=4)
        tok = self.tokenizer
        clause = (
            tok is not None
            and tok.pattern_regex in (GPT2_PATTERN, GPT4_PATTERN)
            and _HAN_RUN.search(text) is not None
        )
        self._say_split(chars, clause)

    def _say_split(self, chars: list[str], clause: bool) -> None:
        """The split characters' line (side by side, in fewer words: the characters come before the
        line's end) and the pattern's note; the tooltip says it all."""
        self._split = (chars, clause)
        self.split_chars.setVisible(bool(chars) or clause)
        lines = []
        shown = []
        if chars:
            lines.append(
                self.tr("Characters split into byte tokens (shown as hex): {0}").format(
                    escape(", ".join(chars))
                )
            )
            if self._compact:
                shown.append(self.tr("Split into bytes: {0}").format(escape(", ".join(chars))))
        if clause:
            lines.append(
                self.tr(
                    "This pattern keeps a run of Chinese characters together (\\p{L}+): a whole clause "
                    "without spaces or punctuation is one pre-token, so merges may join any of its characters."
                )
            )
        whole = "<br>".join(lines)
        self.split_chars.setText("<br>".join(shown + lines[len(shown) :]))
        self.split_chars.setToolTip(whole)

    def describe(self, span) -> str:
        """id, bytes, hex, merge rank and the two parts of a token (hover text)."""
        tok = self.tokenizer
        if tok is None:
            return ""
        lines = [
            f"<b>id {span.id}</b> &nbsp; <code>{escape(token_label(span.token))}</code>",
            self.tr("bytes: {0} &nbsp; hex: {1}").format(escape(repr(span.token)), hex_html(span.token)),
        ]
        sp = getattr(tok, "char_model", None)
        if sp is not None and not span.is_special:
            piece = sp.piece(span.id)
            score = sp.score(span.id)
            lines.append(
                self.tr("piece <code>{0}</code>").format(escape(piece_label(piece or "")))
                + ("" if score is None else " &nbsp; " + self.tr("score {0}").format(f"{score:g}"))
            )
        if span.is_special and tok.is_plain_added(span.id):
            lines.append(self.tr("added token, not special (never merged)"))
        elif span.is_special:
            lines.append(self.tr("special token (never merged)"))
        elif sp is not None and sp.is_byte_fallback(span.id):
            lines.append(
                self.tr("byte fallback: the character is not in the vocab, so each of its bytes is a token")
            )
        elif sp is not None and sp.kind(span.id) == "user-defined":
            lines.append(self.tr("user-defined piece (always kept whole)"))
        elif tok is not None and not tok.merges_built and len(span.token) > 1:
            # a tiktoken import whose merges are still being recovered (rebuilding them here would stall)
            lines.append(self.tr("made by a merge (not recovered from the ranks yet)"))
        else:
            rank = tok.token_rank(span.id) if tok is not None else None
            parts = tok.parts(span.id) if tok is not None else None
            if rank is not None and parts is not None:
                lines.append(
                    self.tr("merge #{0}: <code>{1}</code> + <code>{2}</code>").format(
                        f"{rank + 1:,}", escape(token_label(parts[0])), escape(token_label(parts[1]))
                    )
                )
            elif len(span.token) == 1:
                lines.append(self.tr("single byte (base vocabulary)"))
        whole = chars_of(self._text[span.start : span.end]) if not span.is_special else []
        if not span.complete_utf8:
            lines.append(self.tr("<i>partial UTF-8 character: shown as hex</i>"))
            if whole:
                lines.append(self.tr("a piece of: {0}").format(escape(", ".join(whole))))
        elif whole:
            lines.append(self.tr("characters over their bytes: {0}").format(escape(", ".join(whole))))
        return "<br>".join(lines)

    def mark_merge(self, rank: int | None, token: bytes | None, reveal: bool = False) -> None:
        """Mark the token of the selected merge ``rank`` wherever it stands in the text (None: none);
        ``reveal``: scroll to it if none of its places is in sight."""
        self._marked_rank = rank if token is not None else None
        self.view.marked = token
        self._note_mark()
        if reveal:
            self.view.reveal_mark()
        if self.view._hover < 0:
            self._show_idle()

    def _note_mark(self) -> None:
        """Mark the selected merge's token in the spans shown, and say what the orange tokens are."""
        n = self.view.mark(self.view.marked)
        rank, token = self._marked_rank, self.view.marked
        if rank is None or token is None or not self.view.spans:
            self._mark_note = ""
            return
        label = f"<code>{escape(token_label(token))}</code>"
        if n:
            text = self.tr(
                "In orange: %1, the token of the selected merge #%2 (%n time(s) in this text).", "", n
            )
            color = MARK_BG
        else:
            text = self.tr(
                "The selected merge #%2 made %1: it is not a token of its own in this text "
                "(later merges joined it into longer ones, or the text lacks it)."
            )
            color = "#778"
        text = plural(text, n).replace("%2", f"{rank + 1:,}").replace("%1", label)
        self._mark_note = f"<span style='color:{color}'>{text}</span>"

    def idle_hint(self) -> str:
        """The line under the tokens when none is hovered: what the orange ones are, else how to hover."""
        return self._mark_note or self.tr(HOVER_HINT)

    def _show_idle(self) -> None:
        self.info.setText(self.idle_hint())
        self.info.setToolTip(self._mark_note)  # (the whole note where the line is too narrow for it)

    def _hovered(self, i: int) -> None:
        if i < 0:
            self._show_idle()
            return
        self.info.setToolTip("")  # (the whole line where it is cut)
        self.info.setText(self.describe(self.view.spans[i]).replace("<br>", " · "))
