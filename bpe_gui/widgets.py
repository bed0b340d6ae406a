"""Small widget helpers shared by the views."""
from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget


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
        height = label.fontMetrics().lineSpacing() * lines + 14
        label.setFixedHeight(height)
        label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
    else:
        label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        label.setMinimumWidth(10)
    return label


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
        self._hint = QSize(max(min_width, 10), label.sizeHint().height() if label.maximumHeight() > 10_000
                           else label.maximumHeight())
        self.setFixedHeight(self._hint.height())
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setMinimumWidth(min_width)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return self._hint

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        self.label.setGeometry(0, 0, self.width(), self.height())
        super().resizeEvent(event)


def pinned(label: QLabel, min_width: int = 10) -> PinnedBox:
    """``label`` in a :class:`PinnedBox`, to add to a layout instead of the label."""
    return PinnedBox(label, min_width)
