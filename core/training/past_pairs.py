"""The pair table as it was when an earlier merge was chosen, from the history a trainer keeps.

A trainer that keeps its history has, for every merge, the net pair-count changes it made
(:attr:`MergeRecord.deltas`), and the byte-pair counts it started from (``_start``). The counts
just before merge ``k`` (the table from which merge ``k`` was the top pair) are then

- **forward**: the counts at the start plus the changes of merges ``0 .. k-1`` (every pair, exactly);
- **backward**: the counts now minus the changes of merges ``k .. n-1`` (only the pairs those merges
  touched; every other pair has the same count then as now).

:func:`pairs_before` takes whichever reads fewer changes (on 40 MB of English, 10,000 merges hold
~545,000 changes in all: at most half of them are read). The backward way sees only some pairs;
why its top ``n`` is nevertheless exact is proved in :func:`_counts_backward`.

Nothing is trained again, and the trainer is not changed (the backward way settles the count
buckets it reads, as :meth:`TrainerViews.top_pairs` does: a change of bookkeeping, not of counts).

>>> from core.training.trainer import Trainer
>>> t = Trainer.from_text("aaabdaaabac", pattern="none")
>>> _ = t.steps(3)
>>> past = pairs_before(t, 1, 3)
>>> past.top_pairs, past.n_best
([((b'aa', b'a'), 2), ((b'a', b'b'), 2), ((b'd', b'aa'), 1)], 2)
>>> past.deltas[(b'aa', b'a')], past.deltas[(b'a', b'b')]
(-2, -2)
"""

from __future__ import annotations

import heapq
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from core.errors import BPEError
from core.training.records import MergeRecord, Pair, PairDeltas

# a core.training.trainer.Trainer (named loosely: the trainer's modules import this one)
Trainer = Any

CODE_BITS = 21  # a token code is below 0x110000: two make one integer key of 42 bits
# per trainer: (its number of merges, its last record, the changes made before each merge)
_SIZES: weakref.WeakKeyDictionary[Any, tuple[int, Any, np.ndarray]] = weakref.WeakKeyDictionary()
# words read at a time per pair while looking for where a pair first occurred (the "first" tie rule)
FIRST_CHUNK = 8


@dataclass(frozen=True)
class PastPairs:
    """The pair table before merge ``rank``: what the trainer chose merge ``rank`` from."""

    rank: int  # the merge (0-based); ``n_merges`` means now: the table the next merge is chosen from
    n_merges: int  # how many merges the trainer has now
    top_pairs: list[tuple[Pair, int]]  # the most frequent pairs then, best first (ties by the tie rule)
    n_best: int  # how many pairs shared the highest count then (the merge's pair and its ties)
    # what merge ``rank`` changed, for the pairs in ``top_pairs`` it changed (empty for ``rank == n_merges``)
    deltas: dict[Pair, int] = field(default_factory=dict)
    way: str = "now"  # how the counts were found: "forward", "backward" or "now" (for tests and timings)


def pairs_before(t: Trainer, rank: int, k: int = 100, way: str | None = None) -> PastPairs:
    """The ``k`` most frequent pairs just before merge ``rank`` (0-based), ordered as the trainer
    ordered them then, with the count changes merge ``rank`` made to them.

    ``rank == n_merges`` is the table now. ``way`` forces "forward" or "backward" (tests check
    that both agree); by default the one that reads fewer count changes.
    Raises :class:`BPEError` for a trainer that keeps no history or a merge it does not have.
    """
    if not t.keep_history:
        raise BPEError(
            "this trainer was created with keep_history=False: it kept no history of pair counts, "
            "so the counts before an earlier merge are not known (train with history to see them)"
        )
    n = len(t.records)
    if not isinstance(rank, int) or not 0 <= rank <= n:
        raise BPEError(
            f"merge rank {rank!r} is not one of this trainer's merges (0 to {n}); pick one of them"
        )
    k = max(0, int(k))
    if rank == n:
        top = t.top_pairs(k)
        return PastPairs(rank, n, top, t.n_pairs_with_count(top[0][1]) if top else 0)
    records = t.records
    sizes = _changes_before(t)
    before = int(sizes[rank])
    after = int(sizes[n]) - before
    start = t._start
    if way is None:
        # (the forward way sums in NumPy: ~10 times cheaper a change than the backward way's dict)
        way = (
            "forward"
            if start is not None and before + len(start.index.counts) < 10 * after + k
            else "backward"
        )
    if way == "forward":
        if start is None:
            raise BPEError("this trainer kept no start state: only the backward way is open")
        counts = _counts_forward(t, start.index.counts, records[:rank], k)
    elif way == "backward":
        counts = _counts_backward(t, records[rank:], k)
    else:
        raise BPEError(f"way must be 'forward' or 'backward', not {way!r}")
    top, n_best = _ranked(t, rank, counts, k)
    shown = {p for p, _c in top}
    deltas = {p: d for p, d in records[rank].deltas if p in shown}
    return PastPairs(rank, n, top, n_best, deltas, way)


