"""Merges and vocab browser: two searchable lists and the merge tree of the selected token."""
from __future__ import annotations

import re

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QSortFilterProxyModel,
    Qt,
    QTimer,
    Signal,
)
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

from .column_tips import MERGES_HEADERS, MERGES_TIPS, VOCAB_HEADERS, VOCAB_TIPS
from .formatting import hex_bytes, search_text, token_label
from .token_lists import TokenLists

SEARCH_ROLE = int(Qt.ItemDataRole.UserRole) + 1
TOKEN_ROLE = int(Qt.ItemDataRole.UserRole) + 2
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
DISPLAY = int(Qt.ItemDataRole.DisplayRole)
FONT = int(Qt.ItemDataRole.FontRole)
ALIGN = int(Qt.ItemDataRole.TextAlignmentRole)
TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
SYNC_MS = 150  # rows follow the merges at most this late (stepping fast repaints the lists once)
_ID_QUERY = re.compile(r"#\s*(\d+)")  # "#1234" in the search box jumps to the token with that id


class _IndexModel(QAbstractTableModel):
    """A table over the controller's VocabIndex; keeps its own row count for correct insert/remove."""

    HEADERS: tuple[str, ...] = ()

    def __init__(self, controller, parent=None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self._n = self._source_len()
        self._search: dict[int, str] = {}
        # True while rows are inserted or removed: the views move their current row then, and a
        # handler that syncs this model again would nest a second removal inside the first (Qt
        # then corrupts memory), so selection handlers wait until it is False
        self.in_sync = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SYNC_MS)
        self._timer.timeout.connect(self.sync)

    def _source_len(self) -> int:
        raise NotImplementedError

    def changed(self, _n=None) -> None:
        """Merges were added or removed: sync soon (a burst of steps becomes one update)."""
        if not self._timer.isActive():
            self._timer.start()

    def sync(self, _busy=None) -> None:
        """Insert or remove rows so that the model matches the index.

        Not while a run is going: repainting a table while the worker runs makes the GUI thread
        queue for the GIL once per cell and role. The rows come when the run is over.
        """
        if self.in_sync or self.controller.busy in ("train", "step"):
            return
        self._timer.stop()
        target = self._source_len()
        self.in_sync = True
        try:
            if target > self._n:
                self.beginInsertRows(QModelIndex(), self._n, target - 1)
                self._n = target
                self.endInsertRows()
            elif target < self._n:
                self.beginRemoveRows(QModelIndex(), target, self._n - 1)
                for r in range(target, self._n):
                    self._search.pop(r, None)
                self._n = target
                self.endRemoveRows()
        finally:
            self.in_sync = False

    def reset(self) -> None:
        self._timer.stop()
        self.in_sync = True
        try:
            self.beginResetModel()
            self._n = self._source_len()
            self._search.clear()
            self.endResetModel()
        finally:
            self.in_sync = False

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else self._n

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return QCoreApplication.translate("BrowserView", self.HEADERS[section])
        if role == Qt.ItemDataRole.ToolTipRole and orientation == Qt.Orientation.Horizontal:
            return QCoreApplication.translate("BrowserView", self.TIPS[section])
        return None

    def search(self, row: int, token: bytes) -> str:
        s = self._search.get(row)
        if s is None:
            s = self._search[row] = search_text(token)
        return s


class MergesModel(_IndexModel):
    HEADERS, TIPS = MERGES_HEADERS, MERGES_TIPS

    def _source_len(self) -> int:
        return self.controller.index.n_merges

    def data(self, index, role=DISPLAY):
        merges = self.controller.index.merges
        row = index.row()
        if not 0 <= row < min(self._n, len(merges)) or not index.isValid():
            return None
        m = merges[row]
        col = index.column()
        if role == DISPLAY:
            if col == 0:
                return m.rank + 1
            if col == 1:
                return m.token_id
            if col == 5:
                return f"{m.count:,}" if m.count else ""
            return token_label(m.pair[0] if col == 2 else m.pair[1] if col == 3 else m.token)
        if role == FONT:
            return self.mono if col in (2, 3, 4) else None
        if role == ALIGN:
            return RIGHT if col in (0, 1, 5) else None
        if role == TOOLTIP:
            return f"{token_label(m.token)}\n" + QCoreApplication.translate("BrowserView", "bytes: {0}").format(hex_bytes(m.token))
        if role == SEARCH_ROLE:
            return self.search(index.row(), m.token)
        if role == TOKEN_ROLE:
            return m.token
        return None


