"""Byte-pair merging of many words at once with NumPy: the same ids as :func:`core.bpe.merge.bpe_ids` and
:func:`core.bpe.ranks.rank_bpe`, word by word, at a fraction of the cost per word.

Encoding a large corpus meets hundreds of thousands of distinct words that are not in the cache;
merging each in a Python loop costs 15–30 µs. Here all of them are laid end to end in one array of
token ids and merged in rounds. Each round looks up the rank of every adjacent pair (a sorted array
of pair keys, ``np.searchsorted``), finds in each word the pair of lowest rank, leftmost on ties
(one ``np.minimum.reduceat`` over ``rank << 24 | position``), and merges exactly that pair in every
word: one merge per word per round, which is the sequential rule itself. A word with no mergeable
pair left is finished and leaves the arrays; the rounds stop when every word has.

Both rules fit one table of pairs of token ids. Merges (GPT-2, a trained vocab): the pair of a
merge, its rank, the id it makes. Ranks (tiktoken): every pair of tokens whose concatenation is a
token, ranked by that token's rank (= its id), which is what tiktoken compares (:class:`PairTable`).

>>> from core.bpe.merge import MergeTable, bpe_ids
>>> enc = {bytes([i]): i for i in range(256)} | {b"ab": 256, b"abc": 257}
>>> table = MergeTable.build([(b"a", b"b"), (b"ab", b"c")], enc)
>>> pt = PairTable.from_merge_table(table)
>>> split_ids(*bpe_batch([b"abcab", b"xy", b"cab"], pt))
[(257, 256), (120, 121), (99, 256)]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import compress, islice, repeat
from operator import is_
from typing import Any

import numpy as np

from core.bpe.merge import MergeTable

#: a word of more bytes than this is merged on its own (its rounds would hold up the batch)
BATCH_MAX_BYTES = 64
_POS_BITS = 24  # positions in a round's array (batches are cut below 2^24 bytes)
_MAX_BATCH_BYTES = 1 << 20  # (bounds the arrays of a batch: about 60 MB at most)
_NONE = (1 << 36) - 1  # "no merge" (above every rank)
_EMPTY = -1  # an empty slot of the hash table (pair keys are never negative)
_EMPTY_KEYS = np.zeros(0, np.int64)


class PairTable:
    """Adjacent pairs of token ids that merge (keys ``left << 32 | right`` in a hash table), the
    rank of each, and the id made by each rank. A table from merges is complete; a table from ranks
    learns each pair the first time it is looked up (``fill``: the rank of ``a + b``, if a token)
    and keeps it, so no pair of a 200k vocab is computed before it is needed."""

    __slots__ = ("byte_ids", "count", "fill", "hash_keys", "hash_ranks", "merged")

    def __init__(
        self,
        byte_ids: np.ndarray,
        keys: np.ndarray,
        ranks: np.ndarray,
        merged: np.ndarray,
        fill: Callable[[np.ndarray], np.ndarray] | None = None,
    ) -> None:
        self.byte_ids = byte_ids  # id of each byte value 0..255 (-1: not in the vocab)
        self.merged = merged  # merged[rank] = the id that merge makes
        self.fill = fill  # ranks of keys the table does not hold yet (None: a complete table)
        # open addressing: keys (_EMPTY: a free slot), and the rank of the key in the same slot
        self.hash_keys, self.hash_ranks = _hash_table(keys, ranks)
        self.count = keys.size

    @classmethod
    def from_merge_table(cls, table: MergeTable) -> PairTable:
        keys = np.fromiter(table.pair_rank.keys(), np.int64, len(table.pair_rank))
        ranks = np.fromiter(table.pair_rank.values(), np.int64, len(table.pair_rank))
        return cls(np.asarray(table.byte_ids, np.int64), keys, ranks, np.asarray(table.merged, np.int64))

    @classmethod
    def from_ranks(cls, by_rank: dict[bytes, int], vocab: dict[int, bytes]) -> PairTable:
        """tiktoken's rule: ``(a, b)`` merges when ``a + b`` is a token; its rank is that token's
        (= its id in ``vocab``), which is also the id it makes."""
        get, token = by_rank.get, vocab.__getitem__

        def fill(keys: np.ndarray) -> np.ndarray:
            made = map(
                bytes.__add__, map(token, (keys >> 32).tolist()), map(token, (keys & 0xFFFFFFFF).tolist())
            )
            return np.fromiter(map(get, made, repeat(_NONE)), np.int64, keys.size)

        top = max(by_rank.values(), default=0) + 1
        byte_ids = np.asarray([get(bytes([c]), -1) for c in range(256)], np.int64)
        return cls(byte_ids, _EMPTY_KEYS, _EMPTY_KEYS, np.arange(top, dtype=np.int64), fill)

    def add(self, keys: np.ndarray, ranks: np.ndarray) -> None:
        """Hold the distinct ``keys`` (none held yet) with their ranks; grown when half full."""
        if 2 * (self.count + keys.size) > self.hash_keys.size:
            held = self.hash_keys != _EMPTY
            self.hash_keys, self.hash_ranks = _hash_table(
                np.concatenate([self.hash_keys[held], keys]), np.concatenate([self.hash_ranks[held], ranks])
            )
        else:
            _insert(self.hash_keys, self.hash_ranks, keys, ranks)
        self.count += keys.size


def bpe_batch(words: list[bytes], table: PairTable) -> tuple[np.ndarray, np.ndarray]:
    """The ids of every word merged (concatenated) and how many ids each word has.

    Every word must be non-empty, every byte must have an id (``table.byte_ids`` ≥ 0), and each
    word under ``2^24`` bytes; words should be short (:data:`BATCH_MAX_BYTES`), as a long one
    takes many rounds.
    """
    if not words:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    out_ids: list[np.ndarray] = []
    out_counts: list[np.ndarray] = []
    sizes = np.cumsum(np.fromiter(map(len, words), np.int64, len(words)))
    # batches of a bounded size (positions fit in _POS_BITS; a longer word is a batch of its own)
    cuts = np.unique(np.searchsorted(sizes, np.arange(_MAX_BATCH_BYTES, int(sizes[-1]), _MAX_BATCH_BYTES)))
    for a, b in zip([0, *cuts.tolist()], [*cuts.tolist(), len(words)]):
        if b > a:
            ids, counts = _batch(words[a:b], table)
            out_ids.append(ids)
            out_counts.append(counts)
    return np.concatenate(out_ids), np.concatenate(out_counts)


def _lookup(table: PairTable, keys: np.ndarray) -> np.ndarray:
    """The rank of each pair key (:data:`_NONE` for pairs that do not merge): open addressing,
    linear probing, all keys at once, one probe step per pass. Keys a learning table does not
    hold yet are filled in (each distinct key once) and kept."""
    hk, hv = table.hash_keys, table.hash_ranks
    mask = hk.size - 1
    slot = _slots(keys, hk.size)
    found = hk[slot]
    hit = found == keys
    out = np.where(hit, hv[slot], _NONE)
    absent = found == _EMPTY
    todo = np.flatnonzero(~hit & ~absent)
    while todo.size:
        slot[todo] = (slot[todo] + 1) & mask
        found = hk[slot[todo]]
        hit = found == keys[todo]
        out[todo[hit]] = hv[slot[todo[hit]]]
        empty = found == _EMPTY
        absent[todo[empty]] = True
        todo = todo[~hit & ~empty]
    if table.fill is not None and absent.any():
        new, where = np.unique(keys[absent], return_inverse=True)
        ranks = table.fill(new)
        table.add(new, ranks)
        out[absent] = ranks[where]
    return out


def _slots(keys: np.ndarray, size: int) -> np.ndarray:
    """Home slots of pair keys in a table of ``size`` (a power of two) slots (Fibonacci hashing)."""
    with np.errstate(over="ignore"):
        h = keys.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    return (h >> np.uint64(64 - size.bit_length() + 1)).astype(np.int64)


def _hash_table(keys: np.ndarray, ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Open-addressing arrays (keys, ranks) holding ``keys`` (a pair listed twice keeps its lowest
    rank, as the merge rule does), at most a quarter full."""
    if keys.size > 1:
        order = np.lexsort((ranks, keys))
        keys, ranks = keys[order], ranks[order]
        first = np.r_[True, keys[1:] != keys[:-1]]
        keys, ranks = keys[first], ranks[first]
    size = 1 << max(4, (4 * max(1, keys.size) - 1).bit_length())
    hk = np.full(size, _EMPTY, np.int64)
    hv = np.full(size, _NONE, np.int64)
    _insert(hk, hv, keys, ranks)
    return hk, hv


