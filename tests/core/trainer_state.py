"""Helpers of the trainer tests: a comparable snapshot of a trainer's observable state (to check that
undo and every merge path are exact; it reads the trainer's parts, and tokens, not their codes, are
compared), the corpora the property tests draw, and the trainer's index as listed."""

from __future__ import annotations

from array import array

import numpy as np
from hypothesis import strategies as st

from core.pretokenization.pretokenize import count_pretokens
from core.training.pair_index import WID_TYPECODE, Listed, word_ids
from core.training.trainer import Trainer


def canonical_state(t: Trainer) -> tuple:
    """Words' tokens, pair counts, the index (the words that really contain each pair), merges
    and count buckets."""
    t._sync_long_words()
    buckets = dict(t._index.exact_buckets())  # (buckets hold stale keys until read: compare them exact)
    tok = t._codes.token
    index = {}
    for key, listed in t._index.words.items():
        pair = (tok[key[0]], tok[key[1]])
        ids = frozenset(w for w in word_ids(listed).tolist() if _contains(t, w, pair))
        if ids:
            index[pair] = ids
    return (
        tuple(map(t._codes.tokens, t._words.tolist())),
        tuple(sorted(t.pair_counts().items())),
        tuple(sorted(index.items())),
        tuple(t.merges),
        tuple(sorted((c, frozenset(map(t._pair, b))) for c, b in buckets.items())),
    )


def _contains(t: Trainer, wid: int, pair: tuple[bytes, bytes]) -> bool:
    a, b = (t._codes.code.get(x) for x in pair)
    return a is not None and b is not None and a + b in t._words[wid]


CATS = (
    "   \n"
    "Cats never fail to fascinate human beings.\n"
    "They can be friendly and affectionate towards humans, but they lead mysterious lives of their own as well.\n"
    "They never become submissive like dogs and horses. As a result, humans have learned to respect feline independence.\n"
    "Most cats remain suspicious of humans all their lives.\n"
    "One of the things that fascinates us most about cats is the popular belief that they have nine lives.\n"
    "Apparently, there is a good deal of truth in this idea. A cat's ability to survive falls is based on fact.\n"
)

SPECIAL_POOL = ["<|endoftext|>", "<|a|>", "<|a|><|a|>", "a.b", "[x]"]
FRAGMENTS = [
    b"the",
    b" the",
    b" cat",
    b" cats",
    b"at",
    b"  ",
    b"   ",
    b"\t",
    b"\n",
    b"\n\n",
    b"\r\n",
    b"123",
    b" 4567",
    b"don't",
    b"'s",
    b"!!",
    b"?",
    b" ...",
    "\U0001f642".encode(),
    "中文字".encode(),
    "é".encode(),
    b"a",
    b"b",
    b"aaaa",
    b"\xff",
    b"\xc3",
    b"\xe9t\xe9",
    b"x",
    b" x",
    b"\xef\xbb\xbf",
] + [s.encode() for s in SPECIAL_POOL]
PATTERN_CHOICES = ["gpt2", "gpt4", "none", r"\S+|\s+"]

corpora = st.lists(st.sampled_from(FRAGMENTS), min_size=0, max_size=60).map(b"".join)
specials_st = st.lists(st.sampled_from(SPECIAL_POOL), unique=True, max_size=3)


def listed_bytes(listed: Listed) -> bytes:
    """An index entry's word ids exactly as listed (order and repeats kept), as the bytes of C ints:
    to check that an entry is left as it was."""
    return array(WID_TYPECODE, (listed,)).tobytes() if isinstance(listed, int) else bytes(listed)


def listed_ids(t: Trainer, pair) -> list[int]:
    """The word ids the trainer's index lists under ``pair`` (C ints in a bytearray)."""
    return np.frombuffer(listed_bytes(t._index.words[t._key(pair)]), dtype=np.intc).tolist()


def text_trainer(text: str, **options) -> Trainer:
    """``Trainer.from_text(text)`` with the test-only options (which code path to take)."""
    counts, stats = count_pretokens(text, [], "gpt2", workers=1, is_text=True)
    return Trainer(counts, [], stats=stats, **options)
