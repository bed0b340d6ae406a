"""Counts files in Parquet: write, read (any row order, Spark's folders of parts), sum, reduce.

The schema is described in :mod:`core.scale.counts`. pyarrow is imported only here (the ``scale`` extra).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from core.files import new_temp, publish, refuse_empty_path
from core.pretokenization.patterns import pattern_name
from core.scale.counts_schema import META_KEY, POS_BITS, CountsError, CountsMeta, PretokenCounts, need_pyarrow


class _TokenTwice(CountsError):
    """A token on two rows."""


def to_arrow(c: PretokenCounts):
    pa = need_pyarrow()
    columns = {"token": pa.array(c.tokens, pa.binary()), "count": pa.array(c.counts, pa.int64())}
    if c.meta.positions:
        columns |= {
            "first_file": pa.array(c.files, pa.int32()),
            "first_offset": pa.array(c.offsets, pa.int64()),
        }
    return pa.table(columns).replace_schema_metadata({META_KEY: c.meta.to_json()})


def from_arrow(table, meta: CountsMeta | None, name: str = "counts") -> PretokenCounts:
    """Rows of a counts table (any order, any integer widths) → sorted :class:`PretokenCounts`."""
    pa = need_pyarrow()
    import pyarrow.compute as pc

    want = {"token", "count", "first_file", "first_offset"}
    missing = want - set(table.column_names)
    positions = not missing & {"first_file", "first_offset"}
    if missing == {"first_file", "first_offset"}:  # (a plain word count: rows in file order)
        table = table.append_column("first_file", pa.array([0] * table.num_rows, pa.int32()))
        table = table.append_column("first_offset", pa.array(range(table.num_rows), pa.int64()))
    elif missing:
        hint = (
            "; the tokens look like a pandas index: write df.reset_index(names='token')"
            if "token" in missing and "__index_level_0__" in table.column_names
            else ""
        )
        raise CountsError(
            f"{name} lacks the column(s) {', '.join(sorted(missing))}; a counts file has "
            "token (binary), count (int64), and first_file (int32), first_offset (int64) for the "
            f"'first' tie rule (both or neither){hint}",
            code="counts_columns",
            name=name,
            columns=", ".join(sorted(missing)),
        )
    try:
        table = table.select(["token", "count", "first_file", "first_offset"]).cast(
            pa.schema(
                [
                    ("token", pa.binary()),
                    ("count", pa.int64()),
                    ("first_file", pa.int32()),
                    ("first_offset", pa.int64()),
                ]
            )
        )
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
        raise CountsError(
            f"{name}: column types do not fit the counts schema ({e})",
            code="counts_types",
            name=name,
            detail=str(e),
        ) from e
    if table.num_rows and (
        table["token"].null_count or table["count"].null_count or pc.min(table["count"]).as_py() < 1
    ):
        raise CountsError(
            f"{name}: every row needs a token and a count of at least 1", code="counts_rows", name=name
        )
    if table.num_rows and pc.count_distinct(table["token"]).as_py() != table.num_rows:
        raise _TokenTwice(
            f"{name} lists a token twice; sum the rows per token (group by token)",
            code="counts_token_twice",
            name=name,
        )
    n_files = _check_positions(table, meta, name)
    order = pc.sort_indices(table, [("first_file", "ascending"), ("first_offset", "ascending")])
    table = table.take(order)
    if meta is None:
        meta = CountsMeta(None, (), _file_names(name, n_files), known=False)
    elif not meta.sources:  # (metadata without its list of files: one name per file index)
        meta = replace(meta, sources=_file_names(name, n_files))
    if not positions:
        meta = replace(meta, positions=False)
    return PretokenCounts(
        table["token"].to_pylist(),
        table["count"].to_pylist(),
        table["first_file"].to_pylist(),
        table["first_offset"].to_pylist(),
        meta,
    )


def _file_names(name: str, n_files: int) -> tuple[str, ...]:
    """Names for the files of a counts file that does not list them: ``name``, or ``name#0``, ``name#1`` …"""
    return (name,) if n_files <= 1 else tuple(f"{name}#{i}" for i in range(n_files))


