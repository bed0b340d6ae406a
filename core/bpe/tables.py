"""The tables :class:`core.Tokenizer` encodes with, built from a vocab and merges (or from the ids a
loader found, or by rank for a tiktoken file), and the merge views made only when asked for."""

from __future__ import annotations

from core.bpe.merge import MergeTable
from core.bpe.ranks import LazyMerges, RankMerges, rank_encoder
from core.bpe.support import build_encoder, merge_maps, merge_table
from core.memory import paused_gc

Pair = tuple[bytes, bytes]


class MergeTables:
    """Mixed into :class:`core.Tokenizer` (uses its ``vocab``, ``special_ids``, ``_merges``, ``_lazy``)."""

    vocab: dict[int, bytes]
    special_ids: dict[str, int]
    _merges: list[Pair] | None
    _lazy: LazyMerges | None

    def _build_tables(self, inverse: dict[bytes, int] | None, ids: tuple | None) -> None:
        """The encoder and the merge table (from ``ids``: (the merges' ids, their pair keys) when given)."""
        sids = set(self.special_ids.values())
        self._by_rank: dict[bytes, int] | None = None  # ordinary token -> id, when encoding by rank
        self._table: MergeTable | None = None
        self._maps: tuple[dict[Pair, int], dict[int, int]] | None = None
        with paused_gc():
            self._encoder, self._holes, self._hole_re = build_encoder(self.vocab, sids, inverse)
            if isinstance(self._lazy, RankMerges):
                self._by_rank = rank_encoder(self.vocab, sids, self._encoder, self._lazy)
                if self._by_rank is not None:
                    return
                self._merges = list(self._lazy)  # not this vocab's ranks: use the merges
                self._lazy = None
            self._table = (
                merge_table(self._encoder, (), *ids) if ids else merge_table(self._encoder, self.merges)
            )

    @property
    def merges(self) -> list[Pair]:
        """The merged pairs in rank order (for a tokenizer read from ranks, rebuilt on first use)."""
        if self._merges is None:
            assert self._lazy is not None
            self._merges = list(self._lazy)
        return self._merges

    @property
    def merges_built(self) -> bool:
        """False while the merge list of a tokenizer read from ranks (tiktoken) is not rebuilt yet:
        reading :attr:`merges`, :meth:`parts` or :meth:`token_rank` rebuilds it (~1 s per 100k ranks)."""
        return self._merges is not None or self._lazy is None or self._lazy.built

    @property
    def _ranks(self) -> dict[Pair, int]:
        return self._merge_maps()[0]

    @property
    def _made_by(self) -> dict[int, int]:
        return self._merge_maps()[1]

    def _merge_maps(self) -> tuple[dict[Pair, int], dict[int, int]]:
        """(pair -> rank, id -> rank of the merge that made it), made when first asked for."""
        if self._maps is None:
            with paused_gc():
                if self._table is None:
                    self._table = merge_table(self._encoder, self.merges)
                self._maps = merge_maps(self.merges, self._table)
        return self._maps

    def merge_rank(self, pair: Pair) -> int | None:
        """Rank of a merge pair (None when the pair is not a merge)."""
        return self._ranks.get((bytes(pair[0]), bytes(pair[1])))

    def token_rank(self, token_id: int) -> int | None:
        """Rank of the merge that made a token (None for single bytes, special and other tokens)."""
        return self._made_by.get(token_id)

    def parts(self, token_id: int) -> Pair | None:
        """The two tokens a merged token was made of (None when it was not made by a merge)."""
        r = self._made_by.get(token_id)
        return None if r is None else self.merges[r]
