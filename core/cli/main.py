"""The command-line tools of the core: ``train``, ``encode``, ``count`` and ``eval`` (``python -m core.cli train ...``).

The ``bpe-explorer`` command is :mod:`bpe_gui.cli`: it adds ``gui`` and ``screenshot`` to the parser
built here (one argparse tree) and hands every other command back to :func:`run`. The core never
imports the app.

User errors print one line on stderr and exit with status 2 (no traceback). Progress bars go to
stderr, so stdout stays clean for the summary line.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from core.cli import arg_types
from core.cli.eval import add_parser as add_eval_parser
from core.cli.eval import run as run_eval
from core.cli.explore import (
    add_audit_parser,
    add_compare_parser,
    add_extend_argument,
    add_inspect_parser,
    add_trace_parser,
    run_audit,
    run_compare,
    run_inspect,
    run_trace,
    run_train_extend,
)
from core.cli.export_notes import say_losses, say_reading_notes, say_stale, tiktoken_fits
from core.cli.input_guard import check_text_input, tokenizer_inputs
from core.cli.progress import Progress
from core.errors import BPEError, Cancelled
from core.files import check_not_inputs, check_shard_folder

EXIT_USAGE = 2
_Progress = Progress  # (the name the commands use)


def _say_memory_need(counts, progress: Progress, merges: int, *, quiet: bool) -> tuple[str, int]:
    """Before the trainer is built: which merge loop fits (:func:`core.training.memory_need.lean_engine`)
    and how much memory it will need for ``merges`` merges (a warning, even with ``-q``, when that is
    more than the machine has). Returns the loop's name and the words' bytes."""
    from core.pretokenization.sharded_count import word_bytes as words_bytes
    from core.training.memory_need import describe_need, lean_engine, too_much

    distinct, word_bytes = len(counts), words_bytes(counts)
    engine = lean_engine(distinct, word_bytes, merges)
    warning = too_much(distinct, word_bytes, merges, engine=engine)
    if warning is None and not quiet:
        progress.close()  # (the pre-tokenize bar ends before the line)
        print(describe_need(distinct, word_bytes, merges, engine=engine), file=sys.stderr, flush=True)
    elif warning is not None:
        progress.close()
        print(warning, file=sys.stderr, flush=True)
    return engine, word_bytes


def _train(args: argparse.Namespace) -> int:
    from core.cli.count import counts_trainer
    from core.formats import FORMATS, check_replaceable, parse_formats
    from core.formats.partial_export import export_what_fits, non_utf8_specials_error, one_byte_specials
    from core.formats.spec import spec_from_trainer
    from core.pretokenization.pattern_probe import check_training_pattern
    from core.pretokenization.pretokenize import count_pretokens_ordered
    from core.training.trainer import Trainer, check_vocab_size

    chosen = args.format is not None  # (--format given: a format that cannot hold it is refused)
    args.format = args.format or ",".join(FORMATS)
    if args.extend:
        check_not_inputs(  # (the extended files may not replace the corpus or the base tokenizer)
            export_targets(args.out, parse_formats(args.format)),
            [*([args.corpus] if args.corpus and args.corpus != "-" else []), *tokenizer_inputs(args.extend)],
        )
        if not args.force:  # (another tokenizer's files in --out: said before the run, not after it)
            check_replaceable(args.out, parse_formats(args.format))
        return run_train_extend(args, _Progress(not args.quiet), special_token_arg)
    if args.corpus and str(args.corpus).lower().endswith(".parquet"):  # (it was called a binary file)
        raise BPEError(
            f"{args.corpus} is a counts file (bpe-explorer count): train from it with "
            f"--counts {args.corpus}, not as a corpus"
        )
    formats = parse_formats(args.format)
    check_vocab_size(args.vocab_size, len(args.special_token))
    if not args.counts:  # (a pattern given to train with; a counts file's is the file's)
        check_training_pattern("gpt2" if args.pattern is None else args.pattern)
    left_out = None
    if not args.counts:  # (said before the run; a counts file's pattern once it is read)
        formats, left_out = tiktoken_fits(
            args.pattern or "gpt2", formats, chosen, args.allow_lossy, args.special_token
        )
    for check in (one_byte_specials, non_utf8_specials_error):  # (found after hours of training before)
        clash = check(args.special_token, formats)
        if clash is not None:
            raise clash
    check_out_folder(args.out)  # before the run, not after it
    check_not_inputs(
        export_targets(args.out, formats), [*([args.corpus] if args.corpus else []), *args.counts]
    )
    if not args.force:  # (another tokenizer's files in --out: said before the run, not after it)
        check_replaceable(args.out, formats)
    progress = _Progress(not args.quiet)
    t0 = time.perf_counter()
    try:
        if args.counts:
            trainer = counts_trainer(args)
        elif args.corpus is None:
            raise BPEError("give a corpus file to train on (or --counts FILE)")
        else:
            pattern = "gpt2" if args.pattern is None else args.pattern
            counts, stats = count_pretokens_ordered(
                args.corpus,
                args.special_token,
                pattern,
                workers=args.workers,
                progress=progress,
                allow_nul=args.allow_nul,
            )
            merges = args.vocab_size - 256 - len(args.special_token)
            engine, word_bytes = _say_memory_need(counts, progress, merges, quiet=args.quiet)
            if engine == "flat":
                from core.training.flat import lean_merger

                trainer = lean_merger(
                    counts,
                    args.tie_break,
                    args.special_token,
                    pattern=pattern,
                    stats=stats,
                    vocab_size=args.vocab_size,
                    word_bytes=word_bytes,
                )
            else:
                trainer = Trainer(
                    counts,
                    args.special_token,
                    pattern=pattern,
                    tie_break=args.tie_break,
                    keep_history=False,
                    stats=stats,
                )
            del counts  # (the trainer keeps the words' bytes in a buffer of its own)
        for check in (one_byte_specials, non_utf8_specials_error):  # (those of a counts file)
            clash = check(trainer.special_tokens, formats)
            if clash is not None:
                raise clash
        if args.counts:
            formats, left_out = tiktoken_fits(
                trainer.pattern, formats, chosen, args.allow_lossy, trainer.special_tokens
            )
        trainer.run(args.vocab_size, progress=progress, min_interval=10)
        progress.finish("merge")
    finally:
        progress.close()
    elapsed = time.perf_counter() - t0
    source = "<stdin>" if args.corpus == "-" else Path(args.corpus or args.counts[0]).name
    spec = spec_from_trainer(trainer, source)
    written, failed = export_what_fits(
        args.out, spec, formats, replace_others=args.force, lossy=args.allow_lossy
    )
    s = trainer.stats
    for corpus_note in s.notes:  # (a byte-order mark kept as bytes, …: said, not only in the app)
        print(f"bpe-explorer: note: {source}: {corpus_note}", file=sys.stderr)
    note = (
        ""
        if trainer.vocab_size == args.vocab_size
        else (f" (the corpus ran out of pairs: final vocab size {trainer.vocab_size:,})")
    )
    if s.size_bytes == 0 and s.pretokens == 0:
        note = " (the corpus is empty: the vocab is the 256 bytes and the special tokens only)"
    elif s.pretokens == 0:
        note = " (the corpus holds no text outside its special tokens: no pairs to merge)"
    # (a counts file written without our metadata, e.g. by Spark, does not know the corpus size)
    size = (
        f"{s.size_bytes:,} bytes"
        if s.size_bytes or not args.counts
        else f"{s.pretokens:,} counted pre-tokens"
    )
    print(
        f"trained {len(trainer.merges):,} merges, vocab size {trainer.vocab_size:,}{note} in {elapsed:.2f}s "
        f"on {size} ({s.distinct_pretokens:,} distinct pre-tokens, {s.invalid_bytes:,} invalid UTF-8 byte{'' if s.invalid_bytes == 1 else 's'})"
    )
    for path in (p for paths in written.values() for p in paths):
        print(f"wrote {path}")
    say_stale(args.out, written)
    say_losses(spec, written)
    say_reading_notes(spec, written)
    if left_out:
        print(f"bpe-explorer: note: {left_out}", file=sys.stderr)
    for fmt, why in failed.items():  # the other formats are written: the run is not lost
        print(f"bpe-explorer: error: the {fmt} format was not written: {why}", file=sys.stderr)
    return EXIT_USAGE if failed else 0


def special_token_arg(values: list[str]) -> list[str] | dict[str, int] | None:
    """``--special-token`` values: plain tokens, or all ``TOKEN=ID`` (ids for files that store none,
    e.g. an unknown tiktoken file: ``--special-token '<|endoftext|>=100257'``).

    >>> special_token_arg(["<|a|>=5", "<b>=7"])
    {'<|a|>': 5, '<b>': 7}
    """
    if not values:
        return None
    with_ids = [v.rpartition("=") for v in values]
    if not any(sep and tail.strip().isdigit() for _, sep, tail in with_ids):
        return list(values)
    out: dict[str, int] = {}
    for v, (head, sep, tail) in zip(values, with_ids):
        if not (sep and head and tail.strip().isascii() and tail.strip().isdigit()):
            raise BPEError(
                f"--special-token {v!r}: give every special token as TOKEN=ID when one has an id "
                "(e.g. '<|endoftext|>=100257')"
            )
        out[head] = int(tail)
    return out


def _encode(args: argparse.Namespace) -> int:
    from core.cli.count import check_local_options, run_encode_dask
    from core.files import NPY_MAGIC, check_replace_file
    from core.formats import load_any
    from core.tokenization.npy import encode_file_to_npy
    from core.tokenization.tokenizer import Tokenizer

    for path in args.input:  # (UTF-16 or binary data: refused, as train does, not turned into ids)
        check_text_input(path, allow_nul=args.allow_nul, compressed_ok=True)
    if args.engine != "dask":
        check_local_options(args)
        if len(args.input) > 1:
            raise BPEError("encode writes one file into one .npy; for several files use --engine dask")
        args.out = str(check_out_file(args.out))  # (a quoted ~ is the home folder here as in the shell)
        check_not_inputs([(args.out, "--out")], [*args.input, *tokenizer_inputs(args.tokenizer)])
        check_replace_file(
            args.out, ".npy file", lambda head: head.startswith(NPY_MAGIC), what="--out", force=args.force
        )
    else:
        check_shard_folder(args.out, [*args.input, *tokenizer_inputs(args.tokenizer)])
    spec = load_any(
        args.tokenizer, special_tokens=special_token_arg(args.special_token), pattern=args.pattern
    )
    tok = Tokenizer.from_spec(spec)
    for note in (*spec.notes, *tok.notes):  # what the loader assumed; truncation/padding not applied …
        print(f"bpe-explorer: note: {note}", file=sys.stderr)
    if not spec.special_tokens:  # (<|endoftext|> in the text, read as plain text: said, from its first MiB)
        from core.cli.input_guard import special_like_note
        from core.formats import detect_format

        hint = special_like_note(args.input[0], detect_format(args.tokenizer) == "tiktoken")
        if hint is not None:
            print(f"bpe-explorer: note: {plurals(hint)}", file=sys.stderr)
    if args.engine == "dask":
        return run_encode_dask(args, tok)
    progress = _Progress(not args.quiet)
    t0 = time.perf_counter()
    try:
        result = encode_file_to_npy(tok, args.input[0], args.out, workers=args.workers, progress=progress)
    finally:
        progress.close()
    dt = time.perf_counter() - t0
    print(
        f"encoded {result.n_bytes:,} bytes into {result.n_tokens:,} tokens ({result.dtype}) in {dt:.2f}s "
        f"-> {_written_npy(result.path)}"
    )
    return 0


def _written_npy(path: str | os.PathLike) -> str:
    """The .npy file encode wrote, named whole; a name without ``.npy`` is kept as given (numpy's
    ``save`` would add the suffix, ``load`` reads it as it is), and said to be a .npy all the same."""
    p = Path(os.path.abspath(path))
    if p.suffix.lower() == ".npy":
        return str(p)
    return f"{p} (a NumPy .npy array, under the name given: no .npy suffix was added)"


def _convert(args: argparse.Namespace) -> int:
    from core.formats import check_lossless, check_replaceable, export_losses, load_any, parse_formats
    from core.formats.losses import reading_notes
    from core.formats.partial_export import export_what_fits

    formats = parse_formats(args.format)
    check_out_folder(args.out)
    check_not_inputs(export_targets(args.out, formats), tokenizer_inputs(args.tokenizer))
    if not args.force:
        check_replaceable(args.out, formats)
    spec = load_any(
        args.tokenizer, special_tokens=special_token_arg(args.special_token), pattern=args.pattern
    )
    for note in () if args.quiet else spec.notes:
        print(f"bpe-explorer: note: {note}", file=sys.stderr)
    if not args.allow_lossy:
        check_lossless(spec, formats)  # refused (nothing written): --allow-lossy, or other formats
    # a format that cannot hold this tokenizer at all (vocab.json of a SentencePiece model, whose byte
    # pieces repeat other tokens' bytes) is left out and named; the others are written
    written, failed = export_what_fits(args.out, spec, formats, replace_others=args.force, lossy=True)
    for fmt in formats:
        if fmt in failed:
            continue
        for lost in export_losses(spec, fmt):
            print(f"bpe-explorer: warning: the {fmt} files lack {plurals(lost)}", file=sys.stderr)
        for note in reading_notes(spec, fmt, written.get(fmt)):  # (what a reader must give: kept)
            print(f"bpe-explorer: note: {note}", file=sys.stderr)
    if written:
        print(f"wrote {', '.join(str(p) for paths in written.values() for p in paths)}")
        say_stale(args.out, written)
    for fmt, why in failed.items():
        print(f"bpe-explorer: error: the {fmt} format was not written: {why}", file=sys.stderr)
    if failed:
        fits = [f for f in formats if f not in failed]
        if fits:
            print(f"bpe-explorer: note: --format {','.join(fits)} writes only what fits", file=sys.stderr)
        return EXIT_USAGE
    return 0


def export_targets(out: str, formats: list[str]) -> list[tuple[Path, str]]:
    """The files an export of ``formats`` into the folder ``out`` writes (for :func:`check_not_inputs`)."""
    from core.formats import FILE_NAMES

    return [(Path(out) / name, "--out") for fmt in formats for name in FILE_NAMES[fmt]]


def check_out_file(out: str) -> Path:
    """Refuse an output path that cannot take a file, before any work (not after a long run); the
    path to write (``~`` expanded)."""
    from core.files import check_out_file as check

    return check(out, "--out")


def check_out_folder(out: str) -> None:
    """Refuse an output folder that cannot be made or written (a file, a path under a file, read-only)."""
    from core.files import check_out_folder as check

    check(out, "--out")


def _count(args: argparse.Namespace) -> int:
    from core.cli.count import run_count

    return run_count(args, _Progress(not args.quiet))


def _audit(args: argparse.Namespace) -> int:
    return run_audit(args, _Progress(not args.quiet, {"replay": ("replay", "merge", False)}))


def _inspect(args: argparse.Namespace) -> int:
    return run_inspect(
        args, _Progress(not args.quiet, {"inspect": ("inspect", "token", False)}), special_token_arg
    )


def _compare(args: argparse.Namespace) -> int:
    return run_compare(args, _Progress(not args.quiet))


def _trace(args: argparse.Namespace) -> int:
    return run_trace(args, _Progress(not args.quiet, {"search": ("search", "B", True)}))


def version() -> str:
    """The installed version of the ``bpe-explorer`` distribution ("unknown" when not installed)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("bpe-explorer")
    except PackageNotFoundError:
        return "unknown"


