"""Pure byte-pair-merge functions used by the tokenizer (no state, no I/O).

A word (one pre-token's bytes) is split into single bytes, then the adjacent pair with the lowest
merge rank is merged, leftmost first on ties, until no adjacent pair has a rank. This is the rule of
GPT-2's ``encoder.py``, tiktoken and HuggingFace ``tokenizers``.

>>> ranks = {(b"a", b"a"): 0, (b"aa", b"b"): 1}
>>> bpe_merge(b"aaab", ranks)
[b'aa', b'a', b'b']
"""

from __future__ import annotations

import heapq
from array import array
from collections.abc import MutableSequence
from dataclasses import dataclass
from itertools import pairwise, repeat
from operator import lshift, or_

Pair = tuple[bytes, bytes]
BYTE_TOKENS: tuple[bytes, ...] = tuple(bytes([i]) for i in range(256))
#: the 13 byte values that never occur in valid UTF-8 (some vocabularies, e.g. GPT-NeoX's, lack them)
NEVER_IN_UTF8: frozenset[int] = frozenset([0xC0, 0xC1, *range(0xF5, 0x100)])
#: Pre-tokens of up to this many bytes are encoded with the O(n²) scan, longer ones with the
#: O(n log n) heap merge (faster from about this length on).
SCAN_MERGE_MAX_BYTES = 96
#: Longer pre-tokens (a run of megabytes of one character) keep the heap merge's links in arrays
#: rather than lists: with the one-int heap entries, 2.3 times less memory and about twice as fast
#: as lists and tuples were (4 MB of "x": 911 -> 390 MB peak, 19.4 -> 10.5 s CPU); arrays alone are
#: a fifth slower than lists on words of a few hundred bytes, as fast from about this length on.
COMPACT_HEAP_BYTES = 1 << 14
_NO_RANK = 1 << 62


@dataclass(frozen=True)
class MergeStep:
    """One merge applied while encoding a pre-token (for the "how was this word built" view)."""

    rank: int  # rank of the merge in the merge list
    pair: Pair  # the two tokens that were merged
    position: int  # index of the left token in the parts before the merge
    parts: tuple[bytes, ...]  # all parts after the merge

    @property
    def token(self) -> bytes:
        return self.pair[0] + self.pair[1]


def bpe_merge(word: bytes, ranks: dict[Pair, int]) -> list[bytes]:
    """Split ``word`` into tokens by applying merges, lowest rank first, leftmost on ties.

    >>> bpe_merge(b"abab", {(b"a", b"b"): 0, (b"ab", b"ab"): 1})
    [b'abab']
    """
    if len(word) > SCAN_MERGE_MAX_BYTES:
        return _bpe_merge_heap(word, ranks)
    parts = list(map(BYTE_TOKENS.__getitem__, word))
    if len(parts) < 2:
        return parts
    get = ranks.get
    none = _NO_RANK
    pair_ranks = [get(p, none) for p in pairwise(parts)]
    while True:
        r = min(pair_ranks)
        if r == none:
            return parts
        i = pair_ranks.index(r)  # leftmost pair with the lowest rank
        merged = parts[i] + parts[i + 1]
        parts[i : i + 2] = [merged]
        del pair_ranks[i]
        n = len(parts)
        if n == 1:
            return parts
        if i < n - 1:
            pair_ranks[i] = get((merged, parts[i + 1]), none)
        if i > 0:
            pair_ranks[i - 1] = get((parts[i - 1], merged), none)


def _bpe_merge_heap(word: bytes, ranks: dict[Pair, int]) -> list[bytes]:
    """Same result as :func:`bpe_merge` in O(n log n): a heap of (rank, position) over a linked list.

    >>> _bpe_merge_heap(b"aaaa", {(b"a", b"a"): 0, (b"aa", b"aa"): 1})
    [b'aaaa']
    """
    n = len(word)
    toks = list(map(BYTE_TOKENS.__getitem__, word))  # b"": merged into its left neighbour
    nxt = list(range(1, n + 1))
    nxt[-1] = -1
    prv = list(range(-1, n - 1))
    get = ranks.get
    heap = []
    for i in range(n - 1):
        r = get((toks[i], toks[i + 1]))
        if r is not None:
            heap.append((r, i))
    heapq.heapify(heap)
    push, pop = heapq.heappush, heapq.heappop
    while heap:
        r, i = pop(heap)
        left = toks[i]
        j = nxt[i]
        if not left or j < 0 or get((left, toks[j])) != r:
            continue  # stale entry: one side was merged since it was pushed
        merged = left + toks[j]
        toks[i] = merged
        toks[j] = b""
        k = nxt[j]
        nxt[i] = k
        if k >= 0:
            prv[k] = i
            rk = get((merged, toks[k]))
            if rk is not None:
                push(heap, (rk, i))
        p = prv[i]
        if p >= 0:
            rp = get((toks[p], merged))
            if rp is not None:
                push(heap, (rp, p))
    return [t for t in toks if t]


