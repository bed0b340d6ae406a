"""The commands that look into tokenizers and merge lists: ``audit`` and ``inspect`` (hooked into
core/cli.py; their work is done in :mod:`core.merge_audit` and :mod:`core.token_inspect`, imported
when a command runs so that ``--help`` stays quick).

bpe-explorer audit CORPUS --merges MERGES [--vocab VOCAB] [--special-token T …] [--json OUT]
bpe-explorer inspect TOKENIZER [--corpus FILE …] [--json OUT]
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

from core.cli import arg_types

TIE_BREAKS = ("lexicographic", "first")


def add_audit_parser(sub) -> None:
    a = sub.add_parser(
        "audit",
        help="find where a merge list first differs from correct training on a corpus "
        "(exit status 0: they agree, 1: they differ, 2: an error)",
    )
    a.add_argument("corpus", help="the corpus the merges were trained on")
    a.add_argument(
        "--merges", required=True, help="the merge list: merges.txt, or any tokenizer file (tokenizer.json …)"
    )
    a.add_argument("--vocab", default=None, help="the vocab.json that goes with merges.txt (optional)")
    a.add_argument(
        "--special-token", action="append", default=[], metavar="T", help="a special token (repeat)"
    )
    a.add_argument("--pattern", default="gpt2", help="gpt2 (default), gpt4, none, or a custom regex")
    a.add_argument(
        "--tie-break", choices=list(TIE_BREAKS), default="lexicographic", help="the correct tie rule"
    )
    a.add_argument("--json", default=None, metavar="OUT", help="also write the result as JSON to OUT")
    a.add_argument("--workers", type=arg_types.workers, default=None, help="pre-tokenization processes")
    a.add_argument("-q", "--quiet", action="store_true", help="no progress bars")


def _show(p: tuple[bytes, bytes] | None) -> str:
    return "-" if p is None else f"({p[0]!r}, {p[1]!r})"


def _refuse_inputs(args) -> None:
    """``--json`` may not name one of the command's inputs (same file, or through a link)."""
    from core.cli.input_guard import tokenizer_inputs
    from core.files import check_not_inputs

    inputs: list = []
    for name in ("corpus", "merges", "vocab"):
        value = getattr(args, name, None)
        inputs += value if isinstance(value, list) else [value] if value and value != "-" else []
    for name in ("tokenizer", "a", "b"):
        value = getattr(args, name, None)
        if isinstance(value, str) and value:
            inputs += tokenizer_inputs(value)
    check_not_inputs([(args.json, "--json")], inputs)


def run_audit(args, progress) -> int:
    from core.evaluation.audit import audit_merges, read_merge_list
    from core.files import atomic_write, check_out_file
    from core.pretokenization.patterns import pattern_name, resolve_pattern

    if args.json:
        check_out_file(args.json, "--json")
        _refuse_inputs(args)
    merges = read_merge_list(args.merges, args.vocab)
    try:
        result = audit_merges(
            args.corpus,
            merges,
            args.special_token,
            pattern=args.pattern,
            tie_break=args.tie_break,
            workers=args.workers,
            progress=progress,
        )
    finally:
        progress.close()
    if result.agrees:
        print(
            f"all {result.merges_given:,} merges agree with training on {Path(args.corpus).name} "
            f"(pattern {pattern_name(resolve_pattern(args.pattern))}, tie rule {args.tie_break})"
        )
    else:
        print(
            f"merge {result.first_divergence:,} differs (the first {result.merges_checked:,} agree): "
            f"given {_show(result.given)} counted {result.given_count:,}, "
            f"expected {_show(result.expected)} counted {result.expected_count:,}"
        )
        print(f"diagnosis: {result.diagnosis}: {result.explanation()}")
        if not args.special_token:
            seen = _special_like(args.corpus)
            if seen:
                print(
                    f"note: the corpus holds {seen!r} and no --special-token was given; if the merges were "
                    f"trained with it as a special token, run again with --special-token {seen!r}"
                )
    if args.json:
        atomic_write(args.json, json.dumps(result.to_json(), indent=2) + "\n")
        print(f"wrote {args.json}")
    return 0 if result.agrees else 1  # (as diff does: 1 when the lists differ, 2 for an error)


def _special_like(corpus: str) -> str | None:
    """A special-token-looking string (``<|endoftext|>``) in the corpus's first megabyte, or None."""
    import re

    try:
        with open(corpus, "rb") as f:
            head = f.read(1 << 20).decode("utf-8", "replace")
    except OSError:
        return None
    m = re.search(r"<\|[^|<>\s]{1,40}\|>", head)
    return m.group() if m else None


