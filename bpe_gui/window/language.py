"""View → Language: the choice is remembered and the app offers to restart in it at once.

The notice is written in both the language the app speaks now and the one chosen (the user can read
at least one of them); "Restart now" closes the window (its work is kept as the last session, which
the new start offers to reopen) and starts the app again with the same command line.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QProcess
from PySide6.QtWidgets import QMessageBox, QWidget

from bpe_gui.model.marks import QT_TRANSLATE_NOOP
from bpe_gui.text import i18n

CONTEXT = "Language"
NOTICE = QT_TRANSLATE_NOOP("Language", "The new language is used from the next start of BPE Explorer.")
RESTART = QT_TRANSLATE_NOOP("Language", "Restart now")
LATER = QT_TRANSLATE_NOOP("Language", "Later")


def _both(now: str, chosen: str, text: str, sep: str = "\n") -> str:
    """``text`` in the language the app speaks now and in the chosen one (once when they agree)."""
    a, b = i18n.translate_in(now, CONTEXT, text), i18n.translate_in(chosen, CONTEXT, text)
    return a if a == b else a + sep + b


def restart_command() -> tuple[str, list[str]]:
    """The program and arguments that started this app, without a ``--lang`` (the choice is saved)."""
    argv = list(getattr(sys, "orig_argv", None) or [sys.executable, *sys.argv])
    program, args = argv[0], argv[1:]
    out: list[str] = []
    skip = False
    for a in args:
        if skip:
            skip = False
        elif a == "--lang":
            skip = True
        elif not a.startswith("--lang="):
            out.append(a)
    return program, out


def offer_restart(window: QWidget, code: str) -> bool:
    """Tell (in both languages) that ``code`` is used from the next start; offer to restart now.
    True when the app is restarting."""
    now = i18n.current_language()
    box = QMessageBox(
        QMessageBox.Icon.Information,
        "BPE Explorer",
        _both(now, code, NOTICE),
        QMessageBox.StandardButton.NoButton,
        window,
    )
    restart = box.addButton(_both(now, code, RESTART, " · "), QMessageBox.ButtonRole.AcceptRole)
    box.addButton(_both(now, code, LATER, " · "), QMessageBox.ButtonRole.RejectRole)
    box.exec()
    if box.clickedButton() is not restart:
        return False
    if not window.close():  # a task is running: it stops first, and the user restarts by hand
        return False
    program, args = restart_command()
    return bool(QProcess.startDetached(program, args))
