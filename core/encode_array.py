"""Encode text straight to a NumPy array of ids by its distinct chunks (the ``.npy`` encoder's path).

For the patterns of :func:`core.space_chunks.is_space_safe`, a text's ids are the ids of its
space-separated chunks laid end to end (the cut rule and its proof are in :mod:`core.space_chunks`).
So a block of a corpus is cut into chunks (``str.split``), each chunk gets a number from a table of
the chunks seen so far (one dict lookup each), and the ids come out of one NumPy gather over the
table's ids. Only the chunks the table has not seen are pre-tokenized (all of them with one regex
call) and encoded. No Python list of ids is ever built for the text, which is where most of the time
of ``np.asarray(tokenizer.encode(text))`` goes on a large corpus.

Special tokens and the first chunk of each piece between them (it has no space before it) are
chunks of their own kind, keyed with a mark character the text does not hold. The table is cleared
when it holds :data:`MAX_KEYS` chunks or :data:`MAX_CHARS` characters (memory stays bounded).

>>> from core.spec import TokenizerSpec
>>> from core.tokenizer import Tokenizer
>>> tok = Tokenizer.from_spec(TokenizerSpec.from_merges([(b"h", b"i")], special_tokens=("<|e|>",)))
>>> encode_array(tok, "hi hi<|e|>hi").tolist() == tok.encode("hi hi<|e|>hi")
True
"""
from __future__ import annotations

from itertools import chain, compress, islice, repeat
from operator import is_
from typing import Any

import numpy as np

from .bpe_batch import prefill
from .space_chunks import _TEXT_MARKS, is_space_safe, mark_non_cuts_text
from .tokenizer_support import _SurrogateInText, hole_error, surrogate_error

MAX_KEYS = 1 << 20
MAX_CHARS = 1 << 26
_EMPTY = np.zeros(0, np.int64)


class _Table:
    """Chunks seen so far: key → number; per number, where its ids start in ``flat`` and how many."""

    def __init__(self, marks: tuple[str, ...]) -> None:
        self.marks = marks  # (non-cut space, first chunk of a piece, special token)
        self.clear()

    def clear(self) -> None:
        self.index: dict[str, int] = {}
        self.starts = _EMPTY
        self.lens = _EMPTY
        self.flat = _EMPTY
        self.chars = 0

    def add(self, keys: list[str], lens: np.ndarray, flat: np.ndarray) -> None:
        n = len(self.index)
        self.index.update(zip(keys, range(n, n + len(keys))))
        self.starts = np.concatenate([self.starts, self.flat.size + np.cumsum(lens) - lens])
        self.lens = np.concatenate([self.lens, lens])
        self.flat = np.concatenate([self.flat, flat])
        self.chars += sum(map(len, keys))


class ArrayEncoder:
    """The state kept by a tokenizer for :func:`encode_array` (the chunk table)."""

    def __init__(self, tokenizer: Any) -> None:
        self.tok = tokenizer
        self.table: _Table | None = None

    def encode(self, text: str) -> np.ndarray:
        tok = self.tok
        marks = tuple(islice((c for c in _TEXT_MARKS if c not in text), 3))
        if len(marks) < 3:  # (a text holding nearly every control character)
            return np.asarray(tok.encode(text, add_special_tokens=False), np.int64)
        table = self.table
        if table is None or table.marks != marks:
            table = _Table(marks)
            if self.table is None or marks == (_TEXT_MARKS[0], _TEXT_MARKS[1], _TEXT_MARKS[2]):
                self.table = table
        ph, head, special = marks
        keys: list[str] = []
        extra: list[str] = []  # the keys of first chunks and special tokens (a few per block)
        hole_re = tok._hole_re
        for piece, sid in tok._pieces(text):
            if sid is not None:
                extra.append(special + piece)
                keys.append(extra[-1])
            elif piece:
                if hole_re is not None and hole_re.search(piece):
                    raise hole_error(hole_re, piece)
                parts = mark_non_cuts_text(piece, ph).split(" ")
                if parts[0]:
                    parts[0] = head + parts[0]
                    extra.append(parts[0])
                    keys += parts
                else:
                    keys += islice(parts, 1, None)
        if not keys:
            return _EMPTY
        distinct = dict.fromkeys(keys)
        index = table.index
        if len(index) + len(distinct) > MAX_KEYS or table.chars > MAX_CHARS:
            table.clear()  # (memory stays bounded)
            index = table.index
        for k in extra:
            distinct.pop(k, None)
        new = list(compress(distinct, map(is_, map(index.get, distinct), repeat(None))))
        if new:
            self._learn_chunks(table, new)
        new = [k for k in dict.fromkeys(extra) if k not in index]
        if new:
            self._learn_others(table, new)
        ix = np.fromiter(map(table.index.__getitem__, keys), np.int64, len(keys))
        lens = table.lens[ix]
        ends = np.cumsum(lens)
        return table.flat[np.arange(int(ends[-1]) if ends.size else 0) - np.repeat(ends - lens - table.starts[ix], lens)]

    def _learn_chunks(self, table: _Table, new: list[str]) -> None:
        """Encode the chunks ``new`` (each starts after a space cut) and add them to ``table``."""
        tok = self.tok
        get = tok._cache.__getitem__
        toks = tok._pretokens(" " + " ".join(new).replace(table.marks[0], " "))
        prefill(tok, toks)  # the new pre-tokens merged all at once
        pre = list(map(get, toks))
        n_ids = np.fromiter(map(len, pre), np.int64, len(pre))
        flat = np.fromiter(chain.from_iterable(pre), np.int64, int(n_ids.sum()))
        # the chunk of each pre-token, by character offsets (chunk ends are pre-token ends)
        ends = np.cumsum(np.fromiter(map(len, new), np.int64, len(new)) + 1)
        stops = np.searchsorted(np.cumsum(np.fromiter(map(len, toks), np.int64, len(toks))), ends, side="right")
        table.add(new, np.add.reduceat(n_ids, np.concatenate([[0], stops[:-1]])), flat)

    def _learn_others(self, table: _Table, new: list[str]) -> None:
        """Encode first chunks and special tokens (keys starting with their mark) into ``table``."""
        tok = self.tok
        ph, _, special = table.marks
        get, split = tok._cache.__getitem__, tok._pretokens
        ids = [(tok.special_ids[k[1:]],) if k[0] == special else
               tuple(chain.from_iterable(map(get, split(k[1:].replace(ph, " "))))) for k in new]
        table.add(new, np.fromiter(map(len, ids), np.int64, len(ids)),
                  np.fromiter(chain.from_iterable(ids), np.int64, sum(map(len, ids))))


def encode_array(tokenizer: Any, text: str) -> np.ndarray:
    """``tokenizer.encode(text, add_special_tokens=False)`` as an ``int64`` array, by distinct chunks
    for the space-safe patterns (other tokenizers: their ``encode``)."""
    if tokenizer._pipe is not None or not is_space_safe(tokenizer.pattern_regex):
        return np.asarray(tokenizer.encode(text, add_special_tokens=False), np.int64)
    enc = tokenizer.__dict__.get("_arrays")
    if enc is None:
        enc = tokenizer._arrays = ArrayEncoder(tokenizer)
    try:
        return enc.encode(text)
    except _SurrogateInText:
        raise surrogate_error(text) from None
