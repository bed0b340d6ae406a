"""Merge kernels: merge one pair in the words that contain it and return what changed.

A kernel reads the words (one character per token, see core/training/token_codes.py) and changes nothing:
it returns a :class:`WordsMerge` with the new words, the pair-count changes and the words to list
under the pairs it made; the trainer applies it (so a merge stopped half-way has changed nothing).
Around each site (a, b) -> ab: the left pair (x, a) becomes (x, ab) unless the previous site ends
right before it; the right pair (b, y) is lost and becomes (ab, y) unless the next site starts
right after it; two adjacent sites make (ab, ab). Sites are found left to right and never
overlap, as ``str.replace`` finds them.

Pairs are keyed by their two codes as one string (``"xa"`` for the pair x, a), as the pair index keys them.

>>> word_sites("xabab", 1, "a", "b", "Z")
([('ba', -1), ('xa', -1), ('xZ', 1), ('ZZ', 1)], ['xZ', 'ZZ'], 2)
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from core.pretokenization.exact_counts import int_bincount
from core.training.long_words import CODE_BITS, LongMerge, LongWord
from core.training.pair_index import sorted_unique

INTERRUPT_EVERY = 2047  # words between interrupt checks (a power of two minus one)
BATCH_BLOCK_CHARS = 1 << 21  # characters of candidate words a batched merge takes at a time
_MASK_BLOCK = 1 << 22  # characters compared at a time when a batch looks for the pair
CODE_MASK = (1 << CODE_BITS) - 1


class Interrupted(Exception):
    """Raised inside a merge when its interrupt says stop (nothing has been changed)."""


@dataclass
class WordsMerge:
    """What merging a pair changes in the words (keyed by token codes)."""

    wids: np.ndarray  # the words that contain the pair (C ints, ascending)
    olds: np.ndarray | None  # their codes before the merge (str objects; None for a long word), if asked for
    written: np.ndarray  # the changed words that are not long ...
    news: list[str] | np.ndarray  # ... and their codes after the merge
    occurrences: int  # the changed words counted with their frequency
    deltas: dict[str, int]  # pair-count changes by pair key, weighted by word counts
    new_index: Mapping[str, list[int] | np.ndarray]  # word ids to list under the pairs made
    long_plans: list[tuple[int, LongWord, LongMerge]]  # long words: the merge to apply to each


def word_sites(w: str, i: int, ca: str, cb: str, cab: str) -> tuple[list[tuple[str, int]], list[str], int]:
    """The pair changes of one occurrence of a word with the pair at ``i`` (and maybe further
    on): (changes, pairs made, number of sites)."""
    pat = ca + cb
    sites = []
    while i >= 0:
        sites.append(i)
        i = w.find(pat, i + 2)
    n = len(w)
    last = len(sites) - 1
    changes: list[tuple[str, int]] = []
    made: list[str] = []
    for k, i in enumerate(sites):
        adj_prev = k > 0 and sites[k - 1] + 2 == i
        adj_next = k < last and sites[k + 1] == i + 2
        if i + 2 < n:
            changes.append((cb + w[i + 2], -1))
        if adj_prev:
            changes.append((cab + cab, 1))
            made.append(cab + cab)
        elif i:
            x = w[i - 1]
            changes.append((x + ca, -1))
            changes.append((x + cab, 1))
            made.append(x + cab)
        if not adj_next and i + 2 < n:
            p = cab + w[i + 2]
            changes.append((p, 1))
            made.append(p)
    return changes, made, len(sites)


def merge_words(
    words: np.ndarray,
    ids: np.ndarray,
    wcounts: tuple[int, ...],
    ca: str,
    cb: str,
    cab: str,
    long_words: dict[int, LongWord],
    long_wids: set[int],
    interrupt: Callable[[], bool] | None = None,
    keep_olds: bool = True,
) -> WordsMerge:
    """Merge word by word (pairs in few words). ``ids``: candidate word ids (stale ones are
    skipped). Long words (ids in ``long_wids``) get a plan from their :class:`LongWord` (made from
    the word's codes on first use and added to ``long_words``). ``keep_olds``: return the words'
    codes before the merge (for undo)."""
    pat = ca + cb
    cdelta: defaultdict[str, int] = defaultdict(int)
    new_index: defaultdict[str, list[int]] = defaultdict(list)
    # words with one site, by the token left (right) of it: their changes are summed per token
    # after the loop (half the dictionary work of adding each word's four changes to cdelta)
    left: defaultdict[str, list[int]] = defaultdict(list)
    right: defaultdict[str, list[int]] = defaultdict(list)
    changed: list[int] = []
    olds: list[str | None] = []
    news: list[str] = []
    long_plans = []
    multi_sites = multi_count = 0  # sites in words with several, and those words' counts
    wid_list = ids.tolist()
    if long_wids and not long_wids.isdisjoint(wid_list):
        long_plans = _long_plans(
            wid_list, words, wcounts, ca, cb, cab, long_words, long_wids, cdelta, new_index
        )
        wid_list = [wid for wid in wid_list if wid not in long_wids]  # (their strings in words are stale)
        ids = np.array(wid_list, dtype=np.intc)
    stride = INTERRUPT_EVERY + 1
    for lo in range(0, len(wid_list), stride):
        if lo and interrupt is not None and interrupt():
            raise Interrupted
        part = wid_list[lo : lo + stride]
        # (the words read with the ids' array: a list as an index is converted to one first)
        for wid, w in zip(part, words[ids[lo : lo + stride]].tolist()):
            i = w.find(pat)
            if i < 0:
                continue  # stale index entry
            changed.append(wid)
            j = i + 2
            if w.find(pat, j) < 0:  # one site (the common case: word_sites for it, inlined)
                if i:
                    left[w[i - 1]].append(wid)
                if j < len(w):
                    right[w[j]].append(wid)
                news.append(w.replace(pat, cab))  # one site: the same as w[:i] + cab + w[j:], in one C call
            else:
                c = wcounts[wid]
                changes, made, n_sites = word_sites(w, i, ca, cb, cab)
                for p, d in changes:
                    cdelta[p] += d * c
                for p in made:
                    new_index[p].append(wid)
                multi_sites += n_sites * c
                multi_count += c
                news.append(w.replace(pat, cab))  # left to right, never overlapping: the same sites
            if keep_olds:
                olds.append(w)
    count = wcounts.__getitem__
    for side, lost, made_of in ((left, ca, cab), (right, cb, cab)):
        for t, wids_t in side.items():
            total = sum(map(count, wids_t))
            if side is left:
                cdelta[t + lost] -= total
                key = t + made_of
            else:
                cdelta[lost + t] -= total
                key = made_of + t
            cdelta[key] += total
            known = new_index.get(key)
            if known is None:
                new_index[key] = wids_t
            else:
                known += wids_t
    occurrences = sum(map(count, changed))
    # each word with one site has one: the pair loses the counts of those words and the others' sites
    cdelta[pat] -= occurrences - multi_count + multi_sites
    written = np.array(changed, dtype=np.intc)
    if not long_plans:
        return WordsMerge(
            written,
            object_array(olds) if keep_olds else None,
            written,
            news,
            occurrences,
            cdelta,
            new_index,
            [],
        )
    n_long = len(long_plans)
    long_wid_list = [wid for wid, _lw, _plan in long_plans]
    occurrences += sum(map(count, long_wid_list))
    wids = np.array(long_wid_list + changed, dtype=np.intc)
    order = np.argsort(wids, kind="stable")  # ascending ids, as the other kernels give them
    olds_all = object_array([None] * n_long + olds)[order] if keep_olds else None
    return WordsMerge(wids[order], olds_all, written, news, occurrences, cdelta, new_index, long_plans)


def _long_plans(
    wid_list: list[int],
    words: np.ndarray,
    wcounts: tuple[int, ...],
    ca: str,
    cb: str,
    cab: str,
    long_words: dict[int, LongWord],
    long_wids: set[int],
    cdelta: defaultdict[str, int],
    new_index: defaultdict[str, list[int]],
) -> list[tuple[int, LongWord, LongMerge]]:
    """The merge plans of the long words among the candidates (their pair changes are added to
    ``cdelta`` and ``new_index``)."""
    plans = []
    for wid in wid_list:
        if wid not in long_wids:
            continue
        lw = long_words.get(wid)
        if lw is None:  # first merge in this word: its string is still the current one
            lw = long_words[wid] = LongWord(words[wid])
        plan = lw.plan(ord(ca), ord(cb), ord(cab))
        if plan is None:
            continue  # stale index entry
        c = wcounts[wid]
        plans.append((wid, lw, plan))
        for (x, y), d in plan.deltas.items():
            cdelta[chr(x) + chr(y)] += d * c
        for key in plan.new_positions:
            new_index[chr(key >> CODE_BITS) + chr(key & CODE_MASK)].append(wid)
    return plans


def merge_batch(
    words: np.ndarray,
    wids: np.ndarray,
    wcounts: np.ndarray,
    ca: str,
    cb: str,
    cab: str,
    sep: str,
    small_codes: bool,
    interrupt: Callable[[], bool] | None = None,
    block_chars: int = BATCH_BLOCK_CHARS,
    keep_olds: bool = True,
) -> WordsMerge:
    """Merge in all candidate words at once (pairs in many words, e.g. the first merges).

    The words are joined with the separator ``sep`` and one ``str.replace`` merges every site;
    the pair changes follow the rules of :func:`word_sites`, computed for all sites with NumPy and
    weighted by word counts (each kind of change is a ``bincount`` over the neighbouring token's
    code). Identical results to :func:`merge_words`, over 10x faster for a pair in 40,000 words.
    ``small_codes``: every token code fits 16 bits (a radix sort groups the sites' words).

    The candidates are taken a block of about ``block_chars`` characters at a time (the temporary
    arrays then take a few bytes per character of one block, not of every candidate: at the first
    merges of 15 MB of Chinese they were ~0.5 KB per distinct word); the blocks' sums per
    neighbouring code are added and listed in the order one block of everything would list them.
    """
    olds_list = words[wids].tolist()
    big = sep.join(olds_list)
    if len(big) <= block_chars:  # one block (most batches): no word lengths needed
        block = _merge_block(olds_list, None, wids, wcounts, ca, cb, cab, sep, small_codes, interrupt, big)
        return _joined([block], words, wids, ca, cb, cab, keep_olds)
    del big
    lens = np.fromiter(map(len, olds_list), dtype=np.int64, count=len(olds_list))
    ends = np.cumsum(lens + 1)
    parts: list[_Block] = []
    lo = 0
    while lo < wids.size:
        if lo and interrupt is not None and interrupt():
            raise Interrupted
        base = ends[lo - 1] if lo else 0
        hi = max(lo + 1, int(np.searchsorted(ends, base + block_chars, "right")))
        parts.append(
            _merge_block(
                olds_list[lo:hi], lens[lo:hi], wids[lo:hi], wcounts, ca, cb, cab, sep, small_codes, interrupt
            )
        )
        lo = hi
    del olds_list
    return _joined(parts, words, wids, ca, cb, cab, keep_olds)


@dataclass
class _Block:
    """What one block of a batched merge found: per kind of change (see :func:`merge_batch`), the
    summed weights by neighbouring code and, for the pairs made, the sites' words by code."""

    sums: list[dict[int, int]]  # (b, y) lost, (x, a) lost, (x, ab) made, (ab, y) made
    listed: list[dict[int, np.ndarray]]  # (x, ab), (ab, y): word ids by code
    adjacent: int  # weight of the (ab, ab) made by adjacent sites
    adjacent_ids: np.ndarray  # their words, sorted, distinct
    total: int  # the summed weight of every site
    hit: np.ndarray  # positions (in the block's candidates) of the words that changed
    news: list[str]  # the block's candidates after the merge (all of them)
    occurrences: int


def _joined(
    parts: list[_Block], words: np.ndarray, wids: np.ndarray, ca: str, cb: str, cab: str, keep_olds: bool
) -> WordsMerge:
    """The blocks' results as one :class:`WordsMerge`, keyed and ordered as one block would
    (``keep_olds``: with the changed words' codes before the merge)."""
    cdelta: defaultdict[str, int] = defaultdict(int)
    new_index: dict[str, np.ndarray] = {}

    def listed(key: str, ids: np.ndarray) -> None:
        """New index entries (``ab`` may be an existing token, so (x, ab) with x = ab can meet
        (ab, ab) from adjacent sites: those are joined)."""
        old = new_index.get(key)
        new_index[key] = ids if old is None else np.concatenate((old, ids))

    kinds = (
        (-1, lambda y: cb + y),  # (b, y) is lost
        (-1, lambda x: x + ca),  # (x, a) is lost
        (1, lambda x: x + cab),  # (x, ab) is made
        (1, lambda y: cab + y),  # (ab, y) is made
    )
    one = len(parts) == 1  # (a block's codes come in ascending order: nothing to add or sort)
    for k, (sign, pair_of) in enumerate(kinds):
        if one:
            for code, d in parts[0].sums[k].items():
                cdelta[pair_of(chr(code))] += sign * d
        else:
            sums: dict[int, int] = {}
            for part in parts:
                for code, d in part.sums[k].items():
                    sums[code] = sums.get(code, 0) + d
            for code in sorted(sums):
                cdelta[pair_of(chr(code))] += sign * sums[code]
        if k < 2:
            continue
        if one:
            for code, ids in parts[0].listed[k - 2].items():
                listed(pair_of(chr(code)), ids)
            continue
        groups: dict[int, list[np.ndarray]] = {}
        for part in parts:
            for code, ids in part.listed[k - 2].items():
                groups.setdefault(code, []).append(ids)
        for code in sorted(groups):
            g = groups[code]
            listed(pair_of(chr(code)), g[0] if len(g) == 1 else np.concatenate(g))
    if any(part.adjacent for part in parts):  # two adjacent sites make (ab, ab)
        cdelta[cab + cab] += sum(part.adjacent for part in parts)
        adj = [part.adjacent_ids for part in parts if part.adjacent_ids.size]
        listed(cab + cab, adj[0] if len(adj) == 1 else np.concatenate(adj))
    total = sum(part.total for part in parts)
    if total:
        cdelta[ca + cb] -= total
    occurrences = sum(part.occurrences for part in parts)
    if len(parts) == 1:
        hit, news = parts[0].hit, parts[0].news
    else:
        offsets = itertools.accumulate((len(part.news) for part in parts[:-1]), initial=0)
        hit = np.concatenate([part.hit + off for part, off in zip(parts, offsets)])
        news = [w for part in parts for w in part.news]
    if hit.size == wids.size:  # every candidate changed (no stale index entries)
        olds = words[wids] if keep_olds else None
        return WordsMerge(wids, olds, wids, news, occurrences, cdelta, new_index, [])
    changed = wids[hit]
    olds = words[changed] if keep_olds else None
    news = list(map(news.__getitem__, hit.tolist()))  # (the changed words' only)
    return WordsMerge(changed, olds, changed, news, occurrences, cdelta, new_index, [])


def _code_array(big: str, small_codes: bool) -> np.ndarray:
    """The codes of a string as a NumPy array of the narrowest unsigned type that holds them
    (1 byte a character while every code is a byte value: a quarter of UTF-32's memory)."""
    if big.isascii():
        return np.frombuffer(big.encode("ascii"), dtype=np.uint8)
    try:
        return np.frombuffer(big.encode("latin-1"), dtype=np.uint8)
    except UnicodeEncodeError:
        pass
    if small_codes:  # (no surrogates: codes skip them, so UTF-16 has one unit a character)
        return np.frombuffer(big.encode("utf-16-le"), dtype=np.uint16)
    return np.frombuffer(big.encode("utf-32-le"), dtype=np.uint32)


def _flat_pairs(arr: np.ndarray, A: int, B: int) -> np.ndarray:
    """Positions ``i`` with ``arr[i] == A`` and ``arr[i + 1] == B`` (a block of the array at a
    time: the boolean masks stay small)."""
    out = [np.zeros(0, dtype=np.intp)]
    n = arr.size - 1
    for lo in range(0, max(n, 0), _MASK_BLOCK):
        hi = min(lo + _MASK_BLOCK, n)
        hit = arr[lo:hi] == A
        hit &= arr[lo + 1 : hi + 1] == B
        out.append(np.flatnonzero(hit) + lo)
    return np.concatenate(out)


_NO_IDS = np.zeros(0, dtype=np.intc)


def _merge_block(
    olds: list[str],
    lens: np.ndarray | None,
    wids: np.ndarray,
    wcounts: np.ndarray,
    ca: str,
    cb: str,
    cab: str,
    sep: str,
    small_codes: bool,
    interrupt: Callable[[], bool] | None,
    big: str | None = None,
) -> _Block:
    """One block of :func:`merge_batch`: the candidate words ``olds`` (their ``lens``, or None
    where ``big`` gives them joined already, and their ids)."""

    def check() -> None:
        if interrupt is not None and interrupt():
            raise Interrupted

    sep_code = ord(sep)
    if big is None:
        big = sep.join(olds)
    pat = ca + cb
    if pat not in big:
        return _Block([{}, {}, {}, {}], [{}, {}], 0, _NO_IDS, 0, _NO_IDS, olds, 0)
    check()
    new = big.replace(pat, cab).split(sep)
    check()
    arr = _code_array(big, small_codes)
    del big
    A, B = ord(ca), ord(cb)
    sites = _flat_pairs(arr, A, B)
    if A == B and sites.size > 1:
        # overlapping candidates ("aaa"): in each run of consecutive ones keep every other one
        k = np.arange(sites.size)
        run_first = np.maximum.accumulate(np.where(np.r_[True, sites[1:] != sites[:-1] + 1], k, 0))
        sites = sites[(k - run_first) % 2 == 0]
    if lens is None:  # where each word starts in the joined string: after each separator
        starts = np.r_[0, np.flatnonzero(arr == sep_code) + 1]
    else:
        starts = np.zeros(lens.size, dtype=np.int64)
        np.cumsum(lens[:-1] + 1, out=starts[1:])
    widx = np.searchsorted(starts, sites, side="right") - 1  # position in wids of each site's word
    del starts
    check()
    counts = wcounts[wids]
    wt = counts[widx]
    n = arr.size
    left = np.where(sites > 0, arr[np.maximum(sites - 1, 0)].astype(np.int64), sep_code)
    right = np.where(sites + 2 < n, arr[np.minimum(sites + 2, n - 1)].astype(np.int64), sep_code)
    del arr
    adjacent = sites[1:] == sites[:-1] + 2
    adj_prev, adj_next = np.r_[False, adjacent], np.r_[adjacent, False]
    has_right = right != sep_code
    has_left = (left != sep_code) & ~adj_prev
    new_right = has_right & ~adj_next
    site_wids = wids[widx]  # C ints, as the index stores them

    def summed(mask: np.ndarray, side: np.ndarray) -> dict[int, int]:
        """The summed weights of the sites in ``mask`` by their neighbour's code on ``side``."""
        codes = side[mask]
        if not codes.size:
            return {}
        sums = int_bincount(codes, wt[mask])  # (exact: float64 weights lose units above 2^53)
        present = np.flatnonzero(sums)
        return dict(zip(present.tolist(), sums[present].tolist()))

    def grouped(mask: np.ndarray, side: np.ndarray) -> dict[int, np.ndarray]:
        """The words of the sites in ``mask`` by their neighbour's code on ``side`` (a radix sort
        when codes fit 16 bits), in site order."""
        codes = side[mask]
        if not codes.size:
            return {}
        order = np.argsort(codes.astype(np.uint16) if small_codes else codes, kind="stable")
        sc, ws = codes[order], site_wids[mask][order]
        bounds = np.flatnonzero(np.r_[True, sc[1:] != sc[:-1], True]).tolist()
        return {int(sc[lo]): ws[lo:hi] for lo, hi in itertools.pairwise(bounds)}

    sums = [
        summed(has_right, right),
        summed(has_left, left),
        summed(has_left, left),
        summed(new_right, right),
    ]
    listed = [grouped(has_left, left), grouped(new_right, right)]
    adjacent = int(wt[adj_prev].sum()) if adj_prev.any() else 0
    adjacent_ids = sorted_unique(site_wids[adj_prev]) if adjacent else _NO_IDS
    check()
    hit = widx[np.r_[True, widx[1:] != widx[:-1]]]  # widx is sorted: each changed word once
    return _Block(sums, listed, adjacent, adjacent_ids, int(wt.sum()), hit, new, int(counts[hit].sum()))


def object_array(items: list) -> np.ndarray:
    """A 1-d NumPy array holding the given objects (strings are not split into characters)."""
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out
