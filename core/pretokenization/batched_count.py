"""What a counting worker runs on the blocks of its share (and one process on all the blocks, with
``workers=1``): chunks counted in batches of blocks.

A worker of :class:`core.pretokenization.sharded_count.ShardedCount` counts many blocks. Counted by
space-separated chunks (:mod:`core.pretokenization.space_chunks`) one block at a time, a block's
distinct chunks are pre-tokenized for that block alone, although most of them come back in the
next block: on text with millions of distinct words (a Zipf tail) that is half of the block's
time, and the plain path is about as fast. A :class:`core.pretokenization.chunk_counts.ChunkBatch`
counts the chunks of many blocks and pre-tokenizes each distinct one once for all of them.

Which path a block takes is timed, as :class:`core.pretokenization.space_chunks.PathChooser` does
for single blocks: the plain path (regex over all the text) is timed on the first block and again
every :attr:`BlockCounter.probe_every` blocks, the batch on the next. A batch block's cost is what
adding it took plus the pre-tokenizing its new distinct chunks will take (their number times the
cost per chunk of the last flush; before any flush, a guess from the plain path's cost per byte).
Text where chunks rarely repeat (Chinese, indented dictionaries) keeps the plain path.

Each path gives pieces ``(tokens, counts, places)``: a place is ``(block << RANK_BITS) | rank``, the
rank ordering a block's pre-tokens by first appearance there (a plain block's rank is its index in
the block's counts; a batch's is the index in the batch's, whose order within each block is the
same). Every block goes whole through one path, so a pre-token's least place over all pieces is
its place in the file.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from core.memory import available_memory
from core.pretokenization.chunk_counts import BATCH_CHUNKS, ChunkBatch
from core.pretokenization.space_chunks import chunks_exact
from core.pretokenization.special_matching import special_bytes_regex

RANK_BITS = 32  # a place is (block number << RANK_BITS) | rank in the block

#: a batch's memory per distinct chunk at its flush, the peak (measured: 308-310 B on English-like
#: text at 1.1M and 2.1M chunks; the batch itself holds ~110 B a chunk before)
BATCH_CHUNK_BYTES = 320
MIN_BATCH_CHUNKS = 1 << 18
MAX_BATCH_CHUNKS = 1 << 21  # (2M: 10% less counting time than 1M on the 2 GB corpus, 7% more memory)

#: before a batch's first flush, pre-tokenizing a new distinct chunk is taken to cost this many
#: times what the plain path spends on as many bytes of text (measured: 2.5-3.5x; each of its
#: pre-tokens is mostly new, where the plain path mostly counts one seen before)
FLUSH_GUESS = 3.0

#: (tokens, counts int64, places int64)
Placed = tuple[list[bytes], np.ndarray, np.ndarray]


def batch_limit(workers: int, available: int | None = None) -> int:
    """The distinct chunks of a full batch when ``workers`` processes count at once: as many as let
    all their batches take a quarter of the memory free now (``available``, else asked), within
    :data:`MIN_BATCH_CHUNKS` and :data:`MAX_BATCH_CHUNKS`."""
    free = available_memory() if available is None else available
    if free is None:
        return BATCH_CHUNKS
    return int(
        min(MAX_BATCH_CHUNKS, max(MIN_BATCH_CHUNKS, free // (4 * max(1, workers) * BATCH_CHUNK_BYTES)))
    )


class BlockCounter:
    """Counts one worker's blocks (in increasing block order), by batches of chunks where that is
    faster. ``plain(data, pattern, specials)`` counts a block on its own (tokens in order of first
    appearance: a ``.counts`` dict, with ``.n_bytes``, ``.invalid_bytes``, ``.n_special``)."""

    probe_every = 16

    def __init__(
        self,
        plain: Callable,
        invalid: Callable[[bytes], int],
        pattern: str | None,
        specials: tuple[str, ...],
        *,
        limit: int = BATCH_CHUNKS,
        force: bool | None = None,
    ) -> None:
        self.plain = plain
        self.invalid = invalid  # the invalid UTF-8 bytes of a block
        self.pattern = pattern
        self.specials = specials
        self.batch = ChunkBatch(pattern, limit) if chunks_exact(pattern, specials) else None  # type: ignore[arg-type]
        self.force = force  # True / False: always / never the batch (tests); None: by timing
        self.sre = special_bytes_regex(specials)
        self.calls = 0
        self.plain_rate: float | None = None  # seconds per byte, last measured
        self.batch_rate: float | None = None  # seconds per byte (adding, and the flush's share)
        self.flush_rate: float | None = None  # seconds per distinct chunk, at the last flush
        self.batched = False  # whether the last block went into the batch

    def pick(self) -> bool:
        """True: the next block goes into the batch."""
        self.calls += 1
        phase = self.calls % self.probe_every
        if self.batch is None or self.force is False:
            return False
        if self.force:
            return True
        if phase == 1:
            return False
        if phase == 2 or self.batch_rate is None or self.plain_rate is None:
            return True
        return self.batch_rate <= self.plain_rate

    def block(self, block: int, data: bytes) -> tuple[list[Placed], int, int, int]:
        """Count block number ``block``: the pieces ready (a plain block's; a batch's when the block
        filled it, or when it could not join it), and the block's bytes, invalid bytes and special
        tokens."""
        out: list[Placed] = []
        self.batched = False  # whether this block went into the batch
        if self.pick():
            batch = self.batch
            assert batch is not None
            t0 = time.perf_counter()
            if not batch.fits(data):
                out.append(self.flush())
                t0 = time.perf_counter()
            had = len(batch)
            pieces = [data] if self.sre is None else self.sre.split(data)
            if batch.add(block, data, pieces):
                self.batched = True
                invalid = 0 if data.isascii() else self.invalid(data)
                took = time.perf_counter() - t0
                per_chunk = self.flush_rate
                if per_chunk is None:  # no flush yet: a guess from the plain path's cost per byte
                    per_chunk = FLUSH_GUESS * (self.plain_rate or 0.0) * len(data) / max(1, batch.last_chunks)
                if data:
                    self.batch_rate = (took + per_chunk * (len(batch) - had)) / len(data)
                if batch.full:
                    out.append(self.flush())
                return out, len(data), invalid, len(pieces) - 1
        t0 = time.perf_counter()
        r = self.plain(data, self.pattern, self.specials)
        if data:
            self.plain_rate = (time.perf_counter() - t0) / len(data)
        n = len(r.counts)
        ranks = np.arange(n, dtype=np.int64) | (block << RANK_BITS)
        out.append((list(r.counts), np.fromiter(r.counts.values(), np.int64, n), ranks))
        return out, r.n_bytes, r.invalid_bytes, r.n_special

    def flush(self) -> Placed:
        """The batch's pieces (empty when it holds nothing); the batch is then empty."""
        assert self.batch is not None
        n_chunks = len(self.batch)
        t0 = time.perf_counter()
        tokens, counts, first_block = self.batch.flush()
        if n_chunks:
            self.flush_rate = (time.perf_counter() - t0) / n_chunks
        return tokens, counts, np.arange(len(tokens), dtype=np.int64) | (first_block << RANK_BITS)

    def finish(self) -> list[Placed]:
        """What is left in the batch."""
        if self.batch is None or not len(self.batch):
            return []
        return [self.flush()]
