"""Worker processes that each read their own byte ranges of files: the parent sends small task
tuples (a range is two numbers) and gets small results back, in task order.

The encoders that scale with the cores use it: :mod:`core.tokenization.npy_ranges` (each worker
writes its ids to a file of its own) and :mod:`core.evaluation.evaluate` (each worker sends back the
counts of a range, not its ids). A worker builds its handler once, ``make(setup)`` (``setup`` is
pickled once for all the workers: a tokenizer's vocab and merges are not pickled again per
process), and runs ``handler(*task)`` for each task.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection
from typing import Any

from core.pretokenization.sharded_count import Waiter
from core.workers.parallel import lower_priority
from core.workers.procs import Child, ChildError, send_error

DEPTH = 2  # tasks a worker may hold at once (one runs, one waits: no idle gap)
_POLL_S = 0.05
# a task with more bytes than this waits for an idle worker (a pipe holds about 200 kB each way)
DATA_TASK_BYTES = 1 << 14


def _carries_data(task: tuple) -> bool:
    """Whether ``task`` holds enough bytes that sending it may block until the worker reads it."""
    return sum(len(x) for x in task if isinstance(x, (bytes, bytearray, memoryview, str))) > DATA_TASK_BYTES


def _serve(conn: Connection, make: Callable[[Any], Callable[..., Any]], setup: bytes, niceness: int) -> None:
    """A worker: ``handler = make(pickle.loads(setup))``, then ``("done", i, handler(*task))`` for
    each ``(i, task)`` until the parent closes the pipe (an error is sent back as ``("error", e, tb)``)."""
    lower_priority(niceness)
    handler: Callable[..., Any] | None = None
    failed: BaseException | None = None
    try:
        handler = make(pickle.loads(setup))
    except BaseException as e:
        failed = e
    while True:
        try:
            i, task = conn.recv()
        except (EOFError, OSError):
            return
        try:
            if failed is not None:
                raise failed
            assert handler is not None
            conn.send(("done", i, handler(*task)))
        except BaseException as e:
            if not send_error(conn, e):
                return


class RangeWorkers:
    """``workers`` processes running ``make(setup)``'s handler on tasks; a context manager (the
    processes end when it is left, at once when an exception leaves it: e.g. a cancel)."""

    def __init__(
        self,
        make: Callable[[Any], Callable[..., Any]],
        setup: Any,
        workers: int,
        *,
        niceness: int = 0,
        name: str = "bpe-encoder",
    ) -> None:
        blob = pickle.dumps(setup, pickle.HIGHEST_PROTOCOL)
        self.children: list[Child] = []
        try:
            for _ in range(max(1, workers)):
                self.children.append(Child(_serve, (make, blob, niceness), name=name))
        except BaseException:
            self._end(False)
            raise

    def __enter__(self) -> RangeWorkers:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        self._end(exc_type is None)

    def _end(self, ok: bool) -> None:
        for child in self.children:
            child.close()  # the child sees EOF and ends
            if not ok:
                child.terminate()
        for child in self.children:
            child.join(5)
            child.terminate()
            child.join(5)

    def run(self, tasks: Iterable[tuple], poll: Callable[[], None] | None = None) -> Iterator[Any]:
        """The handlers' results of ``tasks``, in task order (tasks are handed out as workers free
        up, up to :data:`DEPTH` each; a task carrying more than :data:`DATA_TASK_BYTES` only to an
        idle worker). ``poll()`` is called while waiting (at least every 50 ms); it may raise (e.g.
        :class:`core.Cancelled`)."""
        conns = [c.conn for c in self.children]
        held = dict.fromkeys(conns, 0)
        todo = enumerate(tasks)
        exhausted = False
        pending: tuple[int, tuple] | None = None  # taken from tasks, not yet sent
        finished: dict[int, Any] = {}  # done, waiting for an earlier task
        nxt = sent = 0
        with Waiter(conns) as waiter:
            while True:
                for conn in conns:
                    while held[conn] < DEPTH:
                        if pending is None:
                            if exhausted:
                                break
                            try:
                                pending = next(todo)
                            except StopIteration:
                                exhausted = True
                                break
                        # a task that carries data (a block of text in memory) goes only to a worker
                        # that waits for one: sent to a busy worker, it filled the pipe while the
                        # worker, done, was sending a large result back, and both waited for ever
                        if held[conn] and _carries_data(pending[1]):
                            break
                        conn.send(pending)
                        pending = None
                        held[conn] += 1
                        sent += 1
                while nxt in finished:
                    yield finished.pop(nxt)
                    nxt += 1
                if exhausted and nxt == sent:
                    return
                ready = waiter.ready(_POLL_S)
                for conn in ready:
                    try:
                        reply = conn.recv()
                    except (EOFError, OSError):
                        raise self._died(conn) from None
                    if reply[0] == "error":
                        raise reply[1]
                    held[conn] -= 1
                    finished[reply[1]] = reply[2]
                if not ready and poll is not None:
                    poll()

    def _died(self, conn: Connection) -> ChildError:
        child = next(c for c in self.children if c.connected and c.conn is conn)
        child.join(1)
        code = child.exitcode
        return ChildError(
            f"a worker process ended unexpectedly (exit code {code}"
            f"{'; killed: out of memory?' if (code or 0) < 0 else ''})"
        )
