"""The controller's training actions: Step (N), Undo, Train to a vocab size, Cancel.

Part of :class:`bpe_gui.actions.controller.Controller`, on its declared base (signals, engine requests, worker
plumbing and session model). A cheap step is an engine request waited for on the GUI thread;
an expensive one, and every full run, is a :class:`bpe_gui.jobs.worker.TrainJob`, whose end comes
back to :meth:`TrainActions._finish_run`.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Slot

from bpe_gui.actions.base import FAILED, ControllerBase
from bpe_gui.jobs import worker
from bpe_gui.model.formatting import token_label
from bpe_gui.model.session import Busy, merge_deltas
from bpe_gui.text.errors import error_text
from bpe_gui.text.plural import plural
from bpe_gui.text.story import why_text
from bpe_gui.text.summary import summarize_run
from core import BPEError
from core.engine.client import Engine
from core.training.trainer import check_vocab_size

SYNC_STEP_BUDGET = 20_000_000  # n × corpus bytes below which Step N runs on the GUI thread
# A single step that may change more distinct words than this runs in the worker (a merge costs
# about the words it changes); smaller ones are quicker on the GUI thread than the worker's round trip
# (two busy-state repaints). A step the engine has done ahead (next_step_size() == 0) is instant.
SYNC_STEP_WORDS = 12_000


class TrainActions(ControllerBase):
    """Step, undo, train and cancel (the controller's training actions)."""

    def _check_can_train(self) -> bool:
        if self._job is not None:
            self.error.emit(
                QCoreApplication.translate("Controller", "A task is running; wait for it or press Cancel.")
            )
            return False
        imported = self.model.imported
        if (
            not self.model.has_trainer
            and imported is not None
            and getattr(imported, "char_model", None) is None
        ):
            self.error.emit(
                QCoreApplication.translate(
                    "Controller",
                    "Cannot train an imported tokenizer as it is: File → Continue training from this "
                    "tokenizer… learns new merges on top of it on a corpus you pick (or open a corpus to "
                    "train from scratch).",
                )
            )
            return False
        if not self.model.has_trainer:
            what = (
                QCoreApplication.translate("Controller", "an imported tokenizer cannot be trained further")
                if self.model.imported is not None
                else QCoreApplication.translate("Controller", "no corpus is open")
            )
            self.error.emit(  # (the same words as the pair counts' "no corpus" note)
                QCoreApplication.translate(
                    "Controller", "Cannot train: {0}. Open a corpus (File → Open corpus…) first."
                ).format(what)
            )
            return False
        return True

    @Slot()
    @Slot(int)
    def step(self, n: int = 1) -> None:
        """Do ``n`` merges; emits :attr:`stepped` with their records.

        A cheap step is done at once (``stepped`` is emitted before this returns). An expensive
        one (many merges of a large corpus, or one merge that changes more than
        :data:`SYNC_STEP_WORDS` distinct words) runs in the worker and ``stepped`` comes when it is
        done; steps asked for meanwhile (a held → key) are queued and done together next.
        """
        n = max(1, int(n))
        if self._job is not None and self._job.kind == Busy.STEP and not self._job.cancel_requested:
            self._queued_steps += n
            return
        if not self._check_can_train():
            return
        size = self.stats.size_bytes if self.stats is not None else 0
        background = n > 1 and n * size > SYNC_STEP_BUDGET
        if not background and n == 1:
            words = self._call_blocking(Engine.next_step_size)
            if words is FAILED:
                return
            background = words > SYNC_STEP_WORDS
        if background:
            self._live_pairs = self._ask_blocking(Engine.top_pairs, worker.TOP_K, default=[])
            label = (
                QCoreApplication.translate("Controller", "Merging …")
                if n == 1
                else QCoreApplication.translate("Controller", "Merging {0} …").format(f"{n:,}")
            )
            # (at most n merges: an extension's merge that remakes an existing token adds none)
            job = worker.TrainJob(self._use_engine(), self.vocab_size + n, max_merges=n)
            self._start(job, label, kind=Busy.STEP)
            return
        reply = self._call_blocking(Engine.steps_view, n, worker.TOP_K)
        if reply is FAILED:
            return
        records = self.model.shifted(reply["records"])
        self._absorb(records, view=reply)
        self.pairs_changed.emit(merge_deltas(records, 1))
        if records:
            self.tokenizer_changed.emit()
        self.message.emit(self._steps_message(records, n))
        self.stepped.emit(records)

    def _steps_message(self, made: list, asked: int, cancelled: bool = False, last_why: bool = True) -> str:
        """What a Step (N) did, saying so when the corpus ran out of pairs first."""
        size = f"{self.vocab_size:,}"
        done = f"{len(made):,}"
        if cancelled and len(made) < asked:
            text = QCoreApplication.translate(
                "Controller", "Stopped after %1 of %n merge(s); vocab size %2.", None, asked
            )
            return plural(text, asked).replace("%1", done).replace("%2", size)
        if not made:
            text = QCoreApplication.translate(
                "Controller", "No pair left to merge: the vocab stays at %1 tokens."
            )
            return text.replace("%1", size)
        if len(made) < asked and not cancelled:
            text = QCoreApplication.translate(
                "Controller", "Did %1 of %n merge(s): no pair is left to merge (vocab size %2).", None, asked
            )
            return plural(text, asked).replace("%1", done).replace("%2", size)
        if len(made) == 1 or last_why:
            text = QCoreApplication.translate("Controller", "Merge #%1: %2")
            return text.replace("%1", f"{made[-1].rank + 1:,}").replace(
                "%2", why_text(made[-1], self.tie_break)
            )
        n = len(made)
        text = QCoreApplication.translate("Controller", "Did %n merge(s); vocab size %1.", None, n)
        return plural(text, n).replace("%1", size)

    @Slot()
    def undo(self) -> None:
        """Revert the last merge; emits :attr:`undone` with it (None when there is none)."""
        if self._job is not None and self._job.kind == Busy.STEP and not self._job.cancel_requested:
            if self._queued_steps:  # a step not done yet is simply dropped
                self._queued_steps -= 1
            else:
                self.message.emit(
                    QCoreApplication.translate("Controller", "A merge is running; undo it when it is done.")
                )
            return
        if not self._check_can_train():
            return
        reply = self._call_blocking(Engine.undo_view, worker.TOP_K)
        if reply is FAILED:
            return
        rec = reply["record"]
        if rec is None:
            self.message.emit(
                QCoreApplication.translate(
                    "Controller", "Nothing to undo: the base tokenizer's merges stay (Reset goes back to it)."
                )
                if self.model.extension is not None
                else QCoreApplication.translate("Controller", "Nothing to undo.")
            )
            self.undone.emit(None)
            return
        rec = self.model.shifted([rec])[0]
        self.model.pop(1)
        self.model.keep_view(reply)
        self.merges_removed.emit(1)
        self.pairs_changed.emit(merge_deltas([rec], -1))
        self.tokenizer_changed.emit()
        self.message.emit(
            QCoreApplication.translate("Controller", "Undid merge #%1 (%2); vocab size %3.")
            .replace("%1", f"{rec.rank + 1:,}")
            .replace("%2", token_label(rec.token))
            .replace("%3", f"{self.vocab_size:,}")
        )
        self.undone.emit(rec)

    @Slot(int)
    def train(self, vocab_size: int) -> None:
        """Merge until ``vocab_size`` in the worker; emits :attr:`progress`, then :attr:`trained`."""
        if not self._check_can_train():
            return
        try:
            check_vocab_size(vocab_size, len(self.options.special_tokens))
        except BPEError as e:
            self.error.emit(error_text(e))
            return
        ext = self.model.extension
        if ext is not None and vocab_size <= ext.base_vocab_size:
            self.error.emit(
                QCoreApplication.translate(
                    "Controller",
                    "Cannot train to {0} tokens: an extension keeps all {1} tokens of {2}. "
                    "Choose a vocab size above {1}.",
                ).format(f"{vocab_size:,}", f"{ext.base_vocab_size:,}", ext.name)
            )
            return
        if vocab_size <= self.vocab_size:
            # the vocab on show is at the target already: no run, and the reason is said now (the
            # engine's run of nothing gave no word a user saw)
            summary = summarize_run(
                0,
                self.vocab_size,
                int(vocab_size),
                self.index.n_merges,
                len(self.index.special_tokens),
                False,
                0.0,
            )
            self.message.emit(summary.message)
            self.trained.emit(summary)
            return
        self._live_pairs = self._ask_blocking(
            Engine.top_pairs, worker.TOP_K, default=[]
        )  # until the run sends its own
        # a full run's records come without their pair-count changes (the views need those only
        # for single steps; a long run's would fill memory here for nothing)
        self._start(
            worker.TrainJob(self._use_engine(), int(vocab_size), with_deltas=False),
            QCoreApplication.translate("Controller", "Training to {0} …").format(f"{vocab_size:,}"),
        )

    @Slot()
    def cancel(self) -> None:
        if self._job is not None:
            self._pending_load = None
            self._queued_steps = 0
            self._job.cancel()
            self.message.emit(QCoreApplication.translate("Controller", "Cancelling …"))

    def _finish_run(self, job: worker.TrainJob, res: worker.JobResult) -> None:
        made = self.model.shifted(res.records)
        self._absorb(made)  # normally a no-op: the batches came first
        self._live_pairs = []
        if res.lost:
            self._queued_steps = 0
            self._lost(
                res.error_message or QCoreApplication.translate("Controller", "the training engine stopped")
            )
        elif res.error:
            self.error.emit(res.error_message)
        step = job.kind == Busy.STEP
        self.pairs_changed.emit(merge_deltas(made, 1) if step else None)
        self.tokenizer_changed.emit()
        if step:
            asked = job.vocab_size - (self.vocab_size - len(made))
            if not res.lost:
                self.message.emit(
                    self._steps_message(list(made), asked, res.cancelled or bool(res.error), last_why=False)
                )
            self.stepped.emit(list(made))
            queued, self._queued_steps = self._queued_steps, 0
            if queued and not res.cancelled and self.model.has_trainer and self._job is None:
                self.step(queued)
            return
        summary = summarize_run(
            len(made),
            self.vocab_size,
            job.vocab_size,
            self.index.n_merges,
            len(self.index.special_tokens),
            res.cancelled,
            time.monotonic() - self._t0,
        )
        session_file = getattr(job, "session_file", None)
        if res.cancelled and session_file:  # a session's replay stopped: its file is not cut short
            kept = QCoreApplication.translate(
                "Controller", "The session file {0} keeps all its {1} merges; open it again to replay them."
            ).format(Path(session_file).name, f"{getattr(job, 'n_pairs', 0):,}")
            summary = dataclasses.replace(summary, message=f"{summary.message} {kept}")
        note, self._run_note = self._run_note, None
        if note and not res.cancelled and not res.error:
            summary = dataclasses.replace(summary, message=note)
            # a session reopened whole: its merges are in the file (leaving them asks nothing)
            self.model.kept_version = self.model.version
        if not res.lost:
            self.message.emit(summary.message)
        self.trained.emit(summary)
