"""The controller's file actions: import a tokenizer, export the session, load one to compare.

Reading a tokenizer file and building its Tokenizer takes 1-3 s for a 200k-token vocab (o200k,
a Qwen tokenizer.json), so Import and Compare run in a worker thread (:class:`ImportJob`): the
window stays live and shows the busy bar, and :attr:`Controller.tokenizer_loaded` says when the
tokenizer is there (errors come as :attr:`Controller.error`, as before).
"""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication

from core import BPEError
from core.engine import Engine

from . import files, worker
from .errors_text import error_text
from .session_model import Busy, tokenizer_index
from .state import VocabIndex

# what Controller._call returns after an engine request failed (the error is already reported)
FAILED = object()


@dataclass(frozen=True)
class LoadedTokenizer:
    """A tokenizer read from files by :class:`ImportJob`; ``purpose``: "import" or "compare"."""

    tokenizer: object  # core.tokenizer.Tokenizer
    records: list
    name: str
    note: str
    purpose: str
    index: VocabIndex | None = None  # what the views show (built in the worker for an import)


class ImportJob(worker.Job):
    """Load a tokenizer file (any supported format) and build its Tokenizer in the job's thread.

    The core loaders cannot stop half way: Cancel drops the result when the load is over.
    """

    kind = Busy.IMPORT.value

    def __init__(self, path, options: dict, purpose: str) -> None:
        super().__init__()
        self.path, self.options, self.purpose = path, dict(options), purpose

    def work(self) -> None:
        tokenizer, records, name, note = files.load_tokenizer(self.path, **self.options)
        # the views' index of a 150k-token vocab takes ~1 s to build: here, not on the GUI thread
        index = tokenizer_index(tokenizer, records) if self.purpose == "import" else None
        self.result.value = LoadedTokenizer(tokenizer, list(records), name, note, self.purpose, index)


def _shown_name(path) -> str:
    from pathlib import Path

    first = path[0] if isinstance(path, (list, tuple)) else path
    return Path(first).name


class FileActions:
    """Mixed into :class:`bpe_gui.controller.Controller` (uses its signals and state)."""

    def import_tokenizer(self, path, **options) -> bool:
        """Explore a tokenizer trained elsewhere (any supported format); no corpus, so no training.

        ``path`` may be [vocab, merges]; ``options`` (pattern, special_tokens) go to the loader.
        The file is read in a worker: True when that started; :attr:`tokenizer_loaded` comes when
        the tokenizer is shown (or :attr:`error` when the file could not be read)."""
        if self._job is not None:
            self.error.emit(QCoreApplication.translate("FileActions", "Wait for the current task to finish (or cancel it) before importing."))
            return False
        self._start(ImportJob(path, options, "import"),
                    QCoreApplication.translate("FileActions", "Reading the tokenizer %1 …").replace("%1", _shown_name(path)))
        return True

    def load_comparison(self, path, **options) -> bool:
        """Read a second tokenizer to compare with, in a worker: True when that started;
        :attr:`tokenizer_loaded` brings it (purpose "compare"), or :attr:`error` comes."""
        if self._job is not None:
            self.error.emit(QCoreApplication.translate("FileActions", "Wait for the current task to finish (or cancel it) before loading a tokenizer to compare with."))
            return False
        self._start(ImportJob(path, options, "compare"),
                    QCoreApplication.translate("FileActions", "Reading the tokenizer %1 …").replace("%1", _shown_name(path)))
        return True

    def _finish_import(self, job: ImportJob, res: worker.JobResult) -> None:
        """An import or comparison load is over (the controller's thread-finished slot calls this)."""
        name = _shown_name(job.path)
        if job.cancel_requested:
            self.message.emit(QCoreApplication.translate("FileActions", "Reading %1 cancelled; nothing changed.").replace("%1", name))
            return
        if res.error is not None or not isinstance(res.value, LoadedTokenizer):
            if res.error is not None:
                self.message.emit(QCoreApplication.translate("FileActions", "Could not read %1; nothing changed.").replace("%1", name))
                self.error.emit(res.error_message)
            return
        loaded = res.value
        note = QCoreApplication.translate("Files", loaded.note) if loaded.note else ""
        if loaded.purpose == "compare":
            self.message.emit(QCoreApplication.translate("FileActions", "Comparing with %1.").replace("%1", loaded.name)
                              + (" " + note if note else ""))
            self.tokenizer_loaded.emit(loaded)
            return
        self._show_tokenizer(loaded.tokenizer, loaded.records, loaded.name, loaded.index)
        timeline = (QCoreApplication.translate("FileActions", "with its merge timeline") if self.index.has_counts
                    else QCoreApplication.translate("FileActions", "no merge counts in this format"))
        self.message.emit(QCoreApplication.translate("FileActions", "Imported {0}: {1} tokens, {2} merges ({3}).").format(
            loaded.name, f"{len(loaded.tokenizer.vocab):,}", f"{len(loaded.records):,}", timeline)
            + (" " + note if note else ""))
        self.tokenizer_loaded.emit(loaded)

    def _show_tokenizer(self, tokenizer, records, name: str, index: VocabIndex | None = None) -> None:
        """Make a tokenizer without a corpus (imported, or a saved session's) the one on show."""
        if self.model.has_trainer:  # free the engine's trainer: this tokenizer replaces it
            self._call_blocking(Engine.drop)
        self.model.show_tokenizer(tokenizer, records, name, index)
        self.merges_reset.emit()  # the pair table refreshes on this too
        self.tokenizer_changed.emit()

    def export_losses(self, formats: list[str]) -> dict[str, list[str]]:
        """What each of ``formats`` cannot hold of the imported tokenizer (its HF pipeline): ask first."""
        return {} if self.model.has_trainer else files.export_losses(self.model.imported, formats)

    def export(self, folder, formats: list[str], lossy: bool = False) -> list | None:
        """Write the current tokenizer in ``formats`` into ``folder``; returns the files written.
        ``lossy``: the user agreed to lose what :meth:`export_losses` names."""
        if self._job is not None:
            self.error.emit(QCoreApplication.translate("FileActions", "Wait for the current task to finish (or cancel it) before exporting."))
            return None
        source = self._call_blocking(Engine.spec) if self.model.has_trainer else self.model.imported
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
