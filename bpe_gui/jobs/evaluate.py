"""Background work and table model of the Evaluate view (no widgets here).

:class:`EvalJob` loads the tokenizers (the trained one at its current step, files, known
encodings), samples documents and runs :func:`core.evaluation.evaluate.evaluate` in a worker thread,
relaying throttled progress; a cancel stops it between blocks. :class:`HeldOutJob` measures the
current tokenizer's bytes/token on a held-out text while the learner steps.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QCoreApplication, QModelIndex, Qt

from bpe_gui.jobs import worker
from bpe_gui.model.session import tokenizer_from_args

PROGRESS_INTERVAL = 0.05  # seconds between progress signals


@dataclass(frozen=True)
class TokSource:
    """A tokenizer to evaluate: ``kind`` is "current" (args = tokenizer_args), "path" or "known"."""

    name: str
    kind: str
    value: Any = None  # tokenizer_args for "current", a path or a known encoding's name
    #: what it extends, when it is an extension: the base's TokenizerSpec, or a core Tokenizer whose
    #: training record says ``extends`` (an opened extended tokenizer); a file's record is read anyway
    base: Any = None
    #: "current" of an opened tokenizer: that core Tokenizer itself (its pattern, normalizer,
    #: post-processor or SentencePiece model are not in ``value``, which holds the training panel's pattern)
    tokenizer: Any = None


@dataclass(frozen=True)
class Gain:
    """An extension's tokens on one text, against its base's: the compression the new merges gained."""

    tokenizer: str
    file: str
    base_tokens: int
    tokens: int

    @property
    def saved(self) -> int:
        """Fewer tokens with the extension (negative: more)."""
        return self.base_tokens - self.tokens

    @property
    def share(self) -> float:
        """:attr:`saved` as a share of the base's tokens."""
        return self.saved / self.base_tokens if self.base_tokens else 0.0


BASE_KEY = "\x00base\x00"  # (marks a base's results among the evaluated ones: no name holds it)


def base_tokenizer(src: TokSource, built: Any) -> Any:
    """The base tokenizer of ``src`` (built as ``built``) when it is an extension, else None."""
    from core.formats.spec import TokenizerSpec
    from core.tokenization.extend import extension_base
    from core.tokenization.tokenizer import Tokenizer

    base = src.base
    if isinstance(base, TokenizerSpec):
        return Tokenizer.from_spec(base)
    tok = base if base is not None else built
    training = getattr(tok, "training", None)
    if not (isinstance(training, dict) and "extends" in training):
        return None
    spec = extension_base(tok.to_spec())
    return None if spec is None else Tokenizer.from_spec(spec)


@dataclass(frozen=True)
class TextSource:
    """A file to evaluate on, whole (sample=0) or ``sample`` documents drawn with ``seed``."""

    path: str
    sample: int = 0
    seed: int = 0

    @property
    def label(self) -> str:
        if not self.sample:
            return self.path
        return QCoreApplication.translate("Evaluate", "{path} ({n} docs, seed {seed})").format(
            path=self.path, n=f"{self.sample:,}", seed=self.seed
        )


def build_tokenizer(src: TokSource):
    from core.evaluation.known_encodings import load_eval_tokenizer
    from core.tokenization.tokenizer import Tokenizer

    if src.kind == "current":
        return src.tokenizer if src.tokenizer is not None else tokenizer_from_args(src.value)
    return Tokenizer.from_spec(load_eval_tokenizer(src.value))


class EvalJob(worker.Job):
    """Evaluate tokenizers × texts; ``result.value`` is ``(results, {name: Tokenizer}, gains)``: an
    extension's tokenizer is also measured with its base, and ``gains`` lists each text's
    :class:`Gain` (the base's own results are not among ``results``)."""

    kind = "evaluate"

    def __init__(
        self, toks: list[TokSource], texts: list[TextSource], split_on: str | None, workers: int | None = None
    ) -> None:
        super().__init__()
        self.toks, self.texts, self.split_on, self.workers = toks, texts, split_on, workers
        self._last = 0.0

    def _progress(self, phase: str, done: int, total: int) -> bool:
        now = time.monotonic()
        if now - self._last >= PROGRESS_INTERVAL or done >= total:
            self._last = now
            self.progress.emit(phase, done, total)
        return not self.cancel_requested

    def work(self) -> None:
        from core.errors import Cancelled
        from core.evaluation.evaluate import DEFAULT_SPLIT, EvalText, evaluate, sample_documents

        built = {}
        bases = {}  # the extensions' bases: their token counts give each file's gain
        for i, src in enumerate(self.toks):
            if self.cancel_requested:
                raise Cancelled("evaluation cancelled")
            self.progress.emit("load", i, len(self.toks))
            built[src.name] = build_tokenizer(src)
            base = base_tokenizer(src, built[src.name])
            if base is not None:
                bases[BASE_KEY + src.name] = base
        texts = []
        for t in self.texts:
            if t.sample:
                texts.append(sample_documents(t.path, t.sample, t.seed, self.split_on or DEFAULT_SPLIT))
            else:
                texts.append(EvalText.from_file(t.path, t.label))
        results = evaluate(
            list(built.items()) + list(bases.items()),
            texts,
            split_on=self.split_on,
            workers=self.workers,
            progress=self._progress,
            niceness=worker.WORKER_NICENESS,
        )
        if self.cancel_requested:  # asked after the last block: still a cancel
            raise Cancelled("evaluation cancelled")
        base_tokens = {(r.tokenizer, r.file): r.tokens for r in results if r.tokenizer.startswith(BASE_KEY)}
        results = [r for r in results if not r.tokenizer.startswith(BASE_KEY)]
        gains = [
            Gain(r.tokenizer, r.file, base_tokens[BASE_KEY + r.tokenizer, r.file], r.tokens)
            for r in results
            if (BASE_KEY + r.tokenizer, r.file) in base_tokens
        ]
        self.result.value = (results, built, gains)


