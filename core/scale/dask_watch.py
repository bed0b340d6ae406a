"""A Dask worker that stops answering (SIGSTOP, a hung machine) while it holds tasks: give up after
:data:`STALL_SECONDS` and name it, rather than wait for ever at "81%".

The scheduler hears from every worker about once a second (its heartbeat); a worker whose last
heartbeat is older than :data:`STALL_SECONDS` while the scheduler has tasks on it is stalled.
:class:`StallWatch` checks that from a thread while the run waits (progress bar, results); on a
stall it cancels the run's futures, so the wait returns, and :meth:`StallWatch.check` raises a
:class:`~core.scale.counts_schema.CountsError` naming the worker.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from core.scale.counts_schema import CountsError

#: seconds without a heartbeat from a worker that holds tasks before the run gives up
STALL_SECONDS = 60.0
#: how often the scheduler is asked
POLL_SECONDS = 1.0


class StallWatch:
    """``with StallWatch(client, futures) as w: ...wait...; w.check()`` (also on the wait's error)."""

    def __init__(self, client: Any, futures: list, stall_seconds: float | None = None) -> None:
        self.client, self.futures = client, futures
        self.stall = STALL_SECONDS if stall_seconds is None else stall_seconds
        self.error: CountsError | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="dask-stall-watch", daemon=True)

    def __enter__(self) -> StallWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5.0)

    def check(self) -> None:
        if self.error is not None:
            raise self.error

    def _watch(self) -> None:
        while not self._stop.wait(POLL_SECONDS):
            try:
                stalled = self._stalled()
            except Exception:  # (the client closing under us: the wait itself says what happened)
                return
            if stalled:
                self.error = _stall_error(stalled[0], self.stall, "while it holds tasks")
                self.client.cancel(self.futures)
                return

    def _stalled(self) -> list[str]:
        holding = {address for address, keys in self.client.processing().items() if keys}
        return stalled_workers(self.client, self.stall, holding)


def stalled_workers(client: Any, stall: float, among: set[str] | None = None) -> list[str]:
    """The workers (of ``among``, or all) whose last heartbeat is older than ``stall`` seconds."""
    now = time.time()
    out = []
    for address, info in client.scheduler_info().get("workers", {}).items():
        if (among is None or address in among) and now - float(info.get("last_seen", now)) > stall:
            name = info.get("name")
            out.append(f"{address}" + (f" (name {name})" if name not in (None, "", address) else ""))
    return out


def _stall_error(worker: str, stall: float, doing: str) -> CountsError:
    return CountsError(
        f"Dask worker {worker} has not answered for more than {stall:.0f} s {doing} (stopped with SIGSTOP "
        "or Ctrl+Z, or its machine hangs); the run was cancelled. Resume or restart that worker (or remove "
        "it from the cluster) and run again"
    )


def scatter_watched(client: Any, data: Any, **kwargs: Any) -> Any:
    """``client.scatter(data, broadcast=True, ...)`` (a broadcast waits for every worker) that gives up,
    naming the worker, when one has not answered for :data:`STALL_SECONDS` meanwhile."""
    done: dict[str, Any] = {}

    def send() -> None:
        try:
            done["value"] = client.scatter(data, broadcast=True, **kwargs)
        except BaseException as e:  # handed to the caller's thread
            done["error"] = e

    thread = threading.Thread(target=send, name="dask-scatter", daemon=True)
    thread.start()
    while True:
        thread.join(POLL_SECONDS)
        if not thread.is_alive():
            break
        stalled = stalled_workers(client, STALL_SECONDS)
        if stalled:  # (the scatter thread ends when the client closes)
            raise _stall_error(stalled[0], STALL_SECONDS, "while the tokenizer was sent to every worker")
    if "error" in done:
        raise done["error"]
    return done["value"]
