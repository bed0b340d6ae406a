"""Counting a worker's blocks by batches of chunks (core.pretokenization.batched_count): the counts of
every block, each pre-token placed at its first block and rank there, whatever the batches; the
workers' counts equal one process's, in the same order, on every path."""

from __future__ import annotations

import io
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.pretokenization.batched_count import RANK_BITS, BlockCounter
from core.pretokenization.blocks import iter_blocks
from core.pretokenization.chunk_counts import ChunkBatch
from core.pretokenization.pretokenize import (
    _block_counter,
    _count_chunk,
    _count_chunk_plain,
    _invalid_bytes,
    block_rule,
    count_pretokens,
)
from core.pretokenization.sharded_count import ShardedCount, plan_ranges
from core.workers.procs import live_children

from .test_sharded_count import EOT, corpus
from .test_space_chunks import PROVEN, plain_counts, raw


def first_seen(
    blocks: list[list[bytes]], pattern: str
) -> tuple[list[bytes], dict[bytes, int], dict[bytes, int]]:
    """The reference: tokens in order of first appearance over the blocks (each a list of pieces
    between special tokens), their counts, and the block where each is first met (by the regex
    module alone)."""
    order: list[bytes] = []
    counts: dict[bytes, int] = {}
    home: dict[bytes, int] = {}
    for b, pieces in enumerate(blocks):
        for t, n in plain_counts(pattern, *pieces):
            if t not in counts:
                order.append(t)
                counts[t] = 0
                home[t] = b
            counts[t] += n
    return order, counts, home


@settings(max_examples=200, deadline=None)
@given(
    blocks=st.lists(st.lists(raw, min_size=1, max_size=3), min_size=1, max_size=5),
    name=st.sampled_from(sorted(PROVEN)),
    limit=st.sampled_from([1, 3, 1 << 20]),
)
def test_a_batch_of_blocks_gives_each_token_its_count_and_first_block(blocks, name, limit):
    pattern = PROVEN[name]
    batch = ChunkBatch(pattern, limit)
    order, counts, home = first_seen(blocks, pattern)
    got_tokens: list[bytes] = []
    got: dict[bytes, int] = {}
    got_home: dict[bytes, int] = {}
    batches = 1
    for b, pieces in enumerate(blocks):
        data = b"".join(pieces)
        if not batch.add(b, data, pieces):  # one of the batch's marks is in this block
            assert not batch.fits(data)
            flushed = batch.flush()
            assert batch.add(b, data, pieces)
            batches += 1
        elif batch.full:
            flushed = batch.flush()
            batches += 1
        else:
            flushed = ([], [], [])
        for t, n, h in zip(*flushed):
            got_tokens.append(t)
            got[t] = got.get(t, 0) + int(n)
            got_home.setdefault(t, int(h))
    for t, n, h in zip(*batch.flush()):
        got_tokens.append(t)
        got[t] = got.get(t, 0) + int(n)
        got_home.setdefault(t, int(h))
    assert got == counts
    assert got_home == home
    if batches == 1:  # one batch: every token once, in order of first appearance
        assert got_tokens == order


def test_a_block_that_holds_the_batch_mark_is_refused_until_the_batch_is_flushed():
    batch = ChunkBatch(PROVEN["gpt2"])
    assert batch.add(0, b"the cat sat", [b"the cat sat"])
    mark = batch.marks[0]
    other = b"the" + mark + b" dog"
    assert not batch.fits(other) and not batch.add(1, other, [other])
    assert batch.blocks == [0]  # nothing of the refused block was counted
    tokens, counts, first = batch.flush()
    assert dict(zip(tokens, counts.tolist())) == {b"the": 1, b" cat": 1, b" sat": 1}
    assert batch.add(1, other, [other]) and batch.marks[0] != mark
    tokens, counts, first = batch.flush()
    assert dict(zip(tokens, counts.tolist())) == dict(plain_counts(PROVEN["gpt2"], other))
    assert first.tolist() == [1] * len(tokens)


def placed_order(pieces) -> tuple[list[bytes], dict[bytes, int]]:
    """Tokens ordered by their least place over the pieces, and their summed counts."""
    place: dict[bytes, int] = {}
    total: dict[bytes, int] = {}
    for tokens, counts, places in pieces:
        for t, n, p in zip(tokens, counts.tolist(), places.tolist()):
            total[t] = total.get(t, 0) + n
            place[t] = min(place.get(t, p), p)
    return sorted(place, key=place.__getitem__), total


