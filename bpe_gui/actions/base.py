"""The controller's base: its state, its signals and the engine requests its actions share.

What is on show (settings, merge records, the views' index, caches) is plain data in a
:class:`bpe_gui.model.session.SessionModel`; the controller drives it and emits the signals."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal, Slot

from bpe_gui.jobs import worker
from bpe_gui.model.session import Busy, Options, SessionModel
from bpe_gui.text.errors import error_text
from bpe_gui.text.summary import RunSummary
from core import BPEError
from core.engine.client import Engine, EngineDied

__all__ = ["Busy", "ControllerBase", "Options", "RunSummary"]

FAILED = object()


def _model_attribute(name: str, doc: str) -> property:
    """A controller attribute kept in its :class:`SessionModel` (the views and tests read it here)."""

    def get(self):
        return getattr(self.model, name)

    def set_(self, value) -> None:
        setattr(self.model, name, value)

    return property(get, set_, doc=doc)


class ControllerBase(QObject):
    """The controller's state, signals and engine requests, shared by its actions (one class per job:
    :mod:`~bpe_gui.actions.training`, :mod:`~bpe_gui.actions.session`, :mod:`~bpe_gui.actions.files`);
    :class:`bpe_gui.actions.controller.Controller` is all of them together."""

    corpus_loaded = Signal(object)  # CorpusStats
    stepped = Signal(list)  # MergeRecords made by this step ([] when no pair was left)
    undone = Signal(object)  # the MergeRecord undone, or None
    progress = Signal(int, int)  # done, total (throttled, load and run)
    phase = Signal(str)  # what the progress bar measures
    trained = Signal(object)  # RunSummary
    busy_changed = Signal(object)  # Busy: IDLE ("", falsy) when idle
    error = Signal(str)  # a core error message; the window shows it in a dialog
    message = Signal(str)  # a status line
    merges_appended = Signal(int)  # this many merges were added at the end of index.merges
    merges_removed = Signal(int)  # this many merges were removed from the end
    merges_reset = Signal()  # index replaced (new corpus or imported tokenizer)
    pairs_changed = Signal(object)  # {pair: delta} of the last change, or None
    tokenizer_changed = Signal()
    merge_selected = Signal(int)  # rank
    selection_cleared = Signal()  # no merge is selected any more (Back to now)
    options_changed = Signal()  # the settings in effect changed (or were put back after a failed Apply)
    session_opened = Signal(object)  # core.formats.session.Session
    tokenizer_loaded = Signal(object)  # file_actions.LoadedTokenizer: an Import or Compare read its file

    options = _model_attribute("options", "The training settings in effect (:class:`Options`).")
    index = _model_attribute("index", "The views' :class:`VocabIndex` of the merges on show.")
    records = _model_attribute("records", "MergeRecords of the trainer session, in rank order.")
    stats = _model_attribute("stats", "CorpusStats of the loaded corpus (None without one).")
    source_name = _model_attribute("source_name", "Corpus file or imported tokenizer shown in the title.")
    corpus_path = _model_attribute("corpus_path", "Path of the loaded corpus (None without one).")
    version = _model_attribute("version", "Bumped on every change of the merges.")

    def __init__(self, parent: QObject | None = None) -> None:
        QObject.__init__(self, parent)
        self.model = SessionModel()  # what is on show, as plain data (no Qt)
        self._engine: Engine | None = worker.acquire_engine()  # holds the Trainer once a corpus is loaded
        self._job: worker.Job | None = None
        self._thread: QThread | None = None
        self._pending_load: str | None = None
        self._live_pairs: list = []
        self._past_pairs: tuple | None = (
            None  # ((version, rank, k), PastPairs or None): the last table of the past
        )
        self._told_record: tuple | None = None  # ((version, rank), MergeRecord): the last one told
        self._queued_steps = 0  # steps asked for while a step ran in the worker
        self._t0 = 0.0
        self.run_target: int | None = None  # vocab size the running job trains to
        self._after_load: Callable[[], None] | None = (
            None  # called once after the next successful load (reopening a session)
        )
        self._run_note: str | None = None  # replaces the summary of the next run (session replay)
        self.session_path: str | None = None
        # a session whose replay was stopped (Cancel, Esc, closing the window): the merges on show are
        # the first of its merges, until another corpus or tokenizer is shown
        self.cut_session: str | None = None
        self.merges_reset.connect(self._forget_cut_session)
        # may trained merges be thrown away? (the window asks the user; None: yes)
        self.discard_guard: Callable[[str], bool] | None = None

    # ------------------------------------------------------------------ what the actions do
    # (declared here, where the finished jobs are dispatched; each is made by one action class)
    def _check_can_train(self) -> bool:
        """Say why training cannot start now (no corpus, busy, vocab size); True when it can."""
        raise NotImplementedError

    def _finish_run(self, job: Any, res: worker.JobResult) -> None:
        """A training run or a session replay ended (training actions)."""
        raise NotImplementedError

    def _finish_rewind(self, job: Any, res: worker.JobResult) -> None:
        """A rewind done in the worker ended (session actions)."""
        raise NotImplementedError

    def _finish_import(self, job: Any, res: worker.JobResult) -> None:
        """A tokenizer file was read for Import or Compare (file actions)."""
        raise NotImplementedError

    def _add_recovered(self, pairs: list) -> None:
        """Merges of a tiktoken import rebuilt in the worker arrive (file actions)."""
        raise NotImplementedError

    def _finish_extend(self, job: Any, res: worker.JobResult) -> None:
        """The engine built an extension of a tokenizer on a corpus (extend actions)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ state queries
    @property
    def busy(self) -> Busy:
        return Busy(self._job.kind) if self._job is not None else Busy.IDLE

    @property
    def has_trainer(self) -> bool:
        return self.model.has_trainer

    @property
    def engine(self):
        """The engine process that owns the trainer (for tests and tools; don't use it while busy)."""
        return self._engine

    def _ask_blocking(self, request, *args, default=None):
        """A quick engine request for the views, waited for on the GUI thread; ``default`` while busy,
        without a trainer or on error. ``request``: an :class:`Engine` method."""
        if not self.model.has_trainer or self._job is not None:
            return default
        value = self._call_blocking(request, *args)
        return default if value is FAILED else value

    def _call_blocking(self, request, *args):
        """An engine request waited for on the GUI thread: ``request`` is an :class:`Engine` method
        (``Engine.steps_view``); :data:`FAILED` after an error (already reported)."""
        try:
            return request(self._use_engine(), *args)
        except EngineDied as e:
            self._lost(error_text(e))
        except BPEError as e:
            self.error.emit(error_text(e))
        return FAILED

    def _use_engine(self):
        if self._engine is None:  # after shutdown()
            self._engine = worker.acquire_engine()
        return self._engine

    def _lost(self, message: str) -> None:
        """The engine died: the trainer is gone (the merges so far stay visible)."""
        self.model.has_trainer = False
        # one status line that says what happened (not "Reading …" or "no pair is left to merge")
        self.message.emit(
            self.tr(
                "The training engine stopped; the merges so far stay visible. "
                "Open the corpus again to continue."
            )
        )
        self.error.emit(message)
        self.busy_changed.emit(self.busy)

    @property
    def vocab_size(self) -> int:
        return self.model.vocab_size

    @property
    def tie_break(self) -> str:
        """The tie rule of what is shown (see :attr:`SessionModel.tie_break`)."""
        return self.model.tie_break

    @property
    def pattern_label(self) -> str:
        return self.model.pattern_label

    def top_pairs(self, k: int = worker.TOP_K) -> list:
        """[(pair, count)] best first; the worker's latest snapshot while a run is going."""
        if self._job is not None and self._job.kind not in (Busy.LOAD, Busy.IMPORT):
            return list(self._live_pairs)
        view = self._current_view()
        if view is not None and k <= len(view.top_pairs):
            return view.top_pairs[:k]
        return self._ask_blocking(Engine.top_pairs, k, default=[])

    def n_pairs_with_count(self, count: int) -> int | None:
        """Exact number of pairs at ``count`` (None while the worker owns the trainer)."""
        view = self._current_view()
        if view is not None and view.top_pairs and view.top_pairs[0][1] == count:
            return view.n_best
        return self._ask_blocking(Engine.n_pairs_with_count, count)

    def pairs_before(self, rank: int, k: int = worker.TOP_K):
        """The pair table just before merge ``rank`` of the merges on show (the table that merge was
        chosen from): the engine's :class:`~core.training.past_pairs.PastPairs`, read from the
        trainer's history. None where it is not known: while a job runs, without a trainer (an
        imported tokenizer), for an extension's base merges (made elsewhere) or where the trainer
        kept no history (the engine's error is not shown as a dialog: the table says it)."""
        if not self.model.has_trainer or self._job is not None:
            return None
        rank -= self.model.merge_offset  # (the trainer numbers an extension's new merges from 0)
        if not 0 <= rank < len(self.model.records):
            return None
        key = (self.model.version, rank, k)
        cached = self._past_pairs
        if cached is not None and cached[0] == key:
            return cached[1]
        try:
            past = Engine.pairs_before(self._use_engine(), rank, k)
        except EngineDied as e:
            self._lost(str(e))
            return None
        except BPEError:
            past = None  # (a trainer without history: the table says so)
        self._past_pairs = (key, past)
        return past

    def _current_view(self):
        """What the engine sent with the last step or undo, if nothing changed since (and no job runs)."""
        return self.model.current_view() if self._job is None else None

    def next_pair(self):
        return self._ask_blocking(Engine.next_pair)

    def record(self, rank: int):
        return self.model.record(rank)

    def record_with_deltas(self, rank: int):
        """The record of merge ``rank`` with its pair-count changes, for the story. A run and a
        reopened session's replay bring the records without them (they are big); the engine's trainer
        keeps them, and they are asked for here, for one merge at a time. The record as the model holds
        it where they cannot be asked for (a job runs, no trainer) or the trainer has none."""
        rec = self.model.record(rank)
        if rec is None or rec.deltas or not rec.count or not self.model.has_trainer or self._job is not None:
            return rec
        key = (self.model.version, rank)
        told = self._told_record
        if told is not None and told[0] == key:
            return told[1]
        full = self._ask_blocking(Engine.record, rank - self.model.merge_offset)
        if full is None or full.pair != rec.pair:  # (a trainer that does not have it: as it was)
            full = rec
        self._told_record = (key, full)
        return full

    def changed_words(self, rank: int, limit: int = 8) -> list | None:
        """Words changed by merge ``rank`` (None while a worker owns the trainer)."""
        if not self.model.has_trainer:
            return []
        if self._job is not None:
            return None
        rank -= self.model.merge_offset  # (the trainer numbers an extension's new merges from 0)
        if rank < 0:
            return []  # a base merge of an extension: made elsewhere, no words to show
        return self._ask_blocking(Engine.changed_words, rank, limit, default=[])

    # ------------------------------------------------------------------ tokenizer for the views
    def tokenizer_args(self) -> tuple:
        """(version, vocab, merges, special tokens, pattern): what builds the current Tokenizer."""
        return self.model.tokenizer_args()

    def cached_tokenizer(self):
        """The current Tokenizer if it is already built (or imported), else None."""
        return self.model.cached_tokenizer()

    def store_tokenizer(self, version: int, tokenizer) -> None:
        """Keep a Tokenizer built elsewhere (e.g. in a thread) if it matches the current merges."""
        self.model.store_tokenizer(version, tokenizer)

    def tokenizer(self):
        """A core Tokenizer for the current merges (built here when not cached)."""
        return self.model.tokenizer()

    # ------------------------------------------------------------------ corpus and options
    @Slot(str)
    def load_corpus(self, path) -> None:
        """Pre-tokenize ``path`` in the worker; emits :attr:`corpus_loaded` when ready."""
        path = str(path)
        if self._job is not None:
            if self._job.kind == "load":  # a newer request wins
                self._pending_load = path
                self._job.cancel()
                return
            self.error.emit(
                self.tr("A training run is in progress; cancel it before opening another corpus.")
            )
            return
        self._pending_load = None
        o = self.options
        self._start(
            worker.LoadJob(self._use_engine(), path, o.special_tokens, o.pattern, o.tie_break),
            self.tr("Reading {0} …").format(path),
        )

    def _revert_options(self) -> None:
        """After a failed or cancelled load, the settings in effect are the loaded corpus's again."""
        self.model.revert_options()
        self.options_changed.emit()

    def set_options(self, special_tokens=None, pattern=None, tie_break=None) -> bool:
        """Validate and apply training settings; reloads the corpus when one is loaded.

        Returns False (and emits :attr:`error`) when a setting is invalid or a worker is busy.
        """
        try:
            new = self.options.with_changes(special_tokens, pattern, tie_break)
        except BPEError as e:
            self.options_changed.emit()  # the panel shows the settings in effect again
            self.error.emit(error_text(e))
            return False
        if new == self.options:
            return True
        if self._job is not None:
            self.error.emit(
                self.tr("Wait for the current task to finish (or cancel it) before changing settings.")
            )
            return False
        self.options = new
        imported = self.model.imported is not None or self.model.extension is not None
        if self.model.extension is not None:
            self.message.emit(
                self.tr(
                    "Settings saved: they apply to the next corpus you open (an extension uses its "
                    "base tokenizer's pattern and special tokens)."
                )
            )
        elif imported:
            self.message.emit(
                self.tr(
                    "Settings saved: they apply to the next corpus you open (an imported "
                    "tokenizer is shown as it was trained)."
                )
            )
        if self.corpus_path is not None and not imported:
            self.load_corpus(self.corpus_path)
        elif not self.model.has_trainer and not imported:
            self.model.base_vocab()
            self.merges_reset.emit()
            self.tokenizer_changed.emit()
        return True

    def _shown_tokenizer(self, busy: str, nothing: str) -> Any:
        """What is on show to write to files: the engine's spec (a trained session) or the imported
        tokenizer; None, after saying ``busy`` or ``nothing`` (or an engine error), when there is none."""
        if self._job is not None:
            self.error.emit(busy)
            return None
        source = self._call_blocking(Engine.spec) if self.model.has_trainer else self.model.imported
        if source is FAILED:
            return None
        if source is None:
            self.error.emit(nothing)
        return source

    @property
    def selected_merge(self) -> int | None:
        """The rank of the merge the user picked (in any view), or None: the one selection."""
        return self.model.selected

    @Slot(int)
    def select_merge(self, rank: int) -> None:
        """Make merge ``rank`` the selected one; every view shows it (``merge_selected``)."""
        if self.model.select(rank):
            self.merge_selected.emit(rank)

    @Slot()
    def clear_selection(self) -> None:
        """Select no merge (back to now): every view shows the session as it is after the latest
        merge, as after a step (``selection_cleared``)."""
        if self.model.selected is not None:
            self.model.select(None)
            self.selection_cleared.emit()

    # ------------------------------------------------------------------ worker plumbing
    def _start(self, job: worker.Job, text: str, kind: Busy | None = None) -> None:
        if kind:
            job.kind = kind.value
        self._job = job
        self.run_target = getattr(job, "vocab_size", None)
        self._t0 = time.monotonic()
        job.progress.connect(self._on_progress)
        job.records.connect(self._on_records)
        job.pairs.connect(self._on_pairs)
        self._thread = worker.start(job, self._on_thread_finished)
        self.busy_changed.emit(self.busy)
        self.phase.emit(text)
        self.message.emit(text)

    @Slot(str, int, int)
    def _on_progress(self, phase: str, done: int, total: int) -> None:
        if self._job is not None:
            self.progress.emit(done, total)

    @Slot(list)
    def _on_records(self, batch: list) -> None:
        if self._job is not None and self._job.kind == Busy.IMPORT:
            self._add_recovered(batch)  # merges of a tiktoken import, recovered in the worker
        elif self._job is not None and self._job.kind != Busy.LOAD:
            self._absorb(self.model.shifted(batch))

    @Slot(list)
    def _on_pairs(self, pairs: list) -> None:
        self._live_pairs = pairs
        self.pairs_changed.emit(None)

    def _absorb(self, records: list, view: dict | None = None) -> None:
        """Add new merge records; ``view``: the engine's pair view after them (see SessionModel.keep_view)."""
        new = self.model.absorb(records, view)
        if new:
            self.merges_appended.emit(new)

    @Slot()
    def _on_thread_finished(self) -> None:
        thread, job = self._thread, self._job
        if thread is None or job is None:
            return
        worker.join(thread)
        self._thread = None
        self._job = None
        self.run_target = None
        res = job.result
        kind = Busy(job.kind)
        session_file = getattr(job, "session_file", None)  # (a session's replay: see _forget_cut_session)
        if res.cancelled and session_file:
            self.cut_session = session_file
        if kind is Busy.LOAD and getattr(job, "extends", None) is not None:
            self._finish_extend(job, res)
        elif kind is Busy.LOAD:
            self._finish_load(job, res)
        elif kind is Busy.REWIND:
            self._finish_rewind(job, res)
        elif kind is Busy.IMPORT:
            self._finish_import(job, res)
        else:
            self._finish_run(job, res)
        if self._job is None:
            self.busy_changed.emit(Busy.IDLE)
        if res.crash is not None:
            worker.report_crash(res.crash)  # the exception itself, with the worker's traceback

    def _forget_cut_session(self) -> None:
        self.cut_session = None

    def _finish_load(self, job: Any, res: worker.JobResult) -> None:
        if self._pending_load is not None:
            path, self._pending_load = self._pending_load, None
            self.load_corpus(path)
            return
        after, self._after_load = self._after_load, None
        if res.lost or res.error or res.cancelled or res.value is None:
            self._revert_options()
        if res.lost:
            self._lost(res.error_message or self.tr("the training engine stopped"))
            return
        if res.error:
            self.message.emit(self.tr("Could not load %1; nothing changed.").replace("%1", job.path))
            self.error.emit(res.error_message)
            return
        if res.cancelled or res.value is None:
            self.message.emit(self.tr("Loading cancelled; nothing changed."))
            return
        info: dict = res.value
        s = info["stats"]
        self.model.corpus_loaded(
            job.path,
            s,
            info["special_tokens"],
            Options(list(job.args[1]), job.args[2], job.args[3]),
            info.get("distinct_bytes"),
        )
        self.merges_reset.emit()  # the pair table refreshes on this too
        self.tokenizer_changed.emit()
        self.message.emit(
            self.tr("Loaded {0}: {1} bytes, {2} pre-tokens ({3} distinct) in {4} s.").format(
                s.name,
                f"{s.size_bytes:,}",
                f"{s.pretokens:,}",
                f"{s.distinct_pretokens:,}",
                f"{time.monotonic() - self._t0:.1f}",
            )
        )
        self.corpus_loaded.emit(s)
        if after is not None:
            after()

    def shutdown(self) -> None:
        """Stop a running job, wait for its thread and give the engine back (window closed, app quitting)."""
        job, thread = self._job, self._thread
        if job is not None and thread is not None:
            self._pending_load = None
            job.cancel()
            worker.join(thread)
            self._job = None
            self._thread = None
        if self._engine is not None:
            worker.release_engine(self._engine)
            self._engine = None
            self.model.has_trainer = False
