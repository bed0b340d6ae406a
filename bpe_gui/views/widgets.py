"""Small widget helpers shared by the views."""

from __future__ import annotations

import math
import unicodedata

from PySide6.QtCore import QCoreApplication, QRect, QSize, Qt, Signal
from PySide6.QtGui import QFontMetrics, QTextDocument
from PySide6.QtWidgets import QLabel, QMenu, QSizePolicy, QWidget


class WrappedNote(QLabel):
    """A word-wrapped note whose height follows its text at its width.

    A wrapped QLabel in a form inside a scroll area got the height of its size hint, not of its
    text at the width it was given: a note of four lines showed two, cut through the first and
    the last (a long reason under the custom regex field). With ``max_lines`` a longer text is cut
    with "…" after that many lines, the whole of it in the tooltip (a note that must leave room
    for Step and Train on a laptop).
    """

    resized = Signal()  # its height changed with its text or width (a column fitted to it refits)

    def __init__(self, object_name: str = "notes", *, max_lines: int | None = None) -> None:
        super().__init__()
        self.setObjectName(object_name)
        self.setWordWrap(True)
        self.setVisible(False)
        self._full = ""
        self._max_lines = max_lines

    def full_text(self) -> str:
        return self._full

    def setText(self, text: str) -> None:  # (Qt's name)
        self._full = text
        self._show()

    def _show(self) -> None:
        text = self._full
        if self._max_lines and self.width() > 0:
            cut = elide(text, self.fontMetrics(), self.width(), self._max_lines)
            if cut != text and not self.toolTip():
                self.setToolTip(text)
            text = cut
        if text != super().text():
            super().setText(text)
        need = self.heightForWidth(self.width()) if self.width() > 0 else -1
        if need > 0 and need != self.minimumHeight():
            self.setMinimumHeight(need)
            self.resized.emit()

    def resizeEvent(self, event) -> None:  # (Qt's name)
        super().resizeEvent(event)
        self._show()


def elide(text: str, metrics: QFontMetrics, width: int, lines: int = 1) -> str:
    """``text`` cut with "…" so that it fits ``lines`` wrapped lines of ``width`` pixels."""
    if lines <= 1:
        return metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)
    height = metrics.lineSpacing() * lines
    flags = int(Qt.TextFlag.TextWordWrap)

    def fits(t: str) -> bool:
        return metrics.boundingRect(QRect(0, 0, width, 10_000), flags, t).height() <= height

    if fits(text):
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if fits(text[:mid].rstrip() + "…"):
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


class ElidingLabel(QLabel):
    """A plain-text label that shows as much of its text as fits ``lines`` lines, ending in "…";
    the whole text is its tooltip."""

    def __init__(self, lines: int = 2, parent=None) -> None:
        super().__init__(parent)
        self.lines = lines
        self.full_text = ""
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(lines > 1)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)

    def set_full_text(self, text: str) -> None:
        self.full_text = text
        self.setToolTip(text)
        self._fit()

    def _fit(self) -> None:
        m = self.contentsMargins()
        width = max(20, self.width() - m.left() - m.right() - 4)
        super().setText(elide(self.full_text, self.fontMetrics(), width, self.lines))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()


def status_label(text: str = "", lines: int = 1, name: str | None = None) -> QLabel:
    """A rich-text label whose changing text never resizes the layout around it.

    One-line labels ignore their text width (long text is clipped, not widening the window);
    ``lines > 1`` labels wrap and keep a fixed height of that many lines. Without this, every
    step re-laid out the whole window.
    """
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.RichText)
    if name:
        label.setObjectName(name)
    if lines > 1:
        label.setWordWrap(True)
        label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        # (+ the padding of the styled boxes and the rich-text layout's own margin: the last line was
        # cut in half, "1 special" and the pair box's "Last merge" line)
        height = label.fontMetrics().lineSpacing() * lines + 22
        label.setFixedHeight(height)
        label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
    else:
        label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        label.setMinimumWidth(10)
    return label


def has_wide_glyphs(text: str) -> bool:
    """Whether ``text`` holds Chinese, Japanese or Korean characters (East Asian wide: drawn from a
    fallback font whose lines are taller than Latin ones)."""
    return not text.isascii() and any(unicodedata.east_asian_width(ch) in "WF" for ch in text)


def wide_lines_height(label: QLabel, lines: int) -> int:
    """The height :func:`status_label` gives ``lines`` lines when they hold wide (CJK) glyphs."""
    doc = QTextDocument()
    doc.setDefaultFont(label.font())
    doc.setDocumentMargin(0)
    doc.setHtml("<code>词表 한국어</code> 词表 Ag")
    line = max(label.fontMetrics().lineSpacing(), math.ceil(doc.size().height()))
    return line * lines + 22


class PinnedBox(QWidget):
    """Holds a label whose text changes at every step, so that the change stays inside the box.

    Setting a label's text asks the enclosing layouts to recompute their geometry, which re-laid
    out the whole window after every step (about 3 ms). The label here is placed by hand in a box
    of fixed height, with no layout to notify; the box's own size comes from the layout around it.
    """

    def __init__(self, label: QLabel, min_width: int = 10) -> None:
        super().__init__()
        self.label = label
        label.setParent(self)
        label.ensurePolished()  # the style sheet's padding counts in the height
        if label.maximumHeight() > 10_000:
            # tall enough for Chinese: its glyphs come from a fallback font with a taller line (a
            # box as high as Latin text cut off the bottoms, and "100,000" read as "100.000")
            text = label.text()
            label.setText(text + " 词表 Ag,")
            height = label.sizeHint().height()
            label.setText(text)
        else:
            height = label.maximumHeight()
        self._hint = QSize(max(min_width, 10), height)
        self.setFixedHeight(self._hint.height())
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setMinimumWidth(min_width)

    def sizeHint(self) -> QSize:
        return self._hint

    def set_height(self, height: int) -> None:
        """Another fixed height (the layout around is redone once)."""
        if height != self.height():
            self.label.setFixedHeight(height)
            self._hint = QSize(self._hint.width(), height)
            self.setFixedHeight(height)

    def resizeEvent(self, event) -> None:
        self.label.setGeometry(0, 0, self.width(), self.height())
        super().resizeEvent(event)


def pinned(label: QLabel, min_width: int = 10) -> PinnedBox:
    """``label`` in a :class:`PinnedBox`, to add to a layout instead of the label."""
    return PinnedBox(label, min_width)


def rewind_menu(parent, controller, rank: int) -> QMenu:
    """A context menu for merge ``rank``: "Rewind to here" (enabled when a trainer can undo to it)."""
    menu = QMenu(parent)
    menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    act = menu.addAction(
        QCoreApplication.translate("Browser", "Rewind to here (merge #%1 becomes the last)").replace(
            "%1", f"{rank + 1:,}"
        )
    )
    act.setEnabled(controller.has_trainer and not controller.busy and rank + 1 < controller.index.n_merges)
    act.triggered.connect(lambda: controller.rewind_to(rank + 1))
    return menu
