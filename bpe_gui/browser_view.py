"""Merges and vocab browser: two searchable lists and the merge tree of the selected token."""
from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QSortFilterProxyModel, Qt, QTimer
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSplitter,
    QTableView,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from .formatting import hex_bytes, search_text, token_label

SEARCH_ROLE = Qt.ItemDataRole.UserRole + 1
TOKEN_ROLE = Qt.ItemDataRole.UserRole + 2
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


class _IndexModel(QAbstractTableModel):
    """A table over the controller's VocabIndex; keeps its own row count for correct insert/remove."""

    HEADERS: tuple[str, ...] = ()

    def __init__(self, controller, parent=None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self._n = self._source_len()
        self._search: dict[int, str] = {}

    def _source_len(self) -> int:
        raise NotImplementedError

    def appended(self, _n=None) -> None:
        if self.controller.busy in ("train", "step"):
            # rows are added when the run is over: repainting a table while the worker runs makes
            # the GUI thread queue for the GIL once per cell and role
            return
        target = self._source_len()
        if target <= self._n:
            return
        self.beginInsertRows(QModelIndex(), self._n, target - 1)
        self._n = target
        self.endInsertRows()

    def removed(self, n: int) -> None:
        target = self._source_len()
        if target >= self._n:
            return
        self.beginRemoveRows(QModelIndex(), target, self._n - 1)
        for r in range(target, self._n):
            self._search.pop(r, None)
        self._n = target
        self.endRemoveRows()

    def reset(self) -> None:
        self.beginResetModel()
        self._n = self._source_len()
        self._search.clear()
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else self._n

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.HEADERS[section]
        return None

    def search(self, row: int, token: bytes) -> str:
        s = self._search.get(row)
        if s is None:
            s = self._search[row] = search_text(token)
        return s


class MergesModel(_IndexModel):
    HEADERS = ("Rank", "ID", "Left", "Right", "Token", "Count")

    def _source_len(self) -> int:
        return self.controller.index.n_merges

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        merges = self.controller.index.merges
        if not index.isValid() or not 0 <= index.row() < min(self._n, len(merges)):
            return None
        m = merges[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (m.rank, m.token_id, token_label(m.pair[0]), token_label(m.pair[1]),
                    token_label(m.token), f"{m.count:,}" if m.count else "")[col]
        if role == Qt.ItemDataRole.FontRole and col in (2, 3, 4):
            return self.mono
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (0, 1, 5):
            return RIGHT
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{token_label(m.token)}\nbytes: {hex_bytes(m.token)}"
        if role == SEARCH_ROLE:
            return self.search(index.row(), m.token)
        if role == TOKEN_ROLE:
            return m.token
        return None


class VocabModel(_IndexModel):
    HEADERS = ("ID", "Token", "Bytes", "Len", "Origin")

    def _source_len(self) -> int:
        return len(self.controller.index)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        ix = self.controller.index
        if not index.isValid() or not 0 <= index.row() < min(self._n, len(ix)):
            return None
        tid = ix.id_at(index.row())
        token = ix.vocab[tid]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return tid
            if col == 1:
                return token_label(token)
            if col == 2:
                return hex_bytes(token)
            if col == 3:
                return len(token)
            rank = ix.rank_of.get(token)
            if ix.is_special(tid):
                return "special"
            return f"merge {rank}" if rank is not None else ("byte" if len(token) == 1 else "—")
        if role == Qt.ItemDataRole.FontRole and col in (1, 2):
            return self.mono
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (0, 3):
            return RIGHT
        if role == SEARCH_ROLE:
            return self.search(index.row(), token)
        if role == TOKEN_ROLE:
            return token
        return None


def _table(model) -> tuple[QTableView, QSortFilterProxyModel]:
    proxy = QSortFilterProxyModel()
    proxy.setSourceModel(model)
    proxy.setFilterRole(SEARCH_ROLE)
    proxy.setFilterKeyColumn(0)
    proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
    view = QTableView()
    view.setModel(proxy)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.verticalHeader().setVisible(False)
    view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    view.verticalHeader().setDefaultSectionSize(22)
    view.setShowGrid(False)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    view.horizontalHeader().setStretchLastSection(True)
    return view, proxy


class BrowserView(QWidget):
    def __init__(self, controller, parent=None) -> None:
        super().__init__(parent)
        self.controller = controller
        self._syncing = False
        self.merges_model = MergesModel(controller, self)
        self.vocab_model = VocabModel(controller, self)
        self.merges_table, self.merges_proxy = _table(self.merges_model)
        self.vocab_table, self.vocab_proxy = _table(self.vocab_model)
        self.merges_proxy.setParent(self)
        self.vocab_proxy.setParent(self)
        for table, widths in ((self.merges_table, (46, 46, 64, 64, 86)), (self.vocab_table, (46, 96, 110, 36))):
            for i, w in enumerate(widths):
                table.setColumnWidth(i, w)

        self.search = QLineEdit()
        self.search.setPlaceholderText("Search tokens (text, e.g. ' the', or hex) …")
        self.search.setClearButtonEnabled(True)
        self._search_timer = QTimer(self, singleShot=True, interval=150)
        self._search_timer.timeout.connect(self._apply_search)
        self.search.textChanged.connect(lambda _t: self._search_timer.start())

        self.tabs = QTabWidget()
        self.tabs.addTab(self.merges_table, "Merges")
        self.tabs.addTab(self.vocab_table, "Vocab")
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Merge tree", "ID", "Merge"])
        self.tree.setColumnWidth(0, 190)
        self.tree.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.tree.setRootIsDecorated(True)

        split = QSplitter(Qt.Orientation.Vertical)
        top = QWidget()
        tl = QVBoxLayout(top)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.addWidget(self.search)
        tl.addWidget(self.tabs)
        split.addWidget(top)
        split.addWidget(self.tree)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        title = QLabel("<b>Merges &amp; vocab</b>")
        lay.addWidget(title)
        lay.addWidget(split)

        for model in (self.merges_model, self.vocab_model):
            controller.merges_appended.connect(model.appended)
            controller.busy_changed.connect(model.appended)
            controller.merges_removed.connect(model.removed)
            controller.merges_reset.connect(model.reset)
        controller.merges_reset.connect(self.tree.clear)
        controller.merge_selected.connect(self.select_merge)
        self.merges_table.selectionModel().currentRowChanged.connect(self._merge_row_changed)
        self.vocab_table.selectionModel().currentRowChanged.connect(self._vocab_row_changed)

    def _apply_search(self) -> None:
        text = self.search.text()
        self.merges_proxy.setFilterFixedString(text)
        self.vocab_proxy.setFilterFixedString(text)

    # ------------------------------------------------------------------ selection
    def select_merge(self, rank: int) -> None:
        ix = self.controller.index
        if not 0 <= rank < ix.n_merges:
            return
        m = ix.merges[rank]
        self.show_tree(m.token)
        self._syncing = True
        try:
            self._select_row(self.merges_table, self.merges_proxy, self.merges_model, rank)
            row = ix.row_of_id(m.token_id) if m.token_id >= 0 else -1
            if row >= 0:
                self._select_row(self.vocab_table, self.vocab_proxy, self.vocab_model, row)
        finally:
            self._syncing = False

    @staticmethod
    def _select_row(table, proxy, model, row: int) -> None:
        src = model.index(row, 0)
        idx = proxy.mapFromSource(src)
        if idx.isValid():
            table.setCurrentIndex(idx)
            table.scrollTo(idx, QAbstractItemView.ScrollHint.PositionAtCenter)

    def _merge_row_changed(self, current, _previous) -> None:
        if self._syncing or not current.isValid():
            return
        rank = self.merges_proxy.mapToSource(current).row()
        self.controller.select_merge(rank)

    def _vocab_row_changed(self, current, _previous) -> None:
        if self._syncing or not current.isValid():
            return
        token = self.vocab_proxy.data(current, TOKEN_ROLE)
        rank = self.controller.index.rank_of.get(token)
        if rank is not None:
            self.controller.select_merge(rank)
        else:
            self.show_tree(token)

    def show_tree(self, token: bytes) -> None:
        """Show how ``token`` was built, down to single bytes."""
        ix = self.controller.index
        self.tree.clear()

        def add(parent, node) -> None:
            tok, children = node
            rank = ix.rank_of.get(tok)
            tid = ix.token_ids.get(tok, -1)
            item = QTreeWidgetItem([token_label(tok), str(tid) if tid >= 0 else "",
                                    f"#{rank}" if rank is not None else "byte" if len(tok) == 1 else ""])
            item.setToolTip(0, hex_bytes(tok))
            if parent is None:
                self.tree.addTopLevelItem(item)
            else:
                parent.addChild(item)
            for child in children:
                add(item, child)

        add(None, ix.tree(token))
        self.tree.expandAll()
