"""Whether a tiktoken file of a tokenizer gives the tokenizer's ids: tiktoken merges by token rank.

BPE Explorer and HF ``tokenizers`` encode a pre-token by applying the listed merges, the one of
lowest rank in the merge list first. tiktoken has no merge list: it merges, again and again, the
adjacent pair of parts whose concatenation is the token of lowest rank (= our id), whatever merge made
that token (:func:`tiktoken_piece`). For a tokenizer trained by BPE (ours, GPT-2's, cl100k's,
Qwen2.5's, tekken's) the two rules give the same ids. For a merge list whose order is not the order of
the ids it makes, or with tokens that a pair other than their own merge joins, they do not, and a
tiktoken file of that tokenizer gives other ids (:func:`rank_order_example` finds a text where they
differ; :mod:`core.formats.losses` calls it a loss of the tiktoken format).

>>> spec = TokenizerSpec({**{i: bytes([i]) for i in range(256)}, 256: b"bc", 257: b"ab"},
...                      ((b"a", b"b"), (b"b", b"c")))
>>> rank_order_example(spec)
RankOrderExample(text='abc', ours=(257, 99), tiktoken=(97, 256))
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import numpy as np
import regex

from core.bpe.batch import PairTable, bpe_batch, split_ids
from core.bpe.merge import MergeTable, bpe_ids
from core.bpe.ranks import IdMerges, RankMerges, rank_bpe
from core.bpe.support import build_encoder, merge_table
from core.formats.spec import TokenizerSpec
from core.pretokenization.pattern_probe import PROBE_TEXT

#: text where the two rules meet words that no token spells: runs of spaces and of one character,
#: indentation, code, numbers, dates, and :data:`PROBE_TEXT`'s scripts, CJK and emoji
MERGE_PROBE_TEXT = PROBE_TEXT + (
    "\ndef f(x):\n    if x  >=  10:\n        return [x, x**2]  # comment\n\t\treturn None\n"
    "      [1913 Webster]\n                        end\n  \n   \n\t\t\t\n"
    'for (int i = 0; i < n; ++i) { a[i] += b[i]; }  // C\n<div class="x">&nbsp;</div>\n'
    "1234567890 3.14159265 2024-11-27 12:30:45 0x1F 1e-10 100,000,000 ###### ------ ====== ......\n"
    "aaaaaaaaaaaa zzzzzzzz !!!!!! ?!?! :-) https://example.com/a_b?c=d&e=f user@example.org\n"
    "東京都渋谷区 北京大学的学生 ㅋㅋㅋㅋ ありがとうございます 🙃🙃🙃 👍🏽👍🏽\n"
)
#: how many tokens whose bytes the two rules merge differently are tried as the seed of an example
EXAMPLE_SEEDS = 20


@dataclass(frozen=True)
class RankOrderExample:
    """A text whose ids differ: ``ours`` (merge list, as BPE Explorer and HF), ``tiktoken`` (by rank)."""

    text: str
    ours: tuple[int, ...]
    tiktoken: tuple[int, ...]


def tiktoken_piece(word: bytes, ranks: dict[bytes, int]) -> list[int]:
    """tiktoken's ids of one pre-token: the token it is, else its bytes merged by rank, the adjacent
    pair whose concatenation has the lowest rank first, leftmost on ties (:func:`rank_bpe`).

    >>> tiktoken_piece(b"abc", {b"a": 0, b"b": 1, b"c": 2, b"bc": 3, b"ab": 4})
    [0, 3]
    """
    i = ranks.get(word)
    return [i] if i is not None else rank_bpe(word, ranks)


class _Rules:
    """The two rules over one vocab: our merge list and tiktoken's ranks (the ordinary ids)."""

    def __init__(self, spec: TokenizerSpec) -> None:
        sids = set(spec.special_ids.values())
        self.encoder, holes, _ = build_encoder(spec.vocab, sids)
        self.holes = frozenset(holes)
        ordinary = {i: b for i, b in spec.vocab.items() if i not in sids}
        self.ranks = {
            ordinary[i]: i for i in sorted(ordinary, reverse=True)
        }  # (the lowest id of repeated bytes)
        merges = spec.merges
        if isinstance(merges, IdMerges) and merges.vocab is spec.vocab:
            self.table: MergeTable = merge_table(self.encoder, (), merges.ids, merges.keys)
        else:
            self.table = merge_table(self.encoder, tuple(merges))
        self.vocab = spec.vocab
        self.split = _splitter(spec.pattern_regex)

    def ours(self, word: bytes) -> list[int]:
        """Our ids of one pre-token: the token it is, else the merges in list order (tiktoken and HF
        with ``ignore_merges`` both look the whole pre-token up first; the case where HF does not is
        a loss of its own, :func:`core.formats.losses.pipeline_losses`)."""
        i = self.encoder.get(word)
        return [i] if i is not None else bpe_ids(word, self.table)

    def example(self, text: str) -> RankOrderExample | None:
        """``text`` with both rules' ids when they differ on one of its pre-tokens, else None."""
        ours: list[int] = []
        theirs: list[int] = []
        for piece in self.split(text):
            word = piece.encode("utf-8", "surrogateescape")
            if self.holes and not self.holes.isdisjoint(word):
                return None  # (a byte the vocab lacks: neither encodes it)
            ours += self.ours(word)
            theirs += tiktoken_piece(word, self.ranks)
        return RankOrderExample(text, tuple(ours), tuple(theirs)) if ours != theirs else None

    def differing_tokens(self) -> list[bytes]:
        """The tokens whose bytes the two rules merge into other ids (no whole-token lookup), in id
        order: all tokens at once, in rounds (:func:`core.bpe.batch.bpe_batch`)."""
        words = [b for i, b in sorted((i, b) for b, i in self.ranks.items()) if len(b) > 1]
        if self.holes:
            words = [w for w in words if self.holes.isdisjoint(w)]
        if not words:
            return []
        ids_m, n_m = bpe_batch(words, PairTable.from_merge_table(self.table))
        ids_r, n_r = bpe_batch(words, PairTable.from_ranks(self.ranks, self.vocab))
        if np.array_equal(n_m, n_r) and np.array_equal(ids_m, ids_r):
            return []
        pairs = zip(words, split_ids(ids_m, n_m), split_ids(ids_r, n_r))
        return [w for w, a, b in pairs if a != b]

    def inverted_words(self) -> list[bytes]:
        """Words where a merge meets an earlier one of higher id on a shared part: merges ``(x, y)``
        and ``(y, z)`` listed in one order and ranked (by id) in the other, on ``x + y + z``."""
        merged = np.asarray(self.table.merged, np.int64)
        if merged.size < 2:
            return []
        late = np.flatnonzero(merged[1:] < np.maximum.accumulate(merged)[:-1]) + 1
        if not late.size:
            return []
        keys = np.fromiter(self.table.pair_rank.keys(), np.int64, len(self.table.pair_rank))
        ranks = np.fromiter(self.table.pair_rank.values(), np.int64, keys.size)
        left, right = np.full(merged.size, -1, np.int64), np.full(merged.size, -1, np.int64)
        left[ranks], right[ranks] = keys >> 32, keys & 0xFFFFFFFF
        token = self.vocab.__getitem__
        out: list[bytes] = []
        for j in late[:EXAMPLE_SEEDS].tolist():
            a, b = int(left[j]), int(right[j])
            if a < 0:
                continue  # (a pair listed twice: its first merge is the one that counts)
            higher = merged[:j] > merged[j]
            # (b, c) listed before (a, b) with a higher id: a b c; (c, a) so: c a b
            out += [
                token(a) + token(b) + token(c)
                for c in right[np.flatnonzero(higher & (left[:j] == b))[:2]].tolist()
            ]
            out += [
                token(c) + token(a) + token(b)
                for c in left[np.flatnonzero(higher & (right[:j] == a))[:2]].tolist()
            ]
        return out


