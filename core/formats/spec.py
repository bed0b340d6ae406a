"""What a tokenizer file carries: :class:`TokenizerSpec`, plus the training record of a run.

Every format reads into and writes from a ``TokenizerSpec``; :class:`core.Tokenizer` converts to
and from it (``Tokenizer.from_spec(spec)``, ``tok.to_spec()``).

>>> spec = TokenizerSpec.from_merges([(b"a", b"b")], ["<s>"])
>>> spec.vocab[257], spec.special_ids
(b'ab', {'<s>': 256})
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.errors import FormatError
from core.pretokenization.patterns import pattern_name, resolve_pattern

Pair = tuple[bytes, bytes]

#: Keys of the per-merge lists in a training record (one entry per merge, in merge order).
PER_MERGE_KEYS = ("counts", "n_ties", "words_changed", "occurrences_changed")


@dataclass(frozen=True)
class TokenizerSpec:
    """A byte-level BPE tokenizer as plain data.

    ``vocab`` maps ids to token bytes (special tokens included, as their UTF-8 bytes); ``merges``
    are the pairs in rank order; ``pattern`` is ``"gpt2"``, ``"gpt4"``, ``"none"`` or a regex;
    ``tie_break`` is the trainer's tie rule when known; ``training`` is the record of the run that
    made it (see :func:`training_record`) or None.
    """

    vocab: dict[int, bytes]
    #: a tuple, or a :class:`core.bpe.ranks.LazyMerges` that a loader made (built when first read)
    merges: Sequence[Pair]
    special_tokens: tuple[str, ...] = ()
    pattern: str | None = "gpt2"
    tie_break: str | None = None
    training: dict[str, Any] | None = field(default=None, compare=True)
    #: the HF ``tokenizer.json`` pipeline (normalizer, added tokens, pre-tokenizer, post-processor) of
    #: an imported file that needs more than ``pattern`` + special tokens (:mod:`core.pipeline.hf`)
    pipeline: Any = field(default=None, compare=False)
    #: what the loader assumed or recognised (e.g. "recognised as cl100k_base …"), for the user to see
    notes: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def from_merges(
        cls,
        merges: Iterable[Pair],
        special_tokens: Iterable[str] = (),
        *,
        pattern: str | None = "gpt2",
        tie_break: str | None = None,
        training: dict[str, Any] | None = None,
    ) -> TokenizerSpec:
        """The standard layout: ids 0–255 bytes, then special tokens, then one id per merge."""
        from core.pretokenization.pretokenize import check_special_tokens
        from core.training.trainer import build_vocab

        merges = tuple((bytes(a), bytes(b)) for a, b in merges)
        specials = tuple(check_special_tokens(special_tokens))
        return cls(build_vocab(merges, specials), merges, specials, pattern, tie_break, training)

    @property
    def special_ids(self) -> dict[str, int]:
        """Id of each special token: the highest id whose bytes are the token's UTF-8 bytes."""
        return special_ids(self.vocab, self.special_tokens)

    @property
    def specials_in_text(self) -> frozenset[str]:
        """The special tokens that encoding finds in text (an id for their text, not its bytes' tokens).

        All of them for a tokenizer trained here or read from GPT-2 or tiktoken files; the added tokens
        of an imported ``tokenizer.json``; none for a Mistral tekken file or a SentencePiece model,
        whose control tokens (``<s>``, ``[INST]`` …) mistral-common's and sentencepiece's ``encode``
        read as plain text. tiktoken takes them as
        ``enc.encode(text, allowed_special=spec.specials_in_text, disallowed_special=())``.

        >>> sorted(TokenizerSpec.from_merges([], ["<s>"]).specials_in_text)
        ['<s>']
        """
        conf = self.pipeline
        if isinstance(conf, dict):
            added = {t.get("content") for t in conf.get("added_tokens") or [] if isinstance(t, dict)}
            return frozenset(s for s in self.special_tokens if s in added)
        return frozenset(self.special_tokens)

    @property
    def added_not_special(self) -> frozenset[str]:
        """The added tokens of an imported ``tokenizer.json`` that it marks ``"special": false`` (OLMo 1's
        runs of spaces, ``|||EMAIL_ADDRESS|||``): found in text like special tokens and never merged, but
        not special (HF's ``decode(skip_special_tokens=True)`` keeps them). Empty for other tokenizers."""
        return added_not_special(self.pipeline, self.special_tokens)

    @property
    def pattern_name(self) -> str:
        """``"gpt2"``/``"gpt4"``/``"none"`` for a built-in pattern, else the regex."""
        return pattern_name(self.pattern)

    @property
    def pattern_regex(self) -> str | None:
        """The regex string of the pattern (None when pre-tokenization is off)."""
        return resolve_pattern(self.pattern)

    def ordinary_tokens(self) -> dict[int, bytes]:
        """The vocab without the special tokens (what tiktoken calls mergeable ranks)."""
        sids = set(self.special_ids.values())
        return {i: b for i, b in self.vocab.items() if i not in sids}


