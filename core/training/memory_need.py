"""How much memory training will need, said once counting has found the distinct pre-tokens.

Measured with tests/benchmarks/bench_train_memory.py (tests/benchmarks/RESULTS.md, "Memory per
distinct pre-token"): peak resident memory above the interpreter's, with the counts the trainer is
built from. It has two parts:

- building the trainer: the words' codes and bytes, their counts, the pair index of every distinct
  word, and the index's temporary arrays (a block of words at a time): about 30 MB + 175 bytes per
  distinct pre-token + 7 bytes per byte of them;
- the merges: every merge makes new pairs (a count and a word list each) where its words change;
  that grows with the merges (less than in proportion) and with the bytes of the words, more for
  long words (Chinese: 39 bytes a word), which hold more pairs. An app's trainer also keeps each
  merge's undo history (the changed words' ids and the pair-count changes), more again.

The constants are rounded up from the measurements at 2,000 and 10,000 merges (gcide, 15 MB of
Chinese, 0.1 and 0.2 GB generated corpora), so the estimate is a little above what was measured
(after the leaner word lists and count buckets of stop 26: 2-18% above at 2,000-32,000 merges).

>>> training_memory(1_000_000, 10_000_000, 0) // 2**20
327
>>> describe_need(331_328, 2_821_290, 9_743)
'training needs about 201 MB of memory (331,328 distinct pre-tokens, 2.8 MB in all, 9,743 merges)'
"""

from __future__ import annotations

from core.memory import available_memory, physical_memory
from core.units import size_text

BASE_BYTES = 50 << 20  # Python, NumPy, regex and the modules
START_BYTES = 30 << 20  # the index's temporary arrays (one block of words) and the like
PER_DISTINCT = 180  # bytes per distinct pre-token once the trainer is built (measured ~175)
PER_BYTE = 8  # bytes per byte of the distinct pre-tokens once it is built (measured ~7)
# the merges: PER_MERGED_BYTE * (merges / 2,000) ** MERGE_GROWTH bytes per byte of the words,
# times (1 + average word length / LONG_WORD); more with undo history
PER_MERGED_BYTE = 3.5
HISTORY_PER_MERGED_BYTE = 13.5
MERGE_GROWTH = 0.62
LONG_WORD = 25


def training_memory(distinct: int, word_bytes: int, merges: int = 0, *, history: bool = False) -> int:
    """Bytes of memory training to ``merges`` merges is expected to peak at; ``history``: with
    the undo history an app's trainer keeps."""
    built = BASE_BYTES + START_BYTES + PER_DISTINCT * distinct + PER_BYTE * word_bytes
    if merges <= 0 or not distinct:
        return built
    per_byte = (HISTORY_PER_MERGED_BYTE if history else PER_MERGED_BYTE) * (merges / 2000) ** MERGE_GROWTH
    return int(built + per_byte * word_bytes * (1 + word_bytes / distinct / LONG_WORD))


# the flat merge loop (core/training/flat.py): per byte of the words, a node: its token (int16
# while the codes fit, 2 bytes more past 32,765 codes), a byte for its word, an entry in the lists
# of where pairs start, and, where the words are short (at most 16 bytes on average), the id of
# the pair starting there (int32); per word its separator node, its count and its first node. The
# counts it is built from are freed before its arrays are made. The merges add the pairs they make
# (an id and a chunk of the lists each), the largest list taken at once, and the lists' room
# before they are compacted (a sixteenth at a time). Peaks measured (stop 32, bench_train_memory.py
# --engine flat), per distinct pre-token: 258 bytes for gcide (8.5 bytes a word, 9,743 merges), 264
# for the 0.2 GB generated corpus (10.5 bytes a word, 31,743 merges); without the pair ids, 597
# for 15 MB of Chinese (39 bytes a word, 2,000 merges), 388 for 150 MB of Chinese-like text (40).
# Rounded up:
FLAT_PER_DISTINCT = 40
FLAT_PER_BYTE = 8
FLAT_NODE_IDS = 4  # bytes more per byte where the words are short: a pair id per node
FLAT_NODE_IDS_MAX_BYTES = 16  # (core.training.flat.NODE_IDS_MAX_BYTES)
FLAT_WIDE_TOKENS = 2  # bytes more per byte where the codes outgrow int16
FLAT_SHORT_CODES = 2**15 - 3  # (core.training.flat.SHORT_CODES)
FLAT_PER_MERGED_BYTE = 1.0
FLAT_MAX_NODES = 2**31 - 1  # nodes the flat loop can number: a byte of the words each, a separator each


