"""The one reference trainer and the one reference encoder: slow, obviously correct, the oracles
of the differential tests.

The trainer keeps every pre-token occurrence of a text in order (no deduplication, no incremental
counts), recounts all pairs before every merge, and merges left to right; the encoder applies every
merge in order to each pre-token. They share nothing with ``core`` except the pre-tokenizer regex
strings, which are part of the specification.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

import regex

from core.formats.spec import TokenizerSpec
from core.pretokenization.pretokenize import PATTERNS


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


def _pair_counts(seqs: list[list[bytes]], weights: list[int]) -> dict[tuple[bytes, bytes], int]:
    """Every adjacent pair's count, in the order pairs are first seen (sequences in order)."""
    counts: dict[tuple[bytes, bytes], int] = {}
    for seq, w in zip(seqs, weights):
        for j in range(len(seq) - 1):
            p = (seq[j], seq[j + 1])
            counts[p] = counts.get(p, 0) + w
    return counts


def reference_merges(
    words: Mapping[bytes, int] | Iterable[tuple[bytes, int]], n_merges: int, tie_break: str = "lexicographic"
) -> list[tuple[bytes, bytes]]:
    """The reference trainer: merges learned from weighted words, recounting every pair before
    every merge. Ties go to the greatest pair (``"lexicographic"``) or to the pair seen first,
    words in the order given (``"first"``)."""
    items = list(words.items()) if isinstance(words, Mapping) else list(words)
    seqs = [[bytes([x]) for x in w] for w, _ in items]
    weights = [c for _, c in items]
    merges: list[tuple[bytes, bytes]] = []
    for _ in range(n_merges):
        counts = _pair_counts(seqs, weights)
        if not counts:
            break
        if tie_break == "lexicographic":
            best = max(counts, key=lambda p: (counts[p], p))
        else:
            first_seen = {p: i for i, p in enumerate(counts)}
            best = max(counts, key=lambda p: (counts[p], -first_seen[p]))
        merges.append(best)
        merge_everywhere(seqs, best)
    return merges


def reference_train(
    data: bytes,
    n_merges: int,
    special_tokens: list[str],
    pattern: str | None = "gpt2",
    tie_break: str = "lexicographic",
) -> list[tuple[bytes, bytes]]:
    """:func:`reference_merges` over every pre-token occurrence of the text (each counted once)."""
    return reference_merges([(t, 1) for t in pretokens(data, special_tokens, pattern)], n_merges, tie_break)


def reference_pair_counts(data: bytes, merges, special_tokens, pattern) -> dict:
    """Pair counts after applying ``merges`` (recomputed from scratch)."""
    seqs = [[bytes([x]) for x in tok] for tok in pretokens(data, special_tokens, pattern)]
    for best in merges:
        merge_everywhere(seqs, best)
    return _pair_counts(seqs, [1] * len(seqs))


def reference_encode(text: str, spec: TokenizerSpec) -> list[int]:
    """The reference encoder (CS336 style): split off special tokens, pre-tokenize, apply every
    merge in the order learned, look the pieces up."""
    specials = sorted(spec.special_tokens, key=len, reverse=True)
    sids = spec.special_ids
    lookup = {b: i for i, b in sorted(spec.vocab.items(), reverse=True) if i not in sids.values()}
    if specials:
        parts = regex.split("(" + "|".join(regex.escape(s) for s in specials) + ")", text)
        pieces = [(p, i % 2 == 1) for i, p in enumerate(parts)]
    else:
        pieces = [(text, False)]
    pat = spec.pattern_regex
    out: list[int] = []
    for piece, is_special in pieces:
        if is_special:
            out.append(sids[piece])
            continue
        words = regex.findall(pat, piece) if pat is not None else ([piece] if piece else [])
        for w in words:
            seqs = [[bytes([b]) for b in w.encode("utf-8", "surrogateescape")]]
            for pair in spec.merges:
                merge_everywhere(seqs, pair)
            out.extend(lookup[p] for p in seqs[0])
    return out
