"""The bound on the word counts a trainer accepts: positive integers whose pair counts fit int64.

A pair is counted at most sum(count) x (longest word) times; that must stay below 2^62, so every
sum the trainer makes (:func:`core.pretokenization.exact_counts.int_bincount`, Python ints, int64 arrays) is exact.
A corpus of 10 TB holds about 2^43 pre-tokens: real counts are far below the bound.

>>> check_counts([b"ab"], [2**61])
Traceback (most recent call last):
...
core.errors.CorpusError: the counts sum to 2,305,843,009,213,693,952 over words of up to 2 bytes: ...
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from core.errors import CorpusError

#: the most a pair can be counted (sum of counts x the longest word stays below this)
MAX_PAIR_TOTAL = 1 << 62


def check_counts(words: Sequence[bytes], counts: Sequence[int]) -> None:
    """Refuse counts that are not positive integers, or so large that a pair count could pass 2^62."""
    if not counts:
        return
    total: object
    low: object
    try:
        total, low = sum(counts), min(counts)
    except TypeError:
        total = low = None
    if type(total) is not int or type(low) is not int:  # a float, str, or NumPy ints (whose sum could wrap)
        bad = [c for c in counts if isinstance(c, bool) or not isinstance(c, (int, np.integer))]
        if bad:
            raise CorpusError(
                f"a word count is {bad[0]!r}; counts must be positive integers",
                code="counts_not_int",
                shown=repr(bad[0])[:40],
            )
        total, low = sum(map(int, counts)), min(map(int, counts))
    assert isinstance(total, int) and isinstance(low, int)
    if low < 1:
        raise CorpusError(
            f"a word count is {low}; counts must be positive integers", code="counts_not_positive", shown=low
        )
    longest = max(map(len, words), default=1)
    if total * max(longest, 1) >= MAX_PAIR_TOTAL:
        raise CorpusError(
            f"the counts sum to {total:,} over words of up to {longest:,} bytes: a pair could be counted "
            f"{total * longest:,} times, more than this trainer sums exactly (2^62); these counts are "
            "damaged or too large (a corpus of exabytes)",
            code="counts_too_large",
            total=f"{total:,}",
            longest=f"{longest:,}",
            pairs=f"{total * longest:,}",
        )
