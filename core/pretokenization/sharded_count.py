"""Counting pre-tokens in worker processes, with next to nothing left for the parent to do.

Why: when the parent read and cut every block, piped its bytes to a worker and added every block's
counts into one dict, it spent about a fifth of the workers' CPU time; by Amdahl's law that capped
the speed-up of counting at a few cores. Here the parent hands out work and builds the final dict;
everything else runs in the workers.

*Reading.* For a regular file the parent sends each worker only nominal byte ranges (two numbers).
The worker opens the file itself and moves both ends of its range to the first *valid cut* at or
after them (:func:`core.pretokenization.scan.next_valid_cut`, as the Dask tasks do): that cut depends only on the
bytes around it, so the two tasks that meet at a boundary find the same one without talking to each
other, ranges neither overlap nor leave a gap, and no pre-token crosses them. A stream (pipe, stdin)
or in-memory data has one reader: the parent cuts blocks (:func:`core.pretokenization.blocks.iter_blocks`) and
sends their bytes.

*Order.* The ``"first"`` tie rule needs the pre-tokens in order of first appearance. Blocks are
numbered in file order, and a block's counts come in order of first appearance in the block
(:func:`core.pretokenization.pretokenize._count_chunk`, the function the single-process path uses). A pre-token's
*place* is ``(block number << 32) | its rank in the first block that holds it``: ordering by place
is ordering by first appearance in the file.

*Summing, sharded.* The worker that counts a block splits its counts by the CRC-32 of the token into
one piece per worker and writes the pieces to a private temporary folder. Worker ``k`` owns shard
``k``: told by the parent which blocks are done (in block order), it adds their ``k``-th pieces to its
total (counts add; a pre-token keeps the place of the first block that had it). No pre-token is in
two shards. A worker with a :class:`core.pretokenization.batched_count.BlockCounter` may hold a
block's counts back in a batch of chunks and write the batch's pieces later (when it is full, or
when the parent says ``"finish"`` after the last block), each pre-token placed at its first block
all the same; a piece is named by a key that the worker's reply gives. At the end each worker sorts its shard by place, cuts it at boundaries the parent takes
from the workers' quantiles, and worker ``j`` merges the ``j``-th stretches of all shards. Those
final pieces, taken in order ``j = 0, 1, ...``, are the whole counts in order of first appearance.

The parent's work is small messages and the join of the final pieces into one dict (``marshal``,
between processes of the same Python, from files in the temporary folder: no byte of the corpus or
of a partial count goes through the parent's pipes). The counts, and their order, are those of
:func:`core.pretokenization.pretokenize.count_pretokens` with one process.
"""

from __future__ import annotations

import errno
import marshal
import os
import selectors
import shutil
import struct
import sys
import tempfile
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, ValuesView
from dataclasses import dataclass
from itertools import pairwise
from multiprocessing.connection import Connection, wait
from typing import Any, BinaryIO, Protocol

import numpy as np

from core.errors import BPEError, CorpusError
from core.pretokenization.batched_count import RANK_BITS
from core.pretokenization.range_cuts import next_valid_cut, range_rule
from core.workers.parallel import lower_priority
from core.workers.procs import Child, ChildError, send_error

_NO_PLACE = np.iinfo(np.int64).max
_POLL_S = 0.05
RANGE_DEPTH = 2  # byte-range tasks a worker may hold at once (one runs, one waits: no idle gap)
POSITION_BITS = 40  # with positions, a place is (file index << POSITION_BITS) | byte offset


class BlockResult(Protocol):
    """What counting one block gives (:class:`core.pretokenization.pretokenize.ChunkResult`)."""

    @property
    def counts(self) -> dict[bytes, int]: ...
    @property
    def n_bytes(self) -> int: ...
    @property
    def invalid_bytes(self) -> int: ...
    @property
    def n_special(self) -> int: ...


#: counts one block: ``count(data, pattern, specials)``
CountBlock = Callable[[bytes, "str | None", "tuple[str, ...]"], BlockResult]


@dataclass
class CountTotals:
    """What the workers counted besides the counts: summed over all blocks."""

    n_bytes: int = 0
    invalid_bytes: int = 0
    n_special: int = 0
    blocks: int = 0
    pretokens: int = 0


