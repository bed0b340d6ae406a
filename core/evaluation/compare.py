"""Two tokenizers side by side: the tokens they share (by bytes), where their merge lists part, and
how many tokens each makes of the same files.

Tokens are compared by their bytes, not their ids (two tokenizers may number the same token
differently); special tokens are compared among themselves (by their text), and apart from them the
added tokens an imported ``tokenizer.json`` marks ``"special": false``. Any two tokenizers the
app opens can be compared: a tiktoken file's merge list is rebuilt from its ranks.

>>> from core.formats.spec import TokenizerSpec
>>> from core.tokenization.tokenizer import Tokenizer
>>> a = Tokenizer.from_spec(TokenizerSpec.from_merges([(b"a", b"b"), (b"c", b"d")]))
>>> b = Tokenizer.from_spec(TokenizerSpec.from_merges([(b"a", b"b"), (b"a", b"c")]))
>>> c = compare_tokenizers(a, b)
>>> c.n_shared, [a.vocab[i] for i in c.only_a], [b.vocab[i] for i in c.only_b], c.first_differing_merge
(257, [b'cd'], [b'ac'], 2)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import Cancelled
from core.tokenization.tokenizer import Tokenizer

Pair = tuple[bytes, bytes]
Progress = Callable[[str, int, int], "bool | None"]


@dataclass(frozen=True)
class FileCounts:
    name: str
    n_bytes: int
    tokens_a: int
    tokens_b: int


@dataclass(frozen=True)
class Comparison:
    vocab_a: int
    vocab_b: int
    shared: list[tuple[int, int]]  # (id in a, id in b) of each ordinary token both have, by a's ids
    only_a: list[int]  # ids in a of the ordinary tokens b lacks
    only_b: list[int]
    specials_shared: list[str]
    specials_only_a: list[str]
    specials_only_b: list[str]
    first_differing_merge: int | None  # merge number from 1 (None: the lists are equal)
    merge_a: Pair | None  # the two merges there (None where that list has ended)
    merge_b: Pair | None
    files: tuple[FileCounts, ...] = ()
    # added tokens that are not special (OLMo 1's runs of spaces), by their text; not in specials_*
    added_shared: list[str] = field(default_factory=list)
    added_only_a: list[str] = field(default_factory=list)
    added_only_b: list[str] = field(default_factory=list)

    @property
    def n_shared(self) -> int:
        return len(self.shared)

    @property
    def same_id(self) -> int:
        """How many shared tokens have the same id in both."""
        return sum(1 for i, j in self.shared if i == j)

    def summary(self) -> str:
        merge = (
            "the merge lists are equal"
            if self.first_differing_merge is None
            else f"the merge lists part at merge {self.first_differing_merge:,}"
        )
        return (
            f"{self.n_shared:,} tokens shared ({self.same_id:,} with the same id), {len(self.only_a):,} only in A, "
            f"{len(self.only_b):,} only in B; {merge}; special tokens apart (compared by their text): "
            f"{len(self.specials_shared):,} shared, {len(self.specials_only_a):,} only in A, "
            f"{len(self.specials_only_b):,} only in B"
            + (
                f"; added tokens that are not special: {len(self.added_shared):,} shared, "
                f"{len(self.added_only_a):,} only in A, {len(self.added_only_b):,} only in B"
                if self.added_shared or self.added_only_a or self.added_only_b
                else ""
            )
        )

    def to_json(self) -> dict[str, Any]:
        def hexes(p: Pair | None) -> list[str] | None:
            return None if p is None else [p[0].hex(), p[1].hex()]

        return {
            "summary": self.summary(),
            "vocab_a": self.vocab_a,
            "vocab_b": self.vocab_b,
            "shared": len(self.shared),
            "same_id": self.same_id,
            "only_a": self.only_a,
            "only_b": self.only_b,
            "shared_ids": [list(p) for p in self.shared],
            "specials_shared": self.specials_shared,
            "specials_only_a": self.specials_only_a,
            "specials_only_b": self.specials_only_b,
            "added_shared": self.added_shared,
            "added_only_a": self.added_only_a,
            "added_only_b": self.added_only_b,
            "first_differing_merge": self.first_differing_merge,
            "merge_a": hexes(self.merge_a),
            "merge_b": hexes(self.merge_b),
            "files": [
                {"name": f.name, "bytes": f.n_bytes, "tokens_a": f.tokens_a, "tokens_b": f.tokens_b}
                for f in self.files
            ],
        }


def _ordinary(tok: Tokenizer) -> dict[bytes, int]:
    """Each ordinary token's bytes with its (lowest) id."""
    return {b: i for i, b in sorted(tok.vocab.items(), reverse=True) if not tok.is_special(i)}


def first_difference(a: Iterable[Pair], b: Iterable[Pair]) -> tuple[int | None, Pair | None, Pair | None]:
    """The first merge number (from 1) where two merge lists differ, with each list's merge there."""
    ia, ib = iter(a), iter(b)
    k = 0
    while True:
        k += 1
        pa, pb = next(ia, None), next(ib, None)
        if pa is None and pb is None:
            return None, None, None
        if pa != pb:
            return k, pa, pb


def compare_tokenizers(
    a: Tokenizer,
    b: Tokenizer,
    files: Iterable[str | os.PathLike] = (),
    *,
    progress: Progress | None = None,
) -> Comparison:
    """Compare ``a`` and ``b``: shared and own tokens, first differing merge, and (with ``files``)
    the number of tokens each makes of every file. ``progress("encode", done, total)`` per file."""
    ta, tb = _ordinary(a), _ordinary(b)
    shared = sorted((i, tb[t]) for t, i in ta.items() if t in tb)
    only_a = sorted(i for t, i in ta.items() if t not in tb)
    only_b = sorted(i for t, i in tb.items() if t not in ta)
    pa, pb = set(a.added_not_special), set(b.added_not_special)
    sa, sb = set(a.special_tokens) - pa, set(b.special_tokens) - pb
    k, ma, mb = first_difference(
        (tuple(map(bytes, p)) for p in a.merges),  # type: ignore[misc]
        (tuple(map(bytes, p)) for p in b.merges),  # type: ignore[misc]
    )
    counts = tuple(_count_file(a, b, f, progress) for f in files)
    return Comparison(
        len(a.vocab),
        len(b.vocab),
        shared,
        only_a,
        only_b,
        sorted(sa & sb),
        sorted(sa - sb),
        sorted(sb - sa),
        k,
        ma,
        mb,
        counts,
        sorted(pa & pb),
        sorted(pa - pb),
        sorted(pb - pa),
    )


def _count_file(a: Tokenizer, b: Tokenizer, path: str | os.PathLike, progress: Progress | None) -> FileCounts:
    from core.evaluation.inspect import file_token_counts

    def tick(phase: str, done: int, total: int) -> None:
        if progress is not None and progress(phase, done, total) is False:
            raise Cancelled("compare cancelled")

    na = int(file_token_counts(a, path, max(a.vocab) + 1, tick, "tokenizer A").sum())
    nb = int(file_token_counts(b, path, max(b.vocab) + 1, tick, "tokenizer B").sum())
    return FileCounts(Path(path).name, Path(path).stat().st_size, na, nb)
