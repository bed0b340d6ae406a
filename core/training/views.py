"""What an app reads from a :class:`core.training.trainer.Trainer` between steps (no view changes anything).

A mixin, so that the trainer's module holds only construction, merging and undo. It reads the
trainer's parts: ``_words`` (codes of each word), ``_original`` / ``_wcounts`` (each word's bytes
and count), ``_codes`` (:class:`core.training.token_codes.TokenCodes`), ``_index``
(:class:`core.training.pair_index.PairIndex`), ``_long`` (:class:`core.training.long_words.LongWord` of long words)
and ``_history``.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from core.pretokenization.patterns import pattern_name
from core.training.pair_index import best_of
from core.training.past_pairs import PastPairs, pairs_before
from core.training.records import Pair
from core.training.vocab import build_vocab

if TYPE_CHECKING:
    from core.training.long_words import LongWord
    from core.training.pair_index import PairIndex
    from core.training.records import HistoryEntry, TieBreak
    from core.training.token_codes import TokenCodes

WordView = tuple[bytes, tuple[bytes, ...], int]


class TrainerViews:
    special_tokens: list[str]
    pattern: str | None
    tie_break: TieBreak
    keep_history: bool
    merges: list[Pair]
    _words: np.ndarray
    _original: Sequence[bytes]
    _wcounts: tuple[int, ...]
    _codes: TokenCodes
    _index: PairIndex
    _long: dict[int, LongWord]
    _long_stale: set[int]
    _long_wids: set[int]
    _history: list[HistoryEntry]

    @property
    def pattern_name(self) -> str:
        return pattern_name(self.pattern)

    @property
    def distinct_bytes(self) -> int:
        """The distinct pre-tokens' lengths summed (what the memory estimate rests on)."""
        total = getattr(self._original, "total_bytes", None)
        return total if total is not None else sum(map(len, self._original))

    @property
    def n_merges(self) -> int:
        return len(self.merges)

    @property
    def vocab_size(self) -> int:
        return 256 + len(self.special_tokens) + len(self.merges)

    @property
    def vocab(self) -> dict[int, bytes]:
        """ids 0–255 bytes, then special tokens in order, then merges in creation order."""
        return build_vocab(self.merges, self.special_tokens)

    def token_id(self, rank: int) -> int:
        """The vocab id of the token made by merge ``rank``."""
        return 256 + len(self.special_tokens) + rank

    def pair_count(self, pair: Pair) -> int:
        code = self._codes.code
        if pair[0] not in code or pair[1] not in code:
            return 0  # a token never made (or a byte that occurs nowhere)
        return self._index.counts.get(self._key(pair), 0)

    def pair_counts(self) -> dict[Pair, int]:
        """A copy of all current pair counts."""
        tok = self._codes.token
        return {(tok[k[0]], tok[k[1]]): c for k, c in self._index.counts.items()}

    def _key(self, pair: Pair) -> str:
        """The pair index's key of a pair of tokens that have codes."""
        code = self._codes.code
        return code[pair[0]] + code[pair[1]]

    def _pair(self, key: str) -> Pair:
        return self._codes.pair_names[key]

    def words(self) -> list[WordView]:
        """All words: (original bytes, current tokens, count), in order of first appearance."""
        self._sync_long_words()
        return list(zip(self._original, map(self._codes.tokens, self._words.tolist()), self._wcounts))

    def _sync_long_words(self) -> None:
        """Bring the strings of long words in :attr:`_words` up to date (merges leave them stale)."""
        for wid in self._long_stale:
            self._words[wid] = self._long[wid].codes()
        self._long_stale.clear()

    def _best(self) -> tuple[Pair, int, set[str]] | None:
        """The pair the tie rule picks among those with the highest count: (pair, count, the keys
        of all pairs with that count)."""
        best = self._index.best()
        if best is None:
            return None
        c, bucket = best
        key = best_of(bucket, self.tie_break, self._codes.pair_names, self._first_key)
        return self._pair(key), c, bucket

    def _first_key(self, key: str) -> tuple[int, int]:
        """(first word containing the pair, position in it): earlier in the text is smaller."""
        words = self._words
        for wid in self._index.ids(key).tolist():
            lw = self._long.get(wid)
            # a long word's node numbers are in token order, like string positions
            i = words[wid].find(key) if lw is None else lw.first_site(ord(key[0]), ord(key[1]))
            if i >= 0:
                return wid, i
        return len(words), 0

    def _sorted_ties(self, bucket: set[str], winner: Pair, k: int) -> list[Pair]:
        others = (p for p in bucket if self._pair(p) != winner)
        if self.tie_break == "lexicographic":
            return heapq.nlargest(k, map(self._pair, others))
        return list(map(self._pair, heapq.nsmallest(k, others, key=self._first_key)))

    def next_pair(self) -> tuple[Pair, int] | None:
        """The pair the next step would merge, with its count (None when no pair is left)."""
        best = self._best()
        return None if best is None else (best[0], best[1])

    def tied_pairs(self) -> list[Pair]:
        """All pairs that share the highest count now (one when there is no tie; none when no pair is left)."""
        best = self._best()
        return [] if best is None else [self._pair(k) for k in best[2]]

    def next_step_size(self) -> int:
        """How many distinct words the next step may change (an upper bound; 0 when no pair is left).

        The cost of a step grows with it: an app can run a large step in the background.
        """
        best = self._best()
        if best is None:
            return 0
        return self._index.n_listed(self._key(best[0]))

    def n_pairs_with_count(self, count: int) -> int:
        """How many pairs currently occur exactly ``count`` times (the size of a tie)."""
        return self._index.n_with_count(count)

    def top_pairs(self, k: int = 100) -> list[tuple[Pair, int]]:
        """The k most frequent pairs, best first (ties ordered by the tie rule)."""
        out: list[tuple[Pair, int]] = []
        if k <= 0:
            return out
        for c, b in self._index.exact_buckets():
            if self.tie_break == "lexicographic":
                ordered = heapq.nlargest(k - len(out), map(self._pair, b))
            else:
                ordered = list(map(self._pair, heapq.nsmallest(k - len(out), b, key=self._first_key)))
            out.extend((p, c) for p in ordered)
            if len(out) >= k:
                break
        return out

    def pairs_before(self, rank: int, k: int = 100) -> PastPairs:
        """The ``k`` most frequent pairs just before merge ``rank`` (the table merge ``rank`` was
        chosen from), with the count changes that merge made to them: see
        :func:`core.training.past_pairs.pairs_before` (read from the history, nothing trained again)."""
        return pairs_before(self, rank, k)

    def words_with_pair(self, pair: Pair, limit: int | None = 50) -> list[WordView]:
        """Words whose current tokens contain ``pair``: (word bytes, tokens, count), most frequent first."""
        a, b = (self._codes.code.get(t) for t in pair)
        if a is None or b is None:
            return []
        pat = a + b
        self._sync_long_words()
        ids = self._index.ids(pat)
        out = [
            (self._original[wid], w, self._wcounts[wid])
            for wid, w in zip(ids.tolist(), self._words[ids].tolist())
            if pat in w
        ]
        out.sort(key=lambda x: -x[2])
        tokens = self._codes.tokens
        return [(o, tokens(w), c) for o, w, c in (out if limit is None else out[:limit])]

    def words_with_token(self, token: bytes, limit: int | None = 50) -> list[WordView]:
        """Words whose current tokens include ``token``, most frequent first."""
        ch = self._codes.code.get(token)
        if ch is None:
            return []
        self._sync_long_words()
        rank = None
        if len(token) > 1 and self.keep_history:
            rank = next((i for i, m in enumerate(self.merges) if m[0] + m[1] == token), None)
        candidates: Iterable[int]
        if rank is not None and rank < len(self._history):
            ids = self._history[rank].wids  # the token is only in words its merge changed
            candidates, current = ids.tolist(), self._words[ids].tolist()
        else:
            candidates, current = range(len(self._words)), self._words.tolist()
        out = [(self._original[wid], w, self._wcounts[wid]) for wid, w in zip(candidates, current) if ch in w]
        out.sort(key=lambda x: -x[2])
        tokens = self._codes.tokens
        return [(o, tokens(w), c) for o, w, c in (out if limit is None else out[:limit])]

    def changed_words(
        self, rank: int, limit: int | None = 50
    ) -> list[tuple[bytes, tuple[bytes, ...], tuple[bytes, ...], int]]:
        """Words changed by merge ``rank``: (word, tokens before, tokens after this merge's result now, count)."""
        if not self.keep_history or rank >= len(self._history):
            return []
        h = self._history[rank]
        self._sync_long_words()
        wids = h.wids.tolist()
        count = self._wcounts.__getitem__
        # most frequent first (words of the same count in id order), then cut to the limit
        order = sorted(range(len(wids)), key=lambda k: -count(wids[k]))
        chosen = [wids[k] for k in (order if limit is None else order[:limit])]
        olds = self._codes_before(rank, chosen)
        tokens = self._codes.tokens
        news = self._words[chosen].tolist() if chosen else []
        return [
            (self._original[wid], tokens(old), tokens(new), count(wid))
            for wid, old, new in zip(chosen, olds, news)
        ]

    def _codes_before(self, rank: int, wids: list[int]) -> list[str]:
        """The codes of words ``wids`` (all changed by merge ``rank``) just before that merge: their
        codes now with the merges since taken back, newest first (a merge whose history keeps
        no old strings is taken back by splitting its token's code again)."""
        history = self._history
        long = self._long_wids
        now = self._words[wids].tolist() if wids else []
        out: list[str] = list(now)
        ids = np.array(wids, dtype=np.intc)
        for k in range(len(history) - 1, rank - 1, -1):
            h = history[k]
            if h.olds is None:
                ab, a_b = h.split  # type: ignore[misc]
                for i, w in enumerate(out):
                    if ab in w and wids[i] not in long:
                        out[i] = w.replace(ab, a_b)
                continue
            if not len(h.wids):
                continue
            pos = np.minimum(np.searchsorted(h.wids, ids), len(h.wids) - 1)
            for i in np.flatnonzero(h.wids[pos] == ids).tolist():
                old = h.olds[pos[i]]
                if old is not None:
                    out[i] = old
        for i, wid in enumerate(wids):
            if wid in long:  # a long word: its tokens now with later merges taken back
                undos = [u for later in reversed(history[rank:]) for w, u in later.long if w == wid]
                out[i] = self._long[wid].codes_before(undos)
        return out
