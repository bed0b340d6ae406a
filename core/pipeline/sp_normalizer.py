"""SentencePiece's text normalization with a precompiled character map (the ``nmt_nfkc`` and
``nmt_nfkc_cf`` rules, or a custom ``.tsv`` rule compiled into the model).

The map is a darts-clone double-array trie over UTF-8 bytes whose values point into a block of
NUL-terminated replacement strings. At each place the longest rule that matches the bytes there is
applied; where none does, one character is kept as it is. User-defined pieces are matched first and
never normalized. Spaces are then handled as SentencePiece does (leading ones and repeats dropped
when ``remove_extra_whitespaces``, the dummy ``▁`` prefix, ``▁`` for each space, trailing ones
dropped).

>>> Normalizer(b"", add_dummy_prefix=True, remove_extra_whitespaces=True).normalize("  a  b ")
'▁a▁b'
"""

from __future__ import annotations

import base64
import re
import struct
from collections.abc import Iterable
from typing import Any

from core.bpe.support import compile_alternation

SPACE = "\u2581"
_SPACE_RUNS = re.compile("  +")


class CharsMapError(ValueError):
    pass


class _Trie:
    """darts-clone's ``DoubleArray``: only ``commonPrefixSearch`` (all keys that prefix a text)."""

    def __init__(self, units: tuple[int, ...]) -> None:
        self.units = units

    def prefixes(self, key: bytes, start: int) -> Iterable[tuple[int, int]]:
        """(value, length) of each key of the trie that ``key[start:]`` starts with, shortest first."""
        units = self.units
        n = len(units)
        unit = units[0]
        pos = (unit >> 10) << ((unit & (1 << 9)) >> 6)
        for i in range(start, len(key)):
            c = key[i]
            pos ^= c
            if pos >= n:
                return
            unit = units[pos]
            if (unit & ((1 << 31) | 0xFF)) != c:
                return
            pos ^= (unit >> 10) << ((unit & (1 << 9)) >> 6)
            if (unit >> 8) & 1:
                if pos >= n:
                    return
                yield units[pos] & ((1 << 31) - 1), i + 1 - start


def parse_charsmap(blob: bytes) -> tuple[_Trie, bytes] | None:
    """(trie, replacement strings) of a ``precompiled_charsmap`` (None when it is empty)."""
    if not blob:
        return None
    if len(blob) < 4:
        raise CharsMapError("the precompiled character map is shorter than its header")
    (size,) = struct.unpack_from("<I", blob, 0)
    if size % 4 or 4 + size > len(blob):
        raise CharsMapError(f"the precompiled character map says its trie has {size} bytes; it has fewer")
    units = struct.unpack_from(f"<{size // 4}I", blob, 4)
    if not units:
        raise CharsMapError("the precompiled character map has an empty trie")
    return _Trie(units), blob[4 + size :]


class Normalizer:
    """One model's normalization (see the module doc)."""

    def __init__(
        self,
        charsmap: bytes,
        *,
        add_dummy_prefix: bool = True,
        remove_extra_whitespaces: bool = True,
        escape_whitespaces: bool = True,
        user_defined: Iterable[str] = (),
    ) -> None:
        parsed = parse_charsmap(charsmap)
        self.trie: _Trie | None = None
        self.strings = b""
        if parsed is not None:
            self.trie, self.strings = parsed
        self.add_dummy_prefix = add_dummy_prefix
        self.remove_extra_whitespaces = remove_extra_whitespaces
        self.escape_whitespaces = escape_whitespaces
        self.user = compile_alternation([u.encode("utf-8").decode("latin-1") for u in user_defined if u])
        if self.trie is None:  # (the identity rule never changes a user-defined piece: no need)
            self.user = None
        self._cache: dict[int, str] = {}

    def _replacement(self, value: int) -> str:
        s = self._cache.get(value)
        if s is None:
            end = self.strings.find(b"\0", value)
            raw = self.strings[value : end if end >= 0 else len(self.strings)]
            s = self._cache[value] = raw.decode("utf-8", "replace")
        return s

    def _pieces(self, text: str) -> Iterable[str]:
        """The normalized pieces of ``text``, one per rule or kept character."""
        data = text.encode("utf-8", "surrogateescape")
        latin = data.decode("latin-1") if self.user is not None else ""
        trie = self.trie
        pos, n = 0, len(data)
        while pos < n:
            if self.user is not None:
                m = self.user.match(latin, pos)
                if m is not None and m.end() > pos:
                    yield data[pos : m.end()].decode("utf-8", "surrogateescape")
                    pos = m.end()
                    continue
            best_len, best_value = 0, 0
            if trie is not None:
                for value, length in trie.prefixes(data, pos):
                    if length > best_len:
                        best_len, best_value = length, value
            if best_len:
                yield self._replacement(best_value)
                pos += best_len
                continue
            b = data[pos]
            size = 1 if b < 0x80 else 2 if b < 0xE0 else 3 if b < 0xF0 else 4
            chunk = data[pos : pos + size]
            try:
                yield chunk.decode("utf-8")
                pos += size
            except UnicodeDecodeError:  # (a surrogateescape byte: sentencepiece's U+FFFD, one byte)
                yield "\ufffd"
                pos += 1

    @classmethod
    def of(cls, conf: dict[str, Any], user_defined: Iterable[str] = ()) -> Normalizer:
        """The normalizer a ``.model``'s description asks for (``conf["normalizer"]`` of
        :func:`core.formats.sentencepiece.spec_from_sentencepiece`)."""
        return cls(
            base64.b64decode(conf.get("charsmap") or ""),
            add_dummy_prefix=bool(conf.get("add_dummy_prefix", True)),
            remove_extra_whitespaces=bool(conf.get("remove_extra_whitespaces", True)),
            escape_whitespaces=bool(conf.get("escape_whitespaces", True)),
            user_defined=user_defined,
        )

    def normalize(self, text: str) -> str:
        """The normalized text (empty for an empty text, or one of spaces when they are removed)."""
        if self.trie is None:
            return self._identity(text)
        rm = self.remove_extra_whitespaces
        pieces = list(self._pieces(text))
        k = 0
        if rm:
            while k < len(pieces) and pieces[k] == " ":
                k += 1
        if k == len(pieces):
            return ""
        out: list[str] = []
        if self.add_dummy_prefix:
            out.append(" ")
        prev_space = rm
        for sp in pieces[k:]:
            if prev_space:
                sp = sp.lstrip(" ")
            if sp:
                out.append(sp)
                prev_space = rm and sp.endswith(" ")
            elif not rm:
                prev_space = False
        s = "".join(out)
        if self.escape_whitespaces:
            s = s.replace(" ", SPACE)
        if rm:
            s = s.rstrip(SPACE if self.escape_whitespaces else " ")
        return s

    def _identity(self, text: str) -> str:
        """The identity rule: only spaces change (leading ones and runs dropped when extra whitespace
        is removed, the dummy prefix, ``▁`` for each, then every trailing ``▁`` dropped, also one that
        was in the text)."""
        rm = self.remove_extra_whitespaces
        if rm:
            text = _SPACE_RUNS.sub(" ", text.lstrip(" "))
        if not text:
            return ""
        if self.add_dummy_prefix:
            text = " " + text
        if self.escape_whitespaces:
            text = text.replace(" ", SPACE)
        return text.rstrip(SPACE if self.escape_whitespaces else " ") if rm else text
