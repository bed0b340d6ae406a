"""Extend a tokenizer: keep every token and id of a base tokenizer and learn new merges on a corpus.

The corpus is pre-tokenized the way the base tokenizer does it (its pattern and special tokens, or
its ``tokenizer.json`` pipeline: normalizer, added tokens, pre-tokenizers), each distinct pre-token
is encoded with the base, and BPE training goes on from those token sequences with the same rules
as :class:`core.Trainer` (the most frequent pair; ties to the greatest ``(bytes, bytes)`` pair or to
the pair seen first). It *is* a ``Trainer``: :class:`ExtendTrainer` only starts from token codes
instead of bytes (core/training/token_codes.py: each base token that occurs gets a code of its own) and numbers
its tokens after the base's, so stepping, undo and the views work on the new merges.

Ids: the base keeps all of its ids; each new token takes the next id after the base's highest. A
new merge whose bytes already are a token (of the base, or made earlier) makes that token: the
merge is added, the id is the existing one and the vocab does not grow (the base could not reach
that token inside the words where the pair occurs, e.g. ``" t" + "he"`` where the base makes ``" the"``
from ``" " + "the"``). Such a merge can be written to HF ``tokenizer.json``, GPT-2 files and
``bpe.json`` but not to a tiktoken file (tiktoken orders merges by the rank of the token made, so it
would apply the merge as early as the old token's rank): ``train --extend`` leaves the tiktoken
file out then, and says so. When encoding, base merges that use such a token may then apply after the
new merge (ranks decide), which the trainer's picture of the words does not show.

>>> from core.formats.spec import TokenizerSpec
>>> from core.tokenization.tokenizer import Tokenizer
>>> base = Tokenizer.from_spec(TokenizerSpec.from_merges([(b"a", b"b")], ["<s>"]))
>>> t = ExtendTrainer.from_texts(base, ["abab abab abc"])
>>> [(r.pair, r.new_id) for r in t.steps(2)]
[((b'ab', b'ab'), 258), ((b'ab', b'c'), 259)]
>>> t.vocab[258], t.vocab_size
(b'abab', 260)
"""

from __future__ import annotations

import itertools
import os
from array import array
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from functools import partial
from typing import Any

from core.bpe.support import hole_error
from core.errors import BPEError, Cancelled
from core.formats.spec import TokenizerSpec
from core.pretokenization.pretokenize import CorpusStats, Progress, count_pretokens
from core.tokenization.missing_bytes import locate
from core.tokenization.tokenizer import Tokenizer
from core.training.merge_kernels import object_array
from core.training.pair_index import WID_TYPECODE, PairIndex
from core.training.records import TIE_BREAKS, Pair, TieBreak
from core.training.token_codes import TokenCodes
from core.training.trainer import BATCH_MIN_WORDS, Trainer
from core.training.undo import TrainerStart


def _base_tokenizer(base: Tokenizer | TokenizerSpec) -> Tokenizer:
    tok = base if isinstance(base, Tokenizer) else Tokenizer.from_spec(base)
    if tok.char_model is not None:
        # its pieces are characters merged by score within words that its normalizer and ▁ define;
        # continuing byte-level BPE on its ids would merge across spaces and lines
        raise BPEError(
            "extending a SentencePiece-style (character-level) BPE tokenizer is not supported; "
            "extend a byte-level one (GPT-2, tokenizer.json, tiktoken, native bpe.json)",
            code="extend_char_level",
        )
    return tok


