"""Live pair-count table: the top pairs with count, change since the last step and rank movement."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import (
    QAbstractTableModel,
    QItemSelectionModel,
    QModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QBrush, QColor, QFontDatabase
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from bpe_gui.model.formatting import hex_bytes, hex_html, pair_label, signed, token_label
from bpe_gui.model.marks import QT_TRANSLATE_NOOP
from bpe_gui.views.fitted_label import FittedLabel
from bpe_gui.views.widgets import has_wide_glyphs, pinned, status_label, wide_lines_height

SEARCH_ROLE = int(Qt.ItemDataRole.UserRole) + 1
NEXT_BG = QColor("#ffe8a3")
TIE_BG = QColor("#fff6d6")
UP = QColor("#1a7f37")
DOWN = QColor("#c62828")
NEW = QColor("#1f5fbf")


DISPLAY = int(Qt.ItemDataRole.DisplayRole)
BACKGROUND = int(Qt.ItemDataRole.BackgroundRole)
FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
FONT = int(Qt.ItemDataRole.FontRole)
ALIGN = int(Qt.ItemDataRole.TextAlignmentRole)
TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


class PairTableModel(QAbstractTableModel):
    """Rows of (pair, count, delta, movement) over a plain list; refreshed with a model reset.

    The cells are formatted once per refresh, so ``data`` (called for every cell and role at each
    repaint) only indexes tuples.
    """

    HEADERS = (
        "#",
        QT_TRANSLATE_NOOP("PairTableModel", "Pair"),
        QT_TRANSLATE_NOOP("PairTableModel", "Count"),
        "Δ",
        QT_TRANSLATE_NOOP("PairTableModel", "Move"),
    )
    TIPS = (
        QT_TRANSLATE_NOOP("PairTableModel", "Place in the table: 1 is the pair the next step merges"),
        QT_TRANSLATE_NOOP(
            "PairTableModel",
            "Two neighbouring tokens (shown with visible spaces); the tooltip shows their bytes",
        ),
        QT_TRANSLATE_NOOP(
            "PairTableModel",
            "How often the two tokens stand side by side in the corpus (each "
            "pre-token counted as often as it occurs)",
        ),
        QT_TRANSLATE_NOOP(
            "PairTableModel",
            "Change of the count since the last step: a merge takes counts "
            "from the pairs next to it and creates new pairs",
        ),
        QT_TRANSLATE_NOOP(
            "PairTableModel",
            "How many places the pair moved up (▲) or down (▼) in the table since the last step",
        ),
    )

    # the Δ and Move columns while the table shows the counts before an earlier merge (show_past)
    PAST_TIPS = (
        QT_TRANSLATE_NOOP(
            "PairTableModel",
            "What the merge shown made of this count: the merged pair loses all its occurrences, "
            "its neighbours lose some, and pairs with the new token appear",
        ),
        QT_TRANSLATE_NOOP("PairTableModel", "Places move from step to step: shown for the table now only"),
    )

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list[tuple[tuple[bytes, bytes], int, int | None, int | None]] = []
        # while the counts before an earlier merge are shown: that merge's rank, and the live table
        # put aside (its Δ and Move compare with the step before it: shown again as they were)
        self.past_rank: int | None = None
        self._live: tuple | None = None
        self._cells: list[tuple] = []  # per row: (display texts, background, foregrounds)
        self._prev_rank: dict = {}
        self._prev_count: dict = {}
        self.top_count = 0
        self.mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self._next_bg, self._tie_bg = QBrush(NEXT_BG), QBrush(TIE_BG)
        self._up, self._down, self._new = QBrush(UP), QBrush(DOWN), QBrush(NEW)

    def set_pairs(self, pairs: list, deltas: dict | None = None, reset_history: bool = False) -> None:
        """Show ``pairs`` ([(pair, count)] best first); Δ and movement are relative to the last call."""
        self._back_to_live()
        if reset_history:
            self._prev_rank, self._prev_count = {}, {}
        had_history = bool(self._prev_rank)
        rows, cells = [], []
        top = pairs[0][1] if pairs else 0
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
            if move is None:
                move_text, move_fg = (self.tr("new") if had_history else ""), self._new
            else:
                move_text = f"▲{move}" if move > 0 else (f"▼{-move}" if move < 0 else "")
                move_fg = self._up if move > 0 else self._down
            texts = (
                rank + 1,
                f"{token_label(pair[0])}  +  {token_label(pair[1])}",
                f"{count:,}",
                "" if delta is None else signed(delta),
                move_text,
            )
            bg = self._next_bg if rank == 0 else (self._tie_bg if count == top else None)
            fgs = (None, None, None, (self._up if delta > 0 else self._down) if delta else None, move_fg)
            cells.append((texts, bg, fgs))
        self._show(rows, cells, top)
        if pairs or reset_history:
            self._prev_rank = {p: i for i, (p, _) in enumerate(pairs)}
            self._prev_count = dict(pairs)

    def _show(self, rows: list, cells: list, top: int) -> None:
        if len(rows) == len(self.rows) and rows:
            # same shape: repaint the cells, keep the scroll position and selection
            self.rows, self._cells, self.top_count = rows, cells, top
            self.dataChanged.emit(self.index(0, 0), self.index(len(rows) - 1, 4))
        else:
            self.beginResetModel()
            self.rows, self._cells, self.top_count = rows, cells, top
            self.endResetModel()

    def show_past(self, rank: int, pairs: list, deltas: dict) -> None:
        """Show the counts before merge ``rank`` (``pairs``: [(pair, count)] best first, the first the
        pair it merged); Δ is ``deltas``: what that merge changed. The live table is put aside, and
        Δ and Move of the next live call still compare with the live table before this."""
        if self._live is None:
            self._live = (self.rows, self._cells, self.top_count)
        self.past_rank = rank
        rows, cells = [], []
        top = pairs[0][1] if pairs else 0
        for place, (pair, count) in enumerate(pairs):
            delta = deltas.get(pair)
            rows.append((pair, count, delta, None))
            texts = (
                place + 1,
                f"{token_label(pair[0])}  +  {token_label(pair[1])}",
                f"{count:,}",
                "" if delta is None else signed(delta),
                "",
            )
            bg = self._next_bg if place == 0 else (self._tie_bg if count == top else None)
            fgs = (None, None, None, (self._up if delta > 0 else self._down) if delta else None, None)
            cells.append((texts, bg, fgs))
        self._show(rows, cells, top)
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 3, 4)

    def show_live(self) -> bool:
        """Back to the live table put aside by :meth:`show_past` (False when none was)."""
        if self._live is None:
            return False
        self._show(*self._live)
        self._back_to_live()
        return True

    def _back_to_live(self) -> None:
        if self.past_rank is not None:
            self.past_rank = None
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 3, 4)
        self._live = None

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 5

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if role == DISPLAY and orientation == Qt.Orientation.Horizontal:
            return self.tr(self.HEADERS[section])
        if role == Qt.ItemDataRole.ToolTipRole and orientation == Qt.Orientation.Horizontal:
            if self.past_rank is not None and section >= 3:
                return self.tr(self.PAST_TIPS[section - 3])
            return self.tr(self.TIPS[section])
        return None

    def data(self, index, role=DISPLAY):
        row = index.row()
        if not index.isValid() or not 0 <= row < len(self._cells):
            return None
        col = index.column()
        if role == DISPLAY:
            return self._cells[row][0][col]
        if role == BACKGROUND:
            return self._cells[row][1]
        if role == FOREGROUND:
            return self._cells[row][2][col]
        if role == FONT:
            return self.mono if col == 1 else None
        if role == ALIGN:
            return RIGHT if col != 1 else None
        if role == TOOLTIP and col == 1:
            a, b = self.rows[row][0]
            return (
                f"<qt>{escape(pair_label((a, b)))} → {escape(token_label(a + b))}<br>"
                + self.tr("bytes: {0} | {1}").format(hex_html(a), hex_html(b))
                + "</qt>"
            )
        if role == SEARCH_ROLE:
            a, b = self.rows[row][0]
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

        # (ends in "…" where the pane is narrow: "before merge #5,001 — now at merge #10,000" would
        # otherwise widen the pane)
        self.title = FittedLabel()
        # the counts before an earlier merge are shown while the user has picked one (None: now)
        self.shown_rank: int | None = None
        self.now_button = QPushButton(self.tr("Back to now"))
        self.now_button.setObjectName("pairsNow")
        self.now_button.setToolTip(
            self.tr("Back to the session now: the pair counts after the latest merge, and no merge selected")
        )
        self.now_button.clicked.connect(self._back_to_now)
        self.now_button.setVisible(False)
        self._show_title()
        self.next_label = status_label(lines=4, name="nextMerge")
        self.filter = QLineEdit()
        # (on a large corpus the top 100 are a few of millions of pairs: the filter does not search those)
        self.filter.setPlaceholderText(self.tr("Filter the top 100 pairs (text or hex) …"))
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._filter_changed)
        self.table = QTableView()
        # the table shows the model itself unless a filter is typed: the proxy's mapping takes
        # about 40% of a repaint, and the table repaints after every step
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # both ends of a long pair stay visible
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setAlternatingRowColors(False)
        self.table.setShowGrid(False)
        h = self.table.horizontalHeader()
        h.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        h.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        # counts and their changes on a large corpus have 7-9 digits: wide enough for them (elided
        # in the middle they could not be read)
        fm = self.table.fontMetrics()
        for col, width in (
            (0, 34),
            (2, fm.horizontalAdvance("99,999,999") + 16),
            (3, fm.horizontalAdvance("+9,999,999") + 16),
            (4, 46),
        ):
            self.table.setColumnWidth(col, width)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addWidget(self.title)
        self._next_box = pinned(self.next_label)
        self._next_heights = (self._next_box.height(), 0)  # (Latin lines, CJK lines: measured when needed)
        lay.addWidget(self._next_box)
        # (beside the filter, not the title: the title keeps the pane's width for "before merge #5,001 —
        # now at merge #10,000")
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.filter, 1)
        row.addWidget(self.now_button)
        lay.addLayout(row)
        lay.addWidget(self.table)

        controller.pairs_changed.connect(self.refresh)
        controller.merges_reset.connect(lambda: self.refresh(None, reset=True))
        # after a rewind of many merges, Δ and Move compare with the table as it is then
        controller.merges_removed.connect(lambda n: self.refresh(None, reset=True) if n > 1 else None)
        # a run that sends no pairs at its start (a reopened session's replay) must not leave the
        # explanation of the table before it: "Next merge: …" named the corpus's first merge all along
        controller.busy_changed.connect(self._busy_changed)
        # a merge picked in the timeline or the merges list: the counts it was chosen from
        controller.merge_selected.connect(self.show_before)
        self.refresh(None, reset=True)

    def _busy_changed(self, busy) -> None:
        if busy in ("train", "step"):
            self.refresh(None)

    def _filter_changed(self, text: str) -> None:
        self.proxy.setFilterFixedString(text)
        shown = self.proxy if text else self.model
        if self.table.model() is not shown:
            self.table.setModel(shown)
        self._show_title()

    def _show_title(self) -> None:
        """ "top 100, live"; while a filter is typed, how many of those 100 match: the filter searches the
        table, and on a large corpus 5 rows for "th" read as if only 5 of its millions of pairs held it.
        While an earlier merge's counts are shown, which merge's, and where the session is now."""
        rank = getattr(self, "shown_rank", None)
        if rank is not None:
            now = self.controller.index.n_merges
            if self.filter_text():
                text = self.tr(
                    "<b>Pair counts before merge #{0}</b> <span style='color:#667'>— matching: {1} of the top {2}</span>"
                ).format(f"{rank + 1:,}", f"{self.proxy.rowCount():,}", f"{len(self.model.rows):,}")
            else:
                text = self.tr(
                    "<b>Pair counts before merge #{0}</b> <span style='color:#667'>— now at merge #{1}</span>"
                ).format(f"{rank + 1:,}", f"{now:,}")
            self.title.setText(text)
            self.title.setToolTip(
                self.tr(
                    "The table merge #{0} was chosen from: the counts then, its pair at the top. "
                    "Δ is what merge #{0} changed. Back to now shows the counts after merge #{1}."
                ).format(f"{rank + 1:,}", f"{now:,}")
            )
            return
        if not self.filter_text():
            self.title.setText(self.tr("<b>Pair counts</b> <span style='color:#667'>— top 100, live</span>"))
            self.title.setToolTip("")
            return
        self.title.setText(
            self.tr(
                "<b>Pair counts</b> <span style='color:#667'>— matching: {0} of the top {1}</span>"
            ).format(f"{self.proxy.rowCount():,}", f"{len(self.model.rows):,}")
        )
        self.title.setToolTip(
            self.tr(
                "The filter searches the most frequent pairs shown in this table, not every pair of the corpus."
            )
        )

    def filter_text(self) -> str:
        filt = getattr(self, "filter", None)  # (the title is first shown before the filter box exists)
        return filt.text() if filt is not None else ""

    def show_before(self, rank: int) -> None:
        """Show the counts before merge ``rank`` (the table it was chosen from), or say why they are
        not known; while a run or step is under way the table stays live (it follows the run)."""
        c = self.controller
        if c.busy:
            return
        self.shown_rank = rank
        past = c.pairs_before(rank, 100)
        picked = self.selected_pair()
        if past is None:
            self.model.show_past(rank, [], {})
        else:
            self.model.show_past(rank, past.top_pairs, past.deltas)
            self._select_pair(picked)
        self.now_button.setVisible(True)
        self._show_title()
        self._show_explanation(self._explain_past(rank, past))

    def _back_to_now(self) -> None:
        """The Back to now button: no merge selected any more, in every view (the story tells the latest
        merge again, as after a step), and the counts now here."""
        self.show_now()
        self.controller.clear_selection()

    def show_now(self) -> None:
        """Back to the counts now."""
        if self.shown_rank is None:
            return
        picked = self.selected_pair()
        self.shown_rank = None
        self.now_button.setVisible(False)
        if self.model.show_live():
            self._select_pair(picked)
            self._show_title()
            self._show_explanation(self._explain(self.controller.top_pairs(100)))
        else:
            self.refresh(None)

    def refresh(self, deltas=None, reset: bool = False) -> None:
        c = self.controller
        if self.shown_rank is not None:  # the merges changed (a step, an undo, a run): the table now
            self.shown_rank = None
            self.now_button.setVisible(False)
            self._show_title()
        pairs = c.top_pairs(100)
        picked = self.selected_pair()
        self.model.set_pairs(pairs, deltas, reset_history=reset)
        self._select_pair(picked)
        if self.filter_text():
            self._show_title()
        self._show_explanation(self._explain(pairs))

    def _show_explanation(self, text: str) -> None:
        self._fit_next_box(text)
        self.next_label.setText(text)
        self.next_label.setToolTip(text)  # the whole explanation when the box is too small

    def _fit_next_box(self, text: str) -> None:
        """Four lines of Chinese, Japanese or Korean tokens are taller than four Latin ones (their
        glyphs come from a fallback font): the box grows for them, and only for them (the "Last merge"
        line was cut in half under "Next merge: 。 + 日本語のテキスト → …")."""
        latin, wide = self._next_heights
        if has_wide_glyphs(text):
            if not wide:
                wide = max(latin, wide_lines_height(self.next_label, 4))
                self._next_heights = (latin, wide)
            self._next_box.set_height(wide)
        else:
            self._next_box.set_height(latin)

    def _source_row(self, index) -> int:
        shown = self.table.model()
        return shown.mapToSource(index).row() if shown is self.proxy else index.row()

    def selected_pair(self) -> tuple[bytes, bytes] | None:
        """The pair of the row the user selected (None when no row is)."""
        selection = self.table.selectionModel()
        rows = selection.selectedRows() if selection is not None else []
        if not rows:
            return None
        row = self._source_row(rows[0])
        return self.model.rows[row][0] if 0 <= row < len(self.model.rows) else None

    def _select_pair(self, pair) -> None:
        """Keep the selection on ``pair`` where it now stands (the rows move at every step: the
        selection stayed on the row number, on another pair), or none when it left the table."""
        selection = self.table.selectionModel()
        if pair is None or selection is None:
            return
        row = next((i for i, r in enumerate(self.model.rows) if r[0] == pair), None)
        index = self.model.index(row, 0) if row is not None else QModelIndex()
        if index.isValid() and self.table.model() is self.proxy:
            index = self.proxy.mapFromSource(index)
        if not index.isValid():
            selection.clearSelection()
            selection.setCurrentIndex(QModelIndex(), QItemSelectionModel.SelectionFlag.NoUpdate)
            return
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        selection.select(index, flags)
        selection.setCurrentIndex(index, QItemSelectionModel.SelectionFlag.NoUpdate)

    def _explain_past(self, rank: int, past) -> str:
        """What the table before merge ``rank`` shows, or why it is empty."""
        c = self.controller
        number = f"{rank + 1:,}"
        if past is None:
            if not c.has_trainer:
                why = self.tr(
                    "this tokenizer was opened without the word counts of its corpus, and only "
                    "training keeps the history of pair counts"
                )
            elif c.record(rank) is None:
                why = self.tr(
                    "it is a merge of the base tokenizer, made elsewhere: only the merges trained "
                    "here have their counts"
                )
            else:
                why = self.tr("this training kept no history of pair counts")
            return self.tr("<b>The pair counts before merge #{0} are not known:</b> {1}.").format(number, why)
        if not past.top_pairs:
            return self.tr("<b>No pair was left before merge #{0}.</b>").format(number)
        (a, b), count = past.top_pairs[0]
        ties = past.n_best - 1
        if ties == 0:
            why = self.tr("the most frequent pair")
        else:
            rule = (
                self.tr("the lexicographically greatest (bytes, bytes) pair wins")
                if c.tie_break == "lexicographic"
                else self.tr("the pair seen first in the corpus wins")
            )
            others = self.tr("other pair") if ties == 1 else self.tr("other pairs")
            why = self.tr("tied with {0}{1} {2} at this count; {3}").format(f"{ties:,}", "", others, rule)
        return self.tr(
            "Merge #{0} took the top pair: <code>{1}</code> + <code>{2}</code> → <code>{3}</code> ({4}×) — {5}."
            "<br><span style='color:#667'>Δ: what merge #{0} changed in each count.</span>"
        ).format(
            number, _html(token_label(a)), _html(token_label(b)), _html(token_label(a + b)), f"{count:,}", why
        )

    def _explain(self, pairs: list) -> str:
        c = self.controller
        if c.busy in ("train", "step"):
            return self.tr("<i>Training … the table follows the run.</i>")
        if not c.has_trainer:
            return (
                self.tr("<i>No corpus is open. Open a corpus (File → Open corpus…) to see pair counts.</i>")
                # (an imported tiktoken file has no merges yet when shown: they are rebuilt after)
                if not c.index.n_merges and c.model.imported is None
                else self.tr("<i>Imported tokenizer: no corpus, so no pair counts.</i>")
            )
        if not pairs:
            return self.tr("<b>No pair left to merge.</b> Every pre-token is a single token.")
        (a, b), count = pairs[0]
        exact = c.n_pairs_with_count(count)
        ties = exact - 1 if exact else sum(1 for _, n in pairs[1:] if n == count)
        if ties == 0:
            why = self.tr("the most frequent pair")
        else:
            more = "" if exact else "+" if ties == len(pairs) - 1 and len(pairs) >= 100 else ""
            rule = (
                self.tr("the lexicographically greatest (bytes, bytes) pair wins")
                if c.tie_break == "lexicographic"
                else self.tr("the pair seen first in the corpus wins")
            )
            others = self.tr("other pair") if ties == 1 and not more else self.tr("other pairs")
            why = self.tr("tied with {0}{1} {2} at this count; {3}").format(f"{ties:,}", more, others, rule)
        text = self.tr(
            "Next merge: <code>{0}</code> + <code>{1}</code> → <code>{2}</code> ({3}×) — {4}."
        ).format(_html(token_label(a)), _html(token_label(b)), _html(token_label(a + b)), f"{count:,}", why)
        last = c.record(c.index.n_merges - 1)
        if last is not None:
            how = (
                self.tr("won a tie of {0} pairs at {1}").format(f"{last.n_ties + 1:,}", f"{last.count:,}")
                if last.n_ties
                else self.tr("most frequent ({0}×)").format(f"{last.count:,}")
            )
            text += self.tr("<br><span style='color:#667'>Last merge: <code>{0}</code> — {1}</span>").format(
                _html(token_label(last.token)), how
            )
        return text


def _html(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
