"""The explorer's session as plain data (no Qt): what is on show and how merges change it.

:class:`SessionModel` holds what the controller used to keep in attributes: the training
settings, the merge records of the trainer session, the views' :class:`VocabIndex`, the pair view
the engine sent with the last step or undo (a :class:`PairView`), an imported tokenizer and the
cached Tokenizer of the current merges, and the version counter that every change bumps. The
controller (:mod:`bpe_gui.actions.controller`) drives it from engine replies and worker results and turns
its changes into signals; everything here can be tested without Qt or an engine process.

>>> m = SessionModel()
>>> m.vocab_size, m.version
(257, 0)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, NamedTuple

from bpe_gui.model.state import VocabIndex
from core import BPEError
from core.pretokenization.pattern_probe import check_training_pattern
from core.pretokenization.pretokenize import check_special_tokens, pattern_name

TIE_RULES = ("lexicographic", "first")


class Busy(str, Enum):
    """What the controller's worker is doing; :attr:`IDLE` (the empty string, falsy) when nothing."""

    IDLE = ""
    LOAD = "load"  # reading a corpus into the engine
    TRAIN = "train"  # a full run or a session replay
    STEP = "step"  # Step (N) too large for the GUI thread
    REWIND = "rewind"  # Rewind or Reset of many merges
    IMPORT = "import"  # reading a tokenizer file (Import or Compare)

    def __str__(self) -> str:
        return self.value


@dataclass
class Options:
    """Training settings that need a (re-)load of the corpus when they change."""

    special_tokens: list[str] = field(default_factory=lambda: ["<|endoftext|>"])
    pattern: str | None = "gpt2"  # "gpt2", "gpt4", None (no pre-tokenization) or a custom regex
    tie_break: str = "lexicographic"

    def copy(self) -> Options:
        return Options(list(self.special_tokens), self.pattern, self.tie_break)

    def with_changes(self, special_tokens=None, pattern=None, tie_break=None) -> Options:
        """A checked copy with the given settings changed; raises BPEError naming a bad one."""
        new = self.copy()
        if special_tokens is not None:
            new.special_tokens = check_special_tokens(special_tokens)
        if pattern is not None:
            new.pattern = None if pattern == "none" else pattern
            check_training_pattern(new.pattern)  # (one that can match the empty string is refused too)
        if tie_break is not None:
            if tie_break not in TIE_RULES:
                raise BPEError(f"tie rule must be 'lexicographic' or 'first', not {tie_break!r}")
            new.tie_break = tie_break
        return new


class PairView(NamedTuple):
    """The top pairs the engine sent with a step or undo, valid while the merges are at ``version``."""

    version: int
    top_pairs: list  # [(pair, count)] best first
    n_best: int  # how many pairs have the best count


@dataclass(frozen=True)
class Extension:
    """What the engine's trainer extends ("Continue training from this tokenizer"): the base
    tokenizer's spec and name, and its size. The trainer's merges (its records, ranked from 0) come
    after the base's ``base_merges`` merges; their ids after the base's highest id."""

    base: Any  # core.formats.spec.TokenizerSpec of the base tokenizer
    name: str  # the base's name (its file)
    base_merges: int
    base_vocab_size: int


def tokenizer_from_args(args: tuple) -> Any:
    """The core Tokenizer of :meth:`SessionModel.tokenizer_args` ``[1:]`` (vocab, merges, special
    tokens, pattern[, the base spec of an extension]), built where it is needed (often a worker).

    An extension's is its base's pattern, special tokens and pipeline with all its merges: what
    Export writes (``ExtendTrainer.to_spec``)."""
    from core.tokenization.tokenizer import Tokenizer

    vocab, merges, specials, pattern, *rest = args
    base = rest[0] if rest else None
    if base is None:
        return Tokenizer(vocab, merges, specials, pattern=pattern)
    from core.formats.spec import TokenizerSpec

    spec = TokenizerSpec(
        dict(vocab),
        tuple(merges),
        tuple(base.special_tokens),
        base.pattern,
        base.tie_break,
        None,
        pipeline=base.pipeline,
    )
    return Tokenizer.from_spec(spec)


def merge_deltas(records: list, sign: int = 1) -> dict:
    """Pair-count changes caused by ``records`` (``sign=-1`` for undoing them)."""
    out: dict = {}
    for r in records:
        for p, d in r.deltas:
            out[p] = out.get(p, 0) + sign * d
    return out


def tokenizer_index(tokenizer, records) -> VocabIndex:
    """The views' index of a tokenizer shown without a corpus (counts from its records, if any)."""
    ix = VocabIndex(
        dict(tokenizer.vocab),
        list(tokenizer.merges),
        [r.count for r in records],
        list(tokenizer.special_tokens),
        getattr(tokenizer, "added_not_special", ()),
    )
    ix.char_model = cm = getattr(tokenizer, "char_model", None)
    if cm is not None:
        # a character's bytes are also a byte-fallback piece's (b" " is <0x20>, id 35, and ▁, id 28705):
        # the tree and the lists name the character's piece, which the merges build on
        for i, token in ix.vocab.items():
            held = ix.token_ids.get(token)
            if held is not None and held != i and cm.is_byte_fallback(held) and not cm.is_byte_fallback(i):
                ix.token_ids[token] = i
    return ix


