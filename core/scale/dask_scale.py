"""Counting and encoding on a Dask cluster (the ``scale`` extra: dask[distributed], pyarrow).

Files are split into byte ranges whose ends are moved to the first *valid cut* at or after a
nominal offset (:func:`core.pretokenization.scan.next_valid_cut`): each task finds its own ends by reading the
bytes around them, so ranges never overlap, never leave a gap, and no pre-token crosses them.
Counting returns Arrow tables (token, count, first position) that are summed as a tree on the
workers; encoding writes one ``.npy`` shard per range and a manifest.

Without a scheduler address a ``LocalCluster`` of processes is started. Its worker processes are
started with ``__main__`` hidden, so that a plain script without ``if __name__ == "__main__":``
is not run again in every worker.
"""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast

from core.pretokenization.blocks import tokenizer_rule
from core.pretokenization.pattern_probe import check_training_pattern
from core.pretokenization.pretokenize import (
    BLOCK_BYTES,
    block_rule,
    check_special_tokens,
    iter_blocks,
)
from core.pretokenization.read_watch import watch
from core.pretokenization.scan import (
    check_text,
    cluster_inputs,
    count_block,
    open_source,
    range_rule,
    refuse_compressed,
    source_size,
)
from core.scale.counts_schema import (
    POS_BITS,
    CountsError,
    CountsMeta,
    PretokenCounts,
    need_pyarrow,
    tool_version,
)
from core.scale.dask_cluster import dask_client, hidden_main, need_dask, show_progress  # noqa: F401 (API)
from core.scale.dask_watch import StallWatch, scatter_watched
from core.tokenization.npy_ranges import RangeReader, encode_cuts, range_bounds

if TYPE_CHECKING:
    import pyarrow as pa

    from core.tokenization.array_encode import ArrayEncoder

RANGE_BYTES = 64 << 20  # largest automatic size of one task's byte range
MIN_RANGE_BYTES = 4 << 20  # smallest automatic size
FAN_IN = 4  # partial counts summed per reduction task


_RangeReader = (
    RangeReader  # (the reader and the cuts are the local range encoder's: core.tokenization.npy_ranges)
)


@dataclass(frozen=True)
class RangeCounts:
    """Partial counts of some ranges: an Arrow table (token, count, pos) and corpus statistics."""

    table: pa.Table
    n_bytes: int
    invalid_bytes: int
    n_special: int
    chunks: int


def count_range(
    file_index: int,
    source: str,
    nominal: tuple[int, int],
    size: int,
    pattern: str | None,
    specials: tuple[str, ...],
    block_bytes: int = BLOCK_BYTES,
    allow_nul: bool = False,
) -> RangeCounts:
    """Task: count one byte range of one file (positions packed as ``file << 40 | offset``)."""
    pa = need_pyarrow()
    newlines = range_rule(pattern)
    counts: Counter[bytes] = Counter()
    first: dict[bytes, int] = {}
    invalid = n_special = chunks = 0
    with contextlib.closing(open_source(source)) as f:
        start, end = range_bounds(f, nominal[0], nominal[1], size, specials, newlines)
        if start == 0:
            check_text(f.read(65536), source, allow_nul=allow_nul)
        base = start
        for block in iter_blocks(
            _RangeReader(f, start, end), list(specials), block_rule(pattern), block_bytes
        ):
            b = count_block(block, base, pattern, specials)
            base += len(block)
            counts.update(dict(zip(b.tokens, b.counts)))
            if len(first) != len(counts):
                new = set(b.tokens).difference(first)
                shift = file_index << POS_BITS
                first.update({t: shift | o for t, o in zip(b.tokens, b.offsets) if t in new})
            invalid += b.invalid_bytes
            n_special += b.n_special
            chunks += 1
    tokens = list(counts)
    table = pa.table(
        {
            "token": pa.array(tokens, pa.binary()),
            "count": pa.array([counts[t] for t in tokens], pa.int64()),
            "pos": pa.array([first[t] for t in tokens], pa.int64()),
        }
    )
    return RangeCounts(table, end - start, invalid, n_special, chunks)


