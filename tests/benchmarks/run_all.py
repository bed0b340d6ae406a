"""Run every side-by-side benchmark and write one markdown table of medians and ratios.

    python tests/benchmarks/run_all.py                 # full: 40 MB and 400 MB corpora (~20-30 min, 2 cores)
    python tests/benchmarks/run_all.py --quick         # 4 MB slice, fewer runs, no 400 MB (a few minutes)
    python tests/benchmarks/run_all.py --only training,encode --out bench-results/RESULTS.md

Needs the benchmark extras (``pip install ".[bench]"``: psutil, tokenizers, tiktoken) and the
corpora of ../shared/corpora/gcide.sh (built on first use). Every measured thing runs in a fresh
process; competing tools run alternately (A B A B …) and the tables show medians.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_encode  # noqa: E402
import bench_eval  # noqa: E402
import bench_gui  # noqa: E402
import bench_long_words  # noqa: E402
import bench_merge  # noqa: E402
import bench_rewind  # noqa: E402
import bench_scale  # noqa: E402
import bench_scaling  # noqa: E402
import bench_training  # noqa: E402
import common  # noqa: E402

MODULES = {
    "training": bench_training,
    "scaling": bench_scaling,
    "merge": bench_merge,
    "longdoc": bench_long_words,
    "encode": bench_encode,
    "eval": bench_eval,
    "gui": bench_gui,
    "scale": bench_scale,
    "rewind": bench_rewind,
}


def code_stamp() -> str:
    """The newest modification time of the measured code (to notice edits during a run)."""
    files = [p for d in ("core", "bpe_gui") for p in (common.REPO / d).rglob("*.py")]
    newest = max((p.stat().st_mtime for p in files), default=0.0)
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(newest))


def render(
    ctx: common.Context, sections: list[common.Section], argv: list[str], minutes: float, info: list[str]
) -> str:
    quick = " --quick" if ctx.quick else ""
    lines = [
        "# BPE Explorer benchmarks: side by side",
        "",
        "Reproduce (from the repository root, with ../shared beside it):",
        "",
        "```bash",
        'pip install ".[bench]"            # psutil, tokenizers, tiktoken',
        "bash ../shared/corpora/gcide.sh   # 40 MB gcide corpus + 400 MB ×10 copy in /tmp/bpe-corpora",
        f"python tests/benchmarks/run_all.py{quick} --out bench-results/RESULTS.md",
        "```",
        "",
        f"Mode: {'quick (4 MB slice, fewer runs, no 400 MB)' if ctx.quick else 'full'}; "
        f"{ctx.reps} alternating runs per comparison unless a row says otherwise; "
        f"run took {minutes:.1f} min; command: `{' '.join(argv)}`.",
        "",
    ]
    lines += [f"- {x}" for x in info]
    lines += [
        f"- load average at end: {', '.join(f'{x:.1f}' for x in os.getloadavg())} "
        "(other jobs shared the machine: medians of alternating runs, not single timings)",
        "",
    ]
    if ctx.targets:
        lines += [
            "## Targets",
            "",
            "| what | target | aim | measured | met |",
            "| --- | --- | --- | --- | --- |",
        ]
        for t in ctx.targets:
            met = "yes" if t.met else "**no**"
            if t.aim_met is not None:
                met += f" (aim: {'yes' if t.aim_met else 'no'})"
            lines.append(f"| {t.name} | {t.target} | {t.aim or '–'} | {t.measured} | {met} |")
        lines.append("")
    lines += [s.markdown() for s in sections]
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="4 MB slice, fewer runs, skip 400 MB")
    p.add_argument("--out", default="bench-results/RESULTS.md", help="markdown file to write")
    p.add_argument(
        "--reps", type=int, default=None, help="alternating runs per comparison (default 3, quick 2)"
    )
    p.add_argument(
        "--big",
        action="store_true",
        help="scale: the >= 2 GB generated corpus (tens of minutes, GBs of RAM) instead of 0.1 GB",
    )
    p.add_argument(
        "--only", default=",".join(MODULES), help=f"comma-separated subset of {', '.join(MODULES)}"
    )
    args = p.parse_args(argv)
    only = [x.strip() for x in args.only.split(",") if x.strip()]
    bad = [x for x in only if x not in MODULES]
    if bad:
        p.error(f"unknown section(s) {', '.join(bad)}; choose from {', '.join(MODULES)}")
    ctx = common.Context(quick=args.quick, reps=args.reps or (2 if args.quick else 3))
    ctx.shared["big"] = args.big
    code_before = code_stamp()
    info = common.machine_info()
    t0 = time.monotonic()
    ctx.log(f"corpora: {ctx.corpora}; work dir: {common.work_dir()}")
    sections: list[common.Section] = []
    for name in only:
        t1 = time.monotonic()
        try:
            sections += MODULES[name].run(ctx)
        except Exception as e:
            import traceback

            traceback.print_exc()
            sections.append(
                common.Section(
                    name,
                    [],
                    notes=[f"**failed**: {type(e).__name__}: {str(e).strip().splitlines()[-1][:300]}"],
                )
            )
        ctx.log(f"[{name}] done in {(time.monotonic() - t1) / 60:.1f} min")
    code_after = code_stamp()
    if code_after != code_before:
        sections.insert(
            0,
            common.Section(
                "Warning",
                [],
                notes=[
                    f"core/ or bpe_gui/ changed during the run ({code_before} → {code_after}): rows measured "
                    "before and after the change are mixed; run again."
                ],
            ),
        )
    text = render(
        ctx, sections, ["python", "tests/benchmarks/run_all.py", *argv], (time.monotonic() - t0) / 60, info
    )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, out)
    print(text)
    ctx.log(f"written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