def _insert(hk: np.ndarray, hv: np.ndarray, keys: np.ndarray, ranks: np.ndarray) -> None:
    """Put distinct ``keys`` (none of them held) into the table ``hk``/``hv``, which has room."""
    size = hk.size
    pending = np.arange(keys.size)
    slot = _slots(keys, size)
    while pending.size:
        s = slot[pending]
        free = hk[s] == _EMPTY
        # of the keys wanting one free slot, the first takes it; the others probe on
        taken, first = np.unique(s[free], return_index=True)
        winners = pending[free][first]
        hk[taken] = keys[winners]
        hv[taken] = ranks[winners]
        placed = np.zeros(keys.size, bool)
        placed[winners] = True
        pending = pending[~placed[pending]]
        slot[pending] = (slot[pending] + 1) & (size - 1)


def _batch(words: list[bytes], table: PairTable) -> tuple[np.ndarray, np.ndarray]:
    n_words = len(words)
    cnt = np.fromiter(map(len, words), np.int64, n_words)  # parts of each word still merging
    tok = table.byte_ids[np.frombuffer(b"".join(words), np.uint8)]
    wid = np.arange(n_words)  # the word (index into words) of each word still merging
    # pair[i]: the rank of the pair (tok[i], tok[i + 1]); _NONE at the last part of a word
    pair = np.full(tok.size, _NONE, np.int64)
    pair[:-1] = _lookup(table, (tok[:-1] << 32) | tok[1:])
    ends = np.cumsum(cnt)
    pair[ends - 1] = _NONE
    merged_t = table.merged
    positions = np.arange(tok.size, dtype=np.int64)
    done: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    mask = (1 << _POS_BITS) - 1
    while tok.size:
        n = tok.size
        starts = ends - cnt
        best = np.minimum.reduceat((pair << _POS_BITS) | positions[:n], starts)  # lowest rank, leftmost
        rank = best >> _POS_BITS
        fin = rank == _NONE
        keep = np.ones(n, bool)
        if fin.any():  # words with no pair left to merge are finished: out of the arrays
            in_fin = np.repeat(fin, cnt)
            done.append((tok[in_fin], wid[fin], cnt[fin]))
            keep[in_fin] = False
            go = ~fin
            rank, best, wid, cnt = rank[go], best[go], wid[go], cnt[go]
        if not wid.size:
            break
        at = best & mask
        tok[at] = merged_t[rank]
        keep_tok = keep.copy()
        keep_tok[at + 1] = False  # the right part is merged into the left one
        keep[at] = False  # and the merged pair's rank is gone; the next pair's slot now follows `at`
        new_at = np.cumsum(keep_tok)[at] - 1
        tok = tok[keep_tok]
        pair = pair[keep]
        cnt -= 1
        ends = np.cumsum(cnt)
        # the pairs on both sides of each merged part change: look up just those
        left = new_at > ends - cnt
        right = new_at < ends - 1
        li, ri = new_at[left] - 1, new_at[right]
        pair[li] = _lookup(table, (tok[li] << 32) | tok[li + 1])
        pair[ri] = _lookup(table, (tok[ri] << 32) | tok[ri + 1])
    all_tok = np.concatenate([d[0] for d in done])
    all_wid = np.concatenate([d[1] for d in done])
    all_cnt = np.concatenate([d[2] for d in done])
    order = np.argsort(np.repeat(all_wid, all_cnt), kind="stable")  # words back in their order
    return all_tok[order], all_cnt[np.argsort(all_wid)]


