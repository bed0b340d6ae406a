"""Char-level BPE with byte fallback: SentencePiece BPE models (Llama 1/2, Mistral 7B v0.1–v0.3,
Gemma, Yi …) and HF ``tokenizer.json`` files with ``byte_fallback`` (their conversion).

Unlike byte-level BPE, the symbols are Unicode characters; a space is ``▁`` (U+2581). Two rules:

* ``"sentencepiece"`` (a ``.model`` file, as the ``sentencepiece`` library encodes): the text is
  normalized (``▁`` for spaces, a dummy ``▁`` prefix, optionally extra spaces removed), cut into
  user-defined pieces (kept whole) and characters, then the adjacent pair whose concatenation is a
  piece with the highest score is merged, the leftmost on a tie, until none is; unused pieces are
  split back into the pair that made them; a symbol that is no piece becomes its UTF-8 byte pieces
  ``<0xE4>`` … (byte fallback) or ``<unk>``.
* ``"hf"`` (HF's BPE model): characters missing from the vocab become byte tokens first (or
  ``unk_token``, fused when ``fuse_unk``), then the listed merges apply by rank, the leftmost on a tie.

A text is cut before a ``▁`` wherever no piece holds the character before it followed by ``▁`` (no
merge can cross such a place), so the cut parts encode alone and repeat (they are cached).

The normalization of a ``.model`` is :mod:`core.pipeline.sp_normalizer`'s; here the text is normalized.

>>> bpe = CharBPE({"mode": "sentencepiece", "pieces": ["<unk>", "▁", "a", "b", "▁a", "ab", "▁ab"],
...                "types": [2, 1, 1, 1, 1, 1, 1], "scores": [0, -5, -6, -7, -1, -2, -3],
...                "normalizer": {"add_dummy_prefix": True}})
>>> bpe.encode_word("▁ab▁ab▁b")
(6, 6, 1, 3)
"""

from __future__ import annotations

import codecs
import heapq
from collections.abc import Iterable, Sequence
from typing import Any

from core.bpe.support import compile_alternation

SPACE = "\u2581"
NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6
_CACHE_MAX = 1 << 18
_FINE_FROM = 24  # parts longer than this are cut between characters no piece joins
_KIND_NAMES = {
    NORMAL: "normal",
    UNKNOWN: "unknown",
    CONTROL: "control",
    USER_DEFINED: "user-defined",
    UNUSED: "unused",
    BYTE: "byte",
}


def byte_piece(b: int) -> str:
    """The name of a byte piece: ``<0xE4>``."""
    return f"<0x{b:02X}>"


def parse_byte_piece(piece: str) -> int | None:
    """The byte of a piece named ``<0xXX>`` (upper-case hex, as SentencePiece and HF write it)."""
    if len(piece) == 6 and piece.startswith("<0x") and piece.endswith(">"):
        digits = piece[3:5]
        if all(c in "0123456789ABCDEF" for c in digits):
            return int(digits, 16)
    return None


def piece_bytes(piece: str, kind: int = NORMAL) -> bytes:
    """The bytes a piece stands for in text: ``▁`` is a space, a byte piece its byte.

    >>> piece_bytes("▁the"), piece_bytes("<0x0A>", BYTE)
    (b' the', b'\\n')
    """
    if kind == BYTE:
        b = parse_byte_piece(piece)
        if b is not None:
            return bytes([b])
    return piece.replace(SPACE, " ").encode("utf-8", "surrogateescape")


def _one_byte_replace(e: UnicodeError) -> tuple[str, int]:
    # SentencePiece and HF replace each byte of an invalid sequence with U+FFFD (Python: the longest
    # invalid prefix at once)
    assert isinstance(e, UnicodeDecodeError)
    return "\ufffd", e.start + 1


codecs.register_error("charbpe_replace", _one_byte_replace)


