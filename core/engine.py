"""A :class:`core.Trainer` living in a child process, driven over a pipe.

An app that trains in a thread of its own process shares the GIL with its GUI thread: every
callback the GUI makes while a merge loop runs waits for the interpreter lock. The engine runs
the trainer in a separate process (started by :mod:`core.procs`) instead, so the app's process
only sends requests and receives small, plain results (merge records, pair lists, progress).

>>> eng = Engine()                                   # doctest: +SKIP
>>> stats = eng.call("load", "corpus.txt", ["<|endoftext|>"])
>>> records = eng.call("steps", 3)
>>> eng.stream("run", 1000, on_event=print)          # progress, record batches, pair snapshots
>>> eng.close()

One request runs at a time. :meth:`Engine.call` returns the result; :meth:`Engine.stream` also
delivers the events of a long request (``("progress", (phase, done, total))``,
``("records", [MergeRecord, ...])``, ``("pairs", [(pair, count), ...])``) to a callback, in
whatever thread calls it. :meth:`Engine.cancel` may be called from any thread: the running
request stops between merges (or pre-tokenization chunks) and raises :class:`core.Cancelled`;
the trainer stays consistent. Core errors come back as :class:`core.BPEError` with their
message; if the process dies, :class:`EngineDied` is raised and the trainer is gone.

With ``lookahead``, the engine uses quiet moments to do the next merge in advance when it is an
expensive one (the first merges of a large corpus change tens of thousands of words), so that a
step asked for later answers at once; any other request first undoes it, exactly. Right after a
step (or a run) it starts at once: an app stepping back to back gets the next merge while it is
still drawing the last one, and a step asked for while that merge is under way waits for it
instead of stopping it.

``steps_view`` and ``undo_view`` answer a step or an undo together with what a pair table shows
next (:meth:`_Server.view`), in one round trip: nothing else is asked after a step, so the merge
done ahead is not undone again by the app's own follow-up questions.

Nothing here imports Qt.
"""
from __future__ import annotations

import atexit
import contextlib
import gc
import threading
import time
import traceback
import weakref
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from . import errors
from .errors import BPEError, Cancelled
from .procs import Child, ChildError, SharedFlag

PROGRESS_INTERVAL = 0.1  # seconds between progress events (and record batches) of a request
PAIRS_INTERVAL = 1.0  # seconds between pair snapshots during a run
TOP_K = 100
WATCH_INTERVAL = 0.5  # seconds between checks that the engine process still runs, while waiting
STOPPED_GRACE = 10.0  # seconds a stopped (SIGSTOP) engine is waited for before it is given up

# Trainer methods and attributes a client may use directly (all return plain, picklable data)
_METHODS = frozenset({"steps", "undo", "top_pairs", "n_pairs_with_count", "next_pair", "changed_words",
                      "words_with_pair", "words_with_token", "pair_count", "merge",
                      "next_step_size"})
_ATTRIBUTES = frozenset({"merges", "vocab", "vocab_size", "n_merges", "records", "stats",
                         "special_tokens", "pattern", "tie_break"})


# requests that only read pair counts or the merge list (answered before an undo's words are back)
_WORDS_FREE = frozenset({"n_pairs_with_count", "pair_count", "merges", "vocab", "vocab_size", "n_merges",
                         "records", "stats", "special_tokens", "pattern", "tie_break", "ping"})
AFTER_QUIET = 0.03  # seconds without a request before the rest of an undo is done anyway
# requests that a merge done ahead serves (one under way is finished, not stopped, when they come)
_AHEAD_SERVES = frozenset({"steps", "steps_view", "next_step_size"})


class EngineDied(BPEError):
    """The engine process ended unexpectedly (killed, out of memory, ...); its trainer is lost."""


