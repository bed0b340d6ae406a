"""``bpe-explorer eval``: compare tokenizers on text files (a table on stdout, JSON/CSV for scripts).

>>> format_hours(0.5), format_hours(30), format_hours(100)
('30 min', '30.0 h', '4.2 days')
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from core.cli import arg_types

if TYPE_CHECKING:  # the command's modules load only when it runs (the app starts faster)
    from core.evaluation.evaluate import EvalResult

from core.evaluation.evaluate import DEFAULT_SPLIT, MIN_TIMED_BYTES

CSV_FIELDS = (
    "tokenizer",
    "file",
    "bytes",
    "chars",
    "documents",
    "tokens",
    "bytes_per_token",
    "chars_per_token",
    "tokens_per_doc_mean",
    "tokens_per_doc_p50",
    "tokens_per_doc_p95",
    "vocab_size",
    "vocab_used",
    "vocab_used_share",
    "never_used",
    "single_byte_share",
    "byte_fallback_share",
    "mb_per_s",
    "mb_per_s_one_process",
    "pile_hours",
    "pile_hours_one_process",
    "workers",
    "seconds",
    "longest",
)


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``eval`` command to the subparsers of ``bpe-explorer``."""
    p = sub.add_parser(
        "eval", help="compare tokenizers on text files: compression, vocab use, longest tokens, throughput"
    )
    p.add_argument(
        "--tokenizer",
        action="append",
        required=True,
        metavar="T",
        help="a folder or file the app imports, or a known encoding (gpt2, r50k_base, p50k_base, "
        "cl100k_base, o200k_base: read offline from tiktoken's cache); repeat for more",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="text files to encode")
    p.add_argument(
        "--sample-docs",
        type=int,
        default=None,
        metavar="N",
        help="evaluate on N documents drawn at random from each file instead of the whole file",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of --sample-docs (default 0)")
    p.add_argument(
        "--split-on",
        default=DEFAULT_SPLIT,
        metavar="TOKEN",
        help=f"documents are separated by this token (default {DEFAULT_SPLIT}; '' for none)",
    )
    p.add_argument("--workers", type=arg_types.workers, default=None, help="processes (default: all cores)")
    p.add_argument("--json", default=None, metavar="OUT", help="write the results as a JSON list")
    p.add_argument("--csv", default=None, metavar="OUT", help="write the results as CSV")
    p.add_argument(
        "--allow-nul",
        action="store_true",
        help="accept files with NUL bytes near their start (refused as binary by default)",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    return p


def format_hours(h: float) -> str:
    """Hours as minutes, hours or days."""
    if h < 1:
        return f"{h * 60:.0f} min"
    if h < 48:
        return f"{h:.1f} h"
    return f"{h / 24:.1f} days"


WIDTH = 100  # the table fits a terminal this wide; every figure is in --json / --csv
#: whitespace as the app shows it (a space in a quoted token is easy to miss)
MARKERS = {" ": "·", "\t": "→", "\n": "↵", "\r": "⇤"}


def shown(text: str) -> str:
    """A token as the app shows it: whitespace markers, other control characters escaped.

    >>> shown(" the"), shown(".\\n\\n"), shown("a\\x00")
    ('·the', '.↵↵', 'a\\\\x00')
    """
    return "".join(
        MARKERS.get(ch) or (f"\\x{ord(ch):02x}" if ord(ch) < 32 or ord(ch) == 127 else ch) for ch in text
    )


def _cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters (the start cut off: a path's end says most)."""
    return text if len(text) <= width else "…" + text[-(width - 1) :]


def _middle(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters, its middle left out (a 128-byte run of spaces)."""
    if len(text) <= width:
        return text
    half = (width - 1) // 2
    return text[:half] + "…" + text[-(width - 1 - half) :]


# the name sample_documents gives a sample: "FILE [N of M docs, seed S]"
_SAMPLED = re.compile(r"^(?P<file>.*) \[(?P<what>\d+ of \d+ docs), seed (?P<seed>-?\d+)\]$", re.S)


def _file_cell(file: str) -> tuple[str, str | None]:
    """The file column's text (the file's name) and, for a sample, what was drawn (for a note below:
    cut to a column, "tinystories.txt [10 of 2,000 docs, seed 0]" showed only "…cs, seed 0]")."""
    m = _SAMPLED.match(file)
    if m is None:
        return Path(file).name or file, None
    name = Path(m["file"]).name or m["file"]
    return name, f"{name} {m['what']} (seed {m['seed']})"


def pile_estimate(r: EvalResult) -> str:
    """Hours to encode the Pile at the measured speed, or why there is no estimate."""
    if not r.timed:
        return "sample too small"
    return format_hours(r.pile_hours)


def table(results: Sequence[EvalResult]) -> str:
    """The results as a plain-text table at most :data:`WIDTH` columns wide, then the longest tokens
    of each tokenizer (whitespace shown as the app shows it)."""
    head = ("tokenizer", "file", "tokens", "B/tok", "tok/doc", "vocab used", "MB/s", "Pile 825 GB")
    rows = [head]
    cells = [_file_cell(r.file) for r in results]
    rows.extend(
        (
            Path(r.tokenizer).name or r.tokenizer,
            file,
            f"{r.tokens:,}",
            f"{r.bytes_per_token:.3f}",
            f"{r.tokens_per_doc_mean:,.1f}",
            f"{r.vocab_used_share:.1%}",
            f"{r.mb_per_s:.2f}" if r.timed else "–",
            pile_estimate(r),
        )
        for r, (file, _) in zip(results, cells)
    )
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    sep = 2
    over = sum(widths) + sep * (len(head) - 1) - WIDTH
    for col, least in ((1, 12), (0, 12)):  # names give way first: the figures are kept whole
        if over > 0:
            cut = min(over, widths[col] - max(least, len(head[col])))
            if cut > 0:
                widths[col] -= cut
                over -= cut
    left = {0, 1}
    lines = [
        (" " * sep).join(
            _cut(c, w).ljust(w) if i in left else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))
        )
        for row in rows
    ]
    workers = sorted({r.workers for r in results})
    procs = f"{', '.join(map(str, workers))} {'process' if workers == [1] else 'processes'}"
    notes = [
        f"MB/s and the Pile estimate with {procs}"
        + (
            f"; no speed or estimate from a text under {MIN_TIMED_BYTES // 1_000_000} MB (too short to time)"
            if not all(r.timed for r in results)
            else ""
        )
        + ". All figures (documents, p50/p95, byte shares, one-process speed): --json or --csv."
    ]
    sampled = list(dict.fromkeys(what for _, what in cells if what is not None))
    if sampled:
        notes.append(f"documents drawn at random (--sample-docs): {'; '.join(sampled)}.")
    seen: set[str] = set()
    for r in results:
        if r.tokenizer in seen:
            continue
        seen.add(r.tokenizer)
        toks = ", ".join(f"{_middle(shown(t.text), 24)} ({t.n_bytes}\u00a0B)" for t in r.longest[:10])
        notes.append(f"longest tokens of {Path(r.tokenizer).name or r.tokenizer}: {toks}")
    if len(seen):
        notes.append("(· space, → tab, ↵ newline)")
    wrapped = [textwrap.fill(n, WIDTH, subsequent_indent="  ", break_on_hyphens=False) for n in notes]
    return "\n".join([*lines, "", *wrapped])


def to_json(results: Sequence[EvalResult]) -> str:
    return json.dumps([r.to_dict() for r in results], indent=1, ensure_ascii=False) + "\n"


def to_csv(results: Sequence[EvalResult]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_FIELDS)
    for r in results:
        d = r.to_dict()
        d["longest"] = " ".join(repr(t.text) for t in r.longest)
        w.writerow([d[k] for k in CSV_FIELDS])
    return out.getvalue()


def check_outputs(args: argparse.Namespace) -> None:
    """--json and --csv: writable files, neither one of the inputs, not the same file."""
    from core.cli.input_guard import tokenizer_inputs
    from core.errors import BPEError
    from core.files import check_not_inputs, check_out_file

    outs = [(out, opt) for out, opt in ((args.json, "--json"), (args.csv, "--csv")) if out]
    for out, opt in outs:
        check_out_file(out, opt)
    if len(outs) == 2 and Path(args.json).expanduser().resolve() == Path(args.csv).expanduser().resolve():
        raise BPEError(f"--json and --csv name the same file {args.json!r}; give each its own file")
    inputs = [*args.files, *(f for t in args.tokenizer for f in tokenizer_inputs(t))]
    check_not_inputs(outs, inputs)


def run(args: argparse.Namespace) -> int:
    from core.cli.progress import Progress as _Progress
    from core.evaluation.evaluate import EvalText, evaluate, sample_documents
    from core.evaluation.known_encodings import load_eval_tokenizer
    from core.formats import atomic_write
    from core.tokenization.tokenizer import Tokenizer

    check_outputs(args)  # before the work, not after it
    from core.cli.input_guard import check_text_input

    for f in args.files:  # (UTF-16, binary or compressed data gave figures of its bytes, without a word)
        check_text_input(f, allow_nul=args.allow_nul)
    if args.sample_docs is not None:
        texts = [sample_documents(f, args.sample_docs, args.seed, args.split_on) for f in args.files]
    else:
        texts = [EvalText.from_file(f) for f in args.files]
    toks = [(t, Tokenizer.from_spec(load_eval_tokenizer(t))) for t in args.tokenizer]
    progress = _Progress(not args.quiet, extra_labels={"evaluate": ("evaluate", "B", True)})
    try:
        results = evaluate(
            toks, texts, split_on=args.split_on or None, workers=args.workers, progress=progress
        )
    finally:
        progress.close()
    print(table(results))
    if args.json:
        atomic_write(args.json, to_json(results))
    if args.csv:
        atomic_write(args.csv, to_csv(results))
    for out in (args.json, args.csv):
        if out:
            print(f"wrote {out}", file=sys.stderr)
    return 0