class CharBPE:
    """The encoder and decoder of one char-level BPE model, from its description (see
    :func:`core.formats.sentencepiece.spec_from_sentencepiece` and ``spec_from_hf_charbpe``)."""

    def __init__(self, conf: dict[str, Any]) -> None:
        self.mode: str = conf["mode"]
        pieces: list[str | None] = list(conf["pieces"])
        self.pieces = pieces
        self.byte_fallback = bool(conf.get("byte_fallback"))
        unk = conf.get("unk_id")
        self.unk_id: int | None = unk if isinstance(unk, int) else None
        self.fuse_unk = bool(conf.get("fuse_unk"))
        self.ignore_merges = bool(conf.get("ignore_merges"))
        norm = conf.get("normalizer") or {}
        self.add_dummy_prefix = bool(norm.get("add_dummy_prefix", False))
        self.remove_extra_whitespaces = bool(norm.get("remove_extra_whitespaces", False))
        self.escape_whitespaces = bool(norm.get("escape_whitespaces", True))
        self.unk_surface: str = conf.get("unk_surface", " \u2047 ")
        self.user_defined = [p for p, t in zip(pieces, conf.get("types") or ()) if t == USER_DEFINED and p]
        self.decoder = conf.get("decoder")
        n = len(pieces)
        if self.mode == "sentencepiece":
            types = list(conf["types"])
            scores = list(conf["scores"])
            if len(types) != n or len(scores) != n:
                raise ValueError("pieces, types and scores must have the same length")
            self.types = types
            self.scores = [float(s) for s in scores]
            self._pieces: dict[str, int] = {}
            self._reserved: dict[str, int] = {}
            for i, (p, t) in enumerate(zip(pieces, types)):
                if p is None:
                    continue
                table = self._pieces if t in (NORMAL, USER_DEFINED, UNUSED) else self._reserved
                table.setdefault(p, i)
            self._unused = frozenset(i for i, t in enumerate(types) if t == UNUSED)
            user = [p for p, t in zip(pieces, types) if t == USER_DEFINED and p]
            self._user = compile_alternation(user)
            self._byte_ids = [self._reserved.get(byte_piece(b)) for b in range(256)]
            if self.unk_id is None:
                self.unk_id = next((i for i, t in enumerate(types) if t == UNKNOWN), None)
            inside = [p for p in self._pieces if len(p) > 1]
            # (an unused piece is split back by the pair last seen making it, over the whole text)
            fine = not self._unused
        else:
            self.types = [NORMAL] * n
            self._vocab: dict[str, int] = {p: i for i, p in enumerate(pieces) if p is not None}
            self._merges: dict[tuple[int, int], tuple[int, int]] = {}
            for rank, (a, b) in enumerate(conf.get("merges") or []):
                pa, pb = pieces[a], pieces[b]
                assert pa is not None and pb is not None
                self._merges[(a, b)] = (rank, self._vocab[pa + pb])
            self._byte_ids = [self._vocab.get(byte_piece(b)) for b in range(256)]
            for bid in self._byte_ids:
                if bid is not None:
                    self.types[bid] = BYTE
            inside = [p for p in self._vocab if len(p) > 1]
            byte_set = {i for i in self._byte_ids if i is not None}
            # HF's order of a pending <unk> and byte tokens, and merges of byte tokens, depend on
            # the whole word: no cuts inside a run then
            fine = not any(a in byte_set or b in byte_set for a, b in self._merges) and (
                not self.byte_fallback or len(byte_set) == 256
            )
        # characters that some piece holds right before a "▁": a cut before "▁" needs another one
        self._joins = frozenset(p[k - 1] for p in inside for k in range(1, len(p)) if p[k] == SPACE)
        # the two-character strings inside pieces: no merge can join characters whose pair is not one
        # of them, so a long run (Chinese, with no "▁") is cut there too
        self._bigrams = frozenset(p[k : k + 2] for p in inside for k in range(len(p) - 1)) if fine else None
        self._cache: dict[str, tuple[int, ...]] = {}

    # ------------------------------------------------------------------ normalization (.model)
    # ------------------------------------------------------------------ what a piece is (for the views)
    def piece(self, token_id: int) -> str | None:
        """The piece as the model names it (``▁the``, ``<0x0A>``, ``<s>``), or None."""
        return self.pieces[token_id] if 0 <= token_id < len(self.pieces) else None

    def score(self, token_id: int) -> float | None:
        """The piece's score in a ``.model`` (the higher, the earlier it merges), else None."""
        if self.mode != "sentencepiece" or not 0 <= token_id < len(self.scores):
            return None
        return self.scores[token_id]

    def kind(self, token_id: int) -> str:
        """``"normal"``, ``"byte"`` (a byte-fallback piece), ``"control"``, ``"unknown"``,
        ``"user-defined"`` or ``"unused"``."""
        t = self.types[token_id] if 0 <= token_id < len(self.types) else NORMAL
        if self.mode == "hf" and token_id == self.unk_id:
            return "unknown"
        return _KIND_NAMES.get(t, "normal")

    def is_byte_fallback(self, token_id: int) -> bool:
        """Whether the id is a byte piece (``<0xE4>``): a byte of a character outside the vocab."""
        return 0 <= token_id < len(self.types) and self.types[token_id] == BYTE

    # ------------------------------------------------------------------ encoding
    def encode_word(self, word: str) -> tuple[int, ...]:
        """The ids of one normalized text (or one pre-token of a tokenizer.json)."""
        if not word:
            return ()
        if self.ignore_merges and self.mode == "hf":
            i = self._vocab.get(word)
            if i is not None:
                return (i,)
        out: list[int] = []
        cache = self._cache
        for part in self._parts(word):
            ids = cache.get(part)
            if ids is None:
                ids = self._encode_part(part)
                if len(part) <= 256:
                    if len(cache) >= _CACHE_MAX:
                        cache.clear()
                    cache[part] = ids
            out.extend(ids)
        if (self.mode == "sentencepiece" and not self.byte_fallback) or (self.mode == "hf" and self.fuse_unk):
            unk = self.unk_id  # a run of unknown characters is one <unk> (also across the cuts here)
            out = [x for k, x in enumerate(out) if x != unk or k == 0 or out[k - 1] != unk]
        return tuple(out)

    def _parts(self, word: str) -> Iterable[str]:
        """``word`` cut before each ``▁`` no merge can cross, and a long part also between two
        characters that no piece holds side by side."""
        if SPACE not in word[1:]:
            return self._fine(word) if len(word) > _FINE_FROM else (word,)
        joins = self._joins
        parts = []
        start = 0
        pos = word.find(SPACE, 1)
        while pos > 0:
            if word[pos - 1] not in joins:
                parts.append(word[start:pos])
                start = pos
            pos = word.find(SPACE, pos + 1)
        parts.append(word[start:])
        if self._bigrams is not None and any(len(p) > _FINE_FROM for p in parts):
            return [q for p in parts for q in (self._fine(p) if len(p) > _FINE_FROM else (p,))]
        return parts

    def _fine(self, s: str) -> list[str]:
        big = self._bigrams
        if big is None:
            return [s]
        cuts = [i for i, pair in enumerate(map(str.__add__, s, s[1:]), 1) if pair not in big]
        if not cuts:
            return [s]
        return [s[a:b] for a, b in zip([0, *cuts], [*cuts, len(s)])]

    def _encode_part(self, s: str) -> tuple[int, ...]:
        return self._encode_sp(s) if self.mode == "sentencepiece" else self._encode_hf(s)

    def _encode_sp(self, s: str) -> tuple[int, ...]:
        # symbols: user-defined pieces (frozen: never merged) and single characters
        if self._user is None:
            syms: list[str] = list(s)
            frozen = [False] * len(syms)
        else:
            syms, frozen = [], []
            match = self._user.match
            pos = 0
            while pos < len(s):
                m = match(s, pos)
                if m is not None and m.end() > pos:
                    syms.append(m.group())
                    frozen.append(True)
                    pos = m.end()
                else:
                    syms.append(s[pos])
                    frozen.append(False)
                    pos += 1
        n = len(syms)
        pieces, scores, unused = self._pieces, self.scores, self._unused
        nxt = list(range(1, n + 1))
        nxt[-1] = -1
        prv = list(range(-1, n - 1))
        heap: list[tuple[float, int, int, int]] = []
        rev: dict[str, tuple[str, str]] = {}

        def push(left: int, right: int) -> None:
            if left < 0 or right < 0 or frozen[left] or frozen[right]:
                return
            a, b = syms[left], syms[right]
            i = pieces.get(a + b)
            if i is None:
                return
            heapq.heappush(heap, (-scores[i], left, right, len(a) + len(b)))
            if i in unused:
                rev[a + b] = (a, b)

        for k in range(n - 1):
            push(k, k + 1)
        while heap:
            _, left, right, size = heapq.heappop(heap)
            a, b = syms[left], syms[right]
            if not a or not b or len(a) + len(b) != size:
                continue
            syms[left] = a + b
            syms[right] = ""
            nxt[left] = nxt[right]
            if nxt[right] >= 0:
                prv[nxt[right]] = left
            push(prv[left], left)
            push(left, nxt[left])
        out: list[int] = []
        k = 0
        while k >= 0:
            self._resegment(syms[k], rev, out)
            k = nxt[k]
        return tuple(out)

    def _resegment(self, sym: str, rev: dict[str, tuple[str, str]], out: list[int]) -> None:
        i = self._reserved.get(sym)
        if i is None:
            i = self._pieces.get(sym)
        if i is not None and i in self._unused and sym in rev:
            a, b = rev[sym]
            self._resegment(a, rev, out)
            self._resegment(b, rev, out)
            return
        if i is None or i == self.unk_id:
            if self.byte_fallback:
                out.extend(self._byte_id(x) for x in sym.encode("utf-8", "surrogateescape"))
                return
            if self.unk_id is None:
                return
            i = self.unk_id
        out.append(i)

    def _byte_id(self, b: int) -> int:
        i = self._byte_ids[b]
        if i is None:
            return self.unk_id if self.unk_id is not None else 0
        return i

    def _encode_hf(self, s: str) -> tuple[int, ...]:
        vocab, byte_ids = self._vocab, self._byte_ids
        syms: list[int] = []
        unk: int | None = None  # a pending unk (HF adds it when the next known character comes)
        for ch in s:
            i = vocab.get(ch)
            if i is not None:
                if unk is not None:
                    syms.append(unk)
                    unk = None
                syms.append(i)
                continue
            if self.byte_fallback:
                ids = [byte_ids[b] for b in ch.encode("utf-8", "surrogateescape")]
                if None not in ids:
                    syms.extend(ids)  # type: ignore[arg-type]
                    continue
            if self.unk_id is not None:
                if unk is not None and not self.fuse_unk:
                    syms.append(unk)
                unk = self.unk_id
        if unk is not None:
            syms.append(unk)
        n = len(syms)
        if n < 2:
            return tuple(syms)
        merges = self._merges
        nxt = list(range(1, n + 1))
        nxt[-1] = -1
        prv = list(range(-1, n - 1))
        alive = [True] * n
        heap = []
        for k in range(n - 1):
            m = merges.get((syms[k], syms[k + 1]))
            if m is not None:
                heap.append((m[0], k, m[1]))
        heapq.heapify(heap)
        while heap:
            _, pos, new = heapq.heappop(heap)
            if not alive[pos] or nxt[pos] < 0:
                continue
            right = nxt[pos]
            m = merges.get((syms[pos], syms[right]))
            if m is None or m[1] != new:
                continue
            syms[pos] = new
            alive[right] = False
            nxt[pos] = nxt[right]
            if nxt[right] >= 0:
                prv[nxt[right]] = pos
            p = prv[pos]
            if p >= 0 and (m := merges.get((syms[p], new))) is not None:
                heapq.heappush(heap, (m[0], p, m[1]))
            q = nxt[pos]
            if q >= 0 and (m := merges.get((new, syms[q]))) is not None:
                heapq.heappush(heap, (m[0], pos, m[1]))
        return tuple(syms[k] for k in range(n) if alive[k])

    # ------------------------------------------------------------------ decoding
    def decode(self, ids: Sequence[int], special: Iterable[int] = ()) -> str:
        """The text of ``ids`` as the reference decodes it: ``sentencepiece``'s ``decode`` for a
        ``.model`` (control pieces are invisible, ``<unk>`` is " ⁇ "), HF's decoder for a
        tokenizer.json (special tokens kept: ``skip_special_tokens=False``)."""
        if self.mode == "sentencepiece":
            return self._decode_sp(ids)
        return self._decode_hf(ids)

    def _decode_sp(self, ids: Sequence[int]) -> str:
        # sentencepiece's Decode: runs of byte pieces become their characters (each invalid byte
        # U+FFFD); the first piece that starts with "▁" while nothing is written yet loses it (all
        # such pieces while the text is empty, when extra whitespace is removed)
        out: list[str] = []
        pending = bytearray()
        bos = True
        seen = False  # the last piece gave up its leading "▁"
        types, pieces = self.types, self.pieces
        strip = self.add_dummy_prefix or self.remove_extra_whitespaces
        for i in ids:
            t = types[i]
            if t == BYTE:
                pending.append(piece_bytes(pieces[i] or "", BYTE)[0])
                continue
            if pending:
                out.append(pending.decode("utf-8", "charbpe_replace"))
                pending.clear()
            if seen or any(out):
                bos = False
            seen = False
            if t == CONTROL:
                continue
            if t == UNKNOWN:
                out.append(self.unk_surface)
                continue
            p = pieces[i] or ""
            if bos and strip and p.startswith(SPACE):
                p = p[1:]
                seen = not self.remove_extra_whitespaces
            out.append(p.replace(SPACE, " "))
        if pending:
            out.append(pending.decode("utf-8", "charbpe_replace"))
        return "".join(out)

    def _decode_hf(self, ids: Sequence[int]) -> str:
        tokens = [self.pieces[i] or "" for i in ids]
        return "".join(run_decoder(self.decoder, tokens))


