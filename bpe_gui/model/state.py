"""What the views show about a tokenizer, kept as plain data on the GUI thread (no Qt).

The controller updates a :class:`VocabIndex` incrementally from merge records, so a step or an
undo costs O(1) here, and the views never need to touch the trainer (which a worker may own).

>>> ix = VocabIndex.base(["<s>"])
>>> ix.append((b"a", b"b"), count=5)
257
>>> ix.tree(b"ab")
(b'ab', ((b'a', ()), (b'b', ())))
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import repeat
from operator import itemgetter
from typing import NamedTuple

from core.formats.spec import special_ids

Pair = tuple[bytes, bytes]


class MergeInfo(NamedTuple):
    """One merge as the views see it (a tuple: cheap to make thousands of times during a run)."""

    rank: int
    pair: Pair
    token_id: int
    count: int  # type: ignore[assignment]  # (shadows tuple.count) 0 when unknown (imported formats other than native)

    @property
    def token(self) -> bytes:
        return self.pair[0] + self.pair[1]


class VocabIndex:
    """Vocab (id → bytes), merges in rank order, and the lookups the views need."""

    def __init__(
        self,
        vocab: dict[int, bytes],
        merges: Iterable[Pair] = (),
        counts: Iterable[int] | None = None,
        special_tokens: Iterable[str] = (),
        added_not_special: Iterable[str] = (),
    ) -> None:
        self.special_tokens = list(special_tokens)
        #: the char-level model of a SentencePiece-style tokenizer (each id's piece, score and kind:
        #: :class:`core.bpe.charbpe.CharBPE`), or None (byte-level BPE)
        self.char_model = None
        self.vocab: dict[int, bytes] = dict(vocab)
        self._ids_in_order: list[int] = sorted(self.vocab)
        self.token_ids: dict[bytes, int] = {}
        for i in self._ids_in_order:
            self.token_ids.setdefault(self.vocab[i], i)
        # each special token's id as the tokenizer has it (the highest with its bytes): a merged token
        # with the same bytes (OLMo 1 makes 20 spaces by merge #4,399 and also adds them as id 50,260)
        # is not special
        by_token = special_ids(self.vocab, self.special_tokens)
        self.special_ids = set(by_token.values())
        #: of the special ids, the added tokens an imported tokenizer.json marks "special": false (OLMo
        #: 1's runs of spaces): whole in text and never merged, but shown as added, not as special
        self.plain_added_ids = {by_token[t] for t in added_not_special if t in by_token}
        self.merges: list[MergeInfo] = []
        self.rank_of: dict[bytes, int] = {}
        self._appending = False  # True when merge tokens get fresh ids at the end of the vocab
        #: merges that came with the vocab and stay (an extension's base): pop never goes below them
        self.base_merges = 0
        self._given_ids = False  # an extension's: each merge comes with its id (see :meth:`extension`)
        self._added: list[bool] = []  # per appended merge of an extension: did its token grow the vocab?
        merges = list(merges)
        counts = list(counts) if counts is not None else [0] * len(merges)
        for rank, (pair, count) in enumerate(zip(merges, counts)):
            token = pair[0] + pair[1]
            tid = self.token_ids.get(token, -1)
            self.merges.append(MergeInfo(rank, pair, tid, count))
            self.rank_of.setdefault(token, rank)
        self.has_counts = any(counts)

    @classmethod
    def base(cls, special_tokens: Iterable[str] = ()) -> VocabIndex:
        """256 byte tokens then the special tokens; merges will be appended with :meth:`append`."""
        specials = list(special_tokens)
        vocab = {i: bytes([i]) for i in range(256)}
        for s in specials:
            vocab[len(vocab)] = s.encode("utf-8", "surrogateescape")
        ix = cls(vocab, special_tokens=specials)
        ix._appending = True
        ix.has_counts = True
        return ix

    @classmethod
    def extension(
        cls,
        vocab: dict[int, bytes],
        merges: Iterable[Pair],
        special_tokens: Iterable[str] = (),
        counts: Iterable[int] | None = None,
        added_not_special: Iterable[str] = (),
    ) -> VocabIndex:
        """A base tokenizer's vocab and merges, to which an extension's new merges are appended with
        the ids the trainer gave them (:meth:`append_with_id`): the ids after the base's highest, or
        an existing token's id when a new merge makes a token there already is (the vocab stays)."""
        ix = cls(vocab, merges, counts, special_tokens, added_not_special)
        ix._appending = ix._given_ids = True
        ix.base_merges = len(ix.merges)
        ix.has_counts = True
        return ix

    @property
    def reused(self) -> int:
        """An extension's new merges that make a token the vocab already had (its id is reused)."""
        return self._added.count(False)

    @property
    def new_merges(self) -> int:
        """The merges after the base's (all of them outside an extension)."""
        return len(self.merges) - self.base_merges

    # ------------------------------------------------------------------ changes
    def append_with_id(self, pair: Pair, count: int, token_id: int) -> int:
        """Add an extension's next merge, making token ``token_id`` (new, or one the vocab holds)."""
        token = pair[0] + pair[1]
        added = token_id not in self.vocab
        if added:
            if self._ids_in_order and token_id <= self._ids_in_order[-1]:
                raise ValueError(f"a new token's id {token_id} must follow the highest id")
            self.vocab[token_id] = token
            self._ids_in_order.append(token_id)
            self.token_ids.setdefault(token, token_id)
        elif self.vocab[token_id] != token:
            raise ValueError(f"id {token_id} is {self.vocab[token_id]!r}, not the merged {token!r}")
        self._added.append(added)
        rank = len(self.merges)
        self.merges.append(MergeInfo(rank, pair, token_id, count))
        self.rank_of.setdefault(token, rank)
        return token_id

    def append(self, pair: Pair, count: int = 0) -> int:
        """Add the next merge (trainer sessions only); returns the new token's id."""
        if not self._appending or self._given_ids:
            raise ValueError("merges can be appended only to a trained vocabulary")
        token = pair[0] + pair[1]
        tid = len(self.vocab)
        self.vocab[tid] = token
        self._ids_in_order.append(tid)
        self.token_ids.setdefault(token, tid)
        rank = len(self.merges)
        self.merges.append(MergeInfo(rank, pair, tid, count))
        self.rank_of.setdefault(token, rank)
        return tid

    def extend(self, pairs_and_counts: Iterable[tuple[Pair, int]]) -> int:
        """Append many merges (a batch of a run); returns how many were added."""
        if not self._appending or self._given_ids:
            raise ValueError("merges can be appended only to a trained vocabulary")
        vocab, ids, token_ids, merges, rank_of = (
            self.vocab,
            self._ids_in_order,
            self.token_ids,
            self.merges,
            self.rank_of,
        )
        tid = len(vocab)
        rank = len(merges)
        start = rank
        for pair, count in pairs_and_counts:
            token = pair[0] + pair[1]
            vocab[tid] = token
            ids.append(tid)
            if token not in token_ids:
                token_ids[token] = tid
            merges.append(MergeInfo(rank, pair, tid, count))
            if token not in rank_of:
                rank_of[token] = rank
            tid += 1
            rank += 1
        return rank - start

    def add_known(self, pairs: Iterable[Pair]) -> int:
        """Append merges whose tokens the vocab already holds (an imported tokenizer's merges, recovered
        from its ranks batch by batch, on the GUI thread: made at C speed); returns how many were added."""
        pairs = list(pairs)
        start, n = len(self.merges), len(pairs)
        tokens = [a + b for a, b in pairs]
        ids = map(self.token_ids.get, tokens, repeat(-1))
        self.merges.extend(map(MergeInfo, range(start, start + n), pairs, ids, repeat(0)))
        new = dict(
            zip(reversed(tokens), range(start + n - 1, start - 1, -1))
        )  # the first merge of a token wins
        if new.keys().isdisjoint(self.rank_of):
            self.rank_of.update(new)
        else:
            for token, rank in new.items():
                self.rank_of.setdefault(token, rank)
        return n

    def pop(self) -> MergeInfo | None:
        """Remove the last merge (undo)."""
        if len(self.merges) <= self.base_merges or not self._appending:
            return None
        info = self.merges.pop()
        token = info.token
        if not self._given_ids or self._added.pop():  # (a reused token stays in the vocab)
            del self.vocab[info.token_id]
            self._ids_in_order.pop()
            if self.token_ids.get(token) == info.token_id:
                del self.token_ids[token]
        if self.rank_of.get(token) == info.rank:
            del self.rank_of[token]
        return info

    # ------------------------------------------------------------------ lookups
    def __len__(self) -> int:
        return len(self.vocab)

    @property
    def n_merges(self) -> int:
        return len(self.merges)

    def id_at(self, row: int) -> int:
        """The id shown in row ``row`` of a vocab list sorted by id."""
        return self._ids_in_order[row]

    def row_of_id(self, token_id: int) -> int:
        if (self._appending and not self._given_ids) or self._ids_in_order[-1] == len(self._ids_in_order) - 1:
            return token_id
        import bisect

        return bisect.bisect_left(self._ids_in_order, token_id)

    def is_special(self, token_id: int) -> bool:
        """A special token or an added token (whole in text, never merged): see :meth:`is_plain_added`."""
        return token_id in self.special_ids

    def is_plain_added(self, token_id: int) -> bool:
        """An added token that is not special (HF ``"special": false``)."""
        return token_id in self.plain_added_ids

    @property
    def n_plain_added(self) -> int:
        return len(self.plain_added_ids)

    def parts(self, token: bytes) -> Pair | None:
        """The two parts a merged token was made from (None for bytes and special tokens)."""
        rank = self.rank_of.get(token)
        return None if rank is None else self.merges[rank].pair

    def tree(self, token: bytes, depth: int = 64) -> tuple:
        """How a token was built: ``(token, (left_tree, right_tree))`` or ``(token, ())`` for a leaf."""
        pair = self.parts(token) if depth > 0 else None
        if pair is None:
            return (token, ())
        return (token, (self.tree(pair[0], depth - 1), self.tree(pair[1], depth - 1)))

    def merge_matrix(self) -> tuple[list[int], list[int]]:
        """(counts, token byte lengths) per rank, for the timeline."""
        merges = self.merges
        return list(map(itemgetter(3), merges)), [len(a) + len(b) for a, b in map(itemgetter(1), merges)]
