"""Reset and rewind (Train -> Reset, "Rewind to here") on the 40 MB corpus after 5,000 merges.

Ours now (``Trainer.undo_to_in_two``: a reset restores the state kept at 0 merges; a rewind undoes
with summed count changes or resets and replays, by cost; the undone history is freed afterwards,
when the app is quiet) against the path before it (``undo_to_before`` below: every undone merge's
words put back and its history freed in turn, the count changes summed and applied once), in one
process on the same trained state; the first step while the history is freed in a thread. The
same through the app (offscreen window, until it has shown the result), and the peak memory of
keeping the start state, on 400 MB.

    python tests/benchmarks/bench_rewind.py [--quick]
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import common
from common import Context, Section, fmt_mb, fmt_ratio, fmt_s, med, run_child

SCRIPT = Path(__file__).resolve()
MERGES = 5000
# (from, to): a reset from the end, a rewind to half way, the reset after it, a rewind to merge 10
CASES = ((MERGES, 0), (MERGES, MERGES // 2), (MERGES // 2, 0), (MERGES, 10))


# --------------------------------------------------------------------------- child tasks
def task_rewind(path: str, merges: int) -> dict:
    import gc

    from core.memory import paused_gc
    from core.training.trainer import Trainer

    gc.disable()  # as in the engine process
    t = Trainer.from_file(path, ["<|endoftext|>"], workers=2)

    def train_to(n: int) -> None:
        with paused_gc():
            t.steps(n - len(t.merges))

    out: dict[str, dict[str, float]] = {}
    clock = time.perf_counter
    for a, b in CASES:
        a, b = min(a, merges), min(b, merges)
        key = f"{a}->{b}"
        train_to(a)
        t0 = clock()
        _n, release = t.undo_to_in_two(b)
        t1 = clock()
        release()
        t2 = clock()
        # the next step while the engine frees the history in its thread, and without that
        t.undo_to(b)
        train_to(a)
        _n, release = t.undo_to_in_two(b, background=True)
        release()
        t5 = clock()
        t.step()
        step_during = clock() - t5
        for th in threading.enumerate():
            if th.name == "free undone merges":
                th.join()
        t.undo()
        t5 = clock()
        t.step()
        step_after = clock() - t5
        train_to(a)
        t3 = clock()
        undo_to_before(t, b)
        t4 = clock()
        out[key] = {
            "new": t1 - t0,
            "new_release": t2 - t1,
            "old": t4 - t3,
            "step_during_free": step_during,
            "step_after_free": step_after,
        }
    return {"seconds": 0.0, "cases": out, "words": len(t._words)}


def undo_to_before(t, keep: int) -> None:
    """``Trainer.undo_to`` as it was before the start state (commit b00d9cc): every undone merge's
    words put back and its history freed in turn, the count changes summed and applied once."""
    total: dict = {}
    for _ in range(len(t.merges) - keep):
        last = t._history.pop()
        for p, d in last.record.deltas:
            total[p] = total.get(p, 0) - d
        t._index.truncate(last.index_sizes)
        t.merges.pop()
        t.records.pop()
        t._restore_words(last)
    t._index.apply_deltas(total)


def task_memory(path: str, keep_start: bool, merges: int) -> dict:
    import core.training.trainer as tr

    if not keep_start:  # the trainer as before: no start state kept
        tr.TrainerStart = lambda *_args: None  # type: ignore[misc,assignment]
    t0 = time.perf_counter()
    t = tr.Trainer.from_file(path, ["<|endoftext|>"], workers=2)
    with tr.paused_gc():
        t.steps(merges)
    return {"seconds": time.perf_counter() - t0, "words": len(t._words)}


def task_app(path: str, merges: int, profile: bool = False) -> dict:
    """Through the app, offscreen: Train -> Reset and Rewind to merge N/2, from the call until the
    window has shown the result (the controller's update done and the event queue empty)."""
    import os
    import sys

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    app = QApplication([sys.argv[0]])
    from bpe_gui import create_window

    w = create_window(load_sample=False)
    w.show()
    c = w.controller
    clock = time.perf_counter
    errors: list[str] = []
    c.error.connect(errors.append)

    def wait_for(signal, timeout_s: float) -> float:
        loop = QEventLoop()
        got: list[float] = []

        def done(*_a) -> None:
            got.append(clock())
            loop.quit()

        signal.connect(done)
        if not got:
            QTimer.singleShot(int(timeout_s * 1000), loop.quit)
            loop.exec()
        signal.disconnect(done)
        if errors or not got:
            raise RuntimeError(errors[-1] if errors else f"timed out waiting for {signal}")
        return got[0]

    def idle() -> float:
        """When the event queue is next empty (the window's deferred updates done)."""
        app.processEvents()
        return clock()

    c.load_corpus(path)
    wait_for(c.corpus_loaded, 900)
    vocab = 256 + len(c.options.special_tokens)
    out = {}
    prof = None
    if profile:
        import cProfile

        prof = cProfile.Profile()
    for name, keep in (("reset", 0), ("rewind", merges // 2), ("reset after rewind", 0)):
        if c.index.n_merges < merges:
            c.train(vocab + merges)
            wait_for(c.trained, 1800)
            idle()
        removed: list[float] = []
        slot = lambda _n, got=removed: got.append(clock())  # noqa: E731
        c.merges_removed.connect(slot)
        t0 = clock()
        if prof:
            prof.enable()
        c.rewind_to(keep)
        if not removed:
            wait_for(c.merges_removed, 120)
        t1 = removed[0]
        t2 = idle()
        if prof:
            prof.disable()
        c.merges_removed.disconnect(slot)
        assert c.index.n_merges == keep, (c.index.n_merges, keep)
        out[name] = {"removed": t1 - t0, "shown": t2 - t0}
    w.close()
    if prof:
        import pstats

        pstats.Stats(prof, stream=sys.stderr).sort_stats("cumulative").print_stats(40)
    return {"seconds": out["reset"]["shown"], "cases": out}


TASKS = {"rewind": task_rewind, "memory": task_memory, "app": task_app}


# --------------------------------------------------------------------------- parent
def run(ctx: Context) -> list[Section]:
    corpus = ctx.corpus_40(utf8=False)
    merges = 1000 if ctx.quick else MERGES
    sec = Section(
        f"Reset and rewind after {merges:,} merges ({corpus.name}, engine side)",
        [
            "from -> to",
            "ours: until answered",
            "ours: freeing the undone history later",
            "before (undo merge by merge, counts summed)",
            "before / ours",
            "runs (ours / before)",
        ],
    )
    ctx.log(f"[rewind] {corpus.name}: {ctx.reps} runs")
    runs = [run_child(SCRIPT, "rewind", {"path": str(corpus), "merges": merges}) for _ in range(ctx.reps)]
    for key in runs[0]["cases"]:
        new = [r["cases"][key]["new"] for r in runs]
        rel = [r["cases"][key]["new_release"] for r in runs]
        old = [r["cases"][key]["old"] for r in runs]
        sec.rows.append(
            [
                key,
                fmt_s(common.median(new)),
                fmt_s(common.median(rel)),
                fmt_s(common.median(old)),
                fmt_ratio(common.median(old) / common.median(new)),
                " / ".join(f"{x:.3f} vs {y:.3f}" for x, y in zip(new, old)),
            ]
        )
    during = [r["cases"][f"{merges}->0"]["step_during_free"] for r in runs]
    after = [r["cases"][f"{merges}->0"]["step_after_free"] for r in runs]
    sec.notes.append(
        f"The first step right after a reset, while the history is freed in the engine's thread: "
        f"{fmt_s(common.median(during))} (the same step once it is freed: {fmt_s(common.median(after))})."
    )
    sec.notes.append(
        '"Until answered" is what the app waits for; the engine frees the undone merges\' history '
        "(millions of word strings and count changes) after answering, while the app is quiet."
    )
    app = Section(
        f"Reset and rewind through the app after {merges:,} merges ({corpus.name}, offscreen window)",
        ["action", "until the controller has the result", "until the window has shown it", "runs"],
    )
    try:
        import tempfile

        settings = Path(tempfile.mkdtemp(prefix="bpe-bench-rewind-")) / "settings.ini"
        env = {"QT_QPA_PLATFORM": "offscreen", "BPE_EXPLORER_SETTINGS": str(settings)}
        apps = [
            run_child(SCRIPT, "app", {"path": str(corpus), "merges": merges}, env=env)
            for _ in range(max(1, ctx.reps - 1))
        ]
    except RuntimeError as e:  # no Qt here: the engine table still stands
        app.notes.append(f"not measured: {str(e).splitlines()[0]}")
        apps = []
    for key in apps[0]["cases"] if apps else ():
        removed = [r["cases"][key]["removed"] for r in apps]
        shown = [r["cases"][key]["shown"] for r in apps]
        app.rows.append(
            [
                key if key != "rewind" else f"rewind {merges:,} -> {merges // 2:,}",
                fmt_s(common.median(removed)),
                fmt_s(common.median(shown)),
                " / ".join(f"{x:.3f}" for x in shown),
            ]
        )
    app.notes.append(
        "From `controller.rewind_to(keep)` until the controller emitted `merges_removed` (engine "
        "request in the worker thread, reply applied) and until the event queue was next empty "
        "(the views updated). The reset first comes from 5,000 merges; the last reset from 2,500."
    )
    if not ctx.quick:
        big = ctx.corpora / "gcide_x10.txt"
        ctx.log(f"[rewind] peak memory on {big.name}, with and without the start state")
        res = common.alternate(
            {
                "with start state": lambda: run_child(
                    SCRIPT, "memory", {"path": str(big), "keep_start": True, "merges": 1000}
                ),
                "without": lambda: run_child(
                    SCRIPT, "memory", {"path": str(big), "keep_start": False, "merges": 1000}
                ),
            },
            1,
            ctx.log,
        )
        with_, without = res["with start state"], res["without"]
        sec.notes.append(
            f"Peak memory, {big.name}, load + 1,000 merges: {fmt_mb(with_[0]['rss_self_mb'])} with the "
            f"start state, {fmt_mb(without[0]['rss_self_mb'])} without (process peak; "
            f"{with_[0]['words']:,} distinct words; {fmt_s(med(with_))} / {fmt_s(med(without))})."
        )
    return [sec, app]


if __name__ == "__main__":
    common.script_main(TASKS, run)