def add_inspect_parser(sub) -> None:
    s = sub.add_parser(
        "inspect", help="list dead and odd tokens of a tokenizer (unreachable, partial UTF-8 …)"
    )
    s.add_argument(
        "tokenizer", help="a tokenizer file or folder (tokenizer.json, vocab.json, *.tiktoken, bpe.json …)"
    )
    s.add_argument(
        "--corpus",
        action="append",
        default=[],
        metavar="FILE",
        help="a text file to count token use in (repeat)",
    )
    s.add_argument("--json", default=None, metavar="OUT", help="write the full lists as JSON to OUT")
    s.add_argument("--show", type=int, default=5, metavar="N", help="tokens shown per list (default 5)")
    s.add_argument(
        "--special-token", action="append", default=[], metavar="T", help="for files that do not store them"
    )
    s.add_argument("--pattern", default=None, help="pattern for formats that do not store it (default gpt2)")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress bars")


def _token_text(b: bytes) -> str:
    """A token as its text where it is whole UTF-8, else its bytes."""
    try:
        return repr(b.decode("utf-8"))
    except UnicodeDecodeError:
        return repr(b)


def _pieces(tok) -> list[str | None] | None:
    """The piece names of a SentencePiece-style tokenizer (``▁the``, ``<0x20>``), by id; None for
    byte-level BPE."""
    model = tok.char_model
    return list(model.pieces) if model is not None else None


def _id_text(tok, i: int, pieces: list[str | None] | None) -> str:
    """A token for a listing: its piece name for a SentencePiece tokenizer (the byte piece
    ``<0x20>`` and ``▁`` both stand for a space, and their texts looked the same), else its text."""
    if pieces is not None and i < len(pieces) and pieces[i] is not None:
        return repr(pieces[i])
    return _token_text(tok.vocab[i])


def _shown(tok, ids: Sequence[int], n: int) -> str:
    pieces = _pieces(tok)
    head = ", ".join(f"{i} {_id_text(tok, i, pieces)}" for i in ids[:n])
    more = f", … ({len(ids) - n:,} more)" if len(ids) > n else ""
    return head + more


def run_inspect(args, progress, special_token_arg) -> int:
    from core.evaluation.audit import load_tokenizer_or_merges
    from core.evaluation.inspect import inspect_tokenizer
    from core.files import atomic_write, check_out_file
    from core.tokenization.tokenizer import Tokenizer

    if args.json:
        check_out_file(args.json, "--json")
        _refuse_inputs(args)
    spec = load_tokenizer_or_merges(
        args.tokenizer, special_tokens=special_token_arg(args.special_token), pattern=args.pattern
    )
    for note in spec.notes:
        print(f"bpe-explorer: note: {note}", file=sys.stderr)
    tok = Tokenizer.from_spec(spec)
    try:
        r = inspect_tokenizer(tok, args.corpus, progress=progress)
    finally:
        progress.close()
    print(f"{Path(args.tokenizer).name}: {r.summary()}")
    show = max(0, args.show)
    if show:
        for label, ids in (
            ("unreachable from their text", r.unreachable_text),
            ("unreachable by merges", r.unreachable_merges),
            ("partial UTF-8", r.partial_utf8),
            ("special", r.specials),
            ("added (not special)", r.added),
            ("longest", r.longest),
            ("never used", r.never_used or []),
        ):
            if ids:
                print(f"  {label}: {_shown(tok, ids, show)}")
        for f in r.files:
            least = ", ".join(f"{i} {_id_text(tok, i, _pieces(tok))}×{c}" for i, c in f.least_used[:show])
            print(f"  {f.name}: {f.n_tokens:,} tokens, {f.never_used:,} tokens unused; least used: {least}")
    if args.json:
        atomic_write(args.json, json.dumps(r.to_json(), indent=1) + "\n")
        print(f"wrote {args.json}")
    return 0


def add_extend_argument(t) -> None:
    t.add_argument(
        "--extend",
        default=None,
        metavar="TOKENIZER",
        help="keep every token and id of this tokenizer (any file the app opens) and learn new merges on "
        "the corpus after them; --vocab-size is the final size, base included",
    )


