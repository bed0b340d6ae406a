"""Reading a vocab (token string -> id) and a merge list at C speed, for tokenizer.json, vocab.json
and merges.txt: each returns None when anything is off, and the format's careful line-by-line pass
then names the problem.

The GPT-2 characters of all tokens are turned into bytes at once (numpy: one table lookup per
character), and a merge list is checked and read as one text, not line by line.
"""

from __future__ import annotations

from itertools import repeat
from operator import lshift, or_
from typing import Any

import numpy as np

from core.bpe.byte_level import BYTE_TO_CHAR, str_to_token
from core.bpe.ranks import IdMerges

_NOT_GPT2 = 0xFFFF
# code point -> the byte its GPT-2 character stands for; _NOT_GPT2 for every other character (the last
# entry stands for all code points past the table: lookups clip to it)
_CHAR_BYTE = np.full(max(map(ord, BYTE_TO_CHAR.values())) + 2, _NOT_GPT2, np.uint16)
_CHAR_BYTE[[ord(BYTE_TO_CHAR[b]) for b in range(256)]] = np.arange(256)


def _codes(text: str) -> np.ndarray:
    """The code points of ``text`` (lone surrogates included) as an array."""
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)


def gpt2_token_bytes(keys: list[str]) -> list[bytes] | None:
    """The bytes of each key written in GPT-2 characters; None when a key has another character."""
    if not keys:
        return []
    codes = _codes("\n".join(keys))  # "\n" is no GPT-2 character: it marks where each key ends
    cuts = np.flatnonzero(codes == 0x0A)
    if len(cuts) != len(keys) - 1:
        return None
    values = np.take(_CHAR_BYTE, np.delete(codes, cuts), mode="clip")
    if values.size and int(values.max()) == _NOT_GPT2:
        return None
    blob = values.astype(np.uint8).tobytes()
    ends = (cuts - np.arange(len(cuts))).tolist()
    ends.append(len(blob))
    return [blob[a:b] for a, b in zip([0, *ends], ends)]


def fast_vocab(
    raw: dict[str, Any], specials: dict[str, int]
) -> tuple[dict[int, bytes], dict[str, int]] | None:
    """(vocab, key -> id without the special tokens) of a well-formed vocab, decoded in one pass over
    all keys; None when anything is off (then the careful per-key pass reports it)."""
    ids = list(raw.values())
    if not ids or set(map(type, ids)) != {int} or min(ids) < 0:
        return None
    plain = not any(k in raw for k in specials)
    key_id = raw
    if not plain:
        key_id = dict(raw)
        for k in specials:
            key_id.pop(k, None)
    toks = gpt2_token_bytes(list(key_id))
    if toks is None:
        return None
    vocab = dict(zip(key_id.values(), toks))
    if len(vocab) != len(key_id) or (key_id is not raw and len(set(ids)) != len(ids)):
        return None  # an id used twice
    for k in specials:
        if k in raw:
            b = vocab[raw[k]] = k.encode("utf-8", "surrogateescape")
            # a merge may make or use it (Qwen3's "<unk" + ">"): a key when its bytes read both ways agree
            if raw[k] == specials[k] and _gpt2_bytes(k) == b:
                key_id[k] = raw[k]
    return vocab, key_id


def _gpt2_bytes(key: str) -> bytes | None:
    try:
        return str_to_token(key)
    except KeyError:
        return None


def fast_merges(
    raw: Any, key_id: dict[str, int], vocab: dict[int, bytes], *, keep_last: bool = True
) -> IdMerges | None:
    """The merges (``"a b"`` strings or ``[a, b]`` lists), with the ids of their parts and results, when
    every part and result is a vocab key (the usual case), else None. A repeated merge keeps its last
    place (as HF does: a map by pair); with ``keep_last=False`` a repeat gives None instead.

    GPT-2 characters map one to one to bytes, so ``a + b`` is a key exactly when its bytes are a token.
    """
    if not isinstance(raw, list) or not raw:
        return IdMerges(vocab, ([], [], [])) if raw == [] else None
    kinds = set(map(type, raw))
    if kinds == {str}:
        return merges_from_lines("\n".join(raw), len(raw), key_id, vocab, keep_last=keep_last)
    if kinds != {list} or set(map(len, raw)) != {2}:
        return None
    firsts = [p[0] for p in raw]
    seconds = [p[1] for p in raw]
    get = key_id.__getitem__
    try:
        left = list(map(get, firsts))
        right = list(map(get, seconds))
        results = list(map(str.__add__, firsts, seconds))
    except (KeyError, TypeError):
        return None
    return _with_results(left, right, results, "\n".join(results), key_id, vocab, keep_last)