def split_ids(ids: np.ndarray, counts: np.ndarray) -> list[tuple[int, ...]]:
    """The ids of each word as a tuple (the inverse of concatenating them)."""
    it = iter(ids.tolist())
    return [tuple(islice(it, c)) for c in counts.tolist()]


#: fewer pre-tokens missing from the cache than this are merged one by one
PREFILL_MIN = 64
#: a long list of pre-tokens is looked through only when more than 2% of its first this many are new
PREFILL_SAMPLE = 2000


@dataclass(eq=False)
class EncodingParts:
    """What a tokenizer hands its fast encoders (:func:`prefill`, ``ArrayEncoder``): the tables they read,
    built once by the tokenizer, and nothing else of it.

    ``encode_word`` gives one pre-token's ids (the tokenizer's own rule, also for words the batch path
    leaves out); ``cache`` maps pre-tokens to ids; ``split`` cuts text without special tokens into
    pre-tokens; ``special_re`` finds special tokens and ``hole_re`` characters the vocab cannot encode;
    ``has_pipeline`` says an imported HF pipeline (normalizer, added-token flags) must do the encoding.
    """

    encoder: dict[bytes, int]
    encode_word: Callable[[str], tuple[int, ...]]
    cache: Any
    ignore_merges: bool
    split: Callable[[str], list[str]]
    special_re: Any
    hole_re: Any
    has_pipeline: bool
    make_pair_table: Callable[[], PairTable]
    _pair_table: PairTable | None = field(default=None, repr=False)

    def pair_table(self) -> PairTable:
        """The pair table of :func:`bpe_batch`, made on first use."""
        if self._pair_table is None:
            self._pair_table = self.make_pair_table()
        return self._pair_table


