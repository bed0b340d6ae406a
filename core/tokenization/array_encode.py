"""Encode large texts straight into NumPy arrays of ids (the ``.npy`` path), with a cache of arrays.

:meth:`core.Tokenizer.encode` returns a list of Python ints, built by chaining the cached tuple of
ids of every pre-token: at a few hundred thousand pre-tokens per megabyte that chaining, and merging
the new words a few hundred at a time, is most of its cost. An :class:`ArrayEncoder` keeps the ids of
every word it has seen end to end in one array (``flat``), with each word's start and length, and a
dict from the word to its entry. Encoding a text is then

1. the pre-tokens of the text between special tokens (the tokenizer's own splitter), and each special
   token's own text where one is (no pre-token can equal it), in text order;
2. one pass of dict lookups (``np.fromiter`` over ``map(index.__getitem__, …)``, C speed for the
   known words); a new word gets the next entry number from the dict's ``__missing__``;
3. the new words (each distinct one once) merged all together with :func:`core.bpe.batch.bpe_batch`
   (one batch for the whole text) or one by one by the tokenizer's own rule, and appended;
4. one gather of the entries' ids (``np.repeat`` of starts, plus ``np.arange``): no Python object per id.

The ids are those of ``tokenizer.encode(text, add_special_tokens=False)``: the same splitter, the
same special tokens (longest first), the same rule per word (a pre-token that is a token is that
token; others merged by rank or merges). A tokenizer with an imported HF pipeline (normalizer,
added-token flags) goes through ``encode`` itself.

The cache holds about ``limit`` words: when a text starts with more, the words put in first (the
frequent ones, in Zipf text) are kept, up to half the limit, and the others dropped. Words longer
than :data:`core.bpe.support.CACHE_MAX_WORD` characters are not kept past the text they came
in (their ids stay in ``flat``, which is bounded by :data:`FLAT_LIMIT`, until room is made).

>>> from core.formats.spec import TokenizerSpec
>>> from core.tokenization.tokenizer import Tokenizer
>>> tok = Tokenizer.from_spec(TokenizerSpec.from_merges([(b"h", b"i")], special_tokens=["<|e|>"]))
>>> ArrayEncoder(tok).encode("hi hi<|e|>hi").tolist(), tok.encode("hi hi<|e|>hi")
([257, 32, 257, 256, 257], [257, 32, 257, 256, 257])
"""

from __future__ import annotations

import threading
from itertools import chain, islice, repeat
from typing import Any

import numpy as np

from core.bpe.batch import BATCH_MAX_BYTES, EncodingParts, bpe_batch
from core.bpe.support import CACHE_MAX_WORD, SurrogateInText, hole_error, surrogate_error

#: fewer new words than this in a text are merged one by one (a batch has a fixed cost in NumPy calls)
BATCH_MIN_WORDS = 32
#: words kept at most (about 130 bytes each). Twice the tokenizer's cache: on text with millions of
#: distinct words (Zipf) it keeps more of the tail, so fewer words are merged again
WORD_LIMIT = 1 << 20
#: ids kept at most (8 bytes each: 64 MB), counting those of long words no longer used (a million
#: words of the benchmark corpus hold ~5 million ids)
FLAT_LIMIT = 1 << 23


