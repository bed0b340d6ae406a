"""Guard against a reference-count bug of PySide6 6.12.0 on Python 3.10/3.11.

PySide6 6.12.0 returns ``None`` from every void method and ``True`` from ``SignalInstance.emit``
without taking a reference (6.11.x does not). On Python 3.12+ these objects are immortal and
nothing happens; on 3.10/3.11 each call drops one reference, and after some thousands of calls the
interpreter aborts ("none_dealloc: deallocating None", "bool_dealloc").

:func:`install` measures whether the running PySide has the bug and, only then, does what Python
3.12 does: it makes ``None``, ``True`` and ``False`` effectively immortal by adding 2**40 to their
reference counts, so the missing references can never bring them to zero. It is idempotent, costs
nothing afterwards, and is a no-op on fixed PySide versions and on Python 3.12+.
Pinning ``PySide6-Essentials!=6.12.0`` avoids the bug altogether.
"""

from __future__ import annotations

import ctypes
import sys

PIN = 1 << 40
_done = False


def _refcount_lost(call, obj, n: int = 16, rounds: int = 3) -> tuple[int, int]:
    """(the fewest references ``n`` calls lost in any of ``rounds`` rounds, all they lost). The
    bug loses one a call in every round; another thread taking or dropping references to ``obj``
    meanwhile moves one round, seldom all of them."""
    start = sys.getrefcount(obj)
    fewest = n
    for _ in range(rounds):
        before = sys.getrefcount(obj)
        for _ in range(n):
            call()
        fewest = min(fewest, before - sys.getrefcount(obj))
    return fewest, start - sys.getrefcount(obj)


def _add_refs(obj: object, amount: int) -> None:
    # ob_refcnt is the first field of every object in CPython (Py_ssize_t)
    ctypes.c_ssize_t.from_address(id(obj)).value += amount


def leaks() -> dict[str, int]:
    """How many references 16 void calls and 16 emits lose (the fewest of three rounds; both 0 on a
    sound PySide)."""
    from PySide6.QtCore import QObject, Signal

    class _Probe(QObject):
        ping = Signal()

    probe = _Probe()
    lost_none, took_none = _refcount_lost(lambda: probe.setObjectName("probe"), None)
    lost_true, took_true = _refcount_lost(probe.ping.emit, True)
    # give back what the probe itself took
    for obj, lost, took in ((None, lost_none, took_none), (True, lost_true, took_true)):
        if lost > 0 and took > 0:
            _add_refs(obj, took)
    return {"None": lost_none, "True": lost_true}


def install() -> bool:
    """Apply the guard when needed; returns True when it is active."""
    global _done
    if _done:
        return True
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return False
    found = leaks()
    if not any(v > 0 for v in found.values()):
        return False
    for obj in (None, True, False):
        _add_refs(obj, PIN)
    _done = True
    return True
