"""How much memory training will need, said once counting has found the distinct pre-tokens.

The peak comes while the trainer is built (the pair index of every distinct word, with NumPy's
temporary arrays) and grows with the distinct pre-tokens and with their total length. Measured
with ``keep_history=False`` (the CLI and ``train_bpe``; tests/benchmarks/RESULTS.md, "Memory to
train"), peak resident memory less the interpreter's was about 90 bytes per distinct pre-token
plus 38 bytes per byte of them: 148 MB for gcide (331k distinct, 2.8 MB), 687 MB for a 0.2 GB
generated corpus (1.4M, 15 MB), 582 MB for 15 MB of Chinese-like text (358k, 14 MB). The estimate
rounds those up (and adds the interpreter), so it is a little above what was measured.

>>> training_memory(1_000_000, 10_000_000) // 2**20
545
>>> describe_need(331_328, 2_821_290)
'training needs about 205 MB of memory (331,328 distinct pre-tokens, 2.8 MB in all)'
"""

from __future__ import annotations

import os

from core.units import size_text

BASE_BYTES = 50 << 20  # Python, NumPy, regex and the modules
PER_DISTINCT = 120  # bytes per distinct pre-token (measured ~90)
PER_BYTE = 40  # bytes per byte of the distinct pre-tokens (measured ~38)


def training_memory(distinct: int, word_bytes: int) -> int:
    """Bytes of memory training is expected to peak at (without undo history)."""
    return BASE_BYTES + PER_DISTINCT * distinct + PER_BYTE * word_bytes


def physical_memory() -> int | None:
    """This machine's memory in bytes (None where the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def human(n: int) -> str:
    """Decimal units, as the sizes beside it (1 GB = 10**9 bytes)."""
    return size_text(n) if n >= 10**9 else size_text(n, 0)


def describe_need(distinct: int, word_bytes: int) -> str:
    """One line for the user: the estimate and what it rests on."""
    need = training_memory(distinct, word_bytes)
    return (
        f"training needs about {human(need)} of memory ({distinct:,} distinct pre-tokens, "
        f"{word_bytes / 1e6:.1f} MB in all)"
    )


def too_much(distinct: int, word_bytes: int, available: int | None = None) -> str | None:
    """A warning when the estimate exceeds the machine's memory, else None."""
    total = physical_memory() if available is None else available
    need = training_memory(distinct, word_bytes)
    if total is None or need <= total:
        return None
    return (
        f"warning: training needs about {human(need)} of memory, more than this machine has "
        f"({human(total)}); train on a smaller corpus, or count it with `bpe-explorer count` and "
        "train from the counts on a machine with more memory"
    )