def flat_memory(distinct: int, word_bytes: int, merges: int = 0, node_ids: bool | None = None) -> int:
    """Bytes of memory the flat merge loop is expected to peak at (see :func:`training_memory`);
    ``node_ids``: whether it keeps a pair id per node (None: as it does by itself, where the words
    are short)."""
    per_byte = FLAT_PER_BYTE + (FLAT_WIDE_TOKENS if 256 + merges > FLAT_SHORT_CODES else 0)
    if node_ids if node_ids is not None else _short_words(distinct, word_bytes):
        per_byte += FLAT_NODE_IDS
    built = BASE_BYTES + START_BYTES + FLAT_PER_DISTINCT * distinct + per_byte * word_bytes
    if merges <= 0 or not distinct:
        return built
    per_byte = FLAT_PER_MERGED_BYTE * (merges / 2000) ** MERGE_GROWTH
    return int(built + per_byte * word_bytes * (1 + word_bytes / distinct / LONG_WORD))


def _short_words(distinct: int, word_bytes: int) -> bool:
    """Words of at most ``FLAT_NODE_IDS_MAX_BYTES`` bytes on average: a pair id per node costs
    them little, and the flat loop keeps one by itself."""
    return word_bytes <= FLAT_NODE_IDS_MAX_BYTES * distinct


def flat_node_ids(distinct: int, word_bytes: int, merges: int, available: int | None = None) -> bool:
    """Whether the flat loop should keep a pair id per node: where the words are short (they cost
    little there), or where its estimate with them fits in half the memory free now (its merges
    take a third less time with them: 15 MB of Chinese to 30,000 merges); else it finds pairs by
    key, and needs a third less memory on long words."""
    if _short_words(distinct, word_bytes):
        return True
    free = available_memory() if available is None else available
    return free is None or flat_memory(distinct, word_bytes, merges, node_ids=True) <= free // 2


def _flat_need(distinct: int, word_bytes: int, merges: int, available: int | None = None) -> int:
    """The flat loop's estimate, with the pair ids per node it will keep (:func:`flat_node_ids`)."""
    return flat_memory(distinct, word_bytes, merges, flat_node_ids(distinct, word_bytes, merges, available))


def lean_engine(distinct: int, word_bytes: int, merges: int, available: int | None = None) -> str:
    """The merge loop a run without undo takes: "flat" (2-3x as fast, and leaner) where its
    estimate fits in half the memory free now, else whichever of the two needs less; "words"
    where its nodes would not fit int32."""
    if word_bytes + distinct + 1 > FLAT_MAX_NODES:  # (its node numbers are int32)
        return "words"
    flat = flat_memory(distinct, word_bytes, merges)
    free = available_memory() if available is None else available
    if free is None or flat <= free // 2:
        return "flat"
    return "flat" if flat <= training_memory(distinct, word_bytes, merges) else "words"


def human(n: int) -> str:
    """Decimal units, as the sizes beside it (1 GB = 10**9 bytes)."""
    return size_text(n) if n >= 10**9 else size_text(n, 0)


def describe_need(distinct: int, word_bytes: int, merges: int = 0, engine: str = "words") -> str:
    """One line for the user: the estimate (of the merge loop ``engine``) and what it rests on."""
    need = (_flat_need if engine == "flat" else training_memory)(distinct, word_bytes, merges)
    return (
        f"training needs about {human(need)} of memory ({distinct:,} distinct pre-tokens, "
        f"{word_bytes / 1e6:.1f} MB in all, {merges:,} merges)"
    )


def too_much(
    distinct: int, word_bytes: int, merges: int = 0, available: int | None = None, engine: str = "words"
) -> str | None:
    """A warning when the estimate (of the merge loop ``engine``) exceeds the machine's memory, else None."""
    total = physical_memory() if available is None else available
    if engine == "flat":
        need = _flat_need(distinct, word_bytes, merges, available)  # (the layout the run takes)
    else:
        need = training_memory(distinct, word_bytes, merges)
    if total is None or need <= total:
        return None
    return (
        f"warning: training needs about {human(need)} of memory, more than this machine has "
        f"({human(total)}); train on a smaller corpus or to a smaller vocab size, or count it with "
        "`bpe-explorer count` and train from the counts on a machine with more memory"
    )
