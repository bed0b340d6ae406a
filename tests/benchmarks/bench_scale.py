"""Scaling: a diverse corpus with millions of distinct words (make_big_corpus.py), vocab 32k.

Side by side in one run: our ``train_bpe``; count-then-train (``count_files`` → counts file →
``train_bpe_from_counts``) with local processes and with a Dask LocalCluster; HF ``tokenizers``;
``rustbpe`` (nanochat's trainer). Then encoding the corpus to ``.npy`` with all cores, ours
(``encode_file_to_npy``) vs tiktoken ``encode_batch`` (same GPT-2 vocabulary), streamed in 64 MB
pieces so that both fit in memory. Time and peak memory (whole process tree) of each.

    python tests/benchmarks/bench_scale.py            # 0.1 GB generated corpus (development size)
    python tests/benchmarks/bench_scale.py --big      # the ≥ 2 GB corpus: tens of minutes, GBs of RAM
    python tests/benchmarks/run_all.py --only scale [--big]
    python tests/benchmarks/bench_scale.py --sweep    # workers 1, 2, 4 … cores: CPU per MB, Amdahl
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from pathlib import Path

import bench_training
import common
from common import MB, Context, Section, fmt_mb, fmt_ratio, fmt_s, run_child

SCRIPT = Path(__file__).resolve()
SPECIAL = "<|endoftext|>"
WORKERS = 2
VOCAB = 32_000
RAYON = {"RAYON_NUM_THREADS": str(WORKERS), "TOKENIZERS_PARALLELISM": "true"}


def _merges_digest(merges) -> str:
    h = hashlib.sha1()
    for a, b in merges:
        h.update(a.hex().encode() + b" " + b.hex().encode() + b"\n")
    return h.hexdigest()


# --------------------------------------------------------------------------- child tasks
def task_counts(path: str, vocab_size: int, engine: str, out: str) -> dict:
    from core.scale.counts import count_files, train_bpe_from_counts
    from core.scale.counts_io import write_counts

    t0 = time.perf_counter()
    if engine == "dask":
        from core.scale.dask_scale import count_dask

        counts = count_dask([path], [SPECIAL], workers=WORKERS)
    else:
        counts = count_files([path], [SPECIAL], workers=WORKERS)
    t1 = time.perf_counter()
    write_counts(counts, out)
    distinct = len(counts.tokens)
    del counts  # training reads the file, as `train --counts` does in its own process
    t2 = time.perf_counter()
    _vocab, merges = train_bpe_from_counts(out, vocab_size)
    t3 = time.perf_counter()
    return {
        "seconds": t3 - t0,
        "count_s": t1 - t0,
        "write_s": t2 - t1,
        "train_s": t3 - t2,
        "distinct": distinct,
        "counts_mb": os.path.getsize(out) / MB,
        "n_merges": len(merges),
        "digest": _merges_digest(merges),
    }


def task_ours(path: str, vocab_size: int) -> dict:
    r = bench_training.task_ours(path, vocab_size, workers=WORKERS, want_merges=True)
    merges = [(bytes.fromhex(a), bytes.fromhex(b)) for a, b in r.pop("merges")]
    r["digest"] = _merges_digest(merges)
    return r


def task_rustbpe(path: str, vocab_size: int) -> dict:
    """rustbpe as nanochat uses it: documents from an iterator, its GPT-4-style split by default; here
    the GPT-2 pattern like ours. It has no special tokens: ``<|endoftext|>`` is text to it."""
    import rustbpe

    from core.pretokenization.pretokenize import GPT2_PATTERN

    def docs():
        with open(path, encoding="utf-8") as f:
            while True:
                block = f.read(1 << 20)
                if not block:
                    return
                yield block

    tok = rustbpe.Tokenizer()
    t0 = time.perf_counter()
    tok.train_from_iterator(docs(), vocab_size, pattern=GPT2_PATTERN)
    return {"seconds": time.perf_counter() - t0, "vocab": tok.vocab_size}


def task_profile(counts: str, vocab_size: int, top: int = 14) -> dict:
    """cProfile of the merge loop over a counts file: where the time goes with millions of words."""
    import cProfile
    import io
    import pstats

    from core.scale.counts import trainer_from_counts

    t0 = time.perf_counter()
    trainer = trainer_from_counts(counts, keep_history=False)
    t1 = time.perf_counter()
    prof = cProfile.Profile()
    prof.enable()
    trainer.run(vocab_size)
    prof.disable()
    t2 = time.perf_counter()
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(top)
    rows = [ln for ln in buf.getvalue().splitlines() if ln.strip()]
    return {
        "build_s": t1 - t0,
        "merge_s_profiled": t2 - t1,
        "words": len(trainer._original),
        "profile": rows[-(top + 1) :],
    }


def _safe_pieces(path: str, piece: int = 64 * MB):
    """Text pieces of about ``piece`` bytes cut after "\\n" between printable ASCII and a letter."""
    import re

    safe = re.compile(rb"[!-~]\n(?=[A-Za-z])")
    with open(path, "rb") as f:
        rest = b""
        while True:
            data = f.read(piece)
            buf = rest + data
            if not data:
                if buf:
                    yield buf.decode("utf-8")
                return
            cut = None
            for m in safe.finditer(buf, max(0, len(buf) - (1 << 20))):
                cut = m.end()
            if cut is None:
                rest = buf
                continue
            yield buf[:cut].decode("utf-8")
            rest = buf[cut:]


def task_tiktoken_npy(path: str, out: str, workers: int) -> dict:
    """tiktoken over a file too big to hold as ids: 64 MB pieces, each cut into ~2 MB blocks at
    safe places, ``encode_batch`` on ``workers`` threads, appended to a ``.npy``."""
    import numpy as np

    from core.tokenization.npy import npy_header

    enc = common.gpt2_tiktoken()
    h = hashlib.sha1()
    n = 0
    t0 = time.perf_counter()
    with open(out, "wb") as f:
        f.write(npy_header(0, "uint16"))
        for text in _safe_pieces(path):
            for ids in common.tiktoken_encode_text(enc, text, workers):
                arr = np.asarray(ids, dtype="<u2")
                f.write(arr.tobytes())
                h.update(arr.astype("<u4").tobytes())
                n += arr.size
        f.seek(0)
        f.write(npy_header(n, "uint16"))
    return {"seconds": time.perf_counter() - t0, "n_tokens": n, "sha1": h.hexdigest()}


def task_ours_npy(path: str, out: str, workers: int) -> dict:
    import numpy as np

    from core.tokenization.npy import encode_file_to_npy

    tok = common.gpt2_ours()
    t0 = time.perf_counter()
    r = encode_file_to_npy(tok, path, out, workers=workers)
    secs = time.perf_counter() - t0
    ids = np.load(out, mmap_mode="r")
    h = hashlib.sha1()
    for i in range(0, ids.size, 1 << 24):
        h.update(np.asarray(ids[i : i + (1 << 24)], dtype="<u4").tobytes())
    return {"seconds": secs, "n_tokens": int(r.n_tokens), "sha1": h.hexdigest()}


def task_sweep(path: str, workers: int, phases: list[str], vocab_size: int) -> dict:
    """One point of the worker sweep: each phase's wall time and the CPU seconds of this process
    (the parent) and of its worker processes (reaped children: ``RUSAGE_CHILDREN``), measured
    apart, so that a shared machine's other load does not enter them as it enters wall time."""
    import resource

    from core.pretokenization import pretokenize

    def snap() -> tuple[float, float, float]:
        me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.perf_counter(), me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime

    def phase(name: str, a: tuple, b: tuple) -> None:
        out[name] = {"wall": b[0] - a[0], "parent": b[1] - a[1], "workers": b[2] - a[2]}

    out: dict = {}
    # what training uses: no dict built where the code can skip it (before this change: a dict)
    count = getattr(pretokenize, "count_pretokens_ordered", pretokenize.count_pretokens)
    a = snap()
    counts, stats = count(path, [SPECIAL], workers=workers)
    phase("count", a, snap())
    out["distinct"] = len(counts)
    if "count_dict" in phases:  # the public API's dict (built in the parent)
        a = snap()
        pretokenize.count_pretokens(path, [SPECIAL], workers=workers)
        phase("count_dict", a, snap())
    if "train" in phases:
        from core import Trainer

        a = snap()
        trainer = Trainer(counts, [SPECIAL], keep_history=False, stats=stats)
        phase("start-up", a, snap())
        del counts
        a = snap()
        trainer.run(vocab_size)
        phase("merges", a, snap())
        out["digest"] = _merges_digest(trainer.merges)
    if "count_file" in phases:  # `bpe-explorer count`: count_files, then the counts file written
        from core.scale.counts import count_files
        from core.scale.counts_io import write_counts

        parquet = common.work_dir() / f"sweep_{os.getpid()}.parquet"
        try:
            a = snap()
            write_counts(count_files([path], [SPECIAL], workers=workers), parquet)
            phase("count_file", a, snap())
        finally:
            parquet.unlink(missing_ok=True)
    if "encode" in phases:
        from core import encode_file_to_npy

        tok = common.gpt2_ours()
        npy = common.work_dir() / f"sweep_{os.getpid()}.npy"
        try:
            a = snap()
            encode_file_to_npy(tok, path, npy, workers=workers)
            phase("encode", a, snap())
        finally:
            npy.unlink(missing_ok=True)
    if "eval" in phases:  # `bpe-explorer eval`: every figure from one encode, the ids never leave the workers
        from core.evaluation.evaluate import EvalText, evaluate

        tok = common.gpt2_ours()
        a = snap()
        evaluate([("gpt2", tok)], [EvalText.from_file(path)], workers=workers, single_process_bytes=0)
        phase("eval", a, snap())
    return out