def run_train_extend(args, progress, special_token_arg) -> int:
    """``train CORPUS --extend TOKENIZER --vocab-size N --out DIR`` (``special_token_arg``: the
    parser of ``--special-token`` values that :mod:`core.cli.main` hands in)."""
    import time

    from core.errors import BPEError
    from core.files import check_out_folder
    from core.formats import export_all, load_any, parse_formats
    from core.tokenization.extend import ExtendTrainer
    from core.tokenization.tokenizer import Tokenizer

    if args.counts:
        raise BPEError(
            "--extend trains on a corpus file, not on --counts (the base tokenizer pre-tokenizes it)"
        )
    if args.corpus is None or args.corpus == "-":
        raise BPEError("--extend needs a corpus file to learn the new merges on")
    formats = parse_formats(args.format)
    check_out_folder(args.out, "--out")
    spec = load_any(args.extend, special_tokens=special_token_arg(args.special_token), pattern=args.pattern)
    for note in spec.notes:
        print(f"bpe-explorer: note: {note}", file=sys.stderr)
    base = Tokenizer.from_spec(spec)
    if args.vocab_size <= len(base.vocab):
        raise BPEError(
            f"--vocab-size {args.vocab_size:,} is not above the base tokenizer's {len(base.vocab):,} tokens; "
            "an extension keeps them all and adds more: choose a larger --vocab-size"
        )
    t0 = time.perf_counter()
    try:
        trainer = ExtendTrainer.from_files(
            base,
            [args.corpus],
            tie_break=args.tie_break,
            keep_history=False,
            workers=args.workers,
            progress=progress,
        )
        before = sum(len(toks) * c for _, toks, c in trainer.words())
        trainer.run(args.vocab_size, progress=progress, min_interval=10)
        progress.finish("merge")
    finally:
        progress.close()
    elapsed = time.perf_counter() - t0
    after = sum(len(toks) * c for _, toks, c in trainer.words())
    out_spec = trainer.to_spec(Path(args.corpus).name)
    reused = trainer.reused
    if reused and "tiktoken" in formats:
        formats = [f for f in formats if f != "tiktoken"]
        print(
            f"bpe-explorer: warning: no tiktoken file: {len(reused):,} new merge(s) make a token the vocab already "
            f"has (the first: {trainer.merges[reused[0]]!r}); tiktoken would apply them at that token's old rank",
            file=sys.stderr,
        )
    from core.formats import export_losses

    for fmt in list(formats):
        lost = export_losses(out_spec, fmt)
        if lost:
            formats.remove(fmt)
            print(
                f"bpe-explorer: warning: no {fmt} files: they cannot hold {'; '.join(lost)}", file=sys.stderr
            )
    written = export_all(args.out, out_spec, formats, replace_others=args.force) if formats else {}
    gain = f" ({(before - after) / before:.1%} fewer)" if before else ""
    print(
        f"extended {Path(args.extend).name} ({trainer.base_vocab_size:,} tokens) with {len(trainer.merges):,} "
        f"merges, vocab size {trainer.vocab_size:,} in {elapsed:.2f}s; {Path(args.corpus).name}: "
        f"{before:,} tokens with the base, {after:,} with the extension{gain}"
    )
    top = max(trainer.vocab) + 1
    if top != trainer.vocab_size:  # (the base's ids have gaps: cl100k skips 100256 and 100261–100275)
        print(
            f"bpe-explorer: note: the ids go up to {top - 1:,}: an embedding table needs {top:,} rows, "
            f"not {trainer.vocab_size:,} (the base's ids have gaps)",
            file=sys.stderr,
        )
    for path in (p for paths in written.values() for p in paths):
        print(f"wrote {path}")
    from core.cli.export_notes import say_reading_notes, say_stale

    say_stale(args.out, written)
    say_reading_notes(out_spec, written)
    return 0


def add_compare_parser(sub) -> None:
    c = sub.add_parser(
        "compare", help="two tokenizers side by side: shared tokens, where the merges part, tokens per file"
    )
    c.add_argument("a", help="tokenizer A (any file or folder the app opens)")
    c.add_argument("b", help="tokenizer B")
    c.add_argument(
        "--corpus",
        action="append",
        default=[],
        metavar="FILE",
        help="a text file to count tokens on (repeat)",
    )
    c.add_argument(
        "--json", default=None, metavar="OUT", help="write the result, with the full id lists, as JSON"
    )
    c.add_argument("--show", type=int, default=5, metavar="N", help="tokens shown per list (default 5)")
    c.add_argument("-q", "--quiet", action="store_true", help="no progress bars")


