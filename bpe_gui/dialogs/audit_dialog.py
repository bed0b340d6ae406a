"""Train → Audit a merge list…: open a merge list (a CS336 ``train_bpe`` output, another library's
``merges.txt``, any tokenizer file) against the corpus loaded in the app, find the first merge where
it parts from correct training (:mod:`core.evaluation.audit`, with the corpus's settings), say why,
and jump to that merge in the timeline (training that far first when the app has fewer merges).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
)

from bpe_gui.dialogs.job_dialog import JobDialog
from bpe_gui.jobs import worker
from bpe_gui.model.formatting import token_label

if TYPE_CHECKING:
    from core.evaluation.audit import AuditResult

#: up to this many merges to go, the jump to a divergence merges by steps (each merge keeps its
#: pair-count changes); further, by one training run (lean: the changes are not kept)
STEP_TO_DIVERGENCE = 2000


class AuditJob(worker.Job):
    kind = "audit"

    def __init__(self, corpus: str, merges: str, special_tokens: list[str], pattern, tie_break: str) -> None:
        super().__init__()
        self.corpus, self.merges = corpus, merges
        self.special_tokens, self.pattern, self.tie_break = special_tokens, pattern, tie_break

    def work(self) -> None:
        from core.evaluation.audit import audit_merges, read_merge_list

        merges = read_merge_list(self.merges)
        self.result.value = audit_merges(
            self.corpus,
            merges,
            self.special_tokens,
            pattern=self.pattern if self.pattern is not None else "none",
            tie_break=self.tie_break,
            workers=worker.pretokenize_workers(),
            progress=self.report,
        )


def _pair(p) -> str:
    return "–" if p is None else f"“{token_label(p[0])}” + “{token_label(p[1])}”"


class AuditDialog(JobDialog):
    finished_audit = Signal()

    def __init__(self, controller, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("auditDialog")
        self.setWindowTitle(self.tr("Audit a merge list"))
        self.controller = controller
        self.path: str | None = None
        self.report: AuditResult | None = None
        self._goal: int | None = None  # a merge to select once training has reached it
        lay = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "Replays correct training on the loaded corpus, with its settings, and finds the first merge "
                "where a merge list differs, and why: a CS336 train_bpe result saved with pickle or as JSON (a "
                "list of (bytes, bytes) pairs), a merges.txt, a tokenizer.json …"
            )
        )
        intro.setWordWrap(True)
        lay.addWidget(intro)
        row = QHBoxLayout()
        self.open_button = QPushButton(self.tr("Open merge list…"))
        self.open_button.clicked.connect(self._open_dialog)
        self.show_button = QPushButton(self.tr("Show in the timeline"))
        self.show_button.setEnabled(False)
        self.show_button.clicked.connect(self.show_in_timeline)
        for b in (self.open_button, self.cancel_button, self.show_button):
            row.addWidget(b)
        row.addStretch(1)
        lay.addLayout(row)
        self.add_job_widgets(lay, 1)
        controller.trained.connect(self._trained)
        controller.stepped.connect(self._trained)
        self.resize(640, 300)

    def _open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open merge list"))
        if path:
            self.run(path)

    def run(self, path: str) -> bool:
        """Audit the merge list at ``path`` against the loaded corpus (False when that cannot start)."""
        c = self.controller
        if self.running:
            return False
        if c.corpus_path is None or c.model.imported is not None:
            self.summary.setText(self.tr("Open a corpus first: the merge list is checked against it."))
            return False
        o = c.model.loaded_options
        self.path, self.report = path, None
        self.open_button.setEnabled(False)
        self.show_button.setEnabled(False)
        self.start_job(
            AuditJob(str(c.corpus_path), path, list(o.special_tokens), o.pattern, o.tie_break),
            self.tr("Checking {name} …").format(name=Path(path).name),
        )
        return True

    def job_done(self, value) -> None:
        self.report = value
        self.summary.setText(self.describe(value))
        self.show_button.setEnabled(value.first_divergence is not None)

    def job_ended(self) -> None:
        self.open_button.setEnabled(True)
        self.finished_audit.emit()

    def describe(self, r: AuditResult) -> str:
        """The result in the app's language."""
        if r.first_divergence is None:
            return self.tr("All {n} merges agree with training on this corpus.").format(
                n=f"{r.merges_given:,}"
            )
        head = self.tr(
            "Merge {k} differs (the first {ok} agree): the list has {given}, counted {gc} times here; "
            "training merges {expected}, counted {ec} times."
        ).format(
            k=f"{r.first_divergence:,}",
            ok=f"{r.merges_checked:,}",
            given=_pair(r.given),
            gc=f"{r.given_count or 0:,}",
            expected=_pair(r.expected),
            ec=f"{r.expected_count or 0:,}",
        )
        return head + "\n\n" + self._why(r)

    def _why(self, r: AuditResult) -> str:
        d = r.detail
        code = r.diagnosis
        if code == "other_tie_rule":
            rule = (
                self.tr("first seen") if d.get("rule") == "first" else self.tr("lexicographically greatest")
            )
            return self.tr("Equal counts: the list broke the tie by the other rule ({rule}).").format(
                rule=rule
            )
        if code == "smallest_of_tie":
            return self.tr(
                "Equal counts: {n} pairs tie, and the list took the smallest of them where training takes "
                "the greatest (compared as bytes). Its trainer breaks ties with min() instead of max()."
            ).format(n=f"{d.get('tied', 0):,}")
        if code == "gpt2_chars_order":
            return self.tr(
                "Equal counts: {n} pairs tie, and the list took the greatest compared as GPT-2's printable "
                "characters (str, “Ġ” for a space), where training compares bytes (a space, 20, is smaller "
                "than any letter). Its trainer compares the pairs' strings: compare their bytes."
            ).format(n=f"{d.get('tied', 0):,}")
        if code == "tie_broken_otherwise":
            return self.tr("Equal counts, but neither tie rule picks the list's pair.")
        if code == "specials_not_removed":
            return self.tr(
                "The list's pair is counted {n} times when the special tokens are left in the text: it was "
                "trained without removing them."
            ).format(n=f"{d.get('count', 0):,}")
        if code == "other_pretokenization" and d.get("pattern") == "none":
            return self.tr(
                "The list's pair is counted {n} times when the text is not split into pre-tokens: its "
                "trainer counted pairs across pre-token boundaries. Split the text with the pattern first "
                "and count pairs only inside each pre-token."
            ).format(n=f"{d.get('count', 0):,}")
        if code == "other_pretokenization":
            return self.tr(
                "The list's pair is counted {n} times under the {pattern} pre-tokenization: it was trained "
                "with another pattern."
            ).format(n=f"{d.get('count', 0):,}", pattern=d.get("pattern", ""))
        if code == "merged_from_the_right" and d.get("token"):
            x = bytes.fromhex(d["token"])
            return self.tr(
                "Counted the way the list's trainer merges, its pair wins ({n} times): it merged {pair} "
                "from the right in runs of three or more, such as “{example}”, giving {wrong} where "
                "{right} is correct. Apply each merge left to right."
            ).format(
                n=f"{d.get('count', 0):,}",
                pair=_pair((x, x)),
                example=token_label(bytes.fromhex(d.get("example", ""))),
                wrong=_pair((x, x + x)),
                right=_pair((x + x, x)),
            )
        if code == "pair_absent":
            return self.tr("The list's pair does not occur in this corpus at that point.")
        if code == "no_pairs_left":
            return self.tr("The list goes on after training has no pair left to merge.")
        later, made = d.get("expected_in_given"), d.get("given_in_training")
        text = self.tr("Both pairs occur: the merges come in another order.")
        if later:
            text += " " + self.tr("The correct pair is merge {n} of the list.").format(n=f"{later:,}")
        if made:
            text += " " + self.tr("Training makes the list's pair at merge {n}.").format(n=f"{made:,}")
        return text

    # ------------------------------------------------------------------ the timeline
    def show_in_timeline(self) -> None:
        """Select the first differing merge (training up to it first when needed)."""
        r = self.report
        if r is None or r.first_divergence is None or r.expected is None:
            return
        c = self.controller
        n = r.first_divergence
        # out of the way of the views it points to (it stayed over the timeline); Train → Audit a
        # merge list… shows it again with its report
        self.hide()
        if c.index.n_merges >= n:
            c.select_merge(n - 1)
            return
        self._goal = n
        gap = n - c.index.n_merges
        if gap <= STEP_TO_DIVERGENCE:
            # merged as steps, the merges keep their pair-count changes for the story and the pair table
            c.step(gap)
        else:
            c.train(256 + len(c.model.loaded_options.special_tokens) + n)

    def _trained(self, _summary=None) -> None:
        n, self._goal = self._goal, None
        if n is not None and self.controller.index.n_merges >= n:
            self.controller.select_merge(n - 1)


def open_audit(window) -> AuditDialog:
    """Show the window's Audit a merge list dialog (made on first use)."""
    return AuditDialog.show_for(window)
