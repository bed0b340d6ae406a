"""The pair table before an earlier merge (``Trainer.pairs_before``, what the app asks when a merge
is picked) beside its peer, the table now (``Trainer.top_pairs``), on the bundled sample and on
the 40 MB corpus after 10,000 merges. CPU time of this process (the machine may be shared), the
median of 5 per merge picked, and how far the history was read (forward or backward).

    python tests/benchmarks/bench_past_pairs.py [corpus] [merges] [lexicographic|first]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from core.memory import paused_gc
from core.training.trainer import Trainer

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "assets" / "sample_corpus.txt"
BIG = Path("/tmp/bpe-corpora/gcide.utf8.txt")


def cpu_ms(f, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        f()
        times.append((time.process_time() - t0) * 1000)
    return statistics.median(times)


def bench(path: Path, merges: int, tie_break: str = "lexicographic") -> None:
    t = Trainer.from_file(path, ["<|endoftext|>"], workers=1, tie_break=tie_break)  # type: ignore[arg-type]
    with paused_gc():
        t.steps(merges)
    n = len(t.merges)
    changes = sum(len(r.deltas) for r in t.records)
    print(f"{path.name}: {n:,} merges, {changes:,} count changes kept, tie rule {tie_break}")
    now = cpu_ms(lambda: t.top_pairs(100))
    print(f"  table now (top_pairs(100)): {now:.2f} ms")
    worst = 0.0
    for rank in sorted({0, 4, 9, n // 10, n // 4, n // 2, 3 * n // 4, n - 10, n - 1}):
        way = t.pairs_before(rank, 100).way
        ms = cpu_ms(lambda rank=rank: t.pairs_before(rank, 100))
        worst = max(worst, ms)
        print(
            f"  before merge #{rank + 1:>6,}: {ms:8.2f} ms ({way}; {ms / max(now, 1e-3):,.0f}x the table now)"
        )
    print(f"  slowest selection: {worst:.1f} ms")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        bench(
            Path(sys.argv[1]),
            int(sys.argv[2]) if len(sys.argv) > 2 else 10_000,
            sys.argv[3] if len(sys.argv) > 3 else "lexicographic",
        )
    else:
        bench(SAMPLE, 500)
        if BIG.exists():
            bench(BIG, 10_000)
            bench(BIG, 10_000, "first")
