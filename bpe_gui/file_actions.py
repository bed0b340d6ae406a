"""The controller's file actions: import a tokenizer, export the session, load one to compare."""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from core import BPEError
from core.engine import Engine

from . import files
from .errors_text import error_text
from .state import VocabIndex

# what Controller._call returns after an engine request failed (the error is already reported)
FAILED = object()


class FileActions:
    """Mixed into :class:`bpe_gui.controller.Controller` (uses its signals and state)."""

    def import_tokenizer(self, path, **options) -> bool:
        """Explore a tokenizer trained elsewhere (any supported format); no corpus, so no training.

        ``path`` may be [vocab, merges]; ``options`` (pattern, special_tokens) go to the loader."""
        if self._job is not None:
            self.error.emit(QCoreApplication.translate("FileActions", "Wait for the current task to finish (or cancel it) before importing."))
            return False
        try:
            tokenizer, records, name, note = files.load_tokenizer(path, **options)
        except BPEError as e:
            self.error.emit(error_text(e))
            return False
        self._show_tokenizer(tokenizer, records, name)
        timeline = (QCoreApplication.translate("FileActions", "with its merge timeline") if self.index.has_counts
                    else QCoreApplication.translate("FileActions", "no merge counts in this format"))
        note = QCoreApplication.translate("Files", note) if note else ""
        self.message.emit(QCoreApplication.translate("FileActions", "Imported {0}: {1} tokens, {2} merges ({3}).").format(
            name, f"{len(tokenizer.vocab):,}", f"{len(records):,}", timeline) + (" " + note if note else ""))
        return True

    def _show_tokenizer(self, tokenizer, records, name: str) -> None:
        """Make a tokenizer without a corpus (imported, or a saved session's) the one on show."""
        if self._loaded:  # free the engine's trainer: this tokenizer replaces it
            self._call(Engine.drop)
            self._loaded = False
        self._imported = tokenizer
        self.records = list(records)
        self.stats = None
        self.corpus_path = None
        self.source_name = name
        self.index = VocabIndex(dict(tokenizer.vocab), list(tokenizer.merges), [r.count for r in records],
                                list(tokenizer.special_tokens))
        self._changed()
        self.merges_reset.emit()  # the pair table refreshes on this too
        self.tokenizer_changed.emit()

    def export_losses(self, formats: list[str]) -> dict[str, list[str]]:
        """What each of ``formats`` cannot hold of the imported tokenizer (its HF pipeline): ask first."""
        return {} if self._loaded else files.export_losses(self._imported, formats)

    def export(self, folder, formats: list[str], lossy: bool = False) -> list | None:
        """Write the current tokenizer in ``formats`` into ``folder``; returns the files written.
        ``lossy``: the user agreed to lose what :meth:`export_losses` names."""
        if self._job is not None:
            self.error.emit(QCoreApplication.translate("FileActions", "Wait for the current task to finish (or cancel it) before exporting."))
            return None
        source = self._call(Engine.spec) if self._loaded else self._imported
        if source is FAILED:
            return None
        if source is None:
            self.error.emit(QCoreApplication.translate("FileActions", "Nothing to export yet: open a corpus or import a tokenizer first."))
            return None
        try:
            paths = files.export_tokenizer(source, folder, formats, lossy=lossy)
        except BPEError as e:
            self.error.emit(error_text(e))
            return None
        self.message.emit(QCoreApplication.translate("FileActions", "Exported {0} file(s) to {1}: ").format(len(paths), folder)
                          + ", ".join(p.name for p in paths))
        return paths

    def load_comparison(self, path, **options):
        """(Tokenizer, name) of a second tokenizer to compare with; None after an error."""
        try:
            tokenizer, _records, name, note = files.load_tokenizer(path, **options)
        except BPEError as e:
            self.error.emit(error_text(e))
            return None
        if note:
            self.message.emit(f"Comparing with {name}. {note}")
        return tokenizer, name
