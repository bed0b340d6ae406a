"""The summary of a training run, in the app's language (the session's plain data is in
:mod:`bpe_gui.model.session`)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication

from bpe_gui.text.plural import plural


@dataclass(frozen=True)
class RunSummary:
    """What a finished (or cancelled) full run did; ``message`` is the sentence the UI shows."""

    n_merges: int
    vocab_size: int
    target: int
    cancelled: bool
    seconds: float
    message: str


def summarize_run(
    made: int, size: int, target: int, total_merges: int, n_special: int, cancelled: bool, seconds: float
) -> RunSummary:
    """The summary of a run that made ``made`` merges and left the vocab at ``size``.

    >>> summarize_run(0, 257, 1000, 0, 1, False, 0.1).message.startswith("No merges")
    True
    """
    if cancelled:
        msg = QCoreApplication.translate(
            "RunSummary",
            "Cancelled after %n merge(s); they are kept (vocab size %1). Undo steps back one merge "
            "at a time, Train → Rewind many at once.",
            None,
            made,
        )
    elif made == 0 and size >= target:
        msg = QCoreApplication.translate(
            "RunSummary",
            "Nothing to do: the vocab already has %1 tokens (target %2). Raise the vocab size to "
            "train further.",
            None,
            -1,
        )
    elif size >= target:
        msg = QCoreApplication.translate(
            "RunSummary", "Trained %n merge(s) in %3 s; vocab size %1.", None, made
        )
    elif total_merges == 0:
        msg = QCoreApplication.translate(
            "RunSummary",
            "No merges: the corpus has no pair of adjacent tokens to merge. The vocab is 256 bytes + "
            "%n special token(s) = %1 tokens.",
            None,
            n_special,
        )
    else:
        msg = QCoreApplication.translate(
            "RunSummary",
            "Stopped at vocab size %1 (of %2 requested): no pair is left to merge (%n merge(s) in this run).",
            None,
            made,
        )
    msg = plural(msg, n_special if (total_merges == 0 and not cancelled and size < target) else made)
    msg = msg.replace("%1", f"{size:,}").replace("%2", f"{target:,}").replace("%3", f"{seconds:.1f}")
    return RunSummary(made, size, target, cancelled, seconds, msg)
