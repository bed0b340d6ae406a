"""Dead and odd tokens (Evaluate → Dead and odd tokens…): the lists of :mod:`core.evaluation.inspect` for
the tokenizer in the app (the one being trained, at its current step, or an imported one).

The inspection runs in a worker thread with progress and Cancel; each list is a tab of a table
(id, token, bytes, length). With text files added, the *Never used* tab lists the tokens none of
them uses and the summary gives each file's count of unused tokens.
"""

from __future__ import annotations

from pathlib import Path
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
from bpe_gui.model.formatting import hex_bytes, token_label

if TYPE_CHECKING:
    from core.evaluation.inspect import InspectResult

ROWS_SHOWN = 5000  # rows per list (the count in the tab's title is the whole list's)


class InspectJob(worker.Job):
    """Inspect a tokenizer (built here from plain data when the app has not built it yet)."""

    kind = "inspect"

    def __init__(self, tokenizer, args: tuple | None, files: list[str]) -> None:
        super().__init__()
        self.tokenizer, self.args, self.files = tokenizer, args, files

    def work(self) -> None:
        from core.evaluation.inspect import inspect_tokenizer

        tok = worker.tokenizer_from(self.tokenizer, self.args)
        self.result.value = (inspect_tokenizer(tok, self.files, progress=self.report), tok)


class InspectDialog(JobDialog):
    finished_inspect = Signal()  # an inspection ended (done, cancelled or failed)

    def __init__(self, controller, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("inspectDialog")
        self.setWindowTitle(self.tr("Dead and odd tokens"))
        self.controller = controller
        self.files: list[str] = []
        self.report: InspectResult | None = None
        self.tokenizer = None
        lay = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "Tokens no text reaches, tokens no merges build, tokens that are not whole characters, "
                "special tokens and the longest ones, for the tokenizer in the app. Add text files to "
                "find the tokens they never use."
            )
        )
        intro.setWordWrap(True)
        lay.addWidget(intro)
        row = QHBoxLayout()
        self.run_button = QPushButton(self.tr("Inspect"))
        self.run_button.clicked.connect(self.run)
        self.add_button = QPushButton(self.tr("Add text file…"))
        self.add_button.clicked.connect(self._add_dialog)
        for b in (self.run_button, self.add_button, self.cancel_button):
            row.addWidget(b)
        row.addStretch(1)
        lay.addLayout(row)
        self.files_label = QLabel(self.tr("No text files: the Never used list is empty."))
        self.files_label.setWordWrap(True)
        lay.addWidget(self.files_label)
        self.add_job_widgets(lay)
        self.tabs = QTabWidget()
        # every list's tab in sight (no scroll arrows hiding Longest and Never used): the dialog is
        # as wide as its tabs need, which a 1280×720 screen holds in both languages
        self.tabs.tabBar().setUsesScrollButtons(False)
        self.tabs.tabBar().setExpanding(False)
        self.tables: dict[str, QTableWidget] = {}
        for key in (
            "unreachable_text",
            "unreachable_merges",
            "partial_utf8",
            "specials",
            "longest",
            "never_used",
            "added",  # (last: the other tabs keep their places; shown only when there are some)
        ):
            t = QTableWidget(0, 4)
            t.setHorizontalHeaderLabels(
                [self.tr("Id"), self.tr("Token"), self.tr("Bytes"), self.tr("Length")]
            )
            t.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
            t.verticalHeader().hide()
            t.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
            self.tables[key] = t
            self.tabs.addTab(t, "")
        lay.addWidget(self.tabs, 1)
        self._retitle()
        self.resize(max(720, self.minimumSizeHint().width()), 520)

    def _titles(self) -> dict[str, str]:
        return {
            "unreachable_text": self.tr("Unreachable from text ({n})"),
            "unreachable_merges": self.tr("Unreachable by merges ({n})"),
            "partial_utf8": self.tr("Partial UTF-8 ({n})"),
            "specials": self.tr("Special ({n})"),
            "longest": self.tr("Longest ({n})"),
            "never_used": self.tr("Never used ({n})"),
            "added": self.tr("Added, not special ({n})"),
        }

    def _retitle(self) -> None:
        r = self.report
        for k, (key, title) in enumerate(self._titles().items()):
            ids = getattr(r, key, None) if r is not None else None
            self.tabs.setTabText(k, title.format(n=f"{len(ids):,}" if ids is not None else "–"))
            if key == "added":  # (only a tokenizer.json with "special": false added tokens has them)
                self.tabs.setTabVisible(k, bool(ids))

    # ------------------------------------------------------------------ files
    def _add_dialog(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, self.tr("Add text files"))
        for p in paths:
            self.add_file(p)

    def add_file(self, path: str) -> None:
        if path not in self.files:
            self.files.append(path)
        self.files_label.setText(
            self.tr("Text files: {names}").format(names=", ".join(Path(p).name for p in self.files))
        )

    # ------------------------------------------------------------------ running
    def run(self) -> bool:
        """Inspect the app's tokenizer now (False when one is running or there is none)."""
        c = self.controller
        if self.running or c.busy:
            return False
        tok = c.cached_tokenizer()
        args = None if tok is not None else c.tokenizer_args()[1:]
        self.run_button.setEnabled(False)
        self.start_job(InspectJob(tok, args, list(self.files)), self.tr("Inspecting…"))
        return True

    def job_done(self, value) -> None:
        self.report, self.tokenizer = value
        self._show()

    def job_ended(self) -> None:
        self.run_button.setEnabled(True)
        self.finished_inspect.emit()

    def _show(self) -> None:
        r, tok = self.report, self.tokenizer
        assert r is not None and tok is not None
        text = self.tr(
            "{vocab} tokens: {text} unreachable from their text, {merges} unreachable by merges, "
            "{partial} partial UTF-8, {special} special; the longest has {longest} bytes."
        ).format(
            vocab=f"{r.vocab_size:,}",
            text=f"{len(r.unreachable_text):,}",
            merges=f"{len(r.unreachable_merges):,}",
            partial=f"{len(r.partial_utf8):,}",
            special=f"{len(r.specials):,}",
            longest=f"{r.longest_bytes:,}",
        )
        if r.added:
            text += "\n" + self.tr("Also {added} added tokens that are not special.").format(
                added=f"{len(r.added):,}"
            )
        for f in r.files:
            text += "\n" + self.tr("{name}: {tokens} tokens, {unused} tokens never used").format(
                name=f.name, tokens=f"{f.n_tokens:,}", unused=f"{f.never_used:,}"
            )
        self.summary.setText(text)
        for key, table in self.tables.items():
            ids = getattr(r, key) or []
            table.setRowCount(min(len(ids), ROWS_SHOWN))
            for row, i in enumerate(ids[:ROWS_SHOWN]):
                b = tok.vocab[i]
                for col, value in enumerate((str(i), token_label(b), hex_bytes(b), str(len(b)))):
                    item = QTableWidgetItem(value)
                    if col in (0, 3):
                        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                    table.setItem(row, col, item)
            for col in (0, 2, 3):
                table.resizeColumnToContents(col)
        self._retitle()


def open_inspect(window) -> InspectDialog:
    """Show the window's Dead and odd tokens dialog (made on first use)."""
    return InspectDialog.show_for(window)
