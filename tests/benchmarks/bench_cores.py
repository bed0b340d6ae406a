"""Many cores: the 1 GB comparison and the worker sweep in one prepared run (issue 29).

Meant for a machine with many cores that is lent for a few minutes: every step prints its rows as
soon as they are measured (and appends them to ``--out``/cores.md and cores.jsonl), so a run cut
short still leaves what it measured. Steps, in this order (``--steps`` to choose):

- ``corpus``: ``make_big_corpus.py --gb GB`` with seed 0 (gcide.utf8.txt from the corpora folder,
  or from ``gcide.utf8.txt.xz`` beside it), its SHA-256 printed to compare with other machines';
- ``train:W``: ours (``Trainer.from_file`` + ``run``, what ``train_bpe`` does, with workers=W and the
  count, start-up and merge phases timed apart), rustbpe and HF ``tokenizers`` (RAYON_NUM_THREADS=W),
  vocab 32,000, ``<|endoftext|>``, one run each, whole-process-tree peak memory;
- ``sweep``: ``bench_scale.py``'s worker sweep (1, 2, 4 … cores) on the first ``--sweep-mb`` MB of the
  corpus: wall, parent and worker CPU per MB, Amdahl's prediction;
- ``machine:N``: the machine apart from our code: the same counting work in one process alone, then
  in N processes at once (CPU per process: what N busy cores cost each other);
- ``shard:W``: the merge loop with the words split among W processes, from the code of another
  checkout (``BPE_SHARD_CODE``: the branch ``shard-experiment``), counts by W workers.

    python tests/benchmarks/bench_cores.py --gb 1.0 --steps corpus,train:16,sweep,train:4 --out /tmp/cores

What each step took on a 16-core Xeon (2026-11-26): corpus 49 s, train:16 142 s, shard:16 99 s,
sweep (200 MB, count and encode) 116 s, train:4 ~210 s; machine:16 ~10 s. A lent machine's call is
limited to 10 minutes: split the steps over two calls on the warm machine (the corpus stays there
while it is held; ``--steps`` without ``corpus`` uses the file already made).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import lzma
import os
import shutil
import sys
import time
from pathlib import Path

import bench_scale
import bench_training
import common
from common import MB, Context, fmt_s, run_child

SCRIPT = Path(__file__).resolve()
SPECIAL = "<|endoftext|>"
VOCAB = 32_000


# --------------------------------------------------------------------------- child tasks
def task_ours(path: str, vocab_size: int, workers: int) -> dict:
    from core import Trainer

    t_count = None

    def progress(phase: str, done: int, total: int) -> None:
        nonlocal t_count
        if phase == "pretokenize":
            t_count = time.perf_counter()

    from core.pretokenization.pretokenize import count_pretokens_ordered
    from core.pretokenization.sharded_count import word_bytes as words_bytes
    from core.training.flat import lean_merger
    from core.training.memory_need import lean_engine

    t0 = time.perf_counter()
    counts, stats = count_pretokens_ordered(path, [SPECIAL], "gpt2", workers=workers, progress=progress)
    # the merge loop train_bpe takes (core.training.memory_need.lean_engine), built as it builds it
    word_bytes = words_bytes(counts)
    engine = lean_engine(len(counts), word_bytes, vocab_size - 257)
    if engine == "flat":
        trainer = lean_merger(
            counts,
            "lexicographic",
            [SPECIAL],
            pattern="gpt2",
            stats=stats,
            vocab_size=vocab_size,
            word_bytes=word_bytes,
        )
    else:
        trainer = Trainer(counts, [SPECIAL], keep_history=False, stats=stats)
    del counts
    t1 = time.perf_counter()
    trainer.run(vocab_size, min_interval=50)
    t2 = time.perf_counter()
    t_count = t_count or t1
    return {
        "seconds": t2 - t0,
        "count_s": t_count - t0,
        "startup_s": t1 - t_count,
        "merge_s": t2 - t1,
        "engine": engine,
        "distinct": trainer.stats.distinct_pretokens,
        "n_merges": len(trainer.merges),
        "digest": bench_scale._merges_digest(trainer.merges),
    }


def task_shard(path: str, vocab_size: int, workers: int, shards: list[int]) -> dict:
    from core.training.sharded import ShardedTrainer

    from core.pretokenization.pretokenize import count_pretokens_ordered

    t0 = time.perf_counter()
    counts, stats = count_pretokens_ordered(path, [SPECIAL], workers=workers)
    out: dict = {"count_s": time.perf_counter() - t0, "distinct": len(counts), "runs": {}}
    for s in shards:
        t1 = time.perf_counter()
        trainer = ShardedTrainer(counts, [SPECIAL], shards=s, stats=stats)
        t2 = time.perf_counter()
        trainer.run(vocab_size)
        t3 = time.perf_counter()
        out["runs"][str(s)] = {
            "startup_s": t2 - t1,
            "merge_s": t3 - t2,
            "n_merges": len(trainer.merges),
            "digest": bench_scale._merges_digest(trainer.merges),
        }
    return out


def _version(mod: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(mod)
    except PackageNotFoundError:
        return "not installed"


def task_same_work(path: str, n_bytes: int, copies: int) -> dict:
    """The machine's own scaling, apart from ours: ``copies`` processes at once, each pre-tokenizing
    and counting the same first ``n_bytes`` of ``path`` in one process (no workers, no exchange);
    the CPU seconds of each. On a machine whose cores are all its own, N copies cost each what one
    alone costs; where they share execution units, caches or memory bandwidth, each costs more."""
    import subprocess

    code = (
        "import resource, sys\n"
        "from core.pretokenization.pretokenize import GPT2_PATTERN, _count_chunk_plain\n"
        "data = open(sys.argv[1], 'rb').read(int(sys.argv[2]))\n"
        "before = resource.getrusage(resource.RUSAGE_SELF)\n"
        "r = _count_chunk_plain(data, GPT2_PATTERN, ('<|endoftext|>',))\n"
        "after = resource.getrusage(resource.RUSAGE_SELF)\n"
        "print(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)\n"
    )
    t0 = time.perf_counter()
    procs = [
        subprocess.Popen([sys.executable, "-c", code, path, str(n_bytes)], stdout=subprocess.PIPE, text=True)
        for _ in range(copies)
    ]
    cpu = [float(p.communicate()[0]) for p in procs]
    return {"wall": time.perf_counter() - t0, "cpu": cpu}


TASKS = {
    "same_work": task_same_work,
    "ours": task_ours,
    "shard": task_shard,
    "rustbpe": bench_scale.task_rustbpe,
    "hf": bench_training.task_hf,
}


# --------------------------------------------------------------------------- parent
class Report:
    def __init__(self, out: Path) -> None:
        self.out = out
        out.mkdir(parents=True, exist_ok=True)

    def line(self, text: str) -> None:
        print(text, flush=True)
        with open(self.out / "cores.md", "a", encoding="utf-8") as f:
            f.write(text + "\n")

    def data(self, **kw) -> None:
        with open(self.out / "cores.jsonl", "a", encoding="utf-8") as f:
            f.write(json.dumps(kw) + "\n")


def _corpora() -> Path:
    """``BPE_CORPORA`` as given (it may hold only gcide.utf8.txt[.xz]), else the benchmarks' folder."""
    given = os.environ.get("BPE_CORPORA")
    return Path(given) if given else common.corpora_dir()


