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
    if cancelled:
        msg = (f"Cancelled after {made:,} merges; they are kept (vocab size {size:,}). "
               f"Undo steps back one merge at a time.")
    elif made == 0 and size >= target:
        msg = (f"Nothing to do: the vocab already has {size:,} tokens (target {target:,}). "
               f"Raise the vocab size to train further.")
    elif size >= target:
        msg = f"Trained {made:,} merges in {seconds:.1f} s; vocab size {size:,}."
    elif total_merges == 0:
        msg = (f"No merges: the corpus has no pair of adjacent tokens to merge. The vocab is "
               f"256 bytes + {n_special} special token(s) = {size:,} tokens.")
    else:
        msg = (f"Stopped at vocab size {size:,} (of {target:,} requested): no pair is left to merge"
               f" ({made:,} merges in this run).")
    return RunSummary(made, size, target, cancelled, seconds, msg)


def merge_deltas(records: list, sign: int = 1) -> dict:
    """Pair-count changes caused by ``records`` (``sign=-1`` for undoing them)."""
    out: dict = {}
    for r in records:
        for p, d in r.deltas:
            out[p] = out.get(p, 0) + sign * d
    return out
