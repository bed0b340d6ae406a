"""Background jobs: loading a corpus and full training runs, in a QThread.

A job is a QObject moved to its own QThread (started → run, finished → quit, finished →
deleteLater). It emits plain data only (numbers, lists of frozen MergeRecords, the finished
Trainer) and never touches a widget. Cancellation is a flag the core's progress callback checks
between merges or pre-tokenization chunks; returning False from the callback makes the core raise
:class:`core.Cancelled` after leaving its state consistent.

Every running thread is kept in :data:`_RUNNING` (a strong reference, so a QThread is never
destroyed while it runs); tests use :func:`running_threads` to fail a test that leaves one behind.
"""
from __future__ import annotations

import gc
import os
import sys
import time
import traceback
from dataclasses import dataclass, field

from PySide6.QtCore import QCoreApplication, QObject, Qt, QThread, Signal, Slot

from core import BPEError, Cancelled, Trainer

from .qtcompat import install as _install_qt_fixes

_install_qt_fixes()

PROGRESS_INTERVAL = 0.1  # seconds between progress signals (and batches of merge records)
PAIRS_INTERVAL = 1.0  # seconds between live pair-table snapshots during a run
TOP_K = 100

# While a worker runs, the GUI thread gets the GIL back within this many seconds: with CPython's
# default (5 ms) every Python call the GUI thread makes (slots, virtual methods of Python
# widgets) can wait 5 ms behind a busy worker, and one repaint makes dozens of such calls.
WORKER_SWITCH_INTERVAL = 0.0002

_RUNNING: dict[QThread, Job] = {}
_saved_switch_interval: float | None = None
_gc_was_enabled: bool | None = None


# counting processes run at a lower priority so that the GUI thread gets a core when it needs one
WORKER_NICENESS = 10


@dataclass
class JobResult:
    """What a job hands back to the GUI thread when it is over."""

    value: object = None  # a Trainer for loads; None for runs
    records: list = field(default_factory=list)  # MergeRecords made by a run
    cancelled: bool = False
    error: str | None = None  # message of a core error (shown in a dialog)
    crash: str | None = None  # traceback of an unexpected exception


