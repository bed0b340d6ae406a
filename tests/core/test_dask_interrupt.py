"""Ctrl+C during ``count --engine dask``: one line, status 130, no output file, no process left."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")  # the scale extra is part of the test extra

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.timeout(240)
def test_ctrl_c_during_a_dask_count_stops_cleanly(tmp_path):
    rng = random.Random(0)
    words = [f"w{i}" for i in range(5000)]
    corpus = tmp_path / "c.txt"
    corpus.write_text("".join(" ".join(rng.choices(words, k=15)) + ".\n" for _ in range(250_000)))
    out = tmp_path / "c.parquet"
    p = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "core.cli",
            "count",
            str(corpus),
            "--out",
            str(out),
            "--engine",
            "dask",
            "--workers",
            "2",
            "--range-mb",
            "0.25",
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: (signal.signal(signal.SIGINT, signal.SIG_DFL), os.setpgrp()),
    )
    err = b""
    while b"Completed" not in err:  # Dask's progress bar: the cluster is up and counting
        chunk = os.read(p.stderr.fileno(), 4096)
        assert chunk, err.decode(errors="replace")[-2000:]
        err += chunk
    os.killpg(p.pid, signal.SIGINT)  # what a terminal does on Ctrl+C: the whole foreground group
    _, rest = p.communicate(timeout=120)
    text = (err + rest).decode(errors="replace")
    lines = [ln for ln in text.replace("\r", "\n").splitlines() if ln.strip() and "Completed" not in ln]
    assert p.returncode == 130 and lines == ["bpe-explorer: interrupted"], text[-3000:]
    assert not out.exists()
    deadline = time.monotonic() + 30
    while True:  # the workers are gone (the cluster was closed before the exit)
        try:
            os.killpg(p.pid, 0)
        except ProcessLookupError:
            break
        assert time.monotonic() < deadline, "worker processes outlived the command"
        time.sleep(0.1)
