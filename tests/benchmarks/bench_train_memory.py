"""Memory per distinct pre-token while training, and the merge loop's CPU time (issue 29, items 3-4).

Each run is a fresh interpreter: it loads the corpus's word counts (counted once with 2 workers and
cached as a pickle), resets the kernel's peak-RSS mark, builds the ``Trainer`` and merges up to the
vocab size. It prints the peak resident memory above the interpreter's (after imports, before the
counts are loaded: the counts dict a trainer is built from is part of training) per distinct
pre-token, after start-up and after the merges, and the CPU seconds of the merge loop.

    python tests/benchmarks/bench_train_memory.py CORPUS [CORPUS ...] [--vocab 10000] [--history]
        [--cache DIR] [--rustbpe] [--engine flat]

``--engine flat`` measures the flat merge loop that ``train_bpe`` and ``train`` take
(:class:`core.training.flat.FlatMerger`, built as they build it: emptying the counts once their
bytes are copied, a pair id per node where the words are short or the memory free allows);
``flat-ids`` and ``flat-lean`` fix its layout (pair ids per node; by the words' length alone:
none for long words); the default is the app's ``Trainer``.

``--rustbpe`` also times rustbpe's whole training of the corpus (CPU seconds, 2 threads), to set
beside ours; ``--baseline DIR`` also runs the trainer of another checkout (e.g. main before a
change) the same way. Runs alternate (baseline, ours, rustbpe) per corpus; other jobs on the
machine inflate CPU seconds too, so compare rows measured together.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
# the code measured: this tree, or another checkout's (``--baseline DIR``: the code before a change)
CODE = os.environ.get("BPE_CODE_ROOT", str(REPO))
if CODE not in sys.path:
    sys.path.insert(0, CODE)
SPECIAL = "<|endoftext|>"
MARK = "@@MEM@@"


def _status(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1]) * 1024
    raise RuntimeError(field)


def _reset_peak() -> None:
    with open("/proc/self/clear_refs", "w") as f:  # "5": reset the peak RSS (VmHWM) to the RSS now
        f.write("5")


def counts_cache(corpus: str, cache: str) -> str:
    out = Path(cache) / (Path(corpus).name + ".counts.pkl")
    if not out.exists():
        code = (
            "import pickle,sys;from core.pretokenization.pretokenize import count_pretokens_ordered as c;"
            f"r=c(sys.argv[1],[{SPECIAL!r}],'gpt2',workers=2);pickle.dump(r,open(sys.argv[2],'wb'),protocol=5)"
        )
        Path(cache).mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-c", code, corpus, str(out)], check=True)
    return str(out)


def _node_ids(engine: str, distinct: int, word_bytes: int, merges: int) -> bool | None:
    """The flat loop's layout: as train_bpe chooses it ("flat"), pair ids per node ("flat-ids"),
    or by its words' length alone ("flat-lean": long words without them)."""
    if engine == "flat-ids":
        return True
    if engine == "flat-lean":
        return None
    try:
        from core.training.memory_need import flat_node_ids
    except ImportError:  # (a checkout before the choice)
        return None
    return flat_node_ids(distinct, word_bytes, merges)


def _flat(counts, stats, vocab: int, node_ids: bool | None):
    from core.training.flat import FlatMerger

    try:
        return FlatMerger(
            counts, "lexicographic", [SPECIAL], stats=stats, vocab_size=vocab, consume=True, node_ids=node_ids
        )
    except TypeError:  # (a checkout before those arguments)
        try:
            return FlatMerger(counts, "lexicographic", [SPECIAL], stats=stats, vocab_size=vocab, consume=True)
        except TypeError:
            return FlatMerger(counts, "lexicographic", [SPECIAL], stats=stats)


