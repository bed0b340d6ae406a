"""The record of one executed line of a walk-through, and how values are shown."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

MAX_ITEMS = 24  # a list or dict shown beside the code is cut after this many items
MAX_FRAMES = 5000  # a walk-through stops recording after this many frames (the text is too long)


@dataclass(frozen=True)
class Frame:
    """One executed line: ``line`` is a 0-based index into the walk-through's code.

    ``values`` maps variable names to (copies of) their values at that moment, in display order;
    ``event`` names what happened (e.g. ``"count"``, ``"max"``) and ``args`` its parameters.
    """

    line: int
    event: str
    values: Mapping[str, Any] = field(default_factory=dict)
    args: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Walk:
    """A finished walk-through: its frames plus the results to check against the real code."""

    code: tuple[str, ...]
    frames: tuple[Frame, ...]
    result: Mapping[str, Any]
    truncated: bool = False  # the text was long: frames stop before the end (results are complete)

    def __getattr__(self, name: str) -> Any:
        try:
            return self.result[name]
        except KeyError:
            raise AttributeError(name) from None


class Shown:
    """A value beside the code that is shown by a fixed text (e.g. the 256-byte vocabulary, abridged)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Shown) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


#: the starting vocabulary of the 256 single bytes, as shown beside the code
BYTE_VOCAB = Shown("{0: b'\\x00', 1: b'\\x01', …, 97: b'a', 98: b'b', …, 255: b'\\xff'}  (256)")


def show(value: Any, limit: int = MAX_ITEMS) -> str:
    """A short text for a value beside the code: long lists and dicts are cut with "…".

    >>> show([1, 2, 3]), show({(104, 105): 1}), show(list(range(30)), 3)
    ('[1, 2, 3]', '{(104, 105): 1}', '[0, 1, 2, … (27 more)]')
    """
    if isinstance(value, Mapping):
        items = list(value.items())
        inner = ", ".join(f"{show(k, limit)}: {show(v, limit)}" for k, v in items[:limit])
        more = f", … ({len(items) - limit} more)" if len(items) > limit else ""
        return "{" + inner + more + "}"
    if isinstance(value, list):
        inner = ", ".join(show(v, limit) for v in value[:limit])
        more = f", … ({len(value) - limit} more)" if len(value) > limit else ""
        return "[" + inner + more + "]"
    if isinstance(value, tuple):
        inner = ", ".join(show(v, limit) for v in value)
        return "(" + inner + ("," if len(value) == 1 else "") + ")"
    return repr(value)


class Recorder:
    """Collects frames; stops recording (but not computing) after ``MAX_FRAMES``."""

    def __init__(self) -> None:
        self.frames: list[Frame] = []
        self.truncated = False

    def __call__(self, line: int, event: str, values: Mapping[str, Any], **args: Any) -> None:
        if len(self.frames) >= MAX_FRAMES:
            self.truncated = True
            return
        self.frames.append(Frame(line, event, dict(values), args))

    def last(self, line: int, event: str, values: Mapping[str, Any], **args: Any) -> None:
        """Record the closing frame (the summary): kept even when the frames before were cut."""
        self.frames.append(Frame(line, event, dict(values), args))