def merges_from_lines(
    lines: str, n: int, key_id: dict[str, int], vocab: dict[int, bytes], *, keep_last: bool = True
) -> IdMerges | None:
    """:func:`fast_merges` of ``n`` lines ``"a b"`` joined by ``"\n"`` (a merges.txt without its header),
    read as one text: checked to hold one space per line, split once, each part looked up."""
    if not lines:
        return IdMerges(vocab, ([], [], [])) if n == 0 else None
    if not _one_space_per_line(lines, n):
        return None
    parts = lines.replace(" ", "\n").split("\n")
    try:
        ids = list(map(key_id.__getitem__, parts))
    except KeyError:
        return None
    left, right = ids[0::2], ids[1::2]
    results = lines.replace(" ", "")  # each line's two parts joined: the results, one a line
    return _with_results(left, right, None, results, key_id, vocab, keep_last, parts[0] + parts[1])


def _one_space_per_line(lines: str, n: int) -> bool:
    """True when ``lines`` has ``n`` lines with exactly one space in each (not at either end)."""
    codes = _codes(lines)
    spaces = np.flatnonzero(codes == 0x20)
    ends = np.flatnonzero(codes == 0x0A)
    if len(spaces) != n or len(ends) != n - 1:
        return False
    starts = np.concatenate(([0], ends + 1))  # each line's first character
    stops = np.append(ends, len(codes))  # one past each line's last character
    return bool((spaces > starts).all() and (spaces < stops - 1).all())


def _with_results(
    left: list[int],
    right: list[int],
    results: list[str] | None,
    joined: str,
    key_id: dict[str, int],
    vocab: dict[int, bytes],
    keep_last: bool,
    first: str | None = None,
) -> IdMerges | None:
    """The IdMerges of merges with these part ids, their results being ``results`` (``joined`` by
    ``"\n"``; ``results`` is split from ``joined`` when needed)."""
    if first is None:
        first = results[0] if results else ""
    merged = _listed_in_order(joined, first, len(left), key_id)
    if merged is not None:  # distinct vocab keys: no pair repeats
        return IdMerges(vocab, (left, right, merged))
    try:
        merged = list(map(key_id.__getitem__, joined.split("\n") if results is None else results))
    except KeyError:  # each result must be a token too
        return None
    keys = list(map(or_, map(lshift, left, repeat(32)), right))
    if len(set(keys)) != len(keys):
        if not keep_last:
            return None
        last = {k: r for r, k in enumerate(keys)}
        keep = [r for r, k in enumerate(keys) if last[k] == r]
        left, right, merged, keys = ([ids[r] for r in keep] for ids in (left, right, merged, keys))
    return IdMerges(vocab, (left, right, merged), keys)


def _listed_in_order(joined: str, first: str, n: int, key_id: dict[str, int]) -> list[int] | None:
    """The ids of the ``n`` results (``joined`` by ``"\n"``, the first one ``first``) when they are
    consecutive keys of ``key_id`` in its order (as every trained BPE vocab lists its merges'
    results), found by comparing two texts instead of one dict lookup per merge; else None.

    Both texts hold ``n - 1`` newlines; the keys' text could hold more only if a key held one, so
    equal texts mean equal keys one by one."""
    at = key_id.get(first)
    if at is None or n == 0:
        return None
    keys = list(key_id)
    if not (at < len(keys) and keys[at] == first):  # the usual vocab: keys listed in id order from 0
        try:
            at = keys.index(first)
        except ValueError:
            return None
    if len(keys) < at + n or "\n".join(keys[at : at + n]) != joined:
        return None
    return list(key_id.values())[at : at + n]
