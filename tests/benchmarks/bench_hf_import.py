"""Load + encode a large-vocab HF ``tokenizer.json``: ours vs HF ``tokenizers``, side by side.

    python tests/benchmarks/bench_hf_import.py [TOKENIZER.json[.gz]] [--reps N] [--mb 1]

Default: Qwen2.5 (151k tokens, NFC normalizer, Split + ByteLevel) from ../shared/realtok. For each
rep, in alternation: ``Tokenizer.from_spec(load_hf(f))`` and ``Tokenizer.from_file(f)``, then the
encoding of 1 MB of text (English stories with a Chinese/emoji paragraph every ~40 KB, and an ASCII-only
1 MB). Ids are checked identical. The GPT-2 vocab.json/merges.txt tokenizer (our plain path) is timed
on the same text for the "a large vocab encodes as fast as GPT-2" aim. Medians; ratios are ours/HF
for time and ours/GPT-2 for tokens/s.
"""

from __future__ import annotations

import gzip
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# ../shared beside the clone (BPE_SHARED overrides it, e.g. from a worktree)
SHARED = Path(os.environ.get("BPE_SHARED", REPO.parent / "shared"))


def _arg(name: str, default: str) -> str:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def _tokenizer_file() -> Path:
    given = [a for a in sys.argv[1:] if a.endswith((".json", ".gz"))]
    src = Path(given[0]) if given else SHARED / "realtok" / "qwen2.5" / "tokenizer.json.gz"
    if src.suffix != ".gz":
        return src
    out = Path(tempfile.mkdtemp()) / "tokenizer.json"
    out.write_bytes(gzip.decompress(src.read_bytes()))
    return out


def _texts(n_bytes: int) -> dict[str, str]:
    base = (SHARED / "fixtures" / "tinystories_sample.txt").read_text(encoding="utf-8")
    extra = "\n我们今天去公园散步，天气很好。北京大学的学生 🙃👍🏽 Café résumé naïve\n"
    mixed: list[str] = []
    size = 0
    while size < n_bytes:
        chunk = base[:40_000] + extra
        mixed.append(chunk)
        size += len(chunk.encode("utf-8"))
        base = base[40_000:] + base[:40_000]
    ascii_text = (base * (n_bytes // len(base) + 1))[:n_bytes]
    return {"mixed": "".join(mixed), "ascii": ascii_text}


def main() -> None:
    from tokenizers import Tokenizer as HF

    from core import Tokenizer
    from core.formats import load_gpt2, load_hf

    reps = int(_arg("--reps", "3"))
    path = _tokenizer_file()
    texts = _texts(int(float(_arg("--mb", "1")) * (1 << 20)))
    gpt2 = Tokenizer.from_spec(
        load_gpt2(
            SHARED / "fixtures" / "gpt2_vocab.json",
            SHARED / "fixtures" / "gpt2_merges.txt",
            special_tokens=["<|endoftext|>"],
        )
    )
    times: dict[str, list[float]] = {}

    def timed(key: str, f, *args, **kw):
        t0 = time.perf_counter()
        out = f(*args, **kw)
        times.setdefault(key, []).append(time.perf_counter() - t0)
        return out

    n_tokens: dict[str, int] = {}
    for _ in range(reps):
        ours = timed("load ours", lambda: Tokenizer.from_spec(load_hf(path)))
        hf = timed("load HF", lambda: HF.from_file(str(path)))
        hf.no_truncation()
        hf.no_padding()
        for name, text in texts.items():
            a = timed(f"encode {name} ours", ours.encode, text, add_special_tokens=False)
            b = timed(f"encode {name} HF", hf.encode, text, add_special_tokens=False).ids
            if a != b:
                raise SystemExit(f"ids differ on the {name} text")
            g = timed(f"encode {name} GPT-2 (ours)", gpt2.encode, text)
            n_tokens[name] = len(a)
            n_tokens[f"{name} gpt2"] = len(g)
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"{path} ({ours.vocab_size:,} tokens), {reps} reps, medians")
    print(
        f"load: ours {med['load ours']:.2f} s, HF {med['load HF']:.2f} s, "
        f"ratio {med['load ours'] / med['load HF']:.2f}x"
    )
    for name in texts:
        o, h, g = (med[f"encode {name} {w}"] for w in ("ours", "HF", "GPT-2 (ours)"))
        tps, gtps = n_tokens[name] / o, n_tokens[f"{name} gpt2"] / g
        print(
            f"encode {name} 1 MB: ours {o:.2f} s ({tps / 1e3:.0f}k tok/s), HF {h:.2f} s, time ratio "
            f"{o / h:.2f}x; GPT-2 vocab (ours) {gtps / 1e3:.0f}k tok/s -> large vocab at {tps / gtps:.2f}x "
            "GPT-2's tokens/s"
        )


main()
