"""Exception types of the core.

Every user-facing error is a :class:`BPEError` (a ``ValueError``) whose message names the
problem and the fix, so the CLI can print it on one line and the GUI can show it in a dialog.
The message is English; errors a user can cause from the app also carry a ``code`` and its
``params`` so the app can say the same in its own language (``bpe_gui.text.errors``).

>>> e = SpecialTokenError("special token '<s>' is listed twice", code="special_duplicate", token="<s>")
>>> e.code, e.params, str(e)
('special_duplicate', {'token': '<s>'}, "special token '<s>' is listed twice")
"""

from __future__ import annotations

from typing import Any


def _rebuild(cls: type, message: str, code: str, params: dict[str, Any]) -> BPEError:
    return cls(message, code=code, **params)


class BPEError(ValueError):
    """Base class of all user-facing errors raised by ``core``.

    ``code`` names the kind of problem ("" when the error has no translation of its own) and
    ``params`` the values its message mentions.
    """

    def __init__(self, message: str = "", *, code: str = "", **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params

    def __reduce__(self):  # keep code and params across processes (pickle)
        return _rebuild, (type(self), str(self), self.code, self.params)


class CorpusError(BPEError):
    """The corpus cannot be trained on (UTF-16, binary, unreadable, ...)."""


class SpecialTokenError(BPEError):
    """A special-token list is invalid (empty string, duplicates, ...)."""


class PatternError(BPEError):
    """A pre-tokenizer pattern is not a valid regular expression."""


class FormatError(BPEError):
    """A tokenizer file is malformed; the message names the file and the line."""


class TokenizerError(BPEError):
    """An encode/decode request is invalid (unknown id, lone surrogate, ...)."""


class Cancelled(Exception):
    """Raised when a progress callback asked to stop. Not an error: the user cancelled."""

    records: list[Any]  # set when training stopped: the merges made before the stop
