"""The mouse wheel scrolls a panel instead of changing the setting under the pointer.

In a scrolling panel (the left column, the Evaluate body) a spin box or combo box that the pointer
passes over while the user scrolls took the wheel and changed its value (three notches over Vocab
size: 1,000 → 1,768). :func:`guard_wheel` makes those inputs take the wheel only once they have focus
(a click or Tab gives it, the wheel no longer does); otherwise the wheel goes on scrolling the panel.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractScrollArea, QAbstractSpinBox, QComboBox, QWidget

GUARDED = (QAbstractSpinBox, QComboBox)


class _WheelToScroll(QObject):
    """Sends the wheel of an unfocused input on to the scroll area around it."""

    def __init__(self, area: QAbstractScrollArea) -> None:
        super().__init__(area)
        self.area = area

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Wheel and isinstance(obj, QWidget) and not obj.hasFocus():
            QCoreApplication.sendEvent(self.area.viewport(), event)
            return True
        return super().eventFilter(obj, event)


def guard_wheel(area: QAbstractScrollArea, inside: QWidget | None = None) -> int:
    """Guard every spin box and combo box in ``inside`` (by default the widget ``area`` scrolls):
    focus by click or Tab only, and the wheel scrolls ``area`` unless the input has focus.
    Returns how many inputs were guarded."""
    root = inside if inside is not None else getattr(area, "widget", lambda: None)()
    if root is None:
        return 0
    guard = area.findChild(_WheelToScroll) or _WheelToScroll(area)
    n = 0
    for kind in GUARDED:
        for w in root.findChildren(kind):
            w.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            w.installEventFilter(guard)
            n += 1
    return n
