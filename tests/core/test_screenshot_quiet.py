"""``bpe-explorer screenshot`` prints the file it wrote and nothing else: no Qt platform notes (issue 28).

Run in a fresh process (the command starts Qt; tests/core never does in its own process)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def test_screenshot_prints_no_qt_warning(tmp_path):
    if importlib.util.find_spec("PySide6") is None:  # (looked up, not imported: no Qt in this process)
        pytest.skip("the app's extra (PySide6) is not installed")
    corpus = tmp_path / "c.txt"
    corpus.write_text("the cat sat on the mat. " * 200, encoding="utf-8")
    out = tmp_path / "shot.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(REPO)}
    r = subprocess.run(
        [sys.executable, "-m", "bpe_gui", "screenshot", str(out), "--corpus", str(corpus), "--steps", "5"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=REPO,
    )
    assert r.returncode == 0, r.stderr
    assert out.is_file() and out.stat().st_size > 10_000
    assert r.stderr == "", r.stderr
    assert r.stdout.strip() == str(out)
