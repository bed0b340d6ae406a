"""The engine process dies while the app is idle: the next Open corpus works (issue 25), no dialog."""

from __future__ import annotations

import os
import signal

import pytest
from PySide6.QtWidgets import QMessageBox

from .gui_helpers import check_consistent, load

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_open_corpus_after_the_engine_died_while_idle(qtbot, loaded, small_corpus, sig):
    c = loaded.controller
    c.step(2)
    proc = c.engine._proc
    os.kill(proc.pid, sig)
    proc.join(10)
    errors: list[str] = []
    c.error.connect(errors.append)
    load(qtbot, loaded, small_corpus)  # it said "the loaded corpus is gone, open it again"
    assert errors == [] and not [b for b in loaded.findChildren(QMessageBox) if b.isVisible()]
    c.step(2)
    check_consistent(c)
