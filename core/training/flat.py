"""Lean training over the words as one array of linked tokens (no undo, no history).

The :class:`core.training.trainer.Trainer` keeps each distinct word as a ``str`` object and merges
word by word: every changed word is a Python object read, rewritten and stored, at a random place in
memory, and the merge loop spends most of its time waiting for those reads. Here every word's tokens
are nodes of NumPy arrays over all words, one after another (``tok``: the token's code;
``nxt`` / ``prv``: the next and previous node of the same word, ``END`` at a word's ends; a node
merged into its left neighbour is ``DEAD``; ``_wid``: the node's word, whose count weighs it):
16 bytes a token, where a word's string costs about one a token and 50 a word, so this loop needs
more memory (:func:`core.training.memory_need.flat_memory`). The pair index (:class:`core.training.pair_index.PairIndex`,
the trainer's: the same counts, buckets and tie rules) lists, under each pair, the nodes where the
pair starts (or started: stale entries are checked and dropped when read). A merge reads the
nodes of its pair and does everything with a few dozen NumPy calls over its sites, whatever their
number: the changes of pair counts and the nodes of the pairs made are grouped by the neighbouring
token's code, as the trainer's batched merge does.

The merges, their counts and the tie rules are the trainer's (the tests compare them merge by
merge); this is what ``train_bpe`` and the command line's ``train`` use, where nobody steps back. It
answers what they read of a :class:`core.Trainer` (``run``, ``steps``, ``merges``, ``records``,
``vocab``, ``special_tokens``, ``pattern``, ``tie_break``, ``stats``); its records list no ties
and no count changes, as a trainer's without history.

>>> m = FlatMerger({b"abab": 2, b"ab": 1})
>>> [(r.pair, r.count, r.words_changed, r.occurrences_changed) for r in m.steps(2)]
[((b'a', b'b'), 5, 2, 3), ((b'ab', b'ab'), 2, 1, 2)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import pairwise

import numpy as np

from core.errors import BPEError, Cancelled
from core.memory import paused_gc
from core.pretokenization.exact_counts import int_bincount
from core.pretokenization.pretokenize import CorpusStats, Progress, check_special_tokens
from core.training.count_bounds import check_counts
from core.training.pair_index import PairIndex, best_of, sorted_unique
from core.training.records import TIE_BREAKS, MergeRecord, Pair, TieBreak
from core.training.token_codes import TokenCodes
from core.training.vocab import build_vocab

END = -1  # no neighbour (``nxt`` / ``prv``)
DEAD = -1  # ``tok`` of a node merged into its left neighbour
_NODE = np.intc  # node numbers, as the pair index lists ids (C ints)
_NO_NODES = np.zeros(0, dtype=_NODE)
BUILD_BLOCK_NODES = 1 << 20  # nodes indexed at a time while the pair index is built


class FlatMerger:
    """The words of a corpus (distinct pre-token -> count) merged by the BPE rule, leanly."""

    keep_history = False

    def __init__(
        self,
        word_counts: Mapping[bytes, int],
        tie_break: TieBreak = "lexicographic",
        special_tokens: Iterable[str] | None = None,
        *,
        pattern: str | None = "gpt2",
        stats: CorpusStats | None = None,
    ) -> None:
        if tie_break not in TIE_BREAKS:
            raise BPEError(f"tie_break must be 'lexicographic' or 'first', not {tie_break!r}")
        self.tie_break: TieBreak = tie_break
        self.special_tokens: list[str] = check_special_tokens(special_tokens)
        self.pattern = pattern
        self.stats = stats or CorpusStats(
            distinct_pretokens=len(word_counts), pretokens=sum(word_counts.values())
        )
        self.records: list[MergeRecord] = []
        words = list(word_counts)
        values = list(word_counts.values())
        check_counts(words, values)  # positive ints; every pair count fits int64
        counts = np.array(values, dtype=np.int64)
        del values
        lens = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
        blob = b"".join(words)
        del words
        n = len(blob)
        if n >= 2**31 - 1:
            raise BPEError(
                f"the distinct words hold {n:,} bytes: the flat merge loop numbers at most 2**31 - 1 tokens; "
                "train with engine='words'"
            )
        self.tok = np.frombuffer(blob, dtype=np.uint8).astype(np.int32)
        del blob
        starts = np.cumsum(lens) - lens
        keep = lens > 0
        self._starts = starts[keep]
        self._wcounts = counts  # each word's count, and each node's word (its weight is that count)
        self._wid = np.repeat(np.arange(len(counts), dtype=np.int32), lens)
        self.nxt = np.arange(1, n + 1, dtype=_NODE)
        self.prv = np.arange(-1, n - 1, dtype=_NODE)
        if n:
            self.nxt[(starts + lens - 1)[keep]] = END
            self.prv[self._starts] = END
        self.codes = TokenCodes()  # (one code a token: bytes 0–255, merged tokens from 256)
        self.index = self._build_index()
        self._merges: list[Pair] = []

    def _weights(self, nodes: np.ndarray) -> np.ndarray:
        """The count of each node's word (int64: sums of them stay exact)."""
        return self._wcounts[self._wid[nodes]]

    def _build_index(self, block: int = BUILD_BLOCK_NODES) -> PairIndex:
        """Count every byte pair (weighted by its word's count) and list the nodes where each starts,
        ``block`` nodes at a time (the temporary arrays are a block's, not the corpus's)."""
        tok, nxt = self.tok, self.nxt
        totals = np.zeros(65536, dtype=np.int64)
        listed: dict[int, bytearray] = {}
        for lo in range(0, tok.size, block):
            hi = min(tok.size, lo + block)
            first = np.flatnonzero(nxt[lo:hi] != END).astype(_NODE)  # nodes with a right neighbour
            first += lo
            keys = tok[first].astype(np.uint16)
            keys <<= 8
            keys |= tok[first + 1].astype(np.uint16)  # (the right neighbour of a node never merged)
            totals += int_bincount(keys, self._weights(first), 65536)
            order = keys.argsort(kind="stable")  # (16-bit keys: a radix sort; nodes stay ascending)
            nodes = first[order]
            per = np.bincount(keys, minlength=65536)
            del keys, order, first
            present = np.flatnonzero(per)
            ends = np.cumsum(per)[present]
            view = memoryview(nodes).cast("B")
            size = nodes.itemsize
            for code, e, n in zip(present.tolist(), ends.tolist(), per[present].tolist()):
                ids = listed.get(code)
                if ids is None:
                    ids = listed[code] = bytearray()
                ids += view[(e - n) * size : e * size]
            del view, nodes
        counts: dict[str, int] = {}
        index: dict[str, bytearray | int] = {}
        for code in sorted(listed):
            key = chr(code >> 8) + chr(code & 255)
            counts[key] = int(totals[code])
            index[key] = listed[code]
        return PairIndex(counts, index)

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

    def _best(self) -> tuple[str, int, int] | None:
        best = self.index.best()
        if best is None:
            return None
        c, bucket = best
        return best_of(bucket, self.tie_break, self.codes.pair_names, self._first_node), c, len(bucket) - 1

    def _sites(self, key: str) -> np.ndarray:
        """The nodes where the pair starts now, left to right (stale entries dropped)."""
        a, b = ord(key[0]), ord(key[1])
        listed = self.index.words.get(key)
        if listed is None:
            return _NO_NODES
        if isinstance(listed, int):
            nodes = np.array([listed], dtype=_NODE)
        else:  # (stale entries dropped before the sort: often most of them)
            nodes = np.frombuffer(listed, dtype=_NODE)
        tok, nxt = self.tok, self.nxt
        nodes = nodes[tok[nodes] == a]
        right = nxt[nodes]
        ok = right != END
        nodes = nodes[ok]
        return sorted_unique(nodes[tok[right[ok]] == b])

    def _first_node(self, key: str) -> int:
        """Where a pair first occurs: a node's number orders words as first seen, then positions."""
        sites = self._sites(key)
        return int(sites[0]) if sites.size else len(self.tok)

    def _merge(self, key: str, count: int, n_ties: int) -> MergeRecord:
        codes = self.codes
        ca, cb = key[0], key[1]
        pair = (codes.token[ca], codes.token[cb])
        cab = codes.code_for(pair[0] + pair[1])
        a, b, ab = ord(ca), ord(cb), ord(cab)
        tok, nxt, prv = self.tok, self.nxt, self.prv
        sites = self._sites(key)
        absorbed = nxt[sites]
        if a == b and sites.size > 1:
            # overlapping sites ("a a a"): in each chain of sites where one's right node starts the
            # next, keep every other one, from the left (as str.replace merges)
            chained = np.zeros(sites.size, dtype=bool)
            chained[1:] = absorbed[:-1] == sites[1:]
            k = np.arange(sites.size)
            run_first = np.where(chained, 0, k)
            np.maximum.accumulate(run_first, out=run_first)
            keep = (k - run_first) % 2 == 0
            sites, absorbed = sites[keep], absorbed[keep]
        wids = self._wid[sites]
        w = self._wcounts[wids]
        nexts = nxt[absorbed]
        lefts = prv[sites]
        adj_next = np.zeros(sites.size, dtype=bool)
        adj_next[:-1] = nexts[:-1] == sites[1:]  # the next site starts right after this one
        adj_prev = np.zeros(sites.size, dtype=bool)
        adj_prev[1:] = adj_next[:-1]
        has_right = nexts != END
        has_left = (lefts != END) & ~adj_prev
        new_right = has_right & ~adj_next

        cdelta: dict[str, int] = {}
        new_index: dict[str, np.ndarray] = {}
        get = cdelta.get
        small = codes.fits_16_bits
        # (x, a) is lost and (x, ab) made, at the left neighbour's node
        for x, d, nodes in _groups(tok[lefts[has_left]], w[has_left], lefts[has_left], small):
            t = chr(x)
            cdelta[t + ca] = get(t + ca, 0) - d
            cdelta[t + cab] = get(t + cab, 0) + d
            new_index[t + cab] = nodes
        # (b, y) is lost for every site with a right neighbour, and (ab, y) made where the next site
        # does not start right after it (adjacent sites make (ab, ab) instead)
        adjacent = bool(adj_prev.any())
        ys = tok[nexts[has_right]]
        for y, d, nodes in _groups(ys, w[has_right], None if adjacent else sites[has_right], small):
            t = chr(y)
            cdelta[cb + t] = get(cb + t, 0) - d
            if not adjacent:
                cdelta[cab + t] = get(cab + t, 0) + d
                _list(new_index, cab + t, nodes)
        if adjacent:
            for y, d, nodes in _groups(tok[nexts[new_right]], w[new_right], sites[new_right], small):
                t = chr(y)
                cdelta[cab + t] = get(cab + t, 0) + d
                _list(new_index, cab + t, nodes)
            cdelta[cab + cab] = get(cab + cab, 0) + int(w[adj_prev].sum())
            _list(new_index, cab + cab, sites[:-1][adj_prev[1:]])  # (ab, ab) starts at the left one
        cdelta[key] = get(key, 0) - int(w.sum())
        # apply: the sites become ab, the absorbed nodes leave their words
        tok[sites] = ab
        tok[absorbed] = DEAD
        nxt[sites] = nexts
        prv[nexts[has_right]] = sites[has_right]
        index = self.index
        index.add_word_ids(new_index, report=False)
        index.apply_deltas(cdelta, report=False, forget=True)
        # the words changed: sites come in node order, so a word's sites are next to each other
        first = np.ones(wids.size, dtype=bool)
        first[1:] = wids[1:] != wids[:-1]
        rank = len(self._merges)
        self._merges.append(pair)
        record = MergeRecord(
            rank=rank,
            pair=pair,
            new_id=256 + len(self.special_tokens) + rank,
            count=count,
            n_ties=n_ties,
            words_changed=int(first.sum()),
            occurrences_changed=int(w[first].sum()),
        )
        self.records.append(record)
        return record

    def words(self) -> list[tuple[bytes, ...]]:
        """Every word's tokens now, in order of first appearance (for tests)."""
        token = self.codes.token
        out = []
        for s in self._starts.tolist():
            toks = []
            n = s
            while n != END:
                toks.append(token[chr(int(self.tok[n]))])
                n = int(self.nxt[n])
            out.append(tuple(toks))
        return out


def _list(index: dict[str, np.ndarray], key: str, nodes: np.ndarray) -> None:
    """List nodes under a pair made (``ab`` may be an existing token: (x, ab) with x = ab meets
    (ab, y) with y = ab)."""
    old = index.get(key)
    index[key] = nodes if old is None else np.concatenate((old, nodes))


def _groups(codes: np.ndarray, weights: np.ndarray, nodes: np.ndarray | None, small: bool):
    """(code, summed weight, nodes or None) for each distinct code, codes ascending (``small``:
    every code fits 16 bits, sorted by radix)."""
    if not codes.size:
        return []
    order = (codes.astype(np.uint16) if small else codes).argsort(kind="stable")
    sc = codes[order]
    starts = [0, *((sc[1:] != sc[:-1]).nonzero()[0] + 1).tolist()]
    sums = np.add.reduceat(weights[order], starts).tolist()
    if nodes is None:
        return zip(sc[starts].tolist(), sums, [None] * len(sums))
    sn = nodes[order]
    bounds = [*starts, sc.size]
    return zip(sc[starts].tolist(), sums, [sn[lo:hi] for lo, hi in pairwise(bounds)])
