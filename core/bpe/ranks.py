"""BPE by token rank (tiktoken's rule) and the merge list it implies, built only when asked for.

A tiktoken file (and a Mistral tekken file) stores tokens in rank order, not merges. tiktoken encodes
a pre-token by merging, again and again, the adjacent pair of parts whose concatenation is the token
of lowest rank, leftmost first on ties. :func:`rank_bpe` does exactly that on the bytes, so a
tokenizer read from such a file encodes without any merge list.

The merges (for the merge tree, the timeline and the exports to formats that store merges) are
:class:`RankMerges`: a sequence that rebuilds them from the ranks the first time it is read
(:func:`recover_merges`), so loading a 200k-token file does not pay for them. :class:`IdMerges` does
the same for merges a loader found as ids (HF ``tokenizer.json``): the tokenizer uses the ids and the
pairs of bytes are made when read.

>>> ranks = {b"a": 0, b"b": 1, b"ab": 2, b"abb": 3}
>>> rank_bpe(b"abbab", ranks)
[3, 2]
>>> RankMerges([b"a", b"b", b"ab", b"abb"])
RankMerges([(b'a', b'b'), (b'ab', b'b')])
"""

from __future__ import annotations

import heapq
from array import array
from collections.abc import Iterator, MutableSequence, Sequence
from itertools import pairwise
from typing import Any, overload

from core.bpe.merge import COMPACT_HEAP_BYTES, SCAN_MERGE_MAX_BYTES
from core.bpe.recovery import iter_recovered_merges

Pair = tuple[bytes, bytes]
_NONE = 1 << 62


def rank_bpe(word: bytes, ranks: dict[bytes, int]) -> list[int]:
    """The ids (= ranks) of ``word`` merged by rank: lowest-ranked concatenation first, leftmost on ties.

    Every single byte of ``word`` must be in ``ranks``.

    >>> rank_bpe(b"aaa", {b"a": 0, b"aa": 1})
    [1, 0]
    """
    n = len(word)
    if n < 2:
        return [ranks[word]] if n else []
    if n > SCAN_MERGE_MAX_BYTES:
        return _rank_bpe_heap(word, ranks)
    get = ranks.get
    none = _NONE
    cuts = list(range(n + 1))  # part k is word[cuts[k]:cuts[k + 1]]
    pair = [get(word[i : i + 2], none) for i in range(n - 1)]
    while True:
        r = min(pair)
        if r == none:
            break
        i = pair.index(r)  # leftmost pair with the lowest rank
        del cuts[i + 1]
        del pair[i]
        n -= 1
        if n == 1:
            break
        if i < n - 1:
            pair[i] = get(word[cuts[i] : cuts[i + 2]], none)
        if i > 0:
            pair[i - 1] = get(word[cuts[i - 1] : cuts[i + 1]], none)
    return [ranks[word[a:b]] for a, b in pairwise(cuts)]


def _rank_bpe_heap(word: bytes, ranks: dict[bytes, int]) -> list[int]:
    """:func:`rank_bpe` in O(n log n) for long words: a heap over linked parts, as
    :func:`core.bpe.merge._bpe_ids_heap` (one int per entry, the rank above the part's start; arrays
    for the links above :data:`~core.bpe.merge.COMPACT_HEAP_BYTES`).

    >>> _rank_bpe_heap(b"aaaa", {b"a": 0, b"aa": 1, b"aaaa": 2})
    [2]
    """
    n = len(word)
    nxt: MutableSequence[int]  # the start of the part after the one starting at i (n: none)
    prv: MutableSequence[int]
    alive: MutableSequence[int]
    if n > COMPACT_HEAP_BYTES:
        nxt, prv = array("q", range(1, n + 1)), array("q", range(-1, n - 1))
        alive = bytearray(b"\x01") * n
    else:
        nxt, prv = list(range(1, n + 1)), list(range(-1, n - 1))
        alive = [1] * n
    get = ranks.get
    shift = max(32, n.bit_length())
    low = (1 << shift) - 1
    heap = [(r << shift) | i for i in range(n - 1) if (r := get(word[i : i + 2])) is not None]
    heapq.heapify(heap)
    push, pop = heapq.heappush, heapq.heappop
    while heap:
        e = pop(heap)
        r, i = e >> shift, e & low
        if not alive[i]:
            continue
        j = nxt[i]
        if j >= n or get(word[i : nxt[j]]) != r:
            continue  # stale entry: one side was merged since it was pushed
        alive[j] = 0
        k = nxt[j]
        nxt[i] = k
        if k < n:
            prv[k] = i
            rk = get(word[i : nxt[k]])
            if rk is not None:
                push(heap, (rk << shift) | i)
        p = prv[i]
        if p >= 0:
            rp = get(word[p:k])
            if rp is not None:
                push(heap, (rp << shift) | p)
    out = []
    i = 0
    while i < n:
        out.append(ranks[word[i : nxt[i]]])
        i = nxt[i]
    return out


