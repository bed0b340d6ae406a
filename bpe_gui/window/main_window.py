"""The main window: lays out the views, owns the actions, dialogs, recent files and drag & drop."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QAction, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QMenu,
    QMessageBox,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from bpe_gui import resources, settings
from bpe_gui.actions.controller import Controller
from bpe_gui.dialogs.audit_dialog import open_audit
from bpe_gui.dialogs.extend_dialog import open_extend
from bpe_gui.dialogs.glossary import show_glossary
from bpe_gui.dialogs.inspect_dialog import open_inspect
from bpe_gui.dialogs.messages import MessageLog, ShortcutsDialog
from bpe_gui.dialogs.overlap_dialog import open_overlap
from bpe_gui.settings import LEFT_BY_USER, Settings
from bpe_gui.text import i18n
from bpe_gui.text.plural import plural
from bpe_gui.views.browser_view import BrowserView
from bpe_gui.views.corpus_panel import CorpusPanel
from bpe_gui.views.details_view import DetailsView
from bpe_gui.views.evaluate_view import EvaluateView
from bpe_gui.views.intro import show_intro
from bpe_gui.views.learn_view import open_learn
from bpe_gui.views.pairs_view import PairsView
from bpe_gui.views.screen_fit import DockFit
from bpe_gui.views.scroll_width import FollowContentWidth
from bpe_gui.views.story_view import StoryView, status_line
from bpe_gui.views.timeline_view import TimelineView
from bpe_gui.views.tokenize_view import TokenizeView
from bpe_gui.views.training_panel import TrainingPanel
from bpe_gui.views.wheel_guard import guard_wheel
from bpe_gui.views.widgets import elide
from bpe_gui.window.files import FilesWindow

DETAILS_MIN_HEIGHT = 110  # the selected merge pane: its tabs, title and a line or two
DETAILS_COMFORT = 200  # … and what the merge did, given up to the Train button on a short screen


class MainWindow(FilesWindow):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("BPE Explorer")
        icon = resources.icon_path()
        if icon is not None:
            self.setWindowIcon(QIcon(str(icon)))
        self.settings = Settings()
        self.controller = c = Controller(self)
        self.last_error: str | None = None
        self._close_pending = False
        self._scrolled_for_task: int | None = None  # the left column's scroll before a task moved it
        self._user_scrolled = False  # the user scrolled the left column since
        # the left column's scroll while no task runs: a task's start can move it before the window
        # hears of the task (the focused field is disabled, the column scrolls to the next one)
        self._idle_scroll = 0

        self.corpus_panel = CorpusPanel(c)
        self.training_panel = TrainingPanel(c)
        self.details = DetailsView(c)
        self.timeline = TimelineView(c)
        self.tokenize = TokenizeView(c)
        self.pairs = PairsView(c)
        self.browser = BrowserView(c)
        self.messages = MessageLog(self)
        c.discard_guard = self.confirm_discard
        self.evaluate = EvaluateView(c)
        self.evaluate.unused_ready.connect(self.browser.lists.set_unused)
        self._layout()
        self._actions()
        self._restore_settings()

        for source in (c, self.training_panel, self.evaluate):
            source.error.connect(self.show_error)
        c.message.connect(self.show_message)
        self.browser.message.connect(self.show_message)
        for view in (self.timeline, self.browser):  # a merge picked in one view is selected in all
            view.merge_chosen.connect(c.select_merge)
        c.session_opened.connect(self._session_opened)
        c.stepped.connect(self._stepped)
        c.trained.connect(lambda summary: self._show_story() if summary.n_merges else None)
        c.busy_changed.connect(self._busy_changed)
        c.merges_reset.connect(self._update_actions)
        c.merges_reset.connect(self._update_title)
        c.corpus_loaded.connect(self._corpus_loaded)
        c.corpus_loaded.connect(lambda _s: self._extension_loaded())
        c.tokenizer_loaded.connect(self._tokenizer_loaded)
        c.tokenizer_loaded.connect(self._restore_notice)
        self.setAcceptDrops(True)
        self._update_actions()
        self.resize(self.fitting_size(1400, 900))
        self._left_fitted = self._restore_layout()  # (a layout the user left is kept as it is)
        # until the user drags the left splitter, it is fitted again when what is on show changes (an
        # import's or an extension's extra lines pushed Train below the fold)
        self._left_by_user = self._left_fitted
        self.splitters["left"].splitterMoved.connect(lambda *_: setattr(self, "_left_by_user", True))
        # the learner reads merges (a step, a merge picked): on a short screen the selected merge and
        # its story get the corpus panel's room (see _fit_left_column); a new corpus or tokenizer
        # shows the panels whole again
        self._reading = False
        self._reading_fitted = False  # (fitted once: then the column stays where the user puts it)
        c.stepped.connect(lambda records: self._start_reading() if records else None)
        c.merge_selected.connect(lambda _rank: self._start_reading())
        c.merges_reset.connect(self._stop_reading)
        c.merges_reset.connect(self._refit_left)
        c.corpus_loaded.connect(lambda _s: self._stop_reading())
        c.corpus_loaded.connect(lambda _s: self._refit_left())  # (the corpus panel's lines change then)
        c.busy_changed.connect(lambda busy: None if busy else self._refit_left())  # (an import's note)
        tp = self.training_panel  # (a note there that wraps to more lines pushes Train down)
        for note in (tp.vocab_hint, tp.memory_hint, tp.pattern_hint, tp.imported_note):
            note.resized.connect(self._refit_left)

    # ------------------------------------------------------------------ layout
    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._left_fitted:
            self._left_fitted = True
            QTimer.singleShot(0, self, self._fit_left_column)

    def _start_reading(self) -> None:
        # (not for an imported tokenizer: its corpus panel holds Continue training, and there is no
        # Step or Train to keep in sight)
        if not self._reading and self.controller.has_trainer:
            self._reading = True
            self._refit_left()

    def _stop_reading(self) -> None:
        """A new corpus or tokenizer: the panels whole again, from the top (the corpus panel)."""
        fitted, self._reading, self._reading_fitted = self._reading_fitted, False, False
        if fitted and not self._left_by_user:
            self.left_scroll.verticalScrollBar().setValue(0)
            if self._scrolled_for_task is not None:  # (a load: back to the top afterwards, not to the story)
                self._scrolled_for_task = 0

    def _refit_left(self) -> None:
        if self._left_fitted and not self._left_by_user:
            QTimer.singleShot(50, self, self._fit_left_column)  # (once the panels are laid out again)

    def _fit_left_column(self) -> None:
        """The corpus and training panels whole if the window is tall enough (Step and Train in sight
        on a 1280×720 laptop), the selected merge in the rest, at least a few lines of it."""
        sp = self.splitters["left"]
        total = sum(sp.sizes())
        panels = self.left_scroll.widget()
        if total <= 0 or panels is None:
            return
        need = panels.sizeHint().height() + 2
        top = min(need, max(total - DETAILS_MIN_HEIGHT, total // 2))
        c = self.controller
        if total - top < DETAILS_COMFORT and c.model.imported is not None and not c.has_trainer:
            # an imported tokenizer: Step and Train are off (Continue training is at the top), so the
            # selected merge and its story get their few lines (they were left one, cut mid-sentence)
            top = min(need, max(total - DETAILS_COMFORT, total // 2))
        elif total - top < DETAILS_COMFORT:
            # a short screen: the panels down to Train (Cancel and the bar scroll into sight when a task
            # runs), the selected merge the rest (it was left a line: its arrow, not what the merge did)
            train = self.training_panel.train_button
            through_train = train.mapTo(panels, QPoint(0, train.height())).y() + 8
            # (the panels' size hint can be short of where Train is: a wrapped note counts fewer lines)
            top = min(max(need, through_train), max(through_train, total - DETAILS_COMFORT))
        if self._reading and self._reading_fitted:
            return  # (fitted for reading once: the sizes and the scroll are the user's since)
        if self._reading and not c.busy:
            reading = self._reading_top(total, top)
            if reading is None:  # (fitted for reading: kept as it is from now on)
                self._reading_fitted = True
                return
            top = reading
        sp.setSizes([top, total - top])

    def _reading_top(self, total: int, top: int) -> int | None:
        """Once the learner reads merges, the story of a merge (~400-500 px in this column) gets the
        room it needs where the layout allows: first the room under Train (Cancel and the progress
        bar come into sight when a task runs), then, on a laptop, the corpus panel's: the column is
        scrolled to the training panel, every button of it still in sight (Step, Undo, Step N, Train
        and the settings above them; the column scrolls back to the corpus panel). Returns the
        panels' height; None where this set the sizes and the scroll itself."""
        tabs = self.info_tabs
        story = self.story.browser
        # what the story needs: its text at the pane's width, with the tabs and frames around it
        around = tabs.height() - story.viewport().height() if tabs.height() > 0 else 60
        need = int(story.document().size().height()) + max(around, 0) + 4
        panels = self.left_scroll.widget()
        if total - top >= need or panels is None:
            return top
        corpus, train = self.corpus_panel, self.training_panel.train_button
        through_train = train.mapTo(panels, QPoint(0, train.height())).y() + 8
        if total - through_train >= need:  # the panels down to Train leave the story its room
            return min(top, max(through_train, total - need))
        skip = corpus.mapTo(panels, QPoint(0, corpus.height())).y()  # the corpus panel's room
        reading_top = max(through_train - skip, total - need, total // 4)
        if reading_top >= top:
            return top
        self.splitters["left"].setSizes([reading_top, total - reading_top])
        bar = self.left_scroll.verticalScrollBar()
        bar.setValue(skip)
        QTimer.singleShot(0, self, lambda: bar.setValue(skip))  # (its range grows once laid out again)
        return None

    def _layout(self) -> None:
        left = QWidget()
        pl = QVBoxLayout(left)
        pl.setContentsMargins(6, 6, 0, 0)  # (the first panel's title clear of the menu bar)
        pl.setSpacing(2)
        pl.addWidget(self.corpus_panel)
        pl.addWidget(self.training_panel)
        pl.addStretch(1)
        # the settings and controls scroll when the window is short; the details get their own pane
        scroll = QScrollArea()
        scroll.setWidget(left)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # as wide as the panels need next to the scroll bar (nothing is cut off on the right), also
        # once a large corpus's numbers widen them
        self._left_width = FollowContentWidth(scroll)
        self.left_scroll = scroll
        guard_wheel(scroll)  # the wheel scrolls the column, not the setting under the pointer
        for sig in (scroll.verticalScrollBar().actionTriggered, scroll.verticalScrollBar().sliderMoved):
            sig.connect(lambda *_: setattr(self, "_user_scrolled", True))
        scroll.verticalScrollBar().valueChanged.connect(
            lambda v: None if self.controller.busy else setattr(self, "_idle_scroll", v)
        )
        left_split = QSplitter(Qt.Orientation.Vertical)
        left_split.addWidget(scroll)
        self.story = StoryView(self.controller)
        self.info_tabs = QTabWidget()
        self.info_tabs.addTab(self.details, self.tr("Selected merge"))
        self.info_tabs.addTab(self.story, self.tr("What happened"))
        left_split.addWidget(self.info_tabs)
        for pane in (self.details, self.story):
            pane.browser.setMinimumHeight(24)
            # the tab names the pane: its own title said it again, a line less of what the merge did
            # (three lines of the story at 1280×720)
            pane.title.setVisible(False)
        left_split.setStretchFactor(0, 1)
        left_split.setStretchFactor(1, 0)
        left_split.setSizes([600, 270])  # (made to fit the window once it is shown: _fit_left_column)
        middle = QSplitter(Qt.Orientation.Vertical)
        middle.addWidget(self.timeline)
        middle.addWidget(self.tokenize)
        middle.setSizes([420, 460])
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.pairs)
        right.addWidget(self.browser)
        right.setSizes([430, 450])
        main = QSplitter(Qt.Orientation.Horizontal)
        main.addWidget(left_split)
        main.addWidget(middle)
        main.addWidget(right)
        main.setSizes([345, 625, 430])
        main.setStretchFactor(1, 1)
        main.setObjectName("central")
        self.splitter = main
        self.splitters = {
            "main": main,
            "left": left_split,
            "middle": middle,
            "right": right,
            "browser": self.browser.splitter,
        }
        for name, sp in self.splitters.items():
            sp.setObjectName(f"{name}Splitter")
            sp.setChildrenCollapsible(False)
        main.setObjectName("central")
        self.setCentralWidget(main)
        self.evaluate_dock = QDockWidget(self.tr("Evaluate"), self)
        self.evaluate_dock.setObjectName("evaluate")
        # (its body scrolls on a small screen instead of squashing the timeline: EvaluateView.body_scroll)
        self.evaluate_dock.setWidget(self.evaluate)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.evaluate_dock)
        self.evaluate_dock.hide()
        self.evaluate_fit = DockFit(self, self.evaluate_dock)  # opens without growing the window
        for signal in (self.evaluate_dock.visibilityChanged, self.evaluate_dock.topLevelChanged):
            signal.connect(self._evaluate_docked_changed)
        self.vocab_status = QLabel()
        self.statusBar().addPermanentWidget(self.vocab_status)

    def _evaluate_docked_changed(self, *_args) -> None:
        """The timeline's plots may be shorter while the Evaluate panel is docked below the views."""
        dock = self.evaluate_dock
        self.timeline.set_compact(dock.isVisible() and not dock.isFloating())

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
        file_menu = mb.addMenu(self.tr("&File"))
        self.act_open = self._action(self.tr("&Open corpus…"), self.open_corpus_dialog, ["Ctrl+O"], file_menu)
        self.recent_menu = file_menu.addMenu(self.tr("Open &recent"))
        self.act_import = self._action(
            self.tr("&Import tokenizer…"),
            self.import_dialog,
            ["Ctrl+I"],
            file_menu,
            self.tr("Explore a tokenizer trained elsewhere (GPT-2, tokenizer.json, tiktoken, native)"),
        )
        self.continue_tip = self.tr(
            "Pick a corpus and learn new merges on top of this tokenizer, step by step: its tokens and ids stay"
        )
        self.act_continue = self._action(
            self.tr("Continue &training from this tokenizer…"),
            self.continue_training_dialog,
            [],
            file_menu,
            self.continue_tip,
        )
        file_menu.setToolTipsVisible(True)  # (a disabled entry's tooltip says why)
        self.act_export = self._action(self.tr("&Export…"), self.export_dialog, ["Ctrl+E"], file_menu)
        self.act_compare = self._action(
            self.tr("&Compare with tokenizer…"), self.compare_dialog, [], file_menu
        )
        self.act_overlap = self._action(
            self.tr("&Vocabulary overlap…"),
            lambda: open_overlap(self),
            [],
            file_menu,
            self.tr("Tokens shared with the compared tokenizer, tokens only in each, where the merges part"),
        )
        self.act_extend = self._action(
            self.tr("E&xtend this tokenizer…"),
            lambda: open_extend(self),
            [],
            file_menu,
            self.tr("Keep every token and id of this tokenizer and learn more merges on a corpus"),
        )
        file_menu.addSeparator()
        self.act_save_session = self._action(
            self.tr("&Save session…"),
            self.save_session_dialog,
            ["Ctrl+S"],
            file_menu,
            self.tr("Save the corpus, settings, merges and text to reopen later"),
        )
        self.act_open_session = self._action(
            self.tr("Open sessio&n…"), self.open_session_dialog, ["Ctrl+Shift+O"], file_menu
        )
        file_menu.addSeparator()
        self._action(self.tr("&Quit"), self.close, ["Ctrl+Q"], file_menu)
        train_menu = mb.addMenu(self.tr("&Train"))
        self.act_step = self._action(self.tr("&Step"), lambda: c.step(1), ["Right", "Space"], train_menu)
        self.act_step_n = self._action(
            self.tr("Step &N"), lambda: c.step(tp.step_n.value()), ["Shift+Right"], train_menu
        )
        self.act_undo = self._action(self.tr("&Undo"), c.undo, ["Left", "Ctrl+Z"], train_menu)
        self.act_train = self._action(
            self.tr("&Train to vocab size"), lambda: c.train(tp.vocab_size.value()), ["Ctrl+T"], train_menu
        )
        self.act_cancel = self._action(self.tr("&Cancel"), c.cancel, ["Escape"], train_menu)
        act = self.evaluate_dock.toggleViewAction()
        act.setText(self.tr("&Evaluate tokenizers…"))
        act.setShortcut("Ctrl+Shift+E")
        eval_menu = mb.addMenu(self.tr("&Evaluate"))
        eval_menu.addAction(act)
        self.act_inspect = self._action(
            self.tr("&Dead and odd tokens…"),
            lambda: open_inspect(self),
            [],
            eval_menu,
            self.tr("Tokens no text reaches, no merges build, partial characters, never used"),
        )
        train_menu.addSeparator()
        self.act_rewind = self._action(
            self.tr("&Rewind to the selected merge"),
            self.rewind_to_selected,
            ["Ctrl+Shift+Z"],
            train_menu,
            self.tr("Undo every merge after the selected one"),
        )
        # (while extending, Reset goes back to the base tokenizer and says so: _update_actions)
        self.reset_text = self.tr("R&eset (0 merges)")
        self.reset_tip = self.tr("Undo all merges; the corpus stays loaded")
        self.act_reset = self._action(self.reset_text, c.reset, ["Ctrl+Shift+R"], train_menu, self.reset_tip)
        self.act_audit = self._action(
            self.tr("&Audit a merge list…"),
            lambda: open_audit(self),
            [],
            train_menu,
            self.tr("Find where a merge list first differs from training on this corpus, and why"),
        )
        view_menu = mb.addMenu(self.tr("&View"))
        self._action(
            self.tr("&Messages"),
            self.messages.show,
            ["Ctrl+M"],
            view_menu,
            self.tr("Every status and error message, in full"),
        )
        self.act_learn = self._action(
            self.tr("&Learn BPE step by step"), lambda: open_learn(self), ["Ctrl+L"], view_menu
        )
        lang_menu = view_menu.addMenu(self.tr("Lan&guage"))
        for code, name in i18n.LANGUAGES.items():
            a = lang_menu.addAction(name)
            a.setCheckable(True)
            a.setChecked(code == i18n.current_language())
            a.triggered.connect(lambda _c=False, code=code: self._set_language(code))
        help_menu = mb.addMenu(self.tr("&Help"))
        self._action(self.tr("&Keyboard shortcuts"), self.show_shortcuts, ["F1"], help_menu)
        self._action(
            self.tr("What is &BPE?"),
            lambda: show_intro(self),
            [],
            help_menu,
            self.tr("What a tokenizer is and how BPE learns, in plain words; then Learn mode"),
        )
        self._action(self.tr("&Glossary"), lambda: show_glossary(self), [], help_menu)
        self._action(self.tr("&About"), self._about, [], help_menu)

        self.corpus_panel.open_button.clicked.connect(self.act_open.trigger)
        self.corpus_panel.continue_button.clicked.connect(self.act_continue.trigger)
        self.corpus_panel.recent_button.setMenu(self.recent_menu)
        tp.step_button.clicked.connect(self.act_step.trigger)
        tp.step_n_button.clicked.connect(self.act_step_n.trigger)
        tp.undo_button.clicked.connect(self.act_undo.trigger)
        tp.train_button.clicked.connect(self.act_train.trigger)
        tp.cancel_button.clicked.connect(self.act_cancel.trigger)
        self.tokenize.compare_button.clicked.connect(self.act_compare.trigger)
        self.tokenize.close_compare.clicked.connect(lambda: setattr(self, "comparison_source", None))
        for sig in (c.merges_appended, c.merges_removed):
            sig.connect(lambda _n: self._update_actions())  # (Undo: is there a merge to take back)
            sig.connect(lambda _n: self._update_status())
            sig.connect(lambda _n: self._update_title())
        tp.vocab_size.valueChanged.connect(lambda _v: self._update_actions())
        c.options_changed.connect(self._update_actions)

    def _extension_loaded(self) -> None:
        """An extension is ready: Train's vocab size above its base's (1,000 more when it was not)."""
        ext = self.controller.model.extension
        tp = self.training_panel
        if ext is not None and tp.vocab_size.value() <= ext.base_vocab_size:
            tp.vocab_size.setValue(ext.base_vocab_size + 1000)
        self._update_title()
        self._update_actions()

    # ------------------------------------------------------------------ state
    def _update_actions(self) -> None:
        c = self.controller
        tp = self.training_panel
        busy = bool(c.busy)
        can_train = c.has_trainer and not busy
        for a in (
            self.act_step,
            self.act_step_n,
            self.act_undo,
            self.act_train,
            self.act_rewind,
            self.act_reset,
        ):
            a.setEnabled(can_train)
        # a vocab size below the 256 bytes + special tokens: Train waits (the panel says why, inline)
        self.act_train.setEnabled(can_train and not tp.vocab_too_small())
        # nothing to take back at 0 merges or at an extension's base: Undo waits for a merge
        self.act_undo.setEnabled(can_train and c.model.trained_merges > 0)
        extending = c.model.extension is not None
        self.act_reset.setText(self.tr("R&eset (to the base tokenizer)") if extending else self.reset_text)
        self.act_reset.setStatusTip(
            self.tr("Undo all new merges: back to the base tokenizer; the corpus stays loaded")
            if extending
            else self.reset_tip
        )
        for a in (
            self.act_open,
            self.act_import,
            self.act_compare,
            self.act_open_session,
            self.act_save_session,
        ):
            a.setEnabled(not busy)
        self.recent_menu.setEnabled(not busy)
        self.act_continue.setEnabled(c.can_continue_training())
        char_level = c.model.extension is None and getattr(c.model.imported, "char_model", None) is not None
        tip = self.continue_tip
        if char_level:  # (disabled: the menu's status tip and tooltip say why)
            tip = self.tr(
                "Not for a SentencePiece-style (character-level) tokenizer: training can continue only "
                "from a byte-level one (GPT-2, tokenizer.json, tiktoken, native bpe.json)"
            )
        self.act_continue.setStatusTip(tip)
        self.act_continue.setToolTip(tip)
        # the button is for the step after an import; while extending, the File menu still has it (the
        # button pushed Train below a laptop's fold)
        extendable = c.model.extension is None and (
            c.model.imported is not None and getattr(c.model.imported, "char_model", None) is None
        )
        self.corpus_panel.continue_button.setVisible(extendable)
        self.corpus_panel.continue_button.setEnabled(self.act_continue.isEnabled())
        self.act_export.setEnabled(not busy and (c.has_trainer or bool(c.index.n_merges)))
        self.act_cancel.setEnabled(busy)
        for b, a in (
            (tp.step_button, self.act_step),
            (tp.step_n_button, self.act_step_n),
            (tp.undo_button, self.act_undo),
            (tp.train_button, self.act_train),
            (tp.cancel_button, self.act_cancel),
            (self.corpus_panel.open_button, self.act_open),
            (self.tokenize.compare_button, self.act_compare),
        ):
            b.setEnabled(a.isEnabled())
        self.corpus_panel.recent_button.setEnabled(not busy)
        for w in (tp.vocab_size, tp.specials, tp.pattern, tp.custom, tp.tie, tp.step_n):
            w.setEnabled(not busy)
        self._update_status()

    def _update_status(self) -> None:
        c = self.controller
        ix = c.index
        n = ix.n_merges
        base = c.model.extended_from
        if base:
            new = n - base
            merges = plural(self.tr("%1 base merges + %n new", "", new), new).replace("%1", f"{base:,}")
        else:
            merges = plural(self.tr("%n merge(s)", "", n), n)
        text = self.tr("vocab %1 · %2 ").replace("%1", f"{len(ix):,}").replace("%2", merges)
        if text != self.vocab_status.text():
            wider = self.vocab_status.fontMetrics().horizontalAdvance(text) > self.vocab_status.width()
            self.vocab_status.setText(text)
            if wider:
                self._refit_bar_message()

    def _update_title(self) -> None:
        c = self.controller
        name = c.source_name
        ext = c.model.extension
        if ext is not None:
            new = c.index.new_merges
            name = (
                plural(self.tr("extension of %1 with %n new merge(s) on %2", "", new), new)
                .replace("%1", ext.name)
                .replace("%2", c.stats.name if c.stats is not None else "")
            )
        self.setWindowTitle(f"BPE Explorer — {name}" if name else "BPE Explorer")

    def _busy_changed(self, busy: str) -> None:
        self._update_actions()
        bar = self.left_scroll.verticalScrollBar()
        if busy and self._scrolled_for_task is None:
            # on a short screen the left column scrolls: bring Cancel and the progress bar into sight
            # while a task runs (in Chinese at 1280×720 they were below the fold) …
            before = self._idle_scroll
            panel = self.training_panel
            self.left_scroll.ensureWidgetVisible(panel.progress, 0, panel.cancel_button.height() + 16)
            self._scrolled_for_task = before
            self._user_scrolled = False
        elif not busy and self._scrolled_for_task is not None:
            # … and back where it was afterwards, unless the user scrolled meanwhile
            before, self._scrolled_for_task = self._scrolled_for_task, None
            if not self._user_scrolled:
                bar.setValue(before)
        if not busy:
            self.restore_selection()
        if not busy and self._close_pending:
            QTimer.singleShot(0, self.close)
        elif not busy and self.pending_comparison is not None:  # a session's comparison, read now
            saved, self.pending_comparison = self.pending_comparison, None
            # what the session said (its corpus gone, …) comes back once the comparison is read
            self._notice_after_comparison = getattr(self, "_bar_message", "")
            self.compare_with(saved["path"], saved["options"])

    # ------------------------------------------------------------------ dialogs
    def _stepped(self, records: list) -> None:
        if records:
            self.show_message(status_line(records[-1], self.controller.tie_break))
            self._show_story()

    def _show_story(self) -> None:
        """After a step or a run, What happened comes to the front while no merge is selected: the
        Selected merge tab had nothing to show but "click a merge", under the merge just made."""
        if self.controller.selected_merge is None:
            self.info_tabs.setCurrentWidget(self.story)

    def show_message(self, message: str) -> None:
        """A status message: elided in the status bar (whole in its tooltip and in View → Messages)."""
        self.messages.add(message)
        self._bar_message = message
        self._show_in_bar(message, 15000)

    def _show_in_bar(self, message: str, timeout: int) -> None:
        bar = self.statusBar()
        # (the window's width: before the window is first laid out the bar is still narrow; the
        # vocab counter's width as its text is now, not as it was laid out: it may have just grown)
        counter = max(self.vocab_status.width(), self.vocab_status.sizeHint().width())
        width = max(100, max(bar.width(), self.width()) - counter - 40)
        bar.showMessage(elide(message, bar.fontMetrics(), width), timeout)
        bar.setToolTip(message)

    def _restore_notice(self, loaded) -> None:
        """A session's comparison was read: the session's own message goes back in the status bar (its
        "corpus is gone" notice was replaced by "Comparing with …"; both stay in View → Messages)."""
        notice = getattr(self, "_notice_after_comparison", "")
        if notice and getattr(loaded, "purpose", "") == "compare":
            self._notice_after_comparison = ""
            self._bar_message = notice
            self._show_in_bar(notice, 30000)

    def _refit_bar_message(self) -> None:
        """The vocab counter changed width: the message on show is cut again to the room left (an
        import's note ran under the counter, cut without a '…')."""
        message = getattr(self, "_bar_message", "")
        if message and self.statusBar().currentMessage():
            self._show_in_bar(message, 15000)

    def shortcuts_dialog(self) -> ShortcutsDialog:
        """Help → Keyboard shortcuts: every action's keys, and what the mouse does."""
        mouse = [
            (self.tr("Rewind to a merge"), self.tr("right-click it in the timeline or the merges list")),
            (self.tr("Jump to a token id"), self.tr("type #1234 in the vocab search box")),
        ]
        return ShortcutsDialog(self.actions(), self, mouse)

    def show_shortcuts(self) -> None:
        self.shortcuts_dialog().exec()

    def show_error(self, message: str) -> None:
        """Show a core error in a (non-blocking, window-modal) dialog; the state is unchanged."""
        self.messages.add(message, error=True)
        self.last_error = message
        box = QMessageBox(
            QMessageBox.Icon.Warning, "BPE Explorer", message, QMessageBox.StandardButton.Ok, self
        )
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    def _set_language(self, code: str) -> None:
        """View → Language: remembered, and used from the next start (offered at once)."""
        from bpe_gui.window.language import offer_restart

        i18n.remember(code, self.settings)
        self.settings.sync()
        offer_restart(self, code)

    def _about(self) -> None:
        from core.cli import version

        QMessageBox.about(
            self,
            self.tr("About BPE Explorer"),
            self.tr(
                "<b>BPE Explorer</b> {0}<br>Train, step through, visualise and export byte-level BPE "
                "tokenizers.<br><br>Step: → or Space · Undo: ← or Ctrl+Z · Train: Ctrl+T · "
                "Cancel: Esc"
            ).format(version()),
        )

    # ------------------------------------------------------------------ settings
    def _restore_settings(self) -> None:
        tp = self.training_panel
        try:
            tp.vocab_size.setValue(self.settings.get(settings.VOCAB_SIZE) or tp.vocab_size.value())
            tp.step_n.setValue(self.settings.get(settings.STEP_N) or tp.step_n.value())
        except OverflowError:  # (a number too large for the spin box, edited by hand)
            pass
        self._restore_options()
        self._fill_recent()

    def _restore_options(self) -> None:
        """The special tokens, pattern and tie rule in effect when the app last closed."""
        import json

        from core.errors import BPEError

        raw = self.settings.get(settings.SPECIAL_TOKENS)
        try:
            specials = json.loads(raw) if raw else None
        except ValueError:
            specials = None
        if not (isinstance(specials, list) and all(isinstance(s, str) for s in specials)):
            specials = None
        pattern = self.settings.get(settings.PATTERN) or None
        tie = self.settings.get(settings.TIE_RULE) or None
        c = self.controller
        try:  # values edited by hand that do not fit are left out, silently: the defaults stay
            c.options.with_changes(specials, pattern, tie)
        except BPEError:
            return
        if c.set_options(specials, pattern, tie):
            self.training_panel.show_options()

    def _save_settings(self) -> None:
        tp = self.training_panel
        self.settings.set(settings.VOCAB_SIZE, tp.vocab_size.value())
        self.settings.set(settings.STEP_N, tp.step_n.value())
        import json

        o = self.controller.options
        self.settings.set(settings.SPECIAL_TOKENS, json.dumps(list(o.special_tokens), ensure_ascii=False))
        self.settings.set(settings.PATTERN, "none" if o.pattern is None else o.pattern)
        self.settings.set(settings.TIE_RULE, o.tie_break)
        for name, sp in self.splitters.items():
            if name == "left":
                # only a column the user sized is kept (under a key of its own: before, the one the
                # window fitted to the story, scrolled to Step and Train, was saved as "left" and
                # restored without its scroll); one the window fitted is fitted again at the next start
                self.settings.remove_splitter_state("left")
                if self._left_by_user:
                    self.settings.set_splitter_state(LEFT_BY_USER, sp.saveState())
                else:
                    self.settings.remove_splitter_state(LEFT_BY_USER)
            else:
                self.settings.set_splitter_state(name, sp.saveState())
        self.settings.sync()

    # ------------------------------------------------------------------ closing
    def closeEvent(self, event) -> None:
        """Closing during a task asks the worker to stop and closes once it has finished."""
        self._save_settings()
        if not self.controller.busy:
            self.autosave()
        if self.controller.busy:
            self._close_pending = True
            self.controller.cancel()
            self.statusBar().showMessage(self.tr("Stopping the background task before closing …"))
            event.ignore()
            return
        self.tokenize.shutdown()
        self.evaluate.shutdown()
        self.controller.shutdown()  # gives its engine process back
        event.accept()