# --------------------------------------------------------------------------- HF decoders
def check_decoder(step: Any) -> None:
    """Raise ``ValueError`` for a decoder :func:`run_decoder` cannot run."""
    if step is None:
        return
    kind = step.get("type") if isinstance(step, dict) else None
    if kind == "Sequence":
        for sub in step.get("decoders") or []:
            check_decoder(sub)
        return
    if kind == "Replace":
        pat = step.get("pattern")
        if not (isinstance(pat, dict) and isinstance(pat.get("String"), str)):
            raise ValueError(f"a Replace decoder with pattern {pat!r} (only a String pattern is supported)")
        return
    if kind not in ("ByteFallback", "Fuse", "Strip", "Metaspace"):
        raise ValueError(
            f"decoder {kind!r} is not supported for char-level BPE (supported: Sequence, Replace, "
            "ByteFallback, Fuse, Strip, Metaspace)"
        )


def run_decoder(step: Any, tokens: list[str]) -> list[str]:
    """HF's ``decode_chain`` of the decoders a SentencePiece-style tokenizer.json uses."""
    if step is None:
        return tokens
    kind = step.get("type")
    if kind == "Sequence":
        for sub in step.get("decoders") or []:
            tokens = run_decoder(sub, tokens)
        return tokens
    if kind == "Replace":
        pat, content = step["pattern"]["String"], step.get("content", "")
        return [t.replace(pat, content) if pat else t for t in tokens]
    if kind == "ByteFallback":
        out: list[str] = []
        pending = bytearray()
        for t in [*tokens, None]:
            b = parse_byte_piece(t) if t is not None else None
            if b is not None:
                pending.append(b)
                continue
            if pending:
                try:
                    out.append(pending.decode("utf-8"))
                except UnicodeDecodeError:
                    out.extend("\ufffd" for _ in pending)
                pending.clear()
            if t is not None:
                out.append(t)
        return out
    if kind == "Fuse":
        return ["".join(tokens)]
    if kind == "Strip":
        content = step.get("content", " ")
        start, stop = int(step.get("start", 0)), int(step.get("stop", 0))
        res = []
        for t in tokens:
            a, b = 0, len(t)
            for _ in range(start):
                if a < b and t[a] == content:
                    a += 1
                else:
                    break
            for _ in range(stop):
                if b > a and t[b - 1] == content:
                    b -= 1
                else:
                    break
            res.append(t[a:b])
        return res
    if kind == "Metaspace":
        rep = step.get("replacement", SPACE)
        scheme = step.get("prepend_scheme")
        if scheme is None:
            scheme = "always" if step.get("add_prefix_space", True) else "never"
        return [
            "".join(("" if i == 0 and scheme != "never" else " ") if c == rep else c for c in t)
            for i, t in enumerate(tokens)
        ]
    return tokens
