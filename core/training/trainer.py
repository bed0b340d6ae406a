"""The steppable, undoable byte-level BPE trainer: a facade over its parts.

- core/training/records.py: :class:`MergeRecord` (what a merge did, and why) and the undo history entry;
- core/training/token_codes.py: words are strings with one character per token;
- core/training/pair_index.py: pair counts, count buckets with a lazily-deleting heap, word ids per pair;
- core/training/merge_kernels.py: merging a pair word by word or in one batch, returning the changes;
- core/training/long_words.py: very long words (a whole document) as linked lists of tokens;
- core/training/views.py: what an app reads between steps;
- core/training/undo.py: undo, rewind and reset.

A merge only touches the words that contain the merged pair.

>>> t = Trainer.from_text("aaabdaaabac", pattern="none")
>>> [r.pair for r in t.steps(3)]
[(b'a', b'a'), (b'aa', b'a'), (b'aaa', b'b')]
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager

import numpy as np

from core.errors import BPEError, Cancelled
from core.memory import paused_gc
from core.pretokenization.pattern_probe import check_training_pattern
from core.pretokenization.pretokenize import (
    CorpusStats,
    Progress,
    check_special_tokens,
    count_pretokens,
    count_pretokens_ordered,
    count_texts,
)
from core.pretokenization.sharded_count import word_bytes as words_bytes
from core.training.count_bounds import check_counts
from core.training.heap import release_free_memory
from core.training.long_words import LongWord
from core.training.memory_need import lean_engine
from core.training.merge_kernels import (
    BATCH_BLOCK_CHARS,
    Interrupted,
    WordsMerge,
    merge_batch,
    merge_words,
    object_array,
)
from core.training.pair_index import SMALL_CORPUS_BYTES, build_index
from core.training.records import (
    MAX_TIES_SHOWN,
    TIE_BREAKS,
    HistoryEntry,
    MergeRecord,
    Pair,
    PairDeltas,
    TieBreak,
)
from core.training.token_codes import BYTE_TOKENS, TokenCodes
from core.training.undo import TrainerStart, TrainerUndo
from core.training.vocab import build_vocab, check_vocab_size
from core.training.word_store import WordBytes

__all__ = [
    "BYTE_TOKENS",
    "MergeRecord",
    "Pair",
    "TieBreak",
    "Trainer",
    "build_vocab",
    "check_vocab_size",
    "train_bpe",
]

# A merge whose pair is indexed in at least this many words is done for all of them at once
BATCH_MIN_WORDS = 4096
# Words of more tokens than this are merged as a LongWord, at a cost proportional to a merge's
# sites rather than to the word's length
LONG_WORD_TOKENS = 4096


def _cancelled(records: list) -> Cancelled:
    """The exception a stopped run raises (made here: a local variable holding it in run()'s
    frame would tie frame and traceback in a cycle, kept alive where cyclic GC is off)."""
    exc = Cancelled(f"training cancelled after {len(records)} merges")
    exc.records = records
    return exc


class Trainer(TrainerUndo):
    """A BPE training session over counted pre-tokens.

    Build it with :meth:`from_file`, :meth:`from_text` or :meth:`from_texts` (pre-tokenization
    happens once), then :meth:`step`, :meth:`steps`, :meth:`run` and :meth:`undo`.
    ``keep_history=False`` (train_bpe, the CLI) trains leaner: no undo, and records count their
    ties without listing the tied pairs. ``batch_min_words``, ``long_word_tokens``,
    ``small_corpus_bytes`` and ``batch_block_chars`` choose between equivalent code paths (tests force each one with them).
    """

    batch_block_chars = BATCH_BLOCK_CHARS  # (class defaults too: subclasses build themselves)
    _changed_since_trim = 0
    # how many merges done now made each token code (None: a subclass whose words may hold codes
    # of more than one byte from the start, whose history keeps every old string)
    _live: Counter[str] | None = None

    def __init__(
        self,
        word_counts: Mapping[bytes, int],
        special_tokens: Iterable[str] | None = None,
        *,
        pattern: str | None = "gpt2",
        tie_break: TieBreak = "lexicographic",
        keep_history: bool = True,
        stats: CorpusStats | None = None,
        batch_min_words: int = BATCH_MIN_WORDS,
        long_word_tokens: int = LONG_WORD_TOKENS,
        small_corpus_bytes: int = SMALL_CORPUS_BYTES,
        batch_block_chars: int = BATCH_BLOCK_CHARS,
    ) -> None:
        if tie_break not in TIE_BREAKS:
            raise BPEError(f"tie_break must be 'lexicographic' or 'first', not {tie_break!r}")
        self.special_tokens: list[str] = check_special_tokens(special_tokens)
        check_counts(list(word_counts), list(word_counts.values()))  # positive ints; pair sums fit int64
        self.pattern = pattern
        self.tie_break: TieBreak = tie_break
        self.keep_history = keep_history
        self.stats = stats or CorpusStats(
            distinct_pretokens=len(word_counts), pretokens=sum(word_counts.values())
        )
        self.batch_min_words = batch_min_words
        self.batch_block_chars = batch_block_chars
        self.merges: list[Pair] = []
        self.records: list[MergeRecord] = []
        self._history: list[HistoryEntry] = []
        # data that never changes is kept in tuples, which the garbage collector stops visiting;
        # the words' bytes in one buffer (8 bytes a word and their lengths, not a tuple of objects)
        keys = tuple(word_counts)
        original = WordBytes(keys)
        self._original: Sequence[bytes] = original
        self._wcounts: tuple[int, ...] = tuple(word_counts.values())
        self._wcounts_np: np.ndarray | None = None  # the word counts as a NumPy array (made when needed)
        self._interrupt: Callable[[], bool] | None = None  # run()'s interrupt, checked inside merges
        # words merged as LongWords (made on first merge), never in a batch (their lengths only shrink)
        self._long_wids = set(np.flatnonzero(original.lengths() > long_word_tokens).tolist())
        self._long: dict[int, LongWord] = {}
        self._long_stale: set[int] = set()  # long words whose string in _words is out of date
        with paused_gc():
            # word id -> its tokens' codes, in a NumPy array of str objects: a merge reads and
            # writes many words at once by fancy indexing, and the collector never walks its items
            self._words: np.ndarray = object_array([w.decode("latin-1") for w in keys])
            self._index, free = build_index(keys, self._wcounts, small_corpus_bytes)
        del keys
        release_free_memory()  # (the index's temporary arrays)
        self._changed_since_trim = 0  # words rewritten since the heap was last trimmed
        self._codes = TokenCodes(free)
        self._live = Counter()
        # the state at 0 merges, for a reset without undoing merge by merge (memory: one pointer
        # per distinct word and the byte-pair counts; the strings are the history's anyway, except
        # those of long words, which a reset decodes again from _original rather than keep twice)
        self._start: TrainerStart | None = None
        if keep_history:  # (the words at 0 merges are decoded again from _original on a reset)
            self._start = TrainerStart(None, self._index.start())

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_file(
        cls,
        path: str | os.PathLike,
        special_tokens: Iterable[str] | None = None,
        *,
        pattern: str | None = "gpt2",
        tie_break: TieBreak = "lexicographic",
        workers: int | None = None,
        progress: Progress | None = None,
        keep_history: bool = True,
        niceness: int = 0,
    ) -> Trainer:
        counts, stats = count_pretokens_ordered(
            path, special_tokens, pattern, workers=workers, progress=progress, niceness=niceness
        )
        return cls(
            counts,
            special_tokens,
            pattern=pattern,
            tie_break=tie_break,
            keep_history=keep_history,
            stats=stats,
        )

    @classmethod
    def from_text(
        cls,
        text: str | bytes,
        special_tokens: Iterable[str] | None = None,
        *,
        pattern: str | None = "gpt2",
        tie_break: TieBreak = "lexicographic",
        keep_history: bool = True,
    ) -> Trainer:
        counts, stats = count_pretokens(text, special_tokens, pattern, workers=1, is_text=True)
        return cls(
            counts,
            special_tokens,
            pattern=pattern,
            tie_break=tie_break,
            keep_history=keep_history,
            stats=stats,
        )

    @classmethod
    def from_texts(
        cls,
        texts: Iterable[str],
        special_tokens: Iterable[str] | None = None,
        *,
        pattern: str | None = "gpt2",
        tie_break: TieBreak = "lexicographic",
        keep_history: bool = True,
    ) -> Trainer:
        counts, stats = count_texts(texts, special_tokens, pattern)
        return cls(
            counts,
            special_tokens,
            pattern=pattern,
            tie_break=tie_break,
            keep_history=keep_history,
            stats=stats,
        )

    # ------------------------------------------------------------------ merging
    def step(self, interrupt: Callable[[], bool] | None = None) -> MergeRecord | None:
        """Merge the best pair; return its record, or None when no pair is left.

        With ``interrupt``, checked every few thousand words: when it returns True the merge is
        rolled back and :class:`Cancelled` is raised (nothing changed).
        """
        best = self._best()
        if best is None:
            return None
        pair, count, bucket = best
        n_ties = len(bucket) - 1
        ties = tuple(self._sorted_ties(bucket, pair, MAX_TIES_SHOWN)) if n_ties and self.keep_history else ()
        if interrupt is None:
            return self._merge(pair, count, ties, n_ties)
        self._interrupt = interrupt
        try:
            return self._merge(pair, count, ties, n_ties)
        except Interrupted:
            raise Cancelled("step interrupted; nothing changed") from None
        finally:
            self._interrupt = None

    def merge(self, pair: Pair) -> MergeRecord:
        """Merge a given pair (used to replay saved merges); it must currently occur."""
        best = self._best()
        if best is not None and best[0] == pair:  # what a step would merge: keep the story of its ties
            pair, count, bucket = best
            n_ties = len(bucket) - 1
            ties = (
                tuple(self._sorted_ties(bucket, pair, MAX_TIES_SHOWN)) if n_ties and self.keep_history else ()
            )
            return self._merge(pair, count, ties, n_ties)
        count = self.pair_count(pair)
        if count <= 0:
            raise BPEError(
                f"pair {pair!r} does not occur in the corpus now; it cannot be merged",
                code="pair_absent",
                shown=repr(pair),
            )
        return self._merge(pair, count, (), 0)

    def steps(self, n: int) -> list[MergeRecord]:
        """Up to ``n`` merges (fewer when the corpus runs out of pairs)."""
        out = []
        for _ in range(n):
            r = self.step()
            if r is None:
                break
            out.append(r)
        return out

    def run(
        self,
        vocab_size: int,
        progress: Progress | None = None,
        min_interval: int = 1,
        interrupt: Callable[[], bool] | None = None,
        max_merges: int | None = None,
    ) -> list[MergeRecord]:
        """Merge until ``vocab_size`` is reached or no pair is left (or ``max_merges`` merges are made:
        Step N of an extension, whose merges that remake an existing token add none).

        ``progress("merge", done, total)`` is called after every ``min_interval`` merges; when it
        returns False the run stops after the current merge (state stays consistent) and
        :class:`Cancelled` is raised with ``.records`` holding the merges done in this run.
        ``interrupt()`` is checked after every merge and every few thousand words inside one: when
        it returns True the run stops the same way, and a merge in progress is rolled back (a
        cancel then takes milliseconds even where one merge changes 50,000 words).
        """
        check_vocab_size(vocab_size, len(self.special_tokens))
        target = vocab_size - self.vocab_size
        out: list[MergeRecord] = []
        self._interrupt = interrupt
        with paused_gc(), self._interruptible():
            while self.vocab_size < vocab_size and (max_merges is None or len(out) < max_merges):
                try:
                    r = self.step()
                except Interrupted:
                    raise _cancelled(out) from None
                if r is None:
                    break
                out.append(r)
                stop = interrupt is not None and interrupt()
                if not stop and progress is not None and len(out) % min_interval == 0:
                    stop = progress("merge", len(out), target) is False
                if stop:
                    raise _cancelled(out)
        if progress is not None:
            progress("merge", len(out), max(target, len(out)))
        return out

    @contextmanager
    def _interruptible(self) -> Iterator[None]:
        try:
            yield
        finally:
            self._interrupt = None

    def _merge(self, pair: Pair, count: int, ties: tuple[Pair, ...], n_ties: int) -> MergeRecord:
        a, b = pair
        codes = self._codes
        ca, cb, cab = codes.code[a], codes.code[b], codes.code_for(a + b)
        index = self._index
        key = ca + cb
        history = self.keep_history
        # no word holds cab before this merge where no merge done now made it: undo then splits
        # cab again rather than keep the changed words' old strings
        live = self._live
        split = live is not None and not live[cab]
        done: WordsMerge | None = None
        if index.n_listed(key) >= self.batch_min_words:
            wids = index.ids(key)
            if not self._long_wids or self._long_wids.isdisjoint(wids.tolist()):
                # (a long word is merged word by word: arrays over a 20 MB word would take gigabytes)
                if self._wcounts_np is None:
                    self._wcounts_np = np.array(self._wcounts, dtype=np.int64)
                done = merge_batch(
                    self._words,
                    wids,
                    self._wcounts_np,
                    ca,
                    cb,
                    cab,
                    codes.sep,
                    codes.fits_16_bits,
                    self._interrupt,
                    self.batch_block_chars,
                    keep_olds=history and not split,
                )
        if done is None:
            done = merge_words(
                self._words,
                index.ids(key),
                self._wcounts,
                ca,
                cb,
                cab,
                self._long,
                self._long_wids,
                self._interrupt,
                keep_olds=history and not split,
            )
        # nothing has changed until here: apply the merge
        self._words[done.written] = done.news
        self._changed_since_trim += len(done.written)
        long_undos = tuple((wid, lw.apply(plan, history)) for wid, lw, plan in done.long_plans)
        self._long_stale.update(wid for wid, _lw, _plan in done.long_plans)
        # what undo cuts the index back to (else each redo of a merge adds its ids again)
        sizes = index.add_word_ids(done.new_index, report=history)
        changes = index.apply_deltas(done.deltas, report=history, forget=not history)
        deltas = PairDeltas.of_keys(changes, codes.token) if changes else ()
        rank = len(self.merges)
        record = MergeRecord(
            rank=rank,
            pair=pair,
            new_id=self.token_id(rank),
            count=count,
            ties=ties,
            n_ties=n_ties,
            words_changed=len(done.wids),
            occurrences_changed=done.occurrences,
            deltas=deltas,
        )
        self.merges.append(pair)
        self.records.append(record)
        if history:
            if split:
                entry = HistoryEntry(record, done.wids, None, sizes, long_undos, (cab, ca + cb))
            else:
                entry = HistoryEntry(record, done.wids, done.olds, sizes, long_undos)
            self._history.append(entry)
        if live is not None:
            live[cab] += 1
        if self._changed_since_trim > len(self._words) // 2 + 4096:
            # half the words rewritten since the last trim: their old strings' pages go back
            del done
            self._changed_since_trim = 0
            release_free_memory()
        return record

    # ------------------------------------------------------------------ sessions
    def state(self) -> dict:
        """Everything needed to resume: word counts, settings and merges (plain data)."""
        return {
            "special_tokens": list(self.special_tokens),
            "pattern": self.pattern,
            "tie_break": self.tie_break,
            "word_counts": dict(zip(self._original, self._wcounts)),
            "merges": list(self.merges),
        }

    @classmethod
    def from_state(cls, state: dict, keep_history: bool = True) -> Trainer:
        """Rebuild a trainer from :meth:`state` by replaying the merges."""
        t = cls(
            state["word_counts"],
            state["special_tokens"],
            pattern=state["pattern"],
            tie_break=state["tie_break"],
            keep_history=keep_history,
        )
        for p in state["merges"]:
            t.merge(tuple(p))
        return t


def train_bpe(
    input_path: str | os.PathLike,
    vocab_size: int,
    special_tokens: list[str] | None = None,
    *,
    pattern: str | None = "gpt2",
    tie_break: TieBreak = "lexicographic",
    workers: int | None = None,
    progress: Progress | None = None,
    engine: str = "auto",
) -> tuple[dict[int, bytes], list[Pair]]:
    """Train a byte-level BPE tokenizer on a file (CS336 assignment 1 interface).

    Returns ``(vocab, merges)``: vocab maps ids 0..n-1 to bytes (bytes, then special tokens, then
    merges); merges are ``(bytes, bytes)`` pairs in creation order. ``progress(phase, done, total)``
    receives "pretokenize" and "merge" phases; returning False raises :class:`Cancelled`.
    ``engine``: the merge loop, "flat" (:mod:`core.training.flat`, 1.5-2.5x as fast, and leaner),
    "words" (the :class:`Trainer`'s) or "auto" (flat
    where it fits in half the memory free, else the one expected to need less:
    :func:`core.training.memory_need.lean_engine`); the merges are the same.
    """
    specials = check_special_tokens(special_tokens)
    check_vocab_size(vocab_size, len(specials))
    check_training_pattern(pattern)
    if tie_break not in TIE_BREAKS:
        raise BPEError(f"tie_break must be 'lexicographic' or 'first', not {tie_break!r}")
    if engine not in ("auto", "flat", "words"):
        raise BPEError(f"engine must be 'auto', 'flat' or 'words', not {engine!r}")
    counts, stats = count_pretokens_ordered(input_path, specials, pattern, workers=workers, progress=progress)
    n_merges = vocab_size - 256 - len(specials)
    word_bytes = words_bytes(counts)
    if engine == "auto":
        engine = lean_engine(len(counts), word_bytes, n_merges)
    if engine == "flat":
        from core.training.flat import lean_merger

        flat = lean_merger(
            counts,
            tie_break,
            specials,
            pattern=pattern,
            stats=stats,
            vocab_size=vocab_size,
            word_bytes=word_bytes,
        )
        del counts
        flat.run(vocab_size, progress=progress, min_interval=50)
        return flat.vocab, list(flat.merges)
    trainer = Trainer(counts, specials, pattern=pattern, tie_break=tie_break, keep_history=False, stats=stats)
    del counts
    trainer.run(vocab_size, progress=progress, min_interval=50)
    return trainer.vocab, list(trainer.merges)
