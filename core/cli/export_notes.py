"""What the export commands (``train``, ``convert``, ``train --extend``) say after writing."""

from __future__ import annotations

import sys


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
