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

from core.learn.frame import Recorder, Walk
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
    "    for m in re.finditer(PAT, piece):",  # 2
    "        word_counts[tuple(bytes([b]) for b in m.group().encode())] += 1",  # 3
    "for word, n in word_counts.items():",  # 4
    "    for pair in zip(word, word[1:]):",  # 5
    "        pair_counts[pair] += n",  # 6
    "for step in range(num_merges):",  # 7
    "    best = max(pair_counts, key=lambda p: (pair_counts[p], p))",  # 8
    "    merges.append(best); vocab[next_id] = best[0] + best[1]",  # 9
    "    for word, n in words_containing(best):",  # 10
    "        for pair in zip(word, word[1:]): pair_counts[pair] -= n",  # 11
    "        new_word = merge(word, best)",  # 12
    "        for pair in zip(new_word, new_word[1:]): pair_counts[pair] += n",  # 13
    "        word_counts[new_word] = word_counts.pop(word)",  # 14
)


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
    pat = resolve_pattern(pattern)
    rec = Recorder()
    pieces = [p for p in split_specials(text, special_regex(specials)) if p]
    rec(0, "split", {"special_tokens": specials, "pieces": pieces}, n=len(pieces), specials=specials)
    word_counts: Counter[Word] = Counter()
    for piece in pieces:
        rec(1, "piece", {"piece": piece, "word_counts": dict(word_counts)}, piece=piece)
        found = [m.group() for m in regex.finditer(pat, piece)] if pat is not None else [piece]
        for pre in found:
            rec(
                2,
                "pretoken",
                {"piece": piece, "m.group()": pre, "word_counts": dict(word_counts)},
                pretoken=pre,
            )
            word = tuple(bytes([b]) for b in pre.encode("utf-8", "surrogateescape"))
            word_counts[word] += 1
            rec(
                3,
                "word_count",
                {"m.group()": pre, "word_counts": dict(word_counts)},
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
    next_id = 256 + len(specials)
    for step in range(num_merges):
        live = _positive(pair_counts)
        rec(7, "loop", {"step": step, "pair_counts": live}, step=step)
        if not live:
            rec(7, "no_pairs", {"step": step, "pair_counts": live})
            break
        best = max(live, key=lambda p: (live[p], p))
        top = live[best]
        ties = sorted((p for p, c in live.items() if c == top and p != best), reverse=True)
        rec(8, "best", {"step": step, "pair_counts": live, "best": best}, pair=best, count=top, ties=ties)
        merges.append(best)
        vocab_new[next_id] = best[0] + best[1]
        rec(
            9,
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
        )
        next_id += 1
        net: Counter[Pair] = Counter()
        for word, n in [(w, c) for w, c in word_counts.items() if best in itertools.pairwise(w)]:
            rec(10, "changed_word", {"best": best, "word": word, "n": n}, word=word, n=n)
            old_pairs = list(itertools.pairwise(word))
            for pair in old_pairs:
                pair_counts[pair] -= n
                net[pair] -= n
            rec(
                11,
                "decrement",
                {"word": word, "n": n, "pair_counts": _positive(pair_counts)},
                pairs=old_pairs,
                n=n,
            )
            new_word = merge_word(word, best)
            rec(12, "new_word", {"word": word, "new_word": new_word, "n": n}, word=word, new_word=new_word)
            new_pairs = list(itertools.pairwise(new_word))
            for pair in new_pairs:
                pair_counts[pair] += n
                net[pair] += n
            rec(
                13,
                "increment",
                {"new_word": new_word, "n": n, "pair_counts": _positive(pair_counts)},
                pairs=new_pairs,
                n=n,
            )
            word_counts[new_word] = word_counts.pop(word)
            rec(14, "replace", {"new_word": new_word, "word_counts": dict(word_counts)}, new_word=new_word)
        after.append(_positive(pair_counts))
        updates.append({p: d for p, d in net.items() if d})
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
