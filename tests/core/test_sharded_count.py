"""Counting in worker processes that read their own byte ranges and sum the counts among themselves
(core.sharded_count): the same counts, in the same order, as one process; merges identical for
both tie rules; cancel and errors end the workers and remove their temporary folder."""

from __future__ import annotations

import os
import random
import tempfile

import numpy as np
import pytest

from core import Trainer
from core.errors import Cancelled, CorpusError
from core.pretokenization.pretokenize import (
    _count_chunk,
    count_pretokens,
    count_pretokens_ordered,
    resolve_pattern,
)
from core.pretokenization.sharded_count import (
    OrderedCounts,
    ShardedCount,
    ShardTotal,
    merge_stretches,
    pack,
    plan_ranges,
    split_by_hash,
    word_bytes,
)
from core.workers.procs import live_children

EOT = "<|endoftext|>"
WORDS = [
    "the", "cat", "naïve", "café", "Ünïcödé", "日本語", "中文字符", "😀", "🇫🇷", "e\u0301",
    "Привет", "мир", "123", "4567", "don't", "it's", "x", "Ωmega",
]  # fmt: skip


def corpus(seed: int, n: int = 9000) -> bytes:
    """Mixed text: multi-byte characters everywhere (so that nominal offsets fall inside them), CRLF
    and LF line ends, runs of spaces, special tokens (also back to back), invalid UTF-8 bytes."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.05:
            out.append(rng.choice(["\r\n", "\n", "\n\n", "\r\n\r\n"]))
        elif r < 0.07:
            out.append(rng.choice([EOT, EOT + EOT, " " + EOT]).encode())
            continue
        elif r < 0.08:
            out.append(rng.choice(["\xff", "\xc3", "\xe6\x97", "\x80\x80"]).encode("latin-1"))
            continue
        elif r < 0.1:
            out.append("   ")
        else:
            word = rng.choice(WORDS) + (rng.choice(WORDS) if rng.random() < 0.2 else "")
            out.append(rng.choice([" ", "", ", ", ". "]) + word)
        if isinstance(out[-1], str):
            out[-1] = out[-1].encode()
    return b"".join(out)


def write(tmp_path, data: bytes, name: str = "c.txt"):
    p = tmp_path / name
    p.write_bytes(data)
    return p


def merges(counts, pattern, tie_break):
    t = Trainer(counts, [EOT], pattern=pattern, tie_break=tie_break, keep_history=False)
    t.run(256 + 1 + 60)
    return t.merges


@pytest.mark.parametrize(
    ("seed", "pattern", "workers", "block"),
    [
        (0, "gpt2", 2, 4096),
        (1, "gpt4", 3, 3001),  # odd sizes: nominal ends fall inside multi-byte characters
        (2, r"\p{L}+|\p{N}+|[^\p{L}\p{N}]+", 2, 2048),  # a custom pattern (cut by RegexCuts)
        (3, None, 2, 4096),  # no pre-tokenization: whole pieces between special tokens
    ],
)
def test_workers_count_exactly_what_one_process_counts(tmp_path, seed, pattern, workers, block):
    data = corpus(seed)
    path = write(tmp_path, data)
    single, s1 = count_pretokens(path, [EOT], pattern, workers=1, block_bytes=block)
    multi, s2 = count_pretokens_ordered(path, [EOT], pattern, workers=workers, block_bytes=block)
    assert isinstance(multi, OrderedCounts) and s2.workers == workers and s2.chunks > 5
    assert list(multi) == list(single)  # the same pre-tokens in the same order of first appearance
    assert list(multi.values()) == list(single.values())
    assert multi == single
    for key in ("size_bytes", "pretokens", "distinct_pretokens", "invalid_bytes", "special_occurrences"):
        assert getattr(s2, key) == getattr(s1, key), key
    assert s1.invalid_bytes > 0 and s1.special_occurrences > 0
    if pattern is not None:
        for tie in ("lexicographic", "first"):
            assert merges(multi, pattern, tie) == merges(single, pattern, tie)
    as_dict, _ = count_pretokens(path, [EOT], pattern, workers=workers, block_bytes=block)
    assert type(as_dict) is dict and list(as_dict.items()) == list(single.items())
    assert live_children() == []


def test_crlf_and_a_cut_inside_a_character_at_every_offset(tmp_path):
    # every range boundary falls on a different byte of "\r\n" pairs and 4-byte characters
    data = ("😀a\r\nb 日本\r\n" * 3000).encode()
    path = write(tmp_path, data)
    single, _ = count_pretokens(path, [EOT], "gpt4", workers=1)
    for block in (997, 1000, 1001):
        multi, stats = count_pretokens(path, [EOT], "gpt4", workers=2, block_bytes=block)
        assert list(multi.items()) == list(single.items()) and stats.workers == 2


def test_in_memory_data_is_cut_by_the_parent_and_summed_by_the_workers():
    data = corpus(5)
    single, s1 = count_pretokens(data, [EOT], "gpt2", workers=1, block_bytes=2048)
    multi, s2 = count_pretokens(data, [EOT], "gpt2", workers=2, block_bytes=2048)
    assert list(multi.items()) == list(single.items())
    assert (s2.workers, s2.size_bytes, s2.pretokens) == (2, s1.size_bytes, s1.pretokens)


def test_the_sharded_sum_in_one_process_gives_the_serial_counts():
    """The steps the workers run, here in one process with 3 shards, pieces added in any order."""
    pattern = resolve_pattern("gpt2")
    data = corpus(7)
    blocks = [data[i : i + 5000] for i in range(0, len(data), 5000)]  # (cut anywhere: the test
    counted = [_count_chunk(b, pattern, (EOT,)).counts for b in blocks]  # only needs the same blocks)
    expect: dict[bytes, int] = {}
    for c in counted:
        for t, n in c.items():
            expect[t] = expect.get(t, 0) + n
    w = 3
    shards = [ShardTotal() for _ in range(w)]
    pieces = [(i, s, p) for i, c in enumerate(counted) for s, p in enumerate(split_by_hash(c, w))]
    random.Random(1).shuffle(pieces)
    for i, s, p in pieces:
        shards[s].add(i, pack(p))
    samples = sorted(v for t in shards for v in t.sort(w - 1))
    bounds = [samples[(i * len(samples)) // w] for i in range(1, w)]
    stretches = [t.split(bounds) for t in shards]
    tokens: list[bytes] = []
    counts: list[int] = []
    for j in range(w):
        (joined, lens, n), _ = merge_stretches([s[j] for s in stretches])
        piece = OrderedCounts.from_packed(joined, np.frombuffer(lens, np.int64), np.frombuffer(n, np.int64))
        tokens += piece.tokens
        counts += piece.counts
    assert tokens == list(expect) and counts == list(expect.values())
    # no token in two shards
    assert len(set(tokens)) == len(tokens)


def test_plan_ranges_cover_the_file():
    assert plan_ranges(10, 4) == [(0, 4), (4, 8), (8, 10)]
    assert plan_ranges(0, 4) == []


def test_ordered_counts_is_a_read_only_mapping():
    c = OrderedCounts([b"a", b" b"], [3, 1])
    assert len(c) == 2 and list(c) == [b"a", b" b"] and list(c.values()) == [3, 1]
    assert c[b" b"] == 1 and b"a" in c and b"z" not in c and c.get(b"z") is None
    assert dict(c) == {b"a": 3, b" b": 1} == c and list(c.items()) == [(b"a", 3), (b" b", 1)]
    assert sum(c.values()) == 4 and len(c.values()) == 2


@pytest.mark.parametrize(
    "tokens",
    [
        [b"a", b" b", b"\xff\xfe", b"hello"],
        [b"a\0b", b"\0", b" c", b"\0\0"],  # NUL bytes inside tokens: cut by the lengths
        [b"only"],
        [],
    ],
)
def test_packed_counts_give_the_tokens_they_were_packed_from(tokens):
    counts = list(range(3, 3 + len(tokens)))
    lens = np.array([len(t) for t in tokens], np.int64)
    packed = OrderedCounts.from_packed(b"\0".join(tokens), lens, np.array(counts, np.int64))
    assert len(packed) == len(tokens) and packed.word_bytes() == sum(map(len, tokens))
    assert packed.packed() is not None  # (nothing made yet)
    assert list(packed) == tokens and list(packed.values()) == counts
    assert packed.packed() is None and dict(packed) == dict(zip(tokens, counts))
    assert packed.word_bytes() == sum(map(len, tokens))
    packed.clear()
    assert len(packed) == 0 and dict(packed) == {}


def test_packed_counts_refuse_lengths_that_do_not_fit_the_bytes():
    with pytest.raises(ValueError):
        OrderedCounts.from_packed(b"ab\0c", np.array([2, 2]), np.array([1, 1]))
    with pytest.raises(ValueError):
        OrderedCounts.from_packed(b"ab", np.array([2]), np.array([1, 1]))


def test_counts_from_several_workers_come_packed_and_equal_one_process(tmp_path):
    """The workers hand the parent the tokens joined, their lengths and counts; the same tokens,
    counts and order as one process, NUL bytes in tokens included."""
    from core.pretokenization.pretokenize import count_pretokens_ordered

    rng = random.Random(5)
    words = ["alpha", "beta", "gam\0ma", "\0", "δέλτα", "文字", "x\0\0y"]
    text = " ".join(rng.choice(words) for _ in range(40_000)) + "<|endoftext|> tail\0"
    path = tmp_path / "c.txt"
    path.write_bytes(text.encode())
    one, _ = count_pretokens_ordered(str(path), ["<|endoftext|>"], workers=1, allow_nul=True)
    many, stats = count_pretokens_ordered(
        str(path), ["<|endoftext|>"], workers=2, block_bytes=20_000, allow_nul=True
    )
    assert stats.workers == 2
    assert isinstance(many, OrderedCounts) and many.packed() is not None
    assert word_bytes(many) == sum(map(len, one))
    assert list(many.items()) == list(one.items())


def _leftover_folders(folder) -> list[str]:
    return [n for n in os.listdir(folder) if n.startswith("bpe-count-")]


def test_cancel_while_the_workers_sum_ends_them_and_removes_their_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    path = write(tmp_path, corpus(8, 20000))
    seen: list[tuple[int, int]] = []

    def progress(phase, done, total):
        seen.append((done, total))
        return done < total  # stop once everything is counted: while the workers sum

    with pytest.raises(Cancelled):
        count_pretokens(path, [EOT], workers=2, progress=progress, block_bytes=8192)
    assert seen[-1][0] == seen[-1][1] == path.stat().st_size
    assert live_children() == []
    assert _leftover_folders(tmp_path) == []


def test_cancel_while_counting_stops_early(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    path = write(tmp_path, corpus(9, 40000))
    calls = []

    def progress(phase, done, total):
        calls.append(done)
        return len(calls) < 3

    with pytest.raises(Cancelled):
        count_pretokens(path, [EOT], workers=2, progress=progress, block_bytes=4096)
    assert len(calls) == 3 and calls[-1] < path.stat().st_size
    assert live_children() == [] and _leftover_folders(tmp_path) == []


def test_a_file_the_workers_cannot_read_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    missing = str(tmp_path / "gone.txt")
    pool = ShardedCount(_count_chunk, 2, resolve_pattern("gpt2"), (EOT,), path=missing, size=100)
    with pytest.raises(CorpusError, match="cannot read corpus file") as info:
        pool.count_ranges(plan_ranges(100, 50))
    assert info.value.code == "corpus_unreadable"
    assert live_children() == [] and _leftover_folders(tmp_path) == []


def test_a_shard_total_keeps_memory_to_its_distinct_tokens():
    counts = {b"the": 5, b" cat": 2, b" sat": 1} | {f" w{i}".encode(): 1 for i in range(300)}
    total = ShardTotal()
    for block in range(200, 0, -1):  # the same block's pieces, 200 times, last block first
        total.add(block, pack(split_by_hash(counts, 1)[0]))
    assert len(total.counts) <= 4 * len(counts) + 1024  # not one slot per entry ever added
    assert total.sort(0) == []
    tokens, n, places = total.sorted
    assert tokens == list(counts)  # in order of place: the first block's ranks
    assert n.tolist() == [200 * c for c in counts.values()]
    assert places.tolist() == [(1 << 32) | r for r in range(len(counts))]


def test_no_room_for_the_temporary_files_is_a_clear_error(tmp_path, monkeypatch):
    from core.errors import BPEError
    from core.pretokenization import sharded_count

    with pytest.raises(BPEError, match=r"needs room for temporary files .*TMPDIR.*workers=1"):
        sharded_count._write(str(tmp_path / "missing" / "0.1"), b"x")  # (a worker's write fails)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "not-there"))
    path = write(tmp_path, corpus(10))
    with pytest.raises(BPEError, match="needs room for temporary files"):
        count_pretokens(path, [EOT], workers=2, block_bytes=4096)
    assert live_children() == []


def test_a_final_piece_is_written_as_its_bytes_and_a_cut_one_is_refused(tmp_path):
    """The words of a worker's final piece were one bytes object inside ``marshal``, which takes none
    of 2 GiB or more: a worker with that much failed at the very end of counting. They are written
    as they are, after their sizes; a piece cut short (a full disk) is refused, not misread."""
    from core.errors import BPEError
    from core.pretokenization.sharded_count import _take_packed, _write_packed

    joined, lens, counts = b"ab\0\0c\0d", np.array([2, 0, 1, 1]).tobytes(), np.array([3, 1, 2, 5]).tobytes()
    path = str(tmp_path / "final0")
    _write_packed(path, joined, lens, counts)
    assert _take_packed(path) == (joined, lens, counts) and not os.path.exists(path)
    _write_packed(path, joined, lens, counts)
    with open(path, "r+b") as f:
        f.truncate(os.path.getsize(path) - 3)
    with pytest.raises(BPEError, match="cut short"):
        _take_packed(path)
