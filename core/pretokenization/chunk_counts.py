"""Counting pre-tokens by distinct space-separated chunks (the cut and why it is exact:
:mod:`core.pretokenization.space_chunks`), with each pre-token's first byte offset when asked.

>>> from core.pretokenization.patterns import GPT2_PATTERN
>>> c = ChunkCounter(GPT2_PATTERN)
>>> c.count(b"the cat  sat\\n the cat")
{b'the': 1, b' cat': 2, b' ': 1, b' sat': 1, b'\\n': 1, b' the': 1}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from itertools import count, pairwise, repeat

import numpy as np

from core.pretokenization.exact_counts import int_bincount
from core.pretokenization.space_chunks import free_marks, mark_non_cuts


class ChunkCounter:
    """Counts the pre-tokens of byte blocks by their distinct chunks."""

    def __init__(self, pattern: str) -> None:
        from core.pretokenization.splitting import make_covering_splitter

        self.split = make_covering_splitter(pattern)

    def count(self, *pieces: bytes) -> dict[bytes, int] | None:
        """Pre-token counts of the pieces (text between special tokens, each pre-tokenized on its
        own), in order of first appearance; None when no two bytes are free to mark with."""
        found = self.count_at([(0, p) for p in pieces], offsets=False)
        return None if found is None else dict(zip(found[0], found[1]))

    def count_at(
        self, pieces: list[tuple[int, bytes]], offsets: bool = True
    ) -> tuple[list[bytes], list[int], list[int] | None] | None:
        """The distinct pre-tokens of the pieces ``(byte offset, bytes)``, in order of first
        appearance, with their counts and (``offsets``) the byte offset of each one's first
        occurrence; None when no two bytes are free to mark with.

        The distinct chunks, in order of first appearance, are joined and pre-tokenized with a few
        calls (a cut before each chunk is exact, so the joined text gives each chunk's pre-tokens;
        a first chunk, with no space before it, starts a call of its own). Order: a pre-token's
        first occurrence lies in the first occurrence of the first chunk that holds it (chunks do
        not overlap), so the distinct chunks in order of first appearance, each's pre-tokens in
        order, meet the pre-tokens in their order; its offset is that chunk's first offset plus
        its place in the chunk.
        """
        marks = free_marks(
            b"".join(p for _, p in pieces) if len(pieces) > 1 else pieces[0][1] if pieces else b""
        )
        if marks is None:
            return None
        ph, head = marks
        every: list[bytes] = []  # the chunks of all pieces, in order (first chunks as head + chunk)
        head_keys: list[bytes] = []  # the first chunks of the pieces
        where: list[np.ndarray] = []  # the byte offset of each chunk in `every`
        seen: set[bytes] = set()
        for base, piece in pieces:
            if not piece:
                continue
            parts = mark_non_cuts(piece, ph).split(b" ")
            if offsets:  # a chunk after the first starts at its space: one byte before its part
                lens = np.fromiter(map(len, parts), np.int64, len(parts)) + 1
                at = np.cumsum(lens) - lens + base - 1
                at[0] = base
                where.append(at if parts[0] else at[1:])
            if parts[0]:
                key = head + parts[0]  # a first chunk (no space before it): a key of its own kind
                if key not in seen:
                    seen.add(key)
                    head_keys.append(key)
                parts[0] = key
            else:
                del parts[0]
            every += parts
        chunks = Counter(every)
        if not chunks:
            return [], [], [] if offsets else None
        keys = list(chunks)
        head_set = set(head_keys)
        heads = [k for k, key in enumerate(keys) if key in head_set] if head_keys else []  # their indices
        weights = np.fromiter(chunks.values(), np.int64, len(keys))
        enc, counts, first_chunk, first_in_chunk = pretokens_of_chunks(self.split, keys, weights, heads, ph)
        first_at = None
        if offsets:
            chunk_at = np.concatenate(where)[first_indices(every, keys)]
            first_at = (chunk_at[first_chunk] + first_in_chunk).tolist()
        return enc, counts.tolist(), first_at


def pretokens_of_chunks(
    split: Callable[[str], list[str]],
    keys: list[bytes],
    weights: np.ndarray,
    heads: list[int],
    ph: bytes,
    slice_chunks: int = 1 << 16,
) -> tuple[list[bytes], np.ndarray, np.ndarray, np.ndarray]:
    """The pre-tokens of distinct chunks: ``(tokens, counts, first_chunk, first_in_chunk)``.

    ``keys``: the distinct chunks in order of first appearance, each without its leading space,
    spaces that are no cut written as ``ph``; the first chunk of a piece (no space before it) is a
    mark byte followed by the chunk, and ``heads`` lists the indices of those. ``weights``: each
    chunk's count (int64). The chunks are joined and pre-tokenized ``slice_chunks`` at a time (a
    cut before each chunk is exact, so the joined text gives each chunk's pre-tokens; a first
    chunk starts a call of its own), so that only a slice's pre-tokens are held as strings.

    ``tokens`` (UTF-8 bytes) come in order of first appearance in the text the chunks came from: a
    pre-token's first occurrence lies in the first occurrence of the first chunk that holds it
    (chunks do not overlap), so the chunks in order, each's pre-tokens in order, meet the pre-tokens
    in their order. ``counts`` (int64) sums, over the chunks, the chunk's count times the times it
    holds the pre-token. ``first_chunk`` is the index of the chunk where each pre-token is first
    met and ``first_in_chunk`` its byte offset there (counted from the chunk's space, if any).
    """
    index: dict[str, int] = {}  # pre-token -> its first position among all the chunks' pre-tokens
    slots: list[np.ndarray] = []  # each pre-token's entry of `index`, slice by slice
    seen = 0
    is_head = set(heads)
    for s, e in pairwise(sorted({0, len(keys), *heads, *range(0, len(keys), slice_chunks)})):
        if s in is_head:
            text = keys[s][1:] + (b" " + b" ".join(keys[s + 1 : e]) if e > s + 1 else b"")
        else:
            text = b" " + b" ".join(keys[s:e])
        found = split(text.replace(ph, b" ").decode("utf-8", "surrogateescape"))
        # one dict operation per pre-token: a new one takes its position as its entry
        slots.append(np.fromiter(map(index.setdefault, found, count(seen)), np.int64, len(found)))
        seen += len(found)
    first = np.fromiter(index.values(), np.int64, len(index))  # (increasing: insertion order)
    tokens = list(map(str.encode, index, repeat("utf-8"), repeat("surrogateescape")))
    del index
    rank = np.zeros(seen, np.int64)
    rank[first] = np.arange(len(first))
    ids = rank[np.concatenate(slots)] if slots else np.zeros(0, np.int64)  # each pre-token's number
    # the chunk of each pre-token, by byte offsets in the joined texts (chunk ends are pre-token ends)
    sizes = np.fromiter(map(len, keys), np.int64, len(keys)) + 1
    sizes[heads] -= 2  # a first chunk: its mark byte dropped, no space added
    tok_sizes = np.fromiter(map(len, tokens), np.int64, len(tokens))[ids]
    tok_starts = np.cumsum(tok_sizes) - tok_sizes
    chunk_ends = np.cumsum(sizes)
    owner = np.searchsorted(chunk_ends, tok_starts, side="right")
    counts = int_bincount(ids, weights[owner], len(tokens))
    first_chunk = owner[first]
    return tokens, counts, first_chunk, tok_starts[first] - (chunk_ends - sizes)[first_chunk]


def first_indices(items: list, distinct: list) -> list[int]:
    """The index in ``items`` of the first occurrence of each of ``distinct`` (given in order of
    first appearance). The indices increase, so each search starts where the previous one stopped:
    one pass over ``items`` in C in all (a dict of first indices costs 6x more: it hashes every item).
    """
    out: list[int] = []
    append, index = out.append, items.index
    i = 0
    for t in distinct:
        i = index(t, i)
        append(i)
    return out


@lru_cache(maxsize=4)
def chunk_counter(pattern: str) -> ChunkCounter:
    """The process's chunk counter for a pattern."""
    return ChunkCounter(pattern)


#: distinct chunks a batch holds before it is pre-tokenized (about 150 MB of a worker's memory)
BATCH_CHUNKS = 1 << 20


class ChunkBatch:
    """The chunks of several blocks counted together and pre-tokenized once.

    Pre-tokenizing a block's distinct chunks costs more than counting its chunks where words
    rarely repeat within a block (a Zipf tail of many words), yet the same chunks come back block
    after block; a batch pre-tokenizes each distinct chunk once for all its blocks.
    :meth:`flush` gives the batch's pre-tokens, counts and, for each, the block where it was first
    met (a block's pre-tokens come in their order of first appearance there).

    All blocks of a batch are marked with the same two bytes (:func:`free_marks`): a block that
    holds one of them is refused by :meth:`add` (flush, then add it to the empty batch).
    """

    def __init__(self, pattern: str, limit: int = BATCH_CHUNKS) -> None:
        self.split = chunk_counter(pattern).split
        self.limit = limit
        self._clear()

    def _clear(self) -> None:
        self.chunks: Counter[bytes] = Counter()  # in order of first appearance
        self.heads: list[int] = []  # indices (in `chunks`) of the first chunks of pieces
        self.blocks: list[int] = []  # the block numbers added, in order
        self.starts: list[int] = []  # the index of each block's first new chunk
        self.marks: list[bytes] | None = None
        self.last_chunks = 0

    def __len__(self) -> int:
        return len(self.chunks)

    @property
    def full(self) -> bool:
        return len(self.chunks) >= self.limit

    def fits(self, data: bytes) -> bool:
        """Whether a block may join the batch: the batch is empty, or its marks are absent from ``data``."""
        return self.marks is None or not any(m in data for m in self.marks)

    def add(self, block: int, data: bytes, pieces: list[bytes]) -> bool:
        """Count the chunks of ``pieces`` (block ``block``'s text between its special tokens;
        ``data`` the whole block) into the batch. False, with nothing added, when ``data`` holds
        one of the batch's marks, or (an empty batch) when no two bytes are free in it."""
        if self.marks is None:
            self.marks = free_marks(data)
            if self.marks is None:
                return False
        elif not self.fits(data):
            return False
        ph, head = self.marks
        chunks, heads = self.chunks, self.heads
        self.blocks.append(block)
        self.starts.append(len(chunks))
        self.last_chunks = 0  # the chunks of this block, repeated or not
        for piece in pieces:
            if not piece:
                continue
            parts = mark_non_cuts(piece, ph).split(b" ")
            self.last_chunks += len(parts)
            if parts[0]:  # a first chunk (no space before it): a key of its own kind, before the others
                key = head + parts[0]
                if key in chunks:
                    chunks[key] += 1
                else:
                    heads.append(len(chunks))
                    chunks[key] = 1
            del parts[0]
            chunks.update(parts)
        return True

    def flush(self) -> tuple[list[bytes], np.ndarray, np.ndarray]:
        """``(tokens, counts, first_block)`` of the blocks added since the last flush, and empty
        the batch: tokens in order of first appearance (the blocks in the order added), counts
        int64, and the block number where each token was first met (int64)."""
        chunks = self.chunks
        if not chunks:
            self._clear()
            return [], np.zeros(0, np.int64), np.zeros(0, np.int64)
        keys = list(chunks)
        weights = np.fromiter(chunks.values(), np.int64, len(keys))
        heads, ph = self.heads, self.marks[0]  # type: ignore[index]
        starts, blocks = np.asarray(self.starts, np.int64), np.asarray(self.blocks, np.int64)
        self._clear()
        del chunks
        tokens, counts, first_chunk, _ = pretokens_of_chunks(self.split, keys, weights, heads, ph)
        return tokens, counts, blocks[np.searchsorted(starts, first_chunk, side="right") - 1]
