"""The messages between the app and its engine process (:mod:`core.engine.client`), as types.

The app sends a :class:`Request` (an :class:`Op` and its arguments); the engine answers with any
number of events (:class:`Progress`, :class:`Records`, :class:`Pairs`: only long requests send
them) and then exactly one reply (:class:`Done`, :class:`Stopped`, :class:`Failed` or
:class:`Crashed`). Everything here is plain, picklable data; a misspelt request or event kind is
an ``AttributeError`` where it is written (and a mypy error), never a string the other side
does not know.

The replies of the requests that answer several things at once are :class:`typing.TypedDict`\\ s
(plain dicts on the wire and in the app, with their keys checked by mypy).

Nothing here imports Qt.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

if TYPE_CHECKING:
    from core.pretokenization.pretokenize import CorpusStats
    from core.training.records import MergeRecord, Pair

TOP_K = 100  # pairs in a pair view and in the pair snapshots of a run


class Op(str, enum.Enum):
    """What the app may ask the engine (the value is what travels over the pipe)."""

    # handled by the engine itself
    LOAD = "load"  # build a trainer from a corpus or counts file (events: progress)
    EXTEND = "extend"  # build an ExtendTrainer: a base tokenizer's spec and a corpus (events: progress)
    RUN = "run"  # merge until a vocab size (events: progress, records, pairs)
    REPLAY = "replay"  # merge given pairs in order (events: progress, records)
    STEPS = "steps"
    STEPS_VIEW = "steps_view"  # steps, then the pair view after them
    UNDO = "undo"
    UNDO_VIEW = "undo_view"  # an undo, then the pair view after it
    UNDO_TO = "undo_to"  # undo until ``keep`` merges are left, then the pair view
    DROP = "drop"  # forget the trainer
    SPEC = "spec"  # a TokenizerSpec of the trainer as it is
    PING = "ping"
    QUIT = "quit"  # end the engine process (no reply)
    # trainer methods, called with the request's arguments
    TOP_PAIRS = "top_pairs"
    N_PAIRS_WITH_COUNT = "n_pairs_with_count"
    NEXT_PAIR = "next_pair"
    NEXT_STEP_SIZE = "next_step_size"
    CHANGED_WORDS = "changed_words"
    PAIRS_BEFORE = "pairs_before"  # the pair table before an earlier merge (from the history)
    RECORD = "record"  # one merge's record with its pair-count changes (a run's records come without)
    WORDS_WITH_PAIR = "words_with_pair"
    WORDS_WITH_TOKEN = "words_with_token"
    PAIR_COUNT = "pair_count"
    MERGE = "merge"
    # trainer attributes, read
    MERGES = "merges"
    VOCAB = "vocab"
    VOCAB_SIZE = "vocab_size"
    N_MERGES = "n_merges"
    RECORDS = "records"
    STATS = "stats"
    SPECIAL_TOKENS = "special_tokens"
    PATTERN = "pattern"
    TIE_BREAK = "tie_break"


# requests answered by calling the trainer's method of the same name
TRAINER_METHODS = frozenset(
    {
        Op.TOP_PAIRS,
        Op.N_PAIRS_WITH_COUNT,
        Op.NEXT_PAIR,
        Op.NEXT_STEP_SIZE,
        Op.CHANGED_WORDS,
        Op.PAIRS_BEFORE,
        Op.WORDS_WITH_PAIR,
        Op.WORDS_WITH_TOKEN,
        Op.PAIR_COUNT,
        Op.MERGE,
    }
)
# requests answered by reading the trainer's attribute of the same name (a list is copied)
TRAINER_ATTRIBUTES = frozenset(
    {
        Op.MERGES,
        Op.VOCAB,
        Op.VOCAB_SIZE,
        Op.N_MERGES,
        Op.RECORDS,
        Op.STATS,
        Op.SPECIAL_TOKENS,
        Op.PATTERN,
        Op.TIE_BREAK,
    }
)
# requests that only read pair counts or the merge list (answered before an undo's words are back)
WORDS_FREE = frozenset({Op.N_PAIRS_WITH_COUNT, Op.PAIR_COUNT, Op.PING, Op.RECORD}) | TRAINER_ATTRIBUTES
# requests that read the words only under the "first" tie rule (free under "lexicographic")
WORDS_FREE_IF_LEXICOGRAPHIC = frozenset({Op.TOP_PAIRS, Op.NEXT_PAIR, Op.NEXT_STEP_SIZE, Op.PAIRS_BEFORE})
# requests that a merge done ahead serves (one under way is finished, not stopped, when they come)
AHEAD_SERVES = frozenset({Op.STEPS, Op.STEPS_VIEW, Op.NEXT_STEP_SIZE})
# after these the engine merges ahead at once, without waiting for quiet
EAGER_AFTER = frozenset({Op.STEPS, Op.STEPS_VIEW, Op.RUN})


_OPS = {op.value: op for op in Op}


def _request(op: str, args: tuple[Any, ...]) -> Request:
    return Request(_OPS.get(op, op), args)  # type: ignore[arg-type]  # an unknown op is refused by the engine


class _Plain:
    """Pickled as its class and its field values: a round trip costs about 1 µs instead of the
    ~7 µs of the generic path (and an enum's ~7 µs more), on every request and reply."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), tuple(self.__dict__.values())


@dataclass(frozen=True)
class Request:
    """One request of the app: ``op`` with its positional arguments."""

    op: Op
    args: tuple[Any, ...] = ()

    def __reduce__(self) -> tuple[Any, ...]:
        return _request, (getattr(self.op, "value", self.op), self.args)


# --------------------------------------------------------------------------- events
@dataclass(frozen=True)
class Progress(_Plain):
    """How far a long request is (throttled): ``phase`` ("pretokenize", "merge", ...)."""

    phase: str
    done: int
    total: int


@dataclass(frozen=True)
class Records(_Plain):
    """The merge records a run (or replay) made since the last batch, in order."""

    records: list[MergeRecord]


@dataclass(frozen=True)
class Pairs(_Plain):
    """A snapshot of the best pairs during a run, ``[(pair, count), ...]`` best first."""

    pairs: list[tuple[Pair, int]]


Event = Progress | Records | Pairs


# --------------------------------------------------------------------------- replies
@dataclass(frozen=True)
class Done(_Plain):
    """The request succeeded with ``value``."""

    value: Any


@dataclass(frozen=True)
class Stopped(_Plain):
    """The request was cancelled (the trainer is consistent)."""

    message: str


@dataclass(frozen=True)
class Failed(_Plain):
    """A core error: ``error`` names its class in :mod:`core.errors`; ``code`` and ``params`` let the
    app say it in its own language (:attr:`core.errors.BPEError.code`)."""

    error: str
    message: str
    code: str = ""
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Crashed(_Plain):
    """An unexpected exception in the engine, with its traceback."""

    traceback: str


Reply = Done | Stopped | Failed | Crashed
Message = Event | Reply  # what the engine sends


# --------------------------------------------------------------------------- compound values
class PairView(TypedDict):
    """What a pair table shows: the best pairs and how many pairs tie with the best."""

    top_pairs: list[tuple[Pair, int]]
    n_best: int


class StepsView(PairView):
    records: list[MergeRecord]


class UndoView(PairView):
    record: MergeRecord | None


class UndoToView(PairView):
    undone: int


class LoadInfo(TypedDict):
    stats: CorpusStats
    special_tokens: list[str]
    vocab_size: int
    distinct_bytes: int  # the distinct pre-tokens' bytes (with the distinct count: the memory estimate)


class ExtendInfo(LoadInfo):
    """What an :attr:`Op.EXTEND` answers: a load's facts and the base's size (its vocab and merges:
    the trainer's merges and ids come after them)."""

    base_vocab_size: int
    base_merges: int