class OrderedCounts(Mapping[bytes, int]):
    """Pre-token counts in order of first appearance, kept as the two lists they arrive in.

    A read-only mapping; a trainer only walks the tokens and the counts in order, so the dict (some
    hundreds of ns per distinct pre-token, all in the parent) is built only when a lookup asks for
    it (:meth:`as_dict`).

    Made by :meth:`from_packed`, it holds no Python object per token: the tokens joined by one
    byte each, their lengths and their counts (:meth:`packed`), as the counting workers hand them
    over. The lists are made from those when something first asks for them (:attr:`tokens`,
    :attr:`counts`, iteration, a lookup); the flat merge loop reads the packed form instead.
    """

    __slots__ = ("_counts", "_dict", "_packed", "_tokens")

    def __init__(self, tokens: list[bytes], counts: list[int]) -> None:
        self._tokens = tokens
        self._counts = counts
        self._packed: tuple[bytes, np.ndarray, np.ndarray] | None = None
        self._dict: dict[bytes, int] | None = None

    @classmethod
    def from_packed(cls, joined: bytes, lens: np.ndarray, counts: np.ndarray) -> OrderedCounts:
        """Counts of the tokens ``joined`` holds (each followed by one byte of any value, the last
        one not: ``b"\\0".join(tokens)``), ``lens`` bytes long each (int64), counted ``counts``."""
        if lens.size != counts.size or int(lens.sum()) + max(lens.size - 1, 0) != len(joined):
            raise ValueError("packed counts: the lengths do not match the bytes or the counts")
        self = cls([], [])
        self._tokens = self._counts = None  # type: ignore[assignment]
        self._packed = (joined, lens.astype(np.int64, copy=False), counts.astype(np.int64, copy=False))
        return self

    def packed(self) -> tuple[bytes, np.ndarray, np.ndarray] | None:
        """``(joined, lens, counts)`` (see :meth:`from_packed`) while the lists are not made."""
        return self._packed

    def word_bytes(self) -> int:
        """The bytes of all the distinct tokens together."""
        if self._packed is not None:
            return int(self._packed[1].sum())
        return sum(map(len, self._tokens))

    def _unpack(self) -> None:
        assert self._packed is not None
        joined, lens, counts = self._packed
        n = lens.size
        if not n:
            tokens: list[bytes] = []
        elif joined.count(0) == n - 1 and not (lens == 0).any():  # no token holds a NUL: cut at each
            tokens = joined.split(b"\0")
        else:
            ends = np.cumsum(lens + 1) - 1
            tokens = list(map(joined.__getitem__, map(slice, (ends - lens).tolist(), ends.tolist())))
        self._tokens, self._counts, self._packed = tokens, counts.tolist(), None

    @property
    def tokens(self) -> list[bytes]:
        if self._packed is not None:
            self._unpack()
        return self._tokens

    @property
    def counts(self) -> list[int]:
        if self._packed is not None:
            self._unpack()
        return self._counts

    def as_dict(self) -> dict[bytes, int]:
        if self._dict is None:
            self._dict = dict(zip(self.tokens, self.counts))
        return self._dict

    def __getitem__(self, token: bytes) -> int:
        return self.as_dict()[token]

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.tokens)

    def __len__(self) -> int:
        return self._packed[1].size if self._packed is not None else len(self._tokens)

    def values(self) -> _Values:
        return _Values(self)

    def clear(self) -> None:
        """Drop the tokens and counts (a trainer built from them frees their memory so)."""
        self._tokens, self._counts, self._packed, self._dict = [], [], None, None


def word_bytes(counts: Mapping[bytes, int]) -> int:
    """The bytes of all the distinct tokens of ``counts`` together (no token made where they are
    packed: :meth:`OrderedCounts.word_bytes`)."""
    if isinstance(counts, OrderedCounts):
        return counts.word_bytes()
    return sum(map(len, counts))


class _Values(ValuesView):
    def __init__(self, owner: OrderedCounts) -> None:
        super().__init__(owner)
        self._counts = owner.counts

    def __iter__(self) -> Iterator[int]:
        return iter(self._counts)


