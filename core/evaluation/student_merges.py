"""Merge lists saved the ways students save a ``train_bpe`` result, for ``audit``.

A CS336 ``train_bpe`` returns ``(vocab, merges)`` with ``merges`` a list of ``(bytes, bytes)``;
students save it with :mod:`pickle` (the list, the ``(vocab, merges)`` tuple, or a dict with a
``"merges"`` key) or as JSON (a list of two-string lists, the strings made from the bytes by
``latin-1``, by GPT-2's byte-to-character table, or by UTF-8).

Pickles are read with an unpickler that builds only plain containers, bytes, strings and numbers:
a pickle that names any other class or function is refused, never run.

>>> import pickle, tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "merges.pkl"
>>> _ = p.write_bytes(pickle.dumps(({0: b"\\x00"}, [(b" ", b"t"), (b"h", b"e")])))
>>> read_student_merges(p)
[(b' ', b't'), (b'h', b'e')]
"""

from __future__ import annotations

import io
import json
import os
import pickle
from pathlib import Path
from typing import Any

from core.errors import FormatError
from core.training.records import Pair

PICKLE_SUFFIXES = (".pkl", ".pickle", ".p")

# what a pickle of builtin containers and bytes may name (protocol 2 writes bytes via _codecs)
_ALLOWED = {
    ("builtins", "bytes"),
    ("builtins", "bytearray"),
    ("builtins", "list"),
    ("builtins", "tuple"),
    ("builtins", "dict"),
    ("builtins", "set"),
    ("builtins", "frozenset"),
    ("_codecs", "encode"),
    ("collections", "OrderedDict"),
}


class _PlainUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _ALLOWED:
            return super().find_class(module, name)
        raise FormatError(
            f"the pickle holds a {module}.{name} object; only lists, tuples, dicts and bytes are read "
            "(save the merges as a list of (bytes, bytes) pairs)",
            code="merges_pickle_object",
            what=f"{module}.{name}",
        )


def is_pickle(path: Path) -> bool:
    """Whether ``path`` is a pickle: by its name, or by the opening byte of protocols 2 and later."""
    if path.suffix.lower() in PICKLE_SUFFIXES:
        return True
    try:
        with open(path, "rb") as f:
            head = f.read(2)
    except OSError:
        return False
    return len(head) == 2 and head[0] == 0x80 and 2 <= head[1] <= 5


def read_student_merges(path: str | os.PathLike) -> list[Pair] | None:
    """The merges of a pickle or a JSON list of pairs; None when ``path`` is neither (a tokenizer
    file for the other readers). Raises :class:`FormatError` naming what is wrong otherwise."""
    p = Path(path)
    if not p.is_file():
        return None
    if is_pickle(p):
        data = p.read_bytes()
        try:
            obj = _PlainUnpickler(io.BytesIO(data)).load()
        except FormatError as e:
            raise FormatError(f"{p.name}: {e}", code=e.code, name=p.name, **e.params) from None
        except Exception as e:  # any unpickling failure is a bad file
            raise FormatError(
                f"{p.name} is not a readable pickle ({type(e).__name__}: {e}); save the merges with "
                "pickle.dump(merges, f) in a file opened with 'wb'",
                code="merges_pickle_bad",
                name=p.name,
                why=f"{type(e).__name__}: {e}",
            ) from None
        return _pairs(_merges_of(obj, p), p, json_text=False)
    if p.suffix.lower() != ".json":
        return None
    try:
        obj = json.loads(p.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None  # the tokenizer readers say what is wrong
    if isinstance(obj, dict):
        merges = obj.get("merges")
        if "model" in obj or "format" in obj or not isinstance(merges, list):
            return None  # a tokenizer.json, vocab.json, our bpe.json … for the tokenizer readers
        if not all(
            isinstance(m, list) and len(m) == 2 and all(isinstance(t, str) for t in m) for m in merges
        ):
            return None  # not the string pairs a student writes ("a b" strings: a tokenizer's own JSON)
    return _pairs(_merges_of(obj, p), p, json_text=True)


def _merges_of(obj: Any, p: Path) -> list:
    """The list of pairs inside what ``train_bpe`` users save: the list, (vocab, merges), {"merges": …}."""
    if isinstance(obj, dict) and "merges" in obj:
        obj = obj["merges"]
    elif isinstance(obj, tuple) and len(obj) == 2 and isinstance(obj[0], dict):
        obj = obj[1]
    if not isinstance(obj, (list, tuple)):
        raise FormatError(
            f"{p.name} holds a {type(obj).__name__}, not a merge list; save the list of (bytes, bytes) "
            "pairs that train_bpe returns (or its (vocab, merges) tuple)",
            code="merges_not_a_list",
            name=p.name,
            kind=type(obj).__name__,
        )
    return list(obj)


def _pairs(items: list, p: Path, *, json_text: bool) -> list[Pair]:
    out: list[Pair] = []
    if json_text:
        decode = _json_decoder(items)
    for n, item in enumerate(items, start=1):
        if not isinstance(item, (list, tuple)) or len(item) != 2:
            raise FormatError(
                f"{p.name}: merge {n} is {item!r:.60}, not a pair of two tokens",
                code="merges_not_pairs",
                name=p.name,
                n=n,
                item=f"{item!r:.60}",
            )
        a, b = item
        if json_text:
            if not (isinstance(a, str) and isinstance(b, str)):
                raise FormatError(
                    f"{p.name}: merge {n} is {item!r:.60}; a JSON merge list holds pairs of strings",
                    code="merges_json_not_strings",
                    name=p.name,
                    n=n,
                    item=f"{item!r:.60}",
                )
            out.append((decode(a), decode(b)))
            continue
        if not (isinstance(a, (bytes, bytearray)) and isinstance(b, (bytes, bytearray))):
            raise FormatError(
                f"{p.name}: merge {n} is {item!r:.60}, not a pair of bytes; train_bpe's merges are "
                "(bytes, bytes) pairs: save them before turning them into strings",
                code="merges_not_bytes",
                name=p.name,
                n=n,
                item=f"{item!r:.60}",
            )
        out.append((bytes(a), bytes(b)))
    return out


def _json_decoder(items: list):
    """How the list's strings stand for bytes (the rule of JSON merge lists everywhere)."""
    from core.formats.merge_list import json_token_decoder

    return json_token_decoder(
        [s for it in items if isinstance(it, (list, tuple)) for s in it if isinstance(s, str)]
    )