def _changes_before(t: Trainer) -> np.ndarray:
    """How many count changes the merges before each merge made, and all of them last (kept for
    the trainer until its merges change: a learner picks one merge after another)."""
    records = t.records
    n = len(records)
    kept = _SIZES.get(t)
    if kept is not None and kept[0] == n and (not n or kept[1] is records[-1]):
        return kept[2]
    # (the last record the same object: every record before it is too, undo takes merges from the end)
    sizes = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, (r.deltas for r in records)), dtype=np.int64, count=n), out=sizes[1:])
    _SIZES[t] = (n, records[-1] if n else None, sizes)
    return sizes


def _keyed(t: Trainer, record: MergeRecord) -> Iterable[tuple[str, int]]:
    """A record's count changes keyed by pair key (the trainer's keys where the record kept them)."""
    deltas = record.deltas
    if isinstance(deltas, PairDeltas) and deltas.pair_keys:
        return deltas.keyed()
    code = t._codes.code
    return ((code[a] + code[b], d) for (a, b), d in deltas)


def _counts_forward(t: Trainer, start: dict[str, int], records: list[MergeRecord], k: int) -> dict[str, int]:
    """The counts after ``records`` (the first merges) of every pair counted at least as often as the
    ``k``-th most frequent pair then (so: the top ``k``, whole groups of equal counts, and every pair
    with the highest count), from the counts at the start.

    The changes are summed in NumPy (each pair key as one integer), ~10 times faster than a dict:
    the forward way reads all the changes before merge ``rank``, hundreds of thousands on 40 MB.
    """
    keyed = [r.deltas for r in records if r.deltas]
    if not all(isinstance(d, PairDeltas) and d.pair_keys for d in keyed):  # (records from elsewhere)
        counts = dict(start)
        get = counts.get
        for r in records:
            for key, d in _keyed(t, r):
                counts[key] = get(key, 0) + d
        return counts
    text = "".join(start) + "".join(d.pair_keys for d in keyed)  # type: ignore[union-attr]
    codes = np.frombuffer(text.encode("utf-32-le"), dtype="<u4").astype(np.int64)
    keys = (codes[0::2] << CODE_BITS) | codes[1::2]
    values = np.concatenate(
        [np.fromiter(start.values(), dtype=np.int64, count=len(start))]
        + [np.frombuffer(d.changes, dtype=np.int64) for d in keyed]  # type: ignore[union-attr]
    )
    order = np.argsort(keys, kind="stable")
    keys, values = keys[order], values[order]
    firsts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1]))) if len(keys) else keys
    sums = np.add.reduceat(values, firsts) if len(keys) else values
    keys = keys[firsts] if len(keys) else keys
    live = sums > 0
    keys, sums = keys[live], sums[live]
    if k and len(sums) > k:
        lowest = np.partition(sums, len(sums) - k)[len(sums) - k]  # the k-th highest count
        keep = sums >= lowest
        keys, sums = keys[keep], sums[keep]
    low = (1 << CODE_BITS) - 1
    return {chr(key >> CODE_BITS) + chr(key & low): n for key, n in zip(keys.tolist(), sums.tolist())}


def _counts_backward(t: Trainer, records: list[MergeRecord], k: int) -> dict[str, int]:
    """The counts before ``records`` (the last merges) of a set of pairs that holds the top ``k``
    then, and every pair that had the highest count then.

    Let T be the pairs the merges of ``records`` changed: their counts then are their counts now
    minus the changes. Every other pair (U) has the same count then as now. Let ``c`` be the
    ``k``-th highest count now among U (read from the count buckets, highest first, until ``k``
    pairs of U are found), and U' the pairs of U counted at least ``c``. Returned: T and U', each
    with its count then.

    Proof that the top ``k`` then lie in T ∪ U': a pair ``p`` of U outside U' is counted less than
    ``c``, then as now; at least ``k`` pairs of U' are counted ``c`` or more, then as now, so at
    least ``k`` pairs rank above ``p`` then, whatever the tie rule: ``p`` is not in the top ``k``.
    Ties are settled among whole groups of equal counts (a group of U' at count ``c`` is whole), so
    the tie rule orders them as it did then. The same argument with ``k = 1`` shows that every pair
    with the highest count then is returned (its count is at least ``c``). When fewer than ``k``
    pairs of U exist, U' is all of U: nothing is left out.
    """
    total: dict[str, int] = {}
    get = total.get
    for r in records:
        for key, d in _keyed(t, r):
            total[key] = get(key, 0) - d
    now = t._index.counts.get
    counts = {key: now(key, 0) + d for key, d in total.items()}
    found = 0
    if k:
        for c, bucket in t._index.exact_buckets():
            for key in bucket:
                if key not in total:
                    counts[key] = c
                    found += 1
            if found >= k:  # (a whole bucket is read: U' holds every pair of U counted c)
                break
    return counts


