"""Counting pre-tokens by distinct space-separated chunks (the cut and why it is exact:
:mod:`core.pretokenization.space_chunks`), with each pre-token's first byte offset when asked.

>>> from core.pretokenization.patterns import GPT2_PATTERN
>>> c = ChunkCounter(GPT2_PATTERN)
>>> c.count(b"the cat  sat\\n the cat")
{b'the': 1, b' cat': 2, b' ': 1, b' sat': 1, b'\\n': 1, b' the': 1}
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import pairwise, repeat

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
        tokens: list[str] = []
        bounds = sorted({0, *heads, len(keys)})
        is_head = set(heads)
        for s, e in pairwise(bounds):
            if s in is_head:
                text = keys[s][1:] + (b" " + b" ".join(keys[s + 1 : e]) if e > s + 1 else b"")
            else:
                text = b" " + b" ".join(keys[s:e])
            tokens += self.split(text.replace(ph, b" ").decode("utf-8", "surrogateescape"))
        # distinct pre-tokens first (as str: a token's bytes are its encoding, one to one), so
        # that only those are encoded; every token's size in bytes is then read from its id
        distinct = dict.fromkeys(tokens)  # in order of first appearance
        index = dict(zip(distinct, range(len(distinct))))
        ids = np.fromiter(map(index.__getitem__, tokens), np.int64, len(tokens))
        enc = list(map(str.encode, distinct, repeat("utf-8"), repeat("surrogateescape")))
        # the chunk of each pre-token, by byte offsets in the joined texts (chunk ends are pre-token ends)
        sizes = np.fromiter(map(len, keys), np.int64, len(keys)) + 1
        sizes[heads] -= 2  # a first chunk: its mark byte dropped, no space added
        tok_sizes = np.fromiter(map(len, enc), np.int64, len(enc))[ids]
        tok_starts = np.cumsum(tok_sizes) - tok_sizes
        chunk_starts = np.cumsum(sizes) - sizes
        owner = np.searchsorted(chunk_starts + sizes, tok_starts, side="right")
        weights = np.fromiter(chunks.values(), np.int64, len(keys))[owner]
        counts = int_bincount(ids, weights, len(enc)).tolist()
        first_at = None
        if offsets:
            chunk_at = np.concatenate(where)[first_indices(every, keys)]
            first = np.asarray(first_indices(tokens, list(distinct)), dtype=np.int64)
            first_at = (chunk_at[owner[first]] + tok_starts[first] - chunk_starts[owner[first]]).tolist()
        return enc, counts, first_at


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
