"""Token codes: the trainer keeps every word as a ``str`` with one character per token.

Bytes 0–255 start as ``chr(0)``–``chr(255)`` and each merged token gets a code of its own, so a
merge is ``str.find`` / ``str.replace`` at C speed and a word's pairs are its adjacent characters.
Byte values that occur nowhere in the corpus are handed out first: on an ASCII corpus the words
then stay one byte per character through the first ~100 merges, the most expensive ones (half
the memory traffic of two-byte strings). One free byte value is kept back as the separator that
joins words for a batched merge; when the corpus uses all 256, ``SEP_CODE`` (never a token code)
is the separator. Codes skip the surrogates, which NumPy's UTF-32 views cannot hold.

>>> codes = TokenCodes(free=[7, 9])
>>> codes.sep, codes.code_for(b"ab"), codes.tokens("a" + codes.code_for(b"ab"))
('\\x07', '\\t', (b'a', b'ab'))
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

BYTE_TOKENS: tuple[bytes, ...] = tuple(bytes([i]) for i in range(256))
SEP_CODE = 0xFFFF  # never a token code: the separator when the corpus uses all 256 byte values


class PairNames(dict[str, tuple[bytes, bytes]]):
    """Pair keys (two codes) to their pairs of tokens, filled in on first use: its ``__getitem__``
    is a C-level key function for comparing pairs (a tie picks the greatest (bytes, bytes) pair)."""

    def __init__(self, token: dict[str, bytes]) -> None:
        super().__init__()
        self.token = token

    def __missing__(self, key: str) -> tuple[bytes, bytes]:
        pair = self[key] = (self.token[key[0]], self.token[key[1]])
        return pair


class TokenCodes:
    """The two-way map between tokens and their one-character codes."""

    def __init__(self, free: Iterable[int] = ()) -> None:
        self.code: dict[bytes, str] = {t: chr(i) for i, t in enumerate(BYTE_TOKENS)}
        self.token: dict[str, bytes] = {ch: t for t, ch in self.code.items()}
        # the pairs of keys that met in a tie (a code keeps its token once pairs with it exist)
        self.pair_names = PairNames(self.token)
        self.next_code = 256
        self.free: deque[int] = deque(free)  # byte values absent from the corpus, handed out first
        self.sep_code = self.free.popleft() if self.free else SEP_CODE
        self.sep = chr(self.sep_code)
        if self.sep_code < 256:  # a byte that occurs nowhere: no word may be searched for it
            del self.code[BYTE_TOKENS[self.sep_code]]

    def code_for(self, token: bytes) -> str:
        """The code of ``token`` (a new one on first use)."""
        ch = self.code.get(token)
        if ch is None:
            if self.free:
                k = self.free.popleft()
                del self.code[BYTE_TOKENS[k]]  # the byte occurs nowhere; its code now means `token`
            else:
                k = self.next_code
                while 0xD800 <= k <= 0xDFFF or k == SEP_CODE:
                    k += 1
                self.next_code = k + 1
            ch = self.code[token] = chr(k)
            self.token[ch] = token
        return ch

    def tokens(self, w: str) -> tuple[bytes, ...]:
        """A word's tokens from its codes."""
        return tuple(map(self.token.__getitem__, w))

    @property
    def fits_16_bits(self) -> bool:
        """Whether every code handed out so far is below 2**16."""
        return self.next_code <= 1 << 16
