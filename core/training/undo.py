"""Taking merges back: undo one merge, rewind to a merge, reset to none.

A mixin, so that the trainer's module holds construction and merging. It works on the trainer's
parts (see :mod:`core.training.views`) plus ``_start``, the state at 0 merges (:class:`TrainerStart`:
a copy of the array of word codes, 8 bytes per distinct word, and of the byte-pair counts).

- :meth:`TrainerUndo.undo` reverts the last merge from its history entry;
- :meth:`TrainerUndo.undo_to` rewinds many: it either sums the pair-count changes of all the undone
  merges and applies them once, or goes back to the start and replays the merges kept, whichever is
  estimated to cost less (from the words and counts each merge changed); a reset (to 0 merges)
  restores the start without undoing merge by merge.

Every path ends in exactly the state of undoing one merge at a time (a hypothesis test checks it).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from core.errors import BPEError
from core.training.merge_kernels import object_array
from core.training.records import PairDeltas
from core.training.views import TrainerViews

if TYPE_CHECKING:
    from core.training.pair_index import IndexStart
    from core.training.records import HistoryEntry, MergeRecord, Pair

# Rough costs, in units of undoing one word change or pair-count change: merging the same again
# costs about 1.5 units a change, plus a fixed part for each merge. A rewind takes whichever of
# "undo back to the merge" and "reset, then merge again" is cheaper (the benchmarks in
# tests/benchmarks/bench_rewind.py check the choice).
REPLAY_WORD_COST = 1.5
REPLAY_MERGE_COST = 5000
# a replay first resets: decodes every word again from its bytes and rebuilds the byte-pair counts
# (per distinct word; gcide after 5,000 merges: 0.24 us a word against ~1 us an undo unit)
RESTART_WORD_COST = 0.3


@dataclass(frozen=True)
class TrainerStart:
    """A trainer's state at 0 merges, kept to reset it at the cost of copying an array."""

    # the word codes before any merge (str objects; None for long words), or None: decoded again
    # from the words' bytes (a copy would keep every first string alive once merges replace them)
    words: np.ndarray | None
    index: IndexStart


def _nothing() -> None:
    pass


def _freer(dropped: list[object]) -> Callable[[], None]:
    """A function that frees ``dropped`` (history entries, or lists of them, and replaced arrays)
    one piece at a time: a thread running it lets other threads run between the pieces."""

    def free() -> None:
        while dropped:
            piece = dropped.pop()
            if isinstance(piece, list):
                while piece:
                    piece.pop()
            del piece

    return free