def base_words(
    base: Tokenizer,
    texts: Iterable[str] = (),
    files: Sequence[str | os.PathLike] = (),
    *,
    workers: int | None = None,
    progress: Progress | None = None,
) -> tuple[dict[tuple[int, ...], int], CorpusStats]:
    """The corpus as the base tokenizer sees it: each distinct pre-token's base token ids, with its
    count, in order of first appearance (special tokens and added tokens are left out)."""
    pretokens: Counter[str] = Counter()
    stats = CorpusStats()
    pipe = base._pipe
    if pipe is None and files:
        pattern = base.pattern_regex if base.pattern_regex is not None else "none"
        for f in files:
            counts, s = count_pretokens(
                f, base.special_tokens, pattern, workers=workers, progress=progress, pattern_of_file=True
            )
            for word, n in counts.items():
                pretokens[word.decode("utf-8", "surrogateescape")] += n
            stats.size_bytes += s.size_bytes
            stats.invalid_bytes += s.invalid_bytes
            stats.special_occurrences += s.special_occurrences
        texts = ()
    else:
        texts = itertools.chain(texts, *(_read_pieces(f, progress) for f in files))
    for text in texts:
        if pipe is not None:
            for piece, tid in pipe.pieces(text):
                if tid is None and piece:
                    pretokens.update(pipe.pretokenize(piece))
                elif tid is not None:
                    stats.special_occurrences += 1
        else:
            for piece, sid in base._pieces(text):
                if sid is None and piece:
                    pretokens.update(base._pretokens(piece))
                elif sid is not None:
                    stats.special_occurrences += 1
        stats.size_bytes += len(text.encode("utf-8", "surrogateescape"))
    hole = base._hole_re  # (a byte the vocab has no token for: said, with the file and its offset)
    if hole is not None and (bad := next((w for w in pretokens if hole.search(w)), None)) is not None:
        for f in files:
            found = locate(f, os.fspath(f), "the base tokenizer", base.unencodable_bytes)
            if found is not None:
                raise found
        raise hole_error(hole, bad)
    words: dict[tuple[int, ...], int] = {}
    encode = base._cache.__getitem__
    for w, c in pretokens.items():
        ids = encode(w)
        words[ids] = words.get(ids, 0) + c
    stats.distinct_pretokens = len(pretokens)
    stats.pretokens = sum(pretokens.values())
    return words, stats


def _read_pieces(path: str | os.PathLike, progress: Progress | None) -> Iterable[str]:
    """A text file in pieces of whole lines (about 1 MB each)."""
    from pathlib import Path

    p = Path(path)
    if not p.is_file():
        from core.errors import CorpusError
        from core.files import text_file_problem

        problem = text_file_problem(p, "corpus")
        if problem is not None:
            raise problem
        raise CorpusError(
            f"corpus {str(p)!r} does not exist or is not a file; check the path",
            code="corpus_not_regular",
            path=str(p),
        )
    total = p.stat().st_size
    done = 0
    with open(p, encoding="utf-8", errors="surrogateescape", newline="") as f:
        while True:
            lines = f.readlines(1 << 20)
            if not lines:
                return
            chunk = "".join(lines)
            done += len(chunk.encode("utf-8", "surrogateescape"))
            if progress is not None and progress("pretokenize", done, total) is False:
                raise Cancelled("pre-tokenization cancelled")
            yield chunk


def _code_index(words: list[str], wcounts: Sequence[int]) -> PairIndex:
    """The pair index of words given as token codes (what core.pair_index builds from bytes)."""
    counts: dict[str, int] = {}
    get = counts.get
    listed: defaultdict[str, array] = defaultdict(partial(array, WID_TYPECODE))
    for wid, w in enumerate(words):
        c = wcounts[wid]
        keys = [x + y for x, y in itertools.pairwise(w)]
        for k in keys:
            counts[k] = get(k, 0) + c
        for k in dict.fromkeys(keys):
            listed[k].append(wid)
    return PairIndex(counts, {k: bytearray(ids) for k, ids in listed.items()})


