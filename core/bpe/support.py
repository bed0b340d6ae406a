"""Helpers of :class:`core.Tokenizer`: the pre-token cache, input checks and error messages."""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import chain, islice, repeat
from operator import lshift, or_
from typing import Any

import regex

from core.bpe.merge import BYTE_TOKENS, MergeTable
from core.errors import TokenizerError

Pair = tuple[bytes, bytes]
CACHE_LIMIT = 1 << 19  # distinct pre-tokens kept in the cache before it is cleared (~80 MB)
CACHE_MAX_WORD = 256  # longer pre-tokens are not cached (they rarely repeat)
_BAD_SURROGATE = regex.compile("[\ud800-\udc7f\udd00-\udfff]")
#: bytes that never occur in UTF-8; a vocab may lack them (GPT-NeoX, OLMo 1)
NON_UTF8_BYTES = frozenset([0xC0, 0xC1, *range(0xF5, 0x100)])


class PretokenCache(dict):
    """pre-token string → tuple of ids; a miss encodes the pre-token (``dict.__missing__``)."""

    def __init__(self, fill) -> None:
        super().__init__()
        self.fill = fill

    def __missing__(self, word: str) -> tuple[int, ...]:
        ids = self.fill(word)
        if len(word) <= CACHE_MAX_WORD:
            if len(self) >= CACHE_LIMIT:
                self.make_room(1)
            self[word] = ids
        return ids

    def make_room(self, n: int) -> None:
        """Room for ``n`` more entries under :data:`CACHE_LIMIT`: when there is not, the entries put in
        first are kept (half the limit: words seen early are the frequent ones), the others dropped."""
        if len(self) + n <= CACHE_LIMIT:
            return
        keep = CACHE_LIMIT // 2 if n <= CACHE_LIMIT // 2 else 0
        first = list(islice(self.items(), keep))
        self.clear()
        self.update(first)


class SurrogateInText(Exception):
    pass


def surrogate_error(text: str) -> TokenizerError:
    m = _BAD_SURROGATE.search(text)
    where = f"U+{ord(m.group()):04X} at character {m.start()}" if m else "a lone surrogate"
    return TokenizerError(
        f"the text contains a lone surrogate ({where}), which is not valid "
        "Unicode; only U+DC80..U+DCFF (bytes kept with errors='surrogateescape') "
        "are accepted. Fix the text, e.g. s.encode('utf-16', 'surrogatepass')"
        ".decode('utf-16', 'replace')",
        code="text_surrogate",
        codepoint=f"U+{ord(m.group()):04X}" if m else "",
        index=m.start() if m else -1,
    )


#: the code of the error for a byte the vocab has no token for (``core.tokenization.missing_bytes``
#: names the file and the byte's offset in it; the app translates it)
BYTE_NOT_IN_VOCAB = "byte_not_in_vocab"


def hole_error(hole_re: regex.Pattern[str], text: str) -> TokenizerError:
    m = hole_re.search(text)
    assert m is not None, "called for a text that has a hole"
    b = ord(m.group()) - 0xDC00
    return TokenizerError(
        f"the text has the byte 0x{b:02x} (not valid UTF-8: the character U+{ord(m.group()):04X} at "
        f"{m.start()}, as errors='surrogateescape' keeps it), which this vocab has no token for (it never "
        "occurs in UTF-8, so the tokenizer left it out, as GPT-NeoX and OLMo 1 do); such bytes cannot be "
        "encoded with it: remove or replace them first",
        code=BYTE_NOT_IN_VOCAB,
        byte=b,
    )


def covering(compiled: regex.Pattern[str], ascii_twin: re.Pattern[str] | None = None):
    """A splitter giving the matches of ``compiled`` and, as pieces of their own, the stretches no
    non-empty match covers (the same rule as training's pre-tokenization): text is never dropped.
    ``ascii_twin`` (:func:`core.pretokenization.ascii_pattern.ascii_twin`) finds the same matches on ASCII text, faster.

    >>> covering(regex.compile("[a-z]+"))("ab, cd!")
    ['ab', ', ', 'cd', '!']
    """
    findall = compiled.findall

    def split(text: str) -> list[str]:
        if not compiled.groups:
            out = ascii_twin.findall(text) if ascii_twin is not None and text.isascii() else findall(text)
            if sum(map(len, out)) == len(text):  # the matches cover the text (usual): that is all
                return [w for w in out if w] if "" in out else out
        out = []
        pos = 0
        for m in compiled.finditer(text):
            start, end = m.span()
            if start == end:
                continue
            if start > pos:
                out.append(text[pos:start])
            out.append(text[start:end])
            pos = end
        if pos < len(text):
            out.append(text[pos:])
        return out

    return split