def make_corpus(corpora: Path, gb: float, rep: Report) -> Path:
    import make_big_corpus

    gcide = corpora / "gcide.utf8.txt"
    if not gcide.is_file():
        packed = corpora / "gcide.utf8.txt.xz"
        with lzma.open(packed) as src, open(gcide, "wb") as dst:
            shutil.copyfileobj(src, dst, 16 * MB)
    path = corpora / f"big_{gb:g}gb_seed0.txt"
    t0 = time.perf_counter()
    if not path.is_file():
        make_big_corpus.generate(path, int(gb * 1e9), 0, gcide=gcide, log=lambda m: None)
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(64 * MB):
            h.update(block)
    rep.line(
        f"- corpus {path.name}: {path.stat().st_size:,} bytes, sha256 {h.hexdigest()} "
        f"({time.perf_counter() - t0:.0f} s to make and hash)"
    )
    return path


def train_rows(path: Path, workers: int, rep: Report, trainers: list[str]) -> None:
    rayon = {"RAYON_NUM_THREADS": str(workers), "TOKENIZERS_PARALLELISM": "true"}
    size = path.stat().st_size / MB
    rep.line(
        "\n| trainer | workers | wall (process) | count | start-up | merges | peak RSS (tree) | merges | "
        "digest |\n|---|---|---|---|---|---|---|---|---|"
    )
    for name in trainers:
        args = {"path": str(path), "vocab_size": VOCAB}
        env = None
        if name == "ours":
            args["workers"] = workers
        else:
            env = rayon
        try:
            r = run_child(SCRIPT, name, args, env=env, timeout=900)
        except Exception as e:  # (the next trainer still runs)
            rep.line(f"| {name} | {workers} | failed: {str(e)[-300:]!r} | | | | | | |")
            continue
        d = r.data
        merges = d.get("n_merges", d.get("vocab", 0) - 257)
        rep.line(
            f"| {name} | {workers} | {fmt_s(d['seconds'])} | {fmt_s(d['count_s']) if 'count_s' in d else '–'} | "
            f"{fmt_s(d['startup_s']) if 'startup_s' in d else '–'} | "
            f"{fmt_s(d['merge_s']) if 'merge_s' in d else '–'} | {r.tree_peak_mb:,.0f} MB | {merges:,} | "
            f"{d.get('digest', '–')[:10]} |"
        )
        rep.data(step="train", trainer=name, workers=workers, mb=size, peak_mb=r.tree_peak_mb, **d)