class ArrayEncoder:
    """Encodes texts with ``tokenizer`` into ``int64`` arrays, keeping the ids of words seen before
    (at most ``limit`` words); a text's new words are merged in one batch when there are at least
    ``batch_min`` of them."""

    def __init__(self, tokenizer: Any, limit: int = WORD_LIMIT, batch_min: int = BATCH_MIN_WORDS) -> None:
        self.tok = tokenizer
        self.parts: EncodingParts = tokenizer.encoding_parts
        self.limit = max(2, limit)
        self.batch_min = batch_min
        self.index = _Index()  # word or special token -> entry
        self.flat = np.zeros(1 << 16, np.int64)  # the ids of every entry, end to end
        self.start = np.zeros(1 << 12, np.int64)  # where each entry's ids begin in flat
        self.length = np.zeros(1 << 12, np.int64)  # how many ids each entry has
        self.n = 0  # entries in use
        self.n_flat = 0  # ids of flat in use
        # a special token's key is its text: no pre-token equals it, since the text between special
        # tokens holds none (the scan for them would have found it); all keys are str, which keeps
        # the dict on CPython's faster lookup for str-only keys
        specials = list(tokenizer.special_ids)
        self.index.update(zip(specials, range(len(specials))))
        self._append(
            np.asarray([tokenizer.special_ids[s] for s in specials], np.int64),
            np.ones(len(specials), np.int64),
        )
        self.n_kept = self.n  # entries never dropped (the special tokens)
        # one text at a time: a Dask worker runs tasks in several threads, sharing the process's encoder
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ encoding
    def encode(self, text: str) -> np.ndarray:
        """The ids of ``text`` (``tokenizer.encode(text, add_special_tokens=False)``) as ``int64``."""
        if self.parts.has_pipeline:  # (a normalizer and added-token flags: the pipeline's own path)
            return np.asarray(self.tok.encode(text, add_special_tokens=False), np.int64)
        try:
            with self._lock:
                return self._encode(text)
        except SurrogateInText:
            raise surrogate_error(text) from None

    def _encode(self, text: str) -> np.ndarray:
        toks = self._pretokens(text)
        if not toks:
            return np.zeros(0, np.int64)
        if self.n > self.limit or self.n_flat > FLAT_LIMIT:
            self._make_room()
        index = self.index
        index.next, index.new = self.n, []
        # one pass: a known word gives its entry at C speed; a new one (Python, once per distinct
        # new word) the next entry number, and is listed in index.new
        idx = np.fromiter(map(index.__getitem__, toks), np.int64, len(toks))
        new = index.new
        if new:
            try:
                self._learn(new)
            except BaseException:
                for w in new:  # (no entry was made for them)
                    del index[w]
                raise
            if max(map(len, new)) > CACHE_MAX_WORD:
                for w in new:
                    if len(w) > CACHE_MAX_WORD:  # not kept (its ids stay in flat until room is made)
                        del index[w]
        return self._gather(idx)

    def _pretokens(self, text: str) -> list[str]:
        """The pre-tokens of the text between special tokens, and each special token (its text) where one is."""
        parts = self.parts
        split = parts.split
        hole = parts.hole_re
        sre = parts.special_re
        if sre is None:
            if hole is not None and hole.search(text):
                raise hole_error(hole, text)
            return split(text) if text else []
        out: list[str] = []
        pos = 0
        for m in sre.finditer(text):
            if m.start() > pos:
                piece = text[pos : m.start()]
                if hole is not None and hole.search(piece):
                    raise hole_error(hole, piece)
                out += split(piece)
            out.append(m.group())
            pos = m.end()
        if pos < len(text):
            piece = text[pos:]
            if hole is not None and hole.search(piece):
                raise hole_error(hole, piece)
            out += split(piece)
        return out

    def _gather(self, idx: np.ndarray) -> np.ndarray:
        """The ids of entries ``idx``, one after another."""
        lengths = self.length[idx]
        if idx.size and not (lengths - 1).any():  # every word is one token
            return self.flat[self.start[idx]]
        return _segments(self.flat, self.start[idx], lengths)

    # ------------------------------------------------------------------ new words
    def _learn(self, words: list[str]) -> None:
        """Add the entries of the new ``words`` (numbered in their order by :class:`_Index`)."""
        parts = self.parts
        try:
            raw = list(map(str.encode, words, repeat("utf-8"), repeat("surrogateescape")))
        except UnicodeEncodeError:
            raise SurrogateInText from None
        whole = parts.encoder.get
        pick = [1 < len(b) <= BATCH_MAX_BYTES and whole(b) is None for b in raw]
        n_batch = sum(pick)
        batch_words: list[str] = []
        ids = counts = np.zeros(0, np.int64)
        if n_batch >= self.batch_min:
            table = parts.pair_table()
            batch_raw = [b for b, p in zip(raw, pick) if p]
            if (
                not (table.byte_ids < 0).any()
                or (table.byte_ids[np.frombuffer(b"".join(batch_raw), np.uint8)] >= 0).all()
            ):
                ids, counts = bpe_batch(batch_raw, table)
                batch_words = [w for w, p in zip(words, pick) if p]
            else:
                pick = [False] * len(words)
        else:
            pick = [False] * len(words)
        rest = [w for w, p in zip(words, pick) if not p]
        if rest:
            got = list(map(parts.encode_word, rest))
            ids = np.concatenate([ids, np.fromiter(chain.from_iterable(got), np.int64)])
            counts = np.concatenate([counts, np.fromiter(map(len, got), np.int64, len(got))])
            if batch_words:  # laid out batched words first, the others after: put each in its place
                batched = np.asarray(pick, bool)
                order = np.argsort(~batched, kind="stable")
                starts = np.empty(len(words), np.int64)
                starts[order] = np.cumsum(counts) - counts
                counts = counts[np.argsort(order, kind="stable")]
                ids = _segments(ids, starts, counts)
        self._append(ids, counts)

    def _append(self, ids: np.ndarray, counts: np.ndarray) -> None:
        """Entries ``n``, ``n + 1``, … with ``counts`` ids each, ``ids`` end to end."""
        n, m = self.n, counts.size
        if n + m > self.start.size:
            size = max(2 * self.start.size, n + m)
            self.start = _grown(self.start, size)
            self.length = _grown(self.length, size)
        if self.n_flat + ids.size > self.flat.size:
            self.flat = _grown(self.flat, max(2 * self.flat.size, self.n_flat + ids.size))
        self.flat[self.n_flat : self.n_flat + ids.size] = ids
        self.length[n : n + m] = counts
        self.start[n : n + m] = self.n_flat + np.cumsum(counts) - counts
        self.n += m
        self.n_flat += ids.size

    def _make_room(self) -> None:
        """Keep the entries put in first, up to half the limit (the dict's order is the entries' order)."""
        keep = max(self.n_kept, min(self.n, self.limit // 2))
        if keep > self.n_kept and self.start[keep - 1] + self.length[keep - 1] > FLAT_LIMIT // 2:
            keep = self.n_kept  # (the first entries hold the ids of long words no longer used: start again)
        index = self.index
        at = int(np.searchsorted(np.fromiter(index.values(), np.int64, len(index)), keep))
        self.index = _Index(islice(index.items(), at))
        self.n = keep
        self.n_flat = int(self.start[keep - 1] + self.length[keep - 1]) if keep else 0


class _Index(dict):
    """word -> entry; a missing word gets entry ``next`` (then ``next`` moves on) and is appended to
    ``new``: one ``map(index.__getitem__, words)`` looks up the known words and numbers the new ones."""

    next = 0
    new: list[str]

    def __missing__(self, word: str) -> int:
        i = self[word] = self.next
        self.next = i + 1
        self.new.append(word)
        return i


def _grown(a: np.ndarray, size: int) -> np.ndarray:
    out = np.zeros(size, a.dtype)
    out[: a.size] = a
    return out


def _segments(flat: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """``flat[starts[0]:starts[0] + lengths[0]]``, then the next segment, … as one array."""
    ends = np.cumsum(lengths)
    total = int(ends[-1]) if ends.size else 0
    # position in flat of output id k: its segment's start + (k - where that segment's ids begin)
    shift = np.repeat(starts - (ends - lengths), lengths)
    shift += np.arange(total, dtype=np.int64)
    return flat[shift]
