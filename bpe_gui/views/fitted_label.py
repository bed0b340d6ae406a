"""A rich-text label that never cuts a character in half: what does not fit ends in "…".

A plain ``QLabel`` too narrow for its text clips it at its edge, often through the middle of a
glyph ("é = c3" with half the "3"). :class:`FittedLabel` shows each line (a paragraph of its text,
split at ``<br>``) whole when it fits, else up to the last whole character that fits, then "…";
the whole text is then its tooltip. Its ``text()`` stays the whole text.
"""

from __future__ import annotations

import re
import unicodedata

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QTextDocument, QTextOption
from PySide6.QtWidgets import QLabel, QSizePolicy

ELLIPSIS = "\u2026"
_PIECES = re.compile(r"(<[^>]*>|&#?\w+;)")
_TAG_NAME = re.compile(r"</?\s*([A-Za-z][\w-]*)")
_VOID = {"br", "img", "hr"}
_PARAGRAPH = re.compile(r"<br\s*/?>", re.IGNORECASE)


def _joins_previous(ch: str) -> bool:
    """A character drawn with the one before it (a combining accent, a joiner, a variation selector)."""
    return unicodedata.combining(ch) != 0 or unicodedata.category(ch) in ("Mn", "Me", "Cf")


def _visible(html: str) -> list[tuple[int, int]]:
    """Where ``html`` may be cut: (end of the visible character in the source, count of visible
    characters so far), for each character that does not join the one before it."""
    cuts: list[tuple[int, int]] = []
    seen = 0
    pos = 0
    for piece in _PIECES.split(html):
        if not piece:
            continue
        if piece.startswith("<"):
            pos += len(piece)
            continue
        if piece.startswith("&") and piece.endswith(";") and _PIECES.fullmatch(piece):
            if seen:
                cuts.append((pos, seen))
            pos += len(piece)
            seen += 1
            continue
        for ch in piece:
            if seen and not _joins_previous(ch):
                cuts.append((pos, seen))
            pos += 1
            seen += 1
    return cuts


def cut_html(html: str, at: int, space: bool = False) -> str:
    """The start of ``html`` up to source offset ``at``, then "…" (after a space: ``space``), then
    closing tags for the elements left open (so that what follows is not bold, coloured or monospace)."""
    head = html[:at].rstrip() + (" " if space else "")
    if head.endswith("&nbsp;"):
        head = head[: -len("&nbsp;")]
    open_tags: list[str] = []
    for tag in re.findall(r"<[^>]*>", head):
        m = _TAG_NAME.match(tag)
        if m is None:
            continue
        name = m.group(1).lower()
        if tag.startswith("</"):
            if name in open_tags:
                del open_tags[len(open_tags) - 1 - open_tags[::-1].index(name)]
        elif name not in _VOID and not tag.endswith("/>"):
            open_tags.append(name)
    return head + ELLIPSIS + "".join(f"</{name}>" for name in reversed(open_tags))


def _lines_of(html: str, font: QFont, width: float) -> int:
    """How many lines ``html`` takes in ``font`` at ``width`` pixels (lines break between words, or
    anywhere inside a word longer than the width, as a word-wrapping QLabel does)."""
    doc = QTextDocument()
    doc.setDefaultFont(font)
    doc.setDocumentMargin(0)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    doc.setDefaultTextOption(option)
    doc.setHtml(html)
    doc.setTextWidth(width)
    doc.size()  # (lays the text out: a block's layout has no lines before)
    n = 0
    block = doc.begin()
    while block.isValid():
        n += block.layout().lineCount()
        block = block.next()
    return n


def elide_html(html: str, font: QFont, width: float, lines: int = 1, after: str = "") -> str:
    """``html`` as it fits ``lines`` lines of ``width`` pixels: whole, or cut after a whole
    character with "…" (never inside a tag, an entity or a character with its accents).

    ``after``: a separator of the text's items (", "): the cut is made right after one, where
    that keeps at least half of what fits (so that no item is shown in part)."""
    lines = max(1, lines)
    if _lines_of(html, font, width) <= lines:
        return html
    cuts = _visible(html)
    lo, hi = 0, len(cuts) - 1
    found = -1
    while lo <= hi:  # the longest start that fits with its "…"
        mid = (lo + hi) // 2
        if _lines_of(cut_html(html, cuts[mid][0]), font, width) <= lines:
            found = mid
            lo = mid + 1
        else:
            hi = mid - 1
    if found < 0:
        return cut_html(html, 0)
    best = cut_html(html, cuts[found][0])
    if after:
        for pos, seen in reversed(cuts[: found + 1]):
            if seen * 2 < cuts[found][1]:
                break
            if html[:pos].endswith(after):
                trial = cut_html(html, pos, space=after.endswith(" "))
                return trial if _lines_of(trial, font, width) <= lines else best
    return best


