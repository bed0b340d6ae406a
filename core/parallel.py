"""An ordered, bounded process pool ("spawn" context, safe to start from a Qt thread).

>>> list(ordered_map(abs, [-1, -2, 3], workers=1))
[1, 2, 3]
"""
from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any


def lower_priority(niceness: int) -> None:
    """Worker initializer: run at a lower CPU priority (so an app's GUI thread stays responsive)."""
    if niceness and hasattr(os, "nice"):
        try:
            os.nice(niceness)
        except OSError:  # not permitted here: run at normal priority
            pass


def ordered_map(fn: Callable[..., Any], items: Iterable[Any], *, workers: int, extra_args: tuple = (),
                initializer: Callable[..., None] | None = None, initargs: tuple = (),
                poll: Callable[[], None] | None = None, poll_interval: float = 0.05) -> Iterator[Any]:
    """Yield ``fn(item, *extra_args)`` for each item, in order, computed in ``workers`` processes.

    At most ``2 × workers`` items are in flight, so a streamed input is never read ahead further
    than that (memory stays bounded). ``poll()`` is called every ``poll_interval`` seconds while
    waiting; it may raise (e.g. :class:`core.Cancelled`) to stop: the pool is then terminated and
    its processes are gone when the exception propagates. ``fn`` must be importable (top level).
    """
    if workers <= 1:
        for item in items:
            yield fn(item, *extra_args)
        return
    import multiprocessing as mp

    pool = mp.get_context("spawn").Pool(workers, initializer=initializer, initargs=initargs)
    ok = False
    try:
        pending: deque = deque()
        it = iter(items)
        exhausted = False
        while True:
            while not exhausted and len(pending) < 2 * workers:
                try:
                    item = next(it)
                except StopIteration:
                    exhausted = True
                    break
                pending.append(pool.apply_async(fn, (item, *extra_args)))
            if not pending:
                break
            head = pending[0]
            head.wait(poll_interval)
            if head.ready():
                pending.popleft()
                yield head.get()
            elif poll is not None:
                poll()
        ok = True
    finally:
        if ok:
            pool.close()
        else:
            pool.terminate()
        pool.join()
