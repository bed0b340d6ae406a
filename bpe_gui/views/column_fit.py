"""Columns of token tables widened to what their rows show (bytes such as ``\\xe8\\xae`` were cut to
``\\xe…xae``): each time rows arrive, the given columns grow to fit the widest of them, up to a cap.
Their headers keep their labels readable: no column narrower than its label, and a label drawn in the
part of its column that is in sight (a wide column ran past a laptop's pane and its label was cut
at the edge: "Byt")."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QHeaderView

SAMPLE_ROWS = 2000  # rows measured per change (the newest ones): a long training run stays cheap
PADDING = 14  # the cell's margins


def needed_width(model, column: int, first: int, last: int) -> int:
    """The width the display text of rows ``first``..``last`` of ``column`` needs, in pixels."""
    width = 0
    start = max(first, last - SAMPLE_ROWS + 1)
    metrics: dict[str, QFontMetrics] = {}
    for row in range(start, last + 1):
        index = model.index(row, column)
        text = model.data(index, Qt.ItemDataRole.DisplayRole)
        if text is None:
            continue
        font = model.data(index, Qt.ItemDataRole.FontRole)
        key = font.key() if isinstance(font, QFont) else ""
        if key not in metrics:
            metrics[key] = QFontMetrics(font) if isinstance(font, QFont) else QFontMetrics(QFont())
        width = max(width, metrics[key].horizontalAdvance(str(text)))
    return width + PADDING


def fit_columns(table, columns: dict[int, int], share: float | None = None, floor: int = 0) -> None:
    """Widen ``columns`` (column → the widest it may get) of ``table`` as rows are added or reset;
    with ``share``, none gets more than that share of the table's width, but at least ``floor``
    pixels (an imported tokenizer's long tokens pushed the Token and Count columns out of a laptop's
    pane; a partial character's hex still shows whole)."""
    model = table.model()

    def grow(first: int, last: int) -> None:
        room = table.viewport().width()
        for column, cap in columns.items():
            if share is not None and room > 100:
                cap = min(cap, max(floor, int(room * share)))
            want = min(cap, needed_width(model, column, first, last))
            if want > table.columnWidth(column):
                table.setColumnWidth(column, want)

    def reset() -> None:
        rows = model.rowCount(QModelIndex())
        if rows:
            grow(0, rows - 1)

    model.rowsInserted.connect(lambda _parent, first, last: grow(first, last))
    model.modelReset.connect(reset)


class VisibleLabelHeader(QHeaderView):
    """A horizontal header that draws each label in the part of its section that is in sight: a
    column wider than the room left (a long token's bytes) or scrolled half out of view shows its
    whole label at the visible end, not a cut one at the pane's edge."""

    def __init__(self, parent=None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.setSectionsClickable(True)  # (as a table's own header is)
        self.setHighlightSections(True)

    def label_rect(self, logical: int):
        """Where the label of section ``logical`` is drawn (its section less what is out of sight)."""
        pos = self.sectionViewportPosition(logical)
        rect = self.viewport().rect()
        rect.setLeft(pos)
        rect.setWidth(self.sectionSize(logical))
        shown = rect.intersected(self.viewport().rect())
        return shown if shown.width() > 0 else rect

    def paintSection(self, painter, rect, logical: int) -> None:
        shown = rect.intersected(self.viewport().rect())
        super().paintSection(painter, shown if shown.width() > 0 else rect, logical)


def readable_headers(table) -> None:
    """Make every column of ``table`` (but a stretching one) at least as wide as its label needs in
    the language shown; with a :class:`VisibleLabelHeader`, draw the labels again on each scroll."""
    header = table.horizontalHeader()
    for i in range(header.count()):
        if header.sectionResizeMode(i) != QHeaderView.ResizeMode.Stretch:
            header.resizeSection(i, max(header.sectionSize(i), header.sectionSizeHint(i)))
    if isinstance(header, VisibleLabelHeader):
        # a scroll moves the labels' places in sight: the whole header is drawn again (Qt draws only
        # the strip that scrolled in, which would leave labels where they were)
        table.horizontalScrollBar().valueChanged.connect(lambda _v: header.viewport().update())
