"""The CS336 trainer: special tokens split out, pre-tokens counted, pair counts from word counts,
the lexicographic tie rule, and the incremental update of pair counts after each merge.

>>> w = walk("low low lower", [], 2)
>>> w.merges
[(b'o', b'w'), (b'l', b'ow')]
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable

import regex

from core.learn.frame import BYTE_VOCAB, Recorder, Shown, Walk
from core.pretokenization.pretokenize import (
    check_special_tokens,
    resolve_pattern,
    special_regex,
    split_specials,
)

Pair = tuple[bytes, bytes]
Word = tuple[bytes, ...]

CODE: tuple[str, ...] = (
    "pieces = re.split(special_tokens_pattern, text)",  # 0
    "for piece in pieces:",  # 1
    "    for pre_token in pretokens(PAT, piece):  # PAT's matches + the text between",  # 2
    "        word_counts[tuple(bytes([b]) for b in pre_token.encode())] += 1",  # 3
    "for word, n in word_counts.items():",  # 4
    "    for pair in zip(word, word[1:]):",  # 5
    "        pair_counts[pair] += n",  # 6
    "vocab = {i: bytes([i]) for i in range(256)}; next_id = 256",  # 7
    "for s in special_tokens: vocab[next_id] = s.encode(); next_id += 1",  # 8
    "for step in range(num_merges):",  # 9
    "    best = max(pair_counts, key=lambda p: (pair_counts[p], p))",  # 10
    "    merges.append(best); vocab[next_id] = best[0] + best[1]",  # 11
    "    next_id += 1",  # 12
    "    for word, n in words_containing(best):",  # 13
    "        for pair in zip(word, word[1:]): pair_counts[pair] -= n",  # 14
    "        new_word = merge(word, best)",  # 15
    "        for pair in zip(new_word, new_word[1:]): pair_counts[pair] += n",  # 16
    "        word_counts[new_word] = word_counts.pop(word)",  # 17
    "return vocab, merges",  # 18
)

#: the pre-tokenizer choices of Learn: the name passed to ``walk`` and the regex shown as PAT
LEARN_PATTERNS: dict[str, str | None] = {"gpt2": "gpt2", "whitespace": r"\S+", "none": "none"}


def pretokens(pat: str | None, piece: str) -> list[tuple[str, bool]]:
    """The pre-tokens of ``piece`` as the trainer counts them, each with whether ``pat`` matched it:
    text no (non-empty) match covers is kept as a pre-token of its own (``False``), as
    :func:`core.splitting.make_covering_splitter` keeps it; no pattern: the whole piece.

    >>> pretokens(r"\\S+", "ab  c")
    [('ab', True), ('  ', False), ('c', True)]
    """
    if pat is None:
        return [(piece, True)] if piece else []
    out: list[tuple[str, bool]] = []
    pos = 0
    for m in regex.finditer(pat, piece):
        start, end = m.span()
        if start == end:
            continue
        if start > pos:
            out.append((piece[pos:start], False))
        out.append((piece[start:end], True))
        pos = end
    if pos < len(piece):
        out.append((piece[pos:], False))
    return out


def occurrences(word: Word, pair: Pair) -> int:
    """How many times ``pair`` stands in ``word`` (overlapping ones counted, as pair counts do).

    >>> occurrences((b"a", b"a", b"a"), (b"a", b"a"))
    2
    """
    return sum(p == pair for p in itertools.pairwise(word))


def merge_word(word: Word, pair: Pair) -> Word:
    """``word`` with every occurrence of ``pair`` (left to right) replaced by the merged token.

    >>> merge_word((b"a", b"a", b"a"), (b"a", b"a"))
    (b'aa', b'a')
    """
    out: list[bytes] = []
    i = 0
    while i < len(word):
        if i + 1 < len(word) and (word[i], word[i + 1]) == pair:
            out.append(word[i] + word[i + 1])
            i += 2
        else:
            out.append(word[i])
            i += 1
    return tuple(out)


def _positive(counts: Counter[Pair]) -> dict[Pair, int]:
    return {p: c for p, c in counts.items() if c > 0}


def walk(
    text: str, special_tokens: Iterable[str] | None, num_merges: int, pattern: str | None = "gpt2"
) -> Walk:
    """Train on ``text`` for at most ``num_merges`` merges, frame by frame.

    ``result``: ``word_counts`` (before merging: pre-token bytes → count), ``merges``, ``vocab``
    (new entries), ``pair_counts_after`` (the pair counts after each merge) and ``updates`` (per merge,
    the net change of each pair count).
    """
    specials = check_special_tokens(special_tokens)
    pat = resolve_pattern(LEARN_PATTERNS.get(pattern, pattern) if pattern is not None else None)
    rec = Recorder()
    pieces = [p for p in split_specials(text, special_regex(specials)) if p]
    rec(
        0,
        "split",
        {"special_tokens": specials, "PAT": Shown(pat if pat is not None else "None"), "pieces": pieces},
        n=len(pieces),
        specials=specials,
    )
    word_counts: Counter[Word] = Counter()
    for piece in pieces:
        rec(1, "piece", {"piece": piece, "word_counts": dict(word_counts)}, piece=piece)
        found = pretokens(pat, piece)
        for pre, matched in found:
            rec(
                2,
                "pretoken",
                {"piece": piece, "pre_token": pre, "word_counts": dict(word_counts)},
                pretoken=pre,
                pattern=pattern if pat is not None else "none",
                gap=not matched,
            )
            word = tuple(bytes([b]) for b in pre.encode("utf-8", "surrogateescape"))
            word_counts[word] += 1
            rec(
                3,
                "word_count",
                {"pre_token": pre, "word_counts": dict(word_counts)},
                word=word,
                count=word_counts[word],
            )
    initial = {b"".join(w): c for w, c in word_counts.items()}
    pair_counts: Counter[Pair] = Counter()
    for word, n in word_counts.items():
        rec(4, "word", {"word": word, "n": n, "pair_counts": dict(pair_counts)}, word=word, n=n)
        for pair in itertools.pairwise(word):
            pair_counts[pair] += n
            rec(
                6,
                "pair_count",
                {"word": word, "n": n, "pair": pair, "pair_counts": dict(pair_counts)},
                pair=pair,
                n=n,
                count=pair_counts[pair],
            )
    merges: list[Pair] = []
    vocab_new: dict[int, bytes] = {}
    after: list[dict[Pair, int]] = []
    updates: list[dict[Pair, int]] = []
    next_id = 256
    rec(7, "vocab", {"vocab": BYTE_VOCAB, "next_id": next_id}, size=256)
    special_vocab: dict[int, bytes] = {}
    for s in specials:
        special_vocab[next_id] = s.encode("utf-8", "surrogateescape")
        next_id += 1
        rec(
            8,
            "special_vocab",
            {"s": s, "vocab (new)": dict(special_vocab), "next_id": next_id},
            token=s,
            id=next_id - 1,
            next_id=next_id,
        )
    for step in range(num_merges):
        live = _positive(pair_counts)
        rec(9, "loop", {"step": step, "pair_counts": live}, step=step)
        if not live:
            rec(9, "no_pairs", {"step": step, "pair_counts": live})
            break
        best = max(live, key=lambda p: (live[p], p))
        top = live[best]
        ties = sorted((p for p, c in live.items() if c == top and p != best), reverse=True)
        rec(10, "best", {"step": step, "pair_counts": live, "best": best}, pair=best, count=top, ties=ties)
        merges.append(best)
        vocab_new[next_id] = best[0] + best[1]
        rec(
            11,
            "append",
            {
                "step": step,
                "best": best,
                "merges": list(merges),
                "next_id": next_id,
                "vocab[next_id]": vocab_new[next_id],
            },
            new_id=next_id,
            token=vocab_new[next_id],
            number=step + 1,
        )
        next_id += 1
        rec(12, "next_id", {"step": step, "next_id": next_id}, next_id=next_id)
        net: Counter[Pair] = Counter()
        for word, n in [(w, c) for w, c in word_counts.items() if best in itertools.pairwise(w)]:
            rec(13, "changed_word", {"best": best, "word": word, "n": n}, word=word, n=n)
            old_pairs = list(itertools.pairwise(word))
            for pair in old_pairs:
                pair_counts[pair] -= n
                net[pair] -= n
            rec(
                14,
                "decrement",
                {"word": word, "n": n, "pair_counts": _positive(pair_counts)},
                pairs=old_pairs,
                n=n,
            )
            new_word = merge_word(word, best)
            rec(
                15,
                "new_word",
                {"word": word, "new_word": new_word, "n": n},
                word=word,
                new_word=new_word,
                seen=occurrences(word, best),
                replaced=len(word) - len(new_word),
            )
            new_pairs = list(itertools.pairwise(new_word))
            for pair in new_pairs:
                pair_counts[pair] += n
                net[pair] += n
            rec(
                16,
                "increment",
                {"new_word": new_word, "n": n, "pair_counts": _positive(pair_counts)},
                pairs=new_pairs,
                n=n,
            )
            word_counts[new_word] = word_counts.pop(word)
            rec(17, "replace", {"new_word": new_word, "word_counts": dict(word_counts)}, new_word=new_word)
        after.append(_positive(pair_counts))
        updates.append({p: d for p, d in net.items() if d})
    rec.last(
        18,
        "summary",
        {"merges": list(merges), "vocab (new)": special_vocab | vocab_new, "word_counts": dict(word_counts)},
        merges=[(p, i) for p, i in zip(merges, vocab_new)],
        specials=list(special_vocab.items()),
        vocab_size=next_id,
    )
    return Walk(
        CODE,
        tuple(rec.frames),
        {
            "word_counts": initial,
            "merges": merges,
            "vocab": vocab_new,
            "pair_counts_after": after,
            "updates": updates,
        },
        rec.truncated,
    )
