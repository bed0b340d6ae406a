"""The ``count`` subcommand, ``train --counts`` and ``encode --engine dask`` (hooked into core/cli/main.py).

bpe-explorer count CORPUS… --out counts.parquet [--engine local|dask] [--scheduler ADDR] [--workers N]
bpe-explorer train --counts counts.parquet --vocab-size 32000 --out out/
bpe-explorer encode --tokenizer out/ CORPUS… --engine dask --out shards/
"""

from __future__ import annotations

import argparse
import sys
import time

from core.cli import arg_types
from core.errors import BPEError


def add_count_parser(sub) -> None:
    c = sub.add_parser("count", help="count the pre-tokens of corpus files into a counts file (Parquet)")
    c.add_argument("corpus", nargs="+", help="files, globs ('data/*.txt') or fsspec URLs (s3://…)")
    c.add_argument("--out", required=True, help="the counts file to write (.parquet)")
    c.add_argument(
        "--force",
        action="store_true",
        help="replace a file at --out that is not a Parquet file (refused by default)",
    )
    c.add_argument(
        "--engine",
        choices=["local", "dask"],
        default="local",
        help="local processes (default) or a Dask cluster",
    )
    c.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="Dask scheduler address, e.g. tcp://10.0.0.1:8786 (default: start a LocalCluster)",
    )
    c.add_argument(
        "--workers",
        type=arg_types.workers,
        default=None,
        help="processes here, or LocalCluster workers (default: all cores)",
    )
    c.add_argument(
        "--range-mb",
        type=float,
        default=None,
        help="with --engine dask: megabytes of a file per task (default: about 4 tasks per "
        "worker, 4 to 64 MB each)",
    )
    c.add_argument(
        "--special-token",
        action="append",
        default=[],
        metavar="T",
        help="a special token, e.g. '<|endoftext|>' (repeat for more)",
    )
    c.add_argument("--pattern", default="gpt2", help="gpt2 (default), gpt4, none, or a custom regex")
    c.add_argument(
        "--allow-nul",
        action="store_true",
        help="accept files with NUL bytes near their start (refused as binary by default)",
    )
    c.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def add_train_arguments(t) -> None:
    t.add_argument(
        "--counts",
        action="append",
        default=[],
        metavar="FILE",
        help="train on a counts file made by 'count' (repeat to sum several) instead of a corpus",
    )


def add_encode_arguments(e) -> None:
    e.add_argument(
        "--engine",
        choices=["local", "dask"],
        default="local",
        help="dask: encode on a cluster into .npy shards plus a manifest (--out is a folder)",
    )
    e.add_argument("--scheduler", default=None, metavar="ADDRESS", help="Dask scheduler address")
    e.add_argument(
        "--range-mb",
        type=float,
        default=None,
        help="with --engine dask: megabytes per shard (default: about 4 per worker, 4 to 64 MB)",
    )


def range_bytes(args: argparse.Namespace) -> int | None:
    if args.range_mb is None:
        return None
    if not args.range_mb > 0:
        raise BPEError("--range-mb must be more than 0")
    return max(1, int(args.range_mb * (1 << 20)))


def check_local_options(args: argparse.Namespace) -> None:
    """Refuse the Dask options without ``--engine dask`` (they would be ignored: a silent local run)."""
    given = [opt for opt, value in (("--scheduler", args.scheduler), ("--range-mb", args.range_mb)) if value]
    if given:
        raise BPEError(f"{' and '.join(given)} {'needs' if len(given) == 1 else 'need'} --engine dask")


def run_count(args: argparse.Namespace, progress) -> int:
    from core.files import PARQUET_MAGIC, check_not_inputs, check_replace_file
    from core.scale.counts import count_files
    from core.scale.counts_io import check_out, write_counts
    from core.scale.counts_schema import need_pyarrow

    need_pyarrow()  # counts files are Parquet: said before the corpus is read, not after
    check_out(args.out)  # before hours of counting
    check_not_inputs([(args.out, "--out")], args.corpus)
    check_replace_file(
        args.out, "Parquet file", lambda head: head.startswith(PARQUET_MAGIC), what="--out", force=args.force
    )
    t0 = time.perf_counter()
    if args.engine == "dask":
        from core.scale.dask_scale import count_dask

        counts = count_dask(
            args.corpus,
            args.special_token,
            args.pattern,
            scheduler=args.scheduler,
            workers=args.workers,
            range_bytes=range_bytes(args),
            progress_bar=not args.quiet,
            allow_nul=args.allow_nul,
        )
    else:
        check_local_options(args)
        try:
            counts = count_files(
                args.corpus,
                args.special_token,
                args.pattern,
                workers=args.workers,
                progress=progress,
                allow_nul=args.allow_nul,
            )
        finally:
            progress.close()
    path = write_counts(counts, args.out)
    for note in counts.notes:  # (a byte-order mark kept as bytes, …)
        print(f"bpe-explorer: note: {note}", file=sys.stderr)
    m = counts.meta
    print(
        f"counted {sum(counts.counts):,} pre-tokens ({len(counts.tokens):,} distinct) in {len(m.sources)} "
        f"file(s), {m.size_bytes:,} bytes, {m.invalid_bytes} invalid UTF-8 bytes, in "
        f"{time.perf_counter() - t0:.2f}s ({args.engine}) -> {path}"
    )
    return 0


def counts_trainer(args: argparse.Namespace):
    """The Trainer of ``train --counts``: the counts' pattern and special tokens unless given."""
    from core.scale.counts import KEEP, trainer_from_counts

    if args.corpus:
        raise BPEError("give either a corpus or --counts, not both")
    pattern = KEEP if args.pattern is None else args.pattern
    return trainer_from_counts(
        args.counts,
        args.special_token or None,
        pattern=pattern,
        tie_break=args.tie_break,
        keep_history=False,
        vocab_size=args.vocab_size,
    )


def run_encode_dask(args: argparse.Namespace, tokenizer) -> int:
    from core.scale.dask_scale import encode_dask

    t0 = time.perf_counter()
    m = encode_dask(
        tokenizer,
        args.input,
        args.out,
        scheduler=args.scheduler,
        workers=args.workers,
        range_bytes=range_bytes(args),
        progress_bar=not args.quiet,
    )
    print(
        f"encoded {m.n_bytes:,} bytes into {m.n_tokens:,} tokens ({m.dtype}) in {len(m.shards)} shard{'s' if len(m.shards) != 1 else ''} in "
        f"{time.perf_counter() - t0:.2f}s -> {m.path}"
    )
    return 0
