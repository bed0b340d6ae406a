"""The controller's file actions: import a tokenizer, export the session, load one to compare.

Reading a tokenizer file and building its Tokenizer takes 1-3 s for a 200k-token vocab (o200k,
a Qwen tokenizer.json), so Import and Compare run in a worker thread (:class:`ImportJob`): the
window stays live and shows the busy bar, and :attr:`Controller.tokenizer_loaded` says when the
tokenizer is there (errors come as :attr:`Controller.error`, as before).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, Signal

from bpe_gui.actions.base import FAILED, ControllerBase
from bpe_gui.jobs import worker
from bpe_gui.model import files
from bpe_gui.model.session import Busy, tokenizer_index
from bpe_gui.model.state import VocabIndex
from bpe_gui.text import core as core_text
from bpe_gui.text.errors import error_text
from core import BPEError, Cancelled
from core.bpe.recovery import iter_recovered_merges
from core.engine.client import Engine
from core.formats.spec import records_from_spec
from core.tokenization.tokenizer import Tokenizer

# what Controller._call returns after an engine request failed (the error is already reported)
RECOVER_BATCH = 10_000  # merges of a tiktoken import sent to the views at a time while recovered


@dataclass(frozen=True)
class LoadedTokenizer:
    """A tokenizer read from files by :class:`ImportJob`; ``purpose``: "import", "compare" or
    "session" (a saved session's tokenizer shown without its corpus)."""

    tokenizer: Tokenizer
    records: list
    name: str
    note: str
    purpose: str
    index: VocabIndex | None = None  # what the views show (built in the worker for an import)


class ImportJob(worker.Job):
    """Load a tokenizer file (any supported format) and build its Tokenizer in the job's thread.

    A file that stores ranks, not merges (tiktoken, tekken), is shown as soon as it is read
    (:attr:`shown`); its merge list is then recovered here and sent in batches (``records``: lists
    of pairs), as a training run sends its merges, with progress. The core loaders cannot stop half
    way: Cancel drops the result when the load is over, or stops the recovery between batches.
    """

    kind = Busy.IMPORT.value
    shown = Signal(object)  # a LoadedTokenizer whose merges are still being recovered

    def __init__(self, path, options: dict, purpose: str, spec=None) -> None:
        super().__init__()
        self.path, self.options, self.purpose = path, dict(options), purpose
        self.spec = spec  # "session": the saved tokenizer of the session file ``path``, already read
        self.session = None  # "session": the core.formats.session.Session, and the status line once shown
        self.done_text = ""
        self.was_shown = False  # set on the GUI thread when it showed the tokenizer

    def work(self) -> None:
        if self.spec is not None:  # a session's saved tokenizer: build it (and the views' index) here
            tokenizer = Tokenizer.from_spec(self.spec)
            records = records_from_spec(self.spec)
            index = tokenizer_index(tokenizer, records)
            self.result.value = LoadedTokenizer(
                tokenizer, records, _shown_name(self.path), "", self.purpose, index
            )
            return
        importing = self.purpose == "import"
        tokenizer, records, name, note = files.load_tokenizer(self.path, **self.options, merges_later=True)
        lazy = files.merges_to_recover(tokenizer) if records is None else None
        if lazy is not None and not importing:  # a comparison shows no merge list: no records, but its
            len(lazy)  # hover shows a token's merge, so the merges are rebuilt here, not on the GUI thread
            lazy, records = None, []
        if lazy is None:
            # the views' index of a large vocab is slow to build: here, not on the GUI thread; so is
            # the check the Export dialog makes (does tiktoken follow the merge list?)
            shown = tokenizer_index(tokenizer, records) if importing else None
            if importing:
                files.warm_export_checks(tokenizer)
            self.result.value = LoadedTokenizer(tokenizer, list(records), name, note, self.purpose, shown)
            return
        index = VocabIndex(tokenizer.vocab, (), None, tokenizer.special_tokens, tokenizer.added_not_special)
        self.shown.emit(LoadedTokenizer(tokenizer, [], name, note, self.purpose, index))
        self._recover(lazy)
        self.result.value = LoadedTokenizer(
            tokenizer, records_from_spec(tokenizer.to_spec()), name, note, self.purpose, index
        )

    def _recover(self, lazy) -> None:
        """Rebuild the merge list of ``lazy`` (a RankMerges), sending it in batches."""
        total = sum(len(t) > 1 for t in lazy.tokens)
        merges: list = []
        batch: list = []
        for _, pair in iter_recovered_merges(lazy.tokens):
            batch.append(pair)
            if len(batch) == RECOVER_BATCH:
                self._send(batch, merges, total)
                batch = []
        self._send(batch, merges, total)
        lazy.fill(merges)

    def _send(self, batch: list, merges: list, total: int) -> None:
        if self._cancel:
            raise Cancelled
        merges.extend(batch)
        self.records.emit(batch)
        self.progress.emit("merges", len(merges), max(total, len(merges)))


def _shown_name(path) -> str:
    from pathlib import Path

    first = path[0] if isinstance(path, (list, tuple)) else path
    return Path(first).name


class FileActions(ControllerBase):
    """The controller's file actions (on :class:`~bpe_gui.actions.base.ControllerBase`: its signals and state)."""

    def import_tokenizer(self, path, **options) -> bool:
        """Explore a tokenizer trained elsewhere (any supported format); no corpus, so no training.

        ``path`` may be [vocab, merges]; ``options`` (pattern, special_tokens) go to the loader.
        The file is read in a worker: True when that started; :attr:`tokenizer_loaded` comes when
        the tokenizer is shown (or :attr:`error` when the file could not be read)."""
        if self._job is not None:
            self.error.emit(
                QCoreApplication.translate(
                    "FileActions", "Wait for the current task to finish (or cancel it) before importing."
                )
            )
            return False
        job = ImportJob(path, options, "import")
        job.shown.connect(self._show_while_recovering)
        self._start(
            job,
            QCoreApplication.translate("FileActions", "Reading the tokenizer %1 …").replace(
                "%1", _shown_name(path)
            ),
        )
        return True

    def _show_while_recovering(self, loaded: LoadedTokenizer) -> None:
        """A tiktoken import is read: show it now; its merges follow in batches (:meth:`_add_recovered`)."""
        job = self._job
        if not isinstance(job, ImportJob) or job.cancel_requested:
            return
        job.was_shown = True
        self._show_tokenizer(loaded.tokenizer, [], loaded.name, loaded.index)
        text = QCoreApplication.translate(
            "FileActions", "Recovering the merges of %1 from its ranks …"
        ).replace("%1", loaded.name)
        self.phase.emit(text)
        self.message.emit(text)

    def _add_recovered(self, pairs: list) -> None:
        """A batch of the merges of the tiktoken import on show (recovered in its ImportJob)."""
        job = self._job
        if isinstance(job, ImportJob) and job.was_shown:
            n = self.index.add_known(pairs)
            if n:
                self.model.changed()
                self.merges_appended.emit(n)

    def load_comparison(self, path, **options) -> bool:
        """Read a second tokenizer to compare with, in a worker: True when that started;
        :attr:`tokenizer_loaded` brings it (purpose "compare"), or :attr:`error` comes."""
        if self._job is not None:
            self.error.emit(
                QCoreApplication.translate(
                    "FileActions",
                    "Wait for the current task to finish (or cancel it) before loading a tokenizer to compare with.",
                )
            )
            return False
        self._start(
            ImportJob(path, options, "compare"),
            QCoreApplication.translate("FileActions", "Reading the tokenizer %1 …").replace(
                "%1", _shown_name(path)
            ),
        )
        return True

    def _finish_import(self, job: ImportJob, res: worker.JobResult) -> None:
        """An import or comparison load is over (the controller's thread-finished slot calls this)."""
        name = _shown_name(job.path)
        if job.was_shown and (job.cancel_requested or res.error is not None or res.crash is not None):
            self.message.emit(
                QCoreApplication.translate(
                    "FileActions", "Recovering the merges of %1 stopped: the first %2 are shown."
                )
                .replace("%1", name)
                .replace("%2", f"{self.index.n_merges:,}")
            )
            return
        if job.cancel_requested:
            self.message.emit(
                QCoreApplication.translate("FileActions", "Reading %1 cancelled; nothing changed.").replace(
                    "%1", name
                )
            )
            return
        if res.error is not None or not isinstance(res.value, LoadedTokenizer):
            if res.error is not None:
                self.message.emit(
                    QCoreApplication.translate("FileActions", "Could not read %1; nothing changed.").replace(
                        "%1", name
                    )
                )
                self.error.emit(res.error_message)
            return
        loaded = res.value
        if loaded.purpose == "session":
            self._show_tokenizer(loaded.tokenizer, loaded.records, loaded.name, loaded.index)
            self.message.emit(job.done_text)
            self.session_opened.emit(job.session)
            return
        note = " ".join(core_text.sentence(core_text.note(n)) for n in loaded.note.splitlines())
        if loaded.purpose == "compare":
            self.message.emit(
                QCoreApplication.translate("FileActions", "Comparing with %1.").replace("%1", loaded.name)
                + (" " + note if note else "")
            )
            self.tokenizer_loaded.emit(loaded)
            return
        if job.was_shown:  # shown when read; its merges came in batches
            self.model.records = list(loaded.records)
        else:
            self._show_tokenizer(loaded.tokenizer, loaded.records, loaded.name, loaded.index)
        timeline = (
            QCoreApplication.translate("FileActions", "with its merge timeline")
            if self.index.has_counts
            else QCoreApplication.translate("FileActions", "no merge counts in this format")
        )
        self.message.emit(
            QCoreApplication.translate("FileActions", "Imported {0}: {1} tokens, {2} merges ({3}).").format(
                loaded.name, f"{len(loaded.tokenizer.vocab):,}", f"{len(loaded.records):,}", timeline
            )
            + (" " + note if note else "")
        )
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
        if self.model.extension is not None and self._job is None:  # (its base's pipeline)
            spec = self._call_blocking(Engine.spec)
            return {} if spec is FAILED else files.export_losses(spec, formats)
        source = self.model.tokenizer() if self.model.has_trainer else self.model.imported
        return files.export_losses(source, formats)  # (a trained pattern other than GPT-2's too)

    def export(
        self, folder, formats: list[str], lossy: bool = False, replace_others: bool = False
    ) -> list | None:
        """Write the current tokenizer in ``formats`` into ``folder``; returns the files written.
        ``lossy``: the user agreed to lose what :meth:`export_losses` names; ``replace_others``: to
        replace the files :func:`bpe_gui.model.files.files_not_ours` names. Formats that cannot
        hold this tokenizer at all are left out and named (the others are written)."""
        source = self._shown_tokenizer(
            QCoreApplication.translate(
                "FileActions", "Wait for the current task to finish (or cancel it) before exporting."
            ),
            QCoreApplication.translate(
                "FileActions", "Nothing to export yet: open a corpus or import a tokenizer first."
            ),
        )
        if source is None:
            return None
        left_out = ""
        if self.model.extension is not None and "tiktoken" in formats and self.index.reused:
            # tiktoken orders merges by the rank of the token made: a new merge that makes an old
            # token would apply at that token's rank (core.tokenization.extend)
            formats = [f for f in formats if f != "tiktoken"]
            left_out = " " + QCoreApplication.translate(
                "FileActions",
                "Not written: tiktoken (a new merge makes a token the base already has, which a "
                "tiktoken file cannot hold: it would apply that merge at the old token's rank).",
            )
            if not formats:
                self.error.emit(left_out.strip())
                return None
        try:
            paths, failed = files.export_tokenizer(
                source, folder, formats, lossy=lossy, replace_others=replace_others
            )
        except BPEError as e:
            self.error.emit(error_text(e))
            return None
        if paths:
            self.model.kept_version = self.model.version
        self.message.emit(
            QCoreApplication.translate("FileActions", "Exported {0} file(s) to {1}: ").format(
                len(paths), folder
            )
            + ", ".join(p.name for p in paths)
            + left_out
        )
        from core.formats.export_record import stale_files

        stale = stale_files(folder, [p.name for p in paths])
        if stale:  # (reading one of them gives the tokenizer exported before, not this one)
            self.message.emit(
                QCoreApplication.translate(
                    "FileActions",
                    "The folder also holds {0} from before, not written now: they may be another tokenizer's.",
                ).format(", ".join(stale))
            )
        if failed:
            labels = ", ".join(QCoreApplication.translate("Files", files.FORMAT_LABELS[f]) for f in failed)
            why = "\n".join(f"\u2022 {f}: {error_text(e)}" for f, e in failed.items())
            self.error.emit(
                QCoreApplication.translate(
                    "FileActions",
                    "Not written: {0}. These formats cannot hold this tokenizer (the other formats were "
                    "written):",
                ).format(labels)
                + "\n"
                + why
            )
        return paths
