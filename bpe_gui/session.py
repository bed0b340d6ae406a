"""Plain data of a training session (no Qt): settings, the summary of a run, pair-count deltas."""
from __future__ import annotations

from dataclasses import dataclass, field


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
    from PySide6.QtCore import QCoreApplication  # the message is shown in the app's language

    translate = QCoreApplication.translate
    made_s, size_s, target_s = f"{made:,}", f"{size:,}", f"{target:,}"
    if cancelled:
        msg = translate("Session", "Cancelled after {0} merges; they are kept (vocab size {1}). "
                        "Undo steps back one merge at a time.").format(made_s, size_s)
    elif made == 0 and size >= target:
        msg = translate("Session", "Nothing to do: the vocab already has {0} tokens (target {1}). "
                        "Raise the vocab size to train further.").format(size_s, target_s)
    elif size >= target:
        msg = translate("Session", "Trained {0} merges in {1} s; vocab size {2}.").format(
            made_s, f"{seconds:.1f}", size_s)
    elif total_merges == 0:
        msg = translate("Session", "No merges: the corpus has no pair of adjacent tokens to merge. The vocab is "
                        "256 bytes + {0} special token(s) = {1} tokens.").format(n_special, size_s)
    else:
        msg = translate("Session", "Stopped at vocab size {0} (of {1} requested): no pair is left to merge "
                        "({2} merges in this run).").format(size_s, target_s, made_s)
    return RunSummary(made, size, target, cancelled, seconds, msg)


def merge_deltas(records: list, sign: int = 1) -> dict:
    """Pair-count changes caused by ``records`` (``sign=-1`` for undoing them)."""
    out: dict = {}
    for r in records:
        for p, d in r.deltas:
            out[p] = out.get(p, 0) + sign * d
    return out
