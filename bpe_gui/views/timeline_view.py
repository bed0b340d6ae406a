"""Merge timeline (pyqtgraph): each merge's count against its rank (log scale) and its token length.

It grows live during a full run (redraws are throttled); clicking a point selects that merge.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from bpe_gui.model.formatting import token_label
from bpe_gui.text.plural import plural
from bpe_gui.views.widgets import pinned, status_label

REDRAW_MS = 400  # at most 2-3 redraws a second while stepping fast (a redraw costs with the merges)
RUN_REDRAW_MS = 300  # while a run is going the worker needs the GIL more than the plot
ACCENT = "#3b6fd8"
LENGTH = "#8e5bd0"
BASE_LINE = "#8a94a6"  # where an extension's new merges start
SELECT = "#e8590c"
GRAPH_MIN_HEIGHT = 190
# while a panel is docked below the views: two plots with their tick labels still (a 1280x720 screen
# less a task bar leaves the window this much with merges drawn and the Evaluate panel docked)
GRAPH_COMPACT_HEIGHT = 168
AXIS_TITLES_FROM = 280  # below this graph height the vertical axis titles (longer than the plots) hide
SYMBOLS_UP_TO = 300  # merges drawn with a dot each (one merge alone is visible), a line beyond


def count_range(counts: np.ndarray) -> tuple[float, float]:
    """The count axis (log10 units) for these counts: whole decades around the data, padded a little.

    >>> count_range(np.array([1200.0, 3_400_000.0]))
    (2.95, 7.05)
    """
    positive = counts[counts > 0]
    if not len(positive):
        return (-0.05, 1.05)
    lo = float(np.floor(np.log10(positive.min())))
    hi = float(np.ceil(np.log10(positive.max())))
    return (lo - 0.05, max(hi, lo + 1) + 0.05)


def length_ticks(lengths: np.ndarray, max_columns: int = 1500) -> tuple[np.ndarray, np.ndarray]:
    """Segments drawing each merge as a short vertical tick at (rank, token length).

    With more merges than ``max_columns`` the ranks are binned and each (bin, length) is drawn once,
    which looks the same on screen and keeps the drawing cost bounded.
    """
    n = len(lengths)
    if n > max_columns:
        width = n / max_columns
        bins = (np.arange(n) / width).astype(np.int64)
        top = int(lengths.max()) + 1
        keys = np.sort(bins * top + lengths)
        keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))]  # np.unique imports numpy.ma
        x = (keys // top) * width + width / 2
        y = keys % top
    else:
        x = np.arange(n, dtype=float)
        y = lengths
    xs = np.repeat(x.astype(float), 2)
    ys = np.empty(2 * len(y))
    ys[0::2] = y - 0.35
    ys[1::2] = y + 0.35
    return xs, ys


def count_label(n: float) -> str:
    """``1000`` → ``'1k'``."""
    for div, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if n >= div:
            return f"{n / div:g}{unit}"
    return f"{n:g}"


def decade_ticks(lo: float, hi: float) -> list:
    """Ticks for a log axis in log10 units: labelled decades, unlabelled 2..9 in between.

    pyqtgraph's own log ticks label every minor tick when fewer than three decades show.
    """
    first, last = int(np.floor(lo)), int(np.ceil(hi))
    major = [(float(d), count_label(10.0**d)) for d in range(first, last + 1) if lo <= d <= hi]
    minor = [
        (d + float(np.log10(m)), "")
        for d in range(first, last)
        for m in range(2, 10)
        if lo <= d + np.log10(m) <= hi
    ]
    return [major, minor]


class TimelineView(QWidget):
    merge_chosen = Signal(int)  # rank of the merge the user clicked (the window makes it the selected one)

    def __init__(self, controller, parent=None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.counts: list[int] = []
        self.lengths: list[int] = []
        self._ranges: tuple | None = None  # (x end, log count low, log count high, length top)
        self._symbols = False

        self.title = status_label()
        self.title.setToolTip(
            self.tr(
                "Top: how often each merged pair occurred when it was merged (log scale). "
                "Bottom: how many bytes each new token has."
            )
        )
        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setBackground("w")
        self.graphics.ci.setSpacing(4)
        # tall enough that the axis labels of both plots stay apart (a short window squashes the others)
        self.graphics.setMinimumHeight(GRAPH_MIN_HEIGHT)
        self.graphics.installEventFilter(self)  # (its height decides whether the axis titles fit)
        self.count_plot = self.graphics.addPlot(row=0, col=0)
        self.length_plot = self.graphics.addPlot(row=1, col=0)
        self.graphics.ci.layout.setRowStretchFactor(0, 3)
        self.graphics.ci.layout.setRowStretchFactor(1, 2)
        for p in (self.count_plot, self.length_plot):
            p.setMenuEnabled(False)
            p.hideButtons()
            p.getAxis("left").setWidth(58)
            p.getAxis("left").enableAutoSIPrefix(False)  # no "(x1e+09)": the ticks say 1k, 1M …
            p.getAxis("bottom").enableAutoSIPrefix(False)
            p.setClipToView(True)
            # the wheel and a drag zoom and pan the merges only: the vertical axes span the data (the
            # count axis its decades), and zooming them too around the pointer left a zoomed-in stretch
            # of merges with its counts below the view, the plot empty
            p.setMouseEnabled(x=True, y=False)
        self.count_plot.setLogMode(x=False, y=True)

        self.count_plot.setDownsampling(auto=True, mode="peak")
        self.count_plot.setLabel("left", self.tr("pair count (log)"))
        self.length_plot.setLabel("left", self.tr("token bytes"))
        self.length_plot.setLabel("bottom", self.tr("merge number (#1 = the first merge)"))
        self.count_plot.getAxis("left").setToolTip(
            self.tr("How often the merged pair occurred in the corpus when it was merged (log scale)")
        )
        self.length_plot.getAxis("left").setToolTip(self.tr("Length in bytes of the token each merge made"))
        self.length_plot.setXLink(self.count_plot)

        self.count_curve = self.count_plot.plot([], [], pen=pg.mkPen(ACCENT, width=1.6))
        self.length_curve = pg.PlotCurveItem(pen=pg.mkPen(LENGTH, width=1))
        self.length_plot.addItem(self.length_curve)
        self.marker = self.count_plot.plot(
            [],
            [],
            pen=None,
            symbol="o",
            symbolSize=10,
            symbolBrush=SELECT,
            symbolPen=pg.mkPen("w", width=1.5),
        )
        self.lines = []
        for p in (self.count_plot, self.length_plot):
            line = pg.InfiniteLine(
                angle=90, movable=False, pen=pg.mkPen(SELECT, width=1, style=Qt.PenStyle.DashLine)
            )
            line.setVisible(False)
            p.addItem(line, ignoreBounds=True)
            self.lines.append(line)
        # where an extension's new merges start (its base's merges before it have no counts)
        self.base_lines = []
        for p in (self.count_plot, self.length_plot):
            line = pg.InfiniteLine(angle=90, movable=False, pen=pg.mkPen(BASE_LINE, width=2))
            line.setVisible(False)
            p.addItem(line, ignoreBounds=True)
            self.base_lines.append(line)
        self.base_label = pg.TextItem(anchor=(0, 0), color=BASE_LINE)
        self.base_label.setVisible(False)
        self.count_plot.addItem(self.base_label, ignoreBounds=True)
        # a tokenizer file records no counts: the upper plot says so instead of standing empty
        self.no_counts = pg.TextItem(
            html="<div style='text-align:center; color:#667'>"
            + self.tr(
                "No pair counts for these merges: a tokenizer file does not record them (training on a "
                "corpus does).<br>Each merge's token length is below."
            )
            + "</div>",
            anchor=(0.5, 0.5),
        )
        self.no_counts.setParentItem(self.count_plot.getViewBox())  # (in the plot's pixels, not its data)
        self.no_counts.setVisible(False)
        self.count_plot.getViewBox().sigResized.connect(self._place_no_counts)
        self.graphics.scene().sigMouseClicked.connect(self._clicked)
        self.graphics.setToolTip(self.tr("Click a point to see that merge; right-click to rewind to it"))

        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        self.empty = QLabel(
            self.tr(
                "No merges yet: press Step (→) or Train, and each merge's pair "
                "count and token length appear here."
            )
        )
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty.setStyleSheet("color:#667; background:white; border:1px solid #dde2ec; border-radius:6px")
        lay.addWidget(pinned(self.title))
        lay.addWidget(self.graphics, 1)
        lay.addWidget(self.empty, 1)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.redraw)

        controller.merges_appended.connect(self._appended)
        controller.merges_removed.connect(self._removed)
        controller.merges_reset.connect(self._reset)
        controller.merge_selected.connect(self.select)
        controller.selection_cleared.connect(self._draw_selection)
        self._reset()

    def eventFilter(self, watched, event) -> bool:
        if watched is self.graphics and event.type() == QEvent.Type.Resize:
            self.fit_axis_titles(event.size().height())
        return super().eventFilter(watched, event)

    def fit_axis_titles(self, height: int) -> None:
        """Show the vertical axis titles only where they fit beside the plots (they would overlap on a
        short window; the axes' tooltips say the same)."""
        show = height >= AXIS_TITLES_FROM
        for p in (self.count_plot, self.length_plot):
            axis = p.getAxis("left")
            if axis.label.isVisible() != show:
                axis.showLabel(show)

    # ------------------------------------------------------------------ data
    def _appended(self, n: int) -> None:
        new = self.controller.index.merges[-n:] if n else []
        self.counts.extend(m.count for m in new)
        self.lengths.extend(len(m.pair[0]) + len(m.pair[1]) for m in new)
        self._update_title()  # at once (the plot is redrawn later): the count agrees with the status bar
        self._schedule()

    def _removed(self, n: int) -> None:
        del self.counts[len(self.counts) - n :]
        del self.lengths[len(self.lengths) - n :]
        self._update_title()
        self._schedule()

    def _reset(self) -> None:
        self.counts, self.lengths = self.controller.index.merge_matrix()
        self._ranges = None
        self.redraw()

    def set_compact(self, compact: bool) -> None:
        """Let the plots go down to :data:`GRAPH_COMPACT_HEIGHT` (a panel docked below the views)."""
        self.graphics.setMinimumHeight(GRAPH_COMPACT_HEIGHT if compact else GRAPH_MIN_HEIGHT)

    def _schedule(self) -> None:
        if self.graphics.isHidden() != (not self.counts):
            # the first merges (or none left): the "no merges yet" hint and the plots change
            # places at once, never the hint under a title that counts merges
            self._timer.stop()
            self.redraw()
            return
        if not self._timer.isActive():
            self._timer.start(RUN_REDRAW_MS if self.controller.busy else REDRAW_MS)

    def redraw(self) -> None:
        n = len(self.counts)
        if self.graphics.isHidden() != (n == 0):  # "no merges yet" instead of empty axes
            self.graphics.setVisible(n > 0)
            self.empty.setVisible(n == 0)
        x = np.arange(1, n + 1, dtype=float)  # merge numbers: #1 is the first merge
        counts = np.asarray(self.counts, dtype=float)
        symbols = n <= SYMBOLS_UP_TO
        if symbols != self._symbols:
            self._symbols = symbols
            self.count_curve.setSymbol("o" if symbols else None)
            self.count_curve.setSymbolSize(5)
            self.count_curve.setSymbolBrush(ACCENT)
            self.count_curve.setSymbolPen(None)
        known = (
            counts > 0
        )  # (merges a file records no count for, e.g. the base of an extension, are left out)
        if n and known.any():
            self.count_curve.setData(x[known], counts[known])
        else:
            self.count_curve.setData([], [])
        self.no_counts.setVisible(bool(n) and not known.any())
        self._place_no_counts()
        lengths = np.asarray(self.lengths, dtype=np.int64)
        if n:
            xs, ys = length_ticks(lengths)
            self.length_curve.setData(xs + 1, ys, connect="pairs")
        else:
            self.length_curve.setData([], [])
        if n:
            self._update_ranges(counts, lengths)
        else:
            self._ranges = None
            for p in (self.count_plot, self.length_plot):
                p.enableAutoRange()
        self._draw_base_line()
        self._update_title()
        self._draw_selection()

    def _place_no_counts(self, *_args) -> None:
        """The no-counts note in the middle of the upper plot, wrapped to its width."""
        rect = self.count_plot.getViewBox().rect()
        self.no_counts.setTextWidth(max(120.0, rect.width() - 24))
        self.no_counts.setPos(rect.center())

    def _update_ranges(self, counts: np.ndarray, lengths: np.ndarray) -> None:
        """Axis ranges that change rarely: x grows with headroom, the count axis spans the data's
        decades (so it changes only when the data crosses one), token lengths grow.

        Auto-ranging would change the axes at every step, and regenerating the axes is most of
        the cost of a redraw (during a run the worker competes for the GIL, too). The x range
        covers the run's target while a run is going.
        """
        c = self.controller
        n = len(self.counts)
        running = c.busy in ("train", "step")
        base = len(c.index) - c.index.n_merges
        want_x = max(n, (c.run_target or 0) - base) if running else n
        lo, hi = count_range(counts)
        top = int(lengths.max()) + 1
        old = self._ranges
        x_end = old[0] if old else 0
        # an extension's new merges fill the view (measured from its base's last merge), with a
        # little of its base before them
        ext = c.model.extended_from
        want, shown = want_x - ext, x_end - ext
        if old is None or want > shown or (not running and want < 0.4 * shown):
            # stepping past the end leaves headroom, so that the axis does not change every step
            end = max(10, want if running or old is None else int(want * 1.25) + 1)
            x_end = ext + end
            x0 = max(0, ext - max(5, end // 4)) if ext else 0
            self.count_plot.setXRange(x0, x_end + 1, padding=0.01)
        if old is None or (lo, hi) != (old[1], old[2]):
            self.count_plot.setYRange(lo, hi, padding=0)
            self.count_plot.getAxis("left").setTicks(decade_ticks(lo, hi))
        if old is None or top > old[3]:
            top = max(top + 1, int(1.5 * (old[3] if old else 4)))
            self.length_plot.setYRange(0, top, padding=0)
        else:
            top = old[3]
        self._ranges = (x_end, lo, hi, top)

    def _draw_base_line(self) -> None:
        """A line after an extension's base merges, labelled: the new merges are to its right."""
        base = self.controller.model.extended_from
        shown = base > 0
        for line in self.base_lines:
            line.setVisible(shown)
            if shown:
                line.setValue(base + 0.5)
        self.base_label.setVisible(shown)
        if shown:
            self.base_label.setText(self.tr("new merges →"))
            hi = self._ranges[2] if self._ranges is not None else 0.0
            self.base_label.setPos(base + 0.5, hi)

    def _update_title(self) -> None:
        n = len(self.counts)
        c = self.controller
        base = c.model.extended_from
        if base:  # (short: the whole title fits a laptop's pane)
            new = n - base
            text = plural(
                self.tr(
                    "<b>Merge timeline</b> <span style='color:#667'>— %1 base + %n new merge(s)", "", new
                ),
                new,
            ).replace("%1", f"{base:,}")
            if new and self.counts[base] > 0 and self.counts[-1] > 0:
                text += (
                    self.tr("; new: %1× → %2×")
                    .replace("%1", f"{self.counts[base]:,}")
                    .replace("%2", f"{self.counts[-1]:,}")
                )
        else:
            text = plural(self.tr("<b>Merge timeline</b> <span style='color:#667'>— %n merge(s)", "", n), n)
            if n and not c.index.has_counts:
                text += self.tr(" (no counts in this file)")
            elif n and self.counts[0] > 0 and self.counts[-1] > 0:
                text += (
                    self.tr("; first merge seen %1×, last %2×")
                    .replace("%1", f"{self.counts[0]:,}")
                    .replace("%2", f"{self.counts[-1]:,}")
                )
        self.title.setText(text + "</span>")

    # ------------------------------------------------------------------ selection
    @property
    def selected(self) -> int | None:
        """The merge marked: the controller's selected one (the one selection of every view)."""
        return self.controller.selected_merge

    def select(self, _rank: int) -> None:
        self._draw_selection()

    def _draw_selection(self) -> None:
        r = self.selected
        if r is None or r >= len(self.counts):
            self.marker.setData([], [])
            for line in self.lines:
                line.setVisible(False)
            return
        if self.counts[r] > 0:
            self.marker.setData([r + 1], [self.counts[r]])
        else:
            self.marker.setData([], [])
        for line in self.lines:
            line.setPos(r + 1)
            line.setVisible(True)
        m = self.controller.index.merges[r]
        self.marker.setToolTip(
            self.tr("merge #{0}: {1} ({2})").format(r + 1, token_label(m.token), f"{m.count:,}")
        )

    def rank_at(self, scene_pos) -> int | None:
        """The merge rank under a scene position (nearest x), or None outside the plots."""
        if not self.counts:
            return None
        for p in (self.count_plot, self.length_plot):
            vb = p.getViewBox()
            if vb.sceneBoundingRect().contains(scene_pos):
                x = vb.mapSceneToView(scene_pos).x()  # the merge number: rank + 1
                return int(min(max(round(x) - 1, 0), len(self.counts) - 1))
        return None

    def _clicked(self, event) -> None:
        rank = self.rank_at(event.scenePos())
        if rank is None:
            return
        self.merge_chosen.emit(rank)  # (selected through the controller: the menu offers that merge)
        if event.button() == Qt.MouseButton.RightButton and self.controller.selected_merge is not None:
            from bpe_gui.views.widgets import rewind_menu

            menu = rewind_menu(self, self.controller, self.controller.selected_merge)
            menu.popup(event.screenPos().toPoint())