def child(counts_path: str, vocab: int, history: bool, engine: str = "words") -> None:
    import numpy  # noqa: F401  (the interpreter's baseline includes the trainer's imports)

    from core.training.trainer import Trainer

    base = _status("VmRSS")
    with open(counts_path, "rb") as f:
        counts, stats = pickle.load(f)
    after_counts = _status("VmRSS") - base
    distinct = len(counts)
    word_bytes = sum(map(len, counts))
    _reset_peak()
    t0 = time.process_time()
    flat = engine.startswith("flat")
    node_ids = _node_ids(engine, distinct, word_bytes, vocab - 257) if flat else None
    if flat:
        trainer = _flat(counts, stats, vocab, node_ids)
    else:
        trainer = Trainer(counts, [SPECIAL], keep_history=history, stats=stats)
    del counts  # (train_bpe's from_file lets go of the counts once the trainer is built)
    startup_cpu = time.process_time() - t0
    startup_peak = _status("VmHWM") - base
    t0 = time.process_time()
    trainer.run(vocab)
    merge_cpu = time.process_time() - t0
    peak = _status("VmHWM") - base
    from core.training.memory_need import flat_memory, training_memory

    if flat:
        try:
            estimate = flat_memory(distinct, word_bytes, vocab - 257, node_ids)
        except TypeError:  # (a checkout before the layouts)
            estimate = flat_memory(distinct, word_bytes, vocab - 257)
        fields = [
            (r.pair, r.count, r.n_ties, r.words_changed, r.occurrences_changed) for r in trainer.records
        ]
    else:
        try:
            estimate = training_memory(distinct, word_bytes, vocab - 257, history=history)
        except TypeError:  # (the estimate before it knew about merges and undo history)
            estimate = training_memory(distinct, word_bytes)  # type: ignore[call-arg]
        # what the merges did, as the records say it (deltas in their order): equal digests, equal runs
        fields = [
            (
                r.pair,
                r.count,
                tuple(r.ties),
                r.n_ties,
                r.words_changed,
                r.occurrences_changed,
                tuple(r.deltas),
            )
            for r in trainer.records
        ]
    digest = hashlib.sha1(repr(fields).encode()).hexdigest()[:16]

    print(
        MARK,
        json.dumps(
            {
                "distinct": distinct,
                "word_bytes": word_bytes,
                "counts_B": after_counts / distinct,
                "startup_B": startup_peak / distinct,
                "peak_B": peak / distinct,
                "peak_MB": peak / 2**20,
                "estimate_MB": estimate / 2**20,
                "startup_cpu": startup_cpu,
                "merge_cpu": merge_cpu,
                "merges": len(trainer.merges),
                "digest": digest,
            }
        ),
        flush=True,
    )


def rustbpe_child(corpus: str, vocab: int) -> None:
    import rustbpe

    from core.pretokenization.pretokenize import GPT2_PATTERN

    t0, c0 = time.perf_counter(), time.process_time()
    tok = rustbpe.Tokenizer()

    def texts():
        with open(corpus, encoding="utf-8", errors="replace") as f:
            yield from iter(lambda: f.read(1 << 20), "")

    tok.train_from_iterator(texts(), vocab, pattern=GPT2_PATTERN)  # (our pattern; its default is GPT-4's)
    print(MARK, json.dumps({"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0}), flush=True)


def run(args: list[str], code: str | None = None) -> dict:
    env = dict(os.environ, BPE_CODE_ROOT=code or str(REPO), RAYON_NUM_THREADS="2")  # (rustbpe: 2 threads)
    out = subprocess.run(
        [sys.executable, __file__, *args], capture_output=True, text=True, check=True, env=env
    )
    line = next(x for x in out.stdout.splitlines() if x.startswith(MARK))
    return json.loads(line[len(MARK) :])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("corpora", nargs="+")
    ap.add_argument("--vocab", type=int, default=10_000)
    ap.add_argument("--history", action="store_true", help="keep_history=True (the app's trainer)")
    ap.add_argument("--cache", default=os.environ.get("BPE_COUNTS_CACHE", "/tmp/bpe-counts-cache"))
    ap.add_argument("--rustbpe", action="store_true")
    ap.add_argument("--baseline", help="another checkout whose trainer to measure too")
    ap.add_argument(
        "--engine",
        choices=("words", "flat", "flat-ids", "flat-lean"),
        default="words",
        help="the merge loop measured (flat: its layout as train_bpe chooses it; -ids: a pair id per "
        "node; -lean: by the words' length, long words without)",
    )
    a = ap.parse_args()
    print(
        "| corpus | distinct | B/distinct: counts | start-up peak | peak | peak MB | estimate MB | merge CPU s "
        "| records = baseline |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for corpus in a.corpora:
        cp = counts_cache(corpus, a.cache)
        digests = []
        for label, code in ([("baseline", a.baseline)] if a.baseline else []) + [("", None)]:
            r = run(["--child", cp, str(a.vocab), str(int(a.history)), a.engine], code)
            digests.append(r["digest"])
            name = Path(corpus).name + (f" ({label})" if label else "")
            same = "" if len(digests) < 2 else ("yes" if digests[0] == digests[1] else "**no**")
            print(
                f"| {name} | {r['distinct']:,} | {r['counts_B']:.0f} | {r['startup_B']:.0f} | "
                f"{r['peak_B']:.0f} | {r['peak_MB']:.0f} | {r['estimate_MB']:.0f} | {r['merge_cpu']:.2f} "
                f"({r['merges']} merges) | {same} |",
                flush=True,
            )
        if a.rustbpe:
            rb = run(["--rustbpe-child", corpus, str(a.vocab)])
            print(
                f"|   rustbpe (whole training) | | | | | | | cpu {rb['cpu']:.2f}, wall {rb['wall']:.2f} | |"
            )


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]), bool(int(sys.argv[4])), *sys.argv[5:6])
    elif len(sys.argv) > 1 and sys.argv[1] == "--rustbpe-child":
        rustbpe_child(sys.argv[2], int(sys.argv[3]))
    else:
        main()
