"""The distinct words' bytes, kept as one ``bytes`` object and the words' offsets in it.

A trainer keeps every distinct pre-token's bytes for as long as it lives (the views show them,
``state()`` saves them). As a tuple of ``bytes`` objects that is 41 bytes per word plus its length
(a 33-byte object header, 8 for the tuple's pointer); here it is 8 per word plus its length.
Reading a word (``store[i]``) makes its ``bytes`` object again.

>>> store = WordBytes([b"the", b" cat", b"s"])
>>> len(store), store[1], list(store), store[1:3]
(3, b' cat', [b'the', b' cat', b's'], [b' cat', b's'])
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate, pairwise
from typing import overload

import numpy as np


class WordBytes(Sequence[bytes]):
    """An immutable sequence of ``bytes`` stored in one buffer."""

    __slots__ = ("_blob", "_ends")

    def __init__(self, words: Iterable[bytes]) -> None:
        words = words if isinstance(words, (list, tuple)) else list(words)
        self._blob = b"".join(words)
        self._ends = array("q", accumulate(map(len, words), initial=0))  # word i: [_ends[i], _ends[i+1])

    def __len__(self) -> int:
        return len(self._ends) - 1

    @overload
    def __getitem__(self, i: int) -> bytes: ...
    @overload
    def __getitem__(self, i: slice) -> list[bytes]: ...
    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        ends = self._ends
        return self._blob[ends[i] : ends[i + 1]]  # (IndexError past the end, from the array)

    def __iter__(self) -> Iterator[bytes]:
        blob = self._blob
        for lo, hi in pairwise(self._ends):
            yield blob[lo:hi]

    @property
    def total_bytes(self) -> int:
        """The words' lengths summed."""
        return len(self._blob)

    def joined(self, lo: int, hi: int) -> bytes:
        """Words ``lo .. hi-1`` joined (one slice of the buffer, no word made)."""
        return self._blob[self._ends[lo] : self._ends[hi]]

    def lengths(self) -> np.ndarray:
        """Every word's length in bytes (a NumPy array of int64)."""
        return np.diff(np.frombuffer(self._ends, dtype=np.int64))
