"""Load + encode a tiktoken file: ours (``load_any`` + ``Tokenizer.from_spec``) vs tiktoken, side by side.

    python tests/benchmarks/bench_tiktoken_load.py [FILE.tiktoken ...] [--reps N] [--mb 1]

Default: cl100k_base from ../shared/realtok (add o200k_base or Llama 3's tokenizer.model by path).
For each rep, in alternation: our load (the merges are rebuilt from the ranks) and tiktoken's
``load_tiktoken_bpe`` + ``Encoding`` (with the known encoding's pattern and special tokens), then the
encoding of 1 MB of text. Ids are checked identical. Medians; ratios are ours/tiktoken time.
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("BPE_SHARED", REPO.parent / "shared"))


def _arg(name: str, default: str) -> str:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def main() -> None:
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe

    from core import Tokenizer
    from core.formats import load_any
    from core.formats.known import known_encoding

    files = [Path(a) for a in sys.argv[1:] if not a.startswith("--") and Path(a).is_file()]
    files = files or [SHARED / "realtok" / "cl100k_base" / "cl100k_base.tiktoken"]
    reps = int(_arg("--reps", "3"))
    n_bytes = int(float(_arg("--mb", "1")) * (1 << 20))
    base = (SHARED / "fixtures" / "tinystories_sample.txt").read_text(encoding="utf-8")
    text = (base * (n_bytes // len(base.encode("utf-8")) + 1))[:n_bytes]
    os.environ["TIKTOKEN_CACHE_DIR"] = ""  # read the file every time, as we do
    print("| file | load ours | load tiktoken | load ratio | encode 1 MB ours | encode tiktoken | encode ratio |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for f in files:
        known = known_encoding(f)
        times: dict[str, list[float]] = {k: [] for k in ("load_ours", "load_tt", "enc_ours", "enc_tt")}
        for _ in range(reps):
            t0 = time.perf_counter()
            tok = Tokenizer.from_spec(load_any(f))
            times["load_ours"].append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            enc = tiktoken.Encoding(f.stem, pat_str=tok.pattern_regex, mergeable_ranks=load_tiktoken_bpe(str(f)),
                                    special_tokens=dict(known.special_ids) if known else {})
            times["load_tt"].append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            ours = tok.encode(text)
            times["enc_ours"].append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            theirs = enc.encode(text, allowed_special="all")
            times["enc_tt"].append(time.perf_counter() - t0)
            if ours != theirs:
                raise SystemExit(f"{f}: ids differ from tiktoken's")
        m = {k: statistics.median(v) for k, v in times.items()}
        print(f"| {f.name} | {m['load_ours']:.2f} s | {m['load_tt']:.2f} s | {m['load_ours'] / m['load_tt']:.1f}× "
              f"| {m['enc_ours']:.2f} s | {m['enc_tt']:.2f} s | {m['enc_ours'] / m['enc_tt']:.1f}× |")


main()