def shard_rows(path: Path, workers: int, rep: Report) -> None:
    code = os.environ.get("BPE_SHARD_CODE")
    if not code:
        rep.line("- shard: BPE_SHARD_CODE not set, skipped")
        return
    shards = sorted({workers, max(2, workers // 2)}, reverse=True)
    env = {"PYTHONPATH": os.pathsep.join([code, str(SCRIPT.parent), os.environ.get("PYTHONPATH", "")])}
    try:
        r = run_child(
            SCRIPT,
            "shard",
            {"path": str(path), "vocab_size": VOCAB, "workers": workers, "shards": shards},
            env=env,
            timeout=900,
        )
    except Exception as e:
        rep.line(f"- shard: failed: {str(e)[-500:]}")
        return
    d = r.data
    rep.line(
        f"\n- sharded merge loop ({code}): counted by {workers} workers in {fmt_s(d['count_s'])}, "
        f"{d['distinct']:,} distinct, peak {r.tree_peak_mb:,.0f} MB"
    )
    for s, x in d["runs"].items():
        rep.line(
            f"  - {s} shards: start-up {fmt_s(x['startup_s'])}, merges {fmt_s(x['merge_s'])}, "
            f"{x['n_merges']:,} merges, digest {x['digest'][:10]}"
        )
    rep.data(step="shard", workers=workers, peak_mb=r.tree_peak_mb, **d)


def machine_rows(path: Path, copies: int, rep: Report, mb: int = 20) -> None:
    """One process alone, then ``copies`` at once, on the same work (see :func:`task_same_work`)."""
    rows = []
    for n in (1, copies):
        r = run_child(SCRIPT, "same_work", {"path": str(path), "n_bytes": mb * 1_000_000, "copies": n})
        cpu = r["cpu"]
        rows.append((n, sum(cpu) / len(cpu), max(cpu)))
        rep.data(step="machine", copies=n, mb=mb, **r.data)
    alone = rows[0][1]
    rep.line(
        f"\n- the machine apart from ours: pre-tokenizing and counting {mb} MB in one process: "
        + "; ".join(
            f"{n} at once {mean:.2f} s CPU each (max {top:.2f} s, {mean / alone:.2f}× alone)"
            for n, mean, top in rows
        )
    )


def sweep_rows(path: Path, mb: int, rep: Report) -> None:
    part = common.slice_file(path, mb * 1_000_000, f"{path.stem}_{mb}mb.txt")
    os.environ.setdefault("BPE_SWEEP_PHASES", "count,encode")
    ctx = Context(quick=False, reps=1)
    for sec in bench_scale.sweep(ctx, part):
        rep.line("\n" + sec.markdown())


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--gb", type=float, default=1.0)
    p.add_argument("--steps", default="corpus,machine:16,train:16,sweep,train:4")
    p.add_argument("--trainers", default="ours,rustbpe,hf")
    p.add_argument("--sweep-mb", type=int, default=200)
    p.add_argument("--out", default=os.environ.get("OUT", str(common.work_dir() / "cores")))
    a = p.parse_args(argv)
    rep = Report(Path(a.out))
    t_start = time.perf_counter()
    rep.line(
        f"## bench_cores: {os.cpu_count()} cores, load {bench_scale._load()}, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )
    for info in common.machine_info():
        rep.line(f"- {info}")
    rep.line(f"- rustbpe {_version('rustbpe')}")
    path = None
    for step in a.steps.split(","):
        name, _, arg = step.partition(":")
        t0 = time.perf_counter()
        print(
            f"[cores] {step} (at {t0 - t_start:.0f} s, load {bench_scale._load()})",
            file=sys.stderr,
            flush=True,
        )
        if name == "corpus":
            path = make_corpus(_corpora(), a.gb, rep)
            common.warm(path)
            continue
        if path is None:
            path = _corpora() / f"big_{a.gb:g}gb_seed0.txt"
        if name == "train":
            train_rows(path, int(arg), rep, a.trainers.split(","))
        elif name == "shard":
            shard_rows(path, int(arg), rep)
        elif name == "machine":
            machine_rows(path, int(arg or os.cpu_count() or 1), rep)
        elif name == "sweep":
            sweep_rows(path, a.sweep_mb, rep)
        else:
            raise SystemExit(f"unknown step {step!r}")
        print(f"[cores] {step}: {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    rep.line(f"\n- whole run {time.perf_counter() - t_start:.0f} s")
    return 0


if __name__ == "__main__":
    if not common.child_main(TASKS):
        raise SystemExit(main())
