"""BPE Explorer desktop app (PySide6 + pyqtgraph).

Qt is imported only when a window is created, so ``import bpe_gui`` stays cheap::

    from bpe_gui import create_window   # the caller owns the QApplication
    w = create_window()
    w.controller.load_corpus(path)
"""

from __future__ import annotations

__all__ = ["create_window"]


def create_window(corpus=None, *, load_sample: bool = True, language: str | None = None):
    """Build the main window (not shown). Needs an existing QApplication.

    With ``corpus`` that file is loaded; otherwise the bundled sample corpus is loaded once the
    event loop runs, unless ``load_corpus`` was called first or ``load_sample`` is False.
    Like the app's own entry point, it makes the app's process-wide settings
    (:func:`bpe_gui.process.configure_process`: among them the guard that PySide6 6.12.0 on
    Python < 3.12 needs), so a script that drives the window behaves as the app does; importing
    bpe_gui changes nothing.
    """
    from bpe_gui.app import build_window
    from bpe_gui.process import configure_process

    configure_process()

    return build_window(corpus, load_sample=load_sample, language=language)