class Job(QObject):
    """Base class: subclasses implement :meth:`work` and call :meth:`report` from the core callback."""

    progress = Signal(str, int, int)  # phase, done, total (throttled)
    records = Signal(list)  # new MergeRecords since the last batch (runs only)
    pairs = Signal(list)  # [(pair, count)] snapshot of the top pairs (runs only)
    finished = Signal()

    kind = "job"

    def __init__(self) -> None:
        super().__init__()
        self._cancel = False
        self._last_emit = 0.0
        self.result = JobResult()

    def cancel(self) -> None:
        """Ask the job to stop (called from the GUI thread; checked by the progress callback)."""
        self._cancel = True

    @property
    def cancel_requested(self) -> bool:
        return self._cancel

    @Slot()
    def run(self) -> None:
        try:
            self.work()
        except Cancelled as e:
            self.result.cancelled = True
            self.result.records = list(getattr(e, "records", []) or [])
        except BPEError as e:
            self.result.error = str(e)
        except Exception:  # noqa: BLE001 - reported to the GUI thread, which shows the traceback
            self.result.crash = traceback.format_exc()
        finally:
            self.flush()
            # Hand the job back to the GUI thread before it is deleted (finished -> deleteLater):
            # destroyed in the worker thread, its QObject destructor takes a Qt connection lock and
            # then waits for the GIL, while the GUI thread, holding the GIL, may be waiting for that
            # very lock in a connect() (seen as a deadlock in QTableView.setModel).
            app = QCoreApplication.instance()
            if app is not None:
                self.moveToThread(app.thread())
            self.finished.emit()

    def work(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def flush(self) -> None:
        """Emit whatever is still pending (called once at the end)."""

    def report(self, phase: str, done: int, total: int) -> bool:
        """The core's progress callback: throttled signals; False when cancelled."""
        if self._cancel:
            return False
        now = time.monotonic()
        if now - self._last_emit >= PROGRESS_INTERVAL or (total and done >= total):
            self._last_emit = now
            self.on_tick(now)
            self.progress.emit(phase, int(done), int(total))
        return True

    def on_tick(self, now: float) -> None:
        """Hook called right before a progress signal."""


def pretokenize_workers() -> int | None:
    """Processes for pre-tokenization; None lets the core choose (one per core for large files).

    Counting in worker processes matters for the GUI: counted in this process, the regex and
    Counter calls hold the GIL for 100-400 ms at a time (measured on a 40 MB dictionary), while
    the processes leave the GUI thread alone. ``BPE_EXPLORER_WORKERS`` overrides the number.
    """
    value = os.environ.get("BPE_EXPLORER_WORKERS")
    return max(1, int(value)) if value else None


class LoadJob(Job):
    """Pre-tokenize a corpus file and build a Trainer."""

    kind = "load"

    def __init__(self, path: str, special_tokens: list[str], pattern: str | None, tie_break: str) -> None:
        super().__init__()
        self.path = path
        self.special_tokens = list(special_tokens)
        self.pattern = pattern
        self.tie_break = tie_break

    def work(self) -> None:
        trainer = Trainer.from_file(self.path, self.special_tokens, pattern=self.pattern,
                                    tie_break=self.tie_break, workers=pretokenize_workers(),
                                    progress=self.report, niceness=WORKER_NICENESS)
        if self._cancel:  # cancelled while the trainer was being built: drop it
            raise Cancelled("loading cancelled")
        self.result.value = trainer


class TrainJob(Job):
    """Run ``trainer.run(vocab_size)``; the trainer belongs to this job until it finishes."""

    kind = "train"

    def __init__(self, trainer: Trainer, vocab_size: int, top_k: int = TOP_K) -> None:
        super().__init__()
        self.trainer = trainer
        self.vocab_size = vocab_size
        self.top_k = top_k
        self._start = len(trainer.records)
        self._sent = self._start
        self._last_pairs = 0.0

    def work(self) -> None:
        self.trainer.run(self.vocab_size, progress=self.report, min_interval=1)

    def on_tick(self, now: float) -> None:
        self._send_records()
        if now - self._last_pairs >= PAIRS_INTERVAL:
            self._last_pairs = now
            self.pairs.emit(self.trainer.top_pairs(self.top_k))

    def _send_records(self) -> None:
        recs = self.trainer.records
        if len(recs) > self._sent:
            batch = recs[self._sent:]
            self._sent = len(recs)
            self.records.emit(batch)

    def flush(self) -> None:
        self._send_records()
        self.result.records = self.trainer.records[self._start:]


def start(job: Job, on_finished) -> QThread:
    """Run ``job`` in a new QThread, wired the standard way.

    ``on_finished`` (a slot of a GUI-thread object) is connected to ``thread.finished`` before
    ``deleteLater``, so it runs while the thread object still exists.
    """
    thread = QThread()
    thread.setObjectName(f"bpe-{job.kind}")
    job.moveToThread(thread)
    thread.started.connect(job.run)
    # direct: quit() is thread-safe, and the GUI thread may be blocked in wait() (shutdown)
    job.finished.connect(thread.quit, Qt.ConnectionType.DirectConnection)
    job.finished.connect(job.deleteLater)
    thread.finished.connect(on_finished)
    thread.finished.connect(thread.deleteLater)
    global _saved_switch_interval, _gc_was_enabled
    if _saved_switch_interval is None:
        _saved_switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(min(_saved_switch_interval, WORKER_SWITCH_INTERVAL))
    if _gc_was_enabled is None:
        # A full collection walks every object of the trainer (millions of tuples for a 40 MB
        # corpus) while holding the GIL: pauses of 200-500 ms, every second or so, for the GUI
        # thread. The trainer makes no reference cycles, so the cycle collector can rest.
        _gc_was_enabled = gc.isenabled()
        gc.disable()
    _RUNNING[thread] = job
    thread.start()
    return thread


def forget(thread: QThread) -> None:
    """Called by the owner once ``thread.finished`` arrived and the thread was joined."""
    global _saved_switch_interval, _gc_was_enabled
    _RUNNING.pop(thread, None)
    if not _RUNNING and _saved_switch_interval is not None:
        sys.setswitchinterval(_saved_switch_interval)
        _saved_switch_interval = None
    if not _RUNNING and _gc_was_enabled is not None:
        # what exists now (the trainer's words and pairs) is long-lived: keep it out of future
        # collections, so that a collection triggered by a step on the GUI thread stays short
        gc.freeze()
        if _gc_was_enabled:
            gc.enable()
        _gc_was_enabled = None


def running_threads() -> list[QThread]:
    """Threads started by :func:`start` that are still running."""
    out = []
    for t in list(_RUNNING):
        try:
            if t.isRunning():
                out.append(t)
        except RuntimeError:  # the C++ object is gone: it is not running
            forget(t)
    return out


def stop_all(timeout_ms: int = 10_000) -> None:
    """Cancel every running job and wait for its thread (app shutdown and test cleanup)."""
    for job in list(_RUNNING.values()):
        try:
            job.cancel()
        except RuntimeError:
            pass
    for t in list(_RUNNING):
        try:
            t.wait(timeout_ms)
        except RuntimeError:
            pass
        forget(t)