TASKS = {
    "counts": task_counts,
    "ours": task_ours,
    "rustbpe": task_rustbpe,
    "profile": task_profile,
    "tiktoken_npy": task_tiktoken_npy,
    "ours_npy": task_ours_npy,
    "sweep": task_sweep,
}


# --------------------------------------------------------------------------- parent
def corpus(ctx: Context) -> Path:
    import make_big_corpus

    big = ctx.shared.get("big", False)
    gb = float(os.environ.get("BPE_SCALE_GB", 2.0 if big else 0.1))
    path = ctx.corpora / f"big_{gb:g}gb_seed0.txt"
    if not path.is_file():
        ctx.log(f"[scale] generating {path} ({gb:g} GB, seed 0) …")
        t0 = time.monotonic()
        make_big_corpus.generate(
            path, int(gb * 1e9), 0, gcide=ctx.corpora / "gcide.utf8.txt", log=lambda m: None
        )
        ctx.log(f"[scale] generated in {time.monotonic() - t0:.0f} s")
    return path


def _deadline(hhmm: str | None) -> float:
    """Epoch seconds of today's HH:MM UTC (no deadline: far away)."""
    if not hhmm:
        return time.time() + 365 * 86400
    import calendar

    h, m = map(int, hhmm.split(":"))
    now = time.gmtime()
    return calendar.timegm((now.tm_year, now.tm_mon, now.tm_mday, h, m, 0, 0, 0, 0))


