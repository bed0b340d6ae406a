"""Shared helpers for the side-by-side benchmarks: fresh-subprocess runs, A B A B alternation,
medians, peak RSS, corpus slices and markdown tables.

Every measured thing runs in a fresh interpreter (``python bench_X.py --child TASK JSON``) so that
caches, imports and peak RSS are fair; the child times the operation itself with
``time.perf_counter`` and prints one ``@@BENCH@@ {json}`` line. The parent samples the resident
memory of the whole process tree (the child and its worker processes) with psutil.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
SHARED = REPO.parent / "shared"
if not SHARED.is_dir() and (REPO.parent.parent / "shared").is_dir():  # a worktree in <root>/wt/<name>
    SHARED = REPO.parent.parent / "shared"
if os.environ.get("BPE_SHARED"):  # given: it wins
    SHARED = Path(os.environ["BPE_SHARED"])
MARK = "@@BENCH@@"
MB = 1_000_000  # decimal megabytes, as the corpus sizes are quoted (gcide.txt is 40 MB)


# --------------------------------------------------------------------------- GPT-2 and tiktoken set-up
SPECIAL = "<|endoftext|>"
# a newline between a printable character and a letter: neither GPT-2's nor cl100k's pattern joins
# text across it, so blocks cut there encode to the ids of the whole text
SAFE_NEWLINE = re.compile(r"[!-~]\n(?=[A-Za-z])")
BLOCK_CHARS = 2 * MB  # tiktoken's blocks for encode_batch


def conformance() -> Any:
    """``shared/conformance/gpt2_files``: the GPT-2 files of the fixtures, for us and for tiktoken."""
    if str(SHARED / "conformance") not in sys.path:
        sys.path.insert(0, str(SHARED / "conformance"))
    import gpt2_files

    return gpt2_files


def gpt2_ours() -> Any:
    """Our ``Tokenizer`` with the GPT-2 vocab and merges and ``<|endoftext|>``."""
    from core import Tokenizer

    vocab, merges = conformance().load_gpt2()
    return Tokenizer(vocab, merges, [SPECIAL])


def gpt2_tiktoken() -> Any:
    """tiktoken's ``Encoding`` with the same GPT-2 vocabulary (built offline from the fixtures)."""
    return conformance().tiktoken_gpt2()


def safe_blocks(text: str, block_chars: int = BLOCK_CHARS) -> list[str]:
    """``text`` cut into blocks of about ``block_chars`` at :data:`SAFE_NEWLINE` places."""
    blocks, pos = [], 0
    while pos < len(text):
        m = SAFE_NEWLINE.search(text, pos + block_chars) if pos + block_chars < len(text) else None
        end = m.end() if m else len(text)
        blocks.append(text[pos:end])
        pos = end
    return blocks


def tiktoken_encode_text(enc: Any, text: str, workers: int) -> list[list[int]]:
    """tiktoken on a big text the way a user would: :func:`safe_blocks`, ``encode_batch`` on
    ``workers`` threads (special tokens allowed); the ids of each block."""
    return enc.encode_batch(safe_blocks(text), num_threads=workers, allowed_special="all")


# --------------------------------------------------------------------------- statistics
def median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def pct(xs: list[float], q: float) -> float:
    """The q-th percentile (0..100), nearest-rank on the sorted values."""
    if not xs:
        return float("nan")
    s = sorted(xs)
    k = max(0, min(len(s) - 1, round(q / 100 * len(s) + 0.5) - 1))
    return s[k]


def dist(xs: list[float]) -> dict[str, float]:
    """p50 / p95 / max of a list of latencies."""
    return {"p50": pct(xs, 50), "p95": pct(xs, 95), "max": max(xs) if xs else float("nan"), "n": len(xs)}


# --------------------------------------------------------------------------- corpora
def corpora_dir() -> Path:
    """The folder with gcide.txt, gcide.utf8.txt and gcide_x10.txt (built by shared/corpora/gcide.sh)."""
    d = Path(os.environ.get("BPE_CORPORA", Path(os.environ.get("TMPDIR", "/tmp")) / "bpe-corpora"))
    if not all(
        (d / n).is_file() and (d / n).stat().st_size for n in ("gcide.txt", "gcide.utf8.txt", "gcide_x10.txt")
    ):
        script = SHARED / "corpora" / "gcide.sh"
        if not script.is_file():
            raise SystemExit(f"corpora missing in {d} and {script} not found")
        out = subprocess.run(["bash", str(script), str(d)], check=True, capture_output=True, text=True)
        d = Path(out.stdout.strip().splitlines()[-1])
    return d


