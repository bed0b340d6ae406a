"""What the export commands (``train``, ``convert``, ``train --extend``) say after writing, and which
formats ``train`` writes when one cannot hold the tokenizer."""

from __future__ import annotations

import sys
from collections.abc import Iterable


def say_stale(out: str, written: dict) -> None:
    """Name the tokenizer files in ``out`` this export did not write (an earlier export's, another
    tokenizer's): reading one of them gives that tokenizer, not this one."""
    from core.formats.export_record import stale_files

    stale = stale_files(out, [p.name for paths in written.values() for p in paths])
    if stale:
        print(
            f"bpe-explorer: note: {out} also holds {', '.join(stale)} from before, not written now "
            "(they may be another tokenizer's)",
            file=sys.stderr,
        )


def say_reading_notes(spec, written: dict) -> None:
    """What a reader of the GPT-2 and tiktoken files just written must give to get these ids (the
    pattern when it is not GPT-2's, the special tokens' ids): ``convert`` said it, ``train`` did
    not, and a ``--pattern gpt4`` tokenizer read back from vocab.json + merges.txt (HF, transformers,
    ``Tokenizer.from_files``) gave other ids without a word."""
    from core.formats.losses import reading_notes

    for fmt, paths in written.items():
        for note in reading_notes(spec, fmt, paths):
            print(f"bpe-explorer: note: {note}", file=sys.stderr)


def tiktoken_fits(
    pattern: str | None,
    formats: list[str],
    chosen: bool,
    allow_lossy: bool,
    special_tokens: Iterable[str] = (),
) -> tuple[list[str], str | None]:
    """The formats ``train`` writes, and why tiktoken is left out (None when it is not): tiktoken drops
    the text a pattern does not match (``\\p{L}+``: spaces, punctuation) and fails on a pattern that
    can match the empty string. With ``--format`` given (``chosen``) such a tiktoken file is refused
    before the run; by default it is left out; ``--allow-lossy`` writes it all the same."""
    from core.formats.losses import pattern_loss_error, special_prefix_error, tiktoken_pattern_losses
    from core.pretokenization.patterns import resolve_pattern

    if "tiktoken" not in formats or allow_lossy:
        return formats, None
    regex_ = resolve_pattern(pattern)
    error = special_prefix_error(special_tokens)  # (special tokens of which one begins another)
    if error is None and regex_ is not None and tiktoken_pattern_losses(regex_):
        error = pattern_loss_error(regex_)
    if error is None:
        return formats, None
    if chosen:
        raise error
    return [f for f in formats if f != "tiktoken"], f"no bpe.tiktoken written: {error}"


def say_losses(spec, written: dict) -> None:
    """What the files just written lack (written anyway: ``--allow-lossy``)."""
    from core.formats.losses import export_losses

    for fmt in written:
        for lost in export_losses(spec, fmt):
            print(f"bpe-explorer: warning: the {fmt} files lack {lost}", file=sys.stderr)
