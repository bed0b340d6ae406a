"""A comparable snapshot of a trainer's observable state (to check that undo and every merge path
are exact). It reads the trainer's parts; tokens, not their codes, are compared."""
from __future__ import annotations

from core.pair_index import word_ids
from core.trainer import Trainer


def canonical_state(t: Trainer) -> tuple:
    """Words' tokens, pair counts, the index (the words that really contain each pair), merges
    and count buckets."""
    t._sync_long_words()
    tok = t._codes.token
    index = {}
    for key, listed in t._index.words.items():
        pair = (tok[key[0]], tok[key[1]])
        ids = frozenset(w for w in word_ids(listed).tolist() if _contains(t, w, pair))
        if ids:
            index[pair] = ids
    return (tuple(map(t._codes.tokens, t._words.tolist())), tuple(sorted(t._index.counts.items())),
            tuple(sorted(index.items())), tuple(t.merges),
            tuple(sorted((c, frozenset(b)) for c, b in t._index.buckets.items())))


def _contains(t: Trainer, wid: int, pair: tuple[bytes, bytes]) -> bool:
    a, b = (t._codes.code.get(x) for x in pair)
    return a is not None and b is not None and a + b in t._words[wid]
