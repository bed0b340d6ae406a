"""Encoding a file into ``.npy`` in worker processes that read their own byte ranges and write their
own ids, with next to nothing left for the parent to do.

Why: when the parent read and cut every block, piped its bytes to a worker, took the ids back
through another pipe and wrote them, it spent some 5 ms of CPU per MB (2 workers), a serial part
that by Amdahl's law caps the speed-up of encoding at a few tens of cores.

*Reading.* The parent sends each worker nominal byte ranges (two numbers). The worker opens the file
itself and moves both ends of its range to the first *valid cut* at or after them
(:func:`core.pretokenization.range_cuts.next_valid_cut`, with the tokenizer's cuts:
:func:`encode_cuts`, as the Dask tasks do): two tasks that meet at a boundary find the same cut
without talking to each other, and no pre-token or special token crosses it, so the ids of the
ranges, one after another, are the ids of the whole file. Within its range the worker encodes block
by block (:func:`core.pretokenization.blocks.iter_blocks`, the cuts of the single-process
encoder) with one :class:`core.tokenization.array_encode.ArrayEncoder` kept from range to range.

*Writing.* The worker writes the range's ids (little-endian) to a file of its own in a temporary
folder beside the output and answers with the range's bounds and its number of ids. The parent
appends the pieces to the output in range order as they complete, with the kernel's own copy
(:func:`os.copy_file_range` or :func:`os.sendfile` where there is one): no byte of the text or of
the ids goes through the parent's pipes or its Python code.
"""

from __future__ import annotations

import io
import os
import shutil
import tempfile
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, BinaryIO

import numpy as np

from core.errors import BPEError
from core.pretokenization.blocks import PipelineRule, iter_blocks, tokenizer_rule
from core.pretokenization.pretokenize import block_rule
from core.pretokenization.range_cuts import next_valid_cut, range_rule
from core.pretokenization.sharded_count import plan_ranges
from core.tokenization.array_encode import ArrayEncoder
from core.tokenization.range_workers import RangeWorkers


def encode_cuts(tok: Any) -> tuple[Any, frozenset[str] | None] | None:
    """Where byte ranges of a text ``tok`` encodes may be cut: (the ``newlines`` of
    :func:`core.pretokenization.range_cuts.next_valid_cut`: True, a cut rule or False; before which
    special tokens: None = all), or None when only whole files are exact (an imported pipeline that
    adds a prefix space to every piece, strips whitespace before added tokens, or matches single
    words)."""
    rule = tokenizer_rule(tok, block_rule(tok.pattern_regex))
    newlines: Any
    if not isinstance(rule, PipelineRule):
        newlines, cut_at = range_rule(tok.pattern_regex), None
    elif rule.whole or rule.lstrip_tokens:
        return None
    else:
        if isinstance(rule.rule, str):  # the built-in rules: after newlines and at word ends
            newlines = rule.rule.split("-")[0] in ("gpt2", "gpt4")
        else:  # the cuts of the pipeline's first regex split (None: none)
            newlines = rule.rule or False
        cut_at = rule.cut_tokens
    if not newlines and not (tok.special_tokens if cut_at is None else cut_at):
        return None  # (no place to cut at all)
    return newlines, cut_at


class RangeReader(io.RawIOBase):
    """Reads ``f`` from byte ``start`` up to byte ``end``."""

    def __init__(self, f: BinaryIO, start: int, end: int) -> None:
        super().__init__()
        self.f, self.left = f, end - start
        f.seek(start)

    def readable(self) -> bool:
        return True

    def read(self, n: int | None = -1) -> bytes:
        n = self.left if n is None or n < 0 else min(n, self.left)
        data = self.f.read(n) if n > 0 else b""
        self.left -= len(data)
        return data


def range_bounds(
    f: BinaryIO,
    lo: int,
    hi: int,
    size: int,
    specials: tuple[str, ...],
    newlines: Any,
    cut_at: Collection[str] | None = None,
) -> tuple[int, int]:
    """The byte range ``[start, end)`` that the nominal range ``[lo, hi)`` covers (both ends moved
    to valid cuts)."""
    start = next_valid_cut(f, lo, size, specials, newlines, cut_at)
    end = size if hi >= size else next_valid_cut(f, hi, size, specials, newlines, cut_at)
    return start, max(start, end)


def encode_range_ids(
    encoder: ArrayEncoder, f: BinaryIO, start: int, end: int, out: BinaryIO, dtype: str, block_bytes: int
) -> int:
    """Encode bytes ``[start, end)`` of ``f`` block by block, writing the ids (little-endian
    ``dtype``) to ``out``; returns the number of ids."""
    tok = encoder.tok
    le = np.dtype(dtype).newbyteorder("<")
    rule = tokenizer_rule(tok, block_rule(tok.pattern_regex))
    n = 0
    for block in iter_blocks(RangeReader(f, start, end), list(tok.special_tokens), rule, block_bytes):
        ids = encoder.encode(block.decode("utf-8", "surrogateescape")).astype(le)
        out.write(ids.tobytes())
        n += len(ids)
    return n