class ExtendTrainer(Trainer):
    """A :class:`core.Trainer` whose words start as a base tokenizer's tokens (see the module doc)."""

    def __init__(
        self,
        base: Tokenizer | TokenizerSpec,
        words: dict[tuple[int, ...], int],
        *,
        tie_break: TieBreak = "lexicographic",
        keep_history: bool = True,
        stats: CorpusStats | None = None,
        batch_min_words: int = BATCH_MIN_WORDS,
    ) -> None:
        if tie_break not in TIE_BREAKS:
            raise BPEError(f"tie_break must be 'lexicographic' or 'first', not {tie_break!r}")
        self.base = _base_tokenizer(base)
        vocab = self.base.vocab
        self.base_vocab_size = len(vocab)
        self._base_next_id = max(vocab) + 1
        self._base_ids = {b: i for i, b in sorted(vocab.items(), reverse=True) if not self.base.is_special(i)}
        self.special_tokens = list(self.base.special_tokens)
        self.pattern = self.base.pattern
        self.tie_break = tie_break
        self.keep_history = keep_history
        self.stats = stats or CorpusStats(distinct_pretokens=len(words), pretokens=sum(words.values()))
        self.batch_min_words = batch_min_words
        self.merges = []
        self.records = []
        self._history = []
        self._pending: Pair | None = None
        self._ids: list[int] = []  # the id each merge makes, for merges[: len(_ids)]
        self._new: dict[bytes, int] = {}  # the new tokens, with their ids
        codes = TokenCodes()  # (no free byte values: base tokens and new ones take codes from 256 on)
        code = codes.code_for
        strings = ["".join(code(vocab[i]) for i in ids) for ids in words]
        self._codes = codes
        self._original = tuple(b"".join(vocab[i] for i in ids) for ids in words)
        self._wcounts = tuple(words.values())
        self._wcounts_np = None
        self._interrupt = None
        self._long_wids = set()  # (words are pre-tokens of the base: no long-word path)
        self._long = {}
        self._long_stale = set()
        self._words = object_array(strings)
        self._index = _code_index(strings, self._wcounts)
        self._start = TrainerStart(self._words.copy(), self._index.start()) if keep_history else None

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_files(
        cls,
        base: Tokenizer | TokenizerSpec,
        paths: Sequence[str | os.PathLike],
        *,
        tie_break: TieBreak = "lexicographic",
        keep_history: bool = True,
        workers: int | None = None,
        progress: Progress | None = None,
    ) -> ExtendTrainer:
        tok = _base_tokenizer(base)
        words, stats = base_words(tok, files=list(paths), workers=workers, progress=progress)
        if len(paths) == 1:
            stats.name = os.path.basename(os.fspath(paths[0]))
        return cls(tok, words, tie_break=tie_break, keep_history=keep_history, stats=stats)

    @classmethod
    def from_texts(  # type: ignore[override]
        cls,
        base: Tokenizer | TokenizerSpec,
        texts: Iterable[str],
        *,
        tie_break: TieBreak = "lexicographic",
        keep_history: bool = True,
    ) -> ExtendTrainer:
        tok = _base_tokenizer(base)
        words, stats = base_words(tok, texts)
        return cls(tok, words, tie_break=tie_break, keep_history=keep_history, stats=stats)

    # ------------------------------------------------------------------ ids after the base's
    def _sync_ids(self) -> list[int]:
        """The id each merge makes (recomputed after an undo took merges away)."""
        n = len(self.merges)
        if len(self._ids) > n:
            self._ids.clear()
            self._new.clear()
        for a, b in self.merges[len(self._ids) :]:
            self._ids.append(self._id_for(a + b, add=True))
        return self._ids

    def _id_for(self, token: bytes, add: bool = False) -> int:
        i = self._base_ids.get(token)
        if i is None:
            i = self._new.get(token)
        if i is None:
            i = self._base_next_id + len(self._new)
            if add:
                self._new[token] = i
        return i

    def token_id(self, rank: int) -> int:
        ids = self._sync_ids()
        if rank < len(ids):
            return ids[rank]
        if rank == len(ids) and self._pending is not None:  # (asked by _merge before it appends)
            return self._id_for(self._pending[0] + self._pending[1])
        raise BPEError(f"merge {rank} has not been made")

    def _merge(self, pair: Pair, count: int, ties: tuple[Pair, ...], n_ties: int):
        self._pending = pair
        try:
            return super()._merge(pair, count, ties, n_ties)
        finally:
            self._pending = None

    @property
    def vocab_size(self) -> int:
        self._sync_ids()
        return self.base_vocab_size + len(self._new)

    @property
    def vocab(self) -> dict[int, bytes]:
        """The base's vocab plus the new tokens."""
        self._sync_ids()
        out = dict(self.base.vocab)
        out.update((i, t) for t, i in self._new.items())
        return out

    @property
    def reused(self) -> list[int]:
        """Ranks (in :attr:`merges`) of the new merges whose token already existed."""
        ids = self._sync_ids()
        seen: set[int] = set()
        out = []
        for r, i in enumerate(ids):
            if i < self._base_next_id or i in seen:
                out.append(r)
            seen.add(i)
        return out

    def run(self, vocab_size: int, progress=None, min_interval: int = 1, interrupt=None, max_merges=None):
        if vocab_size < self.base_vocab_size:
            raise BPEError(
                f"vocab size {vocab_size:,} is smaller than the base tokenizer's {self.base_vocab_size:,} "
                f"tokens; an extension keeps them all: choose a vocab size above {self.base_vocab_size:,}",
                code="extend_vocab_small",
                vocab_size=f"{vocab_size:,}",
                base=f"{self.base_vocab_size:,}",
            )
        return super().run(
            vocab_size,
            progress=progress,
            min_interval=min_interval,
            interrupt=interrupt,
            max_merges=max_merges,
        )

    def state(self) -> dict[str, Any]:
        raise BPEError("an extension's session is not saved as a trainer state; export the tokenizer")

    def to_spec(self, corpus_name: str | None = None) -> TokenizerSpec:
        """The extended tokenizer: the base's vocab, merges, pattern, special tokens and pipeline,
        plus the new tokens and merges (the training record lists the new merges only)."""
        from core.formats.spec import training_record

        base = self.base.to_spec()
        base_merges = tuple(base.merges)
        record = training_record(self, corpus_name)
        # per-merge lists cover every merge: the base's (unknown here: 0) then the new ones
        for key in ("counts", "n_ties", "words_changed", "occurrences_changed"):
            record[key] = [0] * len(base_merges) + record[key]
        record["extends"] = {"vocab_size": self.base_vocab_size, "merges": len(base_merges)}
        return TokenizerSpec(
            self.vocab,
            (*base_merges, *self.merges),
            base.special_tokens,
            base.pattern,
            self.tie_break,
            record,
            pipeline=base.pipeline,
            notes=(
                f"extends a tokenizer of {self.base_vocab_size:,} tokens with {len(self.merges):,} merges",
            ),
        )


