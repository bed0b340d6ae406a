"""``inspect`` on real tokenizers: our whole inspection vs the reference library's obvious check.

    python tests/benchmarks/bench_inspect.py [FILE ...] [--reps N]

Default files (from ../shared/realtok): cl100k_base.tiktoken (100k) and Qwen2.5's tokenizer.json
(152k). Ours: ``inspect_tokenizer`` (unreachable from text, unreachable by merges, partial UTF-8,
longest) on a loaded tokenizer, load not counted. The reference does only the first list: encode
every token's text one by one with tiktoken (``encode_ordinary``) or HF ``tokenizers``
(``encode(..., add_special_tokens=False)``) and compare with the token's id. CPU time
(``process_time``) of each, reps alternating, medians; ratio = ours / reference. The lists of
unreachable ids are checked identical.
"""

from __future__ import annotations

import contextlib
import gzip
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("BPE_SHARED", REPO.parent / "shared"))
sys.path.insert(0, str(REPO))


def _default_files() -> list[Path]:
    real = SHARED / "realtok"
    dst = Path(tempfile.mkdtemp()) / "tokenizer.json"
    dst.write_bytes(gzip.decompress((real / "qwen2.5" / "tokenizer.json.gz").read_bytes()))
    return [real / "cl100k_base" / "cl100k_base.tiktoken", dst]


def _reference(path: Path, tok) -> Callable[[], list[int]]:
    """A function that finds the ids whose text the reference library does not encode to that id."""
    items = []
    for i, b in sorted(tok.vocab.items()):
        if tok.is_special(i):
            continue
        with contextlib.suppress(UnicodeDecodeError):
            items.append((i, b.decode("utf-8")))
    if path.suffix == ".tiktoken":
        import tiktoken
        from tiktoken.load import load_tiktoken_bpe

        from core.pretokenization.patterns import GPT4_PATTERN

        enc = tiktoken.Encoding(
            "bench", pat_str=GPT4_PATTERN, mergeable_ranks=load_tiktoken_bpe(str(path)), special_tokens={}
        )
        return lambda: [i for i, t in items if enc.encode_ordinary(t) != [i]]
    import tokenizers

    hf = tokenizers.Tokenizer.from_file(str(path))
    return lambda: [i for i, t in items if hf.encode(t, add_special_tokens=False).ids != [i]]


def main() -> None:
    from core.evaluation.inspect import inspect_tokenizer
    from core.formats import load_any
    from core.tokenization.tokenizer import Tokenizer

    reps = int(sys.argv[sys.argv.index("--reps") + 1]) if "--reps" in sys.argv else 3
    files = [Path(a) for a in sys.argv[1:] if not a.startswith("--") and not a.isdigit()] or _default_files()
    for path in files:
        tok = Tokenizer.from_spec(load_any(path))
        ref = _reference(path, tok)
        ours_t, ref_t = [], []
        for _ in range(reps):
            fresh = Tokenizer.from_spec(load_any(path))  # (an empty encode cache each time)
            t0 = time.process_time()
            r = inspect_tokenizer(fresh)
            ours_t.append(time.process_time() - t0)
            t0 = time.process_time()
            want = ref()
            ref_t.append(time.process_time() - t0)
            assert r.unreachable_text == want, (len(r.unreachable_text), len(want))
        o, f = statistics.median(ours_t), statistics.median(ref_t)
        print(
            f"{path.name}: {len(tok.vocab):,} tokens, {len(r.unreachable_text):,} unreachable from text "
            f"(identical), {len(r.unreachable_merges):,} by merges: ours {o:.2f} s CPU (all lists) / "
            f"reference {f:.2f} s CPU (text list only) = {o / f:.2f}×"
        )


if __name__ == "__main__":
    main()
