"""Sessions: a native ``bpe.json`` plus what the explorer needs to pick up where the user left off.

A session file is a valid ``bpe.json`` (any tool that reads the native format reads it) with one
more top-level key, ``"session"``::

    "session": {"version": 1, "corpus_path": "/home/me/corpus.txt", "corpus_bytes": 1234,
                "corpus_mtime": 1700000000.5, "vocab_target": 1000, "step_n": 10,
                "text": "the tokenize view's text"}

Reopening checks the corpus against its size, modification time and content (``corpus_digest``,
:mod:`core.formats.corpus_digest`): when it changed (or is gone), the saved tokenizer is still shown, from
the file alone.

>>> import tempfile, pathlib
>>> from core.formats.spec import TokenizerSpec
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> spec = TokenizerSpec.from_merges([(b"a", b"b")], ["<s>"])
>>> p = save_session(d / "s.bpe.json", spec, corpus_path=None, text="hi")
>>> s = load_session(p)
>>> (s.spec == spec, s.text, s.corpus_state())
(True, 'hi', 'none')
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import FormatError
from core.files import atomic_write, read_text
from core.formats._io import MAX_ID, load_json
from core.formats.corpus_digest import corpus_digest
from core.formats.native import native_json, spec_from_native
from core.formats.spec import TokenizerSpec

SESSION_KEY = "session"
SESSION_VERSION = 1
SESSION_SUFFIX = ".bpe.json"


@dataclass(frozen=True)
class Session:
    """A saved session: the tokenizer (with its training record) and the explorer's state."""

    spec: TokenizerSpec
    corpus_path: str | None = None
    corpus_bytes: int | None = None
    corpus_mtime: float | None = None
    vocab_target: int | None = None
    step_n: int | None = None
    text: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    #: the corpus content's fingerprint (:func:`core.formats.corpus_digest.corpus_digest`; None in older files)
    corpus_digest: str | None = None

    def corpus_state(self) -> str:
        """``"none"`` (no corpus saved), ``"missing"``, ``"changed"`` (size, time or content differ) or ``"same"``."""
        if not self.corpus_path:
            return "none"
        try:
            st = os.stat(self.corpus_path)
        except OSError:
            return "missing"
        if st.st_size != self.corpus_bytes:
            return "changed"
        if self.corpus_mtime is not None and abs(st.st_mtime - self.corpus_mtime) > 1e-3:
            return "changed"
        if self.corpus_digest is not None:  # an edit that kept the size and restored the time
            try:
                if corpus_digest(self.corpus_path) != self.corpus_digest:
                    return "changed"
            except OSError:
                return "missing"
        return "same"


def corpus_fingerprint(path: str | os.PathLike) -> tuple[int, float]:
    """(size in bytes, modification time) of a corpus file."""
    st = os.stat(path)
    return st.st_size, st.st_mtime


def session_json(
    spec: TokenizerSpec,
    *,
    corpus_path: str | os.PathLike | None = None,
    vocab_target: int | None = None,
    step_n: int | None = None,
    text: str | None = None,
    compare: dict[str, Any] | None = None,
    selected: int | None = None,
) -> str:
    """The text of a session file for ``spec`` (a native ``bpe.json`` with a ``"session"`` key)."""
    info: dict[str, Any] = {
        "version": SESSION_VERSION,
        "corpus_path": None,
        "corpus_bytes": None,
        "corpus_mtime": None,
        "corpus_digest": None,
        "vocab_target": vocab_target,
        "step_n": step_n,
        "text": text,
    }
    if (
        compare is not None
    ):  # the tokenizer compared with: {"path": file or [vocab, merges], "options": {...}}
        info["compare"] = compare
    if selected is not None:  # the merge selected in the explorer (its rank, 0 = the first merge)
        info["selected"] = selected
    if corpus_path is not None:
        path = Path(corpus_path).resolve()
        try:
            size, mtime = corpus_fingerprint(path)
            digest = corpus_digest(path)
        except OSError as e:
            raise FormatError(
                f"cannot read the corpus {path} to save the session: {e.strerror}",
                code="session_corpus_unreadable",
                path=str(path),
                reason=str(e.strerror),
            ) from e
        info.update(corpus_path=str(path), corpus_bytes=size, corpus_mtime=mtime, corpus_digest=digest)
    body = native_json(spec).rstrip()
    if not body.endswith("}"):  # pragma: no cover - native_json always writes an object
        raise FormatError("internal error: the native text is not a JSON object")
    return body[:-1].rstrip() + f',\n "{SESSION_KEY}": {json.dumps(info, ensure_ascii=False)}\n}}\n'


def save_session(path: str | os.PathLike, spec: TokenizerSpec, **state: Any) -> Path:
    """Write a session file atomically (see :func:`session_json` for ``state``); returns its path."""
    return atomic_write(Path(path), session_json(spec, **state))


def load_session(path: str | os.PathLike) -> Session:
    """Read a session file; a plain ``bpe.json`` opens as a session without a corpus."""
    path = Path(path)
    text = read_text(path, "session")
    data = load_json(path, text)
    spec = spec_from_native(path, text, data)
    info = data.get(SESSION_KEY) or {}
    if not isinstance(info, dict):
        raise FormatError(
            f'{path}: "{SESSION_KEY}" must be an object', code="session_not_object", file=str(path)
        )
    version = info.get("version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise FormatError(
            f"{path}: session.version {version!r} is not a positive integer",
            code="session_version_invalid",
            file=str(path),
            shown=repr(version)[:40],
        )
    if version > SESSION_VERSION:
        raise FormatError(
            f"{path}: session version {version} is newer than this program reads "
            f"({SESSION_VERSION}); update BPE Explorer",
            code="session_newer",
            file=str(path),
            version=version,
            supported=SESSION_VERSION,
        )

    def typed(key: str, kinds: tuple) -> Any:
        value = info.get(key)
        if value is not None and (not isinstance(value, kinds) or isinstance(value, bool)):
            raise FormatError(
                f"{path}: session.{key} has the wrong type ({type(value).__name__})",
                code="session_field_type",
                file=str(path),
                field=f"session.{key}",
                kind=type(value).__name__,
            )
        return value

    for key, low in (("vocab_target", 1), ("step_n", 1)):
        value = typed(key, (int,))
        if value is not None and not low <= value < MAX_ID:  # (the app's fields hold 32-bit ints)
            raise FormatError(
                f"{path}: session.{key} is {value}; it must be from {low} to 2^31-1",
                code="session_field_range",
                file=str(path),
                field=f"session.{key}",
                value=value,
                low=low,
            )
    return Session(
        spec,
        typed("corpus_path", (str,)),
        typed("corpus_bytes", (int,)),
        typed("corpus_mtime", (int, float)),
        typed("vocab_target", (int,)),
        typed("step_n", (int,)),
        typed("text", (str,)),
        {k: v for k, v in info.items() if k not in _KNOWN},
        typed("corpus_digest", (str,)),
    )


_KNOWN = frozenset(
    {
        "version",
        "corpus_path",
        "corpus_bytes",
        "corpus_mtime",
        "corpus_digest",
        "vocab_target",
        "step_n",
        "text",
    }
)