def work_dir() -> Path:
    d = Path(os.environ.get("BPE_BENCH_WORK", Path(tempfile.gettempdir()) / "bpe-bench"))
    d.mkdir(parents=True, exist_ok=True)
    return d


def slice_file(src: Path, n_bytes: int, name: str) -> Path:
    """The first ``n_bytes`` of ``src`` cut after the last newline (cached in the work dir)."""
    dst = work_dir() / name
    if dst.is_file() and dst.stat().st_mtime >= src.stat().st_mtime and dst.stat().st_size <= n_bytes:
        return dst
    with open(src, "rb") as f:
        data = f.read(n_bytes)
    cut = data.rfind(b"\n")
    data = data[: cut + 1] if cut > 0 else data
    tmp = dst.with_suffix(".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, dst)
    return dst


def warm(path: Path) -> None:
    """Read a file once so that every measured run finds it in the page cache."""
    with open(path, "rb") as f:
        while f.read(16 * MB):
            pass


# --------------------------------------------------------------------------- child processes
@dataclass
class RunResult:
    """What one child run reported, plus what the parent measured around it."""

    data: dict
    wall_s: float  # parent-side wall time, including interpreter start and imports
    tree_peak_mb: float  # peak of the summed RSS of the child and its descendants (sampled)

    def __getitem__(self, k: str):
        return self.data[k]

    def get(self, k: str, default=None):
        return self.data.get(k, default)


def _tree_rss(proc) -> int:
    import psutil

    total = 0
    try:
        procs = [proc, *proc.children(recursive=True)]
    except psutil.Error:
        return 0
    for p in procs:
        with contextlib.suppress(psutil.Error):
            total += p.memory_info().rss
    return total


def run_child(
    script: Path | str, task: str, args: dict | None = None, *, env: dict | None = None, timeout: float = 3600
) -> RunResult:
    """Run ``script --child task json(args)`` in a fresh interpreter and return its report."""
    full_env = dict(os.environ)
    # (what PYTHONPATH held, e.g. packages installed with --target, stays after the code's folders)
    full_env["PYTHONPATH"] = os.pathsep.join(
        [str(REPO), str(HERE), *filter(None, [os.environ.get("PYTHONPATH")])]
    )
    full_env.setdefault("PYTHONHASHSEED", "0")
    full_env.update(env or {})
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(
            [sys.executable, str(script), "--child", task, json.dumps(args or {})],
            cwd=REPO,
            env=full_env,
            stdout=out,
            stderr=err,
        )
        peak = 0
        stop = threading.Event()

        def sample() -> None:
            nonlocal peak
            try:
                import psutil

                proc = psutil.Process(p.pid)
            except Exception:
                return
            while not stop.is_set():
                peak = max(peak, _tree_rss(proc))
                stop.wait(0.05)

        th = threading.Thread(target=sample, daemon=True)
        th.start()
        try:
            rc = p.wait(timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            raise RuntimeError(f"{script} {task} timed out after {timeout} s") from None
        finally:
            stop.set()
            th.join()
        wall = time.perf_counter() - t0
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    lines = [ln for ln in stdout.splitlines() if ln.startswith(MARK)]
    if rc != 0 or not lines:
        raise RuntimeError(f"{Path(script).name} {task} {args} failed (exit {rc}):\n{stderr[-3000:]}")
    data = json.loads(lines[-1][len(MARK) :])
    return RunResult(data, wall, peak / MB)


def child_main(tasks: dict[str, Callable[..., dict]]) -> bool:
    """In a child: run the task named on the command line and report. Returns False if not a child."""
    if len(sys.argv) < 2 or sys.argv[1] != "--child":
        return False
    task, args = sys.argv[2], json.loads(sys.argv[3]) if len(sys.argv) > 3 else {}
    result = tasks[task](**args)
    result["rss_self_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    result["rss_children_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    sys.stdout.write(MARK + json.dumps(result) + "\n")
    sys.stdout.flush()
    return True


def alternate(
    variants: dict[str, Callable[[], RunResult]], reps: int, log: Callable[[str], None] | None = None
) -> dict[str, list[RunResult]]:
    """Run the variants interleaved (A B A B …) ``reps`` times; results per variant in run order."""
    out: dict[str, list[RunResult]] = {k: [] for k in variants}
    for i in range(reps):
        for name, fn in variants.items():
            r = fn()
            out[name].append(r)
            if log:
                secs = r.get("seconds")
                log(
                    f"  {name} rep {i + 1}/{reps}: "
                    + (f"{secs:.2f} s" if secs is not None else "done")
                    + f" (wall {r.wall_s:.1f} s, tree RSS {r.tree_peak_mb:.0f} MB)"
                )
    return out


def med(results: list[RunResult], key: str = "seconds") -> float:
    return median([r[key] for r in results])


# --------------------------------------------------------------------------- reporting
@dataclass
class Section:
    """One markdown section: a title, a table and notes."""

    title: str
    columns: list[str]
    rows: list[list] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def markdown(self) -> str:
        lines = [f"## {self.title}", ""]
        if self.columns:
            lines.append("| " + " | ".join(self.columns) + " |")
            lines.append("|" + "|".join(" --- " for _ in self.columns) + "|")
            lines.extend("| " + " | ".join(str(c) for c in row) + " |" for row in self.rows)
            lines.append("")
        lines.extend(f"- {n}" for n in self.notes)
        if self.notes:
            lines.append("")
        return "\n".join(lines)


@dataclass
class Target:
    name: str
    target: str
    aim: str
    measured: str
    met: bool
    aim_met: bool | None = None


@dataclass
class Context:
    """Settings and shared state of one benchmark run."""

    quick: bool = False
    reps: int = 3
    log: Callable[[str], None] = field(default=lambda s: print(s, file=sys.stderr, flush=True))
    targets: list[Target] = field(default_factory=list)
    shared: dict = field(default_factory=dict)  # results one module reuses from another

    @property
    def corpora(self) -> Path:
        return corpora_dir()

    def corpus_40(self, utf8: bool = True) -> Path:
        """The main corpus: the 40 MB gcide file, or a 4 MB slice of it in quick mode."""
        src = self.corpora / ("gcide.utf8.txt" if utf8 else "gcide.txt")
        if self.quick:
            return slice_file(src, 4 * MB, "gcide_4mb" + (".utf8" if utf8 else "") + ".txt")
        return src


def fmt_s(x: float) -> str:
    if x != x:
        return "–"
    return f"{x:.3f} s" if x < 1 else f"{x:.2f} s" if x < 100 else f"{x:.0f} s"


def fmt_ms(x: float) -> str:
    return "–" if x != x else f"{x:.1f} ms" if x < 100 else f"{x:.0f} ms"


def fmt_ratio(x: float) -> str:
    return "–" if x != x else f"{x:.2f}×"


def fmt_mb(x: float) -> str:
    return "–" if x != x else f"{x:,.0f} MB"


def _code_time() -> str:
    files = [p for d in ("core", "bpe_gui") for p in (REPO / d).rglob("*.py")]
    return time.strftime(
        "%Y-%m-%d %H:%M:%S", time.localtime(max((p.stat().st_mtime for p in files), default=0))
    )


def machine_info() -> list[str]:
    def ver(mod: str) -> str:
        try:
            from importlib.metadata import version

            return version(mod)
        except Exception:
            return "not installed"

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return [
        f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()} "
        f"{platform.release()}",
        f"tokenizers {ver('tokenizers')}, tiktoken {ver('tiktoken')}, regex {ver('regex')}, "
        f"numpy {ver('numpy')}, PySide6 {ver('PySide6_Essentials')}",
        f"load average at start: {load}",
        f"measured code (core/, bpe_gui/) last modified {_code_time()}",
    ]


def script_main(tasks: dict[str, Callable[..., dict]], run: Callable[[Context], list]) -> None:
    """``python bench_X.py [--quick]``: a child task when called as one, else this area's tables."""
    if not child_main(tasks):
        quick = "--quick" in sys.argv
        for section in run(Context(quick=quick, reps=2 if quick else 3)):
            print(section.markdown())