@pytest.mark.parametrize("force", [True, False, None])
@pytest.mark.parametrize("limit", [5, 1 << 20])
def test_a_worker_places_each_token_at_its_first_block_on_either_path(force, limit):
    pattern = PROVEN["gpt2"]
    data = corpus(3, 4000)
    blocks = list(iter_blocks(io.BytesIO(data), [EOT], block_rule(pattern), 1500))
    assert len(blocks) > 10
    counter = BlockCounter(_count_chunk_plain, _invalid_bytes, pattern, (EOT,), limit=limit, force=force)
    counter.probe_every = 4  # (both paths timed and used within a few blocks)
    pieces, n_bytes, invalid, n_special = [], 0, 0, 0
    kinds = []
    for b, block in enumerate(blocks):
        found, nb, inv, ns = counter.block(2 * b, block)  # (a worker's blocks need not be consecutive)
        kinds.append(counter.batched)
        if not counter.batched:  # a plain block's piece: its tokens placed in that block
            assert [p[2][0] >> RANK_BITS for p in found] == [2 * b]
        pieces += found
        n_bytes, invalid, n_special = n_bytes + nb, invalid + inv, n_special + ns
    pieces += counter.finish()
    assert not len(counter.batch)
    single, stats = count_pretokens(data, [EOT], pattern, workers=1, block_bytes=1500, is_text=True)
    order, total = placed_order(pieces)
    assert order == list(single) and total == single
    assert (n_bytes, invalid, n_special) == (stats.size_bytes, stats.invalid_bytes, stats.special_occurrences)
    if force is not None:
        assert all(kinds) == force and any(kinds) == force  # every block took the forced path
    else:
        assert 0 < sum(kinds) < len(kinds)  # the probes took both


def test_a_pattern_the_chunks_do_not_cover_always_takes_the_plain_path():
    counter = BlockCounter(_count_chunk_plain, _invalid_bytes, r"\S+|\s+", (EOT,), force=True)
    assert counter.batch is None
    found, *_ = counter.block(0, b"a b  c")
    assert [p[0] for p in found] == [[b"a", b" ", b"b", b"  ", b"c"]]
    assert counter.finish() == []


@pytest.mark.parametrize(("workers", "block", "limit"), [(2, 2048, 7), (3, 3001, 1 << 20), (2, 1000, 1)])
def test_workers_counting_by_batches_count_what_one_process_counts(tmp_path, workers, block, limit):
    data = corpus(11)
    path = tmp_path / "c.txt"
    path.write_bytes(data)
    pattern = PROVEN["gpt4"]
    single, stats = count_pretokens(path, [EOT], "gpt4", workers=1, block_bytes=block)
    batched = partial(_block_counter, limit=limit, force=True)
    pool = ShardedCount(
        _count_chunk, workers, pattern, (EOT,), batched=batched, path=str(path), size=len(data)
    )
    multi = pool.count_ranges(plan_ranges(len(data), block))
    assert list(multi.items()) == list(single.items())
    assert (pool.totals.n_bytes, pool.totals.invalid_bytes, pool.totals.n_special) == (
        stats.size_bytes,
        stats.invalid_bytes,
        stats.special_occurrences,
    )
    stream = ShardedCount(
        _count_chunk, workers, pattern, (EOT,), batched=batched
    )  # blocks sent by the parent
    blocks = iter_blocks(io.BytesIO(data), [EOT], block_rule(pattern), block)
    assert list(stream.count_blocks(blocks).items()) == list(single.items())
    assert live_children() == []


def test_the_batches_of_all_workers_fit_in_a_quarter_of_the_free_memory():
    from core.pretokenization.batched_count import (
        BATCH_CHUNK_BYTES,
        MAX_BATCH_CHUNKS,
        MIN_BATCH_CHUNKS,
        batch_limit,
    )

    gb = 10**9
    assert batch_limit(2, available=24 * gb) == MAX_BATCH_CHUNKS  # a roomy machine: the largest batches
    eight = batch_limit(8, available=5 * gb)  # a laptop counting in 8 processes
    assert MIN_BATCH_CHUNKS < eight < MAX_BATCH_CHUNKS
    assert 8 * eight * BATCH_CHUNK_BYTES <= 5 * gb // 4
    assert batch_limit(16, available=5 * gb) < eight  # more processes: smaller batches each
    assert batch_limit(64, available=gb) == MIN_BATCH_CHUNKS  # (never so small that batches stop paying)


def test_one_process_counts_by_batches_what_it_counts_block_by_block(monkeypatch):
    import core.pretokenization.pretokenize as pretokenize

    data = corpus(13, 6000)
    monkeypatch.setattr(
        pretokenize, "COUNT_BY_CHUNKS", False
    )  # the reference: the plain path, block by block
    plain, s1 = count_pretokens(data, [EOT], "gpt2", workers=1, block_bytes=1500, is_text=True)
    monkeypatch.setattr(pretokenize, "COUNT_BY_CHUNKS", None)
    monkeypatch.setattr(pretokenize, "batch_limit", lambda workers: 40)  # full after every block or two
    flushes = []
    flush = ChunkBatch.flush
    monkeypatch.setattr(ChunkBatch, "flush", lambda self: flushes.append(len(self)) or flush(self))
    monkeypatch.setattr(BlockCounter, "probe_every", 4)
    batched, s2 = count_pretokens(data, [EOT], "gpt2", workers=1, block_bytes=1500, is_text=True)
    assert sum(1 for n in flushes if n) > 5  # the batches took blocks, and filled up along the way
    assert list(batched.items()) == list(plain.items())
    for key in (
        "size_bytes",
        "pretokens",
        "distinct_pretokens",
        "invalid_bytes",
        "special_occurrences",
        "chunks",
    ):
        assert getattr(s2, key) == getattr(s1, key), key
