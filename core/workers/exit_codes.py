"""What a child process's exit code says: a signal by name, and the likely cause of that signal.

>>> exit_reason(-9), exit_reason(-15), exit_reason(1)
('killed by SIGKILL: out of memory, or killed by hand?', 'ended by SIGTERM: asked to stop (by hand, or by the system shutting down)', 'exit code 1')
"""

from __future__ import annotations

import signal

_CAUSES = {
    "SIGKILL": "killed by SIGKILL: out of memory, or killed by hand?",
    "SIGTERM": "ended by SIGTERM: asked to stop (by hand, or by the system shutting down)",
    "SIGINT": "ended by SIGINT (Ctrl+C)",
    "SIGHUP": "ended by SIGHUP: its terminal closed",
    "SIGSEGV": "crashed (SIGSEGV: a fault in native code)",
    "SIGBUS": "crashed (SIGBUS: a file it had mapped shrank, or a memory fault)",
    "SIGABRT": "aborted (SIGABRT)",
}


def exit_reason(code: int | None) -> str:
    """A short phrase for a process's exit code (negative: the signal that ended it)."""
    if code is None:
        return "exit code unknown"
    if code >= 0:
        return f"exit code {code}"
    try:
        name = signal.Signals(-code).name
    except ValueError:
        return f"ended by signal {-code}"
    return _CAUSES.get(name, f"ended by {name}")