def hashable(x: object) -> bool:
    try:
        hash(x)
    except TypeError:
        return False
    return True


def check_vocab(vocab: dict[int, bytes]) -> dict[int, bytes]:
    if not isinstance(vocab, dict):
        raise TokenizerError(f"vocab must be a dict of id -> bytes, not {type(vocab).__name__}")
    if (
        set(map(type, vocab)) <= {int}
        and set(map(type, vocab.values())) <= {bytes}
        and min(vocab, default=0) >= 0
        and all(vocab.values())
    ):
        return dict(vocab)  # the usual case, checked at C speed
    out: dict[int, bytes] = {}
    for i, b in vocab.items():
        if not isinstance(i, int) or isinstance(i, bool) or i < 0:
            raise TokenizerError(f"vocab id {i!r} is not a non-negative integer")
        if not isinstance(b, (bytes, bytearray)):
            raise TokenizerError(f"vocab entry {i} is {type(b).__name__}, not bytes; pass tokens as bytes")
        if not b:
            raise TokenizerError(f"vocab entry {i} is empty; tokens must have at least one byte")
        out[i] = bytes(b)
    return out


def check_merges(merges: Iterable[Pair]) -> list[Pair]:
    merges = list(merges)
    if (
        set(map(type, merges)) <= {tuple}
        and set(map(len, merges)) <= {2}
        and set(map(type, chain.from_iterable(merges))) <= {bytes}
    ):
        return merges  # the usual case, checked at C speed
    return [_check_pair(p, r) for r, p in enumerate(merges)]


def _check_pair(pair: Pair, rank: int) -> Pair:
    try:
        a, b = pair
    except (TypeError, ValueError):
        raise TokenizerError(f"merge {rank} is {pair!r}, not a pair of bytes") from None
    if not isinstance(a, (bytes, bytearray)) or not isinstance(b, (bytes, bytearray)):
        raise TokenizerError(f"merge {rank} is {pair!r}; both parts must be bytes")
    return bytes(a), bytes(b)


def build_encoder(
    vocab: dict[int, bytes], sids: set[int], inverse: dict[bytes, int] | None = None, all_bytes: bool = True
) -> tuple[dict[bytes, int], list[int], Any]:
    """(encoder, holes, hole regex): bytes -> lowest ordinary id (special tokens only where no ordinary
    token has their bytes), the non-UTF-8 bytes the vocab lacks and a regex finding them in text.
    ``inverse`` is ``vocab`` inverted (``dict(zip(vocab.values(), vocab.keys()))``) if already made.
    ``all_bytes=False`` (char-level BPE, which falls back to ``<unk>``) lets single bytes be missing."""
    encoder = dict(zip(vocab.values(), vocab.keys())) if inverse is None else inverse
    if len(encoder) != len(
        vocab
    ):  # repeated bytes: the lowest ordinary id wins  # repeated bytes: the lowest ordinary id wins
        encoder = {vocab[i]: i for i in sorted(vocab, reverse=True) if i not in sids}
        for i in sorted(sids, reverse=True):
            b = vocab[i]
            if b not in encoder:
                encoder[b] = i  # a special token that is also needed as a plain token (e.g. "a")
    if not all_bytes:
        return encoder, [], None
    holes = [x for x in range(256) if BYTE_TOKENS[x] not in encoder and x in NON_UTF8_BYTES]
    hole_re = regex.compile("[" + "".join(chr(0xDC00 + x) for x in holes) + "]") if holes else None
    missing = [f"0x{x:02x}" for x in range(256) if BYTE_TOKENS[x] not in encoder and x not in holes]
    if missing:
        raise TokenizerError(
            f"the vocab has no token for the byte(s) {', '.join(missing[:8])}"
            f"{' ...' if len(missing) > 8 else ''}; a byte-level vocab needs all 256 "
            "single bytes"
        )
    return encoder, holes, hole_re