def build_parser(prog: str = "bpe-explorer") -> argparse.ArgumentParser:
    """The parser of the core's commands (the app adds its own to its subparsers: :func:`commands`)."""
    from core.cli.count import add_count_parser, add_encode_arguments, add_train_arguments

    parser = argparse.ArgumentParser(
        prog=prog, description="Train, explore and export byte-level BPE tokenizers."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    sub = parser.add_subparsers(dest="command")

    t = sub.add_parser("train", help="train a tokenizer on a corpus file and export it")
    t.add_argument("corpus", nargs="?", help="the corpus (any UTF-8 text file; read as bytes)")
    t.add_argument(
        "--vocab-size", type=int, required=True, help="final vocab size (256 bytes + specials + merges)"
    )
    t.add_argument(
        "--special-token",
        action="append",
        default=[],
        metavar="T",
        help="a special token, e.g. '<|endoftext|>' (repeat for more)",
    )
    t.add_argument("--pattern", default=None, help="gpt2 (default), gpt4, none, or a custom regex")
    t.add_argument(
        "--tie-break",
        choices=["lexicographic", "first"],
        default="lexicographic",
        help="among equally frequent pairs: the greatest (CS336) or the first seen (minbpe)",
    )
    t.add_argument(
        "--workers",
        type=arg_types.workers,
        default=None,
        help="pre-tokenization processes (default: all cores)",
    )
    t.add_argument("--out", required=True, help="output folder")
    t.add_argument(
        "--force",
        action="store_true",
        help="replace tokenizer files in --out that bpe-explorer did not write there (refused by default)",
    )
    t.add_argument(
        "--format",
        default=None,
        help="comma-separated: gpt2,hf,tiktoken,native (default: all that can hold the tokenizer: no "
        "tiktoken file for a --pattern that does not match all text, as tiktoken drops the rest)",
    )
    t.add_argument(
        "--allow-lossy",
        action="store_true",
        help="write a tiktoken file even for a --pattern that does not match all text (tiktoken drops "
        "the text it does not match; refused by default, naming what would be lost)",
    )
    t.add_argument(
        "--allow-nul",
        action="store_true",
        help="accept a corpus with NUL bytes near its start (refused as binary by default)",
    )
    t.add_argument("-q", "--quiet", action="store_true", help="no progress bars")
    add_train_arguments(t)
    add_extend_argument(t)

    e = sub.add_parser("encode", help="encode a text file into a .npy of token ids")
    e.add_argument(
        "--tokenizer",
        required=True,
        help="a folder written by 'train', or any tokenizer file the app opens (tokenizer.json, vocab.json, *.tiktoken …)",
    )
    e.add_argument("input", nargs="+", help="the text file to encode (streamed); several with --engine dask")
    e.add_argument("--out", required=True, help="output .npy file (a folder with --engine dask)")
    e.add_argument(
        "--force",
        action="store_true",
        help="replace a file at --out that is not a .npy file (refused by default)",
    )
    e.add_argument(
        "--special-token",
        action="append",
        default=[],
        metavar="T",
        help="special tokens, for formats that do not store them (GPT-2 files, tiktoken); TOKEN=ID gives "
        "the id (e.g. '<|endoftext|>=100257' for an unknown tiktoken file); repeat for more",
    )
    e.add_argument("--pattern", default=None, help="pattern for formats that do not store it (default gpt2)")
    e.add_argument("--workers", type=arg_types.workers, default=None, help="processes (default: all cores)")
    e.add_argument(
        "--allow-nul",
        action="store_true",
        help="accept an input with NUL bytes near its start (refused as binary by default)",
    )
    e.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    add_encode_arguments(e)

    c = sub.add_parser("convert", help="read a tokenizer file (any supported format) and write it in others")
    c.add_argument(
        "tokenizer",
        help="a tokenizer file or folder (tokenizer.json, vocab.json, *.tiktoken, tokenizer.model, bpe.json …)",
    )
    c.add_argument("--out", required=True, help="output folder")
    c.add_argument(
        "--force",
        action="store_true",
        help="replace tokenizer files in --out that bpe-explorer did not write there (refused by default)",
    )
    c.add_argument(
        "--format",
        default="gpt2,hf,tiktoken,native",
        help="comma-separated: gpt2,hf,tiktoken,native (default: all)",
    )
    c.add_argument(
        "--special-token",
        action="append",
        default=[],
        metavar="T",
        help="as for encode: special tokens (TOKEN=ID) for files that do not store them",
    )
    c.add_argument("--pattern", default=None, help="pattern for formats that do not store it (default gpt2)")
    c.add_argument(
        "--allow-lossy",
        action="store_true",
        help="write formats that cannot hold all of the tokenizer (an imported tokenizer.json's "
        "normalizer, post-processor …; for tiktoken, a pattern that does not match all text); refused "
        "by default, naming what would be lost",
    )
    c.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no notes on what the loader assumed (convert shows no progress bars; warnings, and "
        "what a reader of the files must give, are still printed)",
    )
    add_count_parser(sub)
    add_eval_parser(sub)
    add_audit_parser(sub)
    add_inspect_parser(sub)
    add_compare_parser(sub)
    add_trace_parser(sub)
    return parser


def commands(parser: argparse.ArgumentParser) -> argparse._SubParsersAction:
    """The subparsers of a parser made by :func:`build_parser` (to add commands to the same tree)."""
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))


