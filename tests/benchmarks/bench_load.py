"""Load (file -> tokenizer ready to encode) + encode 1 MB: ours vs the reference library, side by side.

    python tests/benchmarks/bench_load.py [FILE ...] [--reps N] [--mb 1]

Default files (from ../shared/realtok, gunzipped into a temp folder): cl100k_base.tiktoken, Qwen2.5's
tokenizer.json, GPT-2's tokenizer.json and GPT-2's vocab.json + merges.txt. Add more by path
(o200k_base.tiktoken, Qwen3's tokenizer.json, CS336's gpt2_vocab.json …). Ours: ``Tokenizer.from_spec(load_any(f))``. The
reference: tiktoken (``load_tiktoken_bpe`` + ``Encoding`` with the known pattern and special ids) for
.tiktoken files, HF ``Tokenizer.from_file`` for tokenizer.json, HF ``BPE.from_file`` + ByteLevel for
GPT-2 files. Reps alternate ours / reference (the last rep's tokenizers are freed before the timed
loads, not inside them); medians of wall time; ratio = ours / reference. The load is also compared in
CPU time (``process_time``, all threads), which other jobs on a shared machine disturb less. Each
encoding of 1 MB (English stories with a Chinese/emoji paragraph every ~40 KB) is checked to give the
reference's ids. The merge list of a tiktoken file is not rebuilt by a load (only when something reads
it), so the last column times reading ``spec.merges`` once, for the app's merge views and exports.
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
SHARED = Path(os.environ.get("BPE_SHARED", REPO.parent / "shared"))


def _arg(name: str, default: str) -> str:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def _default_files() -> list[Path]:
    real = SHARED / "realtok"
    tmp = Path(tempfile.mkdtemp())
    out = [real / "cl100k_base" / "cl100k_base.tiktoken"]
    for name in ("qwen2.5", "gpt2"):
        dst = tmp / name / "tokenizer.json"
        dst.parent.mkdir()
        dst.write_bytes(gzip.decompress((real / name / "tokenizer.json.gz").read_bytes()))
        out.append(dst)
    out.append(real / "gpt2" / "vocab.json")
    return out


def _text(n_bytes: int) -> str:
    base = (SHARED / "fixtures" / "tinystories_sample.txt").read_text(encoding="utf-8")
    extra = "\n我们今天去公园散步，天气很好。北京大学的学生 🙃👍🏽 Café résumé naïve\n"
    parts, size = [], 0
    while size < n_bytes:
        parts.append(base + extra)
        size += len(parts[-1].encode("utf-8"))
    return "".join(parts)


def _reference(f: Path):
    """(load function, encode function of what it returns) of the reference library for ``f``."""
    if f.suffix == ".tiktoken":
        import tiktoken
        from tiktoken.load import load_tiktoken_bpe

        from core.formats.known import known_encoding
        from core.formats.tiktoken_bpe import NONE_PATTERN
        from core.pretokenization.patterns import resolve_pattern

        known = known_encoding(f)
        pat = resolve_pattern(known.pattern if known else "gpt2") or NONE_PATTERN
        specials = dict(known.special_ids) if known else {}
        return (
            lambda: tiktoken.Encoding(
                f.stem, pat_str=pat, mergeable_ranks=load_tiktoken_bpe(str(f)), special_tokens=specials
            ),
            lambda enc, text: enc.encode(text, allowed_special="all"),
        )
    from tokenizers import Tokenizer as HF
    from tokenizers import decoders, models, pre_tokenizers

    if f.suffix == ".json" and "vocab" in f.stem:  # vocab.json, CS336's gpt2_vocab.json
        from core.formats import find_merges_for

        merges = find_merges_for(f)

        def load_files():
            tok = HF(models.BPE.from_file(str(f), str(merges)))
            tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
            tok.decoder = decoders.ByteLevel()
            tok.add_special_tokens(["<|endoftext|>"])  # what our loader takes as GPT-2's special token
            return tok

        return load_files, lambda tok, text: tok.encode(text, add_special_tokens=False).ids

    def load_json():
        tok = HF.from_file(str(f))
        tok.no_truncation()  # we report a file's truncation/padding and do not apply it
        tok.no_padding()
        return tok

    return load_json, lambda tok, text: tok.encode(text, add_special_tokens=False).ids


def main() -> None:
    from core import Tokenizer
    from core.formats import load_any

    os.environ["TIKTOKEN_CACHE_DIR"] = ""  # tiktoken reads the file every time, as we do
    files = [
        Path(a) for a in sys.argv[1:] if not a.startswith("--") and Path(a).is_file()
    ] or _default_files()
    reps = int(_arg("--reps", "5"))
    text = _text(int(float(_arg("--mb", "1")) * (1 << 20)))
    print(f"load average {os.getloadavg()[0]:.1f}; {reps} reps, medians")
    print(
        "| file | vocab | load ours | load reference | load ratio | load ratio (CPU) | encode 1 MB ours "
        "| encode reference | encode ratio | read .merges once | encode ours, M tokens/s |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for f in files:
        ref_load, ref_encode = _reference(f)
        times: dict[str, list[float]] = {
            k: [] for k in ("load", "ref_load", "cpu", "ref_cpu", "enc", "ref_enc")
        }
        ours = ref = None
        for _ in range(reps):
            ours = ref = None  # the last rep's tokenizers are freed before, not inside, the timed loads
            t0, c0 = time.perf_counter(), time.process_time()
            ours = Tokenizer.from_spec(load_any(f))
            times["load"].append(time.perf_counter() - t0)
            times["cpu"].append(time.process_time() - c0)
            t0, c0 = time.perf_counter(), time.process_time()
            ref = ref_load()
            times["ref_load"].append(time.perf_counter() - t0)
            times["ref_cpu"].append(time.process_time() - c0)  # all its threads: a load on a busy machine
            t0 = time.perf_counter()
            ids = ours.encode(text, add_special_tokens=False)
            times["enc"].append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            want = ref_encode(ref, text)
            times["ref_enc"].append(time.perf_counter() - t0)
            if ids != want:
                raise SystemExit(f"{f}: ids differ from the reference's")
        t0 = time.perf_counter()
        len(load_any(f).merges)
        merges_time = time.perf_counter() - t0
        m = {k: statistics.median(v) for k, v in times.items()}
        print(
            f"| {f.parent.name}/{f.name} | {ours.vocab_size:,} | {m['load']:.3f} s | {m['ref_load']:.3f} s "
            f"| {m['load'] / m['ref_load']:.2f}× | {m['cpu'] / m['ref_cpu']:.2f}× | {m['enc']:.3f} s "
            f"| {m['ref_enc']:.3f} s | {m['enc'] / m['ref_enc']:.2f}× | {merges_time:.2f} s "
            f"| {len(ids) / m['enc'] / 1e6:.2f} |",
            flush=True,
        )


main()
