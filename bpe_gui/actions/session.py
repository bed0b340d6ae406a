"""The controller's session actions: rewind and reset, save and reopen a session.

Part of :class:`bpe_gui.actions.controller.Controller`, on its declared base (signals, engine and state). A session
file is a native ``bpe.json`` with the explorer's state (see :mod:`core.formats.session`). Reopening it
with the same corpus loads the corpus and replays the merges in the engine (their counts, ties
and examples are then live again); with a corpus that changed or is gone, the saved tokenizer is
shown from the file alone, like an imported one.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication

from bpe_gui.actions.base import FAILED, ControllerBase
from bpe_gui.actions.files import ImportJob
from bpe_gui.jobs import worker
from bpe_gui.model.session import Busy, Options
from bpe_gui.text.errors import error_text
from bpe_gui.text.plural import plural
from core import BPEError
from core.engine.client import Engine
from core.tokenization.extend import extension_base

# a rewind whose merges changed more distinct words than this (undoing costs about what merging did)
# runs in the worker, so the window stays live
REWIND_SYNC_WORDS = 30_000


class ReplayJob(worker.EngineJob):
    """Merge a saved list of pairs in the engine (records arrive in batches, like a run's)."""

    kind = Busy.TRAIN.value

    def __init__(self, engine, pairs: list, vocab_size: int, session_file: str | None = None) -> None:
        super().__init__(engine, Engine.replay, list(pairs))
        self.vocab_size = int(vocab_size)
        self.session_file = session_file  # the session whose merges these are
        self.n_pairs = len(self.args[0])


class RewindJob(worker.EngineJob):
    """Undo merges in the engine until the merges on show are ``keep`` (``offset`` of them an
    extension's base merges, which the engine's trainer does not count)."""

    def __init__(self, engine, keep: int, offset: int = 0) -> None:
        super().__init__(engine, Engine.undo_to, keep - offset, worker.TOP_K)
        self.keep = keep


class SessionActions(ControllerBase):
    """Rewind, reset, save and reopen sessions (the controller's session actions)."""

    # ------------------------------------------------------------------ rewind
    def rewind_to(self, keep: int) -> bool:
        """Undo merges until ``keep`` are left (the merge ``keep`` — numbered from 1 — is then the last)."""
        # an extension's base merges stay: rewinding into them (or Reset) goes back to the base
        off = self.model.merge_offset
        keep = max(off, int(keep))
        if not self._check_can_train():
            return False
        n = self.index.n_merges
        if keep >= n:
            self.message.emit(
                QCoreApplication.translate(
                    "Session", "Nothing to rewind: merge #%1 is already the last one."
                ).replace("%1", f"{n:,}")
                if n > off
                else QCoreApplication.translate(
                    "Session", "Nothing to rewind: no merges were added to the base tokenizer yet."
                )
            )
            return False
        if sum(r.words_changed for r in self.records[keep - off :]) > REWIND_SYNC_WORDS:
            job = RewindJob(self._use_engine(), keep, off)
            self._start(
                job,
                QCoreApplication.translate("Session", "Rewinding to merge #%1 …").replace("%1", f"{keep:,}"),
                kind=Busy.REWIND,
            )
            return True
        reply = self._call_blocking(Engine.undo_to, keep - off, worker.TOP_K)
        if reply is FAILED:
            return False
        self._rewound(keep, reply)
        return True

    def _finish_rewind(self, job, res) -> None:
        """A rewind done in the worker is over (the controller's thread-finished slot calls this)."""
        if res.lost:
            self._lost(res.error_message or "the training engine stopped")
        elif res.error is not None:
            self.error.emit(res.error_message)
        elif res.value is not None:
            self._rewound(job.keep, res.value)

    def _rewound(self, keep: int, reply: dict) -> None:
        undone = int(reply["undone"])
        self.model.pop(undone)
        self.model.keep_view(reply)
        self.merges_removed.emit(undone)
        self.pairs_changed.emit(None)
        self.tokenizer_changed.emit()
        ext = self.model.extension
        if ext is not None and keep <= ext.base_merges:
            text = QCoreApplication.translate(
                "Session", "Back to the base %1: undid %n new merge(s); vocab size %2.", None, undone
            )
            text = plural(text, undone)
            self.message.emit(text.replace("%1", ext.name).replace("%2", f"{self.vocab_size:,}"))
        elif keep:
            text = plural(
                QCoreApplication.translate(
                    "Session", "Rewound %n merge(s): merge #%1 is the last one; vocab size %2.", None, undone
                ),
                undone,
            )
            self.message.emit(text.replace("%1", f"{keep:,}").replace("%2", f"{self.vocab_size:,}"))
        else:
            text = plural(
                QCoreApplication.translate(
                    "Session", "Reset: undid all %n merge(s); vocab size %1.", None, undone
                ),
                undone,
            )
            self.message.emit(text.replace("%1", f"{self.vocab_size:,}"))

    def reset(self) -> bool:
        """Back to 0 merges (the corpus stays loaded)."""
        return self.rewind_to(0)

    # ------------------------------------------------------------------ sessions
    def session_spec(self):
        """The current tokenizer as a spec (with its training record), or None after an error."""
        from core.formats import as_spec

        source = self._shown_tokenizer(
            QCoreApplication.translate(
                "Session", "Wait for the current task to finish (or cancel it) before saving."
            ),
            QCoreApplication.translate(
                "Session", "Nothing to save yet: open a corpus or import a tokenizer first."
            ),
        )
        if source is None:
            return None
        spec = as_spec(source)
        ext = self.model.extension
        if ext is not None and self.model.has_trainer and spec.training and "extends" in spec.training:
            # the base's name travels with the session (a reopened extension is titled with it)
            import dataclasses

            training = dict(spec.training)
            training["extends"] = {**training["extends"], "name": ext.name}
            spec = dataclasses.replace(spec, training=training)
        return spec

    def save_session(
        self,
        path,
        vocab_target: int | None = None,
        step_n: int | None = None,
        text: str | None = None,
        compare: dict | None = None,
        selected: int | None = None,
    ):
        """Write a session file; returns its path (None after an error, already reported)."""
        from core.formats.session import save_session

        spec = self.session_spec()
        if spec is None:
            return None
        try:
            out = save_session(
                path,
                spec,
                corpus_path=self.corpus_path if self.model.has_trainer else None,
                vocab_target=vocab_target,
                step_n=step_n,
                text=text,
                compare=compare,
                selected=selected,
            )
        except (BPEError, OSError) as e:
            self.error.emit(error_text(e))
            return None
        n = len(spec.merges)
        self.session_path = str(out)
        self.model.kept_version = self.model.version
        self.message.emit(
            plural(
                QCoreApplication.translate("Session", "Saved the session (%n merge(s)) to %1.", None, n), n
            ).replace("%1", str(out))
        )
        return out

    def open_session(self, path):
        """Reopen a session file; returns the :class:`core.formats.session.Session` (None after an error).

        With its corpus unchanged the corpus is loaded and the merges replayed (asynchronously:
        :attr:`trained` comes when they are back); otherwise the saved tokenizer is shown at once.
        """
        from core.formats.session import load_session

        if self._job is not None:
            self.error.emit(
                QCoreApplication.translate(
                    "Session", "Wait for the current task to finish (or cancel it) before opening a session."
                )
            )
            return None
        try:
            s = load_session(path)
        except BPEError as e:
            self.error.emit(error_text(e))
            return None
        self.session_path = str(path)
        spec = s.spec
        state = s.corpus_state()
        try:
            extends = extension_base(spec)
        except BPEError as e:
            self.error.emit(error_text(e))
            return None
        if state == "same" and extends is not None:  # an extension: its base on the corpus, then its merges
            self._reopen_extension(s, extends, path)
        elif state == "same":
            pattern = None if spec.pattern in (None, "none") else spec.pattern
            self.options = Options(
                list(spec.special_tokens), pattern, spec.tie_break or self.options.tie_break
            )
            self.options_changed.emit()
            pairs = list(spec.merges)
            base = len(spec.vocab) - len(pairs)
            name = Path(path).name

            def replay() -> None:
                if not pairs:
                    self.message.emit(
                        QCoreApplication.translate(
                            "Session", "Reopened the session %1 (no merges yet)."
                        ).replace("%1", name)
                    )
                    return
                n = len(pairs)  # a plain name: pyside6-lupdate skips a translate() call with len(...) in it
                text = QCoreApplication.translate(
                    "Session", "Reopened the session %1: %n merge(s) replayed on its corpus.", None, n
                )
                self._run_note = plural(text, n).replace("%1", name)
                self._live_pairs = []
                self._start(
                    ReplayJob(self._use_engine(), pairs, base + len(pairs), str(path)),
                    QCoreApplication.translate("Session", "Replaying the session's merges …"),
                )

            self._after_load = replay
            self.load_corpus(s.corpus_path)
        else:
            why = (
                QCoreApplication.translate("Session", "its corpus %1 is gone")
                if state == "missing"
                else QCoreApplication.translate(
                    "Session", "its corpus %1 changed since the session was saved"
                )
            ).replace("%1", str(s.corpus_path))
            if state == "none":
                text = QCoreApplication.translate(
                    "Session", "Opened the session %1: a tokenizer without a corpus; open a corpus to train."
                ).replace("%1", str(path))
            else:
                text = (
                    QCoreApplication.translate(
                        "Session",
                        "Opened the session %1, but %2: showing the saved tokenizer. Open the "
                        "corpus again to train further.",
                    )
                    .replace("%1", str(path))
                    .replace("%2", why)
                )
            self._show_saved(s, path, text)  # session_opened comes when it is shown
            return s
        self.session_opened.emit(s)
        return s

    def _reopen_extension(self, s, base, path) -> None:
        """Continue training the saved extension's base on its corpus, then replay its new merges."""
        spec = s.spec
        self.options = Options(
            list(self.options.special_tokens), self.options.pattern, spec.tie_break or self.options.tie_break
        )
        self.options_changed.emit()
        pairs = list(spec.merges[len(base.merges) :])
        name = Path(path).name
        base_name = str((spec.training or {}).get("extends", {}).get("name") or name)

        def replay() -> None:
            if not pairs:
                self.message.emit(
                    QCoreApplication.translate("Session", "Reopened the session %1 (no merges yet).").replace(
                        "%1", name
                    )
                )
                return
            n = len(pairs)
            text = QCoreApplication.translate(
                "Session", "Reopened the session %1: %n merge(s) replayed on its corpus.", None, n
            )
            self._run_note = plural(text, n).replace("%1", name)
            self._live_pairs = []
            self._start(
                ReplayJob(self._use_engine(), pairs, len(spec.vocab), str(path)),
                QCoreApplication.translate("Session", "Replaying the session's merges …"),
            )

        if self.continue_training(s.corpus_path, base, base_name):  # type: ignore[attr-defined]
            self._after_load = replay

    def _show_saved(self, session, path, text: str) -> None:
        """Show a saved tokenizer without a corpus (like an imported one): its Tokenizer and the views'
        index are built in the import worker; then ``text`` is the status and :attr:`session_opened` comes."""
        job = ImportJob(path, {}, "session", spec=session.spec)
        job.session, job.done_text = session, text
        self._start(
            job,
            QCoreApplication.translate("Session", "Opening the session %1 …").replace("%1", Path(path).name),
        )