def merge_table(
    encoder: dict[bytes, int],
    merges: list[Pair] | tuple[Pair, ...],
    ids: tuple[list[int], list[int], list[int]] | None = None,
    keys: list[int] | None = None,
) -> MergeTable:
    """The :class:`MergeTable` of merges whose parts and results are all in ``encoder``; ``ids`` are
    the ids of their (left parts, right parts, results) and ``keys`` their pair keys when the loader
    already found them."""
    if ids is None:
        get = encoder.__getitem__
        try:  # a missing part or result raises KeyError; then the careful loop names the merge
            ids = (
                list(map(get, [a for a, _ in merges])),
                list(map(get, [b for _, b in merges])),
                list(map(get, [a + b for a, b in merges])),
            )
        except KeyError:
            for r, (a, b) in enumerate(merges):
                for part in (a, b, a + b):
                    if part not in encoder:
                        raise TokenizerError(
                            f"merge {r} ({a!r}, {b!r}) uses or makes the token {part!r} "
                            "which is not in the vocab; add it or drop the merge"
                        ) from None
            raise
    left, right, merged = ids
    if keys is None:  # the table of MergeTable.build, at C speed: pair keys (a << 32) | b of ids
        keys = list(map(or_, map(lshift, left, repeat(32)), right))
    ranks = dict(zip(keys, range(len(keys))))
    if len(ranks) != len(keys):  # a pair listed twice: the first merge of it wins
        ranks = dict(zip(reversed(keys), range(len(keys) - 1, -1, -1)))
    # a byte the vocab lacks gets a placeholder id (never produced: such input is refused first)
    byte_ids = tuple(encoder.get(BYTE_TOKENS[x], 1 << 31) for x in range(256))
    return MergeTable(byte_ids, ranks, tuple(merged))


def merge_maps(merges: list[Pair], table: MergeTable) -> tuple[dict[Pair, int], dict[int, int]]:
    """(pair -> rank, token id -> rank of the merge that made it), the first merge winning."""
    down = range(len(merges) - 1, -1, -1)
    return dict(zip(reversed(merges), down)), dict(zip(reversed(table.merged), down))


def alternation(tokens: Iterable[str]) -> str:
    """A regex matching any of ``tokens``, the longest one where several start at the same place,
    built as a trie (``<|a|>``, ``<|ab|>`` → ``<\\|a(?:b\\|>|\\|>)``): it compiles and matches in
    time linear in the tokens' length even for tens of thousands of them, where a flat
    ``a|b|…`` alternation of 16,000 tokens took seconds to compile.

    >>> import regex
    >>> [m.group() for m in regex.finditer(alternation(["<s>", "<s><s>", "ab", "a"]), "<s><s><s> ab a")]
    ['<s><s>', '<s>', 'ab', 'a']
    """
    trie: dict = {}
    for t in tokens:
        node = trie
        for ch in t:
            node = node.setdefault(ch, {})
        node[""] = True

    def build(node: dict) -> str:
        branches = []
        for ch, child in node.items():
            if not ch:
                continue
            run = [ch]
            while len(child) == 1 and "" not in child:  # a chain without branches: no recursion
                ((c, child),) = child.items()
                run.append(c)
            branches.append(regex.escape("".join(run)) + build(child))
        if not branches:
            return ""
        if "" in node:  # a token ends here: try the longer ones first
            return "(?:" + "|".join(branches) + ")?"
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return build(trie)


def compile_alternation(tokens: Iterable[str]) -> re.Pattern[str] | None:
    """:func:`alternation` compiled with ``re`` (fastest to compile); None for no tokens. Tokens nested
    too deeply for a trie (``a``, ``aa``, ``aaa`` … thousands deep) fall back to a flat alternation."""
    tokens = sorted(tokens, key=len, reverse=True)
    if not tokens:
        return None
    try:
        return re.compile(alternation(tokens))
    except (RecursionError, re.error, OverflowError):
        return re.compile("|".join(map(re.escape, tokens)))


def check_surrogates(special_tokens: list[str]) -> list[str]:
    """Refuse special tokens with a lone surrogate (other than ``surrogateescape`` bytes): they are not
    valid Unicode and cannot be written as UTF-8 (an exported tokenizer.json would be unreadable)."""
    for s in special_tokens:
        m = _BAD_SURROGATE.search(s)
        if m:
            raise TokenizerError(
                f"special token {s!r} contains a lone surrogate (U+{ord(m.group()):04X}), "
                "which is not valid Unicode and cannot be written to UTF-8; fix the token",
                code="special_surrogate",
                token=s,
            )
    return special_tokens
