"""A :class:`core.Trainer` living in a child process, driven over a pipe.

An app that trains in a thread of its own process shares the GIL with its GUI thread: every
callback the GUI makes while a merge loop runs waits for the interpreter lock. The engine runs
the trainer in a separate process (started by :mod:`core.workers.procs`) instead, so the app's process
only sends requests and receives small, plain results (merge records, pair lists, progress).

>>> eng = Engine()                                   # doctest: +SKIP
>>> info = eng.load("corpus.txt", ["<|endoftext|>"])
>>> records = eng.steps(3)
>>> eng.run(1000, on_event=print)                    # Progress, Records and Pairs events
>>> eng.close()

Every request is a typed method of :class:`Engine` that **blocks** until the engine answers
(one round trip over the pipe; long ones, ``load``, ``run``, ``replay`` and ``undo_to``, belong
in a worker thread). One request runs at a time. Long requests deliver their events
(:class:`~core.engine.protocol.Progress`, :class:`~core.engine.protocol.Records`,
:class:`~core.engine.protocol.Pairs`) to ``on_event``, in whatever thread calls them.
:meth:`Engine.cancel` may be called from any thread: the running request stops between merges
(or pre-tokenization chunks) and raises :class:`core.Cancelled`; the trainer stays consistent.
Core errors come back as :class:`core.BPEError` with their message; if the process dies,
:class:`EngineDied` is raised and the trainer is gone. The messages themselves are in
:mod:`core.engine.protocol`, the engine's side in :mod:`core.engine.server`.

With ``lookahead``, the engine uses quiet moments to do the next merge in advance when it is an
expensive one (the first merges of a large corpus change tens of thousands of words), so that a
step asked for later answers at once; any other request first undoes it, exactly. Right after a
step (or a run) it starts at once: an app stepping back to back gets the next merge while it is
still drawing the last one, and a step asked for while that merge is under way waits for it
instead of stopping it.

:meth:`Engine.steps_view` and :meth:`Engine.undo_view` answer a step or an undo together with
what a pair table shows next, in one round trip: nothing else is asked after a step, so the merge
done ahead is not undone again by the app's own follow-up questions.

Nothing here imports Qt.
"""

from __future__ import annotations

import atexit
import contextlib
import threading
import time
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from core import errors
from core.engine.protocol import (
    TOP_K,
    Crashed,
    Done,
    Event,
    ExtendInfo,
    Failed,
    LoadInfo,
    Op,
    Request,
    StepsView,
    Stopped,
    UndoToView,
    UndoView,
)
from core.engine.server import child_main
from core.errors import BPEError, Cancelled
from core.workers.exit_codes import exit_reason
from core.workers.procs import Child, ChildError, SharedFlag

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from core.formats.spec import TokenizerSpec
    from core.pretokenization.pretokenize import CorpusStats
    from core.training.past_pairs import PastPairs
    from core.training.records import MergeRecord, Pair, TieBreak
    from core.training.views import WordView

__all__ = ["TOP_K", "Engine", "EngineDied", "Event", "EventHandler", "Op"]

WATCH_INTERVAL = 0.5  # seconds between checks that the engine process still runs, while waiting
STOPPED_GRACE = 10.0  # seconds a stopped (SIGSTOP) engine is waited for before it is given up

EventHandler = Callable[[Event], None]
CancelCheck = Callable[[], bool]


#: requests that need nothing of an earlier engine: after an engine ended while idle, they start a new one
FRESH_START = frozenset({Op.LOAD, Op.EXTEND, Op.DROP, Op.PING})


class EngineDied(BPEError):
    """The engine process ended unexpectedly (killed, out of memory, ...); its trainer is lost."""


_ALL: weakref.WeakSet[Engine] = weakref.WeakSet()