def added_not_special(pipeline: Any, special_tokens: Iterable[str]) -> frozenset[str]:
    """Of ``special_tokens``, those a pipeline's added tokens mark ``"special": false`` (HF's default
    for an added token that does not say)."""
    if not isinstance(pipeline, dict):
        return frozenset()
    plain = {
        t.get("content")
        for t in pipeline.get("added_tokens") or []
        if isinstance(t, dict) and not t.get("special", False)
    }
    return frozenset(s for s in special_tokens if s in plain)


def special_ids(vocab: dict[int, bytes], special_tokens: Iterable[str]) -> dict[str, int]:
    """Map each special token to its id: the highest id with its bytes (so a special token equal to
    a single byte, e.g. ``"a"``, gets its own id after the bytes). Tokens not in the vocab are left out.

    >>> special_ids({0: b"a", 1: b"<s>"}, ["<s>", "<t>"])
    {'<s>': 1}
    """
    wanted = {s.encode("utf-8", "surrogateescape"): s for s in special_tokens}
    out: dict[str, int] = {}
    for i in sorted(vocab):
        s = wanted.get(vocab[i])
        if s is not None:
            out[s] = i
    return {s: out[s] for s in special_tokens if s in out}


# --------------------------------------------------------------------------- training record
def training_record(trainer: Any, corpus_name: str | None = None) -> dict[str, Any]:
    """The record of a training run that a native file keeps so the run can be reopened.

    Holds the corpus name and size, corpus statistics, and per merge its count, number of ties,
    words changed and occurrences changed.
    """
    stats = trainer.stats
    records = trainer.records
    return {
        "corpus": corpus_name if corpus_name is not None else stats.name,
        "corpus_bytes": int(stats.size_bytes),
        "pretokens": int(stats.pretokens),
        "distinct_pretokens": int(stats.distinct_pretokens),
        "invalid_bytes": int(stats.invalid_bytes),
        "has_bom": bool(stats.has_bom),
        "special_occurrences": int(stats.special_occurrences),
        "counts": [int(r.count) for r in records],
        "n_ties": [int(r.n_ties) for r in records],
        "words_changed": [int(r.words_changed) for r in records],
        "occurrences_changed": [int(r.occurrences_changed) for r in records],
    }


def spec_from_trainer(trainer: Any, corpus_name: str | None = None) -> TokenizerSpec:
    """A spec (with its training record) from a :class:`core.Trainer` at its current step."""
    return TokenizerSpec(
        trainer.vocab,
        tuple(trainer.merges),
        tuple(trainer.special_tokens),
        trainer.pattern,
        trainer.tie_break,
        training_record(trainer, corpus_name),
    )


def records_from_spec(spec: TokenizerSpec) -> list:
    """Rebuild the :class:`core.MergeRecord` timeline of a saved run (ties and deltas are not kept).

    Without a training record the counts are 0.
    """
    from core.training.trainer import MergeRecord

    training = spec.training or {}
    n = len(spec.merges)
    lists = {k: list(training.get(k) or []) for k in PER_MERGE_KEYS}
    for k, v in lists.items():
        if v and len(v) != n:
            raise FormatError(
                f"training record has {len(v)} {k!r} for {n} merges; the file is inconsistent, re-export it",
                code="training_record_mismatch",
                count=len(v),
                key=k,
                n_merges=n,
            )
        lists[k] = v or [0] * n
    ids = _merge_ids(spec)
    return [
        MergeRecord(
            rank=i,
            pair=p,
            new_id=ids[i],
            count=lists["counts"][i],
            n_ties=lists["n_ties"][i],
            words_changed=lists["words_changed"][i],
            occurrences_changed=lists["occurrences_changed"][i],
        )
        for i, p in enumerate(spec.merges)
    ]


def _merge_ids(spec: TokenizerSpec) -> list[int]:
    """The id of the token each merge makes (lowest ordinary id with its bytes)."""
    sids = set(spec.special_ids.values())
    lookup: dict[bytes, int] = {}
    for i in sorted(spec.vocab, reverse=True):
        if i not in sids:
            lookup[spec.vocab[i]] = i
    return [lookup.get(a + b, -1) for a, b in spec.merges]


def as_spec(source: Any) -> TokenizerSpec:
    """A :class:`TokenizerSpec` from a spec, a :class:`core.Tokenizer` or a :class:`core.Trainer`."""
    if isinstance(source, TokenizerSpec):
        return source
    if hasattr(source, "to_spec"):
        return source.to_spec()
    if hasattr(source, "records") and hasattr(source, "merges"):
        return spec_from_trainer(source)
    raise FormatError(f"cannot export a {type(source).__name__}; pass a Tokenizer, Trainer or TokenizerSpec")
