"""The merge list implied by tokens listed in rank order (a tiktoken or tekken file), one merge at
a time: a caller can show the first merges, or report progress, before the last one is found.

>>> list(iter_recovered_merges([b"a", b"b", b"ab", b"abb", b"<|x|>"]))
[(2, (b'a', b'b')), (3, (b'ab', b'b'))]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from core.bpe.merge import bpe_merge

Pair = tuple[bytes, bytes]
_NONE = 1 << 62


def iter_recovered_merges(tokens: Sequence[bytes]) -> Iterator[tuple[int, Pair]]:
    """(rank of the token, its merge) for each multi-byte token of ``tokens`` (listed in rank order)
    that two tokens of lower rank make, in rank order.

    Each multi-byte token is encoded with the merges recovered so far; its merge is the pair left at
    the end. If those merges leave more than two parts, parts are joined as tiktoken would
    (lowest-ranked concatenation first) until two are left. A token that cannot be made from two
    tokens of lower rank (e.g. a special token listed as a rank) is skipped.
    """
    token_rank = {b: i for i, b in enumerate(tokens)}
    pair_rank: dict[Pair, int] = {}
    n = 0
    for i, token in enumerate(tokens):
        if len(token) == 1:
            continue
        parts = bpe_merge(token, pair_rank)
        while len(parts) > 2:
            best = min(range(len(parts) - 1), key=lambda k: token_rank.get(parts[k] + parts[k + 1], _NONE))
            r = token_rank.get(parts[best] + parts[best + 1])
            if r is None or r >= i:
                break
            parts[best : best + 2] = [parts[best] + parts[best + 1]]
        if len(parts) == 2:
            pair = (parts[0], parts[1])
            pair_rank.setdefault(pair, n)
            n += 1
            yield i, pair