def _check_positions(table, meta: CountsMeta | None, name: str) -> int:
    """Check the first positions (no nulls, not negative, file indices within ``sources``); returns
    the number of files the rows refer to. Summing shifts file indices by the number of sources, so
    an index past them would silently interleave two files' first-seen orders."""
    import pyarrow.compute as pc

    if not table.num_rows:
        return 0
    if table["first_file"].null_count or table["first_offset"].null_count:
        raise CountsError(
            f"{name}: first_file and first_offset need a value in every row (the file index and "
            "byte offset of the token's first occurrence)",
            code="counts_first_null",
            name=name,
        )
    lowest_file, highest_file = pc.min(table["first_file"]).as_py(), pc.max(table["first_file"]).as_py()
    if lowest_file < 0 or pc.min(table["first_offset"]).as_py() < 0:
        raise CountsError(
            f"{name}: first_file and first_offset must be at least 0", code="counts_first_negative", name=name
        )
    n_files = int(highest_file) + 1
    if meta is not None and meta.sources and n_files > len(meta.sources):
        raise CountsError(
            f"{name}: first_file goes up to {n_files - 1} but the metadata lists "
            f"{len(meta.sources)} source file(s); list every file in 'sources', in order",
            code="counts_first_sources",
            name=name,
            highest=n_files - 1,
            count=len(meta.sources),
        )
    return n_files


def check_out(path: str | os.PathLike) -> Path:
    """The output path of a counts file, refused early when it cannot be written."""
    refuse_empty_path(path, "--out")
    out = Path(path)
    if not out.parent.is_dir():
        raise CountsError(f"folder {str(out.parent)!r} does not exist; create it first")
    if out.is_dir():
        raise CountsError(f"{str(out)!r} is a folder; give a file name such as counts.parquet")
    if not os.access(out.parent, os.W_OK | os.X_OK):
        raise CountsError(
            f"cannot write {str(out)!r}: folder {str(out.parent)!r} is not writable; choose another folder"
        )
    return out


def write_counts(c: PretokenCounts, path: str | os.PathLike) -> Path:
    """Write a counts file atomically (a temp file in the same folder, then renamed)."""
    pa = need_pyarrow()
    import pyarrow.parquet as pq

    out = check_out(path)
    tmp = None
    try:
        fd, tmp = new_temp(out)
        os.close(fd)
        pq.write_table(to_arrow(c), tmp, compression="zstd")
        publish(tmp, out)
    except (OSError, pa.ArrowException) as e:
        raise CountsError(
            f"cannot write {str(out)!r}: {e}; check the folder's free space and permissions "
            "(no counts file was written; an earlier one there is unchanged)"
        ) from e
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
    return out


def read_counts(path: str | os.PathLike, *, require_meta: bool = False) -> PretokenCounts:
    """Read a counts file (a Parquet file, or a folder of Parquet parts as Spark writes)."""
    pa = need_pyarrow()
    import pyarrow.parquet as pq

    name = os.fspath(path)
    if not os.path.exists(name):
        raise CountsError(
            f"counts file {name!r} does not exist; check the path", code="counts_missing", path=name
        )
    if os.path.isdir(name) and not any(
        p.is_file() and not p.name.startswith(("_", ".")) for p in Path(name).rglob("*")
    ):  # (Spark's _SUCCESS and .crc files are not data)
        raise CountsError(
            f"{name!r} is a folder without data files; give a counts file made by 'count', or a folder "
            "of Parquet parts (as Spark or Dask write them)",
            code="counts_empty_folder",
            path=name,
        )
    try:
        try:
            table = pq.read_table(name)
        except pa.ArrowTypeError:
            if not os.path.isdir(name):
                raise
            # a partition column (key=value folders) that the part files also hold, as polars writes
            # them: the files' own columns are the table
            table = pq.read_table(name, partitioning=None)
    except (OSError, pa.ArrowException) as e:
        raise CountsError(
            f"{name} is not a readable Parquet counts file ({e})",
            code="counts_unreadable",
            name=name,
            detail=str(e),
        ) from e
    raw = (table.schema.metadata or {}).get(META_KEY)
    if raw is None and os.path.isdir(name):  # a dataset folder: metadata in any part file
        for part in sorted(Path(name).glob("**/*.parquet")):
            raw = (pq.read_schema(part).metadata or {}).get(META_KEY)
            if raw is not None:
                break
    if raw is None and require_meta:
        raise CountsError(
            f"{name} has no 'bpe_explorer' metadata; pass the pattern and special tokens it was counted with",
            code="counts_no_meta",
            name=name,
        )
    meta = CountsMeta.from_json(raw, name) if raw is not None else None
    try:
        return from_arrow(table, meta, name)
    except _TokenTwice:
        if os.path.isdir(name):
            records = {
                (pq.read_schema(part).metadata or {}).get(META_KEY)
                for part in Path(name).glob("**/*.parquet")
            }
            if len(records - {None}) > 1:  # (one job writes one record to all its parts)
                raise CountsError(
                    f"{name} holds the counts of {len(records - {None})} separate runs (their part "
                    "files carry different metadata); pass each file as its own --counts (they are "
                    "summed), not the folder",
                    code="counts_several_runs",
                    name=name,
                    count=len(records - {None}),
                ) from None
        raise


