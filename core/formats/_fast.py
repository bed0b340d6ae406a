"""Reading a vocab (token string -> id) and a merge list at C speed, for tokenizer.json, vocab.json
and merges.txt: each returns None when anything is off, and the format's careful line-by-line pass
then names the problem."""
from __future__ import annotations

import codecs
from itertools import accumulate, repeat
from operator import lshift, or_
from typing import Any

from ..spec import BYTE_TO_CHAR, str_to_token
from ..tokenizer_ranks import IdMerges

# the GPT-2 byte characters as a codec's encoding map (character -> its byte)
_GPT2_ENCODING = codecs.charmap_build("".join(BYTE_TO_CHAR[b] for b in range(256)))


def fast_vocab(raw: dict[str, Any], specials: dict[str, int]) -> tuple[dict[int, bytes], dict[str, int]] | None:
    """(vocab, key -> id without the special tokens) of a well-formed vocab, decoded in one pass over
    all keys; None when anything is off (then the careful per-key pass reports it)."""
    ids = list(raw.values())
    if not ids or set(map(type, ids)) != {int} or min(ids) < 0 or len(set(ids)) != len(ids):
        return None
    plain = not any(k in raw for k in specials)
    key_id = raw
    if not plain:
        key_id = dict(raw)
        for k in specials:
            key_id.pop(k, None)
    keys = list(key_id)
    joined = "".join(keys)
    try:  # each GPT-2 character to its byte, at C speed; any other character refuses
        blob = codecs.charmap_encode(joined, "strict", _GPT2_ENCODING)[0]
    except UnicodeEncodeError:
        return None
    if len(blob) != len(joined):
        return None
    ends = list(accumulate(map(len, keys)))
    toks = list(map(blob.__getitem__, map(slice, [0, *ends], ends)))
    vocab = dict(zip(key_id.values(), toks))
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


def fast_merges(raw: Any, key_id: dict[str, int], vocab: dict[int, bytes], *,
                keep_last: bool = True) -> IdMerges | None:
    """The merges (``"a b"`` strings or ``[a, b]`` lists), with the ids of their parts and results, when
    every part and result is a vocab key (the usual case), else None. A repeated merge keeps its last
    place (as HF does: a map by pair); with ``keep_last=False`` a repeat gives None instead.

    GPT-2 characters map one to one to bytes, so ``a + b`` is a key exactly when its bytes are a token.
    """
    if not isinstance(raw, list) or not raw:
        return IdMerges(vocab, ([], [], [])) if raw == [] else None
    kinds = set(map(type, raw))
    if kinds == {str}:  # "a b": one space each (checked), no newline (not a GPT-2 character)
        joined = "\n".join(raw)
        if set(map(str.count, raw, repeat(" "))) != {1} or joined.count("\n") != len(raw) - 1:
            return None
        flat = joined.replace(" ", "\n").split("\n")
        firsts, seconds = flat[0::2], flat[1::2]
    elif kinds == {list}:
        if set(map(len, raw)) != {2}:
            return None
        firsts = [p[0] for p in raw]
        seconds = [p[1] for p in raw]
    else:
        return None
    get = key_id.__getitem__
    try:
        left = list(map(get, firsts))
        right = list(map(get, seconds))
        results = list(map(str.__add__, firsts, seconds))
    except (KeyError, TypeError):
        return None
    merged = _listed_in_order(results, key_id)
    if merged is not None:  # distinct vocab keys: no pair repeats
        return IdMerges(vocab, (left, right, merged))
    try:
        merged = list(map(get, results))  # each result must be a token too
    except KeyError:
        return None
    keys = list(map(or_, map(lshift, left, repeat(32)), right))
    if len(set(keys)) != len(keys):
        if not keep_last:
            return None
        last = {k: r for r, k in enumerate(keys)}
        keep = [r for r, k in enumerate(keys) if last[k] == r]
        left, right, merged, keys = ([ids[r] for r in keep] for ids in (left, right, merged, keys))
    return IdMerges(vocab, (left, right, merged), keys)


def _listed_in_order(results: list[str], key_id: dict[str, int]) -> list[int] | None:
    """The ids of ``results`` when they are consecutive keys of ``key_id`` in its order (as every
    trained BPE vocab lists its merges' results), found by comparing two lists of strings instead of
    one dict lookup per merge (a third of a GPT-2 file's load); else None."""
    if not results:
        return None
    first = key_id.get(results[0])
    if first is None:
        return None
    keys = list(key_id)
    if first < len(keys) and keys[first] == results[0]:
        at = first  # the usual vocab: keys listed in id order from 0
    else:
        try:
            at = keys.index(results[0])
        except ValueError:
            return None
    if keys[at:at + len(results)] != results:
        return None
    return list(key_id.values())[at:at + len(results)]
