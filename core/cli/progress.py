"""Progress bars on stderr for the command line: the core's ``progress(phase, done, total)`` callback
shown as one tqdm bar per phase (a leaf module: every command module uses it). Where stderr is not a
terminal (a log file, a batch job's output) a bar is a few whole lines instead: a bar redrawn five
times a second wrote thousands of carriage-return-separated updates into the log."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from tqdm import tqdm

LOG_STEP = 10  # a log line every this many percent of a phase
LOG_EVERY_S = 30.0  # ... or every this many seconds where the total is not known (a stream)


class LogBar:
    """What :class:`Progress` needs of a bar, as lines for a log: one when the phase starts, one each
    ``LOG_STEP`` percent (or ``LOG_EVERY_S`` seconds without a total), and one at its end."""

    def __init__(self, desc: str, unit: str, scale: bool, total: int | None) -> None:
        self.desc, self.unit, self.scale, self.total = desc, unit, scale, total
        self.n = 0
        self._t0 = self._said_t = time.monotonic()
        self._said: tuple[int, int | None] | None = None  # (n, total) of the last line
        self._step = -1

    def _size(self, k: float) -> str:
        if not self.scale:
            return f"{int(k):,}"
        from tqdm import tqdm

        return tqdm.format_sizeof(k, divisor=1000)

    def _say(self) -> None:
        elapsed = time.strftime("%H:%M:%S", time.gmtime(time.monotonic() - self._t0))
        unit = f" {self.unit}" if self.unit in ("B", "it") else f" {self.unit}s"
        if self.total:
            pct = min(100, self.n * 100 // self.total)
            line = f"{self.desc}: {pct:3d}% {self._size(self.n)}/{self._size(self.total)}{unit} [{elapsed}]"
        else:
            line = f"{self.desc}: {self._size(self.n)}{unit} [{elapsed}]"
        print(line, file=sys.stderr, flush=True)
        self._said, self._said_t = (self.n, self.total), time.monotonic()

    def update(self, k: float) -> None:
        self.n += int(k)
        if self.total:
            step = min(100, self.n * 100 // self.total) // LOG_STEP
            if step != self._step:
                self._step = step
                self._say()
        elif self._said is None or time.monotonic() - self._said_t >= LOG_EVERY_S:
            self._say()

    def refresh(self) -> None:
        pass

    def close(self) -> None:
        if self._said != (self.n, self.total):
            self._say()


def make_bar(
    desc: str, unit: str, scale: bool, total: int | None, tty: bool | None = None
) -> tqdm[Any] | LogBar:
    """A bar on stderr: tqdm's on a terminal, :class:`LogBar`'s lines elsewhere (``tty``: which,
    instead of asking stderr)."""
    if not (sys.stderr.isatty() if tty is None else tty):
        return LogBar(desc, unit, scale, total)
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
        self.bars: dict[str, tqdm[Any] | LogBar] = {}

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
