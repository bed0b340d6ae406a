"""The main window's file side: open a corpus, recent files, import, compare, export, drag & drop.

The second layer of :class:`bpe_gui.window.main_window.MainWindow`, on :class:`~bpe_gui.window.sessions.SessionWindow`.
Importing and comparing read the tokenizer file in the controller's worker; the tokenize view
gets a comparison when :attr:`Controller.tokenizer_loaded` brings it.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QMessageBox

from bpe_gui import resources, settings
from bpe_gui.dialogs.export_dialog import ExportDialog, confirm_lossy_export, confirm_replace
from bpe_gui.model.files import OPEN_FILTER, files_not_ours, is_tokenizer_file
from bpe_gui.model.formatting import token_label
from bpe_gui.window.sessions import SessionWindow
from core.formats.session import SESSION_SUFFIX

MAX_RECENT = 8


class FilesWindow(SessionWindow):
    """Corpus, tokenizer and export files of the main window (the main window's second layer)."""

    # ------------------------------------------------------------------ dialogs
    def _corpus_loaded(self, _stats) -> None:
        path = self.controller.corpus_path
        if path:
            self.add_recent(path)

    def open_corpus_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            self.tr("Open corpus"),
            self.start_folder(settings.CORPUS_FOLDER),
            self.tr("Text files (*.txt);;Counts files (*.parquet);;All files (*)"),
        )
        if not path:
            return
        self.remember_folder(settings.CORPUS_FOLDER, path)
        if path.endswith(SESSION_SUFFIX):  # a saved session: reopened (no one trains on one)
            self.open_session(path)
            return
        if is_tokenizer_file(path):
            # (an exported tokenizer.json or vocab.json picked here was read as a text to train on, in
            # place of the merges on show)
            choice = self._ask_tokenizer_or_corpus(Path(path).name)
            if choice is None:
                return
            if choice == "tokenizer":
                self.open_path(path, ask=True)
                return
        self.load_corpus_confirmed(path)

    def _ask_tokenizer_or_corpus(self, name: str) -> str | None:
        """For a file picked as a corpus that looks like a tokenizer: "tokenizer" (import it), "corpus"
        (read its text all the same) or None (cancelled)."""
        box = QMessageBox(
            QMessageBox.Icon.Question,
            self.tr("Open a tokenizer?"),
            self.tr("%1 looks like a tokenizer file, not a text to train on.").replace("%1", name),
            QMessageBox.StandardButton.NoButton,
            self,
        )
        box.setInformativeText(
            self.tr(
                "Import it to see its merges and tokenize with it (File → Import tokenizer), or read its "
                "text as a corpus to train on."
            )
        )
        tokenizer = box.addButton(self.tr("Import tokenizer"), QMessageBox.ButtonRole.AcceptRole)
        corpus = box.addButton(self.tr("Open as corpus"), QMessageBox.ButtonRole.ActionRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(tokenizer)
        box.exec()
        clicked = box.clickedButton()
        return "tokenizer" if clicked is tokenizer else "corpus" if clicked is corpus else None

    def import_dialog(self) -> None:
        picked = self._pick_tokenizer(
            self.tr("Import tokenizer (a GPT-2 vocab and merges file may be picked together)"),
            settings.EXPORT_FOLDER,
            settings.IMPORT_FOLDER,
        )
        if picked is not None:
            self.import_confirmed(*picked)

    def compare_dialog(self) -> None:
        picked = self._pick_tokenizer(
            self.tr("Compare with tokenizer"), settings.IMPORT_FOLDER, settings.EXPORT_FOLDER
        )
        if picked is not None:
            self.compare_with(*picked)

    def _pick_tokenizer(self, title: str, *folders: settings.Key[str]):
        """(path or [vocab, merges], options) from the file dialog, or None; asks what an unknown tiktoken
        file does not store."""
        paths, _ = QFileDialog.getOpenFileNames(
            self, title, self.start_folder(*folders), QCoreApplication.translate("Files", OPEN_FILTER)
        )
        if not paths:
            return None
        self.remember_folder(settings.IMPORT_FOLDER, paths[0])
        options = self._ask_tiktoken_options(paths[0]) if len(paths) == 1 else {}
        if options is None:
            return None
        return (paths[0] if len(paths) == 1 else paths), options

    def _ask_tiktoken_options(self, path: str) -> dict | None:
        """The pattern and special tokens of an unknown tiktoken file, asked ({} for any other file);
        None when the user cancels."""
        from bpe_gui.dialogs.import_ask import TiktokenOptionsDialog, is_unknown_tiktoken

        if not is_unknown_tiktoken(path):
            return {}
        dlg = TiktokenOptionsDialog(Path(path).name, self)
        return dlg.options if dlg.exec() else None

    def compare_with(self, path, options: dict | None = None) -> bool:
        """Read a tokenizer to compare with (in a worker; the tokenize view shows it when it is read)."""
        started = self.controller.load_comparison(path, **(options or {}))
        if started:  # kept with a saved session once it is read
            full = (
                [str(Path(p).resolve()) for p in path]
                if isinstance(path, list)
                else str(Path(path).resolve())
            )
            self._comparison_request = {"path": full, "options": dict(options or {})}
        return started

    def _tokenizer_loaded(self, loaded) -> None:
        if loaded.purpose == "compare":
            self.compared_name = loaded.name  # (for File → Vocabulary overlap…)
            self.tokenize.set_comparison(loaded.tokenizer, loaded.name)
            self.comparison_source = getattr(self, "_comparison_request", None)

    def export_dialog(self) -> bool:
        folder = self.settings.get(settings.EXPORT_FOLDER) or str(Path.home() / "bpe-export")
        dlg = ExportDialog(str(folder), self, self._unavailable_formats())
        if dlg.exec():
            folder = str(dlg.chosen_folder())
            self.settings.set(settings.EXPORT_FOLDER, folder)  # (kept also when the export fails)
            lost = self.controller.export_losses(dlg.formats())
            if lost and not confirm_lossy_export(self, lost):
                return False
            others = files_not_ours(folder, dlg.formats())
            if others and not confirm_replace(self, folder, others):
                return False
            written = self.controller.export(
                folder, dlg.formats(), lossy=bool(lost), replace_others=bool(others)
            )
            return written is not None
        return False

    def _unavailable_formats(self) -> dict[str, str]:
        """The formats that cannot hold the tokenizer on show at all, with the reason (they were
        offered, "Export anyway" was asked, and then they were not written)."""
        c = self.controller
        imported = None if c.has_trainer else c.model.imported
        if imported is None:
            return {}
        if getattr(imported, "char_model", None) is not None:
            why = self.tr(
                "Not for this tokenizer: a SentencePiece-style model's pieces and scores do not fit these "
                "byte-level BPE files (its byte pieces repeat other tokens' bytes)."
            )
            return {"gpt2": why, "tiktoken": why}
        from core.formats.gpt2 import same_token_ids
        from core.formats.spec import as_spec

        clash = same_token_ids(as_spec(imported).vocab)
        if clash is None:
            return {}
        first, second, token = clash
        return {
            "gpt2": self.tr(
                "Not for this tokenizer: vocab.json holds each token once, and ids {0} and {1} are the "
                "same token {2} (the other formats keep both)."
            ).format(first, second, token_label(token))
        }

    def recent_files(self) -> list[str]:
        return self.settings.get(settings.RECENT)

    def add_recent(self, path: str) -> None:
        path = str(Path(path).resolve())
        sample = resources.sample_corpus()
        if sample is not None and Path(path) == sample.resolve():
            return
        items = [path] + [p for p in self.recent_files() if p != path]
        self.settings.set(settings.RECENT, items[:MAX_RECENT])
        self._fill_recent()

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        items = self.recent_files()
        sample = resources.sample_corpus()
        if sample is not None:
            a = self.recent_menu.addAction(self.tr("Sample corpus (bundled)"))
            a.triggered.connect(lambda: self.load_corpus_confirmed(str(sample)))
            if items:
                self.recent_menu.addSeparator()
        for p in items:
            a = self.recent_menu.addAction(p)
            a.triggered.connect(lambda _checked=False, p=p: self.load_corpus_confirmed(p))
        if not items and sample is None:
            self.recent_menu.addAction(self.tr("(none)")).setEnabled(False)

    # ------------------------------------------------------------------ drag & drop
    def dragEnterEvent(self, event) -> None:
        if any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if not paths:
            return
        event.acceptProposedAction()
        self.open_path(paths[0], ask=True)

    def open_path(self, path: str, ask: bool = False) -> None:
        """Open a dropped path: a session (``*.bpe.json``) is reopened, a tokenizer file is imported,
        anything else is read as a corpus. ``ask`` (a drop): an unknown tiktoken file asks for its
        pattern and special tokens first, as File → Import does (a path given on the command line is
        opened before the window shows: GPT-2's pattern is assumed, and the status line says so)."""
        if str(path).endswith(SESSION_SUFFIX):
            self.open_session(path)
        elif is_tokenizer_file(path):
            options = self._ask_tiktoken_options(path) if ask else {}
            if options is not None:
                self.import_confirmed(path, options)
        else:
            self.load_corpus_confirmed(path)
