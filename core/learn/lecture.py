"""The lecture algorithm: BPE on a text's raw UTF-8 bytes (no pre-tokenization, first-seen ties).

>>> w = walk("hi", 0)
>>> w.indices, [f.event for f in w.frames][:2]
([104, 105], ['bytes', 'vocab'])
"""

from __future__ import annotations

import itertools
from collections import defaultdict

from core.learn.frame import Recorder, Walk

CODE: tuple[str, ...] = (
    'indices = list(text.encode("utf-8"))',  # 0
    "vocab = {i: bytes([i]) for i in range(256)}",  # 1
    "for step in range(num_merges):",  # 2
    "    counts = defaultdict(int)",  # 3
    "    for a, b in zip(indices, indices[1:]):",  # 4
    "        counts[(a, b)] += 1",  # 5
    "    pair = max(counts, key=counts.get)",  # 6
    "    new_index = 256 + step",  # 7
    "    vocab[new_index] = vocab[pair[0]] + vocab[pair[1]]",  # 8
    "    indices = merge(indices, pair, new_index)",  # 9
)


def merge(indices: list[int], pair: tuple[int, int], new_index: int) -> list[int]:
    """Replace every occurrence of ``pair`` in ``indices``, left to right, by ``new_index``.

    >>> merge([97, 97, 97], (97, 97), 256)
    [256, 97]
    """
    out: list[int] = []
    i = 0
    while i < len(indices):
        if i + 1 < len(indices) and (indices[i], indices[i + 1]) == pair:
            out.append(new_index)
            i += 2
        else:
            out.append(indices[i])
            i += 1
    return out


def walk(text: str, num_merges: int) -> Walk:
    """Run the lecture algorithm on ``text`` for at most ``num_merges`` merges, frame by frame.

    Stops early when fewer than two indices are left (no pair to count). ``result``: ``indices``
    (after the last merge), ``merges`` ([((a, b), new_index)]) and ``vocab`` (only the new entries).
    """
    rec = Recorder()
    indices = list(text.encode("utf-8"))
    rec(0, "bytes", {"text": text, "indices": indices}, n=len(indices))
    vocab_new: dict[int, bytes] = {}
    vocab = {i: bytes([i]) for i in range(256)}
    rec(1, "vocab", {"indices": indices}, size=256)
    merges: list[tuple[tuple[int, int], int]] = []
    for step in range(num_merges):
        rec(2, "loop", {"step": step, "indices": indices}, step=step)
        counts: dict[tuple[int, int], int] = defaultdict(int)
        rec(3, "counts_new", {"step": step, "indices": indices, "counts": {}})
        if len(indices) < 2:
            rec(4, "no_pairs", {"step": step, "indices": indices, "counts": {}})
            break
        for a, b in itertools.pairwise(indices):
            rec(4, "zip", {"step": step, "a": a, "b": b, "counts": dict(counts)}, a=a, b=b)
            counts[(a, b)] += 1
            rec(
                5,
                "count",
                {"step": step, "a": a, "b": b, "counts": dict(counts)},
                a=a,
                b=b,
                count=counts[(a, b)],
            )
        pair = max(
            counts, key=counts.__getitem__
        )  # the first pair (in order of first appearance) with the top count
        top = counts[pair]
        ties = [p for p, c in counts.items() if c == top and p != pair]
        rec(6, "max", {"step": step, "counts": dict(counts), "pair": pair}, pair=pair, count=top, ties=ties)
        new_index = 256 + step
        rec(7, "new_index", {"step": step, "pair": pair, "new_index": new_index}, new_index=new_index)
        vocab[new_index] = vocab[pair[0]] + vocab[pair[1]]
        vocab_new[new_index] = vocab[new_index]
        rec(
            8,
            "vocab_entry",
            {"step": step, "pair": pair, "new_index": new_index, "vocab[new_index]": vocab[new_index]},
            new_index=new_index,
            token=vocab[new_index],
            left=vocab[pair[0]],
            right=vocab[pair[1]],
        )
        before = len(indices)
        indices = merge(indices, pair, new_index)
        merges.append((pair, new_index))
        rec(
            9,
            "merged",
            {"step": step, "pair": pair, "new_index": new_index, "indices": indices},
            pair=pair,
            new_index=new_index,
            replaced=before - len(indices),
            before=before,
            after=len(indices),
        )
    return Walk(
        CODE, tuple(rec.frames), {"indices": indices, "merges": merges, "vocab": vocab_new}, rec.truncated
    )