class Engine:
    """A handle on an engine process (started on first use, or at once with ``start=True``).

    Every request method blocks until the engine has answered (see the module docstring).
    """

    def __init__(
        self, *, niceness: int = 0, start: bool = False, lookahead: tuple[int, float] | None = None
    ) -> None:
        """``lookahead=(min_words, quiet_seconds)``: after that long without a request, the engine
        does the next merge in advance when it may change at least ``min_words`` distinct words,
        so that the next step returns at once (nothing else can tell it happened)."""
        self.niceness = niceness
        self.lookahead = lookahead
        self._proc: Child | None = None
        self._conn: Connection | None = None
        self._cancel: SharedFlag | None = None
        self._lock = threading.Lock()  # one request at a time
        _ALL.add(self)
        if start:
            self.start()

    # -------------------------------------------------------------- process
    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.is_alive()

    def start(self) -> None:
        """Start the process (returns at once; the child imports the core in the background)."""
        if self.alive:
            return
        # our own entry point (core.workers.procs), not multiprocessing's "spawn": the engine never runs
        # the caller's __main__ (a script without a main guard), and nothing is forked under Qt
        if self._cancel is not None:
            self._cancel.close()
        self._cancel = SharedFlag()
        fds = (self._cancel.fd,) if self._cancel.fd >= 0 else ()
        self._proc = Child(
            child_main,
            (self._cancel.handle(), self.niceness, self.lookahead),
            name="bpe-engine",
            pass_fds=fds,
        )
        self._conn = None  # connected on first use (the child imports the core in the background)

    def close(self, timeout: float = 5.0) -> None:
        """Stop the process (cancelling a running request); the trainer is gone afterwards."""
        proc = self._proc
        if proc is None:
            return
        self.cancel()
        got = self._lock.acquire(timeout=timeout)  # a request in another thread ends on cancel
        try:
            self._proc = self._conn = None
            if got and proc.connected:  # ask it to quit
                with contextlib.suppress(BrokenPipeError, OSError):
                    proc.conn.send(Request(Op.QUIT))
            else:  # never connected, or a request is stuck: end the process
                proc.terminate()
            proc.join(timeout)
            if proc.is_alive():  # SIGKILL: also ends a stopped (SIGSTOP) process, where SIGTERM waits
                proc.kill()
                proc.join(timeout)
            if got:
                proc.close()
        finally:
            if got:
                self._lock.release()

    def cancel(self) -> None:
        """Ask the running request to stop (thread-safe; a no-op when nothing runs)."""
        if self._cancel is not None:
            self._cancel.value = 1

    # -------------------------------------------------------------- long requests (with events)
    def load(
        self,
        path: str,
        special_tokens: list[str],
        pattern: str | None = "gpt2",
        tie_break: TieBreak = "lexicographic",
        workers: int | None = None,
        *,
        on_event: EventHandler | None = None,
        cancelled: CancelCheck | None = None,
    ) -> LoadInfo:
        """Build the engine's trainer from a corpus (or a ``.parquet`` counts file); blocks until
        it is built. Progress events. A failed or cancelled load keeps the trainer there was."""
        return self.call_blocking(
            Op.LOAD,
            path,
            list(special_tokens),
            pattern,
            tie_break,
            workers,
            on_event=on_event,
            cancelled=cancelled,
        )

    def extend(
        self,
        base: TokenizerSpec,
        path: str,
        tie_break: TieBreak = "lexicographic",
        workers: int | None = None,
        *,
        on_event: EventHandler | None = None,
        cancelled: CancelCheck | None = None,
    ) -> ExtendInfo:
        """Build the engine's trainer as an extension of ``base`` (a byte-level tokenizer's spec)
        learning new merges on the corpus ``path``; blocks until it is built. Progress events. The
        trainer's merges are the new ones only (ranks from 0), their ids follow the base's; a failed
        or cancelled one keeps the trainer there was."""
        return self.call_blocking(
            Op.EXTEND, base, str(path), tie_break, workers, on_event=on_event, cancelled=cancelled
        )

    def run(
        self,
        vocab_size: int,
        top_k: int = TOP_K,
        with_deltas: bool = True,
        max_merges: int = 0,
        *,
        on_event: EventHandler | None = None,
        cancelled: CancelCheck | None = None,
    ) -> int:
        """Merge until ``vocab_size`` (or ``max_merges`` merges, when not 0); blocks until done and
        returns the number of merges made. Progress, Records (without deltas when ``with_deltas`` is
        False) and Pairs events."""
        return self.call_blocking(
            Op.RUN,
            int(vocab_size),
            top_k,
            with_deltas,
            int(max_merges),
            on_event=on_event,
            cancelled=cancelled,
        )

    def replay(
        self, pairs: list[Pair], *, on_event: EventHandler | None = None, cancelled: CancelCheck | None = None
    ) -> int:
        """Merge ``pairs`` in order (reopening a session); blocks until done. Progress and Records."""
        return self.call_blocking(Op.REPLAY, list(pairs), on_event=on_event, cancelled=cancelled)

    def undo_to(
        self,
        keep: int,
        k: int = TOP_K,
        *,
        on_event: EventHandler | None = None,
        cancelled: CancelCheck | None = None,
    ) -> UndoToView:
        """Undo merges until ``keep`` are left; blocks until done; the pair view after it."""
        return self.call_blocking(Op.UNDO_TO, int(keep), k, on_event=on_event, cancelled=cancelled)

    # -------------------------------------------------------------- quick requests (round trips)
    def steps(self, n: int = 1) -> list[MergeRecord]:
        """Up to ``n`` merges (blocks until they are made)."""
        return self.call_blocking(Op.STEPS, n)

    def steps_view(self, n: int = 1, k: int = TOP_K) -> StepsView:
        """Up to ``n`` merges and the ``k`` best pairs after them, in one round trip."""
        return self.call_blocking(Op.STEPS_VIEW, n, k)

    def undo(self, record: MergeRecord | None = None) -> MergeRecord | None:
        """Undo the last merge (``record`` may name it); None when there is none."""
        return self.call_blocking(Op.UNDO, *(() if record is None else (record,)))

    def undo_view(self, k: int = TOP_K) -> UndoView:
        """Undo the last merge and answer the ``k`` best pairs after it, in one round trip."""
        return self.call_blocking(Op.UNDO_VIEW, k)

    def drop(self) -> None:
        """Forget the trainer (frees its memory)."""
        self.call_blocking(Op.DROP)

    def spec(self, corpus_name: str | None = None) -> TokenizerSpec:
        """The tokenizer as trained so far (never including a merge done ahead)."""
        return self.call_blocking(Op.SPEC, *(() if corpus_name is None else (corpus_name,)))

    def ping(self) -> str:
        """``"pong"`` once the engine answers (starts it if needed)."""
        return self.call_blocking(Op.PING)

    def top_pairs(self, k: int = TOP_K) -> list[tuple[Pair, int]]:
        return self.call_blocking(Op.TOP_PAIRS, k)

    def n_pairs_with_count(self, count: int) -> int:
        return self.call_blocking(Op.N_PAIRS_WITH_COUNT, count)

    def next_pair(self) -> tuple[Pair, int] | None:
        return self.call_blocking(Op.NEXT_PAIR)

    def next_step_size(self) -> int:
        """Distinct words the next merge changes (0 when the engine has already done it ahead)."""
        return self.call_blocking(Op.NEXT_STEP_SIZE)

    def changed_words(
        self, rank: int, limit: int | None = 50
    ) -> list[tuple[bytes, tuple[bytes, ...], tuple[bytes, ...], int]]:
        return self.call_blocking(Op.CHANGED_WORDS, rank, limit)

    def pairs_before(self, rank: int, k: int = TOP_K) -> PastPairs:
        """The ``k`` most frequent pairs just before merge ``rank`` (see :meth:`Trainer.pairs_before`)."""
        return self.call_blocking(Op.PAIRS_BEFORE, rank, k)

    def record(self, rank: int) -> MergeRecord | None:
        """Merge ``rank``'s record with its pair-count changes, which :meth:`run` and :meth:`replay`
        leave out of the records they send; None for a merge the trainer does not have."""
        return self.call_blocking(Op.RECORD, rank)

    def words_with_pair(self, pair: Pair, limit: int | None = 50) -> list[WordView]:
        return self.call_blocking(Op.WORDS_WITH_PAIR, pair, limit)

    def words_with_token(self, token: bytes, limit: int | None = 50) -> list[WordView]:
        return self.call_blocking(Op.WORDS_WITH_TOKEN, token, limit)

    def pair_count(self, pair: Pair) -> int:
        return self.call_blocking(Op.PAIR_COUNT, pair)

    def merge(self, pair: Pair) -> MergeRecord:
        """Merge ``pair`` (it must occur)."""
        return self.call_blocking(Op.MERGE, pair)

    # the trainer's attributes (each one a round trip)
    def merges(self) -> list[Pair]:
        return self.call_blocking(Op.MERGES)

    def vocab(self) -> dict[int, bytes]:
        return self.call_blocking(Op.VOCAB)

    def vocab_size(self) -> int:
        return self.call_blocking(Op.VOCAB_SIZE)

    def n_merges(self) -> int:
        return self.call_blocking(Op.N_MERGES)

    def records(self) -> list[MergeRecord]:
        return self.call_blocking(Op.RECORDS)

    def stats(self) -> CorpusStats:
        return self.call_blocking(Op.STATS)

    def special_tokens(self) -> list[str]:
        return self.call_blocking(Op.SPECIAL_TOKENS)

    def pattern(self) -> str | None:
        return self.call_blocking(Op.PATTERN)

    def tie_break(self) -> TieBreak:
        return self.call_blocking(Op.TIE_BREAK)

    # -------------------------------------------------------------- the round trip
    def call_blocking(
        self, op: Op, *args: Any, on_event: EventHandler | None = None, cancelled: CancelCheck | None = None
    ) -> Any:
        """Send one request and wait for its reply, passing its events to ``on_event(event)``.

        The typed methods above are the interface; this is what each of them does. Raises
        :class:`core.Cancelled` when :meth:`cancel` stopped it, :class:`core.BPEError` with the
        core's message for a user error, :class:`EngineDied` if the process ended, RuntimeError
        when another request is running. ``cancelled()`` is asked once the request is sent, so
        that a cancel made while it was being started is not lost.
        """
        return self._exchange(Request(Op(op), args), on_event, cancelled)

    def _exchange(
        self, request: Request, on_event: EventHandler | None, cancelled: CancelCheck | None
    ) -> Any:
        if not self._lock.acquire(blocking=False):
            raise RuntimeError("the engine is busy with another request")
        try:
            if not self.alive:
                if self._proc is not None:  # it ended while idle
                    died = self._died()
                    if request.op not in FRESH_START:  # the request needs the trainer that died with it
                        raise died
                self.start()
            proc, flag = self._proc, self._cancel
            if proc is None or flag is None:  # pragma: no cover - start() sets both
                raise EngineDied("the training engine could not start", code="engine_not_started")
            flag.value = 0
            try:
                conn = self._conn = proc.conn
            except ChildError as e:  # it could not start: say so now (nothing is retried)
                self._proc = None
                raise EngineDied(
                    f"the training engine could not start: {e}", code="engine_start_failed", cause=e
                ) from e
            failure: BaseException | None = None  # from on_event: raised once the reply is read
            try:
                conn.send(request)
                if cancelled is not None and cancelled():
                    flag.value = 1
                while True:
                    self._wait_for_reply(conn)
                    try:
                        message = conn.recv()
                    except (EOFError, OSError):
                        raise
                    except Exception as e:  # an unreadable message: the pipe is out of step
                        self._abandon()
                        raise EngineDied(
                            f"the training engine sent an unreadable reply ({e}); "
                            "the loaded corpus is gone, open it again",
                            code="engine_bad_reply",
                            detail=str(e),
                        ) from e
                    if isinstance(message, Done):
                        if failure is not None:
                            raise failure
                        return message.value
                    if isinstance(message, Stopped):
                        raise Cancelled(message.message)
                    if isinstance(message, Failed):
                        cls = getattr(errors, message.error, BPEError)
                        raise (cls if isinstance(cls, type) and issubclass(cls, BPEError) else BPEError)(
                            message.message, code=message.code, **message.params
                        )
                    if isinstance(message, Crashed):
                        raise RuntimeError(f"unexpected error in the engine process:\n{message.traceback}")
                    if on_event is not None and failure is None:
                        try:
                            on_event(message)
                        except BaseException as e:
                            failure = e
            except (EOFError, OSError) as e:
                raise self._died() from e
        finally:
            self._lock.release()

    def _wait_for_reply(self, conn: Connection) -> None:
        """Wait until a message can be read; never for ever: a process that ended (with its pipe
        still held open elsewhere) or that stays stopped (SIGSTOP, Ctrl+Z) raises EngineDied."""
        stopped_since = None
        while not conn.poll(WATCH_INTERVAL):
            proc = self._proc
            if proc is None or not proc.is_alive():
                raise EOFError("the engine process ended")
            if proc.is_stopped():
                stopped_since = stopped_since or time.monotonic()
                if time.monotonic() - stopped_since > STOPPED_GRACE:
                    self._abandon(kill=True)
                    raise EngineDied(
                        f"the training engine process was stopped (SIGSTOP) for more than "
                        f"{STOPPED_GRACE:.0f} s and has been ended; the loaded corpus is gone, "
                        "open it again",
                        code="engine_stopped",
                        seconds=round(STOPPED_GRACE),
                    )
            else:
                stopped_since = None

    def _abandon(self, kill: bool = False) -> None:
        """Stop a process whose pipe is out of step (called with the lock held)."""
        proc = self._proc
        self._proc = self._conn = None
        if proc is not None:
            if kill:
                proc.kill()
            else:
                proc.terminate()
            proc.join(2.0)
            proc.close()

    def _died(self) -> EngineDied:
        proc = self._proc
        code = None
        if proc is not None:
            proc.join(1.0)
            code = proc.exitcode
            self._proc = None
            proc.close()
            self._conn = None
        return EngineDied(
            f"the training engine stopped unexpectedly ({exit_reason(code)}); "
            "the loaded corpus is gone, open it again",
            code="engine_died",
            exit_code=code,
        )


@atexit.register
def _close_all() -> None:
    # an engine waiting for requests ends when its pipe closes; closing it here ends it at once
    for eng in list(_ALL):
        with contextlib.suppress(Exception):
            eng.close(timeout=2.0)
