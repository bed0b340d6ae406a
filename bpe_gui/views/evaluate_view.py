"""Evaluate view: compare tokenizers on texts (compression, documents, vocab use, longest tokens, speed).

Tokenizers are the one being trained (at its current step), imported files and known encodings;
texts are files or documents sampled from them. The evaluation runs in a worker thread with
progress and Cancel; results show as a table, bar charts (bytes/token per tokenizer × text, tokens
per document) and the longest tokens with their merge tree. While stepping, a small figure shows
the current tokenizer's compression on a held-out text (throttled).
"""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt, QThread, QTimer, Signal
from PySide6.QtGui import QColor, QPainter, QPixmap
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from bpe_gui.jobs import worker
from bpe_gui.jobs.evaluate import EvalJob, HeldOutJob, ResultsModel, TextSource, TokSource
from bpe_gui.model.formatting import hex_html, token_label
from bpe_gui.views.evaluate_charts import CountAxis, draw_charts, legend_html, merge_tree
from bpe_gui.views.wheel_guard import guard_wheel

HELD_OUT_MS = 400  # at most one held-out measurement this often while stepping
HELD_OUT_CHARS = 20_000
MIN_HEIGHT = 100  # the panel's least height: below its layout's minimum it scrolls


def tokenizer_problem(src: TokSource) -> str | None:
    """Why ``src`` cannot be evaluated, in the app's language (None: it can). Cheap: a known encoding's
    local copy is looked for, a file's kind is told from its first bytes; neither is loaded."""
    from bpe_gui.text.errors import error_text
    from core.errors import BPEError
    from core.evaluation.known_encodings import KNOWN, resolve_known
    from core.formats import detect_format

    try:
        if src.kind == "known":
            resolve_known(src.value)
        elif src.kind == "path":
            detect_format(src.value)
    except BPEError as e:
        if src.kind == "known" and e.code == "encoding_offline":
            enc = KNOWN[src.value]
            return (
                QCoreApplication.translate(
                    "EvaluateView",
                    "{name} is not available offline: tiktoken's cache has no copy of it. Download "
                    "{url} and add that file with “Add file…”.",
                )
                .replace("{name}", src.value)
                .replace("{url}", enc.url)
            )
        return error_text(e)
    return None


def text_problem(path: str) -> str | None:
    """Why the file at ``path`` cannot be a text to evaluate on (in the app's language), or None."""
    from bpe_gui.text.errors import error_text
    from core.errors import BPEError
    from core.pretokenization.pretokenize import sniff_encoding

    try:
        with open(path, "rb") as f:
            head = f.read(65536)
    except OSError as e:
        return QCoreApplication.translate("EvaluateView", "Cannot read {name}: {reason}").format(
            name=Path(path).name, reason=e.strerror or str(e)
        )
    try:
        sniff_encoding(head, Path(path).name)
    except BPEError as e:
        return error_text(e)
    return None


