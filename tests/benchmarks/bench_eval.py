"""Evaluation: ``bpe-explorer eval``'s core with two tokenizers (GPT-2 and cl100k_base) on the 40 MB
file, against encoding the file twice with our parallel ``.npy`` encoder (the target: not slower) and
against tiktoken doing the same counts (``encode_batch`` on the same threads, ``np.bincount``).

    python tests/benchmarks/bench_eval.py [--quick]     (BPE_SHARED=/path/to/shared when not ../shared)
"""

from __future__ import annotations

import time
from pathlib import Path

import common
from common import MB, Context, Section, Target, alternate, fmt_ratio, fmt_s, med, run_child

SCRIPT = Path(__file__).resolve()
WORKERS = 2
CL100K = common.SHARED / "realtok" / "cl100k_base" / "cl100k_base.tiktoken"
# tiktoken's own cl100k_base pattern (tiktoken_ext/openai_public.py)
CL100K_PAT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
CL100K_SPECIALS = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}


def _ours() -> list:
    from core import Tokenizer
    from core.evaluation.known_encodings import load_eval_tokenizer

    return [("gpt2", common.gpt2_ours()), ("cl100k_base", Tokenizer.from_spec(load_eval_tokenizer(CL100K)))]


def task_eval(path: str, workers: int) -> dict:
    from core.evaluation.evaluate import EvalText, evaluate

    toks = _ours()
    t0 = time.perf_counter()
    res = evaluate(toks, [EvalText.from_file(path)], workers=workers)
    secs = time.perf_counter() - t0
    return {
        "seconds": secs,
        "tokens": [r.tokens for r in res],
        "used": [r.vocab_used for r in res],
        "mb_per_s": [r.mb_per_s for r in res],
        "mb_per_s_1": [r.mb_per_s_one_process for r in res],
    }


def task_npy_twice(path: str, out: str, workers: int) -> dict:
    from core.tokenization.npy import encode_file_to_npy

    toks = _ours()
    t0 = time.perf_counter()
    n = [encode_file_to_npy(tok, path, out, workers=workers).n_tokens for _, tok in toks]
    return {"seconds": time.perf_counter() - t0, "tokens": n}


def task_tiktoken(path: str, workers: int) -> dict:
    """tiktoken: read the file, cut into ~2 MB blocks at safe newlines, ``encode_batch`` on threads,
    count ids with ``np.bincount`` (tokens, vocab used), for both encodings."""
    import numpy as np
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe

    encs = [
        common.gpt2_tiktoken(),
        tiktoken.Encoding(
            "cl100k",
            pat_str=CL100K_PAT,
            special_tokens=CL100K_SPECIALS,
            mergeable_ranks=load_tiktoken_bpe(str(CL100K)),
        ),
    ]
    t0 = time.perf_counter()
    tokens, used = [], []
    for enc in encs:
        text = Path(path).read_text(encoding="utf-8")
        parts = common.tiktoken_encode_text(enc, text, workers)
        counts = sum(np.bincount(np.asarray(p, dtype=np.int64), minlength=enc.n_vocab) for p in parts)
        tokens.append(int(counts.sum()))
        used.append(int(np.count_nonzero(counts)))
    return {"seconds": time.perf_counter() - t0, "tokens": tokens, "used": used}


TASKS = {"eval": task_eval, "npy_twice": task_npy_twice, "tiktoken": task_tiktoken}


def run(ctx: Context) -> list[Section]:
    path = ctx.corpus_40()
    size = path.stat().st_size / MB
    common.warm(path)
    wd = common.work_dir()
    args = {"path": str(path), "workers": WORKERS}
    ctx.log(f"[eval] {path.name}: eval (gpt2 + cl100k) vs .npy encoder twice vs tiktoken, {ctx.reps} reps")
    res = alternate(
        {
            "eval": lambda: run_child(SCRIPT, "eval", args),
            "npy": lambda: run_child(SCRIPT, "npy_twice", {**args, "out": str(wd / "eval.npy")}),
            "tiktoken": lambda: run_child(SCRIPT, "tiktoken", args),
        },
        ctx.reps,
        ctx.log,
    )
    te, tn, tt = med(res["eval"]), med(res["npy"]), med(res["tiktoken"])
    same = res["eval"][0]["tokens"] == res["npy"][0]["tokens"] == res["tiktoken"][0]["tokens"]
    same_used = res["eval"][0]["used"] == res["tiktoken"][0]["used"]
    sec = Section(
        f"Evaluation: {path.name} ({size:.0f} MB) × 2 tokenizers (GPT-2, cl100k_base), {WORKERS} cores",
        ["what", "median time", "MB/s (2 × file)", "runs", "time ratio to eval"],
    )
    for key, label, t in (
        ("eval", "ours `evaluate` (all figures)", te),
        ("npy", "ours `encode_file_to_npy` × 2 (ids only)", tn),
        ("tiktoken", f"tiktoken `encode_batch(num_threads={WORKERS})` + bincount × 2", tt),
    ):
        sec.rows.append(
            [
                label,
                fmt_s(t),
                f"{2 * size / t:.2f}",
                " / ".join(f"{r['seconds']:.1f}" for r in res[key]),
                fmt_ratio(t / te),
            ]
        )
    r0 = res["eval"][0]
    sec.notes.append(
        f"token counts identical (eval, .npy, tiktoken): {'yes' if same else 'NO'} "
        f"{r0['tokens']}; vocab used identical to tiktoken's: {'yes' if same_used else 'NO'} "
        f"{r0['used']}."
    )
    sec.notes.append(
        "eval's own figures (first run): MB/s all cores "
        + ", ".join(f"{x:.2f}" for x in r0["mb_per_s"])
        + "; one process "
        + ", ".join(f"{x:.2f}" for x in r0["mb_per_s_1"])
        + "."
    )
    ratio = te / tn
    ctx.targets.append(
        Target(
            f"eval of {path.name} with 2 tokenizers vs .npy encoding twice",
            "time ≤ 1.0×",
            "",
            f"{ratio:.2f}×",
            ratio <= 1.0,
        )
    )
    return [sec]


if __name__ == "__main__":
    common.script_main(TASKS, run)
