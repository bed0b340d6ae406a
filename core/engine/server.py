"""The engine process's side of :mod:`core.engine.client`: one trainer, one request at a time.

:func:`child_main` is the process's entry point (started by :class:`core.workers.procs.Child`); it makes
the process-wide settings of the engine process and runs :meth:`EngineServer.serve`, which reads
:class:`~core.engine.protocol.Request`\\ s and answers each with its events and one reply.

Merging ahead: with ``lookahead``, the server uses quiet moments to do the next merge in advance
when it is an expensive one, so that a step asked for later answers at once; any other request
first undoes it, exactly (see :meth:`EngineServer._look_ahead`).

Nothing here imports Qt.
"""

from __future__ import annotations

import gc
import time
import traceback
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from core.engine.protocol import (
    AHEAD_SERVES,
    EAGER_AFTER,
    TOP_K,
    TRAINER_ATTRIBUTES,
    TRAINER_METHODS,
    WORDS_FREE,
    WORDS_FREE_IF_LEXICOGRAPHIC,
    Crashed,
    Done,
    ExtendInfo,
    Failed,
    LoadInfo,
    Message,
    Op,
    Pairs,
    PairView,
    Progress,
    Records,
    Request,
    StepsView,
    Stopped,
    UndoToView,
    UndoView,
)
from core.errors import BPEError, Cancelled, CorpusError
from core.workers.procs import SharedFlag

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from core.formats.spec import TokenizerSpec
    from core.training.records import MergeRecord, TieBreak
    from core.training.trainer import Trainer

PROGRESS_INTERVAL = 0.1  # seconds between progress events (and record batches) of a request
PAIRS_INTERVAL = 1.0  # seconds between pair snapshots during a run
AFTER_QUIET = 0.03  # seconds without a request before the rest of an undo is done anyway


