"""Encoding: special tokens split out, pre-tokens found by the regex, and each pre-token encoded
merge by merge in rank order, then looked up as ids; and why streaming gives the same ids.

>>> from core.tokenization.tokenizer import Tokenizer
>>> from core.formats.spec import TokenizerSpec
>>> tok = Tokenizer.from_spec(TokenizerSpec.from_merges([(b"h", b"i")]))
>>> walk(tok, "hi!").ids
[256, 33]
"""

from __future__ import annotations

import regex

from core.bpe.merge import MergeStep
from core.learn.frame import Recorder, Shown, Walk
from core.tokenization.tokenizer import Tokenizer

CODE: tuple[str, ...] = (
    "pieces = split_keeping_specials(text, special_tokens)",  # 0
    "for piece in pieces:",  # 1
    "    if piece in special_tokens:",  # 2
    "        ids.append(special_id[piece]); continue",  # 3
    "    for pre_token in pretokens(PAT, piece):  # PAT's matches + the text between",  # 4
    "        parts = [bytes([b]) for b in pre_token.encode('utf-8')]",  # 5
    "        while (pair := lowest_rank_pair(parts)) is not None:",  # 6
    "            parts = merge(parts, pair)",  # 7
    "        ids += [token_to_id[p] for p in parts]",  # 8
    "assert list(encode_iterable([text[:cut], text[cut:]])) == ids",  # 9
    "naive = encode(text[:cut]) + encode(text[cut:])  # wrong if cut in a pre-token",  # 10
    "return ids",  # 11
)

#: how many cut places around the middle are tried to find one where the naive result differs
CUT_TRIES = 400


def stream_cut(text: str) -> int:
    """A place to cut ``text`` in two for the streaming demonstration: the middle."""
    return max(1, len(text) // 2)


def naive_cut(tok: Tokenizer, text: str, ids: list[int]) -> tuple[int, list[int]]:
    """A cut (nearest the middle) where encoding the two halves separately differs from ``ids``,
    with that wrong result; the middle and its (equal) result when no tried cut differs."""
    mid = stream_cut(text)
    order = sorted(range(1, len(text)), key=lambda c: (abs(c - mid), c))[:CUT_TRIES]
    for cut in order:
        naive = tok.encode(text[:cut]) + tok.encode(text[cut:])
        if naive != ids:
            return cut, naive
    return mid, tok.encode(text[:mid]) + tok.encode(text[mid:])


def _by_merge(trace: list[MergeStep]) -> list[list[MergeStep]]:
    """The trace's steps (one per occurrence merged) grouped by merge: what one
    ``merge(parts, pair)`` of the code on screen does. A merge's occurrences come one after
    another: the token it makes pairs only with merges of higher rank, so its pair stays the lowest
    until no occurrence is left."""
    groups: list[list[MergeStep]] = []
    for step in trace:
        if groups and groups[-1][0].rank == step.rank:
            groups[-1].append(step)
        else:
            groups.append([step])
    return groups


def walk(tok: Tokenizer, text: str) -> Walk:
    """Encode ``text`` with ``tok`` frame by frame.

    ``result``: ``ids`` (equal to ``tok.encode(text)``), ``pretokens`` ([(text, is_special)]),
    ``steps`` (per ordinary pre-token: its list of ``MergeStep``), ``cut``, ``streamed`` (the ids of
    ``tok.encode_iterable`` fed the text in two pieces cut there) and ``naive`` (the two pieces
    encoded separately and joined: differs from ``ids`` when the cut splits a pre-token that merges).
    """
    rec = Recorder()
    pieces = tok.pretokenize(text)  # pre-tokens with special tokens kept, in order
    pat = tok.pattern_regex
    rec(
        0,
        "split",
        {
            "text": text,
            "special_tokens": list(tok.special_tokens),
            "PAT": Shown(pat if pat is not None else "None"),
        },
        specials=[p for p, s in pieces if s],
    )
    ids: list[int] = []
    steps: list[tuple[str, list]] = []
    for pre, is_special in pieces:
        rec(1, "piece", {"piece": pre, "ids": list(ids)}, piece=pre, special=is_special)
        if is_special:
            rec(2, "special", {"piece": pre, "ids": list(ids)}, piece=pre)
            ids.append(tok.token_to_id(pre))
            rec(3, "special_id", {"piece": pre, "ids": list(ids)}, piece=pre, id=ids[-1])
            continue
        # text PAT does not match (the spaces between \S+ matches) is a pre-token of its own
        gap = pat is not None and regex.fullmatch(pat, pre) is None
        rec(4, "pretoken", {"pre_token": pre, "ids": list(ids)}, pretoken=pre, pattern=tok.pattern, gap=gap)
        data = pre.encode("utf-8", "surrogateescape")
        parts: tuple[bytes, ...] = tuple(bytes([b]) for b in data)
        rec(5, "parts", {"pre_token": pre, "parts": list(parts)}, n=len(parts), pretoken=pre)
        trace = tok.merge_trace(data)
        steps.append((pre, trace))
        for group in _by_merge(trace):
            s = group[0]
            rec(
                6,
                "lowest",
                {"parts": list(parts), "pair": s.pair, "rank": s.rank},
                pair=s.pair,
                rank=s.rank,
                position=s.position,
                pretoken=pre,
            )
            before = parts
            parts = group[-1].parts  # (merge(parts, pair) replaces every occurrence at once)
            rec(
                7,
                "merged",
                {"parts": list(parts), "pair": s.pair},
                pair=s.pair,
                token=s.token,
                replaced=len(before) - len(parts),
                pretoken=pre,
            )
        rec(6, "none_left", {"parts": list(parts)}, n=len(parts))
        new = [tok.token_to_id(p) for p in parts]
        ids += new
        rec(8, "ids", {"parts": list(parts), "ids": list(ids)}, new=new, parts=list(parts))
    mid = stream_cut(text)
    cut, naive = naive_cut(tok, text, ids) if len(text) > 1 else (mid, list(ids))
    streamed = list(tok.encode_iterable([text[:cut], text[cut:]]))
    rec(
        9,
        "stream",
        {"cut": cut, "chunks": [text[:cut], text[cut:]], "ids": list(ids), "streamed": streamed},
        cut=cut,
        same=streamed == ids,
    )
    rec(
        10,
        "naive",
        {"cut": cut, "chunks": [text[:cut], text[cut:]], "ids": list(ids), "naive": naive},
        cut=cut,
        same=naive == ids,
        chunks=(text[:cut], text[cut:]),
    )
    rec.last(
        11,
        "summary",
        {"ids": list(ids), "tokens": [tok.id_to_token(i) for i in ids]},
        n_ids=len(ids),
        n_bytes=len(text.encode("utf-8", "surrogateescape")),
        tokens=[tok.id_to_token(i) for i in ids],
    )
    return Walk(
        CODE,
        tuple(rec.frames),
        {
            "ids": ids,
            "pretokens": pieces,
            "steps": steps,
            "cut": cut,
            "streamed": streamed,
            "naive": naive,
        },
        rec.truncated,
    )