class SessionModel:
    """The merges on show (a trainer session's or a tokenizer's without a corpus) and their caches."""

    def __init__(self, options: Options | None = None) -> None:
        self.options = options.copy() if options is not None else Options()
        self.loaded_options = Options()  # the settings the loaded corpus was read with
        self.index = VocabIndex.base(self.options.special_tokens)
        self.records: list = []  # MergeRecords of the trainer session, in rank order
        self.stats = None  # CorpusStats of the loaded corpus
        self.distinct_bytes: int | None = None  # the bytes of its distinct pre-tokens
        self.source_name = ""  # corpus file or imported tokenizer shown in the title
        self.corpus_path: str | None = None
        self.version = 0  # bumped on every change of the merges
        self.has_trainer = False  # the engine has a trainer for the current corpus
        self.imported = None  # a core Tokenizer shown without a corpus (imported, or a saved session's)
        self.pair_view: PairView | None = None
        #: the base tokenizer the trainer extends ("Continue training from this tokenizer"), or None
        self.extension: Extension | None = None
        #: the merge the user picked (its rank), the one selection every view shows; None: none picked
        self.selected: int | None = None
        self._tokenizer = None
        self._tokenizer_version = -1
        #: the version of the merges last saved in a session or exported: they are kept, and leaving them
        #: needs no question (-1: none kept)
        self.kept_version = -1

    # ------------------------------------------------------------------ queries
    @property
    def vocab_size(self) -> int:
        return len(self.index)

    @property
    def tie_break(self) -> str:
        """The tie rule of what is shown: the imported tokenizer's when it records one, else the
        training setting (importing does not change the settings the next corpus is trained with)."""
        imported = self.imported
        if imported is not None and imported.tie_break in TIE_RULES:
            return imported.tie_break
        return self.options.tie_break

    @property
    def pattern_label(self) -> str:
        imported = self.imported if self.imported is not None else self.extension and self.extension.base
        return pattern_name(imported.pattern if imported else self.options.pattern)

    @property
    def merge_offset(self) -> int:
        """The merges on show before the trainer's first one (an extension's base merges; else 0)."""
        return self.extension.base_merges if self.extension is not None else 0

    @property
    def extended_from(self) -> int:
        """How many of the merges on show are an extended tokenizer's base merges: an extension's
        being trained, or an opened extended tokenizer's (its record says ``extends``); else 0."""
        if self.extension is not None:
            return self.extension.base_merges
        training = getattr(self.imported, "training", None) or {}
        ext = training.get("extends") if isinstance(training, dict) else None
        n = ext.get("merges") if isinstance(ext, dict) else None
        return n if isinstance(n, int) and 0 <= n <= self.index.n_merges else 0

    @property
    def unkept_merges(self) -> int:
        """The trained merges that neither a session file nor an export holds (0 once the merges on show
        were saved or exported)."""
        return 0 if self.version == self.kept_version else self.trained_merges

    @property
    def trained_merges(self) -> int:
        """The merges the trainer made (an extension's new ones), which Undo and Reset take back."""
        return len(self.records) if self.has_trainer else 0

    def shifted(self, records: list) -> list:
        """The engine's records with their ranks in the merges on show (an extension's trainer
        numbers its new merges from 0; the views number them after the base's)."""
        off = self.merge_offset
        if not off:
            return records
        return [dataclasses.replace(r, rank=r.rank + off) for r in records]

    @property
    def current_step(self) -> int:
        """How many merges are on show: the step the session is at (0 before the first merge)."""
        return self.index.n_merges

    def record(self, rank: int):
        """The record of merge ``rank`` (of the merges on show); None for an extension's base merges."""
        rank -= self.merge_offset
        return self.records[rank] if 0 <= rank < len(self.records) else None

    def current_view(self) -> PairView | None:
        """The pair view of the last step or undo, if the merges did not change since."""
        view = self.pair_view
        return view if view is not None and view.version == self.version else None

    # ------------------------------------------------------------------ changes
    def select(self, rank: int | None) -> bool:
        """Make merge ``rank`` the selected one (None: no selection); False for a rank not on show."""
        if rank is not None and not 0 <= rank < self.index.n_merges:
            return False
        self.selected = rank
        return True

    def _merges_replaced(self) -> None:
        self.selected = None
        self.changed()

    def changed(self) -> None:
        self.version += 1

    def keep_view(self, reply: dict) -> None:
        """Keep the engine's pair view (``top_pairs``, ``n_best`` of a step or undo reply)."""
        self.pair_view = PairView(self.version, reply["top_pairs"], reply["n_best"])

    def absorb(self, records: list, view: dict | None = None) -> int:
        """Add the merge records not seen yet; ``view``: the engine's pair view after them.

        Returns how many were new (a run's batches and its final list overlap)."""
        known = len(self.records) + self.merge_offset
        new = [r for r in records if r.rank >= known]
        if new:
            self.records.extend(new)
            if self.extension is not None:  # the engine's ids: a reused token does not grow the vocab
                for r in new:
                    self.index.append_with_id(r.pair, r.count, r.new_id)
            else:
                self.index.extend((r.pair, r.count) for r in new)
            self.changed()
        if view is not None:
            self.keep_view(view)
        return len(new)

    def pop(self, n: int = 1) -> None:
        """Remove the last ``n`` merges (undo, rewind)."""
        for _ in range(n):
            self.records.pop()
            self.index.pop()
        if self.selected is not None and self.selected >= self.index.n_merges:
            # the selected merge was taken back: the last merge left is selected instead
            self.selected = self.index.n_merges - 1 if self.index.n_merges else None
        self.changed()

    def corpus_loaded(
        self, path: str, stats, special_tokens: list[str], options: Options, distinct_bytes: int | None = None
    ) -> None:
        """A corpus was read into the engine with ``options``: no merges yet. ``distinct_bytes``: the
        distinct pre-tokens' bytes (the memory estimate rests on them and on their count)."""
        self.loaded_options = options.copy()
        self.distinct_bytes = distinct_bytes
        self.has_trainer = True
        self.imported = None
        self.extension = None
        self.stats = stats
        self.corpus_path = path
        self.source_name = stats.name
        self.records = []
        self.index = VocabIndex.base(special_tokens)
        self._merges_replaced()

    def extension_loaded(
        self, path: str, stats, extension: Extension, index: VocabIndex, options: Options
    ) -> None:
        """The engine's trainer now extends ``extension.base`` on the corpus ``path``: the base's
        merges are on show (``index``: :meth:`VocabIndex.extension`), no new merges yet."""
        self.corpus_loaded(path, stats, list(index.special_tokens), options)
        self.extension = extension
        # the name says it is an extension ("gpt2/vocab.json + code.txt"): the tokenize pane, Evaluate
        # and a comparison with the base tell the two apart (the window title says it in words)
        self.source_name = f"{extension.name} + {stats.name}" if extension.name else stats.name
        self.index = index
        self._merges_replaced()

    def show_tokenizer(self, tokenizer, records, name: str, index: VocabIndex | None = None) -> None:
        """Show a tokenizer without a corpus (imported, or a saved session's): no trainer."""
        self.has_trainer = False
        self.imported = tokenizer
        self.extension = None
        self.records = list(records)
        self.stats = None
        self.distinct_bytes = None
        self.corpus_path = None
        self.source_name = name
        self.index = index if index is not None else tokenizer_index(tokenizer, records)
        self._merges_replaced()

    def base_vocab(self) -> None:
        """Nothing loaded: the 256 bytes and the special tokens of the settings."""
        self.index = VocabIndex.base(self.options.special_tokens)
        self.extension = None
        self._merges_replaced()

    def revert_options(self) -> None:
        """After a failed or cancelled load the settings in effect are the loaded corpus's again."""
        if self.has_trainer and self.options != self.loaded_options:
            self.options = self.loaded_options.copy()

    # ------------------------------------------------------------------ the Tokenizer of the merges
    def tokenizer_args(self) -> tuple:
        """(version, vocab, merges, special tokens, pattern[, base spec]): what builds the current
        Tokenizer (:func:`tokenizer_from_args` of all but the version). An extension's has a sixth
        item, its base's spec (pattern, special tokens and pipeline are the base's)."""
        ix = self.index
        ext = self.extension
        args = (
            self.version,
            dict(ix.vocab),
            [m.pair for m in ix.merges],
            list(ix.special_tokens),
            ext.base.pattern if ext is not None else self.options.pattern,
        )
        return args if ext is None else (*args, ext.base)

    def cached_tokenizer(self):
        """The current Tokenizer if it is already built (or imported), else None."""
        if self.imported is not None:
            return self.imported
        return self._tokenizer if self._tokenizer_version == self.version else None

    def store_tokenizer(self, version: int, tokenizer) -> None:
        """Keep a Tokenizer built elsewhere (e.g. in a thread) if it matches the current merges."""
        if version == self.version and self.imported is None:
            self._tokenizer, self._tokenizer_version = tokenizer, version

    def tokenizer(self):
        """A core Tokenizer for the current merges (built here when not cached)."""
        tok = self.cached_tokenizer()
        if tok is None:
            args = self.tokenizer_args()
            tok = tokenizer_from_args(args[1:])
            self.store_tokenizer(args[0], tok)
        return tok
