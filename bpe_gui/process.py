"""The process-wide settings of the app's process, made in one place.

:func:`configure_process` is called by the app's entry points (:func:`bpe_gui.app.main`, the
screenshot command, :func:`bpe_gui.create_window`, the automation entry point) and by the GUI
tests' conftest. Importing a module of bpe_gui
changes nothing process-wide. The engine process makes its own settings in
:func:`core.engine.server.child_main`.

What it turns on:

* Qt's font database warnings off (category ``qt.text.font.db``: "OpenType support missing for …",
  hundreds of lines on stderr in a session that say nothing a user can act on); its critical messages
  and every other category are kept, and ``QT_LOGGING_RULES`` can still turn them back on;
* the guard against PySide6 6.12.0's lost references to ``None``/``True`` on Python < 3.12
  (:mod:`bpe_gui.qtcompat`; a no-op elsewhere);
* while a job thread runs (:func:`job_started` / :func:`job_finished`, called by
  :mod:`bpe_gui.jobs.worker`): a short GIL switch interval, so that the GUI thread gets the interpreter
  back quickly, and freezing what exists out of the garbage collector's full passes (see
  tests/benchmarks/README.md, "Performance note").

Without :func:`configure_process`, jobs run with Python's defaults.
"""

from __future__ import annotations

import gc
import sys

# While a job thread runs (e.g. building a Tokenizer), the GUI thread gets the GIL back within
# this many seconds: with CPython's default (5 ms) every Python call the GUI thread makes can
# wait 5 ms behind a busy thread, and one repaint makes dozens of such calls.
WORKER_SWITCH_INTERVAL = 0.0002

_configured = False
_saved_switch_interval: float | None = None


def configure_process() -> None:
    """Make the app's process-wide settings (idempotent)."""
    global _configured
    from bpe_gui import qtcompat

    qtcompat.install()
    _quiet_font_database()
    _configured = True


#: the logging rules the app sets: only Qt's font database chatter, and not its critical messages
QUIET_RULES = "\n".join(f"qt.text.font.db.{level}=false" for level in ("debug", "info", "warning"))


def _quiet_font_database() -> None:
    from PySide6.QtCore import QLoggingCategory

    QLoggingCategory.setFilterRules(QUIET_RULES)


def configured() -> bool:
    """Whether :func:`configure_process` was called in this process."""
    return _configured


def _collect_and_freeze() -> None:
    # the young generations first, so that recent garbage with cycles is not frozen with the rest
    gc.collect(1)
    gc.freeze()


def job_started() -> None:
    """A job thread is about to start (see the module docstring; nothing without configure_process)."""
    global _saved_switch_interval
    if not _configured:
        return
    if _saved_switch_interval is None:
        _saved_switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(min(_saved_switch_interval, WORKER_SWITCH_INTERVAL))
    # What exists now (Qt wrappers, modules, the merge records so far) is long-lived: keep it out
    # of the collector's full passes, which otherwise walked all of it during runs (GUI stalls).
    _collect_and_freeze()


def job_finished(jobs_left: int) -> None:
    """A job thread is over; ``jobs_left`` still run. The switch interval is restored with the last."""
    global _saved_switch_interval
    if not _configured:
        return
    _collect_and_freeze()  # the records a run added are long-lived too
    if not jobs_left and _saved_switch_interval is not None:
        sys.setswitchinterval(_saved_switch_interval)
        _saved_switch_interval = None
