"""Exact integer sums of counts (pair counts are sums of word counts), and the bound on accepted counts.

``np.bincount`` with weights sums in float64: exact only while every partial sum stays below 2^53.
:func:`int_bincount` uses it when that is certain (the usual case: fast) and an exact int64 sum
otherwise. The trainer accepts counts while every pair count fits int64 with room to spare
(:func:`core.training.count_bounds.check_counts`).

>>> import numpy as np
>>> big = 2**54
>>> int_bincount(np.array([0, 0, 1]), np.array([big, 1, 5])).tolist()
[18014398509481985, 5]
"""

from __future__ import annotations

import numpy as np

#: exact in float64: every integer up to 2^53
FLOAT_EXACT = 1 << 53


def int_bincount(ids: np.ndarray, weights: np.ndarray, minlength: int = 0) -> np.ndarray:
    """``np.bincount(ids, weights, minlength)`` as exact int64 sums (``weights`` are integers)."""
    weights = np.asarray(weights, dtype=np.int64)
    if not ids.size:
        return np.zeros(minlength, dtype=np.int64)
    top = int(np.abs(weights).max())
    if top * ids.size < FLOAT_EXACT:  # no sum can reach 2^53: the float sums are exact
        return np.bincount(ids, weights.astype(np.float64), minlength).round().astype(np.int64)
    out = np.zeros(max(minlength, int(ids.max()) + 1), dtype=np.int64)
    np.add.at(out, ids, weights)
    return out
