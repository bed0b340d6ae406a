"""Issue 13 §1: every process the project starts is independent of the caller's ``__main__``.

Each entry point runs in a fresh interpreter from a script without ``if __name__ == "__main__":``,
given as a file, on stdin (``python - < script.py``) and with ``python -c``, on an input of several
blocks; its output must equal the same script run with the guard.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 240  # seconds: a run that re-enters the script hangs for ever

SCRIPTS = {
    # real default sizes: a ~13 MB file is more than three 4 MB blocks
    "train_bpe": """
        from core import train_bpe
        vocab, merges = train_bpe(BIG, 300, ["<|endoftext|>"], workers=2)
        print(len(vocab), merges[:40])
    """,
    "count_pretokens": """
        from core.pretokenization.pretokenize import count_pretokens
        counts, stats = count_pretokens(SMALL, ["<|endoftext|>"], workers=2, block_bytes=64 << 10)
        print(stats.chunks >= 3, stats.workers, sorted(counts.items()))
    """,
    "encode_file_to_npy": """
        import numpy as np
        from core.tokenization.npy import encode_file_to_npy
        from core.formats.spec import TokenizerSpec
        from core.tokenization.tokenizer import Tokenizer
        tok = Tokenizer.from_spec(TokenizerSpec.from_merges([(b"t", b"h"), (b"th", b"e"), (b" ", b"c")]))
        r = encode_file_to_npy(tok, BIG, OUT, workers=2)
        ids = np.load(OUT)
        print(r.workers, r.n_tokens, ids[:50].tolist(), ids[-50:].tolist(), int(ids.sum()))
    """,
    "Engine": """
        from core.engine.client import Engine
        eng = Engine()
        stats = eng.load(BIG, ["<|endoftext|>"], "gpt2", "lexicographic", 2)
        records = eng.steps(5)
        print(stats["stats"].chunks >= 3, stats["stats"].workers, [r.pair for r in records])
        eng.close()
    """,
    "create_window": """
        from PySide6.QtWidgets import QApplication
        from bpe_gui import create_window
        app = QApplication([])
        w = create_window(BIG, load_sample=False)
        c = w.controller
        done = []
        c.corpus_loaded.connect(lambda *a: (c.step(3), None))
        c.stepped.connect(lambda records: (done.append([r.pair for r in records]), app.quit()))
        c.error.connect(lambda m: (done.append(("error", m)), app.quit()))
        app.exec()
        print(done)
        c.shutdown()
    """,
}


def _make_corpus(path: Path, size: int) -> None:
    rng = random.Random(13)
    words = ["the", "cat", "sat", "on", "a", "mat", "café", "日本語", "42", "don't", "\n"]
    parts = []
    n = 0
    while n < size:
        line = " ".join(rng.choice(words) for _ in range(rng.randint(3, 15)))
        line += "<|endoftext|>" if rng.random() < 0.05 else "\n"
        parts.append(line)
        n += len(line.encode())
    path.write_text("".join(parts), encoding="utf-8", newline="")


@pytest.fixture(scope="module")
def corpora(tmp_path_factory):
    d = tmp_path_factory.mktemp("unguarded")
    big, small = d / "big.txt", d / "small.txt"
    _make_corpus(big, 13_000_000)
    _make_corpus(small, 300_000)
    return d, big, small


def _program(name: str, d: Path, big: Path, small: Path, out: str, guarded: bool) -> str:
    body = textwrap.dedent(SCRIPTS[name])
    head = f"BIG = {str(big)!r}\nSMALL = {str(small)!r}\nOUT = {str(d / out)!r}\n"
    if guarded:
        return head + 'if __name__ == "__main__":\n' + textwrap.indent(body, "    ")
    return head + body


def _run(args: list[str], cwd: Path, stdin: str | None = None) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
    r = subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=env,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    assert "RuntimeError" not in r.stderr and "bootstrapping" not in r.stderr, r.stderr[-3000:]
    return r.stdout


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SCRIPTS))
def test_entry_point_runs_from_a_script_without_a_main_guard(name, corpora, tmp_path):
    d, big, small = corpora
    guarded = tmp_path / "guarded.py"
    guarded.write_text(_program(name, d, big, small, f"{name}-g.npy", True))
    expected = _run([str(guarded)], tmp_path)
    assert expected.strip() and "error" not in expected
    plain = _program(name, d, big, small, f"{name}-u.npy", False)
    script = tmp_path / "plain.py"
    script.write_text(plain)
    assert _run([str(script)], tmp_path) == expected
    assert _run(["-"], tmp_path, stdin=plain) == expected
    assert _run(["-c", plain], tmp_path) == expected


def _exit_with(code: int) -> None:
    os._exit(code)


def test_a_child_that_cannot_start_fails_at_once_and_is_not_restarted(monkeypatch):
    from core import BPEError
    from core.engine.client import Engine, EngineDied
    from core.workers.parallel import ordered_map
    from core.workers.procs import ChildError, live_children

    monkeypatch.setattr("core.workers.procs._BOOT", "import sys\nsys.exit(3)\n# {module}")
    with pytest.raises(ChildError, match=r"could not start a bpe-worker process \(exit code 3\)"):
        list(ordered_map(abs, range(10), workers=2))
    assert live_children() == []
    eng = Engine()
    with pytest.raises(EngineDied, match=r"could not start.*exit code 3"):
        eng.ping()
    assert live_children() == []
    assert issubclass(ChildError, BPEError)


def test_a_worker_that_dies_is_reported_not_replaced():
    from core.workers.parallel import ordered_map
    from core.workers.procs import ChildError, live_children

    with pytest.raises(ChildError, match=r"worker process ended unexpectedly \(exit code 7\)"):
        list(ordered_map(_exit_with, [7, 7, 7], workers=2))
    assert live_children() == []


def test_worker_errors_come_back_as_the_same_exception():
    from core.workers.parallel import ordered_map

    with pytest.raises(ZeroDivisionError):
        list(ordered_map(divmod, [1, 2], workers=2, extra_args=(0,)))


def test_a_child_that_never_got_its_work_ends_when_closed():
    """A pool worker left without work (more workers than blocks) connected but waits for its
    task: closing it must end it, not leave it waiting (each used to cost a 5 s join)."""
    import time

    from core.workers.parallel import _worker, ordered_map
    from core.workers.procs import Child, live_children

    child = Child(_worker, (None, ()))
    deadline = time.monotonic() + 60
    while not child._accepted and time.monotonic() < deadline:  # wait until it has connected
        time.sleep(0.01)
    assert child._accepted
    child.close()
    child.join(30)
    assert not child.is_alive()
    assert list(ordered_map(abs, [-5], workers=3)) == [5]
    assert live_children() == []