class VocabModel(_IndexModel):
    HEADERS, TIPS = VOCAB_HEADERS, VOCAB_TIPS

    def _source_len(self) -> int:
        return len(self.controller.index)

    def data(self, index, role=DISPLAY):
        ix = self.controller.index
        row = index.row()
        if not 0 <= row < min(self._n, len(ix)) or not index.isValid():
            return None
        tid = ix.id_at(row)
        token = ix.vocab[tid]
        col = index.column()
        if role == DISPLAY:
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
                return QCoreApplication.translate("BrowserView", "special")
            return (QCoreApplication.translate("BrowserView", "merge #{0}").format(rank + 1) if rank is not None
                    else (QCoreApplication.translate("BrowserView", "byte") if len(token) == 1 else "—"))
        if role == FONT:
            return self.mono if col in (1, 2) else None
        if role == ALIGN:
            return RIGHT if col in (0, 3) else None
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
    view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    view.setWordWrap(False)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    view.horizontalHeader().setStretchLastSection(True)
    return view, proxy


class BrowserView(QWidget):
    message = Signal(str)  # a status line (the window shows it)

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
        for table, widths, stretch in ((self.merges_table, (60, 50, 62, 62, 0, 80), 4),
                                       (self.vocab_table, (52, 0, 110, 36, 70), 1)):
            header = table.horizontalHeader()
            header.setStretchLastSection(False)
            for i, w in enumerate(widths):
                if i == stretch:
                    header.setSectionResizeMode(i, QHeaderView.ResizeMode.Stretch)
                else:
                    table.setColumnWidth(i, w)
            table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Search tokens: text (' the'), hex (e4 b8) or #id …"))
        self.search.setClearButtonEnabled(True)
        self._search_timer = QTimer(self, singleShot=True, interval=150)
        self._search_timer.timeout.connect(self._apply_search)
        self.search.textChanged.connect(lambda _t: self._search_timer.start())

        self.no_match = QLabel()
        self.no_match.setObjectName("notes")
        self.no_match.setVisible(False)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.merges_table, self.tr("Merges"))
        self.tabs.addTab(self.vocab_table, self.tr("Vocab"))
        self.lists = TokenLists(controller, self.show_tree, self)
        self.tabs.addTab(self.lists.longest, self.tr("Longest"))
        self.tabs.addTab(self.lists.unused, self.tr("Never used"))
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels([self.tr("Merge tree"), "ID", self.tr("Merge")])
        self.tree.setColumnWidth(0, 190)
        self.tree.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.tree.setRootIsDecorated(True)

        split = self.splitter = QSplitter(Qt.Orientation.Vertical)
        top = QWidget()
        tl = QVBoxLayout(top)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.addWidget(self.search)
        tl.addWidget(self.no_match)
        tl.addWidget(self.tabs)
        split.addWidget(top)
        split.addWidget(self.tree)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        title = QLabel(self.tr("<b>Merges &amp; vocab</b>"))
        lay.addWidget(title)
        lay.addWidget(split)

        for model in (self.merges_model, self.vocab_model):
            controller.merges_appended.connect(model.changed)
            controller.merges_removed.connect(model.changed)
            controller.busy_changed.connect(model.sync)
            controller.merges_reset.connect(model.reset)
        controller.merges_reset.connect(self._tree_hint)
        controller.merge_selected.connect(self.select_merge)
        self.merges_table.selectionModel().currentRowChanged.connect(self._merge_row_changed)
        self.merges_table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.merges_table.customContextMenuRequested.connect(self._merge_menu)
        self.vocab_table.selectionModel().currentRowChanged.connect(self._vocab_row_changed)
        self._tree_hint()

    def _merge_menu(self, pos) -> None:
        """Right-click on a merge: rewind to it (undo every merge after it)."""
        idx = self.merges_table.indexAt(pos)
        if not idx.isValid():
            return
        rank = self.merges_proxy.mapToSource(idx).row()
        from .widgets import rewind_menu

        menu = rewind_menu(self, self.controller, rank)
        menu.popup(self.merges_table.viewport().mapToGlobal(pos))

    def _tree_hint(self) -> None:
        self.tree.clear()
        text = self.tr("Select a merge or a token to see how it was built")
        hint = QTreeWidgetItem([text])
        hint.setToolTip(0, text)
        hint.setDisabled(True)
        self.tree.addTopLevelItem(hint)
        hint.setFirstColumnSpanned(True)  # (only once it is in the tree)

    def _apply_search(self) -> None:
        text = self.search.text()
        m = _ID_QUERY.fullmatch(text.strip())
        if m:  # a token id: show every row and select that token
            text = ""
        self.merges_model.sync()  # the rows of the latest merges are searched too
        self.vocab_model.sync()
        self.merges_proxy.setFilterFixedString(text)
        self.vocab_proxy.setFilterFixedString(text)
        self.show_matches(text)
        if m:
            self.jump_to_id(int(m.group(1)))

    def show_matches(self, text: str) -> None:
        """Say so when a search finds nothing (an empty list looks like a broken one)."""
        empty = bool(text) and self.vocab_proxy.rowCount() == 0
        if empty:
            self.no_match.setText(self.tr("No matches for “%1” (searched the token text, its readable "
                                          "form and its hex bytes).").replace("%1", text))
        elif text and self.merges_proxy.rowCount() == 0 and self.tabs.currentIndex() == 0:
            self.no_match.setText(self.tr("No merge made a token matching “%1”; see the Vocab tab.")
                                  .replace("%1", text))
            empty = True
        self.no_match.setVisible(empty)

    def jump_to_id(self, token_id: int) -> bool:
        """Select the token with ``token_id`` in the vocab list (and its merge, if a merge made it)."""
        ix = self.controller.index
        if token_id not in ix.vocab:
            self.message.emit(self.tr("No token has id {0} (this vocab has ids 0–{1}).").format(
                f"{token_id:,}", f"{len(ix) - 1:,}"))
            return False
        self.vocab_model.sync()
        self.tabs.setCurrentIndex(1)
        before = self.vocab_table.currentIndex()
        self._select_row(self.vocab_table, self.vocab_proxy, self.vocab_model, ix.row_of_id(token_id))
        if self.vocab_table.currentIndex() == before:  # already current: no signal shows it, so show it here
            self._vocab_row_changed(before, None)
        return True

    # ------------------------------------------------------------------ selection
    def _models_syncing(self) -> bool:
        return self.merges_model.in_sync or self.vocab_model.in_sync

    def select_merge(self, rank: int) -> None:
        ix = self.controller.index
        if not 0 <= rank < ix.n_merges:
            return
        if self._models_syncing():  # rows are being removed: select once they are gone
            QTimer.singleShot(0, self, lambda: self.select_merge(rank))
            return
        m = ix.merges[rank]
        self.merges_model.sync()
        self.vocab_model.sync()
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
        if self._models_syncing():  # e.g. the selected merge was undone: follow the new current row
            QTimer.singleShot(0, self, lambda: self._merge_row_changed(self.merges_table.currentIndex(), None))
            return
        rank = self.merges_proxy.mapToSource(current).row()
        self.controller.select_merge(rank)

    def _vocab_row_changed(self, current, _previous) -> None:
        if self._syncing or not current.isValid():
            return
        if self._models_syncing():
            QTimer.singleShot(0, self, lambda: self._vocab_row_changed(self.vocab_table.currentIndex(), None))
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
                                    f"#{rank + 1}" if rank is not None else self.tr("byte") if len(tok) == 1 else ""])
            item.setToolTip(0, hex_bytes(tok))
            if parent is None:
                self.tree.addTopLevelItem(item)
            else:
                parent.addChild(item)
            for child in children:
                add(item, child)

        add(None, ix.tree(token))
        self.tree.expandAll()
