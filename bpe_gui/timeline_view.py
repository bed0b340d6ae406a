"""Merge timeline (pyqtgraph): each merge's count against its rank (log scale) and its token length.

It grows live during a full run (redraws are throttled); clicking a point selects that merge.
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QVBoxLayout, QWidget

from .formatting import token_label
from .widgets import status_label

REDRAW_MS = 40
RUN_REDRAW_MS = 300  # while a run is going the worker needs the GIL more than the plot
ACCENT = "#3b6fd8"
LENGTH = "#8e5bd0"
SELECT = "#e8590c"


def length_ticks(lengths: np.ndarray, max_columns: int = 1500) -> tuple[np.ndarray, np.ndarray]:
    """Segments drawing each merge as a short vertical tick at (rank, token length).

    With more merges than ``max_columns`` the ranks are binned and each (bin, length) is drawn once,
    which looks the same on screen and keeps the drawing cost bounded.
    """
    n = len(lengths)
    if n > max_columns:
        width = n / max_columns
        bins = (np.arange(n) / width).astype(np.int64)
        keys = np.unique(bins * (int(lengths.max()) + 1) + lengths)
        x = (keys // (int(lengths.max()) + 1)) * width + width / 2
        y = keys % (int(lengths.max()) + 1)
    else:
        x = np.arange(n, dtype=float)
        y = lengths
    xs = np.repeat(x.astype(float), 2)
    ys = np.empty(2 * len(y))
    ys[0::2] = y - 0.35
    ys[1::2] = y + 0.35
    return xs, ys


class TimelineView(QWidget):
    def __init__(self, controller, parent=None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.counts: list[int] = []
        self.lengths: list[int] = []
        self.selected: int | None = None

        self.title = status_label()
        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setBackground("w")
        self.graphics.ci.setSpacing(4)
        self.count_plot = self.graphics.addPlot(row=0, col=0)
        self.length_plot = self.graphics.addPlot(row=1, col=0)
        self.graphics.ci.layout.setRowStretchFactor(0, 3)
        self.graphics.ci.layout.setRowStretchFactor(1, 2)
        for p in (self.count_plot, self.length_plot):
            p.setMenuEnabled(False)
            p.hideButtons()
            p.getAxis("left").setWidth(58)
            p.setClipToView(True)
        self.count_plot.setLogMode(x=False, y=True)
        self.count_plot.setDownsampling(auto=True, mode="peak")
        self.count_plot.setLabel("left", "pair count (log)")
        self.length_plot.setLabel("left", "token bytes")
        self.length_plot.setLabel("bottom", "merge rank")
        self.length_plot.setXLink(self.count_plot)

        self.count_curve = self.count_plot.plot([], [], pen=pg.mkPen(ACCENT, width=1.6))
        self.length_curve = pg.PlotCurveItem(pen=pg.mkPen(LENGTH, width=1))
        self.length_plot.addItem(self.length_curve)
        self.marker = self.count_plot.plot([], [], pen=None, symbol="o", symbolSize=10,
                                           symbolBrush=SELECT, symbolPen=pg.mkPen("w", width=1.5))
        self.lines = []
        for p in (self.count_plot, self.length_plot):
            line = pg.InfiniteLine(angle=90, movable=False, pen=pg.mkPen(SELECT, width=1, style=Qt.PenStyle.DashLine))
            line.setVisible(False)
            p.addItem(line, ignoreBounds=True)
            self.lines.append(line)
        self.graphics.scene().sigMouseClicked.connect(self._clicked)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addWidget(self.title)
        lay.addWidget(self.graphics)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.redraw)

        controller.merges_appended.connect(self._appended)
        controller.merges_removed.connect(self._removed)
        controller.merges_reset.connect(self._reset)
        controller.merge_selected.connect(self.select)
        self._reset()

    # ------------------------------------------------------------------ data
    def _appended(self, n: int) -> None:
        for m in self.controller.index.merges[-n:] if n else []:
            self.counts.append(m.count)
            self.lengths.append(len(m.token))
        self._schedule()

    def _removed(self, n: int) -> None:
        del self.counts[len(self.counts) - n:]
        del self.lengths[len(self.lengths) - n:]
        if self.selected is not None and self.selected >= len(self.counts):
            self.selected = None
        self._schedule()

    def _reset(self) -> None:
        self.counts, self.lengths = self.controller.index.merge_matrix()
        self.selected = None
        self.redraw()

    def _schedule(self) -> None:
        if not self._timer.isActive():
            self._timer.start(RUN_REDRAW_MS if self.controller.busy else REDRAW_MS)

    def redraw(self) -> None:
        n = len(self.counts)
        x = np.arange(n, dtype=float)
        counts = np.asarray(self.counts, dtype=float)
        if n and counts.min() > 0:
            self.count_curve.setData(x, counts)
        else:
            self.count_curve.setData([], [])
        if n:
            xs, ys = length_ticks(np.asarray(self.lengths, dtype=np.int64))
            self.length_curve.setData(xs, ys, connect="pairs")
        else:
            self.length_curve.setData([], [])
        for p in (self.count_plot, self.length_plot):
            p.enableAutoRange()
        self._update_title()
        self._draw_selection()

    def _update_title(self) -> None:
        n = len(self.counts)
        c = self.controller
        text = f"<b>Merge timeline</b> <span style='color:#667'>— {n:,} merges"
        if n and not c.index.has_counts:
            text += " (this file has no merge counts; token lengths only)"
        elif n:
            text += f"; first merge seen {self.counts[0]:,}×, last {self.counts[-1]:,}×"
        text += " · click a point to inspect it</span>"
        self.title.setText(text)

    # ------------------------------------------------------------------ selection
    def select(self, rank: int) -> None:
        self.selected = rank if 0 <= rank < len(self.counts) else None
        self._draw_selection()

    def _draw_selection(self) -> None:
        r = self.selected
        if r is None or r >= len(self.counts):
            self.marker.setData([], [])
            for line in self.lines:
                line.setVisible(False)
            return
        if self.counts[r] > 0:
            self.marker.setData([r], [self.counts[r]])
        else:
            self.marker.setData([], [])
        for line in self.lines:
            line.setPos(r)
            line.setVisible(True)
        m = self.controller.index.merges[r]
        self.marker.setToolTip(f"merge {r}: {token_label(m.token)} ({m.count:,})")

    def rank_at(self, scene_pos) -> int | None:
        """The merge rank under a scene position (nearest x), or None outside the plots."""
        if not self.counts:
            return None
        for p in (self.count_plot, self.length_plot):
            vb = p.getViewBox()
            if vb.sceneBoundingRect().contains(scene_pos):
                x = vb.mapSceneToView(scene_pos).x()
                return int(min(max(round(x), 0), len(self.counts) - 1))
        return None

    def _clicked(self, event) -> None:
        rank = self.rank_at(event.scenePos())
        if rank is not None:
            self.controller.select_merge(rank)
