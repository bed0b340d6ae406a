"""Live pair-count table: the top pairs with count, change since the last step and rank movement."""
from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QBrush, QColor, QFontDatabase
from PySide6.QtWidgets import QHeaderView, QLabel, QLineEdit, QTableView, QVBoxLayout, QWidget

from .formatting import hex_bytes, pair_label, signed, token_label
from .widgets import status_label

SEARCH_ROLE = Qt.ItemDataRole.UserRole + 1
NEXT_BG = QColor("#ffe8a3")
TIE_BG = QColor("#fff6d6")
UP = QColor("#1a7f37")
DOWN = QColor("#c62828")
NEW = QColor("#1f5fbf")


class PairTableModel(QAbstractTableModel):
    """Rows of (pair, count, delta, movement) over a plain list; refreshed with a model reset."""

    HEADERS = ("#", "Pair", "Count", "Δ", "Move")

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list[tuple[tuple[bytes, bytes], int, int | None, int | None]] = []
        self._prev_rank: dict = {}
        self._prev_count: dict = {}
        self.top_count = 0
        self._had_history = False
        self.mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)

    def set_pairs(self, pairs: list, deltas: dict | None = None, reset_history: bool = False) -> None:
        """Show ``pairs`` ([(pair, count)] best first); Δ and movement are relative to the last call."""
        if reset_history:
            self._prev_rank, self._prev_count = {}, {}
        self._had_history = bool(self._prev_rank)
        rows = []
        for rank, (pair, count) in enumerate(pairs):
            if pair in self._prev_count:
                delta = count - self._prev_count[pair]
            elif deltas is not None:
                delta = deltas.get(pair, 0)
            else:
                delta = None
            prev = self._prev_rank.get(pair)
            move = None if prev is None else prev - rank
            rows.append((pair, count, delta, move))
        self.beginResetModel()
        self.rows = rows
        self.top_count = pairs[0][1] if pairs else 0
        self.endResetModel()
        if pairs or reset_history:
            self._prev_rank = {p: i for i, (p, _) in enumerate(pairs)}
            self._prev_count = dict(pairs)

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.HEADERS[section]
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        pair, count, delta, move = self.rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return index.row() + 1
            if col == 1:
                return f"{token_label(pair[0])}  +  {token_label(pair[1])}"
            if col == 2:
                return f"{count:,}"
            if col == 3:
                return "" if delta is None else signed(delta)
            if col == 4:
                if move is None:
                    return "new" if self._had_history else ""
                return f"▲{move}" if move > 0 else (f"▼{-move}" if move < 0 else "")
        elif role == Qt.ItemDataRole.BackgroundRole:
            if index.row() == 0:
                return QBrush(NEXT_BG)
            if count == self.top_count:
                return QBrush(TIE_BG)
        elif role == Qt.ItemDataRole.ForegroundRole:
            if col == 3 and delta:
                return QBrush(UP if delta > 0 else DOWN)
            if col == 4:
                return QBrush(NEW if move is None else (UP if move > 0 else DOWN))
        elif role == Qt.ItemDataRole.FontRole and col == 1:
            return self.mono
        elif role == Qt.ItemDataRole.TextAlignmentRole and col in (0, 2, 3, 4):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        elif role == Qt.ItemDataRole.ToolTipRole and col == 1:
            a, b = pair
            return f"{pair_label(pair)} → {token_label(a + b)}\nbytes: {hex_bytes(a)} | {hex_bytes(b)}"
        elif role == SEARCH_ROLE:
            a, b = pair
            raw = (a + b).decode("utf-8", "replace")
            return f"{raw}\x00{token_label(a)} {token_label(b)}\x00{hex_bytes(a + b)}"
        return None


class PairsView(QWidget):
    """Title, next-merge explanation, filter box and the table; observes the controller."""

    def __init__(self, controller, parent=None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.model = PairTableModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterRole(SEARCH_ROLE)
        self.proxy.setFilterKeyColumn(1)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)

        title = QLabel("<b>Pair counts</b> <span style='color:#667'>— top 100, live</span>")
        self.next_label = status_label(lines=4, name="nextMerge")
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter pairs (text or hex) …")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.proxy.setFilterFixedString)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setAlternatingRowColors(False)
        self.table.setShowGrid(False)
        h = self.table.horizontalHeader()
        h.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        h.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for col, width in ((0, 38), (2, 76), (3, 64), (4, 52)):
            self.table.setColumnWidth(col, width)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addWidget(title)
        lay.addWidget(self.next_label)
        lay.addWidget(self.filter)
        lay.addWidget(self.table)

        controller.pairs_changed.connect(self.refresh)
        controller.merges_reset.connect(lambda: self.refresh(None, reset=True))
        self.refresh(None, reset=True)

    def refresh(self, deltas=None, reset: bool = False) -> None:
        c = self.controller
        pairs = c.top_pairs(100)
        self.model.set_pairs(pairs, deltas, reset_history=reset)
        self.next_label.setText(self._explain(pairs))

    def _explain(self, pairs: list) -> str:
        c = self.controller
        if c.busy in ("train", "step"):
            return "<i>Training … the table follows the run.</i>"
        if not c.has_trainer:
            return "<i>Open a corpus to see pair counts.</i>" if not c.index.n_merges else \
                "<i>Imported tokenizer: no corpus, so no pair counts.</i>"
        if not pairs:
            return "<b>No pair left to merge.</b> Every pre-token is a single token."
        (a, b), count = pairs[0]
        ties = sum(1 for _, n in pairs[1:] if n == count)
        if ties == 0:
            why = "the most frequent pair"
        else:
            more = "+" if ties == len(pairs) - 1 and len(pairs) >= 100 else ""
            rule = ("the lexicographically greatest (bytes, bytes) pair wins" if c.tie_break == "lexicographic"
                    else "the pair seen first in the corpus wins")
            why = f"tied with {ties}{more} other pair(s) at this count; {rule}"
        text = (f"Next merge: <code>{_html(token_label(a))}</code> + <code>{_html(token_label(b))}</code>"
                f" → <code>{_html(token_label(a + b))}</code> ({count:,}×) — {why}.")
        last = c.record(c.index.n_merges - 1)
        if last is not None:
            text += (f"<br><span style='color:#667'>Last: <code>{_html(token_label(last.token))}</code>,"
                     f" {_html(last.why(c.tie_break))}</span>")
        return text


def _html(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
