"""A slow, obviously-correct BPE trainer used as the oracle of the differential tests.

It keeps every pre-token occurrence of the text in order (no deduplication, no incremental
counts), recounts all pairs before every merge, and merges left to right. It shares nothing with
``core`` except the pre-tokenizer regex strings, which are part of the specification.
"""
from __future__ import annotations

import re

import regex

from core.pretokenize import PATTERNS


def pretokens(data: bytes, special_tokens: list[str], pattern: str | None) -> list[bytes]:
    """All pre-token occurrences of the corpus, in text order."""
    text = data.decode("utf-8", "surrogateescape")
    if special_tokens:
        alternation = "|".join(re.escape(s) for s in sorted(special_tokens, key=len, reverse=True))
        pieces = re.split(alternation, text)
    else:
        pieces = [text]
    pat = PATTERNS.get(pattern, pattern) if pattern is not None else None
    out = []
    for piece in pieces:
        if not piece:
            continue
        found = [piece] if pat is None else regex.findall(pat, piece)
        out.extend(t.encode("utf-8", "surrogateescape") for t in found)
    return out


def merge_everywhere(seqs: list[list[bytes]], best: tuple[bytes, bytes]) -> None:
    """Replace every occurrence of ``best`` in every sequence, left to right."""
    for k, seq in enumerate(seqs):
        out, j = [], 0
        while j < len(seq):
            if j + 1 < len(seq) and (seq[j], seq[j + 1]) == best:
                out.append(seq[j] + seq[j + 1])
                j += 2
            else:
                out.append(seq[j])
                j += 1
        seqs[k] = out


def reference_train(data: bytes, n_merges: int, special_tokens: list[str], pattern: str | None = "gpt2",
                    tie_break: str = "lexicographic") -> list[tuple[bytes, bytes]]:
    seqs = [[bytes([x]) for x in tok] for tok in pretokens(data, special_tokens, pattern)]
    merges = []
    for _ in range(n_merges):
        counts: dict[tuple[bytes, bytes], int] = {}
        first_seen: dict[tuple[bytes, bytes], int] = {}
        for seq in seqs:
            for j in range(len(seq) - 1):
                p = (seq[j], seq[j + 1])
                counts[p] = counts.get(p, 0) + 1
                first_seen.setdefault(p, len(first_seen))
        if not counts:
            break
        if tie_break == "lexicographic":
            best = max(counts, key=lambda p: (counts[p], p))
        else:
            best = max(counts, key=lambda p: (counts[p], -first_seen[p]))
        merges.append(best)
        merge_everywhere(seqs, best)
    return merges


def reference_pair_counts(data: bytes, merges, special_tokens, pattern) -> dict:
    """Pair counts after applying ``merges`` (recomputed from scratch)."""
    seqs = [[bytes([x]) for x in tok] for tok in pretokens(data, special_tokens, pattern)]
    for best in merges:
        merge_everywhere(seqs, best)
    counts: dict = {}
    for seq in seqs:
        for j in range(len(seq) - 1):
            p = (seq[j], seq[j + 1])
            counts[p] = counts.get(p, 0) + 1
    return counts
