"""Encode and decode with a byte-level BPE vocabulary (CS336 interface; ids equal tiktoken's).

Text is cut at special tokens (longest first), each piece is pre-tokenized with the pattern, and
each pre-token is encoded on its own: first as a whole-token lookup, then through a cache, then by
the merge loop by rank (:func:`core.bpe.bpe_ids`). A pre-token equal to a (non-special) token of the vocab
encodes to that one token, as in tiktoken; for a vocabulary made by BPE training this is what the
merges give anyway.

Lone surrogates: characters U+DC80..U+DCFF are taken as ``surrogateescape`` bytes 0x80..0xFF (text
read with ``errors="surrogateescape"`` round-trips byte-exactly through ``encode`` and
``decode_bytes``); any other lone surrogate raises :class:`TokenizerError` naming its position.

>>> tok = Tokenizer.from_spec(TokenizerSpec.from_merges([(b"h", b"i")]))
>>> tok.encode("hi hi"), tok.decode([256, 32, 256])
([256, 32, 256], 'hi hi')
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import Any

import regex

from .bpe import BYTE_TOKENS, NEVER_IN_UTF8, MergeStep, MergeTable, bpe_ids, merge_steps
from .errors import TokenizerError
from .hf_pipeline import AddedTokenSplitter, Pipeline
from .pretokenize import GPT2_PATTERN, GPT4_PATTERN, check_special_tokens, resolve_pattern
from .spec import TokenizerSpec, special_ids
from .splitting import last_safe_cut, make_splitter
from .trace import TokenSpan, token_spans

Pair = tuple[bytes, bytes]
CACHE_LIMIT = 1 << 19  # distinct pre-tokens kept in the cache before it is cleared (~80 MB)
CACHE_MAX_WORD = 256  # longer pre-tokens are not cached (they rarely repeat)
STREAM_MIN_CHARS = 1 << 16  # encode_iterable gathers at least this much text before encoding
_BAD_SURROGATE = regex.compile("[\ud800-\udc7f\udd00-\udfff]")


class _Cache(dict):
    """pre-token string → tuple of ids; a miss encodes the pre-token (``dict.__missing__``)."""

    def __init__(self, fill) -> None:
        super().__init__()
        self.fill = fill

    def __missing__(self, word: str) -> tuple[int, ...]:
        ids = self.fill(word)
        if len(word) <= CACHE_MAX_WORD:
            if len(self) >= CACHE_LIMIT:
                self.clear()
            self[word] = ids
        return ids


class _SurrogateInText(Exception):
    pass


class Tokenizer:
    """A byte-level BPE tokenizer.

    ``vocab`` maps ids to bytes, ``merges`` lists the merged pairs in rank order, special tokens
    missing from the vocab are appended, and ``pattern`` is ``"gpt2"``, ``"gpt4"``, ``"none"`` or a
    regex.
    """

    #: encode_iterable gathers at least this many characters before encoding (tests lower it)
    stream_min_chars = STREAM_MIN_CHARS

    def __init__(self, vocab: dict[int, bytes], merges: Iterable[Pair],
                 special_tokens: Iterable[str] | None = None, *, pattern: str | None = "gpt2",
                 pipeline: Pipeline | None = None) -> None:
        self.special_tokens: list[str] = check_special_tokens(special_tokens)
        #: the HuggingFace pipeline of a tokenizer.json (None: special tokens, then the pattern)
        self.pipeline = pipeline
        self.pattern = pattern
        self.pattern_regex = resolve_pattern(pattern)
        self.vocab: dict[int, bytes] = _check_vocab(vocab)
        self.merges: list[Pair] = [_check_pair(p, r) for r, p in enumerate(merges)]
        self.tie_break: str | None = None
        self.training: dict[str, Any] | None = None
        next_id = max(self.vocab, default=-1) + 1
        for s in self.special_tokens:
            b = s.encode("utf-8", "surrogateescape")
            if b not in self.vocab.values():
                self.vocab[next_id] = b
                next_id += 1
        self.special_ids: dict[str, int] = special_ids(self.vocab, self.special_tokens)
        self._special_id_set = frozenset(self.special_ids.values())
        self._build_tables()
        self._pretokens = make_splitter(self.pattern_regex)
        longest_first = sorted(self.special_tokens, key=len, reverse=True)
        self._special_re = (regex.compile("|".join(regex.escape(s) for s in longest_first))
                            if longest_first else None)
        self._longest_special = max((len(s) for s in self.special_tokens), default=0)
        self._cache = _Cache(self._encode_word)
        self._streamable = self.pattern_regex in (GPT2_PATTERN, GPT4_PATTERN) and pipeline is None
        self._hf = _HFMode(self, pipeline) if pipeline is not None else None

    def _build_tables(self) -> None:
        sids = set(self.special_ids.values())
        encoder: dict[bytes, int] = {}
        for i in sorted(self.vocab, reverse=True):  # lowest id wins
            if i not in sids:
                encoder[self.vocab[i]] = i
        for i in sorted(self.vocab, reverse=True):
            b = self.vocab[i]
            if b not in encoder:
                encoder[b] = i  # a special token that is also needed as a plain token (e.g. "a")
        missing = [f"0x{x:02x}" for x in range(256) if BYTE_TOKENS[x] not in encoder and x not in NEVER_IN_UTF8]
        #: bytes the vocab lacks that valid UTF-8 never uses (GPT-NeoX, OLMo 1): only text that needs
        #: one (a U+DCxx escape of such a byte) cannot be encoded
        self.absent_bytes = frozenset(x for x in NEVER_IN_UTF8 if BYTE_TOKENS[x] not in encoder)
        self._absent_re = (regex.compile("[" + "".join(chr(0xDC00 + x) for x in sorted(self.absent_bytes)) + "]")
                           if self.absent_bytes else None)
        if missing:
            raise TokenizerError(f"the vocab has no token for the byte(s) {', '.join(missing[:8])}"
                                 f"{' ...' if len(missing) > 8 else ''}; a byte-level vocab needs all 256 "
                                 "single bytes")
        ranks: dict[Pair, int] = {}
        made: dict[int, int] = {}
        for r, (a, b) in enumerate(self.merges):
            for part in (a, b, a + b):
                if part not in encoder:
                    raise TokenizerError(f"merge {r} ({a!r}, {b!r}) uses or makes the token {part!r} "
                                         "which is not in the vocab; add it or drop the merge")
            ranks.setdefault((a, b), r)
            made.setdefault(encoder[a + b], r)
        self._encoder = encoder
        self._ranks = ranks
        self._table = MergeTable.build(self.merges, encoder)
        self._made_by = made

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_files(cls, vocab_filepath: str | os.PathLike, merges_filepath: str | os.PathLike,
                   special_tokens: list[str] | None = None, *, pattern: str | None = "gpt2") -> Tokenizer:
        """Load a GPT-2 style ``vocab.json`` + ``merges.txt`` (``#version`` header optional)."""
        from .formats.gpt2 import load_gpt2

        spec = load_gpt2(vocab_filepath, merges_filepath, special_tokens=list(special_tokens or []),
                         pattern=pattern)
        return cls.from_spec(spec)

    @classmethod
    def from_spec(cls, spec: TokenizerSpec) -> Tokenizer:
        tok = cls(dict(spec.vocab), spec.merges, list(spec.special_tokens), pattern=spec.pattern,
                  pipeline=spec.pipeline)
        tok.tie_break = spec.tie_break
        tok.training = spec.training
        return tok

    def to_spec(self) -> TokenizerSpec:
        return TokenizerSpec(dict(self.vocab), tuple(self.merges), tuple(self.special_tokens),
                             self.pattern, self.tie_break, self.training, self.pipeline)

    # ------------------------------------------------------------------ lookups
    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def id_to_token(self, token_id: int) -> bytes:
        """The bytes of one id; unknown ids raise :class:`TokenizerError`."""
        try:
            return self.vocab[token_id]
        except (KeyError, TypeError):
            raise self._unknown_id(token_id) from None

    def token_to_id(self, token: bytes | str) -> int:
        """The id of a token given as bytes, or as text (a special token or its UTF-8 bytes)."""
        if isinstance(token, str):
            if token in self.special_ids:
                return self.special_ids[token]
            token = token.encode("utf-8", "surrogateescape")
        try:
            return self._encoder[bytes(token)]
        except KeyError:
            raise TokenizerError(f"{token!r} is not a token of this vocabulary") from None

    def is_special(self, token_id: int) -> bool:
        return token_id in self._special_id_set

    def merge_rank(self, pair: Pair) -> int | None:
        """Rank of a merge pair (None when the pair is not a merge)."""
        return self._ranks.get((bytes(pair[0]), bytes(pair[1])))

    def token_rank(self, token_id: int) -> int | None:
        """Rank of the merge that made a token (None for single bytes, special and other tokens)."""
        return self._made_by.get(token_id)

    def parts(self, token_id: int) -> Pair | None:
        """The two tokens a merged token was made of (None when it was not made by a merge)."""
        r = self._made_by.get(token_id)
        return None if r is None else self.merges[r]

    # ------------------------------------------------------------------ encoding
    def _encode_word(self, word: str) -> tuple[int, ...]:
        try:
            b = word.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            raise _SurrogateInText from None
        i = self._encoder.get(b)
        if i is not None:
            return (i,)
        return tuple(bpe_ids(b, self._table))

    def _encode_ordinary(self, text: str) -> list[int]:
        return list(chain.from_iterable(map(self._cache.__getitem__, self._pretokens(text))))

    def _pieces(self, text: str) -> Iterator[tuple[str, int | None]]:
        """The text between special tokens (with None) and the special tokens (with their id)."""
        sre = self._special_re
        if sre is None:
            yield text, None
            return
        pos = 0
        sids = self.special_ids
        for m in sre.finditer(text):
            yield text[pos:m.start()], None
            yield m.group(), sids[m.group()]
            pos = m.end()
        yield text[pos:], None

    def encode(self, text: str, add_special_tokens: bool = True) -> list[int]:
        """Encode text to ids (special tokens become their ids, longest match first).

        A tokenizer loaded from a HuggingFace ``tokenizer.json`` follows that file's pipeline
        (normalizer, pre-tokenizers, added tokens, ``ignore_merges``) and, with
        ``add_special_tokens`` (the default, as in ``tokenizers``), its post-processor's tokens
        (e.g. ``<|begin_of_text|>``): the ids equal ``tokenizers.Tokenizer.encode(text, add_special_tokens).ids``.
        Other tokenizers add no tokens, whatever ``add_special_tokens`` says.

        >>> Tokenizer.from_spec(TokenizerSpec.from_merges([])).encode("")
        []
        """
        if not isinstance(text, str):
            raise TokenizerError(f"encode() takes a str, not {type(text).__name__}; decode bytes first")
        if self._absent_re is not None:
            self._check_absent(text)
        if self._hf is not None:
            try:
                return self._hf.encode(text, add_special_tokens)
            except _SurrogateInText:
                raise self._surrogate_error(text) from None
        try:
            if self._special_re is None:
                return self._encode_ordinary(text)
            out: list[int] = []
            for piece, sid in self._pieces(text):
                if sid is not None:
                    out.append(sid)
                elif piece:
                    out += self._encode_ordinary(piece)
            return out
        except _SurrogateInText:
            raise self._surrogate_error(text) from None

    def encode_ordinary(self, text: str) -> list[int]:
        """Encode text ignoring special tokens (their text is encoded like any other text)."""
        if self._absent_re is not None:
            self._check_absent(text)
        if self._hf is not None:
            return self._hf.encode_ordinary(text)
        try:
            return self._encode_ordinary(text)
        except _SurrogateInText:
            raise self._surrogate_error(text) from None

    def encode_iterable(self, iterable: Iterable[str]) -> Iterator[int]:
        """Lazily encode an iterable of strings (e.g. a text file's lines).

        Yields exactly ``encode("".join(iterable))`` however the text is cut, with memory bounded by
        the chunk size: text is encoded up to the last place where neither a special token nor a
        pre-token can cross (for the built-in patterns, after a letter followed by a non-letter).
        With ``pattern="none"`` or a custom regex only special tokens are such places, so a long
        stretch without special tokens is held in memory until one comes.
        """
        if self._hf is not None:
            # a normalizer (NFC joins a letter with the accents that follow) and arbitrary split
            # regexes have no cut place known to be safe: the text is gathered whole
            yield from self.encode("".join(_checked_chunks(iterable)))
            return
        pending: list[str] = []
        size = 0
        need = floor = self.stream_min_chars
        for chunk in iterable:
            if not chunk:
                continue
            if not isinstance(chunk, str):
                raise TokenizerError(f"encode_iterable() takes strings, got {type(chunk).__name__}; open "
                                     "the file in text mode (encoding='utf-8')")
            pending.append(chunk)
            size += len(chunk)
            if size < need:
                continue
            buf = "".join(pending)
            ids, rest = self._encode_prefix(buf)
            yield from ids
            pending = [rest] if rest else []
            size = len(rest)
            # without a cut place the buffer grows; gather more before trying again (linear time)
            need = max(floor, 2 * size)
        if pending:
            yield from self.encode("".join(pending))

    def _encode_prefix(self, buf: str) -> tuple[list[int], str]:
        """Encode the part of ``buf`` that no following text can change; return (ids, rest)."""
        out: list[int] = []
        pos = 0
        end = len(buf)
        if self._special_re is not None:
            limit = len(buf) - self._longest_special
            sids = self.special_ids
            for m in self._special_re.finditer(buf):
                if m.start() > limit:
                    break  # a longer special token could still start here
                if m.start() > pos:
                    out += self.encode_ordinary(buf[pos:m.start()])
                out.append(sids[m.group()])
                pos = m.end()
            end = max(pos, limit + 1)  # no special token starts before `end` (after pos)
        if self._streamable:
            cut = last_safe_cut(buf, pos, end)
            if cut > pos:
                out += self.encode_ordinary(buf[pos:cut])
                pos = cut
        return out, buf[pos:]

    def _check_absent(self, text: str) -> None:
        m = self._absent_re.search(text)  # type: ignore[union-attr]
        if m is not None:
            raise TokenizerError(f"the text needs the byte 0x{ord(m.group()) - 0xDC00:02x} (at character {m.start()}), "
                                 "which this vocab has no token for: it never occurs in valid UTF-8, and this "
                                 "tokenizer (like its original) only encodes valid UTF-8 text")

    def _surrogate_error(self, text: str) -> TokenizerError:
        m = _BAD_SURROGATE.search(text)
        where = f"U+{ord(m.group()):04X} at character {m.start()}" if m else "a lone surrogate"
        return TokenizerError(f"the text contains a lone surrogate ({where}), which is not valid "
                              "Unicode; only U+DC80..U+DCFF (bytes kept with errors='surrogateescape') "
                              "are accepted. Fix the text, e.g. s.encode('utf-16', 'surrogatepass')"
                              ".decode('utf-16', 'replace')")

    # ------------------------------------------------------------------ decoding
    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        """The exact bytes of a sequence of ids (also a NumPy array)."""
        if hasattr(ids, "tolist"):
            ids = ids.tolist()  # type: ignore[union-attr]
        elif not isinstance(ids, (list, tuple)):
            ids = list(ids)
        try:
            return b"".join(map(self.vocab.__getitem__, ids))
        except (KeyError, TypeError):
            vocab = self.vocab
            bad = next(i for i in ids if not _hashable(i) or i not in vocab)
            raise self._unknown_id(bad) from None

    def decode(self, ids: Iterable[int], errors: str = "replace") -> str:
        """Decode ids to text; bytes that are not valid UTF-8 become U+FFFD (``errors="replace"``).

        Pass ``errors="surrogateescape"`` to get invalid bytes back as U+DC80..U+DCFF instead.
        """
        return self.decode_bytes(ids).decode("utf-8", errors)

    def _unknown_id(self, token_id: object) -> TokenizerError:
        hi = max(self.vocab, default=-1)
        return TokenizerError(f"token id {token_id!r} is not in the vocabulary (ids 0..{hi}); "
                              "the ids come from a different tokenizer or are corrupted")

    # ------------------------------------------------------------------ views
    def pretokenize(self, text: str) -> list[tuple[str, bool]]:
        """The pre-tokens of a text, with True for special tokens."""
        if self._hf is not None:
            return self._hf.pretokenize(text)
        out: list[tuple[str, bool]] = []
        for piece, sid in self._pieces(text):
            if sid is not None:
                out.append((piece, True))
            elif piece:
                out.extend((w, False) for w in self._pretokens(piece))
        return out

    def trace(self, text: str) -> list[TokenSpan]:
        """Every token of ``encode(text)`` with its id, bytes and offsets in the input."""
        return token_spans(text, self.encode(text), self.vocab, self._special_id_set)

    def merge_trace(self, pretoken: str | bytes) -> list[MergeStep]:
        """The merges applied to one pre-token, in order (the "how was this word built" view)."""
        if isinstance(pretoken, str):
            try:
                pretoken = pretoken.encode("utf-8", "surrogateescape")
            except UnicodeEncodeError:
                raise self._surrogate_error(pretoken) from None
        return merge_steps(bytes(pretoken), self._ranks)

    def encode_file(self, input_path: str | os.PathLike, output_path: str | os.PathLike, **kw: Any):
        """Encode a whole file into a ``.npy`` of token ids; see :func:`core.npy.encode_file_to_npy`."""
        from .npy import encode_file_to_npy

        return encode_file_to_npy(self, input_path, output_path, **kw)

    def __repr__(self) -> str:
        return (f"Tokenizer(vocab_size={self.vocab_size}, merges={len(self.merges)}, "
                f"special_tokens={self.special_tokens!r}, pattern={self.pattern!r})")


def _checked_chunks(iterable: Iterable[str]) -> Iterator[str]:
    for chunk in iterable:
        if not isinstance(chunk, str):
            raise TokenizerError(f"encode_iterable() takes strings, got {type(chunk).__name__}; open "
                                 "the file in text mode (encoding='utf-8', newline='')")
        yield chunk


class _HFMode:
    """Encoding through a HuggingFace pipeline (see :mod:`core.hf_pipeline`)."""

    def __init__(self, tok: Tokenizer, pipeline: Pipeline) -> None:
        self.p = pipeline
        normalize = pipeline.compile()["normalize"]
        added = list(pipeline.added_tokens)
        self.raw = AddedTokenSplitter([t for t in added if not t.normalized], None)
        self.norm = AddedTokenSplitter([t for t in added if t.normalized], normalize)
        encoder, table = tok._encoder, tok._table
        whole = encoder.get if pipeline.ignore_merges else None

        def word(b: bytes) -> tuple[int, ...]:
            if whole is not None:
                i = whole(b)
                if i is not None:
                    return (i,)
            return tuple(bpe_ids(b, table))
        self.cache: dict[bytes, tuple[int, ...]] = {}
        self.word = word

    def _model(self, piece: str, out: list[int]) -> None:
        cache, word = self.cache, self.word
        try:
            words = self.p.pre_tokenize_bytes(piece)
        except UnicodeEncodeError:
            raise _SurrogateInText from None
        for b in words:
            ids = cache.get(b)
            if ids is None:
                ids = word(b)
                if len(b) <= CACHE_MAX_WORD:
                    if len(cache) >= CACHE_LIMIT:
                        cache.clear()
                    cache[b] = ids
            out += ids

    def encode(self, text: str, add_special_tokens: bool) -> list[int]:
        out: list[int] = []
        for piece, tid in self.raw.split(text):
            if tid is not None:
                out.append(tid)
                continue
            for piece2, tid2 in self.norm.split(self.p.normalize(piece)):
                if tid2 is not None:
                    out.append(tid2)
                else:
                    self._model(piece2, out)
        if add_special_tokens:
            before, after = self.p.added_ids
            if before or after:
                out = [*before, *out, *after]
        return out

    def encode_ordinary(self, text: str) -> list[int]:
        out: list[int] = []
        self._model(self.p.normalize(text), out)
        return out

    def pretokenize(self, text: str) -> list[tuple[str, bool]]:
        out: list[tuple[str, bool]] = []
        for piece, tid in self.raw.split(text):
            if tid is not None:
                out.append((piece, True))
                continue
            for piece2, tid2 in self.norm.split(self.p.normalize(piece)):
                if tid2 is not None:
                    out.append((piece2, True))
                else:
                    out.extend((w, False) for w in self.p.pre_tokenize(piece2))
        return out


def _hashable(x: object) -> bool:
    try:
        hash(x)
    except TypeError:
        return False
    return True


def _check_vocab(vocab: dict[int, bytes]) -> dict[int, bytes]:
    if not isinstance(vocab, dict):
        raise TokenizerError(f"vocab must be a dict of id -> bytes, not {type(vocab).__name__}")
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


def _check_pair(pair: Pair, rank: int) -> Pair:
    try:
        a, b = pair
    except (TypeError, ValueError):
        raise TokenizerError(f"merge {rank} is {pair!r}, not a pair of bytes") from None
    if not isinstance(a, (bytes, bytearray)) or not isinstance(b, (bytes, bytearray)):
        raise TokenizerError(f"merge {rank} is {pair!r}; both parts must be bytes")
    return bytes(a), bytes(b)
