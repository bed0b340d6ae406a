"""The controller's extend action: "Continue training from this tokenizer".

The tokenizer on show (an imported byte-level one, or the base of the extension being trained)
becomes the base of an :class:`core.tokenization.extend.ExtendTrainer` that the engine builds on a
corpus (:meth:`core.engine.client.Engine.extend`, in a worker with progress and Cancel, like
opening a corpus). Then Step, Undo, Train, Rewind and the views work on the new merges: the views'
index holds the base's vocab and merges and appends the new ones with the engine's ids
(:meth:`bpe_gui.model.state.VocabIndex.extension`); the engine's records number the new merges
from 0, and :meth:`bpe_gui.model.session.SessionModel.shifted` numbers them after the base's.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication

from bpe_gui.actions.base import ControllerBase
from bpe_gui.jobs import worker
from bpe_gui.model.session import Busy, Extension, Options
from bpe_gui.model.state import VocabIndex
from core import Cancelled
from core.engine.client import Engine


class ExtendLoadJob(worker.EngineJob):
    """Build the engine's trainer as an extension of a tokenizer on a corpus.

    ``base``: a core Tokenizer (its spec is made here, in the job's thread: a 200k vocab takes a
    while) or a TokenizerSpec. The views' index of the base is built here too (:attr:`index`).
    """

    kind = Busy.LOAD.value

    def __init__(self, engine: Engine, base: Any, name: str, path: str, tie_break: str) -> None:
        super().__init__(engine, Engine.extend)
        self.base, self.name, self.path, self.tie_break = base, name, str(path), tie_break
        self.extends: Any = None  # the base's TokenizerSpec, once made (the controller looks for it)
        self.index: VocabIndex | None = None

    def work(self) -> None:
        if self.cancel_requested:
            raise Cancelled("cancelled before it started")
        from core.formats.spec import TokenizerSpec

        spec = self.base if isinstance(self.base, TokenizerSpec) else self.base.to_spec()
        if not isinstance(spec.merges, tuple):  # (a loader's lazily built merges: plain data to send)
            spec = TokenizerSpec(
                dict(spec.vocab),
                tuple(spec.merges),
                tuple(spec.special_tokens),
                spec.pattern,
                spec.tie_break,
                None,
                pipeline=spec.pipeline,
            )
        self.extends = spec
        self.args = (spec, self.path, self.tie_break, worker.pretokenize_workers())
        super().work()
        self.index = VocabIndex.extension(
            dict(spec.vocab), spec.merges, spec.special_tokens, added_not_special=spec.added_not_special
        )


class ExtendActions(ControllerBase):
    """Continue training from the tokenizer on show (the controller's extend action)."""

    def can_continue_training(self) -> bool:
        """Whether the tokenizer on show can be extended: an imported byte-level tokenizer with its
        merges all read, or the base of the extension being trained (not while a task runs)."""
        if self._job is not None:
            return False
        if self.model.extension is not None:
            return True
        tok = self.model.imported
        return tok is not None and getattr(tok, "char_model", None) is None

    def continue_training(self, path, base: Any = None, name: str | None = None) -> bool:
        """Learn new merges on the corpus ``path`` on top of the tokenizer on show (or ``base``, a
        TokenizerSpec, named ``name``): the engine builds the extension in the worker; True when
        that started. :attr:`corpus_loaded` comes when it is ready (the base's merges on show, no new
        ones yet); :attr:`error` says why not."""
        path = str(path)
        if self._job is not None:
            self.error.emit(
                QCoreApplication.translate(
                    "ExtendActions",
                    "Wait for the current task to finish (or cancel it) before continuing training.",
                )
            )
            return False
        ext = self.model.extension
        if base is None:
            if ext is not None:  # a new corpus for the same base (the new merges so far are dropped)
                base, name = ext.base, ext.name
            else:
                base, name = self.model.imported, self.source_name
        if base is None:
            self.error.emit(
                QCoreApplication.translate(
                    "ExtendActions",
                    "Import a tokenizer first (File → Import tokenizer…), then continue training from it.",
                )
            )
            return False
        if getattr(base, "char_model", None) is not None:
            self.error.emit(
                QCoreApplication.translate(
                    "ExtendActions",
                    "{0} is a SentencePiece-style (character-level) tokenizer: training cannot continue "
                    "from it. Continue from a byte-level one (GPT-2, tokenizer.json, tiktoken, native "
                    "bpe.json).",
                ).format(name)
            )
            return False
        self._pending_load = None
        job = ExtendLoadJob(self._use_engine(), base, name or "", path, self.options.tie_break)
        self._start(
            job,
            QCoreApplication.translate("ExtendActions", "Reading {0} to continue training {1} …").format(
                Path(path).name, name
            ),
        )
        return True

    def _finish_extend(self, job: ExtendLoadJob, res: worker.JobResult) -> None:
        if self._pending_load is not None:  # a corpus opened meanwhile wins (it cancelled this)
            path, self._pending_load = self._pending_load, None
            self._after_load = None
            self.load_corpus(path)
            return
        after, self._after_load = self._after_load, None
        if res.lost:
            self._lost(
                res.error_message
                or QCoreApplication.translate("ExtendActions", "the training engine stopped")
            )
            return
        if res.error:
            self.message.emit(
                QCoreApplication.translate(
                    "ExtendActions", "Could not continue training on {0}; nothing changed."
                ).format(Path(job.path).name)
            )
            self.error.emit(res.error_message)
            return
        late = res.value is not None and job.cancel_requested
        if late and not self.model.has_trainer:
            # Cancel came as the engine finished: the user asked for nothing to change, so the
            # extension it built is not shown, and its trainer is freed (the tokenizer on show has
            # none). (With a trainer on show, the engine's was replaced already: the new one is shown.)
            self._call_blocking(Engine.drop)
        if res.cancelled or (late and not self.model.has_trainer) or res.value is None or job.index is None:
            self.message.emit(
                QCoreApplication.translate("ExtendActions", "Loading cancelled; nothing changed.")
            )
            return
        info: dict = res.value
        s = info["stats"]
        ext = Extension(job.extends, job.name, int(info["base_merges"]), int(info["base_vocab_size"]))
        options = Options(list(info["special_tokens"]), self.options.pattern, job.tie_break)
        self.model.extension_loaded(job.path, s, ext, job.index, options)
        self.merges_reset.emit()
        self.tokenizer_changed.emit()
        self.message.emit(
            QCoreApplication.translate(
                "ExtendActions",
                "Continuing {0} on {1} ({2} bytes, {3} pre-tokens, read in {4} s): Step and Train add "
                "merges after its {5} tokens; Undo and Reset never go below it.",
            ).format(
                job.name,
                s.name,
                f"{s.size_bytes:,}",
                f"{s.pretokens:,}",
                f"{time.monotonic() - self._t0:.1f}",
                f"{ext.base_vocab_size:,}",
            )
        )
        self.corpus_loaded.emit(s)
        if after is not None:
            after()