# ----------------------------------------------------------------------------- worker side
def split_by_hash(
    counts: dict[bytes, int], n_shards: int
) -> list[tuple[list[bytes], np.ndarray, np.ndarray]]:
    """One block's counts (in order of first appearance) as ``n_shards`` pieces ``(tokens, counts,
    ranks)`` (int64, uint32), token by CRC-32; each piece keeps the block's order."""
    n = len(counts)
    if n >> RANK_BITS:
        raise ValueError(f"a block with {n} distinct pre-tokens has more than a place can number")
    tokens = list(counts)
    values = np.fromiter(counts.values(), np.int64, n)
    shard = np.fromiter(map(zlib.crc32, tokens), np.uint32, n) % n_shards
    order = np.argsort(shard, kind="stable")
    bounds = np.searchsorted(shard[order], np.arange(n_shards + 1)).tolist()
    ranked = list(map(tokens.__getitem__, order.tolist()))
    ranks = order.astype(np.uint32)
    return [(ranked[a:b], values[order[a:b]], ranks[a:b]) for a, b in pairwise(bounds)]


def split_placed(
    tokens: list[bytes], counts: np.ndarray, places: np.ndarray, n_shards: int
) -> list[tuple[list[bytes], np.ndarray, np.ndarray]]:
    """Distinct tokens with their counts and absolute places (int64: a file index and a byte
    offset, see :meth:`ShardedCount.__init__`'s ``positions``) as ``n_shards`` pieces, token by
    CRC-32; each piece keeps the tokens' order."""
    n = len(tokens)
    shard = np.fromiter(map(zlib.crc32, tokens), np.uint32, n) % n_shards
    order = np.argsort(shard, kind="stable")
    bounds = np.searchsorted(shard[order], np.arange(n_shards + 1)).tolist()
    ranked = list(map(tokens.__getitem__, order.tolist()))
    counts, places = counts[order], places[order]
    return [(ranked[a:b], counts[a:b], places[a:b]) for a, b in pairwise(bounds)]


def pack(piece: tuple[list[bytes], np.ndarray, np.ndarray]) -> bytes:
    """A piece of :func:`split_by_hash` (ranks in the block, uint32) or :func:`split_placed`
    (places, int64) as bytes (``marshal``: between processes of one Python)."""
    tokens, counts, ranks = piece
    return marshal.dumps((tokens, counts.tobytes(), ranks.tobytes(), ranks.dtype.char))


