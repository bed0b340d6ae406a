"""A Dask client for the ``scale`` extra: a scheduler's address, or a LocalCluster of processes.

A LocalCluster's worker processes are started with ``__main__`` hidden (a plain script without
``if __name__ == "__main__":`` is not run again in every worker) and with Ctrl+C ignored: the
terminal sends it to the whole process group, and workers that died of it printed pages of
tracebacks while this process was still closing them. This process alone gets it and closes the
cluster.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from core.scale.counts_schema import EXTRA_HINT, CountsError

if TYPE_CHECKING:
    import distributed


def need_dask():
    try:
        import distributed
    except ImportError as e:
        raise CountsError(f"--engine dask needs dask[distributed]; {EXTRA_HINT}") from e
    return distributed


@contextlib.contextmanager
def hidden_main() -> Iterator[None]:
    """Hide ``__main__``'s file and spec while processes start, so that they do not re-run it.

    multiprocessing's "spawn" and "forkserver" children import the parent's main script (as
    ``__mp_main__``) when its path is known; an unguarded script would start a cluster again.
    """
    main = sys.modules.get("__main__")
    saved: dict[str, Any] = {
        k: main.__dict__[k] for k in ("__file__", "__spec__") if main is not None and k in main.__dict__
    }
    try:
        if main is not None:
            main.__dict__.pop("__file__", None)
            main.__spec__ = None
        yield
    finally:
        if main is not None:
            main.__dict__.update(saved)
            if "__spec__" not in saved:
                main.__dict__.pop("__spec__", None)


@contextlib.contextmanager
def ctrl_c_ignored() -> Iterator[None]:
    """Ignore SIGINT while processes start: they inherit "ignored" (and Python leaves it so in them)."""
    old = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or old is None:
        yield  # (only the main thread may set handlers; None: a handler not set from Python)
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


@contextlib.contextmanager
def dask_client(scheduler: str | None = None, workers: int | None = None) -> Iterator[distributed.Client]:
    """A ``distributed.Client`` to ``scheduler``, or to a new LocalCluster of ``workers`` processes."""
    distributed = need_dask()
    if scheduler:
        try:
            client = distributed.Client(scheduler, timeout="20s")
        except (OSError, ValueError) as e:  # unreachable, timed out, or not an address
            raise CountsError(
                f"cannot reach the Dask scheduler at {scheduler!r} ({e}); start it with "
                "'dask scheduler' and give its address, e.g. tcp://10.0.0.1:8786"
            ) from e
        with contextlib.closing(client):
            yield client
        return
    n = max(1, int(workers or os.cpu_count() or 1))
    # any free port for the dashboard (never "8787 in use"); the workers' own logs only when critical: a
    # task's error comes back as its exception, and closing while tasks run logs pages of closed connections
    with hidden_main(), ctrl_c_ignored():
        cluster = distributed.LocalCluster(
            n_workers=n,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=logging.CRITICAL,
        )
    try:
        with distributed.Client(cluster) as client:
            yield client
    finally:
        cluster.close()


def show_progress(futures: list) -> None:
    """Dask's text progress bar, on stderr (stdout stays for the summary)."""
    from distributed import progress

    try:
        with contextlib.redirect_stdout(sys.stderr):
            progress(futures)
    finally:
        print(file=sys.stderr)  # (also when interrupted: the next message starts a line)