# --------------------------------------------------------------------------- the child process
class _Server:
    """The child side: one trainer, one request at a time."""

    def __init__(self, conn, cancel_event, niceness: int, lookahead: tuple[int, float] | None = None) -> None:
        self.conn = conn
        self.cancel_flag = cancel_event  # a shared byte (no lock: a killed process cannot hold it)
        self.niceness = niceness
        self.lookahead = lookahead
        self.trainer = None
        self.ahead = None  # the record of a merge done in advance (see _look_ahead)
        self.eager = False  # look ahead without waiting for quiet (right after a step or a run)
        self._stash = None  # a request read while looking ahead, handled next
        self._after: Callable[[], None] | None = None
        self._last = 0.0
        self._tick: Callable[[float], None] | None = None  # called before each progress event

    # -------------------------------------------------------------- plumbing
    def serve(self) -> None:
        from .parallel import lower_priority

        lower_priority(self.niceness)
        # No cyclic garbage collection here, except once after each load (below): the trainer
        # makes no reference cycles, and a collection walks every word tuple created since the
        # last one (100-300 ms after a few dozen merges of a 40 MB corpus), which delayed the end
        # of runs, cancels and the next steps.
        gc.disable()
        while True:
            try:
                if self._after is not None and not self.conn.poll(AFTER_QUIET):
                    self._finish_after()
                if self.lookahead is not None and self.ahead is None and self._after is None \
                        and self.trainer is not None and self._stash is None \
                        and not self.conn.poll(0 if self.eager else self.lookahead[1]):
                    self._look_ahead()
                self.eager = False
                if self._stash is not None:
                    (op, args), self._stash = self._stash, None
                else:
                    op, args = self.conn.recv()
            except (EOFError, OSError):  # the app closed the pipe or died
                return
            if op == "quit":
                return
            if self._after is not None and not self._words_free(op):
                self._finish_after()
            try:
                value = self.handle(op, args)
            except Cancelled as e:
                self._send(("cancelled", str(e)))
            except BPEError as e:
                self._send(("error", (type(e).__name__, str(e))))
            except Exception:
                self._send(("crash", traceback.format_exc()))
            else:
                self._send(("done", value))
                self.eager = op in ("steps", "steps_view", "run")

    def _send(self, message) -> None:
        try:
            self.conn.send(message)
        except (BrokenPipeError, OSError):  # the app is gone: nothing left to do
            raise SystemExit(0) from None

    def _need_trainer(self):
        if self.trainer is None:
            raise BPEError("no corpus is loaded")
        return self.trainer

    def _progress(self, phase: str, done: int, total: int, *, force: bool = False) -> bool:
        """The core's progress callback: False when cancelled; throttled progress events."""
        if self.cancelled():
            return False
        now = time.monotonic()
        if force or now - self._last >= PROGRESS_INTERVAL or (total and done >= total):
            self._last = now
            if self._tick is not None:
                self._tick(now)
            self._send(("progress", (phase, int(done), int(total))))
        return True

    def cancelled(self) -> bool:
        return self.cancel_flag.value != 0

    def _finish_after(self) -> None:
        after, self._after = self._after, None
        after()

    def _words_free(self, op: str) -> bool:
        """Whether a request can be answered while an undo's words are not back yet."""
        if op in ("top_pairs", "next_pair", "next_step_size"):  # the "first" rule looks at words
            return self.trainer is not None and self.trainer.tie_break == "lexicographic"
        return op in _WORDS_FREE

    def _look_ahead(self) -> None:
        """While the app is quiet, do the next merge in advance if it is a big one.

        A step then answers at once. Any other request first undoes it (exactly, in about a
        millisecond), so nothing else ever sees it; such a request arriving during the merge
        stops it (rolled back) within a few milliseconds, while a step lets it finish and takes it.
        """
        t = self.trainer
        if t.next_step_size() < self.lookahead[0]:
            return
        try:
            self.ahead = t.step(interrupt=self._request_stops_merge)
        except Cancelled:  # a request came in
            self.ahead = None
        except Exception:
            self.ahead = None
            self.lookahead = None

    def _request_stops_merge(self) -> bool:
        """The interrupt of a merge done ahead: read a request that came in (it is handled
        next) and say whether the merge must stop for it (anything but a step)."""
        if self._stash is None:
            try:
                if not self.conn.poll():
                    return False
                self._stash = self.conn.recv()
            except (EOFError, OSError):  # the app is gone
                self._stash = ("quit", ())
        return self._stash[0] not in _AHEAD_SERVES

    def _forget_ahead(self) -> None:
        if self.ahead is not None:
            self.trainer.undo(self.ahead)
            self.ahead = None

    # -------------------------------------------------------------- requests
    def handle(self, op: str, args: tuple) -> Any:
        self._last = 0.0
        self._tick = None
        if op in ("steps", "steps_view"):
            records = self.steps(*args[:1])
            return records if op == "steps" else {"records": records, **self.view(*args[1:])}
        if self.ahead is not None:
            if op == "next_step_size":
                return 0  # the next step is already done
            self._forget_ahead()
        if op == "undo":  # answer first, then put the words back (before the next request that needs them)
            rec, self._after = self._need_trainer().undo_in_two(*args)
            return rec
        if op == "undo_view":
            rec, self._after = self._need_trainer().undo_in_two()
            if not self._words_free("top_pairs"):  # the "first" tie rule reads the words
                self._finish_after()
            return {"record": rec, **self.view(*args)}
        if op == "undo_to":  # rewind: undo merges until ``keep`` are left, then the pair view
            t = self._need_trainer()
            # (a reset restores the start; the undone history is freed after the answer, in a thread)
            undone, self._after = t.undo_to_in_two(int(args[0]), background=True)
            return {"undone": undone, **self.view(*args[1:])}
        if op == "replay":
            return self.replay(*args)
        if op == "load":
            return self.load(*args)
        if op == "run":
            return self.run(*args)
        if op == "drop":
            self.trainer = None
            gc.collect()
            return None
        if op == "spec":
            from .spec import spec_from_trainer

            return spec_from_trainer(self._need_trainer(), *args)
        if op == "ping":
            return "pong"
        if op in _METHODS:
            return getattr(self._need_trainer(), op)(*args)
        if op in _ATTRIBUTES:
            value = getattr(self._need_trainer(), op)
            return list(value) if isinstance(value, list) else value
        raise BPEError(f"unknown engine request {op!r}")

    def steps(self, n: int = 1) -> list:
        """Up to ``n`` merges, the first of them the one done ahead if there is one."""
        t = self._need_trainer()
        if self.ahead is not None and n < 1:
            self._forget_ahead()  # nothing to take it: a view after this must not show it
        if self.ahead is None:
            return t.steps(n)
        first, self.ahead = self.ahead, None
        return [first] + (t.steps(n - 1) if n > 1 else [])

    def view(self, k: int = TOP_K) -> dict:
        """What a pair table shows: the ``k`` best pairs and how many pairs tie with the best."""
        t = self.trainer
        top = t.top_pairs(k)
        return {"top_pairs": top, "n_best": t.n_pairs_with_count(top[0][1]) if top else 0}

    def load(self, path, special_tokens, pattern="gpt2", tie_break="lexicographic", workers=None) -> dict:
        from .trainer import Trainer

        if str(path).lower().endswith(".parquet"):  # a counts file (``bpe-explorer count``)
            from .counts import trainer_from_counts

            trainer = trainer_from_counts(path, special_tokens, pattern=pattern, tie_break=tie_break)
        else:
            trainer = Trainer.from_file(path, special_tokens, pattern=pattern, tie_break=tie_break,
                                        workers=workers, progress=self._progress)
        if self.cancelled():  # cancelled while the trainer was being built: keep the old one
            raise Cancelled("loading cancelled")
        self.trainer = None  # free the old trainer before the collection below
        self.trainer = trainer
        import numpy  # noqa: F401 - used by big merges; importing it now keeps 0.1-0.2 s out of a step
        # the trainer's objects are long-lived: collect the old trainer's garbage once and keep
        # the new one out of any later collection
        gc.collect()
        gc.freeze()
        return {"stats": trainer.stats, "special_tokens": list(trainer.special_tokens),
                "vocab_size": trainer.vocab_size}

    def run(self, vocab_size: int, top_k: int = TOP_K, with_deltas: bool = True) -> int:
        """Merge until ``vocab_size``; records go out in batches with the progress events.

        ``with_deltas=False`` sends the records without their pair-count changes (a 10k run's
        deltas are 0.5 million entries, ~70 MB in the app, which needs them only for single steps).
        """
        t = self._need_trainer()
        start = sent = len(t.records)
        last_pairs = 0.0

        def tick(now: float) -> None:
            nonlocal sent, last_pairs
            recs = t.records
            if len(recs) > sent:
                batch, sent = recs[sent:], len(recs)
                if not with_deltas:
                    batch = [replace(r, deltas=()) for r in batch]
                self._send(("records", batch))
            if now - last_pairs >= PAIRS_INTERVAL:
                last_pairs = now
                self._send(("pairs", t.top_pairs(top_k)))

        self._tick = tick
        try:
            t.run(vocab_size, progress=self._progress, min_interval=1, interrupt=self.cancelled)
        finally:
            tick(0.0)  # the last batch always goes out (also when cancelled)
        return len(t.records) - start


    def replay(self, pairs: list) -> int:
        """Merge ``pairs`` in order (reopening a session); records go out in batches like a run's."""
        t = self._need_trainer()
        sent = start = len(t.records)

        def tick(_now: float) -> None:
            nonlocal sent
            if len(t.records) > sent:
                batch, sent = t.records[sent:], len(t.records)
                self._send(("records", [replace(r, deltas=()) for r in batch]))

        self._tick = tick
        try:
            for i, pair in enumerate(pairs):
                if not self._progress("merge", i, len(pairs)):
                    raise Cancelled("replay cancelled")
                t.merge((bytes(pair[0]), bytes(pair[1])))
        finally:
            tick(0.0)
        return len(t.records) - start


