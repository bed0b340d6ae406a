"""Does a tiktoken file of a tokenizer give its ids? Our check (rank_order_example) against tiktoken itself.

    BPE_SHARED=/work/shared python tests/benchmarks/tiktoken_rank_order.py [--lines N] [--corpus FILE]

For each real tokenizer of ../shared/realtok (gunzipped into a temp folder) and for tokenizers trained
here: the time of :func:`core.formats.rank_order.rank_order_example` on a freshly loaded spec (not
cached), its verdict, and what tiktoken does: an ``Encoding`` of the spec's pattern and the ranks
of the exported ``bpe.tiktoken`` encodes each pre-token of N lines of varied text (a dictionary
corpus if given, code, Chinese, the probe text) and the ids are compared with ours for the same
pre-token (the word-level encoding, so that the normalizer and special tokens, which are losses of
their own, do not count). The verdict is right when it says "same" exactly where no pre-token differs.
Exit status 1 when a verdict is wrong.
"""

from __future__ import annotations

import gzip
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("TIKTOKEN_CACHE_DIR", "")

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("BPE_SHARED", REPO.parent / "shared"))


def _arg(name: str, default: str) -> str:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def _files(tmp: Path) -> list[Path]:
    real = SHARED / "realtok"
    out = []
    for rel in (
        "gpt2/tokenizer.json.gz",
        "qwen2.5/tokenizer.json.gz",
        "olmo1/allenai_gpt-neox-olmo-dolma-v1_5.json.gz",
        "mistral-tekken/tekken_240911.json.gz",
    ):
        src = real / rel
        dst = tmp / rel.split("/")[0] / src.name[: -len(".gz")]
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_bytes(gzip.decompress(src.read_bytes()))
        out.append(dst)
    return [*out, real / "cl100k_base" / "cl100k_base.tiktoken", real / "gpt2" / "vocab.json"]


def _lines(n: int, corpus: str | None) -> list[str]:
    from core.formats.rank_order import MERGE_PROBE_TEXT

    lines = MERGE_PROBE_TEXT.splitlines(keepends=True)
    code = [p.read_text(encoding="utf-8") for p in sorted((REPO / "core" / "formats").glob("*.py"))]
    lines += "".join(code).splitlines(keepends=True)[: n // 4]
    lines += ["北京大学的学生在公园里散步，天气很好。我们今天学习了字节对编码。\n" * 3, "ｶﾀｶﾅ ＡＢＣ１２３\n"]
    if corpus and Path(corpus).is_file():
        with open(corpus, encoding="utf-8", errors="replace") as f:
            text = f.read(4_000_000).splitlines(keepends=True)
        step = max(1, len(text) // n)
        lines += text[::step][: n - len(lines)]
    return lines


def _trained(tmp: Path, corpus: str | None) -> list:
    from core import Trainer

    text = (SHARED / "fixtures" / "corpus.en").read_text(encoding="utf-8")
    if corpus and Path(corpus).is_file():
        with open(corpus, encoding="utf-8", errors="replace") as f:
            text += f.read(3_000_000)
    out = []
    for pattern in ("gpt2", "gpt4"):
        t = Trainer.from_text(text, ["<|endoftext|>"], pattern=pattern)
        t.run(8000)
        out.append((f"trained ({pattern}, 8000)", t))
    return out


def _reversed(tmp: Path):
    """GPT-2 with a stretch of its merge list in reverse order (the ids stay): a merge list whose
    order is not that of the ids it makes, as a tokenizer.json can have."""
    from dataclasses import replace

    from core.formats import load_any

    spec = load_any(tmp / "gpt2" / "tokenizer.json")
    m = list(spec.merges)
    return replace(spec, merges=tuple(m[:1000] + m[1000:2000][::-1] + m[2000:]))


def _compare(spec, lines: list[str]) -> tuple[int, int, tuple | None]:
    """(pre-tokens compared, of them differing, the first that differs) with tiktoken itself."""
    import regex
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe

    from core import Tokenizer
    from core.formats import save

    tok = Tokenizer.from_spec(spec)
    d = tempfile.mkdtemp()
    save(spec, d, "tiktoken", lossy=True)
    ranks = load_tiktoken_bpe(os.path.join(d, "bpe.tiktoken"))
    pattern = spec.pattern_regex or r"(?s:.+)"
    enc = tiktoken.Encoding("check", pat_str=pattern, mergeable_ranks=ranks, special_tokens={})
    holes = set(tok.unencodable_bytes)
    n = bad = 0
    first = None
    seen: set[str] = set()
    for line in lines:
        for piece in regex.findall(pattern, line):
            if piece in seen:
                continue
            seen.add(piece)
            b = piece.encode("utf-8")
            if holes and holes & set(b):
                continue
            n += 1
            ours = list(tok._encode_word(piece))
            theirs = enc._encode_single_piece(b)
            if ours != theirs:
                bad += 1
                first = first or (piece, ours, theirs)
    return n, bad, first


def main() -> int:
    from core.formats import load_any
    from core.formats.rank_order import rank_order_example
    from core.formats.spec import as_spec

    corpus = _arg("--corpus", "/tmp/bpe-corpora/gcide.utf8.txt")
    lines = _lines(int(_arg("--lines", "600")), corpus)
    tmp = Path(tempfile.mkdtemp())
    cases = [(f"{f.parent.name}/{f.name}", lambda f=f: load_any(f)) for f in _files(tmp)]
    cases += [(name, lambda s=s: as_spec(s)) for name, s in _trained(tmp, corpus)]
    cases.append(("gpt2, merges 1000-1999 reversed (lossy)", lambda: _reversed(tmp)))
    wrong = 0
    print(f"{'tokenizer':42} {'check s':>8}  verdict{'':26} tiktoken: pre-tokens differing / compared")
    for name, load in cases:
        spec = load()
        t = time.perf_counter()
        found = rank_order_example(spec)
        dt = time.perf_counter() - t
        n, bad, first = _compare(spec, lines)
        ok = (found is None) == (bad == 0)
        wrong += not ok
        verdict = "same ids" if found is None else f"differ: {found.text!r}"
        print(f"{name:42} {dt:8.3f}  {verdict:33} {bad} / {n}{'' if ok else '  WRONG'}")
        if first:
            print(f"{'':44}first difference: {first}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
