"""Lean training over the words as one array of tokens, with the pairs in NumPy arrays (no undo).

The :class:`core.training.trainer.Trainer` keeps each distinct word as a ``str`` and its pair index
in Python dicts and sets: Python work per word and per pair changed, and ~200 bytes per pair. Here
every structure is a NumPy array, and a merge is a fixed number of NumPy calls whatever its size
(a merge at a few sites takes a path of its own, one site at a time).

*Tokens.* ``T`` (``int16`` while the codes fit it, then ``int32``) has a node per byte of the
distinct words, in order of first appearance, with a separator node (``SEP``) before each word and
after the last. A token over the nodes ``s .. e`` of its word is written at both ends: ``T[s]``
holds its code (``>= 0``: a *start*), ``T[e]`` holds ``END - code`` (its *end*; a one-byte token
is only a start), the nodes inside it are ``DEAD``. The token after the one starting at ``s`` starts at ``s + L[code]``
(``L``: each code's length in bytes); the one before it ends at ``s - 1``. Codes: bytes 0-255,
then one per merged token (a token made by two merges keeps its first code).

*Pairs.* Each pair gets an id when it is made; per id its key (``(a << 32) | b``), its count
(``int64``: sums stay exact) and the head of its list. A merge takes from the pairs at its sites'
neighbours (each left neighbour's pair ``(x, a)``, each absorbed token's ``(b, y)``), and the pairs
it makes get new ids (except when the merged token existed already, as two merges can make the
same bytes: those still there keep theirs). Where the ids of the pairs taken from come from
depends on the words' length:

- *Short words* (at most ``NODE_IDS_MAX_BYTES`` bytes on average, as in English), or memory to
  spare (``node_ids=True``): ``P``
  (``int32``, per node) holds, at the start of every token that has a right neighbour, the id of
  the pair starting there (-1 where none does); a merge reads the ids there, and a node is stale
  where ``P`` no longer holds the pair's id.
- *Long words* (Chinese runs of characters: ``P`` would be a third of the memory), where memory
  is short (``node_ids=False``; :func:`core.training.memory_need.flat_node_ids`): no ``P``. A
  merge that makes a token ``c`` makes pairs ``(m, c)`` and ``(c, m)`` with older tokens ``m`` and
  ``(c, c)``, and ``c`` is newer than every token before, so the ids are handed out in the order
  of ``(c, side, m)`` (each id's place in ``_G``) and a key's id is found by a binary search of
  ``_G``, once per distinct neighbour (a byte pair's in a table by its bytes). The order is
  checked as the ids are handed out, and pairs made out of it (by a later slice of a merge, or
  with a token made again) are kept in a dict (``_again``): the lookups rest on that check, not
  on the argument. The pair ``(a, b)`` starts at a node where ``T`` holds ``a`` and, ``L[a]`` nodes
  on, ``b``: a node is stale where it no longer does (tokens only grow, so a pair never starts
  again where it stopped).

``_bmax`` bounds the highest count in each block of ``BLOCK`` ids (raised when a count rises,
lowered when read), so the best pair is found in one or a few blocks; the pairs tied at the best
count are kept, in the tie rule's order (the "first" rule finds where each starts once, when the
tie is found), while no other count reaches it.

*Where each pair occurs*: the nodes where it starts, in chunks of one pool (a chunk per pair per
merge that made it, linked to the pair's previous chunk). A pair's list is dropped when a merge
takes its sites, or when its count falls to 0. The pool is allocated with room, and a soft limit
on the entries written (pages take memory once written): past it, the pool is compacted by a
plain copy of the other chunks where the lists dropped are an eighth of it, dropping every stale
node where a quarter of it is stale (each site takes exactly one live entry, so that share is
known); else the limit rises by a sixteenth. Ids of pairs gone are renumbered away (in order)
when they are more than half of all ids.

*Words.* A node's word (whose count weighs it) is a word number per 256 nodes plus a byte per node.

The merges, counts, tie counts and words changed are the trainer's (the tests compare them merge by
merge); ``train_bpe`` and the command line's ``train`` use it, where nobody steps back.

>>> m = FlatMerger({b"abab": 2, b"ab": 1})
>>> [(r.pair, r.count, r.words_changed, r.occurrences_changed) for r in m.steps(2)]
[((b'a', b'b'), 5, 2, 3), ((b'ab', b'ab'), 2, 1, 2)]
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Mapping

import numpy as np

from core.errors import BPEError, Cancelled
from core.memory import paused_gc, release_free_memory
from core.pretokenization.exact_counts import int_bincount
from core.pretokenization.pretokenize import CorpusStats, Progress, check_special_tokens
from core.pretokenization.sharded_count import word_bytes as words_bytes
from core.training.count_bounds import MAX_PAIR_TOTAL, check_counts
from core.training.memory_need import flat_node_ids
from core.training.records import TIE_BREAKS, MergeRecord, Pair, TieBreak
from core.training.token_codes import BYTE_TOKENS
from core.training.vocab import build_vocab

DEAD = -1  # a node inside a token
SEP = -2  # before each word and after the last
END = -3  # a token's last node holds END - code
MAX_NODES = 2**31 - 1  # node numbers are int32
SHORT_CODES = 2**15 + END  # codes below this fit int16 tokens (END - code >= -2**15); past it, int32
BLOCK_BITS = 8
BLOCK = 1 << BLOCK_BITS  # pair ids per block of ``_bmax``
BUILD_BLOCK_NODES = 1 << 20  # nodes indexed at a time while the pairs are first counted
COMPACT_MIN = 1 << 20  # ids handed out before the ids of pairs gone are first counted
NODE_IDS_MAX_BYTES = 16  # words of at most this many bytes on average keep a pair id per node
SMALL_SITES = 48  # a pair listed at no more nodes than this is merged one site at a time
SLICE_SITES = 1 << 17  # a merge at more sites takes them a slice of whole words at a time
WORD_BLOCK_BITS = 8  # a node's word: a word number per 256 nodes, and a byte per node
POOL_ROOM = 1.5  # the pool is allocated this many times the byte pairs' entries (written as needed)
GONE_SHARE = 8  # compact the pool (a plain copy) where the lists of pairs gone are 1/8 of it
STALE_SHARE = 4  # ... dropping stale nodes too where 1/4 of it is stale or gone
SOFT_GROWTH = 1.0625  # else let it hold this many times as many entries
_NODE = np.int32
_NO_NODES = np.zeros(0, dtype=_NODE)
_LOW = 0xFFFFFFFF
BYTE_PAIR_MASK = ~0xFF000000FF  # a key with none of these bits is a pair of two bytes (fits int64)


def _grown(
    a: np.ndarray, need: int, fill: int | None = None, multiple: int = 1, factor: float = 2
) -> np.ndarray:
    """``a`` with room for at least ``need`` items (``factor`` times as many; new room ``fill``ed
    when given)."""
    if need <= a.size:
        return a
    size = max(need, int(factor * a.size), 16)
    size = -(-size // multiple) * multiple
    if fill is None:  # (untouched room, here and zeroed, costs no memory until it is written)
        out = np.empty(size, dtype=a.dtype)
    elif fill == 0:
        out = np.zeros(size, dtype=a.dtype)
    else:
        out = np.full(size, fill, dtype=a.dtype)
    out[: a.size] = a
    return out


def _groups(codes: np.ndarray, weights: np.ndarray, nodes: np.ndarray, small: bool):
    """(distinct codes ascending as int64, the summed weight of each, the nodes grouped by code,
    each group's size); ``small``: every code fits 16 bits (sorted by radix)."""
    if codes.size <= 1:
        return codes.astype(np.int64), weights, nodes, np.ones(codes.size, dtype=np.int64)
    order = (codes.astype(np.uint16) if small else codes).argsort(kind="stable")
    sc = codes[order]
    starts = np.flatnonzero(np.concatenate(([True], sc[1:] != sc[:-1])))
    sums = np.add.reduceat(weights[order], starts)
    runs = np.diff(np.append(starts, sc.size))
    return sc[starts].astype(np.int64), sums, nodes[order], runs


def _packed_words(word_counts: Mapping[bytes, int]) -> tuple[bytes, np.ndarray, np.ndarray] | None:
    """``(joined, lens, counts)`` of counts that come packed (``packed()``:
    :class:`core.pretokenization.sharded_count.OrderedCounts`), where every word has bytes and
    the counts are positive and small enough (:func:`check_counts`' rule); else None."""
    packed_of = getattr(word_counts, "packed", None)
    packed = packed_of() if callable(packed_of) else None
    if packed is None:
        return None
    joined, lens, counts = packed
    if not lens.size or lens.min() < 1 or counts.min() < 1:
        return None
    if float(counts.sum(dtype=np.float64)) * float(lens.max()) >= MAX_PAIR_TOTAL / 2:
        return None  # (near the limit: the list's exact check says what is wrong)
    return joined, lens, counts


class FlatMerger:
    """The words of a corpus (distinct pre-token -> count) merged by the BPE rule, leanly.

    ``vocab_size``: the size the run is for, if known (past 32,765 codes the tokens are int32 from
    the start, not turned int32 on the way). ``consume``: empty ``word_counts`` (its ``clear()``)
    once the words' bytes are copied, so that their memory is free before the arrays are made.
    ``node_ids``: keep a pair id per node (faster merges), or find pairs by key (less memory where
    words are long); None: where the words average at most ``NODE_IDS_MAX_BYTES`` bytes
    (:func:`core.training.memory_need.flat_node_ids` chooses by the memory free).
    """

    keep_history = False

    def __init__(
        self,
        word_counts: Mapping[bytes, int],
        tie_break: TieBreak = "lexicographic",
        special_tokens: Iterable[str] | None = None,
        *,
        pattern: str | None = "gpt2",
        stats: CorpusStats | None = None,
        vocab_size: int | None = None,
        consume: bool = False,
        node_ids: bool | None = None,
    ) -> None:
        if tie_break not in TIE_BREAKS:
            raise BPEError(f"tie_break must be 'lexicographic' or 'first', not {tie_break!r}")
        self.tie_break: TieBreak = tie_break
        self.special_tokens: list[str] = check_special_tokens(special_tokens)
        self.pattern = pattern
        self.records: list[MergeRecord] = []
        self._merges: list[Pair] = []
        # the counting workers' packed form (the words joined, their lengths and counts), where it
        # is whole and plainly valid: no object per word; else the words as a list
        packed = _packed_words(word_counts)
        self.stats = stats or CorpusStats(  # (packed counts summed as they are, not made into lists)
            distinct_pretokens=len(word_counts),
            pretokens=int(packed[2].sum()) if packed is not None else sum(word_counts.values()),
        )
        if packed is not None:
            words_joined, lens, self._wcounts = packed
            n_words = lens.size
        else:
            words = list(word_counts)
            values = list(word_counts.values())
            check_counts(words, values)  # positive ints; every pair count fits int64
            if not all(words):
                values = [v for w, v in zip(words, values) if w]
                words = [w for w in words if w]
            self._wcounts = np.array(values, dtype=np.int64)  # each word's count: its nodes' weight
            del values
            lens = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
            n_words = len(words)
        n = int(lens.sum()) + n_words + 1
        if n > MAX_NODES:
            raise BPEError(
                f"the distinct words hold {n:,} bytes and separators: the flat merge loop numbers at most "
                f"{MAX_NODES:,}; train with engine='words'"
            )
        # SEP w0 SEP w1 ... SEP: the bytes joined by a placeholder, the separators written after
        joined = bytearray(n)
        if packed is not None:
            joined[1:-1] = words_joined
            del words_joined, packed
        else:
            joined[1:-1] = b"\0".join(words)
            del words
        if consume:  # (the words' bytes are in ``joined`` now: the caller's copy goes first)
            clear = getattr(word_counts, "clear", None)
            if clear is not None:
                clear()
                release_free_memory()
        # int16 codes while they fit (a token's end holds END - code): half the memory of int32
        codes = 256 + max(0, (vocab_size or 0) - 256 - len(self.special_tokens))
        self._short = codes <= SHORT_CODES
        self.T = np.frombuffer(joined, dtype=np.uint8).astype(np.int16 if self._short else np.int32)
        del joined
        self._wstart = np.cumsum(lens + 1) - lens  # each word's first node
        del lens
        self.T[self._wstart - 1] = SEP
        self.T[-1] = SEP
        self._number_words()
        # a pair id per node (``P``) where the words are short: a merge reads the ids of the pairs
        # it takes from at their nodes (4 bytes a node); where they are long, it finds them by key
        if node_ids is None:
            node_ids = n - self._wcounts.size - 1 <= NODE_IDS_MAX_BYTES * self._wcounts.size
        self.P = np.full(n, -1, dtype=np.int32) if node_ids else None
        self._tokens: list[bytes] = list(BYTE_TOKENS)
        self._code: dict[bytes, int] = {t: i for i, t in enumerate(BYTE_TOKENS)}
        self._lens: list[int] = [1] * 256  # each code's length in bytes (also as NumPy, ``L``)
        self.L = np.ones(512, dtype=np.int64)
        self._n = 0  # pair ids handed out
        self._pkey = np.zeros(0, dtype=np.int64)
        self._count = np.zeros(0, dtype=np.int64)
        self._head = np.zeros(0, dtype=np.int32)
        self._bmax = np.zeros(0, dtype=np.int64)
        self._G = np.zeros(0, dtype=np.int64)  # each pair's place in the order of ids (_order)
        self._gmax = -1  # the greatest place given
        self._again: dict[int, int] = {}  # key -> id of the pairs made out of that order
        self._nbyte = 0  # the ids below this are byte pairs' (found in ``_byte_ids``)
        self._byte_ids = np.zeros(0, dtype=np.int64)  # a byte pair's id by its bytes (x << 8 | y)
        self._byte_list: list[int] = []  # (the same, in Python: without P)
        # the byte pairs' lists, and room to grow (its pages take memory once written: ``_soft``)
        self._pool = np.empty(int(POOL_ROOM * (n - 2 * len(self._wcounts))) + 16, dtype=_NODE)
        self._npool = 0
        self._soft = 0  # the entries the pool may hold before it is compacted or this is raised
        self._cstart = np.zeros(1 << 12, dtype=np.int64)
        self._clen = np.zeros(1 << 12, dtype=np.int64)
        self._cnext = np.zeros(1 << 12, dtype=np.int32)
        self._cpid = np.zeros(1 << 12, dtype=np.int32)  # each chunk's pair
        self._nch = 0
        self._rose = 0  # the highest count that rose since the best pair was last found
        self._next_check = COMPACT_MIN  # when the ids of pairs gone are next counted
        # (count, the pairs tied at it in the rule's order): kept while no count rises to it
        self._tied: tuple[int, np.ndarray] | None = None
        self._regained: set[int] = set()  # pairs that gained sites (two merges made one token)
        self._live = n - 2 * len(self._wcounts) - 1  # nodes where a pair starts (one each per list)
        self._counted = False  # (while the byte pairs are being counted, every count is 0)
        self._build()
        self._nbyte = self._n
        self._counted = True
        self._soft = self._npool

    # ------------------------------------------------------------------ pairs and their lists
    def _word_of(self, nodes):
        """Each node's word: the word at the start of its block of 256 nodes, plus its offset."""
        return self._wbase[nodes >> WORD_BLOCK_BITS] + self._woff[nodes]

    def _number_words(self) -> None:
        """Each node's word (a separator counts with the word after it) as ``_wbase`` (the word at
        the start of each block of 256 nodes) plus ``_woff`` (a byte per node: a block holds at
        most 128 word starts, a separator and a byte each)."""
        T = self.T
        n = T.size
        self._wbase = np.empty(((n - 1) >> WORD_BLOCK_BITS) + 1, dtype=np.int32)
        self._woff = np.empty(n, dtype=np.uint8)
        step = 1 << 20  # (a multiple of the block)
        for lo in range(0, n, step):
            hi = min(n, lo + step)
            wid = np.cumsum(T[lo:hi] == SEP, dtype=np.int32)  # the separators up to each node ...
            wid += int(np.searchsorted(self._wstart, lo, side="right")) - 1  # ... and before, less one
            base = wid[:: 1 << WORD_BLOCK_BITS]
            self._wbase[lo >> WORD_BLOCK_BITS : (lo >> WORD_BLOCK_BITS) + base.size] = base
            wid -= np.repeat(base, 1 << WORD_BLOCK_BITS)[: hi - lo]
            self._woff[lo:hi] = wid

    @staticmethod
    def _order(keys: np.ndarray) -> np.ndarray:
        """Each key's place in the order of ids: ``(c, side, m)`` for the pair ``(m, c)`` (side 0)
        or ``(c, m)`` (side 1), ``c`` its newer token."""
        p, q = keys >> 32, keys & _LOW
        right = p >= q
        return np.where(right, (p << 33) | (1 << 32) | q, (q << 33) | p)

    def _new_ids(self, keys: np.ndarray) -> np.ndarray:
        """Ids for new pairs (count 0, no list): in order where the keys come in order after every
        pair's before (a merge's pairs with its new token, the keys ascending), else kept apart."""
        k = keys.size
        if self._n + k > self._count.size:
            self._grow(self._n + k)
        n0 = self._n
        ids = np.arange(n0, n0 + k, dtype=np.int64)
        self._pkey[n0 : n0 + k] = keys
        self._n += k
        if self._counted and self.P is None:  # (byte pairs are found by their bytes; with P, no
            # key is looked up but in a merge that makes a token again: by a scan)
            g = self._order(keys)
            if g[0] > self._gmax and (k == 1 or bool((g[1:] > g[:-1]).all())):
                self._G[n0 : n0 + k] = g
                self._gmax = int(g[-1])
            else:  # out of order: kept apart, their places the greatest before (the order holds)
                self._G[n0 : n0 + k] = self._gmax
                self._again.update(zip(keys.tolist(), ids.tolist()))
        return ids

    def _find(self, keys: np.ndarray) -> np.ndarray:
        """The id of the pair there with each key (int64; without ``P`` only): -1 where none is."""
        ids = np.full(keys.size, -1, dtype=np.int64)
        byte = (keys & BYTE_PAIR_MASK) == 0
        if byte.any():
            bk = keys[byte]
            ids[byte] = self._byte_ids[(bk >> 24) | (bk & 255)]
            rest = np.flatnonzero(~byte)
        else:
            rest = np.arange(keys.size)
        if rest.size:
            lo, n = self._nbyte, self._n
            if n > lo:
                rk = keys[rest]
                pos = np.searchsorted(self._G[lo:n], self._order(rk)) + lo
                np.minimum(pos, n - 1, out=pos)
                hit = (self._pkey[pos] == rk) & (self._count[pos] > 0)
                ids[rest[hit]] = pos[hit]
                rest = rest[~hit]
            if rest.size and self._again:
                get = self._again.get
                ids[rest] = [get(k, -1) for k in keys[rest].tolist()]
        found = ids >= 0
        if found.any():  # (a byte pair gone keeps its id in the table, and a pair kept apart in the dict)
            gone = self._count[ids[found]] <= 0
            if gone.any():
                ids[np.flatnonzero(found)[gone]] = -1
        return ids

    def _find_list(self, keys: list[int]) -> list[int]:
        """:meth:`_find` for a few keys, each there: byte pairs' in Python, the others' by one
        :meth:`_find`."""
        byte = self._byte_list
        ids = [-1 if k & BYTE_PAIR_MASK else byte[(k >> 24) | (k & 255)] for k in keys]
        missed = [i for i, q in enumerate(ids) if q < 0]
        if missed:
            found = self._find(np.array([keys[i] for i in missed], dtype=np.int64)).tolist()
            for i, q in zip(missed, found):
                ids[i] = q
        return ids

    def _grow(self, need: int) -> None:
        self._pkey = _grown(self._pkey, need, 0, BLOCK)
        self._count = _grown(self._count, need, 0, BLOCK)
        self._head = _grown(self._head, need, -1, BLOCK)
        if self.P is None:  # (places are kept without P only)
            self._G = _grown(self._G, need, 0, BLOCK)
        bmax = np.zeros(self._count.size >> BLOCK_BITS, dtype=np.int64)  # (one per block, exactly)
        bmax[: self._bmax.size] = self._bmax
        self._bmax = bmax

    def _compact(self) -> None:
        """Between merges: when pairs gone hold more than half of the ids handed out, number the
        pairs left 0, 1, ... in order (in ``P``, the lists' heads, the chunks and the per-id arrays)."""
        n = self._n
        live = np.flatnonzero(self._count[:n] > 0)
        m = live.size
        if m < n // 2:
            remap = np.full(n + 1, -1, dtype=np.int32)  # (-1 stays -1: remap[-1])
            remap[live] = np.arange(m, dtype=np.int32)
            P = self.P
            if P is not None:
                for lo in range(0, P.size, BUILD_BLOCK_NODES):
                    part = P[lo : lo + BUILD_BLOCK_NODES]
                    part[...] = remap[part]
            cpid = self._cpid[: self._nch]
            cpid[...] = remap[cpid]
            self._regained.clear()
            # (the ids kept keep their order: so do their places in ``_G``)
            per_id: list[tuple[np.ndarray, int]] = [(self._pkey, 0), (self._count, 0), (self._head, -1)]
            for arr, fill in per_id + ([(self._G, 0)] if self.P is None else []):
                arr[:m] = arr[live]
                arr[m:n] = fill
            self._n = m
            self._bmax[:] = self._count.reshape(-1, BLOCK).max(axis=1)
            self._tied = None
            self._nbyte = int(np.count_nonzero(live < self._nbyte))
            self._again = {k: int(remap[v]) for k, v in self._again.items() if remap[v] >= 0}
            self._byte_ids = remap[self._byte_ids].astype(np.int64)  # (gone: -1)
            self._byte_list = self._byte_ids.tolist() if self.P is None else []
        self._next_check = max(COMPACT_MIN, 2 * m)

    def _set_counts(self, ids: np.ndarray, counts: np.ndarray) -> None:
        """Counts of pairs just made (ids distinct): they rise from 0."""
        self._count[ids] = counts
        np.maximum.at(self._bmax, ids >> BLOCK_BITS, counts)
        top = int(counts.max())
        if top > self._rose:
            self._rose = top

    def _room(self, nodes: int, chunks: int) -> None:
        """Room in the pool for ``nodes`` more entries and ``chunks`` more chunks. Past its soft
        limit the pool is compacted (:meth:`_compact_pool`): by a plain copy where the lists of pairs
        gone are ``1 / GONE_SHARE`` of it, dropping the stale nodes too where ``1 / STALE_SHARE`` of
        it is stale or gone; else the limit is raised by ``SOFT_GROWTH``."""
        if self._npool + nodes > self._soft and self._counted:
            if GONE_SHARE * int(self._clen[: self._nch][~self._live_chunks()].sum()) >= self._npool:
                self._compact_pool(stale=False)
            if self._npool + nodes > self._soft and STALE_SHARE * (self._npool - self._live) >= self._npool:
                self._compact_pool()
            if self._npool + nodes > self._soft:
                self._soft = max(self._npool + nodes, int(SOFT_GROWTH * self._soft))
        if self._npool + nodes > self._pool.size:
            self._pool = _grown(self._pool, self._npool + nodes, factor=1.5)
        need = self._nch + chunks
        if need > self._cstart.size:
            self._cstart = _grown(self._cstart, need, factor=1.5)
            self._clen = _grown(self._clen, need, factor=1.5)
            self._cnext = _grown(self._cnext, need, factor=1.5)
            self._cpid = _grown(self._cpid, need, factor=1.5)

    def _live_chunks(self) -> np.ndarray:
        """Whether each chunk belongs to a pair that is still there."""
        cpid = self._cpid[: self._nch]
        live = cpid >= 0
        live[live] = self._count[cpid[live]] > 0
        return live

    def _compact_pool(self, stale: bool = True) -> None:
        """Drop the chunks of pairs gone and (``stale``) the stale nodes of the others, in place, a
        stretch of the pool at a time (the pool is the chunks one after another, in chunk order);
        chunks are renumbered, the chains kept. Without ``stale`` it is a plain copy of the chunks
        kept (no node is looked up)."""
        nch = self._nch
        T, P, pool = self.T, self.P, self._pool
        cpid, cstart, clen = self._cpid[:nch], self._cstart[:nch], self._clen[:nch]
        live = self._live_chunks()
        want = np.where(live, cpid, -2).astype(np.int32)  # (a chunk gone keeps no node: P >= -1)
        if stale and P is None:  # each chunk's pair (a, b), and a's length
            keys = self._pkey[np.where(live, cpid, 0)]
            ca, cb = keys >> 32, keys & _LOW
            cla = np.where(live, self.L[ca], 0)  # (a chunk gone is kept nowhere: read in place)
        lens = np.zeros(nch, dtype=np.int64)
        at = c0 = 0
        while c0 < nch:  # stretches of about BUILD_BLOCK_NODES entries
            c1 = max(c0 + 1, int(np.searchsorted(cstart, cstart[c0] + BUILD_BLOCK_NODES, side="right")))
            lo = int(cstart[c0])
            hi = int(cstart[c1 - 1] + clen[c1 - 1])
            if stale:
                owner = np.repeat(np.arange(c0, c1, dtype=np.int32), clen[c0:c1])
                nodes = pool[lo:hi]
                if P is not None:
                    keep = P[nodes] == want[owner]
                else:
                    keep = T[nodes] == ca[owner]
                    keep &= T[nodes + cla[owner]] == cb[owner]
                    keep &= live[owner]
                lens[c0:c1] = np.bincount(owner[keep] - c0, minlength=c1 - c0)
            else:
                keep = np.repeat(live[c0:c1], clen[c0:c1])
                lens[c0:c1] = np.where(live[c0:c1], clen[c0:c1], 0)
            kept = pool[lo:hi][keep]
            pool[at : at + kept.size] = kept  # (at <= lo: in place, front to back)
            at += kept.size
            c0 = c1
        self._npool = at
        starts = np.cumsum(lens) - lens
        renumber = np.cumsum(live) - 1
        m = int(live.sum())
        cnext = self._cnext[:nch][live]
        cnext[cnext >= 0] = renumber[cnext[cnext >= 0]]
        self._cstart[:m] = starts[live]
        self._clen[:m] = lens[live]
        self._cpid[:m] = cpid[live]
        self._cnext[:m] = cnext
        heads = self._head[: self._n]
        heads[self._count[: self._n] == 0] = -1
        heads[heads >= 0] = renumber[heads[heads >= 0]]
        self._nch = m

    def _append(self, ids: np.ndarray, runs: np.ndarray, nodes: np.ndarray) -> None:
        """List ``nodes`` under pairs: the ``k``-th run of ``runs[k]`` nodes under ``ids[k]``
        (distinct ids; a chunk each)."""
        n = nodes.size
        self._room(n, ids.size)
        self._pool[self._npool : self._npool + n] = nodes
        c0 = self._nch
        need = c0 + ids.size
        self._cstart[c0:need] = np.cumsum(runs) - runs + self._npool
        self._clen[c0:need] = runs
        self._cpid[c0:need] = ids
        self._cnext[c0:need] = self._head[ids]
        self._head[ids] = np.arange(c0, need, dtype=np.int32)
        self._nch = need
        self._npool += n

    def _append_nodes(self, ids: np.ndarray, nodes: np.ndarray) -> None:
        """List ``nodes`` under the pairs ``ids`` (one id per node, any order)."""
        if not ids.size:
            return
        order = ids.argsort(kind="stable")  # (nodes of one pair stay in their order)
        sid = ids[order]
        starts = np.flatnonzero(np.concatenate(([True], sid[1:] != sid[:-1])))
        self._append(sid[starts], np.diff(np.append(starts, sid.size)), nodes[order])

    def _chunks(self, pid: int) -> list[tuple[int, int]]:
        """(start, length) in the pool of each chunk of a pair's list, its oldest first (so a byte
        pair's list, a chunk per block of the words, is ascending)."""
        c = int(self._head[pid])
        cstart, clen, cnext = self._cstart, self._clen, self._cnext
        out = []
        while c >= 0:
            out.append((int(cstart[c]), int(clen[c])))
            c = int(cnext[c])
        out.reverse()
        return out

    def _listed(self, chunks: list[tuple[int, int]]) -> np.ndarray:
        """The nodes listed in a pair's chunks (stale ones included), in an array of their own."""
        pool = self._pool
        parts = [pool[s : s + k] for s, k in chunks]
        if not parts:
            return _NO_NODES
        return parts[0].copy() if len(parts) == 1 else np.concatenate(parts)

    def _sites(self, pid: int, chunks: list[tuple[int, int]] | None = None) -> np.ndarray:
        """The nodes where the pair starts now, left to right (a node is listed once per pair)."""
        nodes = self._live_nodes(pid, chunks)
        if nodes.size < 2 or (nodes[1:] > nodes[:-1]).all():
            return nodes
        return np.sort(nodes, kind="stable")  # (chunks are ascending runs: timsort merges them)

    def _live_nodes(self, pid: int, chunks: list[tuple[int, int]] | None = None) -> np.ndarray:
        """The nodes listed under the pair where it still starts (``P`` holds its id there; without
        ``P``, ``T`` its two tokens), in the lists' order, in an array of their own. A long
        list is not copied whole: its live nodes are written out a block at a time (chunks
        joined up to a block, a longer chunk cut), so that only their pages take memory."""
        if chunks is None:
            chunks = self._chunks(pid)
        T, P, pool, step = self.T, self.P, self._pool, BUILD_BLOCK_NODES
        key = int(self._pkey[pid])
        a, b, la = key >> 32, key & _LOW, self._lens[key >> 32]

        def live(part: np.ndarray) -> np.ndarray:
            return P[part] == pid if P is not None else (T[part] == a) & (T[part + la] == b)

        total = sum(k for _s, k in chunks)
        if total <= step:  # (a short list: joined, checked at once)
            if not chunks:
                return _NO_NODES
            parts = [pool[s : s + k] for s, k in chunks]
            part = parts[0] if len(parts) == 1 else np.concatenate(parts)
            here = live(part)
            if not here.all():
                return part[here]
            return part.copy() if len(parts) == 1 else part  # (a view of the pool: copied)
        out = np.empty(total, dtype=_NODE)
        at = 0
        group: list[np.ndarray] = []
        held = 0
        pieces = ((lo, min(s + k, lo + step)) for s, k in chunks for lo in range(s, s + k, step))
        for lo, hi in (*pieces, (0, 0)):  # (an empty piece last: the group left is taken)
            if hi > lo:
                group.append(pool[lo:hi])
                held += hi - lo
                if held < step:
                    continue
            elif not group:
                continue
            part = group[0] if len(group) == 1 else np.concatenate(group)
            group, held = [], 0
            here = live(part)
            kept = part if here.all() else part[here]
            out[at : at + kept.size] = kept
            at += kept.size
        return out[:at]

    def _build(self) -> None:
        """Count every byte pair (weighted by its word's count) and list the nodes where each
        starts, ``BUILD_BLOCK_NODES`` at a time (the temporary arrays are a block's)."""
        T = self.T
        block = BUILD_BLOCK_NODES
        totals = np.zeros(65536, dtype=np.int64)
        ids = np.full(65536, -1, dtype=np.int64)  # a byte pair's id, by its 16-bit code
        last = T.size - 1
        for lo in range(0, last, block):
            hi = min(last, lo + block)
            left = T[lo:hi]
            right = T[lo + 1 : hi + 1]
            first = np.flatnonzero((left >= 0) & (right >= 0)).astype(_NODE)
            codes = left[first].astype(np.uint16)
            codes <<= 8
            codes |= right[first].astype(np.uint16)
            first += lo
            totals += int_bincount(codes, self._wcounts[self._word_of(first)], 65536)
            order = codes.argsort(kind="stable")  # (16-bit codes: a radix sort; nodes stay ascending)
            per = np.bincount(codes, minlength=65536)
            present = np.flatnonzero(per)
            fresh = present[ids[present] < 0]
            if fresh.size:
                ids[fresh] = self._new_ids(((fresh >> 8) << 32) | (fresh & 255))
            if self.P is not None:
                self.P[first] = ids[codes].astype(np.int32)
            self._append(ids[present], per[present], first[order])
            del left, right, first, codes, order
        self._byte_ids = ids  # (a byte pair is never made again: its id stays, till renumbered)
        self._byte_list = ids.tolist() if self.P is None else []  # (found in Python, without P)
        present = np.flatnonzero(totals)
        if present.size:
            self._set_counts(ids[present], totals[present])
        self._rose = 0

    # ------------------------------------------------------------------ merging
    @property
    def merges(self) -> list[Pair]:
        return self._merges

    @property
    def vocab_size(self) -> int:
        return 256 + len(self.special_tokens) + len(self._merges)

    @property
    def vocab(self) -> dict[int, bytes]:
        """ids 0–255 bytes, then special tokens in order, then merges in creation order."""
        return build_vocab(self._merges, self.special_tokens)

    def steps(self, n: int) -> list[MergeRecord]:
        """Make up to ``n`` merges (fewer when no pair is left)."""
        return self.run(self.vocab_size + n)

    def run(
        self, vocab_size: int, progress: Progress | None = None, min_interval: int = 1
    ) -> list[MergeRecord]:
        """Merge until ``vocab_size`` is reached or no pair is left, as :meth:`core.Trainer.run`:
        ``progress("merge", done, total)`` after every ``min_interval`` merges; when it returns False
        the run stops and :class:`Cancelled` is raised with ``.records`` holding the merges done."""
        target = max(0, vocab_size - self.vocab_size)
        out: list[MergeRecord] = []
        with paused_gc():
            while len(out) < target:
                if self._n >= self._next_check:
                    self._compact()
                best = self._best()
                if best is None:
                    break
                out.append(self._merge(*best))
                if (
                    progress is not None
                    and len(out) % min_interval == 0
                    and progress("merge", len(out), target) is False
                ):
                    exc = Cancelled(f"training cancelled after {len(out)} merges")
                    exc.records = out
                    raise exc
        if progress is not None:
            progress("merge", len(out), max(target, len(out)))
        return out

    def _best(self) -> tuple[int, int, int] | None:
        """(pair id, count, number of other pairs with that count) of the pair to merge next."""
        count = self._count
        regained, self._regained = self._regained, set()
        if self._tied is not None:  # the pairs tied at the last merge's count, in the rule's order
            bound, tied = self._tied
            if self._rose < bound:  # no count rose to it: the ties are those of them still at it
                tied = tied[count[tied] == bound]
                # ("first": a pair's first site moves only with its sites, which change with its
                # count, or where it lost and gained as much at once: then all are found again)
                moved = (
                    self.tie_break == "first" and bool(regained) and not regained.isdisjoint(tied.tolist())
                )
                if tied.size and not moved:
                    self._tied = (bound, tied) if tied.size > 1 else None
                    return int(tied[0]), bound, tied.size - 1
        self._tied = None
        self._rose = 0
        bmax = self._bmax
        while True:
            if not bmax.size:
                return None
            b = int(bmax.argmax())
            bound = int(bmax[b])
            if bound <= 0:
                return None
            seg = count[b << BLOCK_BITS : (b + 1) << BLOCK_BITS]
            top = int(seg.max())
            if top == bound:
                break
            bmax[b] = top
        blocks = np.flatnonzero(bmax == bound)
        if blocks.size == 1:
            tied = np.flatnonzero(seg == bound) + (b << BLOCK_BITS)
        else:  # every block whose bound is the best count: the exact ones hold the ties
            rows = count.reshape(-1, BLOCK)[blocks]
            bmax[blocks] = rows.max(axis=1)
            hit = np.nonzero(rows == bound)
            tied = (blocks[hit[0]] << BLOCK_BITS) + hit[1]
        if tied.size == 1:
            return int(tied[0]), bound, 0
        if self.tie_break == "lexicographic":  # (names never change: sorted once, greatest first)
            keys = self._pkey[tied]
            token = self._tokens.__getitem__
            names = list(zip(map(token, (keys >> 32).tolist()), map(token, (keys & _LOW).tolist())))
            tied = tied[sorted(range(tied.size), key=names.__getitem__, reverse=True)]
        else:  # the pair that starts first (each node starts one pair: no two alike)
            tied = tied[self._first_sites(tied).argsort(kind="stable")]
        self._tied = (bound, tied)
        return int(tied[0]), bound, tied.size - 1

    def _first_sites(self, pids: np.ndarray) -> np.ndarray:
        """The node where each pair starts first (the "first" tie rule)."""
        out = np.empty(pids.size, dtype=np.int64)
        for i, pid in enumerate(pids.tolist()):
            nodes = self._live_nodes(pid)
            out[i] = int(nodes.min()) if nodes.size else self.T.size
        return out

    def _code_for(self, token: bytes) -> tuple[int, bool]:
        """The code of a merged token, and whether it is new."""
        code = self._code.get(token)
        if code is not None:
            return code, False
        code = self._code[token] = len(self._tokens)
        if self._short and code >= SHORT_CODES:  # the codes outgrow int16: the tokens become int32
            self.T = self.T.astype(np.int32)
            self._short = False
        self._tokens.append(token)
        self._lens.append(len(token))
        self.L = _grown(self.L, code + 1, 0)
        self.L[code] = len(token)
        return code, True

    def _merge(self, pid: int, count: int, n_ties: int) -> MergeRecord:
        key = int(self._pkey[pid])
        a, b = key >> 32, key & _LOW
        tokens = self._tokens
        pair = (tokens[a], tokens[b])
        ab, new = self._code_for(pair[0] + pair[1])
        la, lb = len(pair[0]), len(pair[1])
        chunks = self._chunks(pid)
        small = new and sum(k for _s, k in chunks) <= SMALL_SITES
        if small:
            words, occurrences = self._merge_small(pid, a, b, ab, la, lb, self._listed(chunks).tolist())
        else:
            sites = self._sites(pid, chunks)
            if sites.size > SLICE_SITES:  # (taken a slice at a time: the pool may drop its list
                self._forget(pid)  # between slices; else its count's fall to 0 drops it)
            words, occurrences = self._merge_sites(pid, a, b, ab, new, la, lb, sites)
        rank = len(self._merges)
        self._merges.append(pair)
        record = MergeRecord(
            rank=rank,
            pair=pair,
            new_id=256 + len(self.special_tokens) + rank,
            count=count,
            n_ties=n_ties,
            words_changed=words,
            occurrences_changed=occurrences,
        )
        self.records.append(record)
        return record

    def _forget(self, pid: int) -> None:
        """The pair's list dropped: its chunks belong to no pair (the pool's compaction drops them)."""
        c = int(self._head[pid])
        self._head[pid] = -1
        cnext, cpid = self._cnext, self._cpid
        while c >= 0:
            cpid[c] = -1
            c = int(cnext[c])

    def _merge_sites(
        self, pid: int, a: int, b: int, ab: int, new: bool, la: int, lb: int, sites: np.ndarray
    ) -> tuple[int, int]:
        """Merge (a, b) into ab at ``sites`` (ascending); (words changed, their occurrences). Many
        sites are taken a slice of whole words at a time (the temporary arrays are a slice's)."""
        if a == b and sites.size > 1:
            # overlapping sites ("a a a"): in each chain of sites where one's right token starts
            # the next, keep every other one, from the left (as str.replace merges)
            chained = np.zeros(sites.size, dtype=bool)
            chained[1:] = sites[:-1] + la == sites[1:]
            if chained.any():
                k = np.arange(sites.size)
                run_first = np.where(chained, 0, k)
                np.maximum.accumulate(run_first, out=run_first)
                sites = sites[(k - run_first) % 2 == 0]
        if sites.size <= SLICE_SITES:
            return self._merge_at(pid, a, b, ab, new, la, lb, sites)
        words = occurrences = 0
        lo = 0
        while lo < sites.size:
            hi = min(sites.size, lo + SLICE_SITES)
            if hi < sites.size:  # cut before the word of site ``hi``, or after it if it is the first
                # (Python ints: a NumPy int64 would turn the searched sites int64, a copy of them all)
                word = int(self._word_of(sites[hi]))
                hi = lo + int(np.searchsorted(sites[lo : hi + 1], int(self._wstart[word])))
                if hi == lo:
                    ends = int(self._wstart[word + 1]) if word + 1 < self._wstart.size else self.T.size
                    hi = lo + int(np.searchsorted(sites[lo:], ends))
            wc, oc = self._merge_at(pid, a, b, ab, new and lo == 0, la, lb, sites[lo:hi])
            words += wc
            occurrences += oc
            lo = hi
        return words, occurrences

    def _merge_at(
        self, pid: int, a: int, b: int, ab: int, new: bool, la: int, lb: int, sites: np.ndarray
    ) -> tuple[int, int]:
        """Merge (a, b) into ab at ``sites`` (ascending, whole words; ``new``: no pair with ab
        exists yet)."""
        T, P = self.T, self.P
        self._live -= sites.size  # (each site takes a token, and the pair that started at it)
        wids = self._word_of(sites)
        w = self._wcounts[wids]
        nexts = sites + (la + lb)  # the token after the pair starts here (or a separator)
        ys = T[nexts]
        before = T[sites - 1]  # the token before ends here (or a separator)
        adj = nexts[:-1] == sites[1:]  # the next site starts right after this one
        adjacent = bool(adj.any())
        has_left = before != SEP
        if adjacent:  # (the left neighbour of a site right after another is that site: no pair)
            has_left[1:] &= ~adj
        has_right = ys != SEP
        # the left neighbours: a one-node token is its own start; else its end holds END - code
        xs = before[has_left]
        lefts = sites[has_left] - 1
        multi = xs < 0
        if multi.any():
            xs = np.where(multi, END - xs, xs)
            lefts[multi] -= self.L[xs[multi]] - 1
        # one grouping for both sides: x (left), V + y (right), 2V + a (right, the next site
        # adjacent: (b, a) is lost there and (ab, ab) made)
        V = len(self._tokens)
        ys = ys[has_right].astype(np.int64) + V  # (T may be int16)
        if adjacent:
            after = np.zeros(sites.size, dtype=bool)
            after[:-1] = adj
            ys[after[has_right]] += V
        codes = np.concatenate((xs, ys))
        nodes = np.concatenate((lefts, sites[has_right]))
        weights = np.concatenate((w[has_left], w[has_right]))
        if codes.size > 1:
            order = (codes.astype(np.uint16) if 3 * V <= 1 << 16 else codes).argsort(kind="stable")
            codes = codes[order]
            starts = np.flatnonzero(np.concatenate(([True], codes[1:] != codes[:-1])))
            sums = np.add.reduceat(weights[order], starts)
            nodes = nodes[order]
            runs = np.diff(np.append(starts, codes.size))
            firsts = nodes[starts]
            codes = codes[starts].astype(np.int64)
        else:
            sums, runs, firsts = weights, np.ones(codes.size, dtype=np.int64), nodes
            codes = codes.astype(np.int64)
        right = codes >= V
        # lost: (x, a) at the left neighbours, (b, y) at the absorbed tokens (y = a at adjacent
        # sites); and (a, b)
        if P is not None:  # (at the left neighbour's start, and at the absorbed token's)
            lost = np.append(P[firsts + la * right], pid)
        else:
            ys = np.where(codes >= 2 * V, a, codes - V)
            lost = np.append(self._find(np.where(right, (b << 32) | ys, (codes << 32) | a)), pid)
        np.add.at(self._count, lost, np.append(-sums, -int(w.sum())))
        # made: (x, ab) at the left neighbours, (ab, y) at the sites, (ab, ab) at adjacent sites
        keys = np.where(right, (ab << 32) | np.where(codes >= 2 * V, ab, codes - V), (codes << 32) | ab)
        # apply: the sites become ab, the nodes inside it DEAD, its last node its end
        if P is not None:
            P[sites + la] = -1  # (the absorbed token's start)
            P[sites] = -1  # (a site with no right neighbour starts no pair)
        if la > 1:
            T[sites + (la - 1)] = DEAD
        if lb > 1:
            T[sites + la] = DEAD
        T[sites] = ab
        T[nexts - 1] = END - ab
        if keys.size:
            if new:  # ab is a new token: every pair made is new, and each key once
                ids = self._new_ids(keys)
                if P is not None:
                    P[nodes] = np.repeat(ids.astype(np.int32), runs)
                self._set_counts(ids, sums)
                self._append(ids, runs, nodes)
            else:
                self._made_again(ab, keys, sums, runs, nodes)
        gone = lost[self._count[lost] == 0]
        if gone.size:
            self._head[gone] = -1
        first = np.concatenate(([True], wids[1:] != wids[:-1]))  # a word's sites are side by side
        return int(np.count_nonzero(first)), int(w[first].sum())

    def _made_again(
        self, ab: int, keys: np.ndarray, sums: np.ndarray, runs: np.ndarray, nodes: np.ndarray
    ) -> None:
        """Pairs made with a token that existed already (two merges made the same bytes): some of
        them may be there (found in the index: a pair gone takes a new id)."""
        uk, inv = np.unique(keys, return_inverse=True)
        if self.P is None:
            ids = self._find(uk)
        else:  # (no order of ids kept: the keys of the pairs with ab, by a scan)
            n = self._n
            pk = self._pkey[:n]
            live = np.flatnonzero(((pk >> 32 == ab) | (pk & _LOW == ab)) & (self._count[:n] > 0))
            known = dict(zip(pk[live].tolist(), live.tolist()))
            ids = np.fromiter((known.get(k, -1) for k in uk.tolist()), dtype=np.int64, count=uk.size)
        fresh = ids < 0
        fresh[~fresh] = self._count[ids[~fresh]] <= 0
        if not fresh.all():
            self._regained.update(ids[~fresh].tolist())
        if fresh.any():
            ids[fresh] = self._new_ids(uk[fresh])
        per = ids[inv]
        np.add.at(self._count, per, sums)
        now = self._count[ids]
        np.maximum.at(self._bmax, ids >> BLOCK_BITS, now)
        self._rose = max(self._rose, int(now.max()))
        node_ids = np.repeat(per, runs)
        if self.P is not None:
            self.P[nodes] = node_ids
        self._append_nodes(node_ids, nodes)

    def _merge_small(
        self, pid: int, a: int, b: int, ab: int, la: int, lb: int, listed: list[int]
    ) -> tuple[int, int]:
        """:meth:`_merge_sites` for a new token at a few sites (``listed``: the pair's list, stale
        nodes included), one site at a time in Python (a few NumPy calls cost more than such a
        merge): the same changes, by the same rules."""
        T = self.T.data
        lens = self._lens
        P = None if self.P is None else self.P.data
        if P is not None:
            sites = sorted({n for n in listed if P[n] == pid})
        else:
            sites = sorted({n for n in listed if T[n] == a and T[n + la] == b})
        if a == b and len(sites) > 1:
            kept = []  # chains of overlapping sites ("a a a"): every other one, from the left
            prev = -2 * la
            taken = False
            for s in sites:
                taken = not (taken and s == prev + la)
                if taken:
                    kept.append(s)
                prev = s
            sites = kept
        k = len(sites)
        self._live -= k
        wbase, woff, wcount = self._wbase.data, self._woff.data, self._wcounts.data
        span = la + lb
        end_ab = END - ab
        total = words = occurrences = 0
        last = -1
        lost: dict[int, int] = {}  # a pair lost (its id, or its key without P) -> its count's change
        made_left: dict[int, list] = {}  # x -> [summed weight, nodes]
        made_right: dict[int, list] = {}  # y (-1: ab itself, adjacent sites) -> [summed weight, nodes]
        prev_end = -1  # the node after the last site's pair
        for i, s in enumerate(sites):
            wid = wbase[s >> WORD_BLOCK_BITS] + woff[s]
            wi = wcount[wid]
            total += wi
            if wid != last:
                words += 1
                occurrences += wi
                last = wid
            nx = s + span
            if s != prev_end:  # (adjacent sites: the left one made (ab, ab) with this one)
                e = T[s - 1]
                if e != SEP:
                    if e >= 0:
                        x, left = e, s - 1
                    else:
                        x = END - e
                        left = s - lens[x]
                    q = (x << 32) | a if P is None else P[left]
                    lost[q] = lost.get(q, 0) - wi
                    entry = made_left.get(x)
                    if entry is None:
                        made_left[x] = [wi, [left]]
                    else:
                        entry[0] += wi
                        entry[1].append(left)
            y = T[nx]
            if y != SEP:
                q = (b << 32) | y if P is None else P[s + la]  # (y starts at nx: its code is there)
                lost[q] = lost.get(q, 0) - wi
                if i + 1 < k and sites[i + 1] == nx:
                    y = -1
                entry = made_right.get(y)
                if entry is None:
                    made_right[y] = [wi, [s]]
                else:
                    entry[0] += wi
                    entry[1].append(s)
            # this site's pair becomes ab (its reads are done; the next site reads beyond it)
            if P is not None:
                P[s] = -1
                P[s + la] = -1
            if la > 1:
                T[s + la - 1] = DEAD
            if lb > 1:
                T[s + la] = DEAD
            T[s] = ab
            T[nx - 1] = end_ab
            prev_end = nx
        own = (a << 32) | b if P is None else pid
        lost[own] = lost.get(own, 0) - total
        cnt = self._count.data
        head = self._head.data
        for q, d in zip(self._find_list(list(lost)) if P is None else lost, lost.values()):
            c = cnt[q] + d
            cnt[q] = c
            if not c:
                head[q] = -1
        g = len(made_left) + len(made_right)
        if g:
            i0 = self._n
            if i0 + g > self._count.size:
                self._grow(i0 + g)
            self._n = i0 + g
            lefts, rights = list(made_left), list(made_right)
            if P is None:  # ids in the order of their places: (x, ab) by x, (ab, y) by y, (ab, ab)
                lefts.sort()
                rights.sort(key=lambda y: ab if y < 0 else y)
            entries = [*map(made_left.__getitem__, lefts), *map(made_right.__getitem__, rights)]
            self._room(sum(len(e[1]) for e in entries), g)
            AB = ab << 32
            pkey, G = self._pkey.data, self._G.data
            place = ab << 33  # (ab is the newest token: its pairs' places come after all before)
            q = i0
            for m, right in [*((x, 0) for x in lefts), *((ab if y < 0 else y, 1) for y in rights)]:
                pkey[q] = AB | m if right else (m << 32) | ab
                if P is None:
                    G[q] = place | (right << 32) | m
                q += 1
            if P is None:
                self._gmax = G[q - 1]
            cnt, head, bmax = self._count.data, self._head.data, self._bmax.data
            pool, cstart, clen = self._pool.data, self._cstart.data, self._clen.data
            cnext, cpid = self._cnext.data, self._cpid.data
            at, ch = self._npool, self._nch
            rose = self._rose
            q = i0
            for c, nodes in entries:
                cnt[q] = c
                if bmax[q >> BLOCK_BITS] < c:
                    bmax[q >> BLOCK_BITS] = c
                if c > rose:
                    rose = c
                if P is not None:
                    for node in nodes:
                        P[node] = q
                n = len(nodes)
                pool[at : at + n] = array("i", nodes)
                cstart[ch] = at
                clen[ch] = n
                cnext[ch] = -1  # (a new pair: no chunk before this one)
                cpid[ch] = q
                head[q] = ch
                at += n
                ch += 1
                q += 1
            self._npool, self._nch = at, ch
            self._rose = rose
        return words, occurrences

    def words(self) -> list[tuple[bytes, ...]]:
        """Every word's tokens now, in order of first appearance (for tests)."""
        T, lens, tokens = self.T, self._lens, self._tokens
        out = []
        for s in self._wstart.tolist():
            toks = []
            while T[s] != SEP:
                code = int(T[s])
                toks.append(tokens[code])
                s += lens[code]
            out.append(tuple(toks))
        return out


def lean_merger(
    word_counts: Mapping[bytes, int],
    tie_break: TieBreak,
    special_tokens: list[str],
    *,
    pattern: str | None,
    stats: CorpusStats | None,
    vocab_size: int,
    word_bytes: int | None = None,
) -> FlatMerger:
    """The flat loop as a run without undo builds it (``train_bpe``, ``train``, ``train --counts``):
    sized for ``vocab_size``, emptying the counts once copied, with a pair id per node where
    :func:`core.training.memory_need.flat_node_ids` says (``word_bytes``: the words' bytes, if
    summed already)."""
    if word_bytes is None:
        word_bytes = words_bytes(word_counts)
    merges = vocab_size - 256 - len(special_tokens)
    return FlatMerger(
        word_counts,
        tie_break,
        special_tokens,
        pattern=pattern,
        stats=stats,
        vocab_size=vocab_size,
        consume=True,
        node_ids=flat_node_ids(len(word_counts), word_bytes, merges),
    )