def _serve(conn, flag_handle, niceness: int, lookahead) -> None:
    """Entry point of the engine process (started by :class:`core.procs.Child`)."""
    _Server(conn, SharedFlag.attach(flag_handle), niceness, lookahead).serve()


# --------------------------------------------------------------------------- the app side
_ALL: weakref.WeakSet[Engine] = weakref.WeakSet()


class Engine:
    """A handle on an engine process (started on first use, or at once with ``start=True``)."""

    def __init__(self, *, niceness: int = 0, start: bool = False,
                 lookahead: tuple[int, float] | None = None) -> None:
        """``lookahead=(min_words, quiet_seconds)``: after that long without a request, the engine
        does the next merge in advance when it may change at least ``min_words`` distinct words,
        so that the next step returns at once (nothing else can tell it happened)."""
        self.niceness = niceness
        self.lookahead = lookahead
        self._proc = None
        self._conn = None
        self._cancel = None
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
        # our own entry point (core.procs), not multiprocessing's "spawn": the engine never runs
        # the caller's __main__ (a script without a main guard), and nothing is forked under Qt
        if self._cancel is not None:
            self._cancel.close()
        self._cancel = SharedFlag()
        fds = (self._cancel.fd,) if self._cancel.fd >= 0 else ()
        self._proc = Child(_serve, (self._cancel.handle(), self.niceness, self.lookahead), name="bpe-engine",
                           pass_fds=fds)
        self._conn = None  # connected on first use (the child imports the core in the background)

    def close(self, timeout: float = 5.0) -> None:
        """Stop the process (cancelling a running request); the trainer is gone afterwards."""
        proc = self._proc
        if proc is None:
            return
        if self._cancel is not None:
            self._cancel.value = 1
        got = self._lock.acquire(timeout=timeout)  # a request in another thread ends on cancel
        try:
            self._proc = self._conn = None
            if got and proc.connected:  # ask it to quit
                with contextlib.suppress(BrokenPipeError, OSError):
                    proc.conn.send(("quit", ()))
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

    # -------------------------------------------------------------- requests
    def call(self, op: str, *args) -> Any:
        """Run one request and return its result (events of long requests are dropped)."""
        return self.stream(op, *args)

    def stream(self, op: str, *args, on_event: Callable[[str, Any], None] | None = None,
               cancelled: Callable[[], bool] | None = None) -> Any:
        """Run one request, passing its events to ``on_event(kind, payload)``; return its result.

        Raises :class:`core.Cancelled` when :meth:`cancel` stopped it, :class:`core.BPEError`
        with the core's message for a user error, :class:`EngineDied` if the process ended.
        ``cancelled()`` is asked once the request is sent, so that a cancel made while it was
        being started is not lost.
        """
        if not self._lock.acquire(blocking=False):
            raise RuntimeError("the engine is busy with another request")
        try:
            if not self.alive:
                if self._proc is not None:
                    raise self._died()
                self.start()
            self._cancel.value = 0
            try:
                conn = self._conn = self._proc.conn
            except ChildError as e:  # it could not start: say so now (nothing is retried)
                self._proc = None
                raise EngineDied(f"the training engine could not start: {e}") from e
            failure: BaseException | None = None  # from on_event: raised once the reply is read
            try:
                conn.send((op, args))
                if cancelled is not None and cancelled():
                    self._cancel.value = 1
                while True:
                    self._wait_for_reply(conn)
                    try:
                        kind, payload = conn.recv()
                    except (EOFError, OSError):
                        raise
                    except Exception as e:  # an unreadable message: the pipe is out of step
                        self._abandon()
                        raise EngineDied(f"the training engine sent an unreadable reply ({e}); "
                                         "the loaded corpus is gone, open it again") from e
                    if kind == "done":
                        if failure is not None:
                            raise failure
                        return payload
                    if kind == "cancelled":
                        raise Cancelled(payload)
                    if kind == "error":
                        name, message = payload
                        cls = getattr(errors, name, BPEError)
                        raise (cls if isinstance(cls, type) and issubclass(cls, BPEError) else BPEError)(message)
                    if kind == "crash":
                        raise RuntimeError(f"unexpected error in the engine process:\n{payload}")
                    if on_event is not None and failure is None:
                        try:
                            on_event(kind, payload)
                        except BaseException as e:
                            failure = e
            except (EOFError, OSError) as e:
                raise self._died() from e
        finally:
            self._lock.release()

    def _wait_for_reply(self, conn) -> None:
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
                    raise EngineDied(f"the training engine process was stopped (SIGSTOP) for more than "
                                     f"{STOPPED_GRACE:.0f} s and has been ended; the loaded corpus is gone, "
                                     "open it again")
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
        hint = " (killed: out of memory?)" if code is not None and code < 0 else ""
        return EngineDied(f"the training engine stopped unexpectedly (exit code {code}){hint}; "
                          "the loaded corpus is gone, open it again")


@atexit.register
def _close_all() -> None:
    # an engine waiting for requests ends when its pipe closes; closing it here ends it at once
    for eng in list(_ALL):
        with contextlib.suppress(Exception):
            eng.close(timeout=2.0)