def _splitter(pattern: str | None) -> Any:
    """The pre-tokens of a text under ``pattern`` as tiktoken finds them (the whole text for none)."""
    if pattern is None:
        return lambda text: [text] if text else []
    return regex.compile(pattern).findall


def _seed_texts(word: bytes) -> list[str]:
    """Texts around a token's bytes that the two rules may merge differently: the token with a
    character more on either side (alone, the token is looked up whole by both)."""
    try:
        s = word.decode("utf-8")
    except UnicodeDecodeError:
        return []
    more = dict.fromkeys([s[-1], s[0], "s", "e", "a", "0", ".", " ", "\n", "x"])
    return [s, *(s + c for c in more), *(c + s for c in more), s + s]


def _by_rank(spec: TokenizerSpec) -> bool:
    """Read from ranks in id order (a tiktoken or tekken file): it encodes by rank itself (and its
    merge list, not made yet, is not made here)."""
    merges = spec.merges
    if not isinstance(merges, RankMerges):
        return False
    sids = set(spec.special_ids.values())
    return tuple(spec.vocab[i] for i in sorted(spec.vocab.keys() - sids)) == merges.tokens


def _find_example(spec: TokenizerSpec) -> RankOrderExample | None:
    if isinstance(spec.pipeline, dict) and spec.pipeline.get("charbpe") is not None:
        return None  # (not byte-level BPE: a loss of its own)
    rules = _Rules(spec)
    for word in [*rules.differing_tokens()[:EXAMPLE_SEEDS], *rules.inverted_words()]:
        for text in _seed_texts(word):
            found = rules.example(text)
            if found is not None:
                return found
    for line in MERGE_PROBE_TEXT.splitlines(keepends=True):
        found = rules.example(line)
        if found is not None:
            return _shortest(rules, found)
    return None


def _shortest(rules: _Rules, found: RankOrderExample) -> RankOrderExample:
    """The first pre-token of an example line on which the rules differ (a shorter example)."""
    for piece in rules.split(found.text):
        one = rules.example(piece)
        if one is not None:
            return one
    return found


#: results by the content of the spec they were found for (:func:`_content_key`), the latest few:
#: a spec made again from the same tokenizer (the app's at each export, made in its import job
#: first) is not checked again
_CACHE: OrderedDict[int, RankOrderExample | None] = OrderedDict()
_CACHE_SIZE = 4


def rank_order_example(spec: TokenizerSpec) -> RankOrderExample | None:
    """A text on which tiktoken, merging by token rank, gives other ids than the tokenizer, which
    applies its merge list in order; None when none is found (then the two rules agree on the bytes of
    every token and on :data:`MERGE_PROBE_TEXT`).

    Both rules are run on the bytes of every token of the vocab (all at once), and a text is made
    from the first tokens on which they differ; then on the probe text. Kept by the spec's content
    (it costs about as much as loading a tokenizer.json of the same size; the key a few hundredths
    of that). A tokenizer read from a tiktoken or tekken file encodes by rank itself and is not
    checked.
    """
    if _by_rank(spec):
        return None
    key = _content_key(spec)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    found = _find_example(spec)
    _CACHE[key] = found
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return found


def _content_key(spec: TokenizerSpec) -> int:
    """A hash of what the check reads: the vocab, the merges, the pattern, the special tokens."""
    return hash(
        (
            tuple(spec.vocab.items()),
            tuple(map(tuple, spec.merges)),
            spec.pattern_regex,
            tuple(spec.special_tokens),
        )
    )