def _ranked(t: Trainer, rank: int, counts: dict[str, int], k: int) -> tuple[list[tuple[Pair, int]], int]:
    """The top ``k`` of ``counts`` (pair keys to counts before merge ``rank``), ordered by count and
    then by the trainer's tie rule as it stood then; and how many pairs had the highest count."""
    live = [(key, c) for key, c in counts.items() if c > 0]
    if not live:
        return [], 0
    high = max(c for _key, c in live)
    n_best = sum(1 for _key, c in live if c == high)
    if not k:
        return [], n_best
    pair = t._codes.pair_names.__getitem__
    if t.tie_break == "lexicographic":
        best = heapq.nlargest(k, live, key=lambda kc: (kc[1], pair(kc[0])))
        return [(pair(key), c) for key, c in best], n_best
    # "first": the pair seen first in the text then wins a tie; where it was first seen depends on
    # the words then, read only for the groups of equal counts the top k reaches
    lowest = heapq.nlargest(k, (c for _key, c in live))[-1]
    groups: dict[int, list[str]] = {}
    for key, c in live:
        if c >= lowest:
            groups.setdefault(c, []).append(key)
    out: list[tuple[Pair, int]] = []
    for c in sorted(groups, reverse=True):
        keys = groups[c]
        if len(keys) > 1:
            first = _first_seen(t, rank, keys)
            keys.sort(key=first.__getitem__)
        out.extend((pair(key), c) for key in keys[: k - len(out)])
    return out, n_best


def _first_seen(t: Trainer, rank: int, keys: list[str]) -> dict[str, tuple[int, int]]:
    """(first word holding the pair, its position there) of each pair key, in the words as they were
    just before merge ``rank`` (the "first" tie rule's order; a pair found nowhere sorts last).

    A pair's word list only grows as merges are made, so the words that held it then are among
    those listed now; they are read in id order, :data:`FIRST_CHUNK` at a time for each pair at
    first, eight times as many each round after."""
    index = t._index
    nowhere = (len(t._words), 0)
    listed = {key: index.ids(key).tolist() for key in keys}
    at = dict.fromkeys(keys, 0)
    size = FIRST_CHUNK
    out: dict[str, tuple[int, int]] = {}
    while listed:
        chunks = {key: ids[at[key] : at[key] + size] for key, ids in listed.items()}
        wanted = sorted({w for chunk in chunks.values() for w in chunk})
        codes = dict(zip(wanted, _words_then(t, rank, wanted)))
        for key, chunk in chunks.items():
            for w in chunk:
                i = codes[w].find(key)
                if i >= 0:
                    out[key] = (w, i)
                    break
            else:
                at[key] += size
                if at[key] >= len(listed[key]):
                    out[key] = nowhere
        for key in out:
            listed.pop(key, None)
        size *= 8
    return out


def _words_then(t: Trainer, rank: int, wids: list[int]) -> list[str]:
    """The codes of words ``wids`` just before merge ``rank``.

    From the start: each word's first codes with merges ``0 .. rank-1`` made again, each one
    ``str.replace`` over all the words joined by the separator (the merge kernels' own left-to-right
    rule; a merge is one C call however many words). Long words, a trainer that kept no start, and
    a merge near the end take the merges since back from the history instead
    (:meth:`TrainerViews._codes_before`)."""
    t._sync_long_words()
    start = t._start
    long_wids = t._long_wids
    made_long = t._long  # long words some merge changed (others are as they were)
    out: dict[int, str] = {}
    # (taking back the few merges since is cheaper near the end: ~10 times a merge made again)
    replay = start is not None and 10 * (len(t.merges) - rank) >= rank
    short = [w for w in wids if w not in long_wids] if replay else []
    if start is not None and short:
        if start.words is None:  # (decoded again from the words' bytes, as a reset does)
            firsts = [t._original[w].decode("latin-1") for w in short]
        else:
            firsts = start.words[short].tolist()
        sep = t._codes.sep
        text = sep.join(firsts)
        code = t._codes.code
        for a, b in t.merges[:rank]:
            pat = code[a] + code[b]
            if pat in text:
                text = text.replace(pat, code[a + b])
        out.update(zip(short, text.split(sep)))
    rest = [w for w in wids if w not in out]
    same = [w for w in rest if w in long_wids and w not in made_long]
    other = [w for w in rest if not (w in long_wids and w not in made_long)]
    out.update(zip(same, t._words[same].tolist() if same else []))
    if other:
        out.update(zip(other, t._codes_before(rank, other)))
    return [out[w] for w in wids]
