"""Merge loop: merges per second on the 40 MB corpus's word counts, and the latency of single
``Trainer.step()`` / ``Trainer.undo()`` calls (p50/p95/max), which the GUI runs on its thread.

    python tests/benchmarks/bench_merge.py [--quick]
"""

from __future__ import annotations

import pickle
import time
from pathlib import Path

import common
from common import Context, Section, Target, alternate, dist, fmt_ms, fmt_s, med, run_child

SCRIPT = Path(__file__).resolve()
SPECIAL = "<|endoftext|>"


# --------------------------------------------------------------------------- child tasks
def task_make_counts(path: str, out: str) -> dict:
    from core.pretokenization.pretokenize import count_pretokens

    counts, stats = count_pretokens(path, [SPECIAL], "gpt2", workers=2)
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        pickle.dump(counts, f, protocol=pickle.HIGHEST_PROTOCOL)
    Path(tmp).replace(out)
    return {"distinct": len(counts), "pretokens": stats.pretokens}


def _load(counts_path: str) -> dict[bytes, int]:
    with open(counts_path, "rb") as f:
        return pickle.load(f)


def task_merge_rate(counts_path: str, vocab_size: int, keep_history: bool) -> dict:
    from core import Trainer

    counts = _load(counts_path)
    t0 = time.perf_counter()
    t = Trainer(counts, [SPECIAL], keep_history=keep_history)
    t1 = time.perf_counter()
    recs = t.run(vocab_size)
    t2 = time.perf_counter()
    return {
        "seconds": t2 - t1,
        "init_s": t1 - t0,
        "n_merges": len(recs),
        "merges_per_s": len(recs) / (t2 - t1),
    }


def task_step_undo(counts_path: str, n: int) -> dict:
    """Time every step() of the first ``n`` merges, then every undo() back to the start."""
    from core import Trainer

    counts = _load(counts_path)
    t = Trainer(counts, [SPECIAL], keep_history=True)
    clock = time.perf_counter
    steps, undos = [], []
    for _ in range(n):
        t0 = clock()
        r = t.step()
        steps.append((clock() - t0) * 1000)
        if r is None:
            break
    for _ in range(len(steps)):
        t0 = clock()
        t.undo()
        undos.append((clock() - t0) * 1000)
    return {
        "step": dist(steps),
        "undo": dist(undos),
        "step_first100": dist(steps[:100]),
        "undo_last100": dist(undos[-100:]),
        "n": len(steps),
        "slowest_step_rank": max(range(len(steps)), key=steps.__getitem__) if steps else -1,
    }


def task_gc_pause(counts_path: str, n: int) -> dict:
    """After ``n`` merges with undo history: how long a full cyclic garbage collection takes and how
    many objects the collector tracks (the trainer keeps its bulk where the collector never looks:
    see tests/benchmarks/README.md, "Performance note")."""
    import gc

    from core import Trainer

    counts = _load(counts_path)
    gc.collect()
    base = len(gc.get_objects())
    t = Trainer(counts, [SPECIAL], keep_history=True)
    t.steps(n)
    tracked = len(gc.get_objects()) - base
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        gc.collect()
        times.append((time.perf_counter() - t0) * 1000)
    return {
        "full_gc_ms": sorted(times)[2],
        "tracked": tracked,
        "n": t.n_merges,
        "distinct_words": len(counts),
    }


TASKS = {
    "make_counts": task_make_counts,
    "merge_rate": task_merge_rate,
    "step_undo": task_step_undo,
    "gc_pause": task_gc_pause,
}


# --------------------------------------------------------------------------- parent
def counts_file(ctx: Context, path: Path) -> Path:
    """Pre-token counts of ``path`` pickled once in the work dir (computed in a child)."""
    out = common.work_dir() / f"counts_{path.name}.pickle"
    if not out.is_file() or out.stat().st_mtime < path.stat().st_mtime:
        ctx.log(f"[merge] counting pre-tokens of {path.name} once")
        run_child(SCRIPT, "make_counts", {"path": str(path), "out": str(out)})
    return out


def run(ctx: Context) -> list[Section]:
    path = ctx.corpus_40()
    cpath = counts_file(ctx, path)
    vocab = 10_000
    reps = ctx.reps
    ctx.log(f"[merge] merge loop on {path.name}'s word counts to vocab {vocab}, {reps} reps")
    res = alternate(
        {
            "history off": lambda: run_child(
                SCRIPT, "merge_rate", {"counts_path": str(cpath), "vocab_size": vocab, "keep_history": False}
            ),
            "history on": lambda: run_child(
                SCRIPT, "merge_rate", {"counts_path": str(cpath), "vocab_size": vocab, "keep_history": True}
            ),
        },
        reps,
        ctx.log,
    )
    sec = Section(
        f"Merge loop: {path.name} word counts, vocab {vocab:,} (one process)",
        ["trainer", "build pair index", "merges", "merge time", "merges/s"],
    )
    for name, rs in res.items():
        sec.rows.append(
            [
                f"`Trainer(keep_history={name == 'history on'})`",
                fmt_s(med(rs, "init_s")),
                f"{rs[0]['n_merges']:,}",
                fmt_s(med(rs)),
                f"{med(rs, 'merges_per_s'):,.0f}",
            ]
        )
    sec.notes.append("`train_bpe` uses keep_history=False; the GUI keeps history for undo.")

    n = 1000 if ctx.quick else 5000
    ctx.log(f"[merge] step/undo latency over {n} merges")
    su = run_child(SCRIPT, "step_undo", {"counts_path": str(cpath), "n": n})
    lat = Section(
        f"Step and undo latency: {path.name}, `Trainer.step()` / `undo()` in one process",
        ["operation", "calls", "p50", "p95", "max"],
    )
    for key, label in (
        ("step", f"step (merges 1–{su['n']:,})"),
        ("step_first100", "step (first 100 merges)"),
        ("undo", f"undo (all {su['n']:,}, last merge first)"),
        ("undo_last100", "undo (of the first 100 merges)"),
    ):
        d = su[key]
        lat.rows.append([label, f"{d['n']:,}", fmt_ms(d["p50"]), fmt_ms(d["p95"]), fmt_ms(d["max"])])
    lat.notes.append(
        f"Slowest step: merge {su['slowest_step_rank'] + 1}. The GUI adds its view updates "
        "on top (see the GUI section)."
    )
    p95 = max(su["step"]["p95"], su["undo"]["p95"])
    ctx.targets.append(
        Target(f"core step/undo p95 ({path.name}, {su['n']:,} merges)", "≤ 30 ms", "", fmt_ms(p95), p95 <= 30)
    )
    first = max(su["step_first100"]["p95"], su["undo_last100"]["p95"])
    ctx.targets.append(
        Target(
            f"core step/undo p95, first 100 merges ({path.name})", "≤ 30 ms", "", fmt_ms(first), first <= 30
        )
    )
    ctx.shared["step_undo"] = su
    ctx.log(f"[merge] full garbage collection after {n} merges")
    g = run_child(SCRIPT, "gc_pause", {"counts_path": str(cpath), "n": n})
    lat.notes.append(
        f"A full cyclic garbage collection after {g['n']:,} merges (undo history kept, "
        f"{g['distinct_words']:,} distinct words) takes {fmt_ms(g['full_gc_ms'])}; the trainer "
        f"added {g['tracked']:,} objects the collector tracks (see the performance note in "
        "tests/benchmarks/README.md)."
    )
    return [sec, lat]


if __name__ == "__main__":
    common.script_main(TASKS, run)