def extension_base(spec: TokenizerSpec) -> TokenizerSpec | None:
    """The base tokenizer of an extended one (its training record says ``extends``: the base's vocab
    size and merge count), or None for a tokenizer that extends nothing. The base's tokens are the
    extension's lowest ids (new ids follow the base's highest), its merges the first ones."""
    ext = (spec.training or {}).get("extends")
    if not isinstance(ext, dict):
        return None
    n_vocab, n_merges = ext.get("vocab_size"), ext.get("merges")
    if (
        not isinstance(n_vocab, int)
        or not isinstance(n_merges, int)
        or not (0 <= n_vocab <= len(spec.vocab) and 0 <= n_merges <= len(spec.merges))
    ):
        raise BPEError(
            f"the training record says this tokenizer extends one of {n_vocab!r} tokens and {n_merges!r} "
            f"merges, which does not fit its {len(spec.vocab):,} tokens and {len(spec.merges):,} merges; "
            "the file is inconsistent, export it again",
            code="extend_record_mismatch",
            n_vocab=repr(n_vocab),
            n_merges=repr(n_merges),
            vocab=f"{len(spec.vocab):,}",
            merges=f"{len(spec.merges):,}",
        )
    ids = sorted(spec.vocab)[:n_vocab]
    return TokenizerSpec(
        {i: spec.vocab[i] for i in ids},
        tuple(spec.merges[:n_merges]),
        spec.special_tokens,
        spec.pattern,
        spec.tie_break,
        None,
        pipeline=spec.pipeline,
    )


def extend_tokenizer(
    base: Tokenizer | TokenizerSpec,
    corpus: str | os.PathLike | Sequence[str | os.PathLike],
    vocab_size: int,
    *,
    tie_break: TieBreak = "lexicographic",
    workers: int | None = None,
    progress: Progress | None = None,
) -> TokenizerSpec:
    """Learn merges on ``corpus`` (a file or several) on top of ``base`` until the vocab has
    ``vocab_size`` tokens (or no pair is left); returns the extended tokenizer's spec."""
    tok = _base_tokenizer(base)
    if not isinstance(vocab_size, int) or vocab_size < len(tok.vocab):
        raise BPEError(
            f"vocab size {vocab_size!r} is smaller than the base tokenizer's {len(tok.vocab):,} tokens; "
            f"an extension keeps them all: choose a vocab size above {len(tok.vocab):,}",
            code="extend_vocab_small",
            vocab_size=repr(vocab_size),
            base=f"{len(tok.vocab):,}",
        )
    paths = [corpus] if isinstance(corpus, (str, os.PathLike)) else list(corpus)
    t = ExtendTrainer.from_files(
        tok, paths, tie_break=tie_break, keep_history=False, workers=workers, progress=progress
    )
    t.run(vocab_size, progress=progress, min_interval=10)
    return t.to_spec()


__all__ = ["ExtendTrainer", "base_words", "extend_tokenizer", "extension_base"]