def merge_ranges(*parts: RangeCounts) -> RangeCounts:
    """Task: sum partial counts (counts add; the first position is the least)."""
    from core.scale.counts_io import reduce_tables

    return RangeCounts(
        reduce_tables([p.table for p in parts]),
        sum(p.n_bytes for p in parts),
        sum(p.invalid_bytes for p in parts),
        sum(p.n_special for p in parts),
        sum(p.chunks for p in parts),
    )


def plan(sources: list[str], range_bytes: int) -> list[tuple[int, str, tuple[int, int], int]]:
    """(file index, source, nominal range, file size) of every task."""
    if range_bytes < 1:
        raise CountsError("the range size must be at least 1 byte")
    tasks: list[tuple[int, str, tuple[int, int], int]] = []
    for i, src in enumerate(sources):
        size = source_size(src)
        tasks.extend(
            (i, src, (s, min(s + range_bytes, size)), size) for s in range(0, max(size, 1), range_bytes)
        )
    return tasks


def auto_range_bytes(client, sources: list[str]) -> int:
    """About four tasks per worker, each between 4 and 64 MB."""
    n = max(1, len(client.scheduler_info().get("workers", {})))
    total = sum(source_size(s) for s in sources)
    return int(min(RANGE_BYTES, max(MIN_RANGE_BYTES, total // (4 * n) + 1)))


def tree_reduce(client, futures: list, fan_in: int = FAN_IN):
    """Sum futures of :class:`RangeCounts` as a tree of ``merge_ranges`` tasks; returns all futures."""
    every = list(futures)
    level = list(futures)
    while len(level) > 1:
        level = [
            client.submit(merge_ranges, *level[i : i + fan_in], pure=False)
            for i in range(0, len(level), fan_in)
        ]
        every += level
    return level[0], every


def count_dask(
    inputs: list[str],
    special_tokens: list[str] | None = None,
    pattern: str | None = "gpt2",
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    range_bytes: int | None = None,
    progress_bar: bool = False,
    client=None,
    allow_nul: bool = False,
) -> PretokenCounts:
    """Count pre-tokens of files/globs/URLs on a Dask cluster (a LocalCluster without ``scheduler``).

    Gives exactly :func:`core.scale.counts.count_files`'s result. Pass ``client`` to use a client you
    already have.
    """
    need_dask()
    need_pyarrow()
    specials = tuple(check_special_tokens(special_tokens))
    pat = check_training_pattern(pattern)
    sources = cluster_inputs([os.fspath(x) for x in inputs])
    with contextlib.ExitStack() as stack:
        if client is None:
            client = stack.enter_context(dask_client(scheduler, workers))
        watched = [w for w in map(watch, sources) if w is not None]  # (before the sizes are planned)
        tasks = plan(sources, range_bytes or auto_range_bytes(client, sources))
        futs = [
            client.submit(count_range, i, src, nominal, size, pat, specials, allow_nul=allow_nul, pure=False)
            for i, src, nominal, size in tasks
        ]
        final, every = tree_reduce(client, futs)
        with StallWatch(client, every) as stall:  # a worker that stops answering: named, not waited for
            try:
                if progress_bar:
                    show_progress(every)
                result: RangeCounts = final.result()
            except Exception:
                stall.check()
                raise
        stall.check()
        n_workers = len(client.scheduler_info().get("workers", {})) or 1
    for w in watched:  # truncated, grown or rewritten while the workers read it
        w.check()
    table = result.table
    # no column holds a null (each row is a counted pre-token), which Arrow's types cannot say
    tokens = cast("list[bytes]", table["token"].to_pylist())
    counts = cast("list[int]", table["count"].to_pylist())
    pos = cast("list[int]", table["pos"].to_pylist())
    mask = (1 << POS_BITS) - 1
    meta = CountsMeta(
        pat,
        specials,
        tuple(sources),
        tool_version(),
        result.n_bytes,
        result.invalid_bytes,
        result.n_special,
        result.chunks,
    )
    return PretokenCounts(
        tokens, counts, [p >> POS_BITS for p in pos], [p & mask for p in pos], meta, n_workers
    )


# ---------------------------------------------------------------------------- encoding into shards
_ENCODERS: dict[str, ArrayEncoder] = {}  # per worker process: encoders by run key, built once


@dataclass(frozen=True)
class Shard:
    """One ``.npy`` shard: the ids of bytes ``[start, end)`` of ``source``."""

    file: str
    source: str
    start: int
    end: int
    tokens: int


@dataclass(frozen=True)
class Manifest:
    """What :func:`encode_dask` wrote: shards in order (their ids concatenated = the whole corpus)."""

    path: Path
    dtype: str
    shards: tuple[Shard, ...]

    @property
    def n_tokens(self) -> int:
        return sum(s.tokens for s in self.shards)

    @property
    def n_bytes(self) -> int:
        return sum(s.end - s.start for s in self.shards)


def encode_range(
    key: str,
    spec,
    source: str,
    nominal: tuple[int, int],
    size: int,
    out: str,
    dtype: str,
    block_bytes: int = BLOCK_BYTES,
) -> tuple[int, int, int]:
    """Task: encode one byte range into the shard ``out`` (written atomically); (start, end, tokens)."""
    import numpy as np

    from core.tokenization.npy import npy_header

    enc = _ENCODERS.get(key)
    if (
        enc is None
    ):  # (as core.tokenization.npy encodes: ids as arrays, a word cache kept from range to range)
        from core.tokenization.array_encode import ArrayEncoder
        from core.tokenization.tokenizer import Tokenizer

        _ENCODERS.clear()
        enc = _ENCODERS[key] = ArrayEncoder(Tokenizer.from_spec(spec))
    tok = enc.tok
    specials = tuple(tok.special_tokens)
    cuts = encode_cuts(tok)
    newlines, cut_at = cuts if cuts is not None else (False, frozenset())
    le = np.dtype(dtype).newbyteorder("<")
    n = 0
    tmp = f"{out}.tmp{os.getpid()}"
    with contextlib.closing(open_source(source)) as f, open(tmp, "wb") as w:
        start, end = range_bounds(f, nominal[0], nominal[1], size, specials, newlines, cut_at)
        if start == 0:
            refuse_compressed(
                f.read(16), source, "encode --tokenizer TOKENIZER - --out ids.npy (local engine)"
            )
        w.write(npy_header(0, dtype))
        for block in iter_blocks(
            _RangeReader(f, start, end),
            list(specials),
            tokenizer_rule(tok, block_rule(tok.pattern_regex)),
            block_bytes,
        ):
            ids = enc.encode(block.decode("utf-8", "surrogateescape")).astype(le)
            w.write(ids.tobytes())
            n += len(ids)
        w.seek(0)
        w.write(npy_header(n, dtype))
    os.replace(tmp, out)
    return start, end, n


def encode_dask(
    tokenizer,
    inputs: list[str],
    out_dir: str | os.PathLike,
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    range_bytes: int | None = None,
    progress_bar: bool = False,
    client=None,
) -> Manifest:
    """Encode files/globs/URLs on a Dask cluster into ``out_dir/shard-NNNNN.npy`` + ``manifest.json``.

    The shards' ids, concatenated in manifest order, equal :func:`core.tokenization.npy.encode_file_to_npy` of
    each input file in turn. ``out_dir`` must be reachable by every worker (shared storage).
    """
    import json
    import uuid

    need_dask()
    out = Path(out_dir)
    if not out.parent.is_dir():
        raise CountsError(f"folder {str(out.parent)!r} does not exist; create it first")
    if out.exists() and not out.is_dir():
        raise CountsError(f"{str(out)!r} is a file; with --engine dask, --out is a folder for the shards")
    if out.suffix.lower() == ".npy" and not out.exists():
        raise CountsError(
            f"with --engine dask, --out is a folder for the shards (shard-00000.npy, …, "
            f"manifest.json); give a folder name, not the file name {out.name!r}"
        )
    sources = cluster_inputs([os.fspath(x) for x in inputs])
    from core.files import check_shard_folder

    check_shard_folder(out, sources)
    out.mkdir(exist_ok=True)
    old_files = _take_back_manifest(out)  # (an interrupted run then leaves no manifest over mixed shards)
    dtype = "uint16" if max(tokenizer.vocab, default=0) < (1 << 16) else "uint32"
    key = uuid.uuid4().hex
    with contextlib.ExitStack() as stack:
        if client is None:
            client = stack.enter_context(dask_client(scheduler, workers))
        step = range_bytes or auto_range_bytes(client, sources)
        if encode_cuts(tokenizer) is None:  # (one range per file)
            step = max([step, *map(source_size, sources)])
        watched = [w for w in map(watch, sources) if w is not None]  # (before the sizes are planned)
        tasks = plan(sources, step)
        names = [f"shard-{i:05d}.npy" for i in range(len(tasks))]
        spec = scatter_watched(client, tokenizer.to_spec(), hash=False)  # (a new key each run: the
        # same spec scattered again would share the key that the last run is still releasing)
        futs = [
            client.submit(encode_range, key, spec, src, nominal, size, str(out / name), dtype, pure=False)
            for (_, src, nominal, size), name in zip(tasks, names)
        ]
        with StallWatch(client, futs) as stall:  # a worker that stops answering: named, not waited for
            try:
                if progress_bar:
                    show_progress(futs)
                done = client.gather(futs)
            except Exception as e:
                stall.check()
                _name_missing_byte(e, tokenizer, sources)
                raise
        stall.check()
    for w in watched:  # truncated, grown or rewritten while the workers read it (no manifest is written)
        w.check()
    shards = tuple(Shard(name, src, s, e, n) for (_, src, _, _), name, (s, e, n) in zip(tasks, names, done))
    manifest = {
        "format": "bpe-explorer-shards",
        "version": 1,
        "dtype": dtype,
        "tokens": sum(s.tokens for s in shards),
        "tool": tool_version(),
        "shards": [s.__dict__ for s in shards],
    }
    path = out / "manifest.json"
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(manifest, indent=1, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)
    for name in old_files.difference(names):  # shards of an earlier run that this one did not rewrite
        (out / name).unlink(missing_ok=True)
    return Manifest(path, dtype, shards)


def _name_missing_byte(e: BaseException, tokenizer, sources: list) -> None:
    """A worker's "no token for a byte" error, raised again naming the local file, the byte and its
    offset in the file (the worker knew only a character index in its byte range)."""
    from core.tokenization.missing_bytes import is_missing_byte, locate

    if not is_missing_byte(e):
        return
    holes = getattr(tokenizer, "unencodable_bytes", ())
    for src in sources:
        if isinstance(src, str) and Path(src).is_file():  # (a URL's bytes are not read again here)
            better = locate(src, src, "the tokenizer", holes)
            if better is not None:
                raise better from None


def _take_back_manifest(out: Path) -> set[str]:
    """Remove ``out``'s manifest of an earlier run; the names of the shards it listed."""
    import json

    path = out / "manifest.json"
    try:
        files = {str(s["file"]) for s in json.loads(path.read_text(encoding="utf-8"))["shards"]}
    except (OSError, ValueError, KeyError, TypeError):
        files = set()
    path.unlink(missing_ok=True)
    return {f for f in files if Path(f).name == f and f.startswith("shard-")}  # (only our own names)


def load_shards(manifest: str | os.PathLike):
    """All ids of a manifest's shards, concatenated in order (a NumPy array)."""
    import json

    import numpy as np

    path = Path(manifest)
    if path.is_dir():
        path = path / "manifest.json"
    if not path.is_file():
        raise CountsError(
            f"{str(path)!r} does not exist: the encode that writes it did not finish (or this is "
            "not its folder); run 'encode --engine dask' again"
        )
    m = json.loads(path.read_text(encoding="utf-8"))
    parts = [np.load(path.parent / s["file"]) for s in m["shards"]]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=m["dtype"])