def run_compare(args, progress) -> int:
    from core.evaluation.audit import load_tokenizer_or_merges
    from core.evaluation.compare import compare_tokenizers
    from core.files import atomic_write, check_out_file
    from core.tokenization.tokenizer import Tokenizer

    if args.json:
        check_out_file(args.json, "--json")
        _refuse_inputs(args)
    toks = []
    for path in (args.a, args.b):
        spec = load_tokenizer_or_merges(path)
        for note in spec.notes:
            print(f"bpe-explorer: note: {Path(path).name}: {note}", file=sys.stderr)
        toks.append(Tokenizer.from_spec(spec))
    a, b = toks
    try:
        c = compare_tokenizers(a, b, args.corpus, progress=progress)
    finally:
        progress.close()
    print(
        f"A = {Path(args.a).name} ({c.vocab_a:,} tokens), B = {Path(args.b).name} ({c.vocab_b:,} tokens): {c.summary()}"
    )
    show = max(0, args.show)
    if c.first_differing_merge is not None:
        print(f"  merge {c.first_differing_merge:,}: A {_show(c.merge_a)}, B {_show(c.merge_b)}")
    if show:
        if c.only_a:
            print(f"  only in A: {_shown(a, c.only_a, show)}")
        if c.only_b:
            print(f"  only in B: {_shown(b, c.only_b, show)}")
        if c.specials_only_a or c.specials_only_b:
            print(f"  special tokens only in A: {c.specials_only_a}; only in B: {c.specials_only_b}")
        if c.added_only_a or c.added_only_b:
            print(f"  added tokens (not special) only in A: {c.added_only_a}; only in B: {c.added_only_b}")
    for f in c.files:
        ratio = f" (B/A {f.tokens_b / f.tokens_a:.3f})" if f.tokens_a else ""
        print(f"  {f.name}: {f.n_bytes:,} bytes, A {f.tokens_a:,} tokens, B {f.tokens_b:,} tokens{ratio}")
    if args.json:
        atomic_write(args.json, json.dumps(c.to_json(), indent=1) + "\n")
        print(f"wrote {args.json}")
    return 0


def add_trace_parser(sub) -> None:
    t = sub.add_parser("trace", help="where a token comes from: its merge, the count then, corpus snippets")
    t.add_argument("tokenizer", help="a tokenizer file or folder (bpe.json keeps the merge counts)")
    g = t.add_mutually_exclusive_group(required=True)
    g.add_argument("--id", type=int, default=None, help="the token's id")
    g.add_argument(
        "--text",
        default=None,
        help="the token's text (e.g. ' the'); for a SentencePiece tokenizer also its piece name, as the "
        "app shows it (e.g. '▁the', '<0x20>')",
    )
    t.add_argument(
        "--corpus", action="append", default=[], metavar="FILE", help="a text file to find it in (repeat)"
    )
    t.add_argument("--snippets", type=int, default=3, metavar="N", help="how many places to show (default 3)")
    t.add_argument("--json", default=None, metavar="OUT", help="also write the result as JSON")
    t.add_argument("-q", "--quiet", action="store_true", help="no progress bars")


def run_trace(args, progress) -> int:
    from core.evaluation.audit import load_tokenizer_or_merges
    from core.evaluation.token_home import token_home
    from core.files import atomic_write, check_out_file
    from core.tokenization.tokenizer import Tokenizer

    if args.json:
        check_out_file(args.json, "--json")
        _refuse_inputs(args)
    spec = load_tokenizer_or_merges(args.tokenizer)
    tok = Tokenizer.from_spec(spec)
    wanted: int | str = args.id if args.id is not None else args.text
    pieces = _pieces(tok)
    if isinstance(wanted, str) and pieces is not None and wanted in pieces:
        wanted = pieces.index(wanted)  # a piece name (▁the) as the app shows it: that piece
    try:
        h = token_home(
            tok,
            wanted,
            args.corpus,
            snippets=args.snippets,
            progress=progress,
        )
    finally:
        progress.close()
    print(h.describe())
    if pieces is not None and h.id < len(pieces) and pieces[h.id] is not None:
        print(f"  piece {pieces[h.id]!r} (as the app shows it)")
    if len(h.built) > 1:
        steps = "; ".join(
            f"{_token_text(s.pair[0])} + {_token_text(s.pair[1])} (merge {s.merge:,})" for s in h.built
        )
        print(f"  built by: {steps}")
    for s in h.snippets:
        where = f"byte {s.byte_offset:,}" if s.byte_offset is not None else "normalized text"
        print(f"  {s.file} @ {where}: {s.marked()}")
    if args.corpus and not h.snippets:
        print("  not found in the corpus")
    if args.json:
        atomic_write(args.json, json.dumps(h.to_json(), indent=1) + "\n")
        print(f"wrote {args.json}")
    return 0