def sum_counts(parts: Iterable[PretokenCounts]) -> PretokenCounts:
    """Sum counts (counts add, first occurrence = the earliest); file indices follow the parts' order.

    Refuses parts counted with different patterns or special tokens (their counts do not add up).
    """
    parts = list(parts)
    if not parts:
        raise CountsError("no counts to sum")
    if len(parts) == 1:
        return parts[0]
    pa = need_pyarrow()
    m0 = parts[0].meta
    tables = []
    shift = 0
    for i, p in enumerate(parts):
        m = p.meta
        if m.pattern != m0.pattern:
            raise CountsError(
                f"counts #{i + 1} ({', '.join(m.sources[:2])}) used pattern "
                f"{pattern_name(m.pattern)!r}, counts #1 {pattern_name(m0.pattern)!r}: "
                "count every part with the same pattern"
            )
        if set(m.special_tokens) != set(m0.special_tokens):
            raise CountsError(
                f"counts #{i + 1} used special tokens {list(m.special_tokens)}, counts #1 "
                f"{list(m0.special_tokens)}: count every part with the same special tokens"
            )
        pos = [((f + shift) << POS_BITS) | o for f, o in zip(p.files, p.offsets)]
        tables.append(
            pa.table(
                {
                    "token": pa.array(p.tokens, pa.binary()),
                    "count": pa.array(p.counts, pa.int64()),
                    "pos": pa.array(pos, pa.int64()),
                }
            )
        )
        shift += len(m.sources)
    if shift >= 1 << (63 - POS_BITS) or max(max(p.offsets, default=0) for p in parts) >= 1 << POS_BITS:
        raise CountsError("too many files or too large offsets to sum (limits: 8M files, 1 TiB per file)")
    merged = reduce_tables(tables)
    pos = merged["pos"].to_pylist()
    meta = CountsMeta(
        m0.pattern,
        m0.special_tokens,
        tuple(s for p in parts for s in p.meta.sources),
        m0.tool,
        sum(p.meta.size_bytes for p in parts),
        sum(p.meta.invalid_bytes for p in parts),
        sum(p.meta.special_occurrences for p in parts),
        sum(p.meta.chunks for p in parts),
        positions=all(p.meta.positions for p in parts),
    )
    mask = (1 << POS_BITS) - 1
    return PretokenCounts(
        merged["token"].to_pylist(),
        merged["count"].to_pylist(),
        [x >> POS_BITS for x in pos],
        [x & mask for x in pos],
        meta,
    )


def reduce_tables(tables: list):
    """Arrow tables (token, count, pos) → one row per token (summed counts, least pos), sorted by pos."""
    pa = need_pyarrow()
    import pyarrow.compute as pc

    # tables that came through pickle (from Dask workers) may sit in buffers that Acero finds
    # poorly aligned: let it copy them instead of printing a warning per table
    os.environ.setdefault("ACERO_ALIGNMENT_HANDLING", "reallocate")
    t = pa.concat_tables(tables) if len(tables) > 1 else tables[0]
    g = t.group_by("token").aggregate([("count", "sum"), ("pos", "min")])
    g = g.rename_columns({"count_sum": "count", "pos_min": "pos"})
    return g.take(pc.sort_indices(g, [("pos", "ascending")]))
