"""Fixtures for the GUI tests (pytest-qt, offscreen).

* ``QT_QPA_PLATFORM=offscreen`` is set before Qt is imported.
* Settings go to a temporary .ini file (never the user's).
* ``no_thread_left`` (autouse) fails a test that leaves a worker thread running, after stopping it
  so that later tests are not affected.
"""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

import pytest
from gui_helpers import load

from bpe_gui.process import configure_process

configure_process()  # what bpe_gui.app.main does: the Qt reference guard, GC and switch-interval settings

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "assets" / "sample_corpus.txt"
SMALL_TEXT = (
    "the cat sat on the mat. the dog sat on the log. then the cat and the dog ran to the barn.\n"
    "A tokenizer learns merges: th + e -> the, and so on.<|endoftext|>"
    "Once there was a lighthouse keeper who kept the lamp burning every night.\n"
) * 20


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("BPE_EXPLORER_SETTINGS", str(tmp_path / "settings.ini"))


@pytest.fixture(autouse=True)
def no_thread_left(qapp):
    """Fail the test if a worker thread is still running when it ends."""
    from bpe_gui import worker

    yield
    qapp.processEvents()
    left = [t.objectName() for t in worker.running_threads()]
    if left:
        worker.stop_all()
        qapp.processEvents()
        pytest.fail(f"test left worker thread(s) running: {left}")


@pytest.fixture
def small_corpus(tmp_path) -> Path:
    p = tmp_path / "small.txt"
    p.write_text(SMALL_TEXT, encoding="utf-8")
    return p


@pytest.fixture
def sample_corpus() -> Path:
    if SAMPLE.exists():
        return SAMPLE
    pytest.skip("assets/sample_corpus.txt is missing")


@pytest.fixture
def window(qtbot):
    """The main window, shown, without the sample corpus."""
    from bpe_gui import create_window

    w = create_window(load_sample=False)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    yield w
    if w.controller.busy:  # tests should finish their tasks; this makes a failure readable
        w.controller.cancel()


@pytest.fixture
def loaded(qtbot, window, small_corpus):
    """The window with the small corpus loaded."""
    load(qtbot, window, small_corpus)
    return window
