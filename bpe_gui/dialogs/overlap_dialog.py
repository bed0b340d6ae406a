"""File → Vocabulary overlap…: the tokenizer in the app beside the one loaded with File → Compare
with tokenizer… (:mod:`core.evaluation.compare`): tokens shared by bytes and tokens only in each (counts and
browsable lists), the first merge where the merge lists part, and with text files the token count
of each file with each tokenizer. The comparison runs in a worker thread with progress and Cancel.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
)

from bpe_gui.dialogs.job_dialog import JobDialog
from bpe_gui.jobs import worker
from bpe_gui.model.formatting import hex_bytes, token_label, token_tip_html

if TYPE_CHECKING:
    from core.evaluation.compare import Comparison

ROWS_SHOWN = 5000


class CompareJob(worker.Job):
    kind = "compare"

    def __init__(self, a, args: tuple | None, b, files: list[str]) -> None:
        super().__init__()
        self.a, self.args, self.b, self.files = a, args, b, files

    def work(self) -> None:
        from core.evaluation.compare import compare_tokenizers

        a = worker.tokenizer_from(self.a, self.args)
        self.result.value = (compare_tokenizers(a, self.b, self.files, progress=self.report), a)


def _pair_text(pair) -> str:
    return "–" if pair is None else f"{token_label(pair[0])} + {token_label(pair[1])}"


class CompareDialog(JobDialog):
    finished_compare = Signal()

    def __init__(self, controller, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("compareDialog")
        self.setWindowTitle(self.tr("Vocabulary overlap"))
        self.controller = controller
        self.other: tuple | None = None  # (Tokenizer, name) to compare with
        self.files: list[str] = []
        self.report: Comparison | None = None
        self.mine = None
        lay = QVBoxLayout(self)
        self.names = QLabel()
        self.names.setWordWrap(True)
        lay.addWidget(self.names)
        row = QHBoxLayout()
        self.run_button = QPushButton(self.tr("Compare"))
        self.run_button.clicked.connect(self.run)
        self.add_button = QPushButton(self.tr("Add text file…"))
        self.add_button.clicked.connect(self._add_dialog)
        for b in (self.run_button, self.add_button, self.cancel_button):
            row.addWidget(b)
        row.addStretch(1)
        lay.addLayout(row)
        self.add_job_widgets(lay)
        self.tabs = QTabWidget()
        self.tables: dict[str, QTableWidget] = {}
        for key in ("only_a", "only_b", "shared"):
            t = QTableWidget(0, 4)
            t.setHorizontalHeaderLabels(
                [self.tr("Id"), self.tr("Token"), self.tr("Bytes"), self.tr("Id there")]
            )
            t.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
            t.verticalHeader().hide()
            t.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
            self.tables[key] = t
            self.tabs.addTab(t, "")
        self.files_table = QTableWidget(0, 4)
        self.files_table.setHorizontalHeaderLabels(
            [self.tr("Text"), self.tr("Bytes"), self.tr("Tokens (this app)"), self.tr("Tokens (other)")]
        )
        self.files_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.files_table.verticalHeader().hide()
        self.files_table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in (1, 2, 3):  # (their labels whole: "Tokens (this app)" was cut to "okens (this ap")
            self.files_table.resizeColumnToContents(col)
        self.tabs.addTab(self.files_table, "")
        lay.addWidget(self.tabs, 1)
        self._retitle()
        self.set_other(None, "")
        self.resize(760, 540)
        # a step, an undo, a new corpus or tokenizer: the counts shown were of another vocab
        controller.tokenizer_changed.connect(self.forget)

    def set_other(self, tokenizer, name: str) -> None:
        """The tokenizer to compare with (None: none loaded yet)."""
        if self.report is not None and (self.other is None or tokenizer is not self.other[0]):
            self.forget()  # (the counts were of the tokenizer compared before, under the new name)
        self.other = None if tokenizer is None else (tokenizer, name)
        if tokenizer is None:
            self.names.setText(
                self.tr("Load a tokenizer to compare with first: File → Compare with tokenizer…")
            )
        else:
            self.names.setText(self.tr("This app's tokenizer beside {name}.").format(name=name))
        self.run_button.setEnabled(tokenizer is not None and not self.running)

    def forget(self) -> None:
        """Drop a comparison that no longer holds (this app's tokenizer or the other one changed)."""
        if self.report is None or self.running:
            return
        self.report = self.mine = None
        for table in (*self.tables.values(), self.files_table):
            table.setRowCount(0)
        self.summary.setText(
            self.tr("The tokenizers changed since the last comparison: press Compare again.")
        )
        self.summary.setToolTip("")
        self._retitle()

    def _retitle(self) -> None:
        r = self.report
        counts = {
            "only_a": len(r.only_a) if r else None,
            "only_b": len(r.only_b) if r else None,
            "shared": r.n_shared if r else None,
            "files": len(r.files) if r else None,
        }
        titles = [
            self.tr("Only in this app ({n})"),
            self.tr("Only in the other ({n})"),
            self.tr("Shared ({n})"),
            self.tr("Texts ({n})"),
        ]
        for k, (title, n) in enumerate(zip(titles, counts.values(), strict=True)):
            self.tabs.setTabText(k, title.format(n="–" if n is None else f"{n:,}"))

    def _add_dialog(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, self.tr("Add text files"))
        for p in paths:
            self.add_file(p)

    def add_file(self, path: str) -> None:
        if path not in self.files:
            self.files.append(path)

    def run(self) -> bool:
        c = self.controller
        if self.running or c.busy or self.other is None:
            return False
        tok = c.cached_tokenizer()
        args = None if tok is not None else c.tokenizer_args()[1:]
        self.run_button.setEnabled(False)
        self.start_job(CompareJob(tok, args, self.other[0], list(self.files)), self.tr("Comparing…"))
        return True

    def job_done(self, value) -> None:
        self.report, self.mine = value
        self._show()

    def job_ended(self) -> None:
        self.run_button.setEnabled(self.other is not None)
        self.finished_compare.emit()

    def _show(self) -> None:
        r, a = self.report, self.mine
        assert r is not None and a is not None and self.other is not None
        b = self.other[0]
        text = self.tr(
            "{shared} tokens shared ({same} with the same id), {only_a} only in this app's tokenizer "
            "({vocab_a} tokens), {only_b} only in the other ({vocab_b} tokens)."
        ).format(
            shared=f"{r.n_shared:,}",
            same=f"{r.same_id:,}",
            only_a=f"{len(r.only_a):,}",
            only_b=f"{len(r.only_b):,}",
            vocab_a=f"{r.vocab_a:,}",
            vocab_b=f"{r.vocab_b:,}",
        )
        if r.first_differing_merge is None:
            text += " " + self.tr("The merge lists are equal.")
        else:
            text += " " + self.tr("The merge lists part at merge {n}: here {a}, there {b}.").format(
                n=f"{r.first_differing_merge:,}", a=_pair_text(r.merge_a), b=_pair_text(r.merge_b)
            )
        text += " " + self.tr(
            "Special tokens are compared apart, by their text: {shared} shared, {only_a} only here, "
            "{only_b} only there."
        ).format(
            shared=f"{len(r.specials_shared):,}",
            only_a=f"{len(r.specials_only_a):,}",
            only_b=f"{len(r.specials_only_b):,}",
        )
        if r.added_shared or r.added_only_a or r.added_only_b:  # (OLMo 1's runs of spaces: not special)
            text += " " + self.tr(
                "Added tokens that are not special, by their text: {shared} shared, {only_a} only here, "
                "{only_b} only there."
            ).format(
                shared=f"{len(r.added_shared):,}",
                only_a=f"{len(r.added_only_a):,}",
                only_b=f"{len(r.added_only_b):,}",
            )
        self.summary.setText(text)
        specials = [
            (self.tr("shared"), r.specials_shared),
            (self.tr("only here"), r.specials_only_a),
            (self.tr("only there"), r.specials_only_b),
            # (runs of spaces shown with the space marker: "···")
            (self.tr("added, shared"), [token_label(t.encode()) for t in r.added_shared]),
            (self.tr("added, only here"), [token_label(t.encode()) for t in r.added_only_a]),
            (self.tr("added, only there"), [token_label(t.encode()) for t in r.added_only_b]),
        ]
        self.summary.setToolTip(
            "\n".join(f"{label}: {', '.join(names)}" for label, names in specials if names)
        )
        rows = {
            "only_a": [(i, a.vocab[i], None) for i in r.only_a],
            "only_b": [(i, b.vocab[i], None) for i in r.only_b],
            "shared": [(i, a.vocab[i], j) for i, j in r.shared],
        }
        for key, items in rows.items():
            table = self.tables[key]
            table.setRowCount(min(len(items), ROWS_SHOWN))
            bytes_line = self.tr("bytes: {0}")
            for row, (i, tok, there) in enumerate(items[:ROWS_SHOWN]):
                values = (str(i), token_label(tok), hex_bytes(tok), "" if there is None else str(there))
                for col, value in enumerate(values):
                    item = QTableWidgetItem(value)
                    if col in (1, 2):  # (a long token is cut in its cells, whole in its tooltip)
                        item.setToolTip(token_tip_html(tok, bytes_line))
                    table.setItem(row, col, item)
            for col in (0, 2, 3):
                table.resizeColumnToContents(col)
            # a long token's hex took the width and pushed "Id there" out of sight: the bytes take at
            # most a third of the table, never less than their label
            cap = max(table.horizontalHeader().sectionSizeHint(2), table.viewport().width() // 3)
            table.setColumnWidth(2, min(table.columnWidth(2), cap))
        ft = self.files_table
        ft.setRowCount(len(r.files))
        for row, f in enumerate(r.files):
            for col, value in enumerate((f.name, f"{f.n_bytes:,}", f"{f.tokens_a:,}", f"{f.tokens_b:,}")):
                item = QTableWidgetItem(value)
                if col:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                ft.setItem(row, col, item)
        for col in (1, 2, 3):
            ft.resizeColumnToContents(col)
        self._retitle()


def open_overlap(window) -> CompareDialog:
    """Show the window's Vocabulary overlap dialog (made on first use) with the tokenizer last
    loaded by File → Compare with tokenizer…."""
    dlg = CompareDialog.show_for(window)
    if not dlg.running:
        dlg.set_other(window.tokenize.secondary.tokenizer, window.compared_name)
    return dlg