class EngineServer:
    """The child side: one trainer, one request at a time.

    ``owns_process``: the server runs in a process of its own (:func:`child_main`) and may make
    process-wide changes (freezing the new trainer out of garbage collection after a load).
    """

    def __init__(
        self,
        conn: Connection,
        cancel_flag: Any,
        niceness: int = 0,
        lookahead: tuple[int, float] | None = None,
        *,
        owns_process: bool = False,
    ) -> None:
        self.conn = conn
        self.cancel_flag = cancel_flag  # a shared byte (no lock: a killed process cannot hold it)
        self.niceness = niceness
        self.lookahead = lookahead
        self.owns_process = owns_process
        self.trainer: Trainer | None = None
        self.ahead: MergeRecord | None = None  # the record of a merge done in advance (see _look_ahead)
        self.eager = False  # look ahead without waiting for quiet (right after a step or a run)
        self._stash: Any = None  # a request read while looking ahead, handled next
        self._after: Callable[[], None] | None = None
        self._last = 0.0
        self._tick: Callable[[float], None] | None = None  # called before each progress event
        # the requests the server answers itself (trainer methods and attributes are passed through)
        self._handlers: dict[Op, Callable[..., Any]] = {
            Op.UNDO: self.undo,
            Op.UNDO_VIEW: self.undo_view,
            Op.UNDO_TO: self.undo_to,
            Op.REPLAY: self.replay,
            Op.LOAD: self.load,
            Op.EXTEND: self.extend,
            Op.RUN: self.run,
            Op.DROP: self.drop,
            Op.SPEC: self.spec,
            Op.RECORD: self.record,
            Op.PING: lambda: "pong",
        }

    # -------------------------------------------------------------- plumbing
    def serve(self) -> None:
        while True:
            try:
                if self._after is not None and not self.conn.poll(AFTER_QUIET):
                    self._finish_after()
                if (
                    self.lookahead is not None
                    and self.ahead is None
                    and self._after is None
                    and self.trainer is not None
                    and self._stash is None
                    and not self.conn.poll(0 if self.eager else self.lookahead[1])
                ):
                    self._look_ahead()
                self.eager = False
                if self._stash is not None:
                    message, self._stash = self._stash, None
                else:
                    message = self.conn.recv()
            except (EOFError, OSError):  # the app closed the pipe or died
                return
            op = message.op if isinstance(message, Request) else None
            if op == Op.QUIT:
                return
            if self._after is not None and not self._words_free(op):
                self._finish_after()
            try:
                value = self.handle(message)
            except Cancelled as e:
                self._send(Stopped(str(e)))
            except BPEError as e:
                self._send(Failed(type(e).__name__, str(e), e.code, dict(e.params)))
            except Exception:
                self._send(Crashed(traceback.format_exc()))
            else:
                self._send(Done(value))
                self.eager = op in EAGER_AFTER

    def _send(self, message: Message) -> None:
        try:
            self.conn.send(message)
        except (BrokenPipeError, OSError):  # the app is gone: nothing left to do
            raise SystemExit(0) from None

    def _need_trainer(self) -> Trainer:
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
            self._send(Progress(phase, int(done), int(total)))
        return True

    def cancelled(self) -> bool:
        return bool(self.cancel_flag.value != 0)

    def _finish_after(self) -> None:
        after, self._after = self._after, None
        if after is not None:
            after()

    def _words_free(self, op: Op | None) -> bool:
        """Whether a request can be answered while an undo's words are not back yet."""
        if op in WORDS_FREE_IF_LEXICOGRAPHIC:  # the "first" rule looks at words
            return self.trainer is not None and self.trainer.tie_break == "lexicographic"
        return op in WORDS_FREE

    def _look_ahead(self) -> None:
        """While the app is quiet, do the next merge in advance if it is a big one.

        A step then answers at once. Any other request first undoes it (exactly, in about a
        millisecond), so nothing else ever sees it; such a request arriving during the merge
        stops it (rolled back) within a few milliseconds, while a step lets it finish and takes it.
        """
        t = self._need_trainer()
        if self.lookahead is None or t.next_step_size() < self.lookahead[0]:
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
                self._stash = Request(Op.QUIT)
        stash = self._stash
        return not (isinstance(stash, Request) and stash.op in AHEAD_SERVES)

    def _forget_ahead(self) -> None:
        if self.ahead is not None:
            self._need_trainer().undo(self.ahead)
            self.ahead = None

    # -------------------------------------------------------------- requests
    def handle(self, request: Request) -> Any:
        """Answer one request (its events go out on the way); raises what the request raised."""
        self._last = 0.0
        self._tick = None
        try:
            op, args = Op(request.op), tuple(request.args)
        except (AttributeError, TypeError, ValueError):
            raise BPEError(f"unknown engine request {getattr(request, 'op', request)!r}") from None
        if op == Op.STEPS:
            return self.steps(*args)
        if op == Op.STEPS_VIEW:
            return self.steps_view(*args)
        if self.ahead is not None:
            if op == Op.NEXT_STEP_SIZE:
                return 0  # the next step is already done
            self._forget_ahead()
        handler = self._handlers.get(op)
        if handler is not None:
            return handler(*args)
        if op in TRAINER_METHODS:
            return getattr(self._need_trainer(), op.value)(*args)
        if op in TRAINER_ATTRIBUTES:
            value = getattr(self._need_trainer(), op.value)
            return list(value) if isinstance(value, list) else value
        raise BPEError(f"unknown engine request {op.value!r}")  # pragma: no cover - Op and the tables agree

    def steps(self, n: int = 1) -> list[MergeRecord]:
        """Up to ``n`` merges, the first of them the one done ahead if there is one."""
        t = self._need_trainer()
        if self.ahead is not None and n < 1:
            self._forget_ahead()  # nothing to take it: a view after this must not show it
        if self.ahead is None:
            return t.steps(n)
        first, self.ahead = self.ahead, None
        return [first] + (t.steps(n - 1) if n > 1 else [])

    def steps_view(self, n: int = 1, k: int = TOP_K) -> StepsView:
        records = self.steps(n)
        view = self.view(k)
        return {"records": records, "top_pairs": view["top_pairs"], "n_best": view["n_best"]}

    def view(self, k: int = TOP_K) -> PairView:
        """What a pair table shows: the ``k`` best pairs and how many pairs tie with the best."""
        t = self._need_trainer()
        top = t.top_pairs(k)
        return {"top_pairs": top, "n_best": t.n_pairs_with_count(top[0][1]) if top else 0}

    def undo(self, record: MergeRecord | None = None) -> MergeRecord | None:
        """Answer first, then put the words back (before the next request that needs them)."""
        rec, self._after = self._need_trainer().undo_in_two(record)
        return rec

    def undo_view(self, k: int = TOP_K) -> UndoView:
        rec, self._after = self._need_trainer().undo_in_two()
        if not self._words_free(Op.TOP_PAIRS):  # the "first" tie rule reads the words
            self._finish_after()
        view = self.view(k)
        return {"record": rec, "top_pairs": view["top_pairs"], "n_best": view["n_best"]}

    def undo_to(self, keep: int, k: int = TOP_K) -> UndoToView:
        """Rewind: undo merges until ``keep`` are left (one summed count update, or back to the saved
        state at 0 merges and a replay, whichever costs less), then the pair view. Freeing the undone
        history starts in a thread after the answer (``_after``)."""
        undone, self._after = self._need_trainer().undo_to_in_two(int(keep), background=True)
        view = self.view(k)
        return {"undone": undone, "top_pairs": view["top_pairs"], "n_best": view["n_best"]}

    def drop(self) -> None:
        self.trainer = None
        gc.collect()

    def record(self, rank: int) -> MergeRecord | None:
        """Merge ``rank``'s record as the trainer keeps it, with its pair-count changes (a run and a
        replay send records without them); None for a merge the trainer does not have."""
        records = self._need_trainer().records
        return records[rank] if 0 <= rank < len(records) else None

    def spec(self, corpus_name: str | None = None) -> TokenizerSpec:
        from core.formats.spec import spec_from_trainer
        from core.tokenization.extend import ExtendTrainer

        t = self._need_trainer()
        if isinstance(t, ExtendTrainer):  # the base's tokens, merges and pipeline, then the new merges
            return t.to_spec(corpus_name)
        return spec_from_trainer(t, corpus_name)

    def load(
        self,
        path: str,
        special_tokens: list[str],
        pattern: str | None = "gpt2",
        tie_break: TieBreak = "lexicographic",
        workers: int | None = None,
    ) -> LoadInfo:
        from core.training.trainer import Trainer

        _refuse_stream(path)
        trainer: Trainer
        if str(path).lower().endswith(".parquet"):  # a counts file (``bpe-explorer count``)
            from core.scale.counts import trainer_from_counts

            trainer = trainer_from_counts(path, special_tokens, pattern=pattern, tie_break=tie_break)
        else:
            trainer = Trainer.from_file(
                path,
                special_tokens,
                pattern=pattern,
                tie_break=tie_break,
                workers=workers,
                progress=self._progress,
            )
        return self._install(trainer)

    def _install(self, trainer: Trainer) -> LoadInfo:
        """Make ``trainer`` the engine's (a load or an extension just built it) and say what it holds;
        cancelled while it was built, the old trainer stays."""
        if self.cancelled():
            raise Cancelled("loading cancelled")
        self.trainer = None  # free the old trainer before the collection below
        self.trainer = trainer
        import numpy  # noqa: F401 - used by big merges; imported now, while loading, not during a step

        if self.owns_process:
            # the trainer's objects are long-lived: collect the old trainer's garbage once and keep
            # the new one out of any later collection
            gc.collect()
            gc.freeze()
        return {
            "stats": trainer.stats,
            "special_tokens": list(trainer.special_tokens),
            "vocab_size": trainer.vocab_size,
            "distinct_bytes": trainer.distinct_bytes,
        }

    def extend(
        self,
        base: TokenizerSpec,
        path: str,
        tie_break: TieBreak = "lexicographic",
        workers: int | None = None,
    ) -> ExtendInfo:
        """Build an :class:`~core.tokenization.extend.ExtendTrainer` (with history: steps and undo
        work on the new merges) from a base tokenizer's spec and a corpus file. A failed or
        cancelled one keeps the trainer there was."""
        from core.tokenization.extend import ExtendTrainer

        _refuse_stream(path)
        trainer = ExtendTrainer.from_files(
            base, [path], tie_break=tie_break, keep_history=True, workers=workers, progress=self._progress
        )
        info = self._install(trainer)
        return {**info, "base_vocab_size": trainer.base_vocab_size, "base_merges": len(trainer.base.merges)}

    def run(self, vocab_size: int, top_k: int = TOP_K, with_deltas: bool = True, max_merges: int = 0) -> int:
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
                self._send(Records(batch))
            if now - last_pairs >= PAIRS_INTERVAL:
                last_pairs = now
                self._send(Pairs(t.top_pairs(top_k)))

        self._tick = tick
        try:
            t.run(
                vocab_size,
                progress=self._progress,
                min_interval=1,
                interrupt=self.cancelled,
                max_merges=max_merges or None,
            )
        finally:
            tick(0.0)  # the last batch always goes out (also when cancelled)
        return len(t.records) - start

    def replay(self, pairs: list[tuple[bytes, bytes]]) -> int:
        """Merge ``pairs`` in order (reopening a session); records go out in batches like a run's."""
        t = self._need_trainer()
        sent = start = len(t.records)

        def tick(_now: float) -> None:
            nonlocal sent
            if len(t.records) > sent:
                batch, sent = t.records[sent:], len(t.records)
                self._send(Records([replace(r, deltas=()) for r in batch]))

        self._tick = tick
        try:
            for i, pair in enumerate(pairs):
                if not self._progress("merge", i, len(pairs)):
                    raise Cancelled("replay cancelled")
                t.merge((bytes(pair[0]), bytes(pair[1])))
        finally:
            tick(0.0)
        return len(t.records) - start


def _refuse_stream(path: str) -> None:
    """The app reads its corpus again (sessions, held-out text): never a FIFO or pipe."""
    from core.pretokenization.sources import is_stream

    if is_stream(path):
        raise CorpusError(
            f"{str(path)!r} is a FIFO, pipe or device, which can be read only once; the app "
            "needs a file it can read again: save the text to a file first (the command "
            "line streams it: bpe-explorer train FILE)",
            code="corpus_stream",
            path=str(path),
        )


def child_main(
    conn: Connection, flag_handle: tuple[str, int], niceness: int, lookahead: tuple[int, float] | None
) -> None:
    """Entry point of the engine process (started by :class:`core.workers.procs.Child`).

    The process-wide settings of the engine process are made here, and only here.
    """
    from core.workers.parallel import lower_priority

    lower_priority(niceness)
    # No cyclic garbage collection in this process, except once after each load (EngineServer.load):
    # the trainer makes no reference cycles, and a collection walks every word tuple created since
    # the last one, which would delay the end of runs, cancels and the next steps.
    gc.disable()
    EngineServer(conn, SharedFlag.attach(flag_handle), niceness, lookahead, owns_process=True).serve()
