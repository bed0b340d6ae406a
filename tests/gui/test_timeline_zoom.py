"""Zooming the merge timeline with the wheel keeps the count curve in view (only the merge axis zooms)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF


class Wheel:
    """What pyqtgraph's ViewBox.wheelEvent reads of a wheel event."""

    def __init__(self, pos: QPointF, delta: int) -> None:
        self._pos, self._delta, self.accepted = pos, delta, None

    def pos(self) -> QPointF:
        return self._pos

    def delta(self) -> int:
        return self._delta

    def accept(self) -> None:
        self.accepted = True

    def ignore(self) -> None:
        self.accepted = False


def test_the_wheel_zooms_the_merges_and_keeps_the_counts_in_view(qtbot, trained):
    """On a 107 MB corpus, five wheel notches over the count plot zoomed both axes around the pointer:
    merges 4,000-6,000 filled the view, and their counts (about 1k) were below it, the plot empty."""
    tv = trained.timeline
    tv.redraw()
    vb = tv.count_plot.getViewBox()
    (x0, x1), (y0, y1) = vb.viewRange()
    high = vb.rect().center() + QPointF(0, -vb.rect().height() / 3)  # the pointer above the curve
    for _ in range(5):
        vb.wheelEvent(Wheel(high, 120))
    (zx0, zx1), (zy0, zy1) = vb.viewRange()
    assert zx1 - zx0 < 0.5 * (x1 - x0)  # the merges zoomed in
    assert (zy0, zy1) == (y0, y1)  # the counts' decades stayed
    counts = np.log10(np.asarray(tv.counts, dtype=float))
    merge = np.arange(1, len(counts) + 1)
    seen = counts[(merge >= zx0) & (merge <= zx1)]
    assert seen.size and ((seen >= zy0) & (seen <= zy1)).all()
    assert tv.length_plot.getViewBox().viewRange()[0] == [zx0, zx1]  # the lengths follow
