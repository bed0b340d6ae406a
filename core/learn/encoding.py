"""Encoding: special tokens split out, pre-tokens found by the regex, and each pre-token encoded
merge by merge in rank order, then looked up as ids; and why streaming gives the same ids.

>>> from core.tokenization.tokenizer import Tokenizer
>>> from core.formats.spec import TokenizerSpec
>>> tok = Tokenizer.from_spec(TokenizerSpec.from_merges([(b"h", b"i")]))
>>> walk(tok, "hi!").ids
[256, 33]
"""

from __future__ import annotations

from core.learn.frame import Recorder, Walk
from core.tokenization.tokenizer import Tokenizer

CODE: tuple[str, ...] = (
    "pieces = split_keeping_specials(text, special_tokens)",  # 0
    "for piece in pieces:",  # 1
    "    if piece in special_tokens:",  # 2
    "        ids.append(special_id[piece]); continue",  # 3
    "    for pre_token in re.findall(PAT, piece):",  # 4
    "        parts = [bytes([b]) for b in pre_token.encode('utf-8')]",  # 5
    "        while (pair := lowest_rank_pair(parts)) is not None:",  # 6
    "            parts = merge(parts, pair)",  # 7
    "        ids += [token_to_id[p] for p in parts]",  # 8
    "assert list(encode_iterable([text[:cut], text[cut:]])) == ids",  # 9
)


def stream_cut(text: str) -> int:
    """A place to cut ``text`` in two for the streaming demonstration: inside its longest pre-token."""
    return max(1, len(text) // 2)


def walk(tok: Tokenizer, text: str) -> Walk:
    """Encode ``text`` with ``tok`` frame by frame.

    ``result``: ``ids`` (equal to ``tok.encode(text)``), ``pretokens`` ([(text, is_special)]),
    ``steps`` (per ordinary pre-token: its list of ``MergeStep``) and ``streamed`` (the ids of
    ``tok.encode_iterable`` fed the text in two pieces cut mid-text).
    """
    rec = Recorder()
    pieces = tok.pretokenize(text)  # pre-tokens with special tokens kept, in order
    rec(
        0,
        "split",
        {"text": text, "special_tokens": list(tok.special_tokens)},
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
        rec(4, "pretoken", {"pre_token": pre, "ids": list(ids)}, pretoken=pre)
        data = pre.encode("utf-8", "surrogateescape")
        parts: tuple[bytes, ...] = tuple(bytes([b]) for b in data)
        rec(5, "parts", {"pre_token": pre, "parts": list(parts)}, n=len(parts))
        trace = tok.merge_trace(data)
        steps.append((pre, trace))
        for s in trace:
            rec(
                6,
                "lowest",
                {"parts": list(parts), "pair": s.pair, "rank": s.rank},
                pair=s.pair,
                rank=s.rank,
                position=s.position,
            )
            parts = s.parts
            rec(7, "merged", {"parts": list(parts), "pair": s.pair}, pair=s.pair, token=s.token)
        rec(6, "none_left", {"parts": list(parts)}, n=len(parts))
        new = [tok.token_to_id(p) for p in parts]
        ids += new
        rec(8, "ids", {"parts": list(parts), "ids": list(ids)}, new=new)
    cut = stream_cut(text)
    streamed = list(tok.encode_iterable([text[:cut], text[cut:]]))
    rec(
        9,
        "stream",
        {"chunks": [text[:cut], text[cut:]], "ids": list(ids), "streamed": streamed},
        cut=cut,
        same=streamed == ids,
    )
    return Walk(
        CODE,
        tuple(rec.frames),
        {"ids": ids, "pretokens": pieces, "steps": steps, "streamed": streamed},
        rec.truncated,
    )