def share_lines(n_paragraphs: int, lines: int) -> list[int]:
    """Lines for each paragraph: one each, the lines left over to the first (``lines`` 0: one each).

    >>> share_lines(2, 2), share_lines(1, 2), share_lines(2, 0), share_lines(3, 2)
    ([1, 1], [2], [1, 1], [1, 1, 0])
    """
    if lines <= 0:
        return [1] * n_paragraphs
    shares = [1 if i < lines else 0 for i in range(n_paragraphs)]
    if shares:
        shares[0] += max(0, lines - n_paragraphs)
    return shares


class FittedLabel(QLabel):
    """A rich-text label whose lines (its text split at ``<br>``) each end in "…" where they are
    too long, at a whole character; the whole text is then its tooltip (unless it has one of its own).

    ``lines`` 0: each paragraph gets one line; ``lines`` n: the label holds n lines, one per
    paragraph and the rest to the first one (which wraps onto them). Its width never follows its
    text (as :func:`bpe_gui.views.widgets.status_label`): changing the text re-lays out nothing.
    """

    def __init__(
        self, text: str = "", lines: int = 0, name: str | None = None, after: str = "", parent=None
    ) -> None:
        super().__init__(parent)
        self.after = after  # the separator of the text's items: a cut falls after one (see elide_html)
        self.setTextFormat(Qt.TextFormat.RichText)
        if name:
            self.setObjectName(name)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(10)
        self._full = ""
        self._tip = ""
        self._lines = lines
        self._shown_lines = 0
        self.setText(text)

    # the whole text (what the label says), not the cut one on show
    def text(self) -> str:
        return self._full

    def shown_text(self) -> str:
        """The text on show (cut with "…" where it does not fit)."""
        return super().text()

    @property
    def elided(self) -> bool:
        return super().text() != self._full

    def setText(self, text: str) -> None:
        self._full = text
        self._fit()

    def setToolTip(self, tip: str) -> None:
        """A tooltip of its own (without one, the tooltip is the whole text when it is cut)."""
        self._tip = tip
        self._set_tip()

    def hold_any_script(self) -> None:
        """As tall as a line of Chinese (its glyphs come from a fallback font with a taller line) and
        of Latin text, whatever the text: two such labels side by side line up."""
        doc = QTextDocument()
        doc.setDefaultFont(self.font())
        doc.setDocumentMargin(0)
        doc.setHtml("<b>词表 Ag</b>")
        m = self.contentsMargins()
        self.setMinimumHeight(int(doc.size().height() + 0.5) + m.top() + m.bottom() + 2 * self.margin())

    def set_lines(self, lines: int) -> None:
        self._lines = lines
        self.setWordWrap(lines > 1)
        self._fit()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() in (event.Type.FontChange, event.Type.StyleChange):
            self._fit()

    def _width(self) -> float:
        rect = self.contentsRect()
        # (a little less than the label's: its own layout then breaks lines no earlier than here)
        return max(8.0, rect.width() - 2 * self.margin() - 3)

    def _fit(self) -> None:
        full = self._full
        paragraphs = _PARAGRAPH.split(full) if full else []
        shares = share_lines(len(paragraphs), self._lines)
        width = self._width()
        font = self.font()
        shown = []
        for paragraph, share in zip(paragraphs, shares):
            if share:
                shown.append(elide_html(paragraph, font, width, share, self.after))
        text = "<br>".join(shown)
        if len(paragraphs) > len(shown) and shown:  # (more paragraphs than lines: the last ones left out)
            text = text if text.endswith(ELLIPSIS) else text + ELLIPSIS
        if text != super().text():
            super().setText(text)
        self._set_tip()

    def _set_tip(self) -> None:
        tip = self._tip or (self._full if self.elided else "")
        if tip != super().toolTip():
            super().setToolTip(tip)
