"""What a merge leaves behind: its :class:`MergeRecord` (shown, explained, exported) and the
:class:`HistoryEntry` that lets the trainer take it back.

>>> MergeRecord(rank=0, pair=(b"a", b"b"), new_id=256, count=3).why()
'most frequent pair (3 times)'
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import accumulate
from operator import itemgetter
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    import numpy as np

    from core.training.long_words import LongUndo

Pair = tuple[bytes, bytes]
TieBreak = Literal["lexicographic", "first"]
TIE_BREAKS = ("lexicographic", "first")
MAX_TIES_SHOWN = 20


class PairDeltas:
    """A merge's pair-count changes, ``((a, b), change)`` in order, as an immutable sequence that
    compares equal to the same changes in a tuple. It keeps the pairs' bytes in one buffer and the
    changes in an array, ~25 bytes a change rather than ~120 for a tuple of tuples: the undo
    history of an app's run holds millions (15 MB of Chinese: 2.3 million at 2,000 merges).

    >>> d = PairDeltas.of([((b"t", b"he"), -3), ((b"the", b" "), 2)])
    >>> list(d) == [((b"t", b"he"), -3), ((b"the", b" "), 2)], len(d), d[1], bool(PairDeltas.of([]))
    (True, 2, ((b'the', b' '), 2), False)
    """

    __slots__ = ("_blob", "_changes", "_ends", "pair_keys")

    def __init__(self, blob: bytes, ends: array, changes: array, pair_keys: str = "") -> None:
        self._blob = blob  # a + b of every pair
        self._ends = ends  # where each pair's a ends and its b ends in the buffer (2 per pair)
        self._changes = changes
        # the pairs' keys in the trainer that made them (two token codes each: undo reads them
        # without hashing the tokens again), or "" (a copy sent to another process has none)
        self.pair_keys = pair_keys

    def keyed(self) -> Iterator[tuple[str, int]]:
        """(pair key, change) of every change (only where :attr:`pair_keys` is set)."""
        keys = self.pair_keys
        return zip(
            map(keys.__getitem__, map(slice, range(0, len(keys), 2), range(2, len(keys) + 2, 2))),
            self._changes,
        )

    @classmethod
    def of(cls, items: Iterable[tuple[Pair, int]]) -> PairDeltas:
        parts: list[bytes] = []
        ends = array("q")
        changes = array("q")
        at = 0
        for (a, b), d in items:
            parts.append(a)
            parts.append(b)
            at += len(a)
            ends.append(at)
            at += len(b)
            ends.append(at)
            changes.append(d)
        return cls(b"".join(parts), ends, changes)

    @classmethod
    def of_keys(cls, changes: tuple[tuple[str, int], ...], token: Mapping[str, bytes]) -> PairDeltas:
        """From changes keyed by pair keys (two token codes), with the codes' tokens (the keys
        are kept too, see :attr:`pair_keys`)."""
        keys = "".join(map(itemgetter(0), changes))
        toks = list(map(token.__getitem__, keys))  # (C-level loops only: a merge may change thousands)
        return cls(
            b"".join(toks),
            array("q", accumulate(map(len, toks))),
            array("q", map(itemgetter(1), changes)),
            keys,
        )

    def __len__(self) -> int:
        return len(self._changes)

    @property
    def changes(self) -> array:
        """The changes alone, in order (an ``array("q")``: not to be modified; NumPy reads it in place)."""
        return self._changes

    def _item(self, i: int) -> tuple[Pair, int]:
        ends, blob = self._ends, self._blob
        lo = ends[2 * i - 1] if i else 0
        mid, hi = ends[2 * i], ends[2 * i + 1]
        return (blob[lo:mid], blob[mid:hi]), self._changes[i]

    def __getitem__(self, i):
        if isinstance(i, slice):
            return tuple(self)[i]
        n = len(self._changes)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("PairDeltas index out of range")
        return self._item(i)

    def __iter__(self) -> Iterator[tuple[Pair, int]]:
        return map(self._item, range(len(self._changes)))

    def __bool__(self) -> bool:
        return bool(self._changes)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PairDeltas):
            return (self._blob, self._ends, self._changes) == (other._blob, other._ends, other._changes)
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"PairDeltas({list(self)!r})"

    def __reduce__(self):  # (without the keys: they mean nothing outside the trainer)
        return PairDeltas, (self._blob, self._ends, self._changes)


@dataclass(frozen=True)
class MergeRecord:
    """One merge: what was merged, why, and what it changed."""

    rank: int  # 0-based position in the merge list
    pair: Pair
    new_id: int
    count: int  # frequency of the pair when it was merged
    # other pairs with the same count, best first (at most 20; none listed by a trainer made with
    # keep_history=False, the lean mode of train_bpe and the CLI: finding them in a large tie
    # took ~15% of a run)
    ties: tuple[Pair, ...] = ()
    n_ties: int = 0  # how many other pairs had the same count
    words_changed: int = 0  # distinct words (pre-tokens) that contained the pair
    occurrences_changed: int = 0  # those words counted with their frequency
    # pair-count changes caused by the merge (none listed by a keep_history=False trainer: lean mode)
    deltas: tuple[tuple[Pair, int], ...] | PairDeltas = ()

    @property
    def token(self) -> bytes:
        return self.pair[0] + self.pair[1]

    def why(self, tie_break: str = "lexicographic") -> str:
        """A sentence explaining why this pair won."""
        if not self.n_ties:
            return f"most frequent pair ({self.count:,} {'time' if self.count == 1 else 'times'})"
        rule = (
            "lexicographically greatest (bytes, bytes) pair wins"
            if tie_break == "lexicographic"
            else "the pair seen first in the text wins"
        )
        others = "1 other pair" if self.n_ties == 1 else f"{self.n_ties:,} other pairs"
        return f"tied with {others} at {self.count:,}; {rule}"


@dataclass
class HistoryEntry:
    """A merge as the undo history keeps it (NumPy arrays: the garbage collector never walks them)."""

    record: MergeRecord
    wids: np.ndarray  # the words the merge changed (C ints)
    # their codes before it (str objects; None for a long word), or None where ``split`` gives them
    olds: np.ndarray | None
    index_sizes: tuple[tuple[str, int], ...] = ()  # (index key, its bytes before the merge appended)
    # long words the merge changed, with how to take it back
    long: tuple[tuple[int, LongUndo], ...] = ()
    # (ab, a + b): the merged token's code and the two codes it replaced, where no word held that
    # code before the merge: every ab in the changed words is then a site, and a word before the
    # merge is its codes after it with ab split again (4 bytes a changed word, not its old string)
    split: tuple[str, str] | None = None