#: the commands :func:`run` carries out
HANDLERS = {
    "train": _train,
    "encode": _encode,
    "convert": _convert,
    "count": _count,
    "eval": run_eval,
    "audit": _audit,
    "inspect": _inspect,
    "compare": _compare,
    "trace": _trace,
}


def run(args: argparse.Namespace) -> int:
    """Carry out a parsed core command (user errors: one line on stderr, status 2)."""
    handler = HANDLERS[args.command]
    return guarded(lambda: handler(args))


def main(argv: list[str] | None = None) -> int:
    """``python -m core.cli COMMAND ...``: the core's commands only (the app is ``bpe-explorer``)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser("python -m core.cli")
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_usage(sys.stderr)
        print(
            "python -m core.cli: error: name a command (train, encode, convert, count, eval, audit, inspect, "
            "compare, trace); the desktop app is "
            "'bpe-explorer' or 'python -m bpe_gui'",
            file=sys.stderr,
        )
        return EXIT_USAGE
    return run(args)


def command_line_text(e: BPEError) -> str:
    """``e``'s message in the command line's words (its options, not the Python API's arguments)."""
    p = e.params
    if e.code == "corpus_binary" and {"name", "nul", "size"} <= p.keys():
        return (
            f"{p['name']} looks like a binary file ({p['nul']:,} NUL bytes in the first {p['size']:,} bytes); "
            "choose a UTF-8 text file, or pass --allow-nul if it is UTF-8 text that contains NUL bytes"
        )
    return str(e)


def plurals(text: str) -> str:
    """ "1 special token(s)" read as "1 special token" (core's messages write "(s)" after a count)."""
    from core.units import plurals as resolve

    return resolve(text)


def guarded(fn) -> int:
    try:
        return int(fn() or 0)
    except BPEError as e:
        print(f"bpe-explorer: error: {plurals(command_line_text(e))}", file=sys.stderr)
        return EXIT_USAGE
    except Cancelled as e:
        print(f"bpe-explorer: {e}", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print("bpe-explorer: interrupted", file=sys.stderr)
        return 130
    except OSError as e:
        print(f"bpe-explorer: error: {e.strerror or e}: {e.filename or ''}".rstrip(": "), file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
