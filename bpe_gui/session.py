"""Plain data of a training session: settings, the summary of a run, pair-count deltas."""
from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QCoreApplication

from .plural import plural


def _tr(text: str, n: int) -> str:
    return plural(QCoreApplication.translate("RunSummary", text, None, n), n)


@dataclass
class Options:
    """Training settings that need a (re-)load of the corpus when they change."""

    special_tokens: list[str] = field(default_factory=lambda: ["<|endoftext|>"])
    pattern: str | None = "gpt2"  # "gpt2", "gpt4", None (no pre-tokenization) or a custom regex
    tie_break: str = "lexicographic"


@dataclass(frozen=True)
class RunSummary:
    """What a finished (or cancelled) full run did; ``message`` is the sentence the UI shows."""

    n_merges: int
    vocab_size: int
    target: int
    cancelled: bool
    seconds: float
    message: str


def summarize_run(made: int, size: int, target: int, total_merges: int, n_special: int,
                  cancelled: bool, seconds: float) -> RunSummary:
    """The summary of a run that made ``made`` merges and left the vocab at ``size``.

    >>> summarize_run(0, 257, 1000, 0, 1, False, 0.1).message.startswith("No merges")
    True
    """
    if cancelled:
        msg = _tr("Cancelled after %n merge(s); they are kept (vocab size %1). Undo steps back one merge "
                  "at a time, Train → Rewind many at once.", made)
    elif made == 0 and size >= target:
        msg = _tr("Nothing to do: the vocab already has %1 tokens (target %2). Raise the vocab size to "
                  "train further.", -1)
    elif size >= target:
        msg = _tr("Trained %n merge(s) in %3 s; vocab size %1.", made)
    elif total_merges == 0:
        msg = _tr("No merges: the corpus has no pair of adjacent tokens to merge. The vocab is 256 bytes + "
                  "%n special token(s) = %1 tokens.", n_special)
    else:
        msg = _tr("Stopped at vocab size %1 (of %2 requested): no pair is left to merge (%n merge(s) in "
                  "this run).", made)
    msg = msg.replace("%1", f"{size:,}").replace("%2", f"{target:,}").replace("%3", f"{seconds:.1f}")
    return RunSummary(made, size, target, cancelled, seconds, msg)


def merge_deltas(records: list, sign: int = 1) -> dict:
    """Pair-count changes caused by ``records`` (``sign=-1`` for undoing them)."""
    out: dict = {}
    for r in records:
        for p, d in r.deltas:
            out[p] = out.get(p, 0) + sign * d
    return out
