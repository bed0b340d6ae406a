"""Fixtures for the GUI tests (pytest-qt, offscreen).

* ``QT_QPA_PLATFORM=offscreen`` is set before Qt is imported.
* Settings go to a temporary .ini file (never the user's): see tests/conftest.py.
* ``no_thread_left`` (autouse) fails a test that leaves a worker thread running, after stopping it
  so that later tests are not affected.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

import pytest

from bpe_gui.process import configure_process

from .gui_helpers import SMALL_TEXT, load

configure_process()  # what bpe_gui.app.main does: the Qt reference guard, GC and switch-interval settings

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "assets" / "sample_corpus.txt"


@pytest.fixture(scope="package", autouse=True)
def no_process_left():
    """End the idle engines closed windows leave for reuse once the GUI tests are over, and fail if
    any other child process still runs (tests/core checks that it leaves none, whatever ran before)."""
    from bpe_gui.jobs import worker
    from core.workers.procs import live_children

    yield
    worker.close_idle_engines()
    left = live_children()
    if left:
        for child in left:
            child.kill()
            child.join(5)
        pytest.fail(f"the GUI tests left {len(left)} child process(es) running: {[c.name for c in left]}")


@pytest.fixture
def own_engine_pool(monkeypatch):
    """A pool of idle engines of the test's own (a fresh engine with the settings the test sets),
    whose engines are ended after the test (closing its windows gives their engines to it)."""
    from bpe_gui.jobs import worker

    pool: list = []
    monkeypatch.setattr(worker, "_IDLE_ENGINES", pool)
    yield pool
    worker.close_idle_engines()


@pytest.fixture(autouse=True)
def no_thread_left(qapp):
    """Fail the test if a worker thread is still running when it ends."""
    from bpe_gui.jobs import worker

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


@pytest.fixture
def trained(qtbot, loaded):
    """The window with the small corpus trained to a vocab of 330 tokens."""
    c = loaded.controller
    with qtbot.waitSignal(c.trained, timeout=60_000):
        c.train(330)
    return loaded


@pytest.fixture
def chinese_window(qtbot):
    """A main window in Chinese, shown, without the sample corpus (English put back afterwards)."""
    from bpe_gui import create_window
    from bpe_gui.text import i18n

    w = create_window(load_sample=False, language="zh_CN")
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    yield w
    i18n.install("en")
