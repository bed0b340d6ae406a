"""Dead and odd tokens of any tokenizer: what no text reaches, what no merges build, partial UTF-8.

For every ordinary (non-special) token of a :class:`core.Tokenizer`:

- ``unreachable_text``: its bytes are whole UTF-8, but encoding that text as a user would (the
  tokenizer's own normalizer, added and special tokens, pre-tokenization; no post-processor)
  does not give that one token, e.g. a Thai word
  the pattern splits between a letter and its combining vowel, or a compatibility ideograph that
  NFC turns into another character;
- ``unreachable_merges``: a token of two or more bytes that applying the merges to its bytes alone
  (no pre-tokenization, no whole-word lookup) does not build (no merge makes it, or earlier merges
  take its bytes apart first);
  (for a SentencePiece-style model, only pieces that start a word, ``▁the``, reached at a text's
  start or after another word, and byte pieces of characters that have a piece of their own: a
  word's inside, ``ing``, is reached only within a word);
- ``partial_utf8``: its bytes are not whole UTF-8 (part of a character, or invalid bytes); such a
  token has no text of its own, so it is never in ``unreachable_text``;
- ``specials``: the special / added tokens; ``longest``: the longest tokens by bytes.

With corpus files, every file is encoded and ``never_used`` lists the ordinary tokens no file uses;
each file also gets its own count of unused tokens and its least used ones.

>>> from core.formats.spec import TokenizerSpec
>>> from core.tokenization.tokenizer import Tokenizer
>>> tok = Tokenizer.from_spec(TokenizerSpec.from_merges([(b"a", b"b"), (b"b", b"c"), (b"a", b"bc")]))
>>> r = inspect_tokenizer(tok)  # "abc" is built by no merge order, but as a whole word it is one token
>>> [tok.vocab[i] for i in r.unreachable_merges], [tok.vocab[i] for i in r.unreachable_text]
([b'abc'], [])
"""

from __future__ import annotations

import heapq
import itertools
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from core.errors import Cancelled
from core.tokenization.missing_bytes import naming_the_file
from core.tokenization.tokenizer import Tokenizer

Progress = Callable[[str, int, int], "bool | None"]
LONGEST = 20  # how many of the longest tokens are listed
LEAST_USED = 20  # how many of the least used tokens are listed per file
BATCH = 4096  # tokens encoded at once


@dataclass(frozen=True)
class FileUse:
    """How one corpus file uses the vocabulary."""

    name: str
    n_tokens: int  # tokens the file encodes to
    never_used: int  # ordinary tokens it never uses
    least_used: tuple[tuple[int, int], ...]  # (id, count) of the used tokens used least, rarest first


@dataclass(frozen=True)
class InspectResult:
    vocab_size: int
    unreachable_text: list[int]
    unreachable_merges: list[int]
    partial_utf8: list[int]
    specials: list[int]
    longest: list[int]
    never_used: list[int] | None = None  # with corpus files only
    files: tuple[FileUse, ...] = field(default=())
    longest_bytes: int = 0  # the length of the longest token
    #: added tokens a tokenizer.json marks "special": false (OLMo 1's runs of spaces); not in ``specials``
    added: list[int] = field(default_factory=list)

    def summary(self) -> str:
        """The one-line summary of counts the CLI prints."""
        longest = f"; longest {self.longest_bytes:,} bytes" if self.longest else ""
        line = (
            f"{self.vocab_size:,} tokens: {len(self.unreachable_text):,} unreachable from their text, "
            f"{len(self.unreachable_merges):,} unreachable by merges, {len(self.partial_utf8):,} partial "
            f"UTF-8, {len(self.specials):,} special"
            + (f", {len(self.added):,} added (not special)" if self.added else "")
            + longest
        )
        if self.never_used is not None:
            n = len(self.files)
            line += f"; {len(self.never_used):,} never used in {n:,} file{'s' if n != 1 else ''}"
        return line

    def to_json(self) -> dict[str, Any]:
        """``unreachable_text``, ``unreachable_merges``, ``partial_utf8`` (ids), ``never_used`` (ids,
        or null without corpus files), ``specials``, ``added`` (added tokens that are not special),
        ``longest``, ``vocab_size``, ``summary`` and
        per file its token count, unused count and least used ``[id, count]`` pairs."""
        return {
            "vocab_size": self.vocab_size,
            "summary": self.summary(),
            "unreachable_text": self.unreachable_text,
            "unreachable_merges": self.unreachable_merges,
            "partial_utf8": self.partial_utf8,
            "specials": self.specials,
            "added": self.added,
            "longest": self.longest,
            "longest_bytes": self.longest_bytes,
            "never_used": self.never_used,
            "files": [
                {
                    "name": f.name,
                    "tokens": f.n_tokens,
                    "never_used": f.never_used,
                    "least_used": [list(x) for x in f.least_used],
                }
                for f in self.files
            ],
        }


