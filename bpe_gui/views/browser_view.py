"""Merges and vocab browser: two searchable lists and the merge tree of the selected token.

The lists' table models are in :mod:`bpe_gui.views.browser_models`.
"""

from __future__ import annotations

import re

from PySide6.QtCore import (
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QFontDatabase, QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSplitter,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QTreeWidgetItemIterator,
    QVBoxLayout,
    QWidget,
)

from bpe_gui.model.formatting import hex_html, token_label
from bpe_gui.views.browser_models import TOKEN_ROLE, MergesModel, VocabModel, make_table
from bpe_gui.views.column_fit import fit_columns, readable_headers
from bpe_gui.views.token_lists import TokenLists

_ID_QUERY = re.compile(r"#\s*(\d+)")  # "#1234" in the search box jumps to the token with that id


COUNT_WIDTH = 70  # the merges' Count column (6-digit counts)


class BrowserView(QWidget):
    message = Signal(str)  # a status line (the window shows it)
    merge_chosen = Signal(int)  # rank of the merge whose row the user picked (the window selects it)

    def __init__(self, controller, parent=None) -> None:
        super().__init__(parent)
        self.controller = controller
        self._syncing = False
        self.merges_model = MergesModel(controller, self)
        self.vocab_model = VocabModel(controller, self)
        self.merges_table, self.merges_proxy = make_table(self.merges_model)
        self.vocab_table, self.vocab_proxy = make_table(self.vocab_model)
        self.merges_proxy.setParent(self)
        self.vocab_proxy.setParent(self)
        for table, widths, stretch in (
            (self.merges_table, (60, 50, 62, 62, 0, COUNT_WIDTH), 4),
            (self.vocab_table, (52, 110, 110, 36, 0, 56), 4),
        ):
            header = table.horizontalHeader()
            header.setStretchLastSection(False)
            for i, w in enumerate(widths):
                if i == stretch:
                    header.setSectionResizeMode(i, QHeaderView.ResizeMode.Stretch)
                else:
                    table.setColumnWidth(i, w)
            table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
            readable_headers(table)  # (no column narrower than its label, in either language)
        # bytes and origins are not cut: these columns grow to their rows (up to a cap) and the last
        # column takes what is left; a narrow pane scrolls sideways
        mono = self.merges_model.mono
        hex3 = QFontMetrics(mono).horizontalAdvance("词\\xe8\\xa1") + 14  # (a character + part of one)
        fit_columns(
            self.merges_table, {2: 140, 3: 140}, share=0.2, floor=hex3
        )  # (the parts: a fifth of the list each, or a partial character's hex; the token takes the rest)
        fit_columns(self.merges_table, {5: 120})  # (the counts are never cut)
        fit_columns(self.vocab_table, {1: 220, 2: 260})

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
        self.lists = TokenLists(controller, self._token_chosen, self)
        self.tabs.addTab(self.lists.longest, self.tr("Longest"))
        self.tabs.addTab(self.lists.unused, self.tr("Never used"))
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels([self.tr("Merge tree"), "ID", self.tr("Merge")])
        self.tree.setColumnWidth(0, 190)
        self.tree.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.tree.setRootIsDecorated(True)
        self.tree.setToolTip(self.tr("Click a part to select the merge that made it"))
        self.tree.itemClicked.connect(self._tree_item_clicked)
        self._keep_tree = False  # a part of the tree shown was clicked: its merge is selected, the tree stays

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
        # another corpus or tokenizer: the search of the last one would hide its rows without a word
        controller.merges_reset.connect(self.search.clear)
        controller.merges_reset.connect(self._score_column)
        # … and its lists start at their top (the last tokenizer's scroll showed rows 7,164 on)
        for table in (self.merges_table, self.vocab_table):
            controller.merges_reset.connect(table.scrollToTop)
        self._score_column()
        controller.merges_removed.connect(self._forget_removed)
        controller.merge_selected.connect(self.select_merge)
        controller.selection_cleared.connect(self._selection_cleared)
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
        # the row under the cursor becomes the one selection (every view shows it), and the menu acts on it
        self.controller.select_merge(self.merges_proxy.mapToSource(idx).row())
        rank = self.controller.selected_merge
        if rank is None:
            return
        from bpe_gui.views.widgets import rewind_menu

        menu = rewind_menu(self, self.controller, rank)
        menu.popup(self.merges_table.viewport().mapToGlobal(pos))

    def _score_column(self) -> None:
        """The Score column is shown for a SentencePiece model (its pieces have scores) only."""
        ix = self.controller.index
        sp = ix.char_model
        self.vocab_table.setColumnHidden(5, sp is None or sp.score(0) is None)
        # a file with no counts leaves the merges' Count column empty: its room goes to the tokens
        table = self.merges_table
        shown_again = table.isColumnHidden(5) and ix.has_counts
        table.setColumnHidden(5, not ix.has_counts)
        if shown_again:  # (counts came, e.g. training on from an imported tokenizer: the column came back
            # at the sliver the wide token columns had left it, its label cut to "oun")
            header = table.horizontalHeader()
            table.setColumnWidth(5, max(table.columnWidth(5), header.sectionSizeHint(5), COUNT_WIDTH))

    def _selection_cleared(self) -> None:
        """No merge is selected any more (Back to now): no row is, and the tree shows its hint."""
        self._clear_rows()
        self._tree_hint()

    def _clear_rows(self) -> None:
        """No row picked in either table (no selection signal goes out for it)."""
        self._syncing = True
        try:
            for table in (self.vocab_table, self.merges_table):
                table.selectionModel().clearCurrentIndex()
                table.clearSelection()
        finally:
            self._syncing = False

    def _forget_removed(self, _n: int) -> None:
        """Reset (or undoing the only merge) took away the token whose tree is shown: no row moves onto
        another token (a special token's row was shown), the hint shows instead. With merges left, the
        merge before the one undone is selected (as the rows move)."""
        shown = self._shown_token
        ix = self.controller.index
        if shown is None or shown in ix.token_ids or ix.n_merges:
            return
        self._clear_rows()
        self._tree_hint()

    def _tree_hint(self) -> None:
        self._shown_token: bytes | None = None
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
            self.no_match.setText(
                self.tr(
                    "No matches for “%1” (searched the token text, its readable form and its hex bytes)."
                ).replace("%1", text)
            )
        elif text and self.merges_proxy.rowCount() == 0 and self.tabs.currentIndex() == 0:
            self.no_match.setText(
                self.tr("No merge made a token matching “%1”; see the Vocab tab.").replace("%1", text)
            )
            empty = True
        self.no_match.setVisible(empty)

    def jump_to_id(self, token_id: int) -> bool:
        """Select the token with ``token_id`` in the vocab list (and its merge, if a merge made it)."""
        ix = self.controller.index
        if token_id not in ix.vocab:
            self.message.emit(
                self.tr("No token has id {0} (this vocab has ids 0–{1}).").format(
                    f"{token_id:,}", f"{len(ix) - 1:,}"
                )
            )
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
        if self._keep_tree:
            self._mark_in_tree(m.token)
        else:
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
            # (scrolls only when the row is out of sight: a row clicked stays under the cursor)
            table.scrollTo(idx, QAbstractItemView.ScrollHint.EnsureVisible)

    def _merge_row_changed(self, current, _previous) -> None:
        if self._syncing or not current.isValid():
            return
        if self._models_syncing():  # e.g. the selected merge was undone: follow the new current row
            QTimer.singleShot(
                0, self, lambda: self._merge_row_changed(self.merges_table.currentIndex(), None)
            )
            return
        rank = self.merges_proxy.mapToSource(current).row()
        self.merge_chosen.emit(rank)

    def _vocab_row_changed(self, current, _previous) -> None:
        if self._syncing or not current.isValid():
            return
        if self._models_syncing():
            QTimer.singleShot(0, self, lambda: self._vocab_row_changed(self.vocab_table.currentIndex(), None))
            return
        self._token_chosen(self.vocab_proxy.data(current, TOKEN_ROLE))

    def _token_chosen(self, token: bytes) -> None:
        """A token picked in the vocab or a token list: its merge becomes the selected one (every view
        shows it); a byte or a special token, made by no merge, shows its tree alone."""
        rank = self.controller.index.rank_of.get(token)
        if rank is not None:
            self.merge_chosen.emit(rank)
        else:
            self.show_tree(token)

    def _tree_item_clicked(self, item: QTreeWidgetItem, _column: int) -> None:
        """A part of the tree clicked: the merge that made it becomes the selected one in every view
        (the tree stays as it is, with that part marked)."""
        token = item.data(0, TOKEN_ROLE)
        rank = self.controller.index.rank_of.get(token) if isinstance(token, bytes) else None
        if rank is None:  # a byte or a piece no merge made
            return
        self._keep_tree = True
        try:
            self.merge_chosen.emit(rank)
        finally:
            self._keep_tree = False

    def _mark_in_tree(self, token: bytes) -> None:
        """Make the first node of ``token`` in the tree shown the current one."""
        it = QTreeWidgetItemIterator(self.tree)
        while it.value() is not None:
            item = it.value()
            if item.data(0, TOKEN_ROLE) == token:
                self.tree.setCurrentItem(item)
                return
            it += 1

    def show_tree(self, token: bytes) -> None:
        """Show how ``token`` was built, down to single bytes."""
        ix = self.controller.index
        self.tree.clear()
        self._shown_token = token

        def add(parent, node) -> None:
            tok, children = node
            rank = ix.rank_of.get(tok)
            tid = ix.token_ids.get(tok, -1)
            if rank is not None:
                origin = f"#{rank + 1:,}"
            elif ix.char_model is not None and tid >= 0:  # a piece: a character, byte fallback, …
                origin = VocabModel._piece_origin(ix.char_model, tid, tok, None)
            else:
                origin = self.tr("byte") if len(tok) == 1 else ""
            item = QTreeWidgetItem([token_label(tok), str(tid) if tid >= 0 else "", origin])
            item.setData(0, TOKEN_ROLE, tok)
            item.setToolTip(0, f"<qt>{hex_html(tok)}</qt>")
            if parent is None:
                self.tree.addTopLevelItem(item)
            else:
                parent.addChild(item)
            for child in children:
                add(item, child)

        add(None, ix.tree(token))
        self.tree.expandAll()
