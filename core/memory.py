"""Memory habits of the core: the cyclic garbage collector paused while large acyclic tables are built;
the memory of the machine and the memory free now; freed heap memory given back."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector inside the block, and switch it back on afterwards if it was on.

    Training and loading build millions of small objects (tuples, bytes, strings) that form no cycles:
    a full collection would scan them all again and again and find nothing to free.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def physical_memory() -> int | None:
    """This machine's memory in bytes (None where the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def available_memory() -> int | None:
    """Memory free for a new task now, in bytes (Linux's MemAvailable; elsewhere the machine's
    memory; None where neither is known)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return physical_memory()


def release_free_memory() -> bool:
    """Give the C heap's free pages back to the system (glibc's ``malloc_trim``), after many small
    objects were freed at once: glibc keeps them otherwise, and NumPy's large arrays are mapped
    apart from the heap, so they would not reuse them. True where it was done (glibc only)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):  # (musl and others: no malloc_trim)
        return False
    trim.argtypes = [ctypes.c_size_t]
    trim(0)
    return True
