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
