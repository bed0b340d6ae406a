"""Exception types of the core.

Every user-facing error is a :class:`BPEError` (a ``ValueError``) whose message names the
problem and the fix, so the CLI can print it on one line and the GUI can show it in a dialog.
"""
from __future__ import annotations


class BPEError(ValueError):
    """Base class of all user-facing errors raised by ``core``."""


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
