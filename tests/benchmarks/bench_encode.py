"""Encoding: our ``Tokenizer`` vs tiktoken with the same GPT-2 vocabulary (built offline from the
shared fixtures) on 10 MB of the corpus in one process, and our parallel ``.npy`` file encoder vs
tiktoken's threaded batch encoder on the 40 MB file. The ids are checked to be identical.

    python tests/benchmarks/bench_encode.py [--quick]
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

import common
from common import MB, Context, Section, Target, alternate, fmt_ratio, fmt_s, med, run_child

SCRIPT = Path(__file__).resolve()
WORKERS = 2


# --------------------------------------------------------------------------- child tasks
def _digest(ids) -> str:
    import numpy as np

    return hashlib.sha1(np.asarray(ids, dtype=np.uint32).tobytes()).hexdigest()


def _timed_encode(build, encode, path: str) -> dict:
    """Build an encoder, read the file, encode it: times of the build and of the encode alone."""
    t0 = time.perf_counter()
    enc = build()
    t1 = time.perf_counter()
    text = Path(path).read_text(encoding="utf-8")
    t2 = time.perf_counter()
    ids = encode(enc, text)
    t3 = time.perf_counter()
    return {"seconds": t3 - t2, "build_s": t1 - t0, "n_tokens": len(ids), "sha1": _digest(ids)}


def task_ours(path: str) -> dict:
    return _timed_encode(common.gpt2_ours, lambda tok, text: tok.encode(text), path)


def task_tiktoken(path: str) -> dict:
    return _timed_encode(
        common.gpt2_tiktoken, lambda enc, text: enc.encode(text, allowed_special="all"), path
    )


def task_ours_file(path: str, out: str, workers: int) -> dict:
    import numpy as np

    from core.tokenization.npy import encode_file_to_npy

    tok = common.gpt2_ours()
    t0 = time.perf_counter()
    r = encode_file_to_npy(tok, path, out, workers=workers)
    secs = time.perf_counter() - t0
    ids = np.load(out)
    return {"seconds": secs, "n_tokens": int(r.n_tokens), "workers": r.workers, "sha1": _digest(ids)}


def task_tiktoken_file(path: str, out: str, workers: int) -> dict:
    """tiktoken on a whole file the way a user would: read, cut into ~2 MB blocks at newlines where
    the GPT-2 pattern cannot differ, ``encode_batch`` on ``workers`` threads, save a ``.npy``."""
    import numpy as np

    enc = common.gpt2_tiktoken()
    t0 = time.perf_counter()
    text = Path(path).read_text(encoding="utf-8")
    parts = common.tiktoken_encode_text(enc, text, workers)
    arr = np.concatenate([np.asarray(p, dtype=np.uint16) for p in parts])
    np.save(out, arr)
    secs = time.perf_counter() - t0
    return {"seconds": secs, "n_tokens": int(arr.size), "sha1": _digest(arr)}


TASKS = {
    "ours": task_ours,
    "tiktoken": task_tiktoken,
    "ours_file": task_ours_file,
    "tiktoken_file": task_tiktoken_file,
}


# --------------------------------------------------------------------------- parent
def run(ctx: Context) -> list[Section]:
    utf8 = ctx.corpora / "gcide.utf8.txt"
    n_mb = 2 if ctx.quick else 10
    path = common.slice_file(utf8, n_mb * MB, f"gcide_{n_mb}mb.utf8.txt")
    size_mb = path.stat().st_size / MB
    reps = ctx.reps
    ctx.log(f"[encode] {path.name}: ours vs tiktoken, one process, {reps} reps")
    res = alternate(
        {
            "ours": lambda: run_child(SCRIPT, "ours", {"path": str(path)}),
            "tiktoken": lambda: run_child(SCRIPT, "tiktoken", {"path": str(path)}),
        },
        reps,
        ctx.log,
    )
    t_o, t_t = med(res["ours"]), med(res["tiktoken"])
    speed = t_t / t_o
    same = res["ours"][0]["sha1"] == res["tiktoken"][0]["sha1"]
    sec = Section(
        f"Encoding: {path.name} ({size_mb:.0f} MB), GPT-2 vocab, one process",
        ["encoder", "median time", "MB/s", "tokens", "build tokenizer", "runs", "speed ratio ours/tiktoken"],
    )
    for name, label in (("ours", "ours `Tokenizer.encode`"), ("tiktoken", "tiktoken `Encoding.encode`")):
        rs = res[name]
        t = med(rs)
        sec.rows.append(
            [
                label,
                fmt_s(t),
                f"{size_mb / t:.2f}",
                f"{rs[0]['n_tokens']:,}",
                fmt_s(med(rs, "build_s")),
                " / ".join(f"{r['seconds']:.2f}" for r in rs),
                fmt_ratio(speed) if name == "ours" else "1.00×",
            ]
        )
    sec.notes.append(
        f"ids identical to tiktoken's: {'yes' if same else 'NO'}. "
        "Speed ratio = tiktoken time / our time (≥ 1 means we are faster)."
    )
    ctx.targets.append(
        Target(
            f"encode speed vs tiktoken ({path.name}, 1 process)",
            "≥ 0.25×",
            "≥ 0.5×",
            fmt_ratio(speed),
            speed >= 0.25,
            speed >= 0.5,
        )
    )
    sections = [sec]

    # ---- whole file, in parallel
    fpath = ctx.corpus_40()
    fsize = fpath.stat().st_size / MB
    common.warm(fpath)
    wd = common.work_dir()
    ctx.log(
        f"[encode] file encoder on {fpath.name}: ours vs tiktoken, {WORKERS} workers/threads, {reps} reps"
    )
    fres = alternate(
        {
            "ours": lambda: run_child(
                SCRIPT, "ours_file", {"path": str(fpath), "out": str(wd / "ours.npy"), "workers": WORKERS}
            ),
            "tiktoken": lambda: run_child(
                SCRIPT,
                "tiktoken_file",
                {"path": str(fpath), "out": str(wd / "tiktoken.npy"), "workers": WORKERS},
            ),
        },
        reps,
        ctx.log,
    )
    fo, ft = med(fres["ours"]), med(fres["tiktoken"])
    fsame = fres["ours"][0]["sha1"] == fres["tiktoken"][0]["sha1"]
    sec2 = Section(
        f"File encoding to .npy: {fpath.name} ({fsize:.0f} MB), {WORKERS} cores",
        ["encoder", "median time", "MB/s", "tokens", "peak RSS (tree)", "runs", "speed ratio ours/tiktoken"],
    )
    sec2.rows.append(
        [
            f"ours `encode_file_to_npy(workers={fres['ours'][0]['workers']})`",
            fmt_s(fo),
            f"{fsize / fo:.2f}",
            f"{fres['ours'][0]['n_tokens']:,}",
            common.fmt_mb(common.median([r.tree_peak_mb for r in fres["ours"]])),
            " / ".join(f"{r['seconds']:.1f}" for r in fres["ours"]),
            fmt_ratio(ft / fo),
        ]
    )
    sec2.rows.append(
        [
            f"tiktoken `encode_batch(num_threads={WORKERS})` + np.save",
            fmt_s(ft),
            f"{fsize / ft:.2f}",
            f"{fres['tiktoken'][0]['n_tokens']:,}",
            common.fmt_mb(common.median([r.tree_peak_mb for r in fres["tiktoken"]])),
            " / ".join(f"{r['seconds']:.1f}" for r in fres["tiktoken"]),
            "1.00×",
        ]
    )
    sec2.notes.append(
        f"ids identical: {'yes' if fsame else 'NO'}. Our time includes starting the worker "
        "processes and sending them the tokenizer."
    )
    sections.append(sec2)
    return sections


if __name__ == "__main__":
    common.script_main(TASKS, run)