def _load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


def run(ctx: Context) -> list[Section]:
    path = corpus(ctx)
    size_mb = path.stat().st_size / MB
    work = common.work_dir()
    common.warm(path)
    args = {"path": str(path), "vocab_size": VOCAB}
    runs: dict[str, common.RunResult] = {}
    loads: dict[str, str] = {}
    # BPE_SCALE_ROWS picks and orders the rows; BPE_SCALE_DEADLINE=HH:MM (UTC) stops starting rows
    # after it and stops a row still running then (the row says so): a shared machine has a budget
    wanted = os.environ.get(
        "BPE_SCALE_ROWS", "ours,counts_local,counts_dask,hf,rustbpe,profile,encode"
    ).split(",")
    deadline = _deadline(os.environ.get("BPE_SCALE_DEADLINE"))
    tasks = {
        "ours": (SCRIPT, "ours", args, None),
        "counts_local": (
            SCRIPT,
            "counts",
            {**args, "engine": "local", "out": str(work / "scale_local.parquet")},
            None,
        ),
        "counts_dask": (
            SCRIPT,
            "counts",
            {**args, "engine": "dask", "out": str(work / "scale_dask.parquet")},
            None,
        ),
        "hf": (bench_training.SCRIPT, "hf", args, RAYON),
        "rustbpe": (SCRIPT, "rustbpe", args, RAYON),
    }
    # BPE_SCALE_BASE=DIR (a checkout of an earlier commit, e.g. `git archive <commit> | tar -x -C DIR`):
    # the rows "ours_base" (train) and the encode row also run that code, for a before/after in one run
    base = os.environ.get("BPE_SCALE_BASE")
    base_env = {"PYTHONPATH": os.pathsep.join([base, str(SCRIPT.parent)])} if base else None
    if base_env:
        tasks["ours_base"] = (SCRIPT, "ours", args, base_env)
    plan = [(n, tasks[n]) for n in wanted if n in tasks]
    skipped: dict[str, str] = {}
    for name, (script, task, targs, env) in plan:
        left = deadline - time.time()
        if left < 60:
            skipped[name] = "not run (time budget)"
            continue
        ctx.log(f"[scale] {name} on {path.name} (load {_load()}) …")
        t0 = time.time()
        try:
            runs[name] = run_child(script, task, targs, env=env, timeout=left)
        except RuntimeError as e:
            ctx.log(f"[scale] {name} failed: {str(e)[:500]}")
            skipped[name] = (
                f"stopped unfinished after {time.time() - t0:.0f} s (time budget)"
                if "timed out" in str(e)
                else "failed"
            )
        loads[name] = _load()
        if name in runs:
            ctx.log(
                f"[scale] {name}: {runs[name]['seconds']:.1f} s, tree RSS {runs[name].tree_peak_mb:.0f} MB"
            )
    sec = Section(
        f"Scaling: {path.name} ({size_mb:,.0f} MB, generated + gcide), vocab {VOCAB:,}, "
        f"{WORKERS} cores, one run each",
        [
            "trainer",
            "time",
            "phases",
            "peak RSS (tree)",
            "time ÷ HF",
            "time ÷ rustbpe",
            "merges = ours",
            "load after",
        ],
    )
    hf_t = runs["hf"]["seconds"] if "hf" in runs else float("nan")
    rb_t = runs["rustbpe"]["seconds"] if "rustbpe" in runs else float("nan")
    ours_digest = runs["ours"]["digest"] if "ours" in runs else None
    names = {
        "ours": "ours `train_bpe` (workers=2)",
        "counts_local": "ours count → counts file → `train_bpe_from_counts` (2 processes)",
        "counts_dask": "ours count on Dask LocalCluster (2 workers) → train from counts",
        "hf": "HF `tokenizers` BpeTrainer (2 threads)",
        "rustbpe": "rustbpe (nanochat, 2 threads)",
        "ours_base": f"ours `train_bpe` (workers=2), before: {base}",
    }
    for name, _ in plan:
        r = runs.get(name)
        if r is None:
            sec.rows.append(
                [names[name], skipped.get(name, "failed"), "", "", "", "", "", loads.get(name, "")]
            )
            continue
        t = r["seconds"]
        if name in ("ours", "ours_base"):
            phases = f"pre-tokenize {fmt_s(r['pretok_s'])}, merges {fmt_s(r['merge_s'])}"
        elif name.startswith("counts"):
            phases = (
                f"count {fmt_s(r['count_s'])}, write {fmt_s(r['write_s'])} ({r['counts_mb']:.0f} MB, "
                f"{r['distinct']:,} distinct), train {fmt_s(r['train_s'])}"
            )
        else:
            phases = ""
        same = (
            "–"
            if "digest" not in r.data or ours_digest is None
            else ("yes" if r["digest"] == ours_digest else "**no**")
        )
        sec.rows.append(
            [
                names[name],
                fmt_s(t),
                phases,
                fmt_mb(r.tree_peak_mb),
                fmt_ratio(t / hf_t),
                fmt_ratio(t / rb_t),
                same,
                loads[name],
            ]
        )
    sec.notes.append(
        "rustbpe has no special tokens (`<|endoftext|>` is trained on as text) and its vocab "
        "of 32,000 has one merge more than ours (no special-token id)."
    )
    sections = [sec]

    # ---- where the merge loop's time goes
    counts_file = work / "scale_local.parquet"
    if "profile" in wanted and counts_file.is_file() and deadline - time.time() > 120:
        ctx.log("[scale] profiling the merge loop …")
        try:
            p = run_child(SCRIPT, "profile", {"counts": str(counts_file), "vocab_size": VOCAB})
            prof = Section(
                "Scaling: where the merge loop's time goes (cProfile, top functions by own time)",
                [],
                notes=[
                    f"{p['words']:,} distinct words; building the trainer {fmt_s(p['build_s'])}, "
                    f"merges under the profiler {fmt_s(p['merge_s_profiled'])}; peak RSS "
                    f"{fmt_mb(p.tree_peak_mb)}"
                ],
            )
            prof.notes.append("```\n" + "\n".join(p["profile"]) + "\n```")
            sections.append(prof)
        except RuntimeError as e:
            ctx.log(f"[scale] profile failed: {str(e)[:300]}")

    # ---- encoding to .npy with all cores
    ctx.log("[scale] encoding to .npy: ours vs tiktoken …")
    enc = {}
    encoders = [("ours", "ours_npy", None), ("tiktoken", "tiktoken_npy", None)]
    if base_env:
        encoders.insert(1, ("ours_base", "ours_npy", base_env))
    for name, task, env in encoders:
        if "encode" not in wanted or deadline - time.time() < 120:
            break
        try:
            enc[name] = run_child(
                SCRIPT,
                task,
                {"path": str(path), "out": str(work / f"scale_{name}.npy"), "workers": os.cpu_count() or 1},
                env=env,
                timeout=deadline - time.time(),
            )
            ctx.log(f"[scale] encode {name}: {enc[name]['seconds']:.1f} s")
        except RuntimeError as e:
            ctx.log(f"[scale] encode {name} failed: {str(e)[:300]}")
        finally:
            (work / f"scale_{name}.npy").unlink(missing_ok=True)
    if "ours" in enc and "tiktoken" in enc:
        o, t = enc["ours"], enc["tiktoken"]
        es = Section(
            f"Scaling: encode {path.name} to .npy, all {os.cpu_count()} cores (GPT-2 vocab)",
            ["encoder", "time", "MB/s", "peak RSS (tree)", "speed ÷ tiktoken", "ids identical"],
        )
        same = "yes" if o["sha1"] == t["sha1"] and o["n_tokens"] == t["n_tokens"] else "**no**"
        es.rows.append(
            [
                "ours `encode_file_to_npy`",
                fmt_s(o["seconds"]),
                f"{size_mb / o['seconds']:.1f}",
                fmt_mb(o.tree_peak_mb),
                fmt_ratio(t["seconds"] / o["seconds"]),
                same,
            ]
        )
        if "ours_base" in enc:
            b = enc["ours_base"]
            same_b = "yes" if b["sha1"] == t["sha1"] and b["n_tokens"] == t["n_tokens"] else "**no**"
            es.rows.append(
                [
                    f"ours `encode_file_to_npy`, before: {base}",
                    fmt_s(b["seconds"]),
                    f"{size_mb / b['seconds']:.1f}",
                    fmt_mb(b.tree_peak_mb),
                    fmt_ratio(t["seconds"] / b["seconds"]),
                    same_b,
                ]
            )
        es.rows.append(
            [
                "tiktoken `encode_batch` (64 MB pieces, ~2 MB blocks)",
                fmt_s(t["seconds"]),
                f"{size_mb / t['seconds']:.1f}",
                fmt_mb(t.tree_peak_mb),
                "1.00×",
                same,
            ]
        )
        sections.append(es)
    return sections