def recover_merges(ranks: dict[int, bytes] | Sequence[bytes]) -> list[Pair]:
    """The merge list implied by tokens ordered by rank (single bytes need no merge).

    ``ranks`` maps rank -> token (or lists the tokens in rank order). Each multi-byte token is
    encoded with the merges recovered so far; its merge is the pair left at the end. If those merges
    leave more than two parts, parts are joined as tiktoken would (lowest-ranked concatenation first)
    until two are left. A token that cannot be made from two tokens of lower rank (e.g. a special
    token listed as a rank) is kept without a merge.

    >>> recover_merges({0: b"a", 1: b"b", 2: b"ab", 3: b"abb", 4: b"<|x|>"})
    [(b'a', b'b'), (b'ab', b'b')]
    """
    tokens = [ranks[i] for i in sorted(ranks)] if isinstance(ranks, dict) else list(ranks)
    return [pair for _, pair in iter_recovered_merges(tokens)]


class LazyMerges(Sequence[Pair]):
    """A merge list a loader can hand over before building it: built once, the first time it is read
    (``len``, indexing, iterating, comparing). Subclasses say how (:meth:`_build`)."""

    __slots__ = ("_merges",)

    def __init__(self) -> None:
        self._merges: tuple[Pair, ...] | None = None

    def _build(self) -> tuple[Pair, ...]:
        raise NotImplementedError

    @property
    def built(self) -> bool:
        """True once the merge list has been built."""
        return self._merges is not None

    def _list(self) -> tuple[Pair, ...]:
        if self._merges is None:
            self._merges = self._build()
        return self._merges

    def fill(self, merges: Sequence[Pair]) -> None:
        """Take the merge list built elsewhere (e.g. merge by merge in a worker, to show them as they
        come), equal to what :meth:`_build` gives; it is not built again."""
        if self._merges is None:
            self._merges = tuple(merges)

    def __len__(self) -> int:
        return len(self._list())

    @overload
    def __getitem__(self, i: int) -> Pair: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[Pair, ...]: ...
    def __getitem__(self, i: int | slice) -> Pair | tuple[Pair, ...]:
        return self._list()[i]

    def __iter__(self) -> Iterator[Pair]:
        return iter(self._list())

    def __contains__(self, pair: object) -> bool:
        return pair in self._list()

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, (LazyMerges, tuple, list)):
            return list(self._list()) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __add__(self, other: Any) -> tuple[Pair, ...]:
        return self._list() + tuple(other)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self._list())!r})"


class RankMerges(LazyMerges):
    """The merges of tokens listed in rank order, recovered (:func:`recover_merges`) when first read.

    Until then a :class:`core.Tokenizer` given it encodes by rank (:func:`rank_bpe`), with the same
    ids. ``tokens`` are the ordinary tokens (no special tokens) in rank order.
    """

    __slots__ = ("tokens",)

    def __init__(self, tokens: Sequence[bytes]) -> None:
        super().__init__()
        self.tokens: tuple[bytes, ...] = tuple(tokens)

    def _build(self) -> tuple[Pair, ...]:
        return tuple(recover_merges(self.tokens))

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, RankMerges) and self.tokens == other.tokens:
            return True
        return super().__eq__(other)


class IdMerges(LazyMerges):
    """Merges given as the ids of their parts in ``vocab`` (and of their results), as a loader found
    them: a :class:`core.Tokenizer` with an equal vocab builds its merge table from the ids, and the
    pairs of bytes are made when first read.

    >>> m = IdMerges({97: b"a", 98: b"b", 256: b"ab"}, ([97], [98], [256]))
    >>> m == [(b"a", b"b")]
    True
    """

    __slots__ = ("ids", "keys", "vocab")

    def __init__(
        self,
        vocab: dict[int, bytes],
        ids: tuple[list[int], list[int], list[int]],
        keys: list[int] | None = None,
    ) -> None:
        super().__init__()
        self.vocab = vocab
        self.ids = ids
        self.keys = keys  # the pair keys (left << 32) | right, if made already

    def _build(self) -> tuple[Pair, ...]:
        get = self.vocab.__getitem__
        return tuple(zip(map(get, self.ids[0]), map(get, self.ids[1])))


def rank_encoder(
    vocab: dict[int, bytes], sids: set[int], encoder: dict[bytes, int], merges: RankMerges
) -> dict[bytes, int] | None:
    """Ordinary token -> id for :func:`rank_bpe`, when the vocab's ordinary tokens in id order are
    exactly ``merges.tokens`` (ids then order the tokens as their ranks do); else None.

    ``encoder`` is the vocab inverted (special tokens included, lowest ordinary id for repeated bytes).
    """
    ids = sorted(vocab.keys() - sids) if sids else sorted(vocab)
    if len(ids) != len(merges.tokens) or tuple(map(vocab.__getitem__, ids)) != merges.tokens:
        return None
    if not sids:
        return encoder
    by_rank = dict(encoder)
    for i in sids:
        if by_rank.get(vocab[i]) == i:
            del by_rank[vocab[i]]
    return by_rank
