"""A Chinese-like corpus with very many distinct pre-tokens, for the memory benchmarks (issue 29).

Runs of 2–24 characters drawn (Zipf, exponent 1.05) from 3,000 CJK ideographs (U+4E00 on), separated
by a full-width comma, a newline after every 20th run. Under the GPT-2 pattern each run is one
pre-token, and nearly every run is distinct: about 24,000 distinct pre-tokens per MB, each ~39 bytes
(the worst case for a trainer's memory: many long, rare words).

    python tests/benchmarks/make_chinese_corpus.py --mb 150 --out /tmp/bpe-corpora/zh_150mb.txt
"""

from __future__ import annotations

import argparse

import numpy as np

ALPHABET = 3_000
FIRST = 0x4E00
COMMA = 0xFF0C
NEWLINE = 0x0A


def generate(mb: float, seed: int = 0) -> bytes:
    rng = np.random.default_rng(seed)
    weights = 1.0 / np.arange(1, ALPHABET + 1) ** 1.05
    weights /= weights.sum()
    # a run is ~13 characters of 3 bytes plus a 3-byte separator: ~42 bytes
    runs = int(mb * 1e6 / 42) + 1
    lengths = rng.integers(2, 25, size=runs)
    chars = FIRST + rng.choice(ALPHABET, size=int(lengths.sum()), p=weights)
    ends = np.cumsum(lengths + 1) - 1  # the separator after each run
    codes = np.empty(int(ends[-1]) + 1, dtype=np.uint32)
    mask = np.ones(codes.size, dtype=bool)
    mask[ends] = False
    codes[mask] = chars
    codes[ends] = COMMA
    codes[ends[19::20]] = NEWLINE
    return codes.astype("<u4").tobytes().decode("utf-32-le").encode("utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=15.0, help="about this many MB (1e6 bytes)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    data = generate(a.mb, a.seed)
    with open(a.out, "wb") as f:
        f.write(data)
    print(f"{a.out}: {len(data):,} bytes")


if __name__ == "__main__":
    main()
