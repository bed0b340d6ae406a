"""Process-wide settings are made by configure_process (the app's entry point), never on import."""

from __future__ import annotations

import gc
import os
import subprocess
import sys

import pytest

from bpe_gui import process


def test_importing_the_app_changes_nothing_process_wide():
    code = (
        "import gc, sys\n"
        "interval = sys.getswitchinterval()\n"
        "import bpe_gui.app, bpe_gui.jobs.worker, bpe_gui.window.main_window, bpe_gui.actions.controller, bpe_gui.screenshot\n"
        "from bpe_gui import process\n"
        "from PySide6.QtCore import QObject\n"
        "o = QObject()\n"
        "print(sys.getswitchinterval() == interval, gc.get_freeze_count(), process.configured(),\n"
        "      sys.getrefcount(None) < 2 ** 39)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert out.returncode == 0, out.stderr
    # same interval, nothing frozen, not configured, None not pinned (the guard is not installed)
    assert out.stdout.split() == ["True", "0", "False", "True"]


def test_jobs_change_the_switch_interval_and_freeze_only_in_a_configured_process(monkeypatch):
    before = sys.getswitchinterval()
    monkeypatch.setattr(process, "_configured", False)
    gc.unfreeze()
    process.job_started()
    assert sys.getswitchinterval() == before and gc.get_freeze_count() == 0
    process.job_finished(0)

    monkeypatch.setattr(process, "_configured", True)
    lowered = min(before, process.WORKER_SWITCH_INTERVAL)
    process.job_started()
    try:
        assert sys.getswitchinterval() == pytest.approx(lowered)
        assert gc.get_freeze_count() > 0  # what exists now is kept out of full collections
        process.job_started()  # a second job at the same time
        process.job_finished(1)
        assert sys.getswitchinterval() == pytest.approx(lowered)  # one job still runs
    finally:
        process.job_finished(0)
    assert sys.getswitchinterval() == pytest.approx(before)  # back with the last job


def test_configure_process_turns_the_settings_on(monkeypatch):
    monkeypatch.setattr(process, "_configured", False)
    assert not process.configured()
    process.configure_process()
    process.configure_process()  # idempotent
    assert process.configured()


def test_configure_process_silences_only_qt_font_database_warnings():
    """ "qt.text.font.db: OpenType support missing for …" flooded stderr (710 lines a session)."""
    from PySide6.QtCore import QLoggingCategory

    QLoggingCategory.setFilterRules("")
    process.configure_process()
    font_db = QLoggingCategory("qt.text.font.db")
    assert not font_db.isWarningEnabled() and not font_db.isInfoEnabled()
    assert font_db.isCriticalEnabled()
    for other in ("qt.text.layout", "qt.qpa.fonts", "bpe"):
        assert QLoggingCategory(other).isWarningEnabled(), other
