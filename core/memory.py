"""Memory habits of the core: the cyclic garbage collector paused while large acyclic tables are built."""

from __future__ import annotations

import gc
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
