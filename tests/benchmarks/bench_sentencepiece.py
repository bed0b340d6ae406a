"""Load + encode with a SentencePiece BPE model: ours vs ``sentencepiece`` (and HF ``tokenizers`` on
the tokenizer.json we export), side by side.

    python tests/benchmarks/bench_sentencepiece.py [MODEL] [--reps N] [--mb 1]

Default: Mistral 7B v0.1's ``tokenizer.model.v1`` from mistral-common (32k pieces). For each rep, in
alternation: the load (ours: ``Tokenizer.from_spec(load_any(f))``; sentencepiece's processor; HF's
``from_file``), then the encoding of ``--mb`` MB of text (English with a Chinese/emoji paragraph
every ~40 KB, then the same size of Chinese only). Ids are checked identical. CPU time
(``time.process_time``: the machine is shared), medians; ratios are ours / theirs.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path


def _arg(name: str, default: str) -> str:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def _texts(n_bytes: int) -> dict[str, str]:
    rng = random.Random(0)
    words = [
        "the",
        "of",
        "and",
        "to",
        "a",
        "in",
        "that",
        "is",
        "was",
        "he",
        "for",
        "it",
        "with",
        "as",
        "his",
        "on",
        "be",
        "at",
        "by",
        "I",
        "had",
        "this",
        "not",
        "are",
        "but",
    ]
    extra = "\n我们今天去公园散步，天气很好。北京大学的学生 🙃👍🏽 Café résumé naïve\n"
    english: list[str] = []
    size = 0
    while size < n_bytes:
        chunk = " ".join(rng.choice(words) for _ in range(8000)) + extra
        english.append(chunk)
        size += len(chunk.encode("utf-8"))
    chinese = "".join(chr(rng.randint(0x4E00, 0x9FA5)) for _ in range(n_bytes // 3))
    return {"english+": "".join(english), "chinese": chinese}


def _timed(f):
    t = time.process_time()
    out = f()
    return out, time.process_time() - t


def main() -> None:
    import sentencepiece as spm
    from tokenizers import Tokenizer as HF

    from core import Tokenizer
    from core.formats import load_any, save

    given = [a for a in sys.argv[1:] if not a.startswith("--") and Path(a).exists()]
    model = (
        Path(given[0])
        if given
        else Path(str(resources.files("mistral_common") / "data" / "tokenizer.model.v1"))
    )
    reps = int(_arg("--reps", "3"))
    texts = _texts(int(float(_arg("--mb", "1")) * 1_000_000))
    exported = save(load_any(model), Path(tempfile.mkdtemp()) / "tokenizer.json", "hf")[0]
    times: dict[str, list[float]] = {}
    for _ in range(reps):
        ours, t = _timed(lambda: Tokenizer.from_spec(load_any(model)))
        times.setdefault("load ours", []).append(t)
        sp, t = _timed(lambda: spm.SentencePieceProcessor(model_file=str(model)))
        times.setdefault("load sentencepiece", []).append(t)
        hf, t = _timed(lambda: HF.from_file(str(exported)))
        times.setdefault("load HF (exported json)", []).append(t)
        for name, text in texts.items():
            a, t = _timed(lambda: ours.encode(text))  # noqa: B023 - called at once
            times.setdefault(f"encode {name} ours", []).append(t)
            b, t = _timed(lambda: sp.encode(text))  # noqa: B023
            times.setdefault(f"encode {name} sentencepiece", []).append(t)
            c, t = _timed(lambda: hf.encode(text, add_special_tokens=False).ids)  # noqa: B023
            times.setdefault(f"encode {name} HF", []).append(t)
            assert a == b == c, f"ids differ on {name}"
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"{model.name}, {reps} reps, CPU seconds (medians)")
    for k, v in med.items():
        print(f"  {k:32s} {v:8.3f}")
    print(f"  load: ours / sentencepiece = {med['load ours'] / med['load sentencepiece']:.1f}x")
    for name in texts:
        ours_t = med[f"encode {name} ours"]
        print(
            f"  encode {name}: ours / sentencepiece = {ours_t / med[f'encode {name} sentencepiece']:.2f}x, "
            f"ours / HF = {ours_t / med[f'encode {name} HF']:.2f}x"
        )


if __name__ == "__main__":
    main()
