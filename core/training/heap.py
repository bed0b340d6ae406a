"""Handing freed memory back to the system between the trainer's big steps.

Building the index and the first merges free hundreds of megabytes of temporary arrays and old
word strings. glibc's allocator keeps most of that in its heap (resident, counted in the
process's memory) until ``malloc_trim`` returns the whole free pages; that is what
:func:`release_free_memory` calls (through ``ctypes``; a no-op where the C library has none,
e.g. macOS or Windows, whose allocators give memory back themselves). It takes about a
millisecond.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from collections.abc import Callable

_trim: Callable[[int], int] | None = None
_looked = False


def _find_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return libc.malloc_trim
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return None


def release_free_memory() -> None:
    """Return the heap's free pages to the system (where the C library can)."""
    global _trim, _looked
    if not _looked:
        _trim, _looked = _find_trim(), True
    if _trim is not None:
        _trim(0)
