"""Progress bars on stderr for the command line: the core's ``progress(phase, done, total)`` callback
shown as one tqdm bar per phase (a leaf module: every command module uses it)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from tqdm import tqdm


def make_bar(desc: str, unit: str, scale: bool, total: int | None) -> tqdm[Any]:
    from tqdm import tqdm

    return tqdm(
        total=total,
        desc=desc,
        unit=unit,
        unit_scale=scale,
        unit_divisor=1000,  # decimal kB/MB, as the app says sizes (core.units)
        file=sys.stderr,
        leave=True,
        dynamic_ncols=True,
        mininterval=0.2,
    )


class Progress:
    """Adapts the core's ``progress(phase, done, total)`` callback to one tqdm bar per phase."""

    LABELS: ClassVar[dict[str, tuple[str, str, bool]]] = {
        "pretokenize": ("pre-tokenize", "B", True),
        "merge": ("merge", "merge", False),
        "encode": ("encode", "B", True),
    }

    def __init__(
        self, enabled: bool = True, extra_labels: dict[str, tuple[str, str, bool]] | None = None
    ) -> None:
        self.enabled = enabled
        # (description, unit, scale with binary prefixes) for phases a command adds to the usual ones
        self.labels = {**self.LABELS, **(extra_labels or {})}
        self.bars: dict[str, tqdm[Any]] = {}

    def __call__(self, phase: str, done: int, total: int) -> bool:
        if not self.enabled:
            return True
        known = total if total > 0 else None  # (0: a stream, whose size is not known)
        bar = self.bars.get(phase)
        if bar is None:
            self.close()  # one bar at a time: the previous phase is over
            desc, unit, scale = self.labels.get(phase, (phase, "it", False))
            bar = self.bars[phase] = make_bar(desc, unit, scale, known)
        if bar.total != known:
            bar.total = known
            bar.refresh()
        bar.update(done - bar.n)
        return True

    def finish(self, phase: str) -> None:
        """End ``phase``'s bar at the count reached (a corpus that ran out of pairs stops early)."""
        bar = self.bars.get(phase)
        if bar is not None and bar.total is not None and bar.n < bar.total:
            bar.total = bar.n
            bar.refresh()

    def close(self) -> None:
        for bar in self.bars.values():
            bar.close()
        self.bars.clear()