def prefill(parts: EncodingParts, pretokens: list[str]) -> None:
    """Put the ids of the distinct ``pretokens`` missing from ``tok``'s cache into it, merged with
    :func:`bpe_batch` when there are at least :data:`PREFILL_MIN` (else nothing: the cache merges
    them one by one). What the batch does not take (long words, text with lone surrogates, whole
    tokens) is left to the cache, which gives the same ids."""
    cache = parts.cache
    sample = pretokens[:PREFILL_SAMPLE]
    if len(pretokens) > 4 * PREFILL_SAMPLE and sum(
        map(is_, map(cache.get, sample), repeat(None))
    ) < 0.02 * len(sample):
        return  # nearly all known (text whose words repeat): one by one costs less than looking
    distinct = dict.fromkeys(pretokens)
    missing = list(compress(distinct, map(is_, map(cache.get, distinct), repeat(None))))
    if len(missing) < PREFILL_MIN:
        return
    table = parts.pair_table()
    try:
        raw = list(map(str.encode, missing, repeat("utf-8"), repeat("surrogateescape")))
    except UnicodeEncodeError:
        return  # (a lone surrogate: the cache raises the tokenizer's error)
    if parts.ignore_merges:  # a pre-token that is a token is that token (the cache's rule)
        raw = [b if i is None else b"" for b, i in zip(raw, map(parts.encoder.get, raw))]
    pick = [1 < len(b) <= BATCH_MAX_BYTES for b in raw]
    words = list(compress(raw, pick))
    if len(words) < PREFILL_MIN:
        return
    if (table.byte_ids < 0).any() and (table.byte_ids[np.frombuffer(b"".join(words), np.uint8)] < 0).any():
        return  # a byte the vocab lacks: the tokenizer's own error comes from the cache
    cache.make_room(len(words))
    cache.update(zip(compress(missing, pick), split_ids(*bpe_batch(words, table))))