# --------------------------------------------------------------------------- worker sweep
AMDAHL_CORES = (8, 16, 64)


def amdahl(serial: float, parallel: float, cores: int) -> float:
    """Predicted time (any unit) on ``cores`` cores: the serial part plus the parallel part shared."""
    return serial + parallel / cores


def sweep_counts(n_max: int) -> list[int]:
    """1, 2, 4, ... up to ``n_max`` (``n_max`` itself last when it is no power of two)."""
    out, n = [], 1
    while n < n_max:
        out.append(n)
        n *= 2
    return [*out, n_max]


def sweep(ctx: Context, path: Path) -> list[Section]:
    """Workers 1, 2, 4 ... up to the machine's cores (``BPE_SWEEP_WORKERS=1,2`` to choose): per phase
    the wall time, the parent's and the workers' CPU per MB, and Amdahl's prediction for 8, 16 and
    64 cores from the serial (parent) and parallel (workers) CPU of the largest sweep point.
    ``BPE_SWEEP_PHASES`` (default ``count,train,encode``; ``count_dict`` adds the public API's dict,
    ``count_file`` the ``count`` command (counts file written), ``eval`` the ``eval`` command);
    ``BPE_SCALE_BASE=DIR`` runs an earlier checkout too (same corpus, same run)."""
    size_mb = path.stat().st_size / MB
    cores = os.cpu_count() or 1
    points = [int(x) for x in os.environ.get("BPE_SWEEP_WORKERS", "").split(",") if x] or sweep_counts(cores)
    phases = os.environ.get("BPE_SWEEP_PHASES", "count,train,encode").split(",")
    vocab = int(os.environ.get("BPE_SWEEP_VOCAB", 4000))
    base = os.environ.get("BPE_SCALE_BASE")
    codes = [("ours", None)] + (
        [(f"before ({base})", {"PYTHONPATH": os.pathsep.join([base, str(SCRIPT.parent)])})] if base else []
    )
    common.warm(path)
    results: dict[tuple[str, int], common.RunResult] = {}
    for w in points:  # (the codes alternate at each point: the machine's load hits both alike)
        for code, env in codes:
            ctx.log(f"[sweep] {code}, {w} worker(s) on {path.name} (load {_load()}) …")
            results[code, w] = run_child(
                SCRIPT,
                "sweep",
                {"path": str(path), "workers": w, "phases": phases, "vocab_size": vocab},
                env=env,
            )
    cols = ["code", "workers", "phase", "wall", "parent CPU ms/MB", "workers CPU ms/MB", "parent share"]
    cols += [f"Amdahl s/GB, {n} cores" for n in AMDAHL_CORES] + ["predicted 2 → 16 cores"]
    sec = Section(
        f"Worker sweep: {path.name} ({size_mb:,.0f} MB), {cores} cores here, one run per point",
        cols,
    )
    for (code, w), r in results.items():
        for name in ("count", "count_dict", "count_file", "start-up", "merges", "encode", "eval"):
            if name not in r.data:
                continue
            ph = r[name]
            par, wrk = 1000 * ph["parent"] / size_mb, 1000 * ph["workers"] / size_mb
            serial_only = w == 1 or name in ("start-up", "merges")  # one process: all of it is serial
            pred = [fmt_s(amdahl(par, 0 if serial_only else wrk, n)) for n in AMDAHL_CORES]
            gain = "–" if serial_only else f"{amdahl(par, wrk, 2) / amdahl(par, wrk, 16):.1f}×"
            sec.rows.append(
                [
                    code,
                    str(w),
                    name,
                    fmt_s(ph["wall"]),
                    f"{par:.2f}",
                    f"{wrk:.1f}",
                    f"{par / (par + wrk):.1%}" if par + wrk else "–",
                    *pred,
                    gain,
                ]
            )
    distinct = {r["distinct"] for r in results.values()}
    digests = {r["digest"] for r in results.values() if "digest" in r.data}
    sec.notes.append(
        f"{'/'.join(f'{d:,}' for d in sorted(distinct))} distinct pre-tokens; merges (vocab {vocab:,}) "
        f"{'identical at every point' if len(digests) <= 1 else '**differ**'}. CPU per MB: process CPU "
        "time (user + system) of the parent and of its reaped worker processes, per decimal MB of "
        "corpus. Amdahl: the parent's CPU is the serial part, the workers' CPU the part shared by "
        "the cores (ms/MB = s/GB); a point with one worker counts in the parent, so its time is all "
        "serial. Wall time depends on the machine's other load; the CPU columns much less."
    )
    return [sec]


if __name__ == "__main__":
    if not common.child_main(TASKS):
        c = Context(quick="--quick" in sys.argv, reps=1)
        c.shared["big"] = "--big" in sys.argv
        for s in sweep(c, corpus(c)) if "--sweep" in sys.argv else run(c):
            print(s.markdown())
