"""The pair index: how often each pair of adjacent tokens occurs, and in which words.

Pairs are keyed by their two token codes as a 2-character string (``key``, see
core/training/token_codes.py): a string hashes once and keeps its hash, where a tuple of two bytes objects is
hashed again at every lookup, and merges find pairs in words by the same strings.

Invariants (checked by the differential tests against a recount):

- ``counts[key]`` is the number of occurrences of the pair over all words, weighted by word counts;
  only pairs with a positive count are present.
- ``buckets[c]`` is a set of keys, each once listed under the count it had then: a count that goes
  *down* leaves its key where it is (one dict write instead of four set and dict operations per
  change), so a bucket may hold keys whose count is now lower, or that are gone. Every key with
  count ``n > 0`` is in some bucket ``c >= n`` (a count that goes up adds its key to the bucket of
  its new count). A bucket is made exact (:meth:`PairIndex.settle`: each stale key moves down to
  the bucket of its count, or leaves) before anyone reads it: then the highest non-empty bucket is
  exactly the set of pairs with the highest count.
- Only pairs counted at least ``floor`` times are sure to be in a bucket: the invariant above holds
  for every key with count ``n >= floor``, and every bucket is at or above the floor. Most pairs
  that merges make are rare (after 2,000 merges of 15 MB of Chinese, 80% of 1.1 million live pairs
  occur at most 3 times) and are never read from a bucket before the run ends; kept out, they cost
  no set operations and no set memory. The floor starts at 1/``FLOOR_STEP`` of the highest count and
  only goes down: when no bucket is left at or above it, one pass over the counts puts the pairs
  between it and 1/``FLOOR_STEP`` of the highest count below it into buckets
  (:meth:`PairIndex._lower_floor`; a pass per eightfold drop of the best count).
- ``heap`` holds ``-c`` for every ``c`` in ``buckets`` (a lazily-deleting max-heap: it may also
  hold counts whose bucket has emptied since, and repeats; :meth:`PairIndex.best` pops those when
  it meets them on top).
- ``words[key]`` lists, as C ints in a ``bytearray`` (or as one ``int`` while the pair was made in
  one word only), the ids of every word that contains the pair: a
  superset, since merges only append (stale ids and repeats are allowed and dropped where the ids
  are read, :func:`word_ids`); only undo removes ids, those its own merge appended
  (:meth:`PairIndex.truncate`).

Keys are strings and lists bytearrays because the garbage collector tracks neither (see
tests/benchmarks/README.md, "Performance note"). An ``array.array`` would be tracked (a heap type
since Python 3.10): with a list per live pair, the first collection after a run (the collector is
paused during one) then walked hundreds of thousands of them (0.18 s after 10,000 merges of 40 MB
of English text, 1.1 s after 32,000 merges of 200 MB), and each carried a 16-byte collector header.
A list's length in bytes is ``WID_BYTES`` times its length in ids.

>>> index, free = build_index((b"abab", b"ba"), (2, 1))
>>> index.counts["ab"], index.counts["ba"], index.best()[0]
(4, 3, 4)
"""

from __future__ import annotations

import heapq
import itertools
from array import array
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import partial

import numpy as np

from core.pretokenization.exact_counts import int_bincount
from core.training.token_codes import BYTE_TOKENS

WID_TYPECODE = "i"  # array.array's code for a C int, NumPy's np.intc
WID_BYTES = array(WID_TYPECODE).itemsize
FLOOR_STEP = 8  # the bucket floor is set to 1/FLOOR_STEP of the highest count below it
BUILD_BLOCK_BYTES = 1 << 20  # bytes of words indexed at a time while the index is built
SMALL_CORPUS_BYTES = (
    10_000  # below this (bytes of distinct words), plain Python counts pairs faster than NumPy
)


def best_of(bucket: set[str], tie_break: str, pair_names: Mapping[str, tuple], first_key) -> str:
    """The key the tie rule picks among the keys of pairs with the highest count: the greatest
    (bytes, bytes) pair, or the pair whose ``first_key`` (where it first occurs) is smallest."""
    if len(bucket) == 1:
        return next(iter(bucket))
    if tie_break == "lexicographic":
        return max(bucket, key=pair_names.__getitem__)
    return min(bucket, key=first_key)