def _is_utf8(b: bytes) -> bool:
    try:
        b.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _merge_builds(tok: Tokenizer) -> Callable[[int, bytes], list[int]]:
    """What the merges alone make of token ``i`` (its bytes ``b``), with no whole-word lookup: the
    byte-level merges of its bytes, or a SentencePiece-style model's merges of its piece's characters."""
    model = tok.char_model
    if model is not None:

        def by_piece(i: int, b: bytes) -> list[int]:
            piece = model.piece(i)
            if not piece or model.kind(i) != "normal":
                return [i]  # (byte, user-defined, control and unknown pieces are whole by definition)
            return list(model.encode_word(piece))

        return by_piece
    return lambda i, b: tok.merge_bytes(b)


def inspect_tokenizer(
    tok: Tokenizer,
    corpus: Iterable[str | os.PathLike] = (),
    *,
    progress: Progress | None = None,
    longest: int = LONGEST,
    least_used: int = LEAST_USED,
) -> InspectResult:
    """Find the unreachable, partial, special and longest tokens of ``tok`` (and, with ``corpus``
    files, the tokens they never use). ``progress(phase, done, total)`` gets the phases "inspect"
    (tokens) and "encode" (bytes); returning False raises :class:`core.Cancelled`."""

    def tick(phase: str, done: int, total: int) -> None:
        if progress is not None and progress(phase, done, total) is False:
            raise Cancelled("inspect cancelled")

    special_set = set(tok.special_ids.values())
    added = sorted(i for i in special_set if tok.is_plain_added(i))
    specials = sorted(special_set.difference(added))
    ordinary = [(i, b) for i, b in sorted(tok.vocab.items()) if i not in special_set]
    build = _merge_builds(tok)
    partial: list[int] = []
    texts: list[tuple[int, str]] = []
    by_merges: list[int] = []
    n = len(ordinary)
    for k, (i, b) in enumerate(ordinary):
        if k % BATCH == 0:
            tick("inspect", k // 2, n)
        if len(b) > 1 and build(i, b) != [i]:
            by_merges.append(i)
        if _is_utf8(b):
            texts.append((i, b.decode("utf-8")))
        else:
            partial.append(i)
    by_text: list[int] = []
    for k in range(0, len(texts), BATCH):
        tick("inspect", n // 2 + k // 2, n)
        batch = texts[k : k + BATCH]
        encoded = _encode_batch(tok, [t for _, t in batch])
        by_text.extend(i for (i, _), ids in zip(batch, encoded) if ids != [i])
    if tok.char_model is not None and by_text:
        by_text = _sentencepiece_unreachable(tok, by_text, dict(texts))
    tick("inspect", n, n)
    top = heapq.nlargest(longest, ordinary, key=lambda x: (len(x[1]), -x[0]))
    files = tuple(corpus)
    never: list[int] | None = None
    uses: list[FileUse] = []
    if files:
        size = max(tok.vocab) + 1
        total_counts = np.zeros(size, dtype=np.int64)
        ordinary_ids = np.array([i for i, _ in ordinary], dtype=np.int64)
        for path in files:
            counts = file_token_counts(tok, path, size, tick)
            total_counts += counts
            uses.append(_file_use(Path(path).name, counts, ordinary_ids, least_used))
        never = ordinary_ids[total_counts[ordinary_ids] == 0].tolist()
    result = InspectResult(
        vocab_size=len(tok.vocab),
        unreachable_text=by_text,
        unreachable_merges=by_merges,
        partial_utf8=partial,
        specials=specials,
        added=added,
        longest=[i for i, _ in top],
        never_used=never,
        files=tuple(uses),
        longest_bytes=len(top[0][1]) if top else 0,
    )
    return result


def _sentencepiece_unreachable(tok: Tokenizer, candidates: list[int], text_of: dict[int, str]) -> list[int]:
    """Which of ``candidates`` (pieces whose text alone does not encode to them) no text reaches, for a
    SentencePiece-style model, whose pieces stand for text differently from byte-level tokens:

    - a piece with ▁ (a space) starts a word: it is reached at a text's start, where the model adds
      the space itself (``the`` gives ``▁the``), or after another word (``a the`` gives ``▁a ▁the``,
      ``a `` gives ``▁a ▁``: ▁ alone is an extra space);
    - a piece without ▁ is a word's inside (``ing``): it is reached only within a word, so it is not
      listed here (the merges' check tells whether its characters build it);
    - a byte piece (``<0x41>``) is reached only for a character that has no piece of its own: it is
      listed when encoding its byte's character does not use it (``A`` and the space have pieces)."""
    model = tok.char_model
    assert model is not None
    bytes_ = [i for i in candidates if model.kind(i) == "byte"]
    words = [i for i in candidates if model.kind(i) != "byte" and text_of[i].startswith(" ")]
    reached = {i for i, ids in zip(bytes_, _encode_batch(tok, [text_of[i] for i in bytes_])) if i in ids}
    for context in (lambda t: t[1:], lambda t: "a" + t):
        left = [i for i in words if i not in reached]
        encoded = _encode_batch(tok, [context(text_of[i]) for i in left])
        reached.update(i for i, ids in zip(left, encoded) if ids[-1:] == [i])
    return [i for i in candidates if i not in reached and (i in bytes_ or i in words)]


def _encode_batch(tok: Tokenizer, texts: list[str]) -> list[list[int]]:
    """Each text encoded as a user would (:meth:`core.Tokenizer.encode_many`); [] for a text the
    tokenizer refuses (a byte its vocab lacks: the token is not reachable)."""
    return [ids if ids is not None else [] for ids in tok.encode_many(texts)]


def file_token_counts(
    tok: Tokenizer,
    path: str | os.PathLike,
    size: int,
    tick: Callable[[str, int, int], None],
    name: str = "the tokenizer",
) -> np.ndarray:
    """How often each id (below ``size``) occurs in the encoding of one file: exactly
    ``encode(text)`` of the whole file, streamed (:meth:`core.Tokenizer.encode_iterable`) and
    counted in batches. ``tick("encode", bytes_done, total)`` follows the reading; ``name`` is the
    tokenizer's name in an error (a byte of the file it has no token for)."""
    p = Path(path)
    if not p.is_file():
        from core.errors import CorpusError
        from core.files import text_file_problem

        problem = text_file_problem(p, "text file")
        if problem is not None:
            raise problem
        raise CorpusError(
            f"text file {str(p)!r} does not exist or is not a file; check the path",
            code="corpus_not_regular",
            path=str(p),
        )
    total = p.stat().st_size
    counts = np.zeros(size, dtype=np.int64)
    done = 0

    def pieces(f) -> Iterable[str]:
        nonlocal done
        tick("encode", 0, total)
        while True:
            lines = f.readlines(1 << 20)
            if not lines:
                return
            chunk = "".join(lines)
            done += len(chunk.encode("utf-8", "surrogateescape"))
            yield chunk
            tick("encode", done, total)

    with (
        naming_the_file(p, name, tok.unencodable_bytes),
        open(p, encoding="utf-8", errors="surrogateescape", newline="") as f,
    ):
        ids = tok.encode_iterable(pieces(f))
        while True:
            batch = np.fromiter(itertools.islice(ids, 1 << 20), dtype=np.int64)
            if not batch.size:
                break
            counts += np.bincount(batch, minlength=size)
    return counts


def _file_use(name: str, counts: np.ndarray, ordinary_ids: np.ndarray, k: int) -> FileUse:
    c = counts[ordinary_ids]
    used = np.flatnonzero(c)
    order = used[np.lexsort((ordinary_ids[used], c[used]))][:k]
    return FileUse(
        name,
        int(counts.sum()),
        int(ordinary_ids.size - used.size),
        tuple((int(ordinary_ids[j]), int(c[j])) for j in order),
    )
