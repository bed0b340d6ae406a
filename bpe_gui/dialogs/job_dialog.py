"""What the tool dialogs share (audit, inspect, vocabulary overlap, extend): one background job at a
time, with a progress bar, Cancel, and a summary line for the outcome.

A dialog builds its own controls and calls :meth:`JobDialog.add_job_widgets` for the shared ones;
:meth:`JobDialog.start_job` runs a :class:`bpe_gui.jobs.worker.Job` in a worker thread. When it ends the
buttons come back, a crash is reported, a cancel or an error is said in the summary, and a value goes
to the dialog's :meth:`JobDialog.job_done`; :meth:`JobDialog.job_ended` runs last in every case.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, QThread
from PySide6.QtWidgets import QBoxLayout, QDialog, QLabel, QProgressBar, QPushButton

from bpe_gui.jobs import worker
from bpe_gui.model.marks import QT_TRANSLATE_NOOP


class JobDialog(QDialog):
    """A dialog that runs one job at a time (see the module's doc)."""

    #: what the summary says when the job was cancelled (a dialog may say more, e.g. nothing written)
    CANCELLED = QT_TRANSLATE_NOOP("JobDialog", "Cancelled.")

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._job: worker.Job | None = None
        self._thread: QThread | None = None
        self.last_error: str | None = None
        self.cancel_button = QPushButton(QCoreApplication.translate("JobDialog", "Cancel"))
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.progress_bar = QProgressBar()
        self.progress_bar.hide()
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

    def add_job_widgets(self, layout: QBoxLayout, summary_stretch: int = 0) -> None:
        """Put the progress bar and the summary line in ``layout`` (the Cancel button goes where the
        dialog puts its own buttons)."""
        layout.addWidget(self.progress_bar)
        layout.addWidget(self.summary, summary_stretch)

    @property
    def running(self) -> bool:
        return self._job is not None

    def start_job(self, job: worker.Job, text: str) -> None:
        """Run ``job`` in a worker thread; ``text``: what the summary says meanwhile."""
        self.last_error = None
        self._job = job
        job.progress.connect(self._progress)
        self._thread = worker.start(job, self._finished)
        self.cancel_button.setEnabled(True)
        self.progress_bar.setRange(0, 0)
        self.progress_bar.show()
        self.summary.setText(text)

    def cancel(self) -> None:
        if self._job is not None:
            self._job.cancel()

    def _progress(self, phase: str, done: int, total: int) -> None:
        if total > 0:
            self.progress_bar.setRange(0, 1000)
            self.progress_bar.setValue(int(1000 * min(done, total) / total))

    def _finished(self) -> None:
        job, thread = self._job, self._thread
        if job is None:
            return
        worker.join(thread)
        self._job = self._thread = None
        self.cancel_button.setEnabled(False)
        self.progress_bar.hide()
        res = job.result
        if res.crash is not None:
            worker.report_crash(res.crash)
        if res.cancelled:
            self.summary.setText(QCoreApplication.translate("JobDialog", self.CANCELLED))
        elif res.error is not None:
            self.last_error = res.error_message
            self.summary.setText(self.last_error or "")
        elif res.value is not None:
            self.job_done(res.value)
        self.job_ended()

    @classmethod
    def show_for(cls, window: Any) -> Any:
        """Show ``window``'s dialog of this kind, made on first use (one of each a window)."""
        dlg = window.findChild(cls)
        if dlg is None:
            make: Any = cls  # (each tool dialog takes the controller and the window)
            dlg = make(window.controller, window)
        dlg.show()
        dlg.raise_()
        return dlg

    def closeEvent(self, event) -> None:
        """Closing stops the job and waits for it (its thread never outlives the dialog's work)."""
        self.cancel()
        if self._thread is not None:
            worker.join(self._thread)
            self._finished()
        super().closeEvent(event)

    def job_done(self, value: Any) -> None:
        """The job's value, when it ended without a cancel or an error."""
        raise NotImplementedError

    def job_ended(self) -> None:
        """After every job, however it ended (buttons and signals of the dialog)."""