def sorted_unique(ids: np.ndarray) -> np.ndarray:
    """The distinct values of a NumPy array, sorted (``np.unique`` took 5x longer on NumPy 2.4)."""
    if ids.size < 2 or (ids[1:] > ids[:-1]).all():  # e.g. a byte pair's ids, listed in order
        return ids
    s = np.sort(ids)
    return s[np.r_[True, s[1:] != s[:-1]]]


Listed = bytearray | int  # an index entry: word ids as C ints, or the one id of a pair made in one word


def word_ids(listed: Listed) -> np.ndarray:
    """The distinct word ids of an index entry, sorted, in a new NumPy array (a view would stop a
    bytearray from growing)."""
    if isinstance(listed, int):
        return np.array([listed], dtype=np.intc)
    ids = sorted_unique(np.frombuffer(listed, dtype=np.intc))
    return ids.copy() if ids.base is not None else ids


def _n_bytes(listed: Listed) -> int:
    return WID_BYTES if isinstance(listed, int) else len(listed)


_EMPTY = bytearray()


class PairIndex:
    """Pair counts, count buckets with a heap of counts, and the word ids of each pair."""

    def __init__(self, counts: dict[str, int], words: dict[str, Listed], floor: int | None = None) -> None:
        self.words = words
        self._set_counts(counts, floor)

    def _set_counts(self, counts: dict[str, int], floor: int | None = None) -> None:
        """Take ``counts`` and build the buckets and heap from them (``floor``: see the module doc;
        by default 1/FLOOR_STEP of the highest count)."""
        self.counts = counts
        if floor is None:
            floor = max(1, max(counts.values(), default=0) // FLOOR_STEP)
        self.floor = floor
        buckets: dict[int, set[str]] = {}
        for p, c in counts.items():
            if c < floor:
                continue
            b = buckets.get(c)
            if b is None:
                buckets[c] = {p}
            else:
                b.add(p)
        self.buckets = buckets
        self.heap = [-c for c in buckets]
        heapq.heapify(self.heap)
        self._exact: int | None = None  # a bucket known to be exact (see the module doc) ...
        self._exact_changed: list[str] = []  # ... but for the pairs counted that many that changed since

    def best(self) -> tuple[int, set[str]] | None:
        """The highest count and the keys of the pairs that have it (None when no pair is left)."""
        heap = self.heap
        buckets = self.buckets
        while heap or (self.floor > 1 and self._lower_floor()):
            c = -heap[0]
            b = buckets.get(c)
            if b:
                changed = self._exact_changed
                if c != self._exact:
                    self._exact = None
                    self.settle(c)
                elif changed:  # exact but for these pairs: only they can be stale in it
                    self._move_stale(
                        c, [p for p in dict.fromkeys(changed) if p in b] if len(changed) < len(b) else b
                    )
                self._exact_changed = []
                b = buckets.get(c)
                if b:
                    self._exact = c  # exact but for the pairs counted c that change after this (apply_deltas)
                    return c, b
            buckets.pop(c, None)
            heapq.heappop(heap)
        return None

    def settle(self, c: int) -> list[int]:
        """Make bucket ``c`` exact: each key whose count is no longer ``c`` moves to the bucket of
        its count (when lower: a higher count has its key there already) or leaves. Returns the
        counts of the buckets this made."""
        b = self.buckets.get(c)
        return self._move_stale(c, b) if b else []

    def _move_stale(self, c: int, keys) -> list[int]:
        """:meth:`settle` for the keys of bucket ``c`` among ``keys`` (the stale ones are among them)."""
        b = self.buckets[c]
        get = self.counts.get
        stale = [p for p in keys if get(p) != c]
        made = []
        floor = self.floor
        for p in stale:
            b.discard(p)
            n = get(p, 0)
            if floor <= n < c:
                into = self.buckets.get(n)
                if into is None:
                    self.buckets[n] = {p}
                    heapq.heappush(self.heap, -n)
                    made.append(n)
                else:
                    into.add(p)
        if not b:
            del self.buckets[c]
        return made

    def exact_buckets(self, down_to: int = 1) -> Iterator[tuple[int, set[str]]]:
        """The buckets of counts ``>= down_to``, highest first, each made exact when reached (the
        top ``k`` pairs read only the buckets they need)."""
        todo = [-c for c in self.buckets if c >= down_to]
        heapq.heapify(todo)
        done = set()
        while True:
            while todo:
                c = -heapq.heappop(todo)
                if c in done:
                    continue
                done.add(c)
                for n in self.settle(c):
                    if n >= down_to:
                        heapq.heappush(todo, -n)
                b = self.buckets.get(c)
                if b:
                    yield c, b
            # every bucket is at or above the floor: the pairs not yet read are below it
            if self.floor <= down_to:
                return
            for n in self._lower_floor():
                if n >= down_to:
                    heapq.heappush(todo, -n)

    def _lower_floor(self) -> list[int]:
        """Lower the floor to 1/FLOOR_STEP of the highest count below it (or to 1), putting the pairs
        counted between the two floors into buckets. Returns the counts of the buckets this made
        (none when no pair was below the floor)."""
        floor = self.floor
        counts = self.counts
        top = max((n for n in counts.values() if n < floor), default=0)  # (no list of every low pair)
        new = max(1, top // FLOOR_STEP)
        self.floor = new
        buckets = self.buckets
        made: list[int] = []
        if not top:
            return made
        for p, n in counts.items():
            if new <= n < floor:
                b = buckets.get(n)
                if b is None:
                    buckets[n] = {p}
                    heapq.heappush(self.heap, -n)
                    made.append(n)
                else:
                    b.add(p)
        return made

    def n_with_count(self, count: int) -> int:
        """How many pairs occur exactly ``count`` times."""
        for c, b in self.exact_buckets(count):
            if c == count:
                return len(b)
        return 0

    def ids(self, key: str) -> np.ndarray:
        """The distinct ids of the words listed under a pair's key, sorted."""
        return word_ids(self.words.get(key, _EMPTY))

    def n_listed(self, key: str) -> int:
        """How many ids are listed under a pair's key (repeats and stale ones included)."""
        return _n_bytes(self.words.get(key, _EMPTY)) // WID_BYTES

    def start(self) -> IndexStart:
        """Remember the index as it is now (taken right after building it)."""
        return IndexStart(dict(self.counts), {key: _n_bytes(listed) for key, listed in self.words.items()})

    def restore(self, start: IndexStart) -> tuple[object, ...]:
        """Go back to ``start``: the word lists are cut back to their first lengths (merges only
        append to them), the lists merges made are dropped, and counts, buckets and heap are rebuilt
        from the copy. The same state as undoing every merge since then one by one. Returns the
        parts replaced, for the caller to free when it has time."""
        words = self.words
        kept: dict[str, Listed] = {}
        for key, size in start.sizes.items():
            listed = words[key]
            if not isinstance(listed, int):  # (one id: it was one id then, too)
                del listed[size:]
            kept[key] = listed
        old = (words, self.counts, self.buckets, self.heap)
        self.words = kept
        self._set_counts(dict(start.counts))
        return old

    def apply_deltas(
        self, delta: dict[str, int], report: bool = True, forget: bool = False
    ) -> tuple[tuple[str, int], ...]:
        """Add pair-count changes (keyed by pair key); returns the non-zero ones (with ``report``).
        A count that goes down keeps its key in its bucket (see the module doc); one that goes to 0
        leaves the bucket it was counted in, when it is still there. With ``forget`` (no undo), a
        pair that goes to 0 also loses its word list (no word holds it any more: every listed id
        is stale; a merged pair's list would otherwise stay for good)."""
        counts = self.counts
        words = self.words
        get = counts.get
        buckets = self.buckets
        bget = buckets.get
        heap = self.heap
        exact = self._exact
        changed = self._exact_changed
        floor = self.floor
        out = []
        for p, d in delta.items():
            if not d:
                continue
            if report:
                out.append((p, d))
            old = get(p, 0)
            new = old + d
            if old == exact:
                changed.append(p)  # a pair of the exact bucket changed: check it before reading the bucket
            if new > 0:
                counts[p] = new
                if d > 0 and new >= floor:
                    into = bget(new)
                    if into is None:
                        buckets[new] = {p}
                        heapq.heappush(heap, -new)
                    else:
                        into.add(p)
            else:
                del counts[p]
                if forget:
                    words.pop(p, None)
                b = bget(old)
                if b is not None:
                    b.discard(p)  # (keeps dead keys from piling up in buckets never read again)
        return tuple(out)

    def add_word_ids(
        self, new_index: Mapping[str, list[int] | np.ndarray], report: bool = True
    ) -> tuple[tuple[str, int], ...]:
        """List words under pairs (lists of ids or NumPy arrays of C ints), by pair key; returns
        (with ``report``) what :meth:`truncate` needs to take exactly these entries back."""
        words = self.words
        get = words.get
        sizes = []
        for key, listed in new_index.items():
            known = get(key)
            if known is None:
                if len(listed) == 1:  # made in one word (most pairs): the id itself, ~60 bytes less
                    words[key] = int(listed[0])
                else:
                    words[key] = bytearray(
                        array(WID_TYPECODE, listed) if isinstance(listed, list) else listed.tobytes()
                    )
                if report:
                    sizes.append((key, 0))
                continue
            if isinstance(known, int):
                known = words[key] = bytearray(array(WID_TYPECODE, (known,)))
            if report:
                sizes.append((key, len(known)))
            known += array(WID_TYPECODE, listed) if isinstance(listed, list) else listed.tobytes()
        return tuple(sizes)

    def truncate(self, sizes: tuple[tuple[str, int], ...]) -> None:
        """Remove the entries the last :meth:`add_word_ids` added (undo is last-in first-out)."""
        words = self.words
        for key, size in sizes:
            listed = words[key]
            if not size:
                del words[key]
            elif not isinstance(listed, int):  # (an int was made a bytearray before anything was added)
                del listed[size:]


@dataclass(frozen=True)
class IndexStart:
    """What :meth:`PairIndex.restore` needs to bring an index back to how it was built: a copy of
    the counts (pairs of bytes only: at most 65,536) and the length of every word list."""

    counts: dict[str, int]
    sizes: dict[str, int]


def build_index(
    words: tuple[bytes, ...],
    wcounts: tuple[int, ...],
    small_corpus_bytes: int = SMALL_CORPUS_BYTES,
    block_bytes: int = BUILD_BLOCK_BYTES,
) -> tuple[PairIndex, list[int]]:
    """Count all byte pairs and index the words containing each; also returns the byte values
    that occur in no word (free token codes). ``block_bytes``: see :func:`_build_numpy`."""
    counts: dict[str, int] = {}
    index: dict[str, Listed] = {}
    if sum(map(len, words)) < small_corpus_bytes:
        free = _build_small(words, wcounts, counts, index)
    else:
        free = _build_numpy(words, wcounts, counts, index, block_bytes)
    return PairIndex(counts, index), free


def _build_small(words, wcounts, counts: dict[str, int], index: dict[str, Listed]) -> list[int]:
    get = counts.get
    joined = b"".join(words)
    listed: defaultdict[str, array] = defaultdict(partial(array, WID_TYPECODE))
    for wid, w in enumerate(words):
        c = wcounts[wid]
        keys = [chr(x) + chr(y) for x, y in itertools.pairwise(w)]
        for p in keys:
            counts[p] = get(p, 0) + c
        for p in dict.fromkeys(keys):
            listed[p].append(wid)
    index.update((p, bytearray(ids)) for p, ids in listed.items())
    return [i for i in range(256) if BYTE_TOKENS[i] not in joined]


def _build_numpy(
    words, wcounts, counts: dict[str, int], index: dict[str, Listed], block_bytes: int = BUILD_BLOCK_BYTES
) -> list[int]:
    """:func:`_build_small` vectorised (the same counts and index, in the same order), a block of
    words (about ``block_bytes`` bytes) at a time: the temporary arrays take ~19 bytes per byte of
    one block, not of the whole corpus (at 15 MB of Chinese they were 1 KB per distinct word)."""
    seen = np.zeros(256, dtype=bool)
    totals = np.zeros(65536, dtype=np.int64)
    listed: dict[int, bytearray] = {}  # pair code -> word ids, ascending (blocks come in word order)
    wcounts_np = np.array(wcounts, dtype=np.int64)
    lens = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
    ends = np.cumsum(lens)
    lo = 0
    while lo < len(words):
        if lens[lo] > block_bytes:  # a word longer than a block (a whole document, a 20 MB line)
            _index_long_word(words[lo], lo, int(wcounts_np[lo]), seen, totals, listed)
            lo += 1
            continue
        # the words up to the next ~block_bytes bytes (at least one word)
        hi = max(lo + 1, int(np.searchsorted(ends, (ends[lo - 1] if lo else 0) + block_bytes, "right")))
        _index_block(words, lo, hi, lens[lo:hi], wcounts_np[lo:hi], seen, totals, listed)
        lo = hi
    del wcounts_np, lens, ends
    for code in sorted(listed):
        key = chr(code >> 8) + chr(code & 255)
        counts[key] = int(totals[code])
        index[key] = listed[code]
    return np.flatnonzero(~seen).tolist()


def _index_long_word(
    word: bytes, wid: int, count: int, seen: np.ndarray, totals: np.ndarray, listed: dict[int, bytearray]
) -> None:
    """:func:`_index_block` for one word longer than a block: its pairs counted with one bincount
    (about 3 bytes per byte of the word; the block's word ids and sort took ~25, 500 MB for a 20 MB
    line)."""
    flat = np.frombuffer(word, dtype=np.uint8)
    seen |= np.bincount(flat, minlength=256) > 0
    codes = flat[:-1].astype(np.uint16)
    codes <<= 8
    codes |= flat[1:]
    per_code = np.bincount(codes, minlength=65536)
    del codes
    totals += per_code * count  # (int64: exact)
    me = array(WID_TYPECODE, (wid,)).tobytes()
    for code in np.flatnonzero(per_code).tolist():
        ids = listed.get(code)
        if ids is None:
            ids = listed[code] = bytearray()
        ids += me


def _index_block(
    words,
    lo: int,
    hi: int,
    lens: np.ndarray,
    wcounts_np: np.ndarray,
    seen: np.ndarray,
    totals: np.ndarray,
    listed: dict[int, bytearray],
) -> None:
    """Index words ``lo .. hi-1``: mark their byte values in ``seen``, add their pair counts to
    ``totals`` and append their ids to ``listed`` (code -> ids)."""
    flat = np.frombuffer(b"".join(words[lo:hi]), dtype=np.uint8)
    seen |= np.bincount(flat, minlength=256) > 0
    if not (lens.size and lens.max() >= 2):
        return
    # small arrays (2 and 4 bytes a pair; 8 for the sort's order), freed as soon as they are used
    local = np.repeat(np.arange(lens.size, dtype=np.intc), lens)  # word of each byte, from 0
    inside = local[:-1] == local[1:]  # pair (k, k+1) lies inside one word
    codes = flat[:-1].astype(np.uint16)
    codes <<= 8
    codes |= flat[1:]
    codes = codes[inside]
    del flat
    wids = local[:-1][inside]
    del local, inside
    # each pair's count: every occurrence weighs its word's count (exact int64 sums, also above 2^53)
    totals += int_bincount(codes, wcounts_np[wids], 65536)
    # grouped by pair, word ids ascending: a stable sort of 16-bit keys (NumPy sorts them by radix,
    # in linear time; the word ids are ascending already). The sorted codes are rebuilt from their
    # counts rather than gathered.
    wids = wids[np.argsort(codes, kind="stable")]
    per_code = np.bincount(codes, minlength=65536)
    del codes
    codes = np.repeat(np.arange(65536, dtype=np.uint16), per_code)
    first = np.empty(codes.size, dtype=bool)  # a word is listed once per pair
    first[0] = True
    np.not_equal(codes[1:], codes[:-1], out=first[1:])
    first[1:] |= wids[1:] != wids[:-1]
    if not first.all():
        wids = wids[first]
        per_code = np.bincount(codes[first], minlength=65536)
    del codes, first
    wids += lo  # (word ids of the whole corpus)
    present = np.flatnonzero(per_code)
    ends = np.cumsum(per_code)[present]
    starts = ends - per_code[present]
    size = wids.itemsize
    wid_bytes = memoryview(wids).cast("B")  # (no copy)
    for code, a, b in zip(present.tolist(), starts.tolist(), ends.tolist()):
        ids = listed.get(code)
        if ids is None:
            ids = listed[code] = bytearray()
        ids += wid_bytes[a * size : b * size]
