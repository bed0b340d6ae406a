"""The table models of the merges and vocab browser: rows over the controller's VocabIndex.

They keep their own row count and follow the merges in steps of at most :data:`SYNC_MS`, so that
stepping fast repaints the lists once (see :meth:`_IndexModel.sync`).
"""

from __future__ import annotations

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QSortFilterProxyModel,
    Qt,
    QTimer,
)
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from bpe_gui.model.formatting import hex_bytes, piece_label, search_text, token_label, token_tip_html
from bpe_gui.text.columns import MERGES_HEADERS, MERGES_TIPS, VOCAB_HEADERS, VOCAB_TIPS
from bpe_gui.views.column_fit import VisibleLabelHeader

SEARCH_ROLE = int(Qt.ItemDataRole.UserRole) + 1
TOKEN_ROLE = int(Qt.ItemDataRole.UserRole) + 2
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
DISPLAY = int(Qt.ItemDataRole.DisplayRole)
FONT = int(Qt.ItemDataRole.FontRole)
ALIGN = int(Qt.ItemDataRole.TextAlignmentRole)
TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
SYNC_MS = 150  # rows follow the merges at most this late (stepping fast repaints the lists once)


class _IndexModel(QAbstractTableModel):
    """A table over the controller's VocabIndex; keeps its own row count for correct insert/remove."""

    HEADERS: tuple[str, ...] = ()
    TIPS: tuple[str, ...] = ()

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
            shown = m.pair[0] if col == 2 else m.pair[1] if col == 3 else m.token
            return token_tip_html(shown, QCoreApplication.translate("BrowserView", "bytes: {0}"))
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
        sp = ix.char_model  # a SentencePiece-style tokenizer: its pieces, kinds and scores
        if role == DISPLAY:
            if col == 0:
                return tid
            if col == 1:
                piece = sp.piece(tid) if sp is not None else None
                return piece_label(piece) if piece is not None else token_label(token)
            if col == 2:
                return hex_bytes(token)
            if col == 3:
                return len(token)
            if col == 5:
                score = sp.score(tid) if sp is not None else None
                return f"{score:g}" if score is not None else ""
            rank = ix.rank_of.get(token)
            if ix.is_plain_added(tid):  # (HF "special": false: OLMo 1's runs of spaces)
                return QCoreApplication.translate("BrowserView", "added")
            if ix.is_special(tid):
                return QCoreApplication.translate("BrowserView", "special")
            if sp is not None:
                return self._piece_origin(sp, tid, token, rank)
            return (
                QCoreApplication.translate("BrowserView", "merge #{0}").format(f"{rank + 1:,}")
                if rank is not None
                else (QCoreApplication.translate("BrowserView", "byte") if len(token) == 1 else "—")
            )
        if role == FONT:
            return self.mono if col in (1, 2) else None
        if role == ALIGN:
            return RIGHT if col in (0, 3, 5) else None
        if role == TOOLTIP and sp is not None and col == 1 and sp.is_byte_fallback(tid):
            return QCoreApplication.translate(
                "BrowserView",
                "Byte-fallback piece: the byte {0} of a character that is not in the vocab",
            ).format(f"0x{token[0]:02X}")
        if role == TOOLTIP and col == 4 and ix.is_plain_added(tid):
            return QCoreApplication.translate(
                "BrowserView",
                'Added token, not special (the file marks it "special": false): found whole in text and '
                "never merged, like a special token, but kept when special tokens are skipped",
            )
        if role == TOOLTIP and col in (1, 2):  # a long token's hex is wider than its column
            return token_tip_html(token, QCoreApplication.translate("BrowserView", "bytes: {0}"))
        if role == SEARCH_ROLE:
            s = self.search(index.row(), token)
            piece = sp.piece(tid) if sp is not None else None
            return s if piece is None else f"{s}\x00{piece}"
        if role == TOKEN_ROLE:
            return token
        return None

    @staticmethod
    def _piece_origin(sp, tid: int, token: bytes, rank: int | None) -> str:
        """Where a SentencePiece-style piece comes from: byte fallback, user-defined, a character,
        or the merge (of the merge list rebuilt from the scores) that makes it."""
        kind = sp.kind(tid)
        if kind == "byte":
            return QCoreApplication.translate("BrowserView", "byte fallback")
        if kind == "user-defined":
            return QCoreApplication.translate("BrowserView", "user-defined")
        if kind == "unused":
            return QCoreApplication.translate("BrowserView", "unused")
        if rank is not None:
            return QCoreApplication.translate("BrowserView", "merge #{0}").format(f"{rank + 1:,}")
        piece = sp.piece(tid) or ""
        return QCoreApplication.translate("BrowserView", "character") if len(piece) == 1 else "—"


def make_table(model) -> tuple[QTableView, QSortFilterProxyModel]:
    proxy = QSortFilterProxyModel()
    proxy.setSourceModel(model)
    proxy.setFilterRole(SEARCH_ROLE)
    proxy.setFilterKeyColumn(0)
    proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
    view = QTableView()
    view.setHorizontalHeader(VisibleLabelHeader(view))  # (a wide column's label stays in sight)
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