class ShardTotal:
    """One worker's shard: token -> slot, and per slot its count and place (the least seen).

    Pieces may come in any order (a place is the least of those seen). A token new to the shard
    takes the slot numbered by its position among all entries added so far, so that one
    ``dict.setdefault`` per entry finds or makes its slot; slots of tokens seen before stay unused.
    """

    def __init__(self) -> None:
        self.index: dict[bytes, int] = {}
        self.used = 0  # slots handed out (used or not)
        self.counts = np.zeros(0, np.int64)
        self.places = np.zeros(0, np.int64)
        self.sorted: tuple[list[bytes], np.ndarray, np.ndarray] | None = None

    def add(self, block: int, piece: bytes) -> None:
        """Add a block's piece (:func:`pack`)."""
        tokens, counts, ranks, kind = marshal.loads(piece)
        self.add_piece(block, (tokens, np.frombuffer(counts, np.int64), np.frombuffer(ranks, np.dtype(kind))))

    def add_piece(self, block: int, piece: tuple[list[bytes], np.ndarray, np.ndarray]) -> None:
        """Add a piece: its third array holds ranks in block ``block`` (uint32) or places (int64)."""
        tokens, counts, ranks = piece
        if ranks.dtype == np.int64:
            self.add_tokens(tokens, counts, ranks)
        else:
            self.add_tokens(tokens, counts, (block << RANK_BITS) | ranks.astype(np.int64))

    def add_tokens(self, tokens: list[bytes], counts: np.ndarray, places: np.ndarray) -> None:
        """Add distinct tokens with their counts and places."""
        n = len(tokens)
        if not n:
            return
        if self.used + n > len(self.counts) and self.used > 2 * len(self.index):
            self._compact()  # most slots unused: number the tokens afresh (memory stays ~ distinct tokens)
        n0 = self.used
        self.used = n0 + n
        if self.used > len(self.counts):
            size = max(self.used, 2 * len(self.counts))
            self.counts = np.concatenate([self.counts, np.zeros(size - len(self.counts), np.int64)])
            self.places = np.concatenate([self.places, np.full(size - len(self.places), _NO_PLACE, np.int64)])
        ids = np.fromiter(map(self.index.setdefault, tokens, range(n0, n0 + n)), np.int64, n)
        self.counts[ids] += counts
        self.places[ids] = np.minimum(self.places[ids], places)

    def _compact(self) -> None:
        tokens = list(self.index)
        slots = np.fromiter(self.index.values(), np.int64, len(tokens))
        self.index = dict(zip(tokens, range(len(tokens))))
        self.used = len(tokens)
        size = max(1024, 2 * self.used)
        counts = np.zeros(size, np.int64)
        places = np.full(size, _NO_PLACE, np.int64)
        counts[: self.used] = self.counts[slots]
        places[: self.used] = self.places[slots]
        self.counts, self.places = counts, places

    def sort(self, n_quantiles: int) -> list[int]:
        """Sort the shard by place (the total is dropped); return ``n_quantiles`` places that cut
        it into equal stretches."""
        tokens = list(self.index)
        n = len(tokens)
        slots = np.fromiter(self.index.values(), np.int64, n)
        self.index = {}
        order = np.argsort(self.places[slots], kind="stable")  # (timsort: places come mostly in order)
        slots = slots[order]
        self.sorted = (list(map(tokens.__getitem__, order.tolist())), self.counts[slots], self.places[slots])
        self.counts = self.places = np.zeros(0, np.int64)
        if not n:
            return []
        return self.sorted[2][(np.arange(1, n_quantiles + 1) * n) // (n_quantiles + 1)].tolist()

    def split(self, bounds: list[int]) -> list[bytes]:
        """The sorted shard cut at the places ``bounds`` (stretch j: places in ``[bounds[j-1],
        bounds[j])``), as marshalled pieces ``(tokens, counts, places)``."""
        assert self.sorted is not None
        tokens, counts, places = self.sorted
        self.sorted = None
        cuts = [0, *np.searchsorted(places, np.asarray(bounds, np.int64)).tolist(), len(tokens)]
        return [
            marshal.dumps((tokens[a:b], counts[a:b].tobytes(), places[a:b].tobytes()))
            for a, b in pairwise(cuts)
        ]


def merge_stretches(pieces: list[bytes], with_places: bool = False) -> tuple[Any, int]:
    """Merge stretches (disjoint tokens, each sorted by place) into one piece in order of place;
    return it, and its number of pre-tokens. With ``with_places`` the piece is ``(tokens, counts,
    places)`` marshalled; else it is packed, ``(b"\\0".join(tokens), lens, counts)`` (int64 bytes;
    see :meth:`OrderedCounts.from_packed`), so that the parent makes no object per token, and is
    written as it is (:func:`_write_packed`: ``marshal`` takes no bytes object of 2 GiB)."""
    tokens: list[bytes] = []
    counts, places = [], []
    for blob in pieces:
        t, c, p = marshal.loads(blob)
        tokens += t
        counts.append(np.frombuffer(c, np.int64))
        places.append(np.frombuffer(p, np.int64))
    count = np.concatenate(counts) if counts else np.zeros(0, np.int64)
    order = np.argsort(np.concatenate(places) if places else np.zeros(0, np.int64), kind="stable")
    merged = list(map(tokens.__getitem__, order.tolist()))
    if with_places:
        place = np.concatenate(places)[order] if places else np.zeros(0, np.int64)
        return marshal.dumps((merged, count[order].tobytes(), place.tobytes())), int(count.sum())
    lens = np.fromiter(map(len, merged), np.int64, len(merged))
    return (b"\0".join(merged), lens.tobytes(), count[order].tobytes()), int(count.sum())


def _write(path: str, data: bytes) -> None:
    _write_packed(path, data, header=False)


_PACKED_HEADER = struct.Struct("<3q")  # the sizes of a packed piece's parts


def _write_packed(path: str, *parts: bytes, header: bool = True) -> None:
    """Write ``parts`` one after another (after their sizes, with ``header``: :func:`_take_packed`)."""
    try:
        with open(path, "wb") as f:
            if header:
                f.write(_PACKED_HEADER.pack(*map(len, parts)))
            for part in parts:
                f.write(part)
    except OSError as e:
        raise _no_room(os.path.dirname(path), e) from None


def _take_packed(path: str) -> tuple[bytes, bytes, bytes]:
    """Read a packed piece (:func:`_write_packed`: the words joined, their lengths, their counts)
    part by part, and delete its file."""
    with open(path, "rb") as f:
        sizes = _PACKED_HEADER.unpack(f.read(_PACKED_HEADER.size))
        parts = tuple(f.read(n) for n in sizes)
    os.unlink(path)
    if any(len(part) != n for part, n in zip(parts, sizes)):
        raise BPEError(
            f"a counting process's piece {path!r} was cut short (the disk full?); free some space there, "
            "point TMPDIR at a folder with more room, or count in one process",
            code="count_piece_cut",
            path=path,
        )
    return parts  # type: ignore[return-value]


def _no_room(folder: str, e: OSError) -> BPEError:
    if e.errno == errno.EMFILE:  # (not a matter of room: the process may open no more files)
        return BPEError(
            f"a counting process could not open a temporary file in {folder!r} ({e.strerror}); "
            "raise the limit on open files (ulimit -n), or count in one process (workers=1, --workers 1)",
            code="count_open_files",
            folder=folder,
            reason=str(e.strerror),
        )
    return BPEError(
        f"counting in several processes needs room for temporary files in {folder!r} "
        f"({e.strerror}); free some space there, point TMPDIR at a folder with more room, or "
        "count in one process (workers=1, --workers 1)",
        code="count_no_room",
        folder=folder,
        reason=str(e.strerror),
    )


def _take(path: str) -> bytes:
    """Read a piece and delete its file."""
    with open(path, "rb") as f:
        data = f.read()
    os.unlink(path)
    return data


def _open(path: str | None):
    assert path is not None
    try:
        return open(path, "rb")  # (closed when the worker ends)
    except OSError as e:
        raise CorpusError(
            f"a counting process cannot read corpus file {path!r}: {e.strerror}; check that it still "
            "exists and is readable",
            code="corpus_unreadable",
            path=path,
            reason=str(e.strerror),
        ) from None


def _serve(
    conn: Connection,
    count: Callable,
    shard: int,
    n_shards: int,
    folder: str,
    files: list[tuple[str, int]],
    pattern: str | None,
    specials: tuple[str, ...],
    niceness: int,
    positions: bool = False,
    batched: Callable | None = None,
) -> None:
    """A counting worker (owner of shard ``shard``): runs the parent's requests until the parent
    closes the pipe. Every request gets one reply. ``files``: (path, size) of the files whose byte
    ranges it may be asked to count; ``positions``, ``batched``: see :class:`ShardedCount`."""
    lower_priority(niceness)
    rule = range_rule(pattern) if files else False
    opened: dict[int, BinaryIO] = {}  # the file last read (tasks come in file order: one is open at a time)
    total = ShardTotal()
    counter = batched(pattern, specials) if batched is not None and not positions else None

    def piece(key: str, s: int) -> str:
        return os.path.join(folder, f"{key}.{s}")

    def place(key: str, block: int, parts: list[tuple[list[bytes], np.ndarray, np.ndarray]]) -> str:
        """Add this worker's shard of ``parts`` (ranks in ``block``, or places), write the others'."""
        for s, part in enumerate(parts):
            if s == shard:  # this worker's own shard: added at once
                total.add_piece(block, part)
            else:
                _write(piece(key, s), pack(part))
        return key

    def counted(block: int, file: int, base: int, data: bytes) -> None:
        if counter is not None:  # pieces of placed tokens: a block's, or a batch's when one is done
            found, n_bytes, invalid, n_special = counter.block(block, data)
            keys = [
                place(f"{block}-{j}", block, split_placed(p[0], p[1], p[2], n_shards))
                for j, p in enumerate(found)
            ]
            conn.send(("counted", block, n_bytes, invalid, n_special, keys))
            return
        if positions:  # count(data, base, ...) -> tokens, counts, offsets in the file
            r = count(data, base, pattern, specials)
            n = len(r.tokens)
            places = np.fromiter(r.offsets, np.int64, n)
            if file:
                places |= file << POSITION_BITS
            parts = split_placed(r.tokens, np.fromiter(r.counts, np.int64, n), places, n_shards)
        else:
            r = count(data, pattern, specials)
            parts = split_by_hash(r.counts, n_shards)
        keys = [place(str(block), block, parts)] if r.n_bytes else []
        conn.send(("counted", block, r.n_bytes, r.invalid_bytes, r.n_special, keys))

    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        try:
            kind = msg[0]
            if kind == "range":
                _, block, file, lo, hi = msg
                path, size = files[file]
                f = opened.get(file)
                if f is None:
                    for old in opened.values():
                        old.close()
                    opened.clear()
                    f = opened[file] = _open(path)
                start = next_valid_cut(f, lo, size, specials, rule)
                end = size if hi >= size else next_valid_cut(f, hi, size, specials, rule)
                if end > start:
                    f.seek(start)
                    counted(block, file, start, f.read(end - start))
                else:
                    conn.send(("counted", block, 0, 0, 0, []))
            elif kind == "block":
                _, block, file, base = msg
                counted(block, file, base, conn.recv_bytes())
            elif kind == "finish":  # no more blocks: what a batch still holds
                found = counter.finish() if counter is not None else []
                keys = [
                    place(f"end{shard}-{j}", 0, split_placed(p[0], p[1], p[2], n_shards))
                    for j, p in enumerate(found)
                ]
                conn.send(("finished", keys))
            elif kind == "absorb":  # (a piece of placed tokens needs no block number: 0)
                total.add(int(msg[1]) if msg[1].isdigit() else 0, _take(piece(msg[1], shard)))
                conn.send(("absorbed",))
            elif kind == "sort":
                conn.send(("quantiles", total.sort(msg[1])))
            elif kind == "split":
                for j, blob in enumerate(total.split(msg[1])):
                    _write(os.path.join(folder, f"s{shard}.{j}"), blob)
                conn.send(("split",))
            elif kind == "merge":
                merged, pretokens = merge_stretches(
                    [_take(os.path.join(folder, f"s{k}.{shard}")) for k in range(n_shards)], positions
                )
                final = os.path.join(folder, f"final{shard}")
                if positions:
                    _write(final, merged)
                else:
                    _write_packed(final, *merged)
                conn.send(("final", pretokens))
            else:
                raise ValueError(f"unknown request {kind!r}")
        except BaseException as e:
            if not send_error(conn, e):
                return


# ----------------------------------------------------------------------------- parent side
class _Waiter:
    """Which connections have a reply: one selector for the whole run on POSIX (a new one at each
    call, as :func:`multiprocessing.connection.wait` makes, cost the parent ~0.2 ms a call); on
    Windows, whose pipes no selector takes, :func:`~multiprocessing.connection.wait`."""

    def __init__(self, conns: list[Connection]) -> None:
        self.conns = conns
        self.sel: selectors.BaseSelector | None = None
        if sys.platform != "win32":
            self.sel = selectors.DefaultSelector()
            for c in conns:
                self.sel.register(c, selectors.EVENT_READ, c)

    def ready(self, timeout: float) -> list[Connection]:
        if self.sel is None:  # pragma: no cover - Windows only
            return wait(self.conns, timeout)  # type: ignore[return-value]
        return [key.data for key, _ in self.sel.select(timeout)]

    def __enter__(self) -> _Waiter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.sel is not None:
            self.sel.close()


Waiter = _Waiter  # (the range encoder waits on its workers the same way)


def plan_ranges(size: int, range_bytes: int) -> list[tuple[int, int]]:
    """Nominal byte ranges ``[lo, hi)`` of about ``range_bytes`` covering a file of ``size`` bytes
    (each worker moves both ends to valid cuts)."""
    step = max(1, range_bytes, -(-size // (1 << (63 - RANK_BITS))))  # (block numbers must fit a place)
    return [(lo, min(lo + step, size)) for lo in range(0, size, step)]


class ShardedCount:
    """The parent's side: start ``workers`` counting processes, hand out work, run the reduce.

    ``count(data, pattern, specials)`` counts one block (a top-level function: the workers import
    it by name): :func:`core.pretokenization.pretokenize._count_chunk`. With ``positions``,
    ``count(data, base, pattern, specials)`` counts a block that starts at byte ``base`` of its
    file and gives each distinct token's offset of first occurrence
    (:func:`core.pretokenization.scan.count_block`); a token's place is then
    ``(file index << POSITION_BITS) | offset``, and :attr:`places` holds the place of each token
    of the result (the first-seen order across several files, what a counts file stores).

    ``files``: (path, size) of the files whose byte ranges :meth:`count_tasks` names (``path`` and
    ``size``: one file, file index 0).

    ``batched(pattern, specials)`` (without ``positions``; a top-level function) makes each worker's
    :class:`core.pretokenization.batched_count.BlockCounter`, which counts the worker's blocks by
    batches of chunks where that is faster (``count`` is then not called).

    ``poll()`` is called while waiting (at least every 50 ms) and after each block; it may raise
    (e.g. :class:`core.Cancelled`): the worker processes are gone, and their temporary folder,
    when the exception leaves. ``on_block(n_bytes, invalid, n_special)`` is called as each block
    is counted.
    """

    def __init__(
        self,
        count: Callable,
        workers: int,
        pattern: str | None,
        specials: tuple[str, ...],
        *,
        path: str | None = None,
        size: int = 0,
        files: list[tuple[str, int]] | None = None,
        positions: bool = False,
        batched: Callable | None = None,
        niceness: int = 0,
        poll: Callable[[], None] | None = None,
        on_block: Callable[[int, int, int], None] | None = None,
    ) -> None:
        self.count = count
        self.workers = max(1, workers)
        if files is None:
            files = [] if path is None else [(path, size)]
        self.files = [(os.path.abspath(p), n) for p, n in files]
        self.positions = positions
        self.batched = batched
        self.pattern = pattern
        self.specials = specials
        self.niceness = niceness
        self.poll = poll
        self.on_block = on_block
        self.totals = CountTotals()
        self.places = np.zeros(0, np.int64)  # with positions: the place of each token counted
        self.children: list[Child] = []
        self.folder = ""

    # ---- public
    def count_ranges(self, ranges: list[tuple[int, int]]) -> OrderedCounts:
        """Count the nominal byte ranges of the (first) file, in file order."""
        return self.count_tasks(("range", 0, lo, hi, None) for lo, hi in ranges)

    def count_blocks(self, blocks: Iterable[bytes]) -> OrderedCounts:
        """Count blocks read and cut by the caller (a stream), in order."""
        return self._run(((("block", i, 0, 0), b) for i, b in enumerate(blocks)), 1)

    def count_tasks(self, tasks: Iterable[tuple[str, int, int, int, bytes | None]]) -> OrderedCounts:
        """Count tasks in file order: ``("range", file, lo, hi, None)`` (a nominal byte range of
        ``files[file]``, read by a worker) or ``("block", file, base, 0, data)`` (a block read and
        cut by the caller, from byte ``base`` of file ``file``)."""

        def messages() -> Iterator[tuple[tuple, bytes | None]]:
            for i, (kind, file, a, b, data) in enumerate(tasks):
                yield ((kind, i, file, a, b) if kind == "range" else (kind, i, file, a)), data

        return self._run(messages(), RANGE_DEPTH)

    # ---- the run
    def _run(self, tasks: Iterator[tuple[tuple, bytes | None]], depth: int) -> OrderedCounts:
        try:
            self.folder = tempfile.mkdtemp(prefix="bpe-count-")
        except OSError as e:
            raise _no_room(tempfile.gettempdir(), e) from None
        ok = False
        try:
            w = self.workers
            common = (self.files, self.pattern, self.specials, self.niceness, self.positions, self.batched)
            self.children = [
                Child(_serve, (self.count, k, w, self.folder, *common), name="bpe-counter") for k in range(w)
            ]
            self._count(tasks, depth)
            result = self._reduce()
            ok = True
            return result
        finally:
            for child in self.children:
                child.close()  # the child sees EOF and ends
                if not ok:
                    child.terminate()
            for child in self.children:
                child.join(5)
                child.terminate()
                child.join(5)
            shutil.rmtree(self.folder, ignore_errors=True)

    def _count(self, tasks: Iterator[tuple[tuple, bytes | None]], depth: int) -> None:
        conns = [child.conn for child in self.children]
        held = dict.fromkeys(conns, 0)  # counting tasks sent and not answered
        waiting = dict.fromkeys(conns, 0)  # requests of any kind sent and not answered
        exhausted = finishing = False
        with _Waiter(conns) as waiter:
            while True:
                for conn in conns:  # fill every worker up to `depth` counting tasks, in file order
                    while not exhausted and held[conn] < depth:
                        try:
                            msg, data = next(tasks)
                        except StopIteration:
                            exhausted = True
                            break
                        conn.send(msg)
                        if data is not None:
                            conn.send_bytes(data)
                        held[conn] += 1
                        waiting[conn] += 1
                if exhausted and not any(waiting.values()):
                    if finishing:
                        return
                    finishing = True  # every block counted: the workers hand in what they hold
                    for conn in conns:
                        conn.send(("finish",))
                        waiting[conn] += 1
                ready = waiter.ready(_POLL_S)
                for conn in ready:
                    reply = self._reply(conn)
                    waiting[conn] -= 1
                    if reply[0] == "counted":
                        held[conn] -= 1
                        _, _block, n_bytes, invalid, n_special, keys = reply
                        t = self.totals
                        t.n_bytes += n_bytes
                        t.invalid_bytes += invalid
                        t.n_special += n_special
                        t.blocks += n_bytes > 0
                        if self.on_block is not None:
                            self.on_block(n_bytes, invalid, n_special)
                    elif reply[0] == "finished":
                        keys = reply[1]
                    else:
                        continue
                    for key in keys:  # the other shards' owners add their pieces
                        for other in conns:
                            if other is not conn:
                                other.send(("absorb", key))
                                waiting[other] += 1
                if not ready and self.poll is not None:
                    self.poll()

    def _reduce(self) -> OrderedCounts:
        conns = [child.conn for child in self.children]
        w = len(conns)
        for c in conns:
            c.send(("sort", w - 1))
        samples = sorted(v for c in conns for v in self._reply(c)[1])
        bounds = [samples[(i * len(samples)) // w] if samples else 0 for i in range(1, w)]
        for c in conns:
            c.send(("split", bounds))
        for c in conns:
            self._reply(c)
        for c in conns:
            c.send(("merge",))
        if self.positions:  # tokens as a list, with the place of each
            tokens: list[bytes] = []
            counts: list[int] = []
            places: list[np.ndarray] = []
            for j, c in enumerate(conns):
                self.totals.pretokens += self._reply(c)[1]
                final = marshal.loads(_take(os.path.join(self.folder, f"final{j}")))
                tokens += final[0]
                counts += np.frombuffer(final[1], np.int64).tolist()
                places.append(np.frombuffer(final[2], np.int64))
            self.places = np.concatenate(places) if places else np.zeros(0, np.int64)
            return OrderedCounts(tokens, counts)
        # packed: the pieces' bytes joined, their lengths and counts (no object per token here)
        joined: list[bytes] = []
        lens: list[np.ndarray] = []
        count_parts: list[np.ndarray] = []
        for j, c in enumerate(conns):
            self.totals.pretokens += self._reply(c)[1]
            blob, n_bytes, n_counts = _take_packed(os.path.join(self.folder, f"final{j}"))
            if n_bytes:
                joined.append(blob)
                lens.append(np.frombuffer(n_bytes, np.int64))
                count_parts.append(np.frombuffer(n_counts, np.int64))
        if not joined:
            return OrderedCounts([], [])
        return OrderedCounts.from_packed(
            b"\0".join(joined), np.concatenate(lens), np.concatenate(count_parts)
        )

    # ---- messages
    def _reply(self, conn: Connection) -> tuple:
        while not conn.poll(_POLL_S):
            if self.poll is not None:
                self.poll()
        try:
            reply = conn.recv()
        except (EOFError, OSError):
            raise self._died(conn) from None
        if reply[0] == "error":
            raise reply[1]
        return reply

    def _died(self, conn: Connection) -> ChildError:
        child = next(c for c in self.children if c.connected and c.conn is conn)
        child.join(1)
        code = child.exitcode
        return ChildError(
            f"a worker process ended unexpectedly (exit code {code}"
            f"{'; killed: out of memory?' if (code or 0) < 0 else ''})",
            code="worker_died",
            exit_code=code,
        )
