"""Compare our ids with HF ``tokenizers`` for every ``*.json`` tokenizer file in a folder.

    python tests/benchmarks/hf_conformance.py FOLDER [--texts FILE]

For each file: HF's ``Tokenizer.from_file(f).encode(t, add_special_tokens=True/False).ids`` against
``Tokenizer.from_spec(load_hf(f)).encode(t, add_special_tokens=...)`` on varied texts (English, code,
Chinese, emoji, decomposed accents, digits, special-token text), plus ``decode(encode(t)) == t``
where HF's own decode round-trips. A file we refuse counts as "refused" with our message (right for
Unigram/WordPiece/char-level files). Not part of the default test run.
"""
from __future__ import annotations

import sys
from pathlib import Path

from tokenizers import Tokenizer as HFTokenizer

from core import Tokenizer
from core.errors import BPEError
from core.formats import load_hf

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
                bad.append(f"ids differ (add_special_tokens={add}) on {t[:40]!r} at token {i}: "
                           f"HF {want[i:i + 6]} ours {got[i:i + 6]}")
        ids = hf.encode(t, add_special_tokens=False).ids
        if hf.decode(ids, skip_special_tokens=False) == t and ours.decode(ours.encode(t, add_special_tokens=False)) != t:
            bad.append(f"round trip fails on {t[:40]!r}")
    return ("ok", "") if not bad else ("FAIL", "\n    ".join(bad[:6]))


folder = Path(sys.argv[1])
texts = list(TEXTS)
if "--texts" in sys.argv:
    texts += Path(sys.argv[sys.argv.index("--texts") + 1]).read_text(encoding="utf-8").split("\n\n")
counts: dict[str, int] = {}
for f in sorted(folder.glob("*.json")):
    try:
        status, why = check(f, texts)
    except Exception as e:  # HF itself cannot read it
        status, why = "skipped", f"HF cannot load it: {e}"[:200]
    counts[status] = counts.get(status, 0) + 1
    print(f"{status:8} {f.name}" + (f"\n    {why}" if why else ""))
print(" ".join(f"{k}={v}" for k, v in sorted(counts.items())))
