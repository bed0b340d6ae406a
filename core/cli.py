"""The ``bpe-explorer`` command: the GUI with no arguments, else ``train``, ``encode``, ``eval``, ``screenshot``.

User errors print one line on stderr and exit with status 2 (no traceback). Progress bars go to
stderr, so stdout stays clean for the summary line.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .errors import BPEError, Cancelled
from .eval_cli import add_parser as add_eval_parser
from .eval_cli import run as run_eval

EXIT_USAGE = 2


def _bar(desc: str, unit: str, scale: bool, total: int):
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit=unit, unit_scale=scale, unit_divisor=1024 if scale else 1000,
                file=sys.stderr, leave=True, dynamic_ncols=True, mininterval=0.2)


class _Progress:
    """Adapts the core's ``progress(phase, done, total)`` callback to one tqdm bar per phase."""

    LABELS = {"pretokenize": ("pre-tokenize", "B", True), "merge": ("merge", "merge", False),
              "encode": ("encode", "B", True)}

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.bars: dict[str, object] = {}

    def __call__(self, phase: str, done: int, total: int) -> bool:
        if not self.enabled:
            return True
        bar = self.bars.get(phase)
        if bar is None:
            self.close()  # one bar at a time: the previous phase is over
            desc, unit, scale = self.LABELS.get(phase, (phase, "it", False))
            bar = self.bars[phase] = _bar(desc, unit, scale, total)
        if bar.total != total:
            bar.total = total
            bar.refresh()
        bar.update(done - bar.n)
        return True

    def close(self) -> None:
        for bar in self.bars.values():
            bar.close()
        self.bars.clear()


def _train(args: argparse.Namespace) -> int:
    from .formats import export_all, parse_formats
    from .spec import spec_from_trainer
    from .trainer import Trainer, check_vocab_size

    formats = parse_formats(args.format)
    check_vocab_size(args.vocab_size, len(args.special_token))
    progress = _Progress(not args.quiet)
    t0 = time.perf_counter()
    try:
        trainer = Trainer.from_file(args.corpus, args.special_token, pattern=args.pattern,
                                    tie_break=args.tie_break, workers=args.workers, progress=progress,
                                    keep_history=False)
        trainer.run(args.vocab_size, progress=progress, min_interval=10)
    finally:
        progress.close()
    elapsed = time.perf_counter() - t0
    written = export_all(args.out, spec_from_trainer(trainer, Path(args.corpus).name), formats)
    s = trainer.stats
    note = "" if trainer.vocab_size == args.vocab_size else (
        f" (the corpus ran out of pairs: final vocab size {trainer.vocab_size})")
    print(f"trained {len(trainer.merges)} merges, vocab size {trainer.vocab_size}{note} in {elapsed:.2f}s "
          f"on {s.size_bytes:,} bytes ({s.distinct_pretokens:,} distinct pre-tokens, "
          f"{s.invalid_bytes} invalid UTF-8 bytes)")
    for path in (p for paths in written.values() for p in paths):
        print(f"wrote {path}")
    return 0


def _encode(args: argparse.Namespace) -> int:
    from .formats import load_any
    from .npy import encode_file_to_npy
    from .tokenizer import Tokenizer

    spec = load_any(args.tokenizer, special_tokens=args.special_token or None, pattern=args.pattern)
    tok = Tokenizer.from_spec(spec)
    progress = _Progress(not args.quiet)
    t0 = time.perf_counter()
    try:
        result = encode_file_to_npy(tok, args.input, args.out, workers=args.workers, progress=progress)
    finally:
        progress.close()
    dt = time.perf_counter() - t0
    print(f"encoded {result.n_bytes:,} bytes into {result.n_tokens:,} tokens ({result.dtype}) in {dt:.2f}s "
          f"-> {result.path}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bpe-explorer",
        description="Train, explore and export byte-level BPE tokenizers. Without a command, opens the app.")
    sub = parser.add_subparsers(dest="command")

    g = sub.add_parser("gui", help="open the desktop app (the default)")
    g.add_argument("corpus", nargs="?", help="a corpus file to load instead of the sample")

    t = sub.add_parser("train", help="train a tokenizer on a corpus file and export it")
    t.add_argument("corpus", help="the corpus (any UTF-8 text file; read as bytes)")
    t.add_argument("--vocab-size", type=int, required=True, help="final vocab size (256 bytes + specials + merges)")
    t.add_argument("--special-token", action="append", default=[], metavar="T",
                   help="a special token, e.g. '<|endoftext|>' (repeat for more)")
    t.add_argument("--pattern", default="gpt2", help="gpt2 (default), gpt4, none, or a custom regex")
    t.add_argument("--tie-break", choices=["lexicographic", "first"], default="lexicographic",
                   help="among equally frequent pairs: the greatest (CS336) or the first seen (minbpe)")
    t.add_argument("--workers", type=int, default=None, help="pre-tokenization processes (default: all cores)")
    t.add_argument("--out", required=True, help="output folder")
    t.add_argument("--format", default="gpt2,hf,tiktoken,native",
                   help="comma-separated: gpt2,hf,tiktoken,native (default: all)")
    t.add_argument("-q", "--quiet", action="store_true", help="no progress bars")

    e = sub.add_parser("encode", help="encode a text file into a .npy of token ids")
    e.add_argument("--tokenizer", required=True, help="a folder or file written by 'train' (any format)")
    e.add_argument("input", help="the text file to encode (streamed)")
    e.add_argument("--out", required=True, help="output .npy file")
    e.add_argument("--special-token", action="append", default=[], metavar="T",
                   help="special tokens, for formats that do not store them (GPT-2 files, tiktoken)")
    e.add_argument("--pattern", default=None, help="pattern for formats that do not store it (default gpt2)")
    e.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    e.add_argument("-q", "--quiet", action="store_true", help="no progress bar")

    add_eval_parser(sub)
    sub.add_parser("screenshot", help="render the app offscreen to a PNG (see 'screenshot --help')",
                   add_help=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "screenshot":
        from bpe_gui.screenshot import main as screenshot_main

        return _guarded(lambda: screenshot_main(argv[1:]))
    args = build_parser().parse_args(argv)
    if args.command in (None, "gui"):
        from bpe_gui.app import main as gui_main

        return gui_main([args.corpus] if getattr(args, "corpus", None) else [])
    handler = {"train": _train, "encode": _encode, "eval": run_eval}[args.command]
    return _guarded(lambda: handler(args))


def _guarded(fn) -> int:
    try:
        return int(fn() or 0)
    except BPEError as e:
        print(f"bpe-explorer: error: {e}", file=sys.stderr)
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
