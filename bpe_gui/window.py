"""The main window: lays out the views, owns the actions, dialogs, recent files and drag & drop."""
from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from . import resources
from .browser_view import BrowserView
from .controller import Controller
from .corpus_panel import CorpusPanel
from .details_view import DetailsView
from .evaluate_view import EvaluateView
from .export_dialog import ExportDialog
from .files import OPEN_FILTER, is_tokenizer_file
from .pairs_view import PairsView
from .timeline_view import TimelineView
from .tokenize_view import TokenizeView
from .training_panel import TrainingPanel

MAX_RECENT = 8
SETTINGS_ENV = "BPE_EXPLORER_SETTINGS"  # path of an .ini file to use instead of the user's settings


def app_settings() -> QSettings:
    path = os.environ.get(SETTINGS_ENV)
    if path:
        return QSettings(path, QSettings.Format.IniFormat)
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "bpe-explorer", "bpe-explorer")


class MainWindow(QMainWindow):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("BPE Explorer")
        icon = resources.icon_path()
        if icon is not None:
            self.setWindowIcon(QIcon(str(icon)))
        self.settings = app_settings()
        self.controller = c = Controller(self)
        self.last_error: str | None = None
        self._close_pending = False

        self.corpus_panel = CorpusPanel(c)
        self.training_panel = TrainingPanel(c)
        self.details = DetailsView(c)
        self.timeline = TimelineView(c)
        self.tokenize = TokenizeView(c)
        self.pairs = PairsView(c)
        self.browser = BrowserView(c)
        self.evaluate = EvaluateView(c)
        self.evaluate.unused_ready.connect(self.browser.lists.set_unused)
        self._layout()
        self._actions()
        self._restore_settings()

        c.error.connect(self.show_error)
        c.message.connect(lambda m: self.statusBar().showMessage(m, 15000))
        c.busy_changed.connect(self._busy_changed)
        c.merges_reset.connect(self._update_actions)
        c.merges_reset.connect(self._update_title)
        c.corpus_loaded.connect(self._corpus_loaded)
        self.setAcceptDrops(True)
        self._update_actions()
        self.resize(1400, 900)

    # ------------------------------------------------------------------ layout
    def _layout(self) -> None:
        left = QWidget()
        pl = QVBoxLayout(left)
        pl.setContentsMargins(6, 0, 0, 0)
        pl.setSpacing(2)
        pl.addWidget(self.corpus_panel)
        pl.addWidget(self.training_panel)
        pl.addWidget(self.details, 1)
        middle = QSplitter(Qt.Orientation.Vertical)
        middle.addWidget(self.timeline)
        middle.addWidget(self.tokenize)
        middle.setSizes([420, 460])
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.pairs)
        right.addWidget(self.browser)
        right.setSizes([430, 450])
        main = QSplitter(Qt.Orientation.Horizontal)
        main.addWidget(left)
        main.addWidget(middle)
        main.addWidget(right)
        main.setSizes([330, 640, 430])
        main.setStretchFactor(1, 1)
        main.setObjectName("central")
        self.splitter = main
        self.setCentralWidget(main)
        self.evaluate_dock = QDockWidget(self.tr("Evaluate"), self)
        self.evaluate_dock.setObjectName("evaluate")
        self.evaluate_dock.setWidget(self.evaluate)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.evaluate_dock)
        self.evaluate_dock.hide()
        self.vocab_status = QLabel()
        self.vocab_status.setMinimumWidth(220)
        self.statusBar().addPermanentWidget(self.vocab_status)

    def _action(self, text: str, slot, shortcuts=(), menu: QMenu | None = None, tip: str = "") -> QAction:
        a = QAction(text, self)
        a.setShortcuts([QKeySequence(s) for s in shortcuts])
        a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        if tip:
            a.setStatusTip(tip)
        a.triggered.connect(slot)
        self.addAction(a)
        if menu is not None:
            menu.addAction(a)
        return a

    def _actions(self) -> None:
        c = self.controller
        tp = self.training_panel
        mb = self.menuBar()
        file_menu = mb.addMenu("&File")
        self.act_open = self._action("&Open corpus…", self.open_corpus_dialog, ["Ctrl+O"], file_menu)
        self.recent_menu = file_menu.addMenu("Open &recent")
        self.act_import = self._action("&Import tokenizer…", self.import_dialog, ["Ctrl+I"], file_menu,
                                       "Explore a tokenizer trained elsewhere (GPT-2, tokenizer.json, tiktoken, native)")
        self.act_export = self._action("&Export…", self.export_dialog, ["Ctrl+E"], file_menu)
        self.act_compare = self._action("&Compare with tokenizer…", self.compare_dialog, [], file_menu)
        file_menu.addSeparator()
        self._action("&Quit", self.close, ["Ctrl+Q"], file_menu)
        train_menu = mb.addMenu("&Train")
        self.act_step = self._action("&Step", lambda: c.step(1), ["Right", "Space"], train_menu)
        self.act_step_n = self._action("Step &N", lambda: c.step(tp.step_n.value()), ["Shift+Right"], train_menu)
        self.act_undo = self._action("&Undo", c.undo, ["Left", "Ctrl+Z"], train_menu)
        self.act_train = self._action("&Train to vocab size", lambda: c.train(tp.vocab_size.value()),
                                      ["Ctrl+T"], train_menu)
        self.act_cancel = self._action("&Cancel", c.cancel, ["Escape"], train_menu)
        act = self.evaluate_dock.toggleViewAction()
        act.setText(self.tr("&Evaluate tokenizers…"))
        act.setShortcut("Ctrl+Shift+E")
        mb.addMenu(self.tr("&Evaluate")).addAction(act)
        help_menu = mb.addMenu("&Help")
        self._action("&About", self._about, [], help_menu)

        self.corpus_panel.open_button.clicked.connect(self.act_open.trigger)
        self.corpus_panel.recent_button.setMenu(self.recent_menu)
        tp.step_button.clicked.connect(self.act_step.trigger)
        tp.step_n_button.clicked.connect(self.act_step_n.trigger)
        tp.undo_button.clicked.connect(self.act_undo.trigger)
        tp.train_button.clicked.connect(self.act_train.trigger)
        tp.cancel_button.clicked.connect(self.act_cancel.trigger)
        self.tokenize.compare_button.clicked.connect(self.act_compare.trigger)
        for sig in (c.merges_appended, c.merges_removed):
            sig.connect(lambda _n: self._update_status())

    # ------------------------------------------------------------------ state
    def _update_actions(self) -> None:
        c = self.controller
        busy = bool(c.busy)
        can_train = c.has_trainer and not busy
        for a in (self.act_step, self.act_step_n, self.act_undo, self.act_train):
            a.setEnabled(can_train)
        for a in (self.act_open, self.act_import, self.act_compare):
            a.setEnabled(not busy)
        self.recent_menu.setEnabled(not busy)
        self.act_export.setEnabled(not busy and (c.has_trainer or bool(c.index.n_merges)))
        self.act_cancel.setEnabled(busy)
        tp = self.training_panel
        for b, a in ((tp.step_button, self.act_step), (tp.step_n_button, self.act_step_n),
                     (tp.undo_button, self.act_undo), (tp.train_button, self.act_train),
                     (tp.cancel_button, self.act_cancel), (self.corpus_panel.open_button, self.act_open),
                     (self.tokenize.compare_button, self.act_compare)):
            b.setEnabled(a.isEnabled())
        self.corpus_panel.recent_button.setEnabled(not busy)
        for w in (tp.vocab_size, tp.specials, tp.pattern, tp.custom, tp.tie, tp.step_n):
            w.setEnabled(not busy)
        self._update_status()

    def _update_status(self) -> None:
        ix = self.controller.index
        self.vocab_status.setText(f"vocab {len(ix):,} · {ix.n_merges:,} merges ")

    def _update_title(self) -> None:
        name = self.controller.source_name
        self.setWindowTitle(f"BPE Explorer — {name}" if name else "BPE Explorer")

    def _busy_changed(self, busy: str) -> None:
        self._update_actions()
        if not busy and self._close_pending:
            QTimer.singleShot(0, self.close)

    def _corpus_loaded(self, _stats) -> None:
        path = self.controller.corpus_path
        if path:
            self.add_recent(path)

    # ------------------------------------------------------------------ dialogs
    def show_error(self, message: str) -> None:
        """Show a core error in a (non-blocking, window-modal) dialog; the state is unchanged."""
        self.last_error = message
        box = QMessageBox(QMessageBox.Icon.Warning, "BPE Explorer", message, QMessageBox.StandardButton.Ok, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    def open_corpus_dialog(self) -> None:
        start = str(Path(self.controller.corpus_path).parent) if self.controller.corpus_path else ""
        path, _ = QFileDialog.getOpenFileName(self, "Open corpus", start, "Text files (*.txt);;All files (*)")
        if path:
            self.controller.load_corpus(path)

    def import_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Import tokenizer", "", OPEN_FILTER)
        if path:
            self.controller.import_tokenizer(path)

    def compare_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Compare with tokenizer", "", OPEN_FILTER)
        if path:
            self.compare_with(path)

    def compare_with(self, path) -> bool:
        loaded = self.controller.load_comparison(path)
        if loaded is None:
            return False
        self.tokenize.set_comparison(*loaded)
        return True

    def export_dialog(self) -> None:
        folder = self.settings.value("export_folder", str(Path.home() / "bpe-export"))
        dlg = ExportDialog(str(folder), self)
        if dlg.exec():
            folder = str(dlg.chosen_folder())
            if self.controller.export(folder, dlg.formats()) is not None:
                self.settings.setValue("export_folder", folder)

    def _about(self) -> None:
        QMessageBox.about(self, "About BPE Explorer",
                          "<b>BPE Explorer</b><br>Train, step through, visualise and export byte-level BPE "
                          "tokenizers.<br><br>Step: → or Space · Undo: ← or Ctrl+Z · Train: Ctrl+T · Cancel: Esc")

    # ------------------------------------------------------------------ recent files and settings
    def recent_files(self) -> list[str]:
        value = self.settings.value("recent", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or [])]

    def add_recent(self, path: str) -> None:
        path = str(Path(path).resolve())
        sample = resources.sample_corpus()
        if sample is not None and Path(path) == sample.resolve():
            return
        items = [path] + [p for p in self.recent_files() if p != path]
        self.settings.setValue("recent", items[:MAX_RECENT])
        self._fill_recent()

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        items = self.recent_files()
        sample = resources.sample_corpus()
        if sample is not None:
            a = self.recent_menu.addAction("Sample corpus (bundled)")
            a.triggered.connect(lambda: self.controller.load_corpus(str(sample)))
            if items:
                self.recent_menu.addSeparator()
        for p in items:
            a = self.recent_menu.addAction(p)
            a.triggered.connect(lambda _checked=False, p=p: self.controller.load_corpus(p))
        if not items and sample is None:
            self.recent_menu.addAction("(none)").setEnabled(False)

    def _restore_settings(self) -> None:
        tp = self.training_panel
        try:
            tp.vocab_size.setValue(int(self.settings.value("vocab_size", tp.vocab_size.value())))
            tp.step_n.setValue(int(self.settings.value("step_n", tp.step_n.value())))
        except (TypeError, ValueError):
            pass
        self._fill_recent()

    def _save_settings(self) -> None:
        tp = self.training_panel
        self.settings.setValue("vocab_size", tp.vocab_size.value())
        self.settings.setValue("step_n", tp.step_n.value())
        self.settings.sync()

    # ------------------------------------------------------------------ drag & drop, closing
    def dragEnterEvent(self, event) -> None:  # noqa: N802 - Qt override
        if any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if not paths:
            return
        event.acceptProposedAction()
        self.open_path(paths[0])

    def open_path(self, path: str) -> None:
        """Open a dropped path: a tokenizer file is imported, anything else is read as a corpus."""
        if is_tokenizer_file(path):
            self.controller.import_tokenizer(path)
        else:
            self.controller.load_corpus(path)

    def closeEvent(self, event) -> None:  # noqa: N802
        """Closing during a task asks the worker to stop and closes once it has finished."""
        self._save_settings()
        if self.controller.busy:
            self._close_pending = True
            self.controller.cancel()
            self.statusBar().showMessage("Stopping the background task before closing …")
            event.ignore()
            return
        self.tokenize.shutdown()
        self.evaluate.shutdown()
        self.controller.shutdown()  # gives its engine process back
        event.accept()
