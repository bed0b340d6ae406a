"""An ordered, bounded process pool of our own children (see :mod:`core.workers.procs`: they never run the
caller's ``__main__``, and they are safe to start from a Qt thread).

>>> list(ordered_map(abs, [-1, -2, 3], workers=1))
[1, 2, 3]
"""

from __future__ import annotations

import contextlib
import os
import traceback
from collections.abc import Callable, Generator, Iterable
from multiprocessing.connection import wait
from typing import Any

from core.workers.exit_codes import exit_reason
from core.workers.procs import Child, ChildError


def lower_priority(niceness: int) -> None:
    """Worker initializer: run at a lower CPU priority (so an app's GUI thread stays responsive)."""
    if niceness and hasattr(os, "nice"):
        with contextlib.suppress(OSError):  # not permitted here: run at normal priority
            os.nice(niceness)


def _worker(conn, initializer: Callable[..., None] | None, initargs: tuple) -> None:
    """Entry point of a pool process: run tasks ``(fn, args)`` until the parent closes the pipe."""
    if initializer is not None:
        initializer(*initargs)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        fn, args = task
        reply: tuple[Any, ...]  # ("ok", value) or ("error", exception, formatted traceback)
        try:
            reply = ("ok", fn(*args))
        except BaseException as e:
            reply = ("error", e, traceback.format_exc())
        try:
            conn.send(reply)
        except (BrokenPipeError, OSError):
            return
        except Exception:
            conn.send(("error", RuntimeError(reply[-1] if reply[0] == "error" else "unpicklable result"), ""))


def ordered_map(
    fn: Callable[..., Any],
    items: Iterable[Any],
    *,
    workers: int,
    extra_args: tuple = (),
    initializer: Callable[..., None] | None = None,
    initargs: tuple = (),
    poll: Callable[[], None] | None = None,
    poll_interval: float = 0.05,
) -> Generator[Any, None, None]:
    """Yield ``fn(item, *extra_args)`` for each item, in order, computed in ``workers`` processes.

    At most ``2 × workers`` items are taken from ``items`` and not yet yielded, so a streamed input
    is never read ahead further than that (memory stays bounded). ``poll()`` is called every
    ``poll_interval`` seconds while waiting; it may raise (e.g. :class:`core.Cancelled`) to stop:
    the processes are then gone when the exception propagates. ``fn`` must be importable (top
    level). A process that cannot start or dies raises :class:`core.workers.procs.ChildError` (a
    :class:`core.BPEError`): nothing is restarted.
    """
    if workers <= 1:
        for item in items:
            yield fn(item, *extra_args)
        return
    children = [Child(_worker, (initializer, initargs), name="bpe-worker") for _ in range(workers)]
    ok = False
    try:
        idle = list(children)
        busy: dict[Any, tuple[Child, int]] = {}  # connection -> (child, item index)
        done: dict[int, Any] = {}
        it = iter(items)
        exhausted = False
        sent = yielded = 0
        while True:
            # a child only ever gets a task while it waits for one: no pipe can fill up both ways
            while idle and not exhausted and sent - yielded < 2 * workers:
                try:
                    item = next(it)
                except StopIteration:
                    exhausted = True
                    break
                child = idle.pop()
                conn = child.conn
                conn.send((fn, (item, *extra_args)))
                busy[conn] = (child, sent)
                sent += 1
            while yielded in done:
                value = done.pop(yielded)
                yielded += 1
                yield value
            if exhausted and yielded == sent:
                break
            ready = wait(list(busy), poll_interval) if busy else []
            for ready_conn in ready:
                child, index = busy.pop(ready_conn)
                try:
                    reply = child.conn.recv()
                except (EOFError, OSError):
                    child.join(1)
                    raise ChildError(
                        f"a worker process ended unexpectedly ({exit_reason(child.exitcode)})",
                        code="worker_died",
                        exit_code=child.exitcode,
                    ) from None
                if reply[0] == "error":
                    raise reply[1]
                done[index] = reply[1]
                idle.append(child)
            if not ready and poll is not None:
                poll()
        ok = True
    finally:
        for child in children:
            child.close()  # the child sees EOF and ends
            if not ok:
                child.terminate()
        for child in children:
            child.join(5)
            child.terminate()
            child.join(5)
