"""Proving that a JSON text repeats no object key, after a plain ``json.loads`` (C speed, no hook).

``json.loads`` keeps the last of repeated keys silently; the hook that would see them costs a third
more on a large vocab. Instead the colons are counted. In JSON text a colon outside a string is
always the separator of one object member, and a colon inside a string literal reads as a colon
(only the escape ``\\u003a`` makes a colon that the text does not show). So the text holds
``M + S`` colons, ``M`` members and ``S`` colons in its string literals; the parsed value has
``D <= M`` members and ``P <= S`` colons in its strings (a repeated member is dropped with its key
and value). When the text has no ``\\u003a`` escape and ``colons == D + P``, then ``M == D``: no key
was repeated. Otherwise the caller parses again with a hook that names the repeat (rare: text with
escaped colons, or a repeat).

>>> import json
>>> text = '{"a:b": 1, "c": {"d": ["x:y", [":"]]}}'
>>> no_repeated_keys(text, json.loads(text))
True
>>> text = '{"a": 1, "b": 2, "a": 3}'
>>> no_repeated_keys(text, json.loads(text))
False
"""

from __future__ import annotations

from itertools import chain
from typing import Any

_SCALARS = frozenset([int, float, bool, type(None)])


def no_repeated_keys(text: str, data: Any) -> bool:
    """True when ``text`` (parsed as ``data``) provably repeats no key in any object; False when it
    may (the caller then checks the careful way)."""
    if "\\u003" in text:  # \\u003a (an escaped colon) and its neighbours: not worth telling apart
        return False
    try:
        members, colons = _tally(data)
    except RecursionError:
        return False
    return text.count(":") == members + colons


def _tally(obj: Any) -> tuple[int, int]:
    """(object members, colons in strings) of a parsed JSON value, at C speed for the large flat
    containers of tokenizer files (a vocab object, a merge list of strings or of pairs)."""
    if isinstance(obj, str):
        return 0, obj.count(":")
    if isinstance(obj, dict):
        members, colons = len(obj), "".join(obj).count(":")
        values: Any = obj.values()
    elif isinstance(obj, list):
        members, colons, values = 0, 0, obj
    else:
        return 0, 0
    kinds = set(map(type, values))
    if kinds <= _SCALARS:
        return members, colons
    if kinds == {str}:
        return members, colons + "".join(values).count(":")
    if kinds == {list}:
        flat = list(chain.from_iterable(values))
        if set(map(type, flat)) == {str}:  # merges as pairs of strings
            return members, colons + "".join(flat).count(":")
    for v in values:
        m, c = _tally(v)
        members += m
        colons += c
    return members, colons
