"""Compare our ids with HF ``tokenizers`` for every ``*.json`` tokenizer file in a folder.

    python tests/benchmarks/hf_conformance.py FOLDER [--texts FILE] [--random N]

For each file: HF's ``Tokenizer.from_file(f).encode(t, add_special_tokens=True/False).ids`` against
``Tokenizer.from_spec(load_hf(f)).encode(t, add_special_tokens=...)`` on varied texts (English, code,
Chinese, emoji, decomposed accents, digits, special-token text), plus ``decode(encode(t)) == t``
where HF's own decode round-trips. ``--random N`` adds N random texts per file mixing its own added
tokens, whitespace runs and characters of every script (assigned in Python's Unicode tables). Each file
is also encoded in small blocks through the ``.npy`` encoder (as ``encode`` and ``eval`` cut large
files) and compared with HF's ids for the whole text. A file we refuse counts as "refused" with our
message (right for Unigram/WordPiece/char-level files). Not part of the default test run.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import unicodedata
from pathlib import Path

import numpy as np
from tokenizers import Tokenizer as HFTokenizer

from core import Tokenizer
from core.errors import BPEError
from core.formats import load_hf
from core.tokenization.npy import encode_file_to_npy

TEXTS = [
    "Hello world! The quick brown fox jumps over the lazy dog.",
    "(room #42) 1234567 and 3.14159, 1,000,000 items; 2024-05-17",
    "def f(x):\n    return x ** 2  # square\n\n\tif x != None: print(f'{x!r}')\r\n",
    "我们今天去公园散步，天气很好。毛泽东 北京大学",
    "Emoji: 🙃👍🏽👨‍👩‍👧 and flags 🇫🇷",
    "Cafe\u0301 re\u0301sume\u0301 na\u0131ve \u00e9t\u00e9 \uff21\uff22\uff23 \u2460\u2461 \ufb01",
    "   leading and trailing spaces   \n\n\n  ",
    "Ünïcödé ÀÉÎÕÜ Ελληνικά русский язык العربية हिन्दी",
    "<|endoftext|>after<|endoftext|> <|im_start|>user\nhi<|im_end|>",
    "x" * 300 + " " + "ab" * 200,
    "",
    " ",
    "A\u00a0B\u2003C\u3000D\u200bE",
]


def check(path: Path, texts: list[str]) -> tuple[str, str]:
    hf = HFTokenizer.from_file(str(path))
    hf.no_truncation()
    hf.no_padding()
    try:
        ours = Tokenizer.from_spec(load_hf(path))
    except BPEError as e:
        return "refused", str(e).splitlines()[0][:200]
    bad = []
    for t in texts:
        for add in (True, False):
            want = hf.encode(t, add_special_tokens=add).ids
            got = ours.encode(t, add_special_tokens=add)
            if want != got:
                i = next((k for k, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
                bad.append(
                    f"ids differ (add_special_tokens={add}) on {t[:40]!r} at token {i}: "
                    f"HF {want[i : i + 6]} ours {got[i : i + 6]}"
                )
        ids = hf.encode(t, add_special_tokens=False).ids
        if (
            hf.decode(ids, skip_special_tokens=False) == t
            and ours.decode(ours.encode(t, add_special_tokens=False)) != t
        ):
            bad.append(f"round trip fails on {t[:40]!r}")
    bad += _in_blocks(hf, ours, texts)
    return ("ok", "") if not bad else ("FAIL", "\n    ".join(bad[:6]))


def _in_blocks(hf: HFTokenizer, ours: Tokenizer, texts: list[str]) -> list[str]:
    """The .npy encoder's ids for the texts as one file, cut into small blocks, against HF's whole."""
    text = "\n".join(texts)
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "in.txt").write_text(text, encoding="utf-8", newline="")
        encode_file_to_npy(ours, Path(d) / "in.txt", Path(d) / "out.npy", workers=1, block_bytes=512)
        got = np.load(Path(d) / "out.npy").tolist()
    want = hf.encode(text, add_special_tokens=False).ids
    if got == want:
        return []
    i = next((k for k, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
    return [f"encoded in blocks, ids differ at token {i}: HF {want[i : i + 6]} ours {got[i : i + 6]}"]


def random_texts(path: Path, n: int, seed: int = 1) -> list[str]:
    """Texts mixing the file's added tokens, whitespace and assigned characters of every plane."""
    added = [t["content"] for t in json.loads(path.read_text(encoding="utf-8")).get("added_tokens") or []]
    rng = random.Random(seed)

    def char() -> str:
        while True:
            c = rng.choice(
                [
                    rng.randint(0x20, 0x7E),
                    rng.randint(0xA0, 0xD7FF),
                    rng.randint(0xE000, 0xFFFF),
                    rng.randint(0x10000, 0x1FAFF),
                ]
            )
            if unicodedata.category(chr(c)) not in ("Cn", "Cs"):
                return chr(c)

    out = []
    for _ in range(n):
        parts = []
        for _ in range(rng.randint(1, 8)):
            k = rng.random()
            if k < 0.25 and added:
                parts.append(rng.choice(added))
            elif k < 0.6:
                parts.append("".join(char() for _ in range(rng.randint(1, 6))))
            elif k < 0.85:
                parts.append(
                    rng.choice([" ", "  ", "\n", "\t", " \n ", "\r\n", "\u3000", "\xa0", "'s", "123456"])
                )
            else:
                parts.append(unicodedata.normalize("NFD", rng.choice(TEXTS))[: rng.randint(1, 20)])
        out.append("".join(parts))
    return out


folder = Path(sys.argv[1])
texts = list(TEXTS)
if "--texts" in sys.argv:
    texts += Path(sys.argv[sys.argv.index("--texts") + 1]).read_text(encoding="utf-8").split("\n\n")
counts: dict[str, int] = {}
n_random = int(sys.argv[sys.argv.index("--random") + 1]) if "--random" in sys.argv else 0
for f in sorted(folder.glob("*.json")):
    try:
        status, why = check(f, texts + random_texts(f, n_random))
    except Exception as e:  # HF itself cannot read it
        status, why = "skipped", f"HF cannot load it: {e}"[:200]
    counts[status] = counts.get(status, 0) + 1
    print(f"{status:8} {f.name}" + (f"\n    {why}" if why else ""))
print(" ".join(f"{k}={v}" for k, v in sorted(counts.items())))
