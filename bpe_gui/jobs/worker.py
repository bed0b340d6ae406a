"""Background jobs in a QThread: loading a corpus and full training runs (in the engine), tokenizing.

A job is a QObject moved to its own QThread (started → run, finished → quit); it is destroyed in the
GUI thread once that thread has ended. It emits plain data only (numbers, lists of frozen
MergeRecords, pair lists) and never touches a widget.

The trainer itself lives in an engine process (:mod:`core.engine.client`): a load or run job sends the
request and relays the engine's events (throttled progress, batches of merge records, pair
snapshots) as signals, while the GUI process stays light. In a thread of the app's own process
the merge loop would hold the GIL, and every Python callback of a repaint (table models,
pyqtgraph items) would wait for it: 100-200 ms stalls on a 40 MB corpus. Cancelling sets the
engine's cancel flag; the core stops between merges or chunks and leaves its state consistent.

Every running thread is kept in :data:`_RUNNING` (a strong reference, so a QThread is never
destroyed while it runs); tests use :func:`running_threads` to fail a test that leaves one behind.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from bpe_gui import process
from bpe_gui.model.session import Busy
from core import BPEError, Cancelled
from core.engine.client import Engine, EngineDied
from core.engine.protocol import TOP_K, Event, Pairs, Progress, Records

# the engine process (and the pre-tokenization processes it starts) run at a lower CPU priority,
# so that the GUI gets a core when it needs one
WORKER_NICENESS = 10

# The engine does the next merge in advance after this long without a request (and at once after
# a step or a run), when it changes at least this many words (the first merges of a large corpus
# are the slow ones): Step is then instant.
LOOKAHEAD = (2_000, 0.15)


_RUNNING: dict[QThread, Job] = {}
_LINGERING: list[Job] = []  # jobs whose thread outlived a wait: kept until the process ends
_IDLE_ENGINES: list[Engine] = []


def acquire_engine() -> Engine:
    """An engine process for a controller: an idle one left by a closed window, or a new one."""
    while _IDLE_ENGINES:
        eng = _IDLE_ENGINES.pop()
        if eng.alive:
            return eng
    return Engine(niceness=WORKER_NICENESS, start=True, lookahead=LOOKAHEAD)


def release_engine(eng: Engine) -> None:
    """Take back an engine whose controller is done with it (its trainer is dropped)."""
    try:
        eng.drop()
    except Exception:
        eng.close()
        return
    _IDLE_ENGINES.append(eng)


def close_idle_engines() -> None:
    """End the engine processes kept for reuse (at exit they end anyway; tests end them sooner)."""
    while _IDLE_ENGINES:
        _IDLE_ENGINES.pop().close()


@dataclass
class JobResult:
    """What a job hands back to the GUI thread when it is over.

    Failures travel as the exception objects themselves (as superqt's ``errored(object)``): the
    GUI thread turns a core error into its message where it shows it (:attr:`error_message`), and
    hands a crash, with the worker's traceback, to :func:`report_crash`.
    """

    value: Any = None  # what the request returned (load: stats; run: merges made)
    records: list = field(default_factory=list)  # MergeRecords made by a run
    cancelled: bool = False
    error: BPEError | None = None  # a core error, or EngineDied (the engine process died)
    crash: BaseException | None = None  # an unexpected exception (a bug), with its __traceback__

    @property
    def lost(self) -> bool:
        """The engine process died: its trainer is gone."""
        return isinstance(self.error, EngineDied)

    @property
    def error_message(self) -> str | None:
        """:attr:`error` as the user reads it (in the app's language), None without one."""
        if self.error is None:
            return None
        from bpe_gui.text.errors import error_text  # (the engine's death too: EngineDied has a code)

        return error_text(self.error)


def report_crash(exc: BaseException) -> None:
    """Show an unexpected exception of a worker as one of the GUI thread's (``sys.excepthook``: the
    app prints it and shows it in a dialog), with the traceback it had in the worker."""
    sys.excepthook(type(exc), exc, exc.__traceback__)


class Job(QObject):
    """Base class: subclasses implement :meth:`work` (run in the job's thread)."""

    progress = Signal(str, int, int)  # phase, done, total (throttled)
    records = Signal(list)  # new MergeRecords since the last batch (runs only)
    pairs = Signal(list)  # [(pair, count)] snapshot of the top pairs (runs only)
    errored = Signal(object)  # the exception that ended the job (also kept in result)
    finished = Signal()

    kind = "job"

    def __init__(self) -> None:
        super().__init__()
        self._cancel = False
        self.result = JobResult()

    def report(self, phase: str, done: int, total: int) -> bool:
        """A core ``progress`` callback: relays the progress; False (stop) once Cancel was asked."""
        self.progress.emit(phase, done, total)
        return not self.cancel_requested

    def cancel(self) -> None:
        """Ask the job to stop (called from the GUI thread; :meth:`work` checks it)."""
        self._cancel = True

    @property
    def cancel_requested(self) -> bool:
        return self._cancel

    @Slot()
    def run(self) -> None:
        try:
            self.work()
        except Cancelled:
            self.result.cancelled = True
        except BPEError as e:  # EngineDied included
            self.result.error = e
            self.errored.emit(e)
        except Exception as e:
            self.result.crash = e
            self.errored.emit(e)
        finally:
            # Nothing of Qt's thread machinery here: the job is destroyed in the GUI thread once its
            # thread has ended (see start). Destroyed in this thread (finished -> deleteLater), its
            # QObject destructor took a Qt lock and then waited for the GIL while the GUI thread,
            # holding the GIL, waited for that lock (a deadlock seen in QTableView.setModel); moved
            # back to the GUI thread from here, moveToThread deadlocked the same way (seen once in
            # a test run: the worker stuck in moveToThread, the window waiting for ever).
            self.finished.emit()

    def work(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


class EngineJob(Job):
    """One long engine request, run (blocking) in this job's thread; its events become signals.

    ``request`` is one of the :class:`~core.engine.client.Engine` methods that take ``on_event`` and
    ``cancelled`` (``Engine.load``, ``Engine.run``, ``Engine.replay``, ``Engine.undo_to``),
    called as ``request(engine, *args, on_event=..., cancelled=...)``.
    """

    def __init__(self, engine: Engine, request: Callable[..., Any], *args: Any) -> None:
        super().__init__()
        self.engine, self.request, self.args = engine, request, args

    def cancel(self) -> None:
        super().cancel()
        self.engine.cancel()

    def work(self) -> None:
        if self.cancel_requested:
            raise Cancelled("cancelled before it started")
        self.result.value = self.request(
            self.engine, *self.args, on_event=self._relay, cancelled=lambda: self.cancel_requested
        )

    def _relay(self, event: Event) -> None:
        if isinstance(event, Progress):
            self.progress.emit(event.phase, event.done, event.total)
        elif isinstance(event, Records):
            self.result.records.extend(event.records)
            self.records.emit(event.records)
        elif isinstance(event, Pairs):
            self.pairs.emit(event.pairs)


def pretokenize_workers() -> int | None:
    """Processes for pre-tokenization; None lets the core choose (one per core for large files).

    ``BPE_EXPLORER_WORKERS`` overrides the number.
    """
    value = os.environ.get("BPE_EXPLORER_WORKERS")
    return max(1, int(value)) if value else None


class LoadJob(EngineJob):
    """Pre-tokenize a corpus file and build a Trainer in the engine (returns stats)."""

    kind = Busy.LOAD.value

    def __init__(
        self, engine: Engine, path: str, special_tokens: list[str], pattern: str | None, tie_break: str
    ) -> None:
        super().__init__(
            engine, Engine.load, path, list(special_tokens), pattern, tie_break, pretokenize_workers()
        )
        self.path = path


class TrainJob(EngineJob):
    """Merge until ``vocab_size`` in the engine; records arrive in batches."""

    kind = Busy.TRAIN.value

    def __init__(
        self, engine: Engine, vocab_size: int, with_deltas: bool = True, max_merges: int = 0
    ) -> None:
        super().__init__(engine, Engine.run, int(vocab_size), TOP_K, with_deltas, int(max_merges))
        self.vocab_size = int(vocab_size)


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
    # (the job is not deleteLater'd in its thread: the last reference, in _RUNNING, goes in forget()
    # once the thread has ended, and the job is destroyed in the GUI thread with nothing running)
    thread.finished.connect(on_finished)
    thread.finished.connect(thread.deleteLater)
    process.job_started()  # the app's switch interval and GC settings while jobs run (if configured)
    _RUNNING[thread] = job
    thread.start()
    return thread


def forget(thread: QThread) -> None:
    """Called by the owner once ``thread.finished`` arrived and the thread was joined. A job whose
    thread still runs (a wait that timed out at shutdown) is kept, never destroyed under it."""
    job = _RUNNING.pop(thread, None)
    try:
        running = thread.isRunning()
    except RuntimeError:  # the C++ object is gone: the thread has ended
        running = False
    if running and job is not None:
        _LINGERING.append(job)
    process.job_finished(len(_RUNNING))


def join(thread: QThread | None) -> None:
    """Wait for a thread that has finished or is finishing, then :func:`forget` it (the owner's
    slot for ``thread.finished``; the C++ object may already be deleted, which means it is done).
    ``None`` (no thread) does nothing."""
    if thread is None:
        return
    with contextlib.suppress(RuntimeError):
        thread.wait()
    forget(thread)


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
        with contextlib.suppress(RuntimeError):
            job.cancel()
    for t in list(_RUNNING):
        with contextlib.suppress(RuntimeError):
            t.wait(timeout_ms)
        forget(t)


def tokenizer_from(tokenizer: Any, args: tuple | None) -> Any:
    """``tokenizer``, or one built here (in the worker) from the controller's ``tokenizer_args()[1:]``:
    (vocab, merges, special tokens, pattern)."""
    if tokenizer is not None:
        return tokenizer
    from bpe_gui.model.session import tokenizer_from_args

    assert args is not None
    return tokenizer_from_args(args)
