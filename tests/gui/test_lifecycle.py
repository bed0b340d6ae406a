"""Closing during a run, the thread-leak fixture, and subprocess smoke tests of the entry points."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from PySide6.QtGui import QImage

from bpe_gui.jobs import worker

from .gui_helpers import load

REPO = Path(__file__).resolve().parents[2]


def _env(tmp_path) -> dict:
    env = dict(os.environ)
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env["BPE_EXPLORER_SETTINGS"] = str(tmp_path / "settings.ini")
    return env


def test_close_during_run_stops_the_worker_first(qtbot, window, sample_corpus):
    """FAULTS 13: closing during a run stops it, then the window closes; nothing is left running."""
    load(qtbot, window, sample_corpus)
    c = window.controller
    with qtbot.waitSignal(c.progress, timeout=30_000):
        c.train(60_000)
    assert c.busy == "train"
    window.close()
    assert window.isVisible()  # waits for the worker
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=10_000)
    assert not c.busy and not worker.running_threads()
    # the merges done before the stop are all shown, and the engine process was given back
    assert 0 < c.index.n_merges == len(c.records)
    assert [r.pair for r in c.records] == [m.pair for m in c.index.merges]
    assert c.engine is None


def test_close_during_load(qtbot, window, sample_corpus):
    c = window.controller
    c.load_corpus(str(sample_corpus))
    window.close()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=10_000)
    assert not worker.running_threads()


class _Blocker(worker.Job):
    kind = "blocker"

    def __init__(self):
        super().__init__()
        self.go = False

    def work(self):
        import time

        while not self.go and not self.cancel_requested:
            time.sleep(0.005)


def test_running_threads_sees_a_leftover_thread(qtbot):
    """The check used by the ``no_thread_left`` fixture finds a thread that is still running."""
    job = _Blocker()
    finished = []
    thread = worker.start(job, lambda: finished.append(True))
    try:
        assert thread in worker.running_threads()
    finally:
        job.go = True
        thread.wait(5000)
        qtbot.waitUntil(lambda: bool(finished), timeout=5000)
        worker.forget(thread)
    assert thread not in worker.running_threads()


def _run(args, tmp_path, timeout=180):
    return subprocess.run(
        [sys.executable, *args],
        cwd=tmp_path,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_python_m_bpe_gui_starts_and_exits(tmp_path):
    r = _run(["-m", "bpe_gui", "--quit-after", "0.2"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr and "QThread" not in r.stderr


def test_app_exits_cleanly_when_closed_during_a_run(tmp_path):
    script = textwrap.dedent("""
        import sys
        from PySide6.QtWidgets import QApplication
        from bpe_gui import create_window
        app = QApplication([])
        w = create_window()
        c = w.controller
        c.corpus_loaded.connect(lambda _s: c.train(60_000))
        closed = []
        def close_once(done, total):
            if not closed:
                closed.append(done)
                w.close()
        c.progress.connect(close_once)
        w.show()
        rc = app.exec()
        print("exit", rc, "merges", c.index.n_merges, "busy", repr(str(c.busy)))  # Busy.IDLE is ""
    """)
    r = _run(["-c", script], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "QThread: Destroyed while thread is still running" not in r.stderr
    assert "exit 0" in r.stdout and "busy ''" in r.stdout


def test_screenshot_command(tmp_path):
    out = tmp_path / "shot.png"
    r = _run(["-m", "bpe_gui.screenshot", str(out), "--steps", "40", "--text", "hello there"], tmp_path)
    assert r.returncode == 0, r.stderr
    img = QImage(str(out))
    assert img.width() >= 1280 and img.height() >= 800


def test_screenshot_render_in_process(qtbot, tmp_path, small_corpus):
    from bpe_gui.screenshot import render

    out = render(tmp_path / "s.png", corpus=small_corpus, steps=5, text="the cat")
    img = QImage(str(out))
    assert (img.width(), img.height()) == (1400, 900)


def test_screenshot_bad_corpus_fails_cleanly(tmp_path):
    bad = tmp_path / "bin.txt"
    bad.write_bytes(b"\x00\x01" * 5000)
    r = _run(["-m", "bpe_gui.screenshot", str(tmp_path / "x.png"), "--corpus", str(bad)], tmp_path)
    assert r.returncode == 1
    assert "could not load" in r.stderr and "bin.txt" in r.stderr and "Traceback" not in r.stderr


def test_screenshot_png_is_written_atomically(qapp, tmp_path):
    import os

    from PySide6.QtGui import QColor, QPixmap

    from bpe_gui.screenshot import _save_png

    out = tmp_path / "old.png"
    out.write_bytes(b"old image")
    old_inode = out.stat().st_ino
    pix = QPixmap(8, 6)
    pix.fill(QColor("red"))
    _save_png(pix, out)
    img = QImage(str(out))
    assert (img.width(), img.height()) == (8, 6)
    assert out.stat().st_ino != old_inode  # replaced by a rename, not rewritten in place
    assert os.listdir(tmp_path) == ["old.png"]  # no temp file left


def test_screenshot_target_is_not_below_the_vocab_its_steps_reach(qtbot, tmp_path, small_corpus, monkeypatch):
    """A remembered target of 258 and 5 steps showed "vocab 262 / 258" in the picture."""
    from bpe_gui import app as app_module
    from bpe_gui.screenshot import render

    built = []
    real = app_module.build_window

    def keep(*a, **k):
        w = real(*a, **k)
        w.training_panel.vocab_size.setValue(258)  # (as a remembered setting would)
        built.append(w)
        return w

    monkeypatch.setattr(app_module, "build_window", keep)
    render(tmp_path / "s.png", corpus=small_corpus, steps=5, text="the cat")
    (w,) = built
    assert w.controller.vocab_size == 262
    assert w.training_panel.vocab_size.value() == 262
