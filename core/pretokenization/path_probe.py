"""Timing the chunk path on part of a block, not all of it.

A process that counts pre-tokens times the path by chunks against the plain path
(:class:`core.pretokenization.space_chunks.PathChooser`) and keeps the faster. Where chunks lose
(text whose chunks rarely repeat: dictionaries, many-word corpora, Chinese, by 25–50%), a probe over
a whole block cost a quarter or more of that block's time again; with four blocks per worker
process (what :func:`core.pretokenization.blocks.auto_block_bytes` plans) that was 6–12% of all the
counting. The probe now runs the chunk path on a stretch of about a quarter of the block and the
plain path on the stretch after it (the same size, so that both rates are measured alike), and the
plain path on the rest; the stretches are cut at valid cuts
(:func:`core.pretokenization.range_cuts.next_valid_cut`, the cuts between worker ranges), so the
counts of the pieces, joined in order, are the block's.
"""

from __future__ import annotations

import io

from core.pretokenization.range_cuts import next_valid_cut, range_rule

MIN_PROBE_BYTES = 1 << 16  # a smaller block is probed whole
PROBE_BYTES = 1 << 20  # a probe stretch of at least this much (where the block has three times as much)


def probe_cuts(data: bytes, pattern: str | None, specials: tuple[str, ...]) -> tuple[int, int] | None:
    """Two valid cuts ``a < b`` of ``data``: ``data[:a]`` for the chunk path, ``data[a:b]`` for the
    plain path, both of about a quarter of the block (a third of a block under 3 MB); None when
    the block is small or has no cut near there (it is probed whole)."""
    n = len(data)
    if n < MIN_PROBE_BYTES:
        return None
    rule = range_rule(pattern)
    step = max(n // 4, min(n // 3, PROBE_BYTES))
    f = io.BytesIO(data)
    a = next_valid_cut(f, step, n, specials, rule)
    if a >= n or a > n // 2:
        return None
    b = next_valid_cut(f, min(n, 2 * a), n, specials, rule)
    return a, b
