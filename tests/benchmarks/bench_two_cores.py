"""Ours vs rustbpe vs HF ``tokenizers`` on one corpus and vocab size, side by side (issue 29's 2-core
aim: ≤ 1.0× rustbpe on 40 MB of gcide at vocab 10k, ahead of HF).

Each trainer runs in a fresh process, in alternating rounds (ours, rustbpe, HF, ours, …), so that a
change of load hits all three; the time is measured inside the process (after imports, including
our worker start-up), wall clock and the process tree's CPU. rustbpe and HF get the same number of
threads as we get worker processes, and the GPT-2 pattern; HF reads the file line by line (its API).

    python tests/benchmarks/bench_two_cores.py /tmp/bpe-corpora/gcide.utf8.txt --vocab 10000 --rounds 2
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

SPECIAL = "<|endoftext|>"


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def ours(path: str, vocab: int, workers: int) -> dict:
    from core import train_bpe

    t0, c0 = time.perf_counter(), _cpu()
    _vocab, merges = train_bpe(path, vocab, [SPECIAL], workers=workers)
    return {"seconds": time.perf_counter() - t0, "cpu": _cpu() - c0, "merges": len(merges)}


def rust(path: str, vocab: int, workers: int) -> dict:
    import rustbpe

    from core.pretokenization.pretokenize import GPT2_PATTERN

    def docs():
        with open(path, encoding="utf-8") as f:
            while block := f.read(1 << 20):
                yield block

    tok = rustbpe.Tokenizer()
    t0, c0 = time.perf_counter(), _cpu()
    tok.train_from_iterator(docs(), vocab, pattern=GPT2_PATTERN)
    return {"seconds": time.perf_counter() - t0, "cpu": _cpu() - c0, "merges": tok.vocab_size - 256}


def hf(path: str, vocab: int, workers: int) -> dict:
    from tokenizers import Regex, Tokenizer, decoders, pre_tokenizers
    from tokenizers.models import BPE
    from tokenizers.trainers import BpeTrainer

    from core.pretokenization.pretokenize import GPT2_PATTERN

    tok = Tokenizer(BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(GPT2_PATTERN), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    tok.decoder = decoders.ByteLevel()
    trainer = BpeTrainer(
        vocab_size=vocab,
        special_tokens=[SPECIAL],
        show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    t0, c0 = time.perf_counter(), _cpu()
    tok.train([path], trainer)
    return {"seconds": time.perf_counter() - t0, "cpu": _cpu() - c0, "merges": tok.get_vocab_size() - 257}


TASKS = {"ours": ours, "rustbpe": rust, "hf": hf}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus")
    ap.add_argument("--vocab", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--trainers",
        default=",".join(TASKS),
        help="which to run, comma-separated (ours,rustbpe,hf; ours first)",
    )
    ap.add_argument("--task", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.task:
        print(json.dumps(TASKS[a.task](a.corpus, a.vocab, a.workers)))
        return
    env = dict(os.environ, RAYON_NUM_THREADS=str(a.workers))
    rows: dict[str, list[dict]] = {k: [] for k in TASKS if k in a.trainers.split(",")}
    load = os.getloadavg()
    for _ in range(a.rounds):
        for name in rows:
            out = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    a.corpus,
                    "--vocab",
                    str(a.vocab),
                    "--workers",
                    str(a.workers),
                    "--task",
                    name,
                ],
                capture_output=True,
                text=True,
                env=env,
                check=True,
            )
            rows[name].append(json.loads(out.stdout.strip().splitlines()[-1]))
    print(
        f"{os.path.basename(a.corpus)}, vocab {a.vocab:,}, {a.workers} workers/threads, "
        f"load {load[0]:.1f} → {os.getloadavg()[0]:.1f}"
    )
    best = {k: min(r["seconds"] for r in v) for k, v in rows.items()}
    print("| trainer | runs (wall) | CPU | merges | best ÷ rustbpe | best ÷ HF |")
    print("|---|---|---|---|---|---|")

    def ratio(name: str, peer: str) -> str:
        return f"{best[name] / best[peer]:.2f}×" if peer in best else "–"

    for name, runs in rows.items():
        walls = " / ".join(f"{r['seconds']:.2f} s" for r in runs)
        cpus = " / ".join(f"{r['cpu']:.1f} s" for r in runs)
        print(
            f"| {name} | {walls} | {cpus} | {runs[0]['merges']:,} | {ratio(name, 'rustbpe')} "
            f"| {ratio(name, 'hf')} |"
        )


if __name__ == "__main__":
    main()
