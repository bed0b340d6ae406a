"""File → Extend this tokenizer…: keep every token and id of the tokenizer in the app (an imported
one, or the one being trained at its current step) and learn more merges on a corpus
(:mod:`core.tokenization.extend`), in a worker with progress and Cancel. The result is written to a
folder in every format that can hold it, the corpus's token count before and after is shown, and
**Open** shows the extended tokenizer in the app (its merges in the timeline, the new ones with
their counts).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
)

from bpe_gui.dialogs.export_dialog import confirm_replace
from bpe_gui.dialogs.job_dialog import JobDialog
from bpe_gui.jobs import worker
from bpe_gui.model.files import files_not_ours
from bpe_gui.model.marks import QT_TRANSLATE_NOOP

FORMATS = ("gpt2", "hf", "tiktoken", "native")


class ExtendJob(worker.Job):
    """``result.value``: (tokens before, tokens after, new merges, vocab size, written paths, skipped
    formats)."""

    kind = "extend"

    def __init__(
        self,
        tokenizer,
        args: tuple | None,
        corpus: str,
        vocab_size: int,
        out: str,
        replace_others: bool = False,
    ) -> None:
        super().__init__()
        self.tokenizer, self.args = tokenizer, args
        self.corpus, self.vocab_size, self.out = corpus, vocab_size, out
        self.replace_others = replace_others  # the user agreed to replace files we did not write

    def work(self) -> None:
        from core.formats import export_all, export_losses
        from core.tokenization.extend import ExtendTrainer

        base = worker.tokenizer_from(self.tokenizer, self.args)
        t = ExtendTrainer.from_files(
            base,
            [self.corpus],
            keep_history=False,
            workers=worker.pretokenize_workers(),
            progress=self.report,
        )
        before = sum(len(toks) * n for _, toks, n in t.words())
        t.run(self.vocab_size, progress=self.report, min_interval=10, interrupt=lambda: self.cancel_requested)
        after = sum(len(toks) * n for _, toks, n in t.words())
        spec = t.to_spec(Path(self.corpus).name)
        skipped = [f for f in FORMATS if export_losses(spec, f) or (f == "tiktoken" and t.reused)]
        written = export_all(
            self.out, spec, [f for f in FORMATS if f not in skipped], replace_others=self.replace_others
        )
        paths = [str(p) for ps in written.values() for p in ps]
        self.result.value = (before, after, len(t.merges), t.vocab_size, paths, skipped)


class ExtendDialog(JobDialog):
    CANCELLED = QT_TRANSLATE_NOOP("JobDialog", "Cancelled; nothing was written.")
    finished_extend = Signal()

    def __init__(self, controller, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("extendDialog")
        self.setWindowTitle(self.tr("Extend this tokenizer"))
        self.controller = controller
        self.corpus: str | None = None
        self.outcome: tuple | None = None
        self._corpus_run = ""  # the corpus of the run going on or last done
        self._out_run = ""  # and its folder (Open reads it, whatever is typed in since)
        self._shown: tuple | None = None  # which tokenizer the dialog is set up for (see :meth:`refresh`)
        lay = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "Keeps every token and id of the tokenizer in the app and learns more merges on a corpus, "
                "pre-tokenized and encoded as this tokenizer does it. New tokens take the ids after its last one."
            )
        )
        intro.setWordWrap(True)
        lay.addWidget(intro)
        form = QFormLayout()
        self.corpus_button = QPushButton(self.tr("Choose corpus…"))
        self.corpus_button.clicked.connect(self._pick_corpus)
        form.addRow(self.tr("Corpus:"), self.corpus_button)
        self.vocab_size = QSpinBox()
        self.vocab_size.setRange(257, 2_000_000)
        self.vocab_size.setSingleStep(100)
        self.vocab_size.setGroupSeparatorShown(True)  # (1,000 as in the training panel)
        form.addRow(self.tr("Final vocab size:"), self.vocab_size)
        # a folder typed in need not exist yet (it is made when the files are written), as in Export
        self.out_edit = QLineEdit()
        self.out_edit.setPlaceholderText(self.tr("a folder (a new one is made)"))
        self.out_edit.textChanged.connect(lambda _t: self.refresh())
        self.out_button = QPushButton(self.tr("Choose folder…"))
        self.out_button.clicked.connect(self._pick_out)
        out_row = QHBoxLayout()
        out_row.addWidget(self.out_edit, 1)
        out_row.addWidget(self.out_button)
        form.addRow(self.tr("Write to:"), out_row)
        lay.addLayout(form)
        # why the tokenizer on show cannot be extended (said before anything is picked)
        self.note = QLabel()
        self.note.setObjectName("notes")
        self.note.setWordWrap(True)
        self.note.setVisible(False)
        lay.addWidget(self.note)
        row = QHBoxLayout()
        self.run_button = QPushButton(self.tr("Extend"))
        self.run_button.clicked.connect(self.run)
        self.open_button = QPushButton(self.tr("Open the extended tokenizer"))
        self.open_button.setEnabled(False)
        self.open_button.clicked.connect(self.open_result)
        # the same extension in the app itself: Step, Undo, the pair table and the timeline on the new merges
        self.step_button = QPushButton(self.tr("Continue step by step…"))
        self.step_button.setToolTip(
            self.tr(
                "Continue training from this tokenizer in the app, on the chosen corpus: step, undo and "
                "watch the new merges (File → Continue training from this tokenizer…)"
            )
        )
        self.step_button.clicked.connect(self.continue_in_app)
        for b in (self.run_button, self.cancel_button, self.open_button, self.step_button):
            row.addWidget(b)
        row.addStretch(1)
        lay.addLayout(row)
        self.add_job_widgets(lay, 1)
        self.refresh()
        self.resize(600, 320)

    @property
    def out(self) -> str | None:
        """The folder to write to (typed in or picked); None when none is given."""
        text = self.out_edit.text().strip()
        return str(Path(text).expanduser()) if text else None

    def _tokenizer_shown(self) -> tuple:
        """What tells the app's tokenizer from the next one (an import, a corpus, an extension)."""
        m = self.controller.model
        return (m.source_name, id(m.imported), m.corpus_path, id(m.extension))

    def cannot_extend(self) -> str:
        """Why the app's tokenizer cannot be extended ("" when it can)."""
        if getattr(self.controller.model.imported, "char_model", None) is None:
            return ""
        return self.tr(
            "This is a SentencePiece-style (character-level) tokenizer: it cannot be extended. "
            "Extend a byte-level one (GPT-2, tokenizer.json, tiktoken, native bpe.json)."
        )

    def refresh(self) -> None:
        """Suggest a vocab size 1,000 above the app's tokenizer (when none was chosen above it); for
        another tokenizer than the last one (an import since), start afresh: its size, no result."""
        n = len(self.controller.index.vocab)
        shown = self._tokenizer_shown()
        if shown != self._shown and not self.running:
            if self._shown is not None:  # (the last run's result is another tokenizer's)
                self.outcome, self.last_error = None, None
                self.summary.setText("")
                self.open_button.setEnabled(False)
                self.vocab_size.setValue(n + 1000)
            self._shown = shown
        if self.vocab_size.value() <= n:
            self.vocab_size.setValue(n + 1000)
        why = self.cannot_extend()
        self.note.setText(why)
        self.note.setVisible(bool(why))
        self.run_button.setEnabled(
            not self.running and not why and self.corpus is not None and self.out is not None
        )
        self.step_button.setEnabled(not self.running and self.controller.can_continue_training())

    def _pick_corpus(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Corpus to learn the new merges on"))
        if path:
            self.set_corpus(path)

    def _pick_out(self) -> None:
        path = QFileDialog.getExistingDirectory(
            self, self.tr("Folder for the extended tokenizer"), self.out_edit.text().strip()
        )
        if path:
            self.set_out(path)

    def set_corpus(self, path: str) -> None:
        self.corpus = path
        self.corpus_button.setText(Path(path).name)
        self.refresh()

    def set_out(self, path: str) -> None:
        self.out_edit.setText(path)  # (refreshes)

    def run(self) -> bool:
        c = self.controller
        out = self.out
        if self.running or c.busy or self.corpus is None or out is None:
            return False
        why = self.cannot_extend()
        if why:
            self.summary.setText(why)
            return False
        n = len(c.index.vocab)
        if self.vocab_size.value() <= n:
            self.summary.setText(
                self.tr("Choose a final vocab size above this tokenizer's {n} tokens.").format(n=f"{n:,}")
            )
            return False
        others = files_not_ours(out, list(FORMATS))  # (asked now, not after the run)
        if others and not confirm_replace(self, out, others):
            return False
        tok = c.cached_tokenizer()
        args = None if tok is not None else c.tokenizer_args()[1:]
        self.outcome, self._corpus_run, self._out_run = None, self.corpus, out
        self.run_button.setEnabled(False)
        self.open_button.setEnabled(False)
        self.start_job(
            ExtendJob(tok, args, self.corpus, self.vocab_size.value(), out, bool(others)),
            self.tr("Learning new merges on {name} …").format(name=Path(self.corpus).name),
        )
        return True

    def job_done(self, value) -> None:
        self.outcome = value
        before, after, merges, size, paths, skipped = value
        gain = (before - after) / before if before else 0.0
        text = self.tr(
            "{merges} new merges, vocab size {size}. {name}: {before} tokens with the tokenizer, {after} "
            "with the extension ({gain} fewer)."
        ).format(
            merges=f"{merges:,}",
            size=f"{size:,}",
            name=Path(self._corpus_run).name,
            before=f"{before:,}",
            after=f"{after:,}",
            gain=f"{gain:.1%}",
        )
        text += "\n" + self.tr("Written: {files}").format(files=", ".join(Path(p).name for p in paths))
        if skipped:
            text += "\n" + self.tr("Not written (the format cannot hold this tokenizer): {formats}").format(
                formats=", ".join(skipped)
            )
        self.summary.setText(text)
        self.open_button.setEnabled(True)

    def job_ended(self) -> None:
        self.refresh()
        self.finished_extend.emit()

    def open_result(self) -> bool:
        """Show the extended tokenizer in the app (read from the native file written)."""
        if self.outcome is None or not self._out_run:
            return False
        path = str(Path(self._out_run) / "bpe.json")
        window = self.parent()
        confirmed = getattr(window, "import_confirmed", None)  # (asks before trained merges are discarded)
        if confirmed is not None:
            return bool(confirmed(path))
        return self.controller.import_tokenizer(path)

    def continue_in_app(self) -> bool:
        """Continue training from the app's tokenizer in the main window, on the chosen corpus (or one
        picked now); the dialog closes once that started."""
        window: Any = self.parent()  # (the main window)
        if self.running or window is None:
            return False
        if self.corpus is not None:
            started = bool(window.continue_training_confirmed(self.corpus))
        else:
            started = bool(window.continue_training_dialog())
        if started:
            self.close()
        return started


def open_extend(window) -> ExtendDialog:
    """Show the window's Extend this tokenizer dialog (made on first use)."""
    dlg = ExtendDialog.show_for(window)
    dlg.refresh()
    return dlg
