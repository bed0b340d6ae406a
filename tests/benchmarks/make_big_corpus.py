"""A deterministic, diverse corpus of a chosen size for the scaling benchmarks (default ≥ 2 GB).

    python tests/benchmarks/make_big_corpus.py                    # 2 GB (2.0e9 bytes), seed 0
    python tests/benchmarks/make_big_corpus.py --gb 0.05 --out /tmp/small.txt

The file is gcide (../shared/corpora/gcide.sh, 40 MB of English dictionary text) followed by
generated documents separated by ``<|endoftext|>``. The generated text draws words from a lexicon
of ``--lexicon`` (default 3 million) made-up words with a Zipf distribution (exponent
``--zipf``, default 1.05): word k has probability ∝ 1 / k^s, so a few words are very frequent and
millions occur a handful of times, which is what the merge loop of a trainer meets on web-scale
text (and what ten copies of gcide, 331k distinct pre-tokens, never show). Lexicon words are built
from English letter frequencies (80%), accented Latin, Cyrillic and Greek letters, CJK ideographs
and digits, some capitalised; documents have commas, full stops, quotes, numbers and line
breaks. Everything comes from ``numpy.random.default_rng(seed)``: the same seed and options give
the same bytes (the SHA-256 is printed).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

EOT = "<|endoftext|>"
ENGLISH = "etaoinshrdlcumwfgypbvkjxqz"
ENGLISH_FREQ = np.array(
    [
        12.7,
        9.1,
        8.2,
        7.5,
        7.0,
        6.7,
        6.3,
        6.1,
        6.0,
        4.3,
        4.0,
        2.8,
        2.8,
        2.4,
        2.4,
        2.2,
        2.0,
        2.0,
        1.9,
        1.5,
        1.0,
        0.8,
        0.15,
        0.15,
        0.1,
        0.07,
    ]
)
OTHER_ALPHABETS = [
    "áéíóúàèçñüöäßœø",  # accented Latin
    "абвгдежзиклмнопрстуфхцчшщыэюя",  # Cyrillic
    "αβγδεζηθικλμνξοπρστυφχψω",  # Greek
]


def _letters(rng: np.random.Generator, alphabet: str, n: int, p: np.ndarray | None = None) -> str:
    idx = rng.choice(len(alphabet), size=n, p=p)
    return "".join(np.array(list(alphabet))[idx].tolist())


def make_lexicon(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` made-up words (duplicates possible, rare), as a NumPy array of str."""
    kinds = rng.choice(6, size=n, p=[0.80, 0.06, 0.05, 0.03, 0.03, 0.03])
    lengths = np.clip(rng.geometric(0.16, size=n) + 1, 2, 18)
    words: list[str] = [""] * n
    p_en = ENGLISH_FREQ / ENGLISH_FREQ.sum()
    for k in range(6):
        where = np.flatnonzero(kinds == k)
        if not where.size:
            continue
        lens = lengths[where]
        if k == 4:  # CJK: 1-4 ideographs from the common block
            lens = np.clip(lens // 3, 1, 4)
            codes = rng.integers(0x4E00, 0x4E00 + 3000, size=int(lens.sum()))
            chars = codes.astype("<u4").tobytes().decode("utf-32-le")
        elif k == 5:  # numbers
            lens = np.clip(lens // 2, 1, 6)
            chars = _letters(rng, "0123456789", int(lens.sum()))
        elif k == 0:
            chars = _letters(rng, ENGLISH, int(lens.sum()), p_en)
        else:
            chars = _letters(rng, OTHER_ALPHABETS[k - 1], int(lens.sum()))
        ends = np.cumsum(lens)
        starts = ends - lens
        for i, s, e in zip(where.tolist(), starts.tolist(), ends.tolist()):
            words[i] = chars[s:e]
    cap = rng.random(n) < 0.07
    for i in np.flatnonzero(cap).tolist():
        words[i] = words[i].capitalize()
    return np.array(words, dtype=object)


def generate(
    out: Path,
    total_bytes: int,
    seed: int = 0,
    lexicon: int = 3_000_000,
    zipf: float = 1.05,
    gcide: Path | None = None,
    chunk_words: int = 4_000_000,
    log=print,
) -> str:
    """Write the corpus to ``out`` (atomically); return its SHA-256."""
    rng = np.random.default_rng(seed)
    lex = make_lexicon(rng, lexicon)
    ranks = np.arange(1, lexicon + 1, dtype=np.float64)
    cdf = np.cumsum(ranks**-zipf)
    cdf /= cdf[-1]
    digest = hashlib.sha256()
    tmp = out.with_name(f".{out.name}.tmp")
    written = 0
    with open(tmp, "wb") as f:
        if gcide is not None:
            data = gcide.read_bytes()
            f.write(data)
            digest.update(data)
            written += len(data)
        while written < total_bytes:
            idx = np.searchsorted(cdf, rng.random(chunk_words))
            words = lex[idx]
            r = rng.random(chunk_words)
            seps = np.full(chunk_words, " ", dtype=object)
            seps[r < 0.060] = ", "
            seps[r < 0.045] = ". "
            seps[r < 0.012] = ".\n"
            seps[r < 0.004] = '" '
            seps[r < 0.0025] = ".\n\n"
            seps[r < 0.0004] = "." + EOT
            pieces = np.empty(2 * chunk_words, dtype=object)
            pieces[0::2] = words
            pieces[1::2] = seps
            data = "".join(pieces.tolist()).encode("utf-8")
            f.write(data)
            digest.update(data)
            written += len(data)
            log(f"  {written / 1e9:.2f} GB")
    os.replace(tmp, out)
    return digest.hexdigest()


def main(argv: list[str] | None = None) -> int:
    import common

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--gb", type=float, default=2.0, help="at least this many gigabytes (1e9 bytes)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--lexicon", type=int, default=3_000_000, help="distinct made-up words to draw from")
    p.add_argument("--zipf", type=float, default=1.05, help="Zipf exponent")
    p.add_argument("--out", default=None, help="default: big_<gb>gb_seed<seed>.txt in the corpora folder")
    p.add_argument("--no-gcide", action="store_true", help="generated text only")
    a = p.parse_args(argv)
    out = Path(a.out) if a.out else common.corpora_dir() / f"big_{a.gb:g}gb_seed{a.seed}.txt"
    gcide = None if a.no_gcide else common.corpora_dir() / "gcide.utf8.txt"
    sha = generate(out, int(a.gb * 1e9), a.seed, a.lexicon, a.zipf, gcide)
    print(f"{out} {out.stat().st_size:,} bytes sha256 {sha}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
