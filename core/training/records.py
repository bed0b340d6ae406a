"""What a merge leaves behind: its :class:`MergeRecord` (shown, explained, exported) and the
:class:`HistoryEntry` that lets the trainer take it back.

>>> MergeRecord(rank=0, pair=(b"a", b"b"), new_id=256, count=3).why()
'most frequent pair (3 times)'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    import numpy as np

    from core.training.long_words import LongUndo

Pair = tuple[bytes, bytes]
TieBreak = Literal["lexicographic", "first"]
TIE_BREAKS = ("lexicographic", "first")
MAX_TIES_SHOWN = 20


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
    deltas: tuple[tuple[Pair, int], ...] = ()

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
