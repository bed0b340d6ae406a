"""core/workers/procs.py: giving up on a child that never connected leaves no thread blocked in accept()."""

from __future__ import annotations

import threading
import time

from core.workers.procs import Child, _poke


def _never_called(conn) -> None:  # pragma: no cover - the child is killed before it gets work
    raise AssertionError


def test_closing_a_child_that_never_connected_ends_its_accepting_thread():
    child = Child(_never_called, name="bpe-test")
    child.kill()  # (before it could connect: the accepting thread waits in accept())
    child.join(30)
    t0 = time.monotonic()
    child.close()
    assert not child._thread.is_alive()
    assert time.monotonic() - t0 < 10


def test_poking_a_listener_nobody_accepts_on_returns_at_once():
    from multiprocessing.connection import Listener

    with Listener(authkey=b"k") as listener:  # nothing accepts: a Client() would wait for ever here
        th = threading.Thread(target=_poke, args=(listener.address,), daemon=True)
        th.start()
        th.join(10)
        assert not th.is_alive()