class HeldOutJob(worker.Job):
    """bytes/token of a tokenizer (built from plain data) on a held-out text."""

    kind = "held-out"

    def __init__(self, n_merges: int, args: tuple, text: str) -> None:
        super().__init__()
        self.n_merges, self.args, self.text = n_merges, args, text

    def work(self) -> None:
        tok = tokenizer_from_args(self.args)
        n = len(tok.encode(self.text))
        self.result.value = (self.n_merges, len(self.text.encode("utf-8", "surrogateescape")) / max(n, 1))


COLUMNS = (
    ("tokenizer", lambda: QCoreApplication.translate("Evaluate", "Tokenizer"), "{}"),
    ("file", lambda: QCoreApplication.translate("Evaluate", "Text"), "{}"),
    ("bytes", lambda: QCoreApplication.translate("Evaluate", "Bytes"), "{:,}"),
    ("documents", lambda: QCoreApplication.translate("Evaluate", "Docs"), "{:,}"),
    ("tokens", lambda: QCoreApplication.translate("Evaluate", "Tokens"), "{:,}"),
    ("bytes_per_token", lambda: QCoreApplication.translate("Evaluate", "Bytes/token"), "{:.3f}"),
    ("chars_per_token", lambda: QCoreApplication.translate("Evaluate", "Chars/token"), "{:.3f}"),
    ("tokens_per_doc_mean", lambda: QCoreApplication.translate("Evaluate", "Tokens/doc"), "{:,.1f}"),
    ("tokens_per_doc_p50", lambda: QCoreApplication.translate("Evaluate", "p50"), "{:,.0f}"),
    ("tokens_per_doc_p95", lambda: QCoreApplication.translate("Evaluate", "p95"), "{:,.0f}"),
    ("vocab_used_share", lambda: QCoreApplication.translate("Evaluate", "Vocab used"), "{:.1%}"),
    ("never_used", lambda: QCoreApplication.translate("Evaluate", "Never used"), "{:,}"),
    ("single_byte_share", lambda: QCoreApplication.translate("Evaluate", "1-byte tokens"), "{:.2%}"),
    ("byte_fallback_share", lambda: QCoreApplication.translate("Evaluate", "Byte fallback"), "{:.3%}"),
    ("mb_per_s_one_process", lambda: QCoreApplication.translate("Evaluate", "MB/s (1 process)"), "{:.2f}"),
    ("mb_per_s", lambda: QCoreApplication.translate("Evaluate", "MB/s (all)"), "{:.2f}"),
    ("pile_hours", lambda: QCoreApplication.translate("Evaluate", "Pile (h)"), "{:,.1f}"),
)


#: the columns that are measurements of time (not shown for a text too small to time)
TIMED_COLUMNS = frozenset({"mb_per_s_one_process", "mb_per_s", "pile_hours"})


class ResultsModel(QAbstractTableModel):
    """The evaluation results, one row per tokenizer × text."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list = []

    def set_rows(self, rows: list) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section][1]()
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        r = self.rows[index.row()]
        key, _, fmt = COLUMNS[index.column()]
        value = getattr(r, key)
        untimed = key in TIMED_COLUMNS and not getattr(r, "timed", True)
        if role == Qt.ItemDataRole.DisplayRole:
            if untimed:
                return "–"
            return "–" if value is None else fmt.format(value)
        if role == Qt.ItemDataRole.ToolTipRole and untimed:
            return QCoreApplication.translate(
                "Evaluate",
                "The text is too small to time (under 1 MB): start-up costs swamp the encoding, so no "
                "speed or Pile estimate is given. Evaluate on a larger text to measure them.",
            )
        if role == Qt.ItemDataRole.TextAlignmentRole and not isinstance(value, str):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