class TrainerUndo(TrainerViews):
    _start: TrainerStart | None
    _live: Counter[str] | None
    _long_wids: set[int]
    records: list[MergeRecord]

    def _merge(self, pair: Pair, count: int, ties: tuple[Pair, ...], n_ties: int) -> MergeRecord:
        raise NotImplementedError  # the trainer's

    def undo(self, record: MergeRecord | None = None) -> MergeRecord | None:
        """Revert the last merge exactly; returns its record (None when there is nothing to undo).

        ``record`` may name the merge to revert; it must be the last one.
        """
        rec, restore_words = self.undo_in_two(record)
        restore_words()
        return rec

    def undo_in_two(self, record: MergeRecord | None = None) -> tuple[MergeRecord | None, Callable[[], None]]:
        """:meth:`undo` in two parts: the counts and merges now, the words when the returned
        function is called, which must happen before anything else uses this trainer.

        An app can answer with the record first (restoring the words of an early merge of a
        large corpus takes ~10 ms: 46,529 words for ``e`` + ``r`` on 40 MB).
        """
        if not self.merges:
            return None, _nothing
        self._check_history()
        last = self._history[-1]
        if record is not None and record != last.record:  # equal, not identical: records cross processes
            raise BPEError(f"only the last merge (rank {last.record.rank}) can be undone")
        self._history.pop()
        # the record holds the net pair-count changes of the merge: apply them backwards
        self._index.apply_deltas({k: -d for k, d in self._keyed_deltas(last.record)})
        self._index.truncate(last.index_sizes)  # undo is last-in first-out: these are the merge's own ids
        self.merges.pop()
        self.records.pop()
        self._unlive(last)
        return last.record, lambda: self._restore_words(last)

    def _unlive(self, last: HistoryEntry) -> None:
        """The merge of ``last`` is taken back: its token's code is made by one merge fewer."""
        live = self._live
        if live is not None:
            code = self._codes.code[last.record.token]
            live[code] -= 1
            if not live[code]:
                del live[code]

    def _keyed_deltas(self, record: MergeRecord) -> Iterable[tuple[str, int]]:
        """A record's pair-count changes keyed by pair key."""
        deltas = record.deltas
        if isinstance(deltas, PairDeltas) and deltas.pair_keys:
            return deltas.keyed()
        key = self._key
        return ((key(p), d) for p, d in deltas)

    def _check_history(self) -> None:
        if not self.keep_history:
            raise BPEError("this trainer was created with keep_history=False; undo is not available")

    def _restore_words(self, last: HistoryEntry) -> None:
        """Put back the words of one undone merge (its history entry ``last``)."""
        # merges only add to the index, so it still lists each word under every pair of its old tokens
        words = self._words
        if last.olds is None:  # the changed words now, with the merged token split again
            ab, a_b = last.split  # type: ignore[misc]
            ids = last.wids
            if last.long:
                ids = ids[~np.isin(ids, [wid for wid, _u in last.long])]
            sep = self._codes.sep
            words[ids] = object_array(sep.join(words[ids].tolist()).replace(ab, a_b).split(sep))
        elif not last.long:
            words[last.wids] = last.olds
            return
        else:
            short = np.fromiter((o is not None for o in last.olds.tolist()), dtype=bool, count=len(last.olds))
            words[last.wids[short]] = last.olds[short]
        for wid, u in last.long:
            self._long[wid].undo(u)
            self._long_stale.add(wid)

    def undo_to(self, keep: int) -> int:
        """Undo merges until ``keep`` are left (0: all); returns how many were undone.

        The end state is exactly that of calling :meth:`undo` that many times. A reset restores
        the state at 0 merges (an array copy and the byte-pair counts); a rewind either undoes the
        merges with their pair-count changes summed and applied once, or resets and replays the
        merges it keeps, whichever is estimated to cost less.
        """
        n, release = self.undo_to_in_two(keep)
        release()
        return n

    def undo_to_in_two(self, keep: int, background: bool = False) -> tuple[int, Callable[[], None]]:
        """:meth:`undo_to`, and a function that frees the undone merges' history, to call when
        the app is quiet (or never: dropping it frees the same). Freeing is most of a reset's cost:
        the millions of word strings and count changes that let each merge be undone.

        With ``background``, the function starts a thread that frees the history piece by piece
        (a merge's at a time), so that requests served meanwhile wait milliseconds, not the whole.
        """
        keep = max(0, int(keep))
        n = len(self.merges) - keep
        if n <= 0:
            return 0, _nothing
        self._check_history()
        if keep == 0:
            dropped = self._reset()
        elif self._replay_is_cheaper(keep):
            kept = self.records[:keep]
            dropped = self._reset()
            for r in kept:
                self._merge(r.pair, r.count, r.ties, r.n_ties)
        else:
            dropped = self._undo_many(n)
        free = _freer(dropped)
        if not background:
            return n, free
        return n, threading.Thread(target=free, name="free undone merges", daemon=True).start

    def _replay_is_cheaper(self, keep: int) -> bool:
        """Whether replaying the first ``keep`` merges after a reset costs less than undoing the rest."""
        if self._start is None:
            return False
        recs = self.records
        undo = sum(r.words_changed + len(r.deltas) for r in recs[keep:])
        replay = REPLAY_WORD_COST * sum(r.words_changed + len(r.deltas) for r in recs[:keep])
        return replay + REPLAY_MERGE_COST * keep + RESTART_WORD_COST * len(self._words) < undo

    def _undo_many(self, n: int) -> list[object]:
        """Undo the last ``n`` merges with their pair-count changes summed and applied once;
        returns their history entries (not freed yet)."""
        total: dict[str, int] = {}
        get = total.get
        history = self._history
        dropped: list[object] = [*history[-n:]]
        for last in reversed(
            history[-n:]
        ):  # newest first: word lists and words go back in the order they changed
            for k, d in self._keyed_deltas(last.record):
                total[k] = get(k, 0) - d
            self._index.truncate(last.index_sizes)
            self._restore_words(last)
            self._unlive(last)
        del history[-n:], self.merges[-n:], self.records[-n:]
        self._index.apply_deltas(total)
        return dropped

    def _reset(self) -> list[object]:
        """Back to 0 merges from the start state (long words undo their own merges: their cost is
        their sites, while rebuilding one would cost its length); returns the history (not freed)."""
        start = self._start
        if start is None:  # (a trainer built before the start was kept)
            return self._undo_many(len(self.merges))
        long = self._long
        for h in reversed(self._history):
            for wid, u in h.long:
                long[wid].undo(u)
        # long words: their first codes are their codes now (the words of now are freed later)
        dropped: list[object] = [self._words, self._history]
        if start.words is None:
            self._words = object_array([w.decode("latin-1") for w in self._original])
        else:
            self._words = start.words.copy()
            for wid in self._long_wids:
                self._words[wid] = self._original[wid].decode("latin-1")
        self._long_stale.clear()
        dropped.extend(self._index.restore(start.index))
        self._history = []
        self.merges.clear()
        self.records.clear()
        if self._live is not None:
            self._live.clear()
        return dropped
