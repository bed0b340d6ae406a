"""What the main window's parts share: the widgets and state that :class:`MainWindow` makes, declared.

The main window is built in three layers, each a class of its own job: :class:`SessionWindow` keeps the
user's work (sessions, asking before discarding merges, folders), :class:`FilesWindow` opens and exports
files on top of it, and :class:`MainWindow` lays out the views and menus. What one layer uses of another
is declared here, so that a reader (and mypy) sees it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QMainWindow, QMenu, QSplitter

if TYPE_CHECKING:
    from bpe_gui.actions.controller import Controller
    from bpe_gui.settings import Settings
    from bpe_gui.views.details_view import DetailsView
    from bpe_gui.views.tokenize_view import TokenizeView
    from bpe_gui.views.training_panel import TrainingPanel


class WindowBase(QMainWindow):
    """The main window's shared widgets and state (made in :meth:`MainWindow.__init__`)."""

    settings: Settings
    controller: Controller
    training_panel: TrainingPanel
    tokenize: TokenizeView
    details: DetailsView
    recent_menu: QMenu
    splitters: dict[str, QSplitter]
    #: the name of the tokenizer last loaded by File → Compare with tokenizer… (for Vocabulary overlap)
    compared_name: str = ""
    #: the tokenizer compared with, as saved in a session: {"path": ..., "options": {...}} or None
    comparison_source: dict | None = None
    #: a session's comparison, read once the session's own task is over
    pending_comparison: dict | None = None
    #: a reopened session's selected merge, selected once its merges are replayed
    pending_selection: int | None = None

    def compare_with(self, path, options: dict | None = None) -> bool:
        """Read a tokenizer to compare with (in a worker)."""
        raise NotImplementedError

    def show_message(self, message: str) -> None:
        """Show a status message (and keep it in View → Messages)."""
        raise NotImplementedError

    def export_dialog(self) -> bool:
        """Ask for formats and a folder, then export; True when something was written."""
        raise NotImplementedError