class _RangeIds:
    """A worker's handler (:class:`core.tokenization.range_workers.RangeWorkers`): encodes a nominal
    byte range of the file into ``folder/<range number>``; gives ``(start, end, ids)``."""

    def __init__(self, setup: tuple) -> None:
        cls, spec, self.path, self.size, self.folder, self.dtype, self.block_bytes = setup
        self.encoder = ArrayEncoder(cls.from_spec(spec))
        cuts = encode_cuts(self.encoder.tok)
        assert cuts is not None  # (ranges are planned only for tokenizers that have cuts)
        self.newlines, self.cut_at = cuts
        self.specials = tuple(self.encoder.tok.special_tokens)
        self.f = open(self.path, "rb")  # noqa: SIM115 (closed when the worker ends)

    def __call__(self, i: int, lo: int, hi: int) -> tuple[int, int, int]:
        start, end = range_bounds(self.f, lo, hi, self.size, self.specials, self.newlines, self.cut_at)
        piece = os.path.join(self.folder, str(i))
        try:
            with open(piece, "wb") as out:
                n = encode_range_ids(self.encoder, self.f, start, end, out, self.dtype, self.block_bytes)
        except OSError as e:
            raise BPEError(
                f"encoding in several processes needs room for temporary files in {self.folder!r} "
                f"({e.strerror}); free some space there, or encode in one process (--workers 1)"
            ) from None
        return start, end, n


def _append(dst: BinaryIO, path: str) -> None:
    """Append the file ``path`` to ``dst`` (the kernel copies where it can), then delete it."""
    dst.flush()
    with open(path, "rb") as src:
        n = os.fstat(src.fileno()).st_size
        copy = getattr(os, "copy_file_range", None)
        left = n
        try:
            while left and copy is not None:
                got = copy(src.fileno(), dst.fileno(), left)
                if not got:
                    break
                left -= got
        except OSError:
            pass  # (not between these files: copied below)
        if left:
            src.seek(n - left)
            dst.seek(0, os.SEEK_END)
            shutil.copyfileobj(src, dst, 1 << 20)
    dst.seek(0, os.SEEK_END)
    os.unlink(path)


@dataclass
class RangeTotals:
    n_items: int = 0  # ids written
    n_bytes: int = 0  # text bytes encoded


def encode_ranges_to(
    tokenizer: Any,
    path: str,
    size: int,
    out: BinaryIO,
    dtype: str,
    workers: int,
    *,
    range_bytes: int,
    block_bytes: int,
    temp_dir: str | None = None,
    on_range: Callable[[int], None] | None = None,
    poll: Callable[[], None] | None = None,
    niceness: int = 0,
) -> RangeTotals:
    """Encode the regular file ``path`` (``size`` bytes) in ``workers`` processes and append its ids
    to ``out`` (positioned at its end) in file order. The workers' pieces go to a temporary folder
    in ``temp_dir`` (the output's folder: the same disk). ``on_range(n_bytes)`` is called as each
    range is done, ``poll()`` while waiting (either may raise, e.g. :class:`core.Cancelled`: the
    workers and their temporary files are gone when the exception leaves)."""
    try:
        folder = tempfile.mkdtemp(prefix=".bpe-encode-", dir=temp_dir)
    except OSError as e:
        raise BPEError(
            f"encoding in several processes needs a temporary folder in {temp_dir or tempfile.gettempdir()!r} "
            f"({e.strerror}); check its permissions, or encode in one process (--workers 1)"
        ) from None
    ranges = plan_ranges(size, range_bytes)
    totals = RangeTotals()
    itemsize = np.dtype(dtype).itemsize
    setup = (type(tokenizer), tokenizer.to_spec(), os.path.abspath(path), size, folder, dtype, block_bytes)
    try:
        with RangeWorkers(_RangeIds, setup, min(workers, len(ranges)), niceness=niceness) as pool:
            tasks = ((i, lo, hi) for i, (lo, hi) in enumerate(ranges))
            for i, (start, end, n) in enumerate(pool.run(tasks, poll)):
                piece = os.path.join(folder, str(i))
                if os.path.getsize(piece) != n * itemsize:
                    raise BPEError(f"a worker's ids of range {i} are incomplete; encode again")
                _append(out, piece)
                totals.n_items += n
                totals.n_bytes += end - start
                if on_range is not None:
                    on_range(end - start)
        return totals
    finally:
        shutil.rmtree(folder, ignore_errors=True)