class EvaluateView(QWidget):
    finished = Signal()  # an evaluation ended (done, cancelled or failed)
    error = Signal(str)  # why an evaluation failed (the window shows it in a dialog)
    held_out_updated = Signal()
    unused_ready = Signal(str, object, object)  # text, vocab, counts: of the tokenizer being trained
    progress = Signal(str, int, int)  # relayed from the job: phase ("load", "evaluate"), done, total

    def __init__(self, controller, parent=None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.toks: list[TokSource] = []
        #: the tokenizers and texts of the run whose outcome (Done, Failed …) the bar shows
        self._ran_on: tuple | None = None
        self.texts: list[TextSource] = []
        self.results: list = []
        self.tokenizers: dict = {}
        self.last_error: str | None = None
        self.held_out: list[tuple[int, float]] = []
        self.held_out_text: str | None = None
        self._job: EvalJob | None = None
        self._thread: QThread | None = None
        self._ho_job: HeldOutJob | None = None
        self._ho_job_run = 0  # the run (see _new_run) the measurement under way belongs to
        self._ho_thread: QThread | None = None
        self._closed = False

        self.tok_list, self.text_list = QListWidget(), QListWidget()
        for lst in (self.tok_list, self.text_list):  # items are removed one by one (or several)
            lst.setSelectionMode(QListWidget.SelectionMode.ExtendedSelection)
        b_cur, b_tok, b_known = (
            QPushButton(self.tr("Add current")),
            QPushButton(self.tr("Add file…")),
            QPushButton(self.tr("Add encoding…")),
        )
        b_cur.setToolTip(self.tr("The tokenizer being trained, at its current step"))
        b_cur.clicked.connect(self.add_current)
        b_tok.clicked.connect(self._add_tok_dialog)
        b_known.clicked.connect(self._add_known_dialog)
        b_text = QPushButton(self.tr("Add text…"))
        b_text.clicked.connect(self._add_text_dialog)
        b_clear = QPushButton(self.tr("Clear"))
        b_clear.clicked.connect(self.clear)
        self.remove_button = QPushButton(self.tr("Remove"))
        self.remove_button.setToolTip(self.tr("Remove the selected tokenizers and texts (Delete)"))
        self.remove_button.clicked.connect(self.remove_selected)
        # why the last entry was not added (checked when it is added, not when the run starts)
        self.notice = QLabel()
        self.notice.setObjectName("notes")
        self.notice.setWordWrap(True)
        self.notice.setVisible(False)
        self.notice.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.sample = QSpinBox()
        self.sample.setRange(0, 1_000_000)
        self.sample.setSpecialValueText(self.tr("whole file"))
        self.sample.setPrefix(self.tr("docs: "))
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setPrefix(self.tr("seed: "))
        self.run_button, self.cancel_button = QPushButton(self.tr("Evaluate")), QPushButton(self.tr("Cancel"))
        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.setEnabled(False)
        self.bar = QProgressBar()
        self.bar.setTextVisible(True)
        self.exports = [QPushButton(t) for t in (self.tr("CSV…"), self.tr("JSON…"), self.tr("Chart PNG…"))]
        for b, slot in zip(self.exports, (self._export_csv, self._export_json, self._export_png)):
            b.clicked.connect(slot)

        self.model = ResultsModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.selectionModel().currentRowChanged.connect(lambda cur, _p: self._show_longest(cur.row()))
        self.bpt_plot = pg.PlotWidget(title=self.tr("Bytes per token"))
        self.doc_plot = pg.PlotWidget(
            title=self.tr("Tokens per document"),
            axisItems={"bottom": CountAxis("bottom"), "left": CountAxis("left")},
        )
        # (units in the title: a vertical axis label is longer than this short plot and was cut)
        self.held_plot = pg.PlotWidget(title=self.tr("Held-out text while training: bytes/token"))
        for p in (self.bpt_plot, self.doc_plot, self.held_plot):
            p.setBackground("w")
            p.showGrid(y=True, alpha=0.3)
        self.bpt_plot.setLabel("left", self.tr("bytes/token"))
        self.doc_plot.setLabel("bottom", self.tr("tokens per document"))
        self.doc_plot.setLabel("left", self.tr("documents"))
        self.held_plot.setLabel("bottom", self.tr("merges"))
        self.held_plot.setMaximumHeight(170)
        self.held_plot.setMinimumHeight(140)  # (shorter, its tick labels overlap)
        self.held_curve = self.held_plot.plot(
            [], [], pen=pg.mkPen("#4c72b0", width=2), symbol="o", symbolSize=4
        )
        self.longest = QListWidget()
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels([self.tr("Merge tree"), self.tr("ID")])
        self.tree.setColumnWidth(0, 300)
        self.longest.currentRowChanged.connect(self._show_tree)

        side = QVBoxLayout()
        side.addWidget(QLabel(self.tr("<b>Tokenizers</b>")))
        side.addWidget(self.tok_list)
        row = QHBoxLayout()
        for b in (b_cur, b_tok, b_known):
            row.addWidget(b)
        side.addLayout(row)
        side.addWidget(QLabel(self.tr("<b>Texts</b>")))
        side.addWidget(self.text_list)
        row = QHBoxLayout()
        for w in (b_text, self.sample, self.seed):
            row.addWidget(w)
        side.addLayout(row)
        row = QHBoxLayout()
        for w in (self.run_button, self.cancel_button, self.remove_button, b_clear):
            row.addWidget(w)
        side.addWidget(self.notice)
        side.addLayout(row)
        side.addWidget(self.bar)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Export:")))
        for b in self.exports:
            row.addWidget(b)
        side.addLayout(row)
        side.addWidget(self.held_plot)
        left = QWidget()
        left.setLayout(side)
        chart_split = QSplitter(Qt.Orientation.Horizontal)
        chart_split.addWidget(self.bpt_plot)
        chart_split.addWidget(self.doc_plot)
        # the tokenizers' colours, above both charts: in the bytes/token chart the legend covered the
        # bars of a short (docked) chart; here it covers nothing, and wraps between names
        self.legend = QLabel()
        self.legend.setObjectName("chartLegend")
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.legend.setWordWrap(True)
        self.legend.setVisible(False)
        charts = QWidget()
        charts_lay = QVBoxLayout(charts)
        charts_lay.setContentsMargins(0, 0, 0, 0)
        charts_lay.setSpacing(0)
        charts_lay.addWidget(self.legend)
        charts_lay.addWidget(chart_split, 1)
        tokens = QSplitter(Qt.Orientation.Horizontal)
        tokens.addWidget(self.longest)
        tokens.addWidget(self.tree)
        self.tabs = QTabWidget()
        self.tabs.addTab(charts, self.tr("Charts"))
        self.tabs.addTab(tokens, self.tr("Longest tokens"))
        # an extension's tokens per text against its base's (shown when one was evaluated)
        self.gain_table = QTableWidget(0, 5)
        self.gain_table.setHorizontalHeaderLabels(
            [
                self.tr("Text"),
                self.tr("Tokens with the base"),
                self.tr("Tokens with the extension"),
                self.tr("Gain (fewer tokens)"),
                self.tr("Extension"),
            ]
        )
        self.gain_table.verticalHeader().hide()
        self.gain_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.gain_table.setToolTip(
            self.tr(
                "How many tokens each text takes with the tokenizer the extension started from and with "
                "the extension: the compression its new merges gained"
            )
        )
        self.gains: list = []
        self.gain_tab = self.tabs.addTab(self.gain_table, self.tr("Extension gain"))
        self.tabs.setTabVisible(self.gain_tab, False)
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.table)
        right.addWidget(self.tabs)
        right.setSizes([200, 400])
        main = QSplitter(Qt.Orientation.Horizontal)
        main.addWidget(left)
        main.addWidget(right)
        main.setSizes([330, 900])
        # in a short dock (a laptop) the panel scrolls instead of growing the window
        body = QWidget()
        body_lay = QVBoxLayout(body)
        body_lay.setContentsMargins(6, 6, 6, 6)
        body_lay.addWidget(main)
        self.body_scroll = QScrollArea()
        self.body_scroll.setWidget(body)
        self.body_scroll.setWidgetResizable(True)
        self.body_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.body_scroll.setMinimumHeight(MIN_HEIGHT)
        guard_wheel(self.body_scroll)  # the wheel scrolls the body, not the setting under the pointer
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.body_scroll)

        self._ho_timer = QTimer(self)
        self._ho_timer.setSingleShot(True)
        self._ho_timer.setInterval(HELD_OUT_MS)
        self._ho_timer.timeout.connect(self.measure_held_out)
        controller.tokenizer_changed.connect(self._ho_timer.start)
        # the chart follows one training run: another corpus or tokenizer starts it again (it drew
        # GPT-2 at 50,000 merges and cl100k at 100,000 as one line)
        self._ho_run = 0
        controller.merges_reset.connect(self._new_run)
        self._update_buttons()

    # ------------------------------------------------------------------ inputs
    def add_current(self) -> None:
        c = self.controller
        args = c.tokenizer_args()
        name = self.tr("{name} @ {n} merges").format(
            name=c.source_name or self.tr("trained"), n=f"{len(args[2]):,}"
        )
        # an extension is measured against its base too (the gain per file)
        base = args[5] if len(args) > 5 else (c.model.imported if c.model.extended_from else None)
        # an opened tokenizer is evaluated as it is (its own pattern and pipeline), not rebuilt from its
        # merges with the training panel's pattern
        self.add_tokenizer(TokSource(name, "current", args[1:], base, c.model.imported))

    def add_tokenizer(self, src: TokSource) -> bool:
        """Add ``src`` once it is checked: a file must be a tokenizer file, a known encoding must have a
        local copy. Otherwise the panel says why (in the user's language) and nothing is added."""
        problem = tokenizer_problem(src)
        self._say(problem)
        if problem is not None:
            return False
        self.toks.append(src)
        self.tok_list.addItem(src.name)
        if src.kind == "path":
            self.tok_list.item(self.tok_list.count() - 1).setToolTip(str(src.value))
        self._update_buttons()
        return True

    def _say(self, problem: str | None) -> None:
        self.notice.setText(problem or "")
        self.notice.setVisible(problem is not None)

    def remove_selected(self) -> None:
        """Remove the selected tokenizers and texts (the others stay)."""
        for widget, items in ((self.tok_list, self.toks), (self.text_list, self.texts)):
            rows = sorted((widget.row(i) for i in widget.selectedItems()), reverse=True)
            for row in rows:
                widget.takeItem(row)
                del items[row]
        self._say(None)
        self._update_buttons()

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and not self.running:
            self.remove_selected()
            return
        super().keyPressEvent(event)

    def add_text(self, path: str, sample: int | None = None, seed: int | None = None) -> bool:
        """Add a text file once it is checked (it must be readable UTF-8 text); False: the panel says why."""
        problem = text_problem(path)
        self._say(problem)
        if problem is not None:
            return False
        t = TextSource(
            str(path),
            self.sample.value() if sample is None else sample,
            self.seed.value() if seed is None else seed,
        )
        self.texts.append(t)
        self.text_list.addItem(t.label)
        if self.held_out_text is None:
            with open(path, "rb") as f:  # the end of the file: least likely to be in a training slice
                f.seek(max(0, Path(path).stat().st_size - HELD_OUT_CHARS))
                self.set_held_out(f.read().decode("utf-8", "surrogateescape"))
        self._update_buttons()
        return True

    def clear(self) -> None:
        self._say(None)
        self.toks.clear()
        self.texts.clear()
        self.tok_list.clear()
        self.text_list.clear()
        self._update_buttons()

    def _add_tok_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Tokenizer to evaluate"))
        if path:
            p = Path(path)
            # (its folder too: "vocab.json" alone did not say which tokenizer; the texts show paths)
            name = f"{p.parent.name}/{p.name}" if p.parent.name else p.name
            self.add_tokenizer(TokSource(name, "path", path))

    def _add_known_dialog(self) -> None:
        from core.evaluation.known_encodings import KNOWN

        name, ok = QInputDialog.getItem(
            self,
            self.tr("Known encoding"),
            self.tr("Encoding (read offline from tiktoken's cache):"),
            list(KNOWN),
            0,
            False,
        )
        if ok and name:
            self.add_tokenizer(TokSource(name, "known", name))

    def _add_text_dialog(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, self.tr("Texts to evaluate on"))
        for p in paths:
            self.add_text(p)

    # ------------------------------------------------------------------ running
    @property
    def running(self) -> bool:
        return self._job is not None

    def _update_buttons(self) -> None:
        self.run_button.setEnabled(not self.running and bool(self.toks) and bool(self.texts))
        self.remove_button.setEnabled(not self.running and bool(self.toks or self.texts))
        self.cancel_button.setEnabled(self.running)
        for b in self.exports:
            b.setEnabled(bool(self.results))
        if not self.running and self._ran_on != self._lists():
            # nothing run on these lists yet: the bar says what is missing (the disabled Evaluate
            # button said nothing) or that Evaluate runs them
            self.bar.setRange(0, 1)
            self.bar.setValue(0)
            self.bar.setFormat(self.idle_hint())

    def _lists(self) -> tuple:
        return tuple(map(id, self.toks)), tuple(map(id, self.texts))

    def idle_hint(self) -> str:
        """What to do next, with no run on the tokenizers and texts listed."""
        if not self.toks and not self.texts:
            return self.tr("Add tokenizers and texts, then press Evaluate")
        if not self.toks:
            return self.tr("Add a tokenizer with one of the three buttons above")
        if not self.texts:
            return self.tr("Add a text to evaluate on: Add text…")
        return self.tr("Press Evaluate to compare them on these texts")

    def run(self, workers: int | None = None) -> None:
        if self.running or not self.toks or not self.texts:
            return
        specials = {s for t in self.toks if t.kind == "current" for s in t.value[2]}
        split = "<|endoftext|>" if not specials or "<|endoftext|>" in specials else sorted(specials)[0]
        job = self._job = EvalJob(list(self.toks), list(self.texts), split, workers)
        job.progress.connect(self._on_progress)
        self.bar.setRange(0, 0)
        self.bar.setFormat(self.tr("Loading tokenizers …"))
        self._thread = worker.start(job, self._finished)
        self._update_buttons()

    def cancel(self) -> None:
        if self._job is not None:
            self._job.cancel()

    def _on_progress(self, phase: str, done: int, total: int) -> None:
        self.progress.emit(phase, done, total)
        if phase == "evaluate" and total:
            self.bar.setRange(0, 1000)
            self.bar.setValue(int(1000 * done / total))
            self.bar.setFormat(self.tr("Encoding … %p%"))

    def _finished(self) -> None:
        job, thread = self._job, self._thread
        if job is None:
            return
        worker.join(thread)
        self._job = self._thread = None
        res = job.result
        self._ran_on = self._lists()
        self.bar.setRange(0, 1)
        self.bar.setValue(0)
        self.last_error = res.error_message
        if res.cancelled:
            self.bar.setFormat(self.tr("Cancelled"))
        elif res.error is not None:
            self.bar.setFormat(self.tr("Failed"))
            self.error.emit(res.error_message)
        elif res.crash is not None:
            self.bar.setFormat(self.tr("Failed"))
            self._update_buttons()
            self.finished.emit()
            worker.report_crash(res.crash)
            return
        else:
            self.bar.setValue(1)
            self.bar.setFormat(self.tr("Done"))
            results, tokenizers, gains = res.value
            self.show_results(results, tokenizers)
            self.show_gains(gains)
        self._update_buttons()
        self.finished.emit()

    def shutdown(self) -> None:
        self._closed = True  # no held-out measurement after the window closed
        self._ho_timer.stop()
        for job, thread in ((self._job, self._thread), (self._ho_job, self._ho_thread)):
            if job is not None and thread is not None:
                job.cancel()
                thread.wait()
        self._finished()
        self._ho_finished()

    # ------------------------------------------------------------------ results
    def show_results(self, results: list, tokenizers: dict) -> None:
        self.results, self.tokenizers = list(results), dict(tokenizers)
        self.model.set_rows(self.results)
        self.table.resizeColumnsToContents()
        self._draw_charts()
        current = {t.name for t in self.toks if t.kind == "current"}
        for r in self.results:
            if r.tokenizer in current:
                self.unused_ready.emit(r.file, dict(self.tokenizers[r.tokenizer].vocab), r.counts)
                break
        if self.results:
            self.table.selectRow(0)
            self._show_longest(0)

    def show_gains(self, gains: list) -> None:
        """Each text's tokens with an extension's base and with the extension, and the gain."""
        self.gains = list(gains)
        t = self.gain_table
        t.setRowCount(len(gains))
        for row, g in enumerate(gains):
            gain = self.tr("{saved} ({share})").format(saved=f"{g.saved:,}", share=f"{g.share:.1%}")
            # (the numbers first: in a narrow panel they are what must show)
            shown = (Path(g.file).name, f"{g.base_tokens:,}", f"{g.tokens:,}", gain, g.tokenizer)
            for col, text in enumerate(shown):
                item = QTableWidgetItem(text)
                if col == 0:
                    item.setToolTip(g.file)
                if 1 <= col <= 3:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                t.setItem(row, col, item)
        t.resizeColumnsToContents()
        self.tabs.setTabVisible(self.gain_tab, bool(gains))
        if gains:
            self.tabs.setCurrentIndex(self.gain_tab)

    def _draw_charts(self) -> None:
        draw_charts(self.bpt_plot, self.doc_plot, self.results)
        names = list(dict.fromkeys(r.tokenizer for r in self.results))
        self.legend.setText(legend_html(names))
        self.legend.setVisible(bool(names))

    def _show_longest(self, row: int) -> None:
        self.longest.clear()
        self.tree.clear()
        if not 0 <= row < len(self.results):
            return
        r = self.results[row]
        for t in r.longest:
            self.longest.addItem(
                self.tr("{n} B · id {id} · used {count:,}× — {text}").format(
                    text=token_label(t.text.encode("utf-8", "surrogateescape")),
                    n=t.n_bytes,
                    id=t.id,
                    count=t.count,
                )
            )
        self._longest_row = row

    def _show_tree(self, index: int) -> None:
        self.tree.clear()
        r = self.results[self._longest_row] if self.results else None
        if r is None or not 0 <= index < len(r.longest):
            return
        tok = self.tokenizers[r.tokenizer]
        t = r.longest[index]

        def add(parent, node) -> None:
            token, children = node
            item = QTreeWidgetItem([token_label(token), str(tok.token_to_id(token))])
            item.setToolTip(0, f"<qt>{hex_html(token)}</qt>")
            if parent is None:
                self.tree.addTopLevelItem(item)
            else:
                parent.addChild(item)
            for child in children:
                add(item, child)

        add(None, merge_tree(tok, tok.vocab[t.id]))
        self.tree.expandAll()

    # ------------------------------------------------------------------ held-out compression
    def set_held_out(self, text: str) -> None:
        self.held_out_text = text
        self.held_out.clear()
        self.held_curve.setData([], [])

    def _new_run(self) -> None:
        self._ho_run += 1
        self.held_out.clear()
        self.held_curve.setData([], [])

    def measure_held_out(self) -> None:
        c = self.controller
        if self.held_out_text is None or c.busy == "train" or self._closed:
            return
        if not c.has_trainer:  # (a tokenizer opened without a corpus is not being trained)
            return
        if self._ho_job is not None:
            self._ho_timer.start()  # one at a time: measure again when this one is over
            return
        args = c.tokenizer_args()
        self._ho_job = HeldOutJob(len(args[2]), args[1:], self.held_out_text)
        self._ho_job_run = self._ho_run
        self._ho_thread = worker.start(self._ho_job, self._ho_finished)

    def _ho_finished(self) -> None:
        job, thread = self._ho_job, self._ho_thread
        if job is None:
            return
        worker.join(thread)
        self._ho_job = self._ho_thread = None
        if job.result.value is not None and self._ho_job_run == self._ho_run:
            n, bpt = job.result.value
            self.held_out = [p for p in self.held_out if p[0] < n] + [(n, bpt)]
            self.held_curve.setData([p[0] for p in self.held_out], [p[1] for p in self.held_out])
            self.held_out_updated.emit()

    # ------------------------------------------------------------------ export
    def _export_csv(self) -> None:
        self._save(self.tr("Export CSV"), "results.csv", "csv")

    def _export_json(self) -> None:
        self._save(self.tr("Export JSON"), "results.json", "json")

    def _export_png(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Export chart"), "bytes_per_token.png", "PNG (*.png)"
        )
        if path:
            self.save_chart(path)

    def _save(self, title: str, default: str, fmt: str) -> None:
        path, _ = QFileDialog.getSaveFileName(self, title, default)
        if path:
            self.export(path, fmt)

    def export(self, path: str, fmt: str) -> None:
        """Write the results as ``csv`` or ``json`` (atomically)."""
        from core.cli.eval import to_csv, to_json
        from core.formats import atomic_write

        atomic_write(path, to_csv(self.results) if fmt == "csv" else to_json(self.results))

    def save_chart(self, path: str) -> bool:
        """The bytes/token chart as a PNG, under its legend (the tokenizers' colours, wrapped to the
        chart's width)."""
        chart = self.bpt_plot.grab()
        if self.legend.isHidden():
            return chart.save(str(path), "PNG")
        label = QLabel()
        label.setObjectName("chartLegend")  # (the look of the one above the charts)
        label.setTextFormat(Qt.TextFormat.RichText)
        label.setWordWrap(True)
        label.setText(self.legend.text())
        label.setFont(self.legend.font())
        label.ensurePolished()  # (its padding counts in its height)
        label.setFixedWidth(chart.width())
        label.setFixedHeight(label.heightForWidth(chart.width()))
        legend = label.grab()
        image = QPixmap(chart.width(), legend.height() + chart.height())
        image.fill(QColor("white"))
        painter = QPainter(image)
        painter.drawPixmap(0, 0, legend)
        painter.drawPixmap(0, legend.height(), chart)
        painter.end()
        return image.save(str(path), "PNG")
