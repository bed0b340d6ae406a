"""Small widget helpers shared by the views."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy


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
