"""A vertical-only scroll area as wide as its content needs, also when the content grows later.

The left column scrolls up and down only (no horizontal bar). Its width was set once, from the panels
with "–" in every value: a 107 MB corpus's counts ("18,723,195") and the memory estimate ("≈ 786 MB")
made the panels wider than the column, and their right edge was cut off. :class:`FollowContentWidth`
widens the scroll area (so the splitter gives the column more) whenever the content needs more.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QScrollArea

MARGIN = 4  # beside the vertical scroll bar


def needed_width(scroll: QScrollArea) -> int:
    """The content's minimum width, the vertical scroll bar and a small margin."""
    content = scroll.widget()
    hint = content.minimumSizeHint().width() if content is not None else 0
    return hint + scroll.verticalScrollBar().sizeHint().width() + MARGIN


class FollowContentWidth(QObject):
    """Keeps ``scroll``'s minimum width at :func:`needed_width` (it grows, never shrinks: a column that
    narrowed at every shorter number would make the views beside it jump)."""

    def __init__(self, scroll: QScrollArea) -> None:
        super().__init__(scroll)
        self.scroll = scroll
        scroll.setMinimumWidth(needed_width(scroll))
        content = scroll.widget()
        if content is not None:
            content.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            need = needed_width(self.scroll)
            if need > self.scroll.minimumWidth():
                self.scroll.setMinimumWidth(need)
        return False
