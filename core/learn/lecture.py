"""The lecture algorithm: BPE on a text's raw UTF-8 bytes (no pre-tokenization, first-seen ties).

>>> w = walk("hi", 0)
>>> w.indices, [f.event for f in w.frames][:2]
([104, 105], ['bytes', 'merges_new'])
"""

from __future__ import annotations

import itertools
from collections import defaultdict

from core.learn.frame import BYTE_VOCAB, Recorder, Walk

CODE: tuple[str, ...] = (
    'indices = list(text.encode("utf-8"))',  # 0
    "merges = {}",  # 1
    "vocab = {i: bytes([i]) for i in range(256)}",  # 2
    "for step in range(num_merges):",  # 3
    "    counts = defaultdict(int)",  # 4
    "    for a, b in zip(indices, indices[1:]):",  # 5
    "        counts[(a, b)] += 1",  # 6
    "    pair = max(counts, key=counts.get)",  # 7
    "    new_index = 256 + step",  # 8
    "    merges[pair] = new_index",  # 9
    "    vocab[new_index] = vocab[pair[0]] + vocab[pair[1]]",  # 10
    "    indices = merge(indices, pair, new_index)",  # 11
    "return merges, vocab",  # 12
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
    indices = list(text.encode("utf-8", "surrogateescape"))
    rec(0, "bytes", {"text": text, "indices": indices}, n=len(indices), text=text)
    merges_d: dict[tuple[int, int], int] = {}
    rec(1, "merges_new", {"indices": indices, "merges": {}})
    vocab_new: dict[int, bytes] = {}
    vocab = {i: bytes([i]) for i in range(256)}
    rec(2, "vocab", {"indices": indices, "vocab": BYTE_VOCAB}, size=256)
    merges: list[tuple[tuple[int, int], int]] = []
    for step in range(num_merges):
        rec(3, "loop", {"step": step, "indices": indices}, step=step)
        counts: dict[tuple[int, int], int] = defaultdict(int)
        rec(4, "counts_new", {"step": step, "indices": indices, "counts": {}})
        if len(indices) < 2:
            rec(5, "no_pairs", {"step": step, "indices": indices, "counts": {}})
            break
        for a, b in itertools.pairwise(indices):
            rec(5, "zip", {"step": step, "a": a, "b": b, "counts": dict(counts)}, a=a, b=b)
            counts[(a, b)] += 1
            rec(
                6,
                "count",
                {"step": step, "a": a, "b": b, "counts": dict(counts)},
                a=a,
                b=b,
                count=counts[(a, b)],
            )
        # max keeps the first pair (in order of first appearance) with the top count
        pair = max(counts, key=counts.__getitem__)
        top = counts[pair]
        ties = [p for p, c in counts.items() if c == top and p != pair]
        rec(
            7,
            "max",
            {"step": step, "counts": dict(counts), "pair": pair},
            pair=pair,
            count=top,
            ties=ties,
            tokens=(vocab[pair[0]], vocab[pair[1]]),
        )
        new_index = 256 + step
        rec(8, "new_index", {"step": step, "pair": pair, "new_index": new_index}, new_index=new_index)
        merges_d[pair] = new_index
        rec(
            9,
            "merges_entry",
            {"step": step, "pair": pair, "new_index": new_index, "merges": dict(merges_d)},
            pair=pair,
            new_index=new_index,
        )
        vocab[new_index] = vocab[pair[0]] + vocab[pair[1]]
        vocab_new[new_index] = vocab[new_index]
        rec(
            10,
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
            11,
            "merged",
            {"step": step, "pair": pair, "new_index": new_index, "indices": indices},
            pair=pair,
            new_index=new_index,
            count=top,
            replaced=before - len(indices),
            before=before,
            after=len(indices),
        )
    rec.last(
        12,
        "summary",
        {"merges": dict(merges_d), "vocab (new)": dict(vocab_new), "indices": indices},
        merges=[(p, i, vocab_new[i]) for p, i in merges],
        n_bytes=len(text.encode("utf-8", "surrogateescape")),
        n_tokens=len(indices),
        vocab_size=256 + len(vocab_new),
    )
    return Walk(
        CODE, tuple(rec.frames), {"indices": indices, "merges": merges, "vocab": vocab_new}, rec.truncated
    )