@dataclass(frozen=True)
class MergeTable:
    """Merges as integers for fast encoding: pair keys ``(a << 32) | b`` of token ids → rank."""

    byte_ids: tuple[int, ...]  # id of each single byte 0..255
    pair_rank: dict[int, int]  # pair key -> rank of the merge
    merged: tuple[int, ...]  # id of the token each rank makes

    @classmethod
    def build(cls, merges: list[Pair], encoder: dict[bytes, int]) -> MergeTable:
        """From merges in rank order and a bytes → id map holding every part and result.

        >>> t = MergeTable.build([(b"a", b"b")], {bytes([i]): i for i in range(256)} | {b"ab": 256})
        >>> bpe_ids(b"xab", t)
        [120, 256]
        """
        pair_rank: dict[int, int] = {}
        for r, (a, b) in enumerate(merges):
            pair_rank.setdefault((encoder[a] << 32) | encoder[b], r)
        # a byte the vocab lacks (only those of NEVER_IN_UTF8 may be) gets -1: the tokenizer refuses
        # text that needs it before any lookup
        return cls(
            tuple(encoder.get(BYTE_TOKENS[i], -1) for i in range(256)),
            pair_rank,
            tuple(encoder[a + b] for a, b in merges),
        )


def bpe_ids(word: bytes, table: MergeTable) -> list[int]:
    """:func:`bpe_merge` on token ids: the same tokens, as ids, without building bytes."""
    parts = list(map(table.byte_ids.__getitem__, word))
    n = len(parts)
    if n < 2:
        return parts
    if n > SCAN_MERGE_MAX_BYTES:
        return _bpe_ids_heap(parts, table)
    get = table.pair_rank.get
    merged = table.merged
    none = _NO_RANK
    pair_ranks = list(map(get, map(or_, map(lshift, parts, repeat(32)), parts[1:]), repeat(none)))
    while True:
        r = min(pair_ranks)
        if r == none:
            return parts
        i = pair_ranks.index(r)  # leftmost pair with the lowest rank
        m = merged[r]
        parts[i] = m
        del parts[i + 1]
        del pair_ranks[i]
        n -= 1
        if n == 1:
            return parts
        if i < n - 1:
            pair_ranks[i] = get((m << 32) | parts[i + 1], none)
        if i > 0:
            pair_ranks[i - 1] = get((parts[i - 1] << 32) | m, none)


def _bpe_ids_heap(ids: list[int], table: MergeTable) -> list[int]:
    """:func:`bpe_ids` in O(n log n) for long words: a heap over linked positions, lazy deletion.

    A heap entry is one int, the rank above the position's bits (a tuple would be bigger and slower
    to compare; the order is the same). Above :data:`COMPACT_HEAP_BYTES` the links are arrays of
    machine integers instead of lists of int objects.
    """
    n = len(ids)
    toks: MutableSequence[int]
    alive: MutableSequence[int]
    nxt: MutableSequence[int]
    prv: MutableSequence[int]
    if n > COMPACT_HEAP_BYTES:
        toks, alive = array("q", ids), bytearray(b"\x01") * n
        nxt, prv = array("q", range(1, n + 1)), array("q", range(-1, n - 1))
    else:
        toks, alive = list(ids), [1] * n
        nxt, prv = list(range(1, n + 1)), list(range(-1, n - 1))
    nxt[-1] = -1
    get = table.pair_rank.get
    merged = table.merged
    shift = max(32, n.bit_length())
    low = (1 << shift) - 1
    heap = [(r << shift) | i for i in range(n - 1) if (r := get((toks[i] << 32) | toks[i + 1])) is not None]
    heapq.heapify(heap)
    push, pop = heapq.heappush, heapq.heappop
    while heap:
        e = pop(heap)
        r, i = e >> shift, e & low
        j = nxt[i]
        if not alive[i] or j < 0 or get((toks[i] << 32) | toks[j]) != r:
            continue  # stale entry: one side was merged since it was pushed
        m = merged[r]
        toks[i] = m
        alive[j] = 0
        k = nxt[j]
        nxt[i] = k
        if k >= 0:
            prv[k] = i
            rk = get((m << 32) | toks[k])
            if rk is not None:
                push(heap, (rk << shift) | i)
        p = prv[i]
        if p >= 0:
            rp = get((toks[p] << 32) | m)
            if rp is not None:
                push(heap, (rp << shift) | p)
    return [t for t, a in zip(toks, alive) if a]


def merge_steps(word: bytes, ranks: dict[Pair, int]) -> list[MergeStep]:
    """Every merge :func:`bpe_merge` applies to ``word``, in order, with the parts after each one.

    >>> [s.parts for s in merge_steps(b"abc", {(b"b", b"c"): 0, (b"a", b"bc"): 1})]
    [(b'a', b'bc'), (b'abc',)]
    """
    parts = list(map(BYTE_TOKENS.__getitem__, word))
    get = ranks.get
    steps: list[MergeStep] = []
    while len(parts) > 1:
        best = -1
        best_rank = 0
        for i in range(len(parts) - 1):
            r = get((parts[i], parts[i + 1]))
            if r is not None and (best < 0 or r < best_rank):
                best, best_rank = i, r
        if best < 0:
            break
        pair = (parts[best], parts[best + 1])
        parts[best : best + 2] = [pair[0] + pair[1]]
        steps.append(MergeStep(best_rank, pair, best, tuple(parts)))
    return steps


def utf8_lengths(text: str) -> list[int]:
    """UTF-8 length of each character; a lone surrogate (a ``surrogateescape`` byte) counts as 1.

    >>> utf8_lengths("aé€🙃\\udcff")
    [1, 2, 3, 4, 1]
    """
    out: list[int] = []
    append = out.append
    for ch in text:
        o = ord(ch)
        if o < 0x80:
            append(1)
        elif o < 0x800:
            append(2)
        elif 0xD800 <= o <= 0xDFFF:
            append(1)
        elif o < 0x10000:
            append(3)
        else:
            append(4)
    return out
