"""The main window's work-keeping side: ask before discarding merges, sessions, rewind, folders.

The first layer of :class:`bpe_gui.window.main_window.MainWindow`, on :class:`~bpe_gui.window.base.WindowBase` (its controller, settings, panels and menus, declared there).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QCheckBox, QFileDialog, QMessageBox

from bpe_gui import settings
from bpe_gui.text.errors import error_text
from bpe_gui.text.plural import plural
from bpe_gui.window.base import WindowBase
from core.errors import BPEError

SESSION_FILTER = "BPE Explorer sessions (*.bpe.json *.json);;All files (*)"


class SessionWindow(WindowBase):
    """Dialogs and actions that keep the user's work (the main window's first layer)."""

    # ------------------------------------------------------------------ folders
    def start_folder(self, *keys: settings.Key[str]) -> str:
        """The folder a file dialog starts in: the first remembered folder of ``keys`` that
        exists, else the user's home (never the app's own install folder)."""
        for key in keys:
            value = self.settings.get(key)
            if value and Path(value).is_dir():
                return value
        return str(Path.home())

    def remember_folder(self, key: settings.Key[str], path: str) -> None:
        p = Path(path)
        self.settings.set(key, str(p if p.is_dir() else p.parent))

    # ------------------------------------------------------------------ never lose work
    def confirm_discard(self, what: str) -> bool:
        """Ask before ``what`` throws away trained merges; True to go on.

        The user can export or save the session first, or turn the question off ("don't ask
        again", kept in the settings).
        """
        c = self.controller
        # (an extension's base merges are not thrown away; merges just saved or exported are kept)
        n = c.model.unkept_merges
        if not n or not c.has_trainer or not self.settings.get(settings.ASK_DISCARD):
            return True
        # (QCoreApplication.translate with an explicit context: the text is found whatever class calls it)
        text = plural(
            QCoreApplication.translate(
                "SessionWindow", "%1 throws away the %n merge(s) trained so far.", "", n
            ),
            n,
        ).replace("%1", what)
        box = QMessageBox(
            QMessageBox.Icon.Question,
            self.tr("Discard the trained merges?"),
            text,
            QMessageBox.StandardButton.NoButton,
            self,
        )
        box.setInformativeText(self.tr("Save the session or export the tokenizer first to keep them."))
        save = box.addButton(self.tr("Save session first…"), QMessageBox.ButtonRole.ActionRole)
        export = box.addButton(self.tr("Export first…"), QMessageBox.ButtonRole.ActionRole)
        discard = box.addButton(self.tr("Discard merges"), QMessageBox.ButtonRole.DestructiveRole)
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(cancel)
        check = QCheckBox(self.tr("Don't ask again"))
        box.setCheckBox(check)
        box.exec()
        clicked = box.clickedButton()
        if clicked is cancel or clicked is None:
            return False
        if check.isChecked():
            self.settings.set(settings.ASK_DISCARD, False)
        if clicked is discard:
            return True
        if clicked is save:
            return self.save_session_dialog() is not None
        if clicked is export:
            return bool(self.export_dialog())
        return False

    def _refused_first(self, check, path) -> bool:
        """Run ``check(path)`` (a quick look at the file's start); True after showing its error: a file
        that cannot be opened is refused before the user is asked to throw merges away for it."""
        try:
            check(path)
        except BPEError as e:
            self.controller.error.emit(error_text(e))
            return True
        return False

    def load_corpus_confirmed(self, path: str) -> bool:
        from core.pretokenization.pretokenize import check_corpus

        if self._refused_first(check_corpus, path):
            return False
        if not self.confirm_discard(self.tr("Opening %1").replace("%1", Path(path).name)):
            return False
        self.controller.load_corpus(path)
        return True

    def continue_training_dialog(self) -> bool:
        """File → Continue training from this tokenizer…: pick a corpus to learn new merges on."""
        path, _ = QFileDialog.getOpenFileName(
            self,
            self.tr("Corpus to continue training on"),
            self.start_folder(settings.CORPUS_FOLDER),
            self.tr("Text files (*.txt);;All files (*)"),
        )
        if not path:
            return False
        self.remember_folder(settings.CORPUS_FOLDER, path)
        return self.continue_training_confirmed(path)

    def continue_training_confirmed(self, path: str) -> bool:
        """Extend the tokenizer on show on the corpus ``path`` (asks first when new merges would go)."""
        from core.pretokenization.pretokenize import check_corpus

        if self._refused_first(check_corpus, path):
            return False
        if not self.confirm_discard(self.tr("Continuing on %1").replace("%1", Path(path).name)):
            return False
        return self.controller.continue_training(path)

    def import_confirmed(self, path, options: dict | None = None) -> bool:
        """``path``: a file or folder, or [vocab, merges]; ``options``: pattern / special_tokens for load_any."""
        from core.formats import detect_format

        first = path[0] if isinstance(path, (list, tuple)) else path
        if self._refused_first(detect_format, first):
            return False
        if not self.confirm_discard(self.tr("Importing %1").replace("%1", Path(first).name)):
            return False
        return self.controller.import_tokenizer(path, **(options or {}))

    # ------------------------------------------------------------------ sessions
    def save_session_dialog(self):
        start = self.controller.session_path or str(
            Path(self.start_folder(settings.SESSION_FOLDER)) / "session.bpe.json"
        )
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save session"), start, SESSION_FILTER)
        if not path:
            return None
        return self.save_session(path)

    def save_session(self, path: str, remember_folder: bool = True):
        tp = self.training_panel
        out = self.controller.save_session(
            path,
            tp.vocab_size.value(),
            tp.step_n.value(),
            self.tokenize.input.text(),
            compare=self.comparison_source,
            selected=self.controller.selected_merge,
        )
        if out is not None:
            if remember_folder:
                self.remember_folder(settings.SESSION_FOLDER, str(out))
            self.settings.set(settings.LAST_SESSION, str(out))
        return out

    def open_session_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Open session"), self.start_folder(settings.SESSION_FOLDER), SESSION_FILTER
        )
        if path:
            self.open_session(path)

    def open_session(self, path: str) -> bool:
        if not self.confirm_discard(self.tr("Opening the session %1").replace("%1", Path(path).name)):
            return False
        s = self.controller.open_session(path)
        if s is None:
            return False
        self.remember_folder(settings.SESSION_FOLDER, path)
        self.settings.set(settings.LAST_SESSION, str(path))
        return True

    def _session_opened(self, s) -> None:
        """Put the session's panel values and text back."""
        tp = self.training_panel
        if s.vocab_target:
            tp.vocab_size.setValue(int(s.vocab_target))
        if s.step_n:
            tp.step_n.setValue(int(s.step_n))
        if s.text is not None:
            self.tokenize.set_text(s.text)
        self.restore_comparison(s.extra.get("compare"))
        rank = s.extra.get("selected")
        self.pending_selection = None
        if isinstance(rank, int) and not isinstance(rank, bool) and rank >= 0:
            # the merge selected when it was saved: selected again once the merges are back (replayed)
            self.pending_selection = rank
            self.restore_selection()

    def restore_selection(self) -> None:
        """Select a reopened session's merge once it is there (a replay brings the merges back later)."""
        rank = self.pending_selection
        c = self.controller
        if rank is None or c.busy or rank >= c.index.n_merges:
            return
        self.pending_selection = None
        c.select_merge(rank)

    def restore_comparison(self, saved) -> None:
        """Compare with the session's second tokenizer again (when its files are still there)."""
        if not isinstance(saved, dict):
            return
        path, options = saved.get("path"), saved.get("options") or {}
        paths = path if isinstance(path, list) else [path]
        if not paths or not all(isinstance(p, str) and Path(p).exists() for p in paths):
            return  # (moved or deleted since: the session opens without it)
        if not isinstance(options, dict):
            options = {}
        if self.controller.busy:  # the session is being replayed: read it once that is over
            self.pending_comparison = {"path": path, "options": options}
        else:
            # what the session said (its corpus gone, …) comes back once the comparison is read
            self._notice_after_comparison = getattr(self, "_bar_message", "")
            self.compare_with(path, options)

    def autosave_path(self) -> Path:
        """Where the session is kept when the window closes (beside a custom settings file)."""
        return settings.autosave_path()

    def autosave(self) -> None:
        """Keep trained merges when the window closes: saved as the last session, offered next time."""
        c = self.controller
        if c.busy or not c.has_trainer or not c.model.trained_merges:
            return
        path = self.autosave_path()
        if self._cut_short_of(path):
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            return
        self.save_session(str(path), remember_folder=False)

    def _cut_short_of(self, path: Path) -> bool:
        """Whether the merges on show are the first of the session at ``path`` after its replay was
        stopped: saved there, they would replace it. (Reopening the last session, then Cancel, Esc or
        closing the window during its replay left 103 of its 8,817 merges in the file.) Reopened, the
        file gives them back, and the rest."""
        c = self.controller
        if c.cut_session is None:
            return False
        try:
            if Path(c.cut_session).resolve() != path.resolve():
                return False
            from core.formats.session import load_session

            saved = list(load_session(path).spec.merges)
        except (OSError, BPEError):
            return False
        shown = [m.pair for m in c.index.merges]
        return len(shown) < len(saved) and saved[: len(shown)] == shown

    def offer_last_session(self) -> bool:
        """At start: offer to reopen the last session; True when it is being reopened."""
        last = self.settings.get(settings.LAST_SESSION)
        if not last or not Path(last).is_file() or not self.settings.get(settings.ASK_REOPEN):
            return False
        box = QMessageBox(
            QMessageBox.Icon.Question,
            self.tr("Reopen the last session?"),
            self.tr("Reopen your last session (%1)?").replace("%1", str(last)),
            QMessageBox.StandardButton.NoButton,
            self,
        )
        box.setInformativeText(self.session_description(last))
        reopen = box.addButton(self.tr("Reopen"), QMessageBox.ButtonRole.AcceptRole)
        box.addButton(self.tr("Start with the sample"), QMessageBox.ButtonRole.RejectRole)
        check = QCheckBox(self.tr("Don't ask again"))
        box.setCheckBox(check)
        box.exec()
        if check.isChecked():
            self.settings.set(settings.ASK_REOPEN, False)
        return box.clickedButton() is reopen and self.controller.open_session(str(last)) is not None

    def session_description(self, path: str) -> str:
        """Corpus, merges, vocab target and date of the session at ``path``, in the user's language."""
        from PySide6.QtCore import QDateTime, QLocale

        from bpe_gui.model.session_preview import session_preview

        p = session_preview(path)
        if p is None:
            return ""
        when = QLocale().toString(QDateTime.fromSecsSinceEpoch(int(p.saved)), QLocale.FormatType.ShortFormat)
        lines = [self.tr("Corpus: %1").replace("%1", p.corpus or self.tr("none (an imported tokenizer)"))]
        if p.base_merges is not None:
            # an extension: reopened, it is its base trained on with the new merges (say which base)
            n = p.base_merges
            base = p.base_name or self.tr("an imported tokenizer")
            # (QCoreApplication.translate with an explicit context: a mixin's self.tr finds no numerus text)
            text = QCoreApplication.translate("SessionWindow", "Continued from %1 (%n merge(s))", "", n)
            lines.append(plural(text, n).replace("%1", base))
            merges = (
                self.tr("New merges: %1 · target vocab size: %2")
                if p.vocab_target
                else self.tr("New merges: %1")
            ).replace("%1", f"{max(0, p.merges - n):,}")
        else:
            merges = (
                self.tr("Merges: %1 · target vocab size: %2") if p.vocab_target else self.tr("Merges: %1")
            ).replace("%1", f"{p.merges:,}")
        lines.append(merges.replace("%2", f"{p.vocab_target:,}") if p.vocab_target else merges)
        lines.append(self.tr("Saved: %1").replace("%1", when))
        return "\n".join(lines)

    # ------------------------------------------------------------------ rewind
    def rewind_to_selected(self) -> None:
        """Train → Rewind to the selected merge (the merge then is the last one)."""
        rank = self.controller.selected_merge
        if rank is None:
            self.show_message(self.tr("Select a merge first (timeline or merges list), then rewind to it."))
            return
        self.controller.rewind_to(rank + 1)

    # ------------------------------------------------------------------ fitting the screen
    def fitting_size(self, width: int, height: int):
        """``width`` × ``height``, made smaller to fit the screen's free area (a 1366×768 laptop)."""
        from bpe_gui.views.screen_fit import fit_size

        return fit_size(self, width, height)

    def _restore_layout(self) -> bool:
        """Splitter sizes as the user left them; True when the left column's were (only a column
        the user sized is saved: one the window fitted is fitted again)."""
        restored = set()
        for name, sp in self.splitters.items():
            state = self.settings.splitter_state(settings.LEFT_BY_USER if name == "left" else name)
            if state is not None and sp.restoreState(state):
                restored.add(name)
        return "left" in restored
