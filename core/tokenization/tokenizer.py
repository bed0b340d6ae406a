"""Encode and decode with a byte-level BPE vocabulary (CS336 interface; ids equal tiktoken's).

Text is cut at special tokens (longest first), each piece is pre-tokenized with the pattern, and each
pre-token is encoded: a pre-token equal to a (non-special) token is that token, as in tiktoken; others
go through a cache to the merge loop (:func:`core.bpe.merge.bpe_ids`, or by rank; the new words of a long
text all at once, :mod:`core.bpe.batch`). Text a custom pattern does not match is kept as pre-tokens
of its own. A HF ``tokenizer.json`` runs its own pipeline (:mod:`core.pipeline.hf`: normalizer,
added tokens, pre-tokenizers, ``ignore_merges``, post-processor). Characters U+DC80..U+DCFF are
``surrogateescape`` bytes 0x80..0xFF (text read with ``errors="surrogateescape"`` round-trips through
``encode`` and ``decode_bytes``); any other lone surrogate raises :class:`TokenizerError`.

>>> tok = Tokenizer.from_spec(TokenizerSpec.from_merges([(b"h", b"i")]))
>>> tok.encode("hi hi"), tok.decode([256, 32, 256])
([256, 32, 256], 'hi hi')
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from functools import partial
from itertools import chain
from typing import Any

from core.bpe.batch import EncodingParts, PairTable, prefill
from core.bpe.merge import MergeStep, bpe_ids, merge_steps
from core.bpe.ranks import IdMerges, LazyMerges, RankMerges, rank_bpe
from core.bpe.support import (
    _BAD_SURROGATE,
    PretokenCache,
    SurrogateInText,
    check_merges,
    check_surrogates,
    check_vocab,
    compile_alternation,
    hashable,
    hole_error,
    surrogate_error,
)
from core.bpe.tables import MergeTables
from core.errors import TokenizerError
from core.formats.spec import TokenizerSpec, added_not_special, special_ids
from core.pretokenization.ascii_split import tokenizer_splitter
from core.pretokenization.pretokenize import GPT2_PATTERN, GPT4_PATTERN, check_special_tokens, resolve_pattern
from core.pretokenization.space_chunks import ChunkEncoder
from core.pretokenization.splitting import last_safe_cut
from core.tokenization.trace import TextTrace, TokenSpan, token_spans

Pair = tuple[bytes, bytes]
STREAM_MIN_CHARS = 1 << 16  # encode_iterable gathers at least this much text before encoding


class Tokenizer(MergeTables):
    """A byte-level BPE tokenizer.

    ``vocab`` maps ids to bytes, ``merges`` lists the merged pairs in rank order, special tokens
    missing from the vocab are appended, and ``pattern`` is ``"gpt2"``, ``"gpt4"``, ``"none"`` or a
    regex. ``pipeline`` is the description of an imported HF pipeline (``spec.pipeline``).
    """

    #: encode_iterable gathers at least this many characters before encoding (tests lower it)
    stream_min_chars = STREAM_MIN_CHARS

    def __init__(
        self,
        vocab: dict[int, bytes],
        merges: Iterable[Pair],
        special_tokens: Iterable[str] | None = None,
        *,
        pattern: str | None = "gpt2",
        pipeline: dict[str, Any] | None = None,
    ) -> None:
        self.special_tokens: list[str] = check_surrogates(check_special_tokens(special_tokens))
        self.pattern = pattern
        self.pattern_regex = resolve_pattern(pattern)
        self.vocab: dict[int, bytes] = check_vocab(vocab)
        # merges a loader has not built yet (LazyMerges) are built when read: tokens listed in rank order
        # (a tiktoken file) encode by rank, merges found as ids (tokenizer.json) give the table from the ids
        self._lazy: LazyMerges | None = merges if isinstance(merges, (RankMerges, IdMerges)) else None
        self._merges: list[Pair] | None = None if self._lazy is not None else check_merges(merges)
        ids = (merges.ids, merges.keys) if isinstance(merges, IdMerges) and merges.vocab == vocab else None
        self.tie_break: str | None = None
        self.training: dict[str, Any] | None = None
        inverse = dict(zip(self.vocab.values(), self.vocab.keys()))  # bytes -> id (the only one, usually)
        unique = len(inverse) == len(self.vocab)
        next_id = max(self.vocab, default=-1) + 1
        for s in self.special_tokens:
            b = s.encode("utf-8", "surrogateescape")
            if b not in inverse:
                self.vocab[next_id] = b
                inverse[b] = next_id
                next_id += 1
        #: the HF tokenizer.json pipeline description (None for our own tokenizers); see core.pipeline.hf
        self.pipeline_config = pipeline
        self._pipe = None
        self._ignore_merges = True
        #: the char-level BPE model of a SentencePiece-style tokenizer (None for byte-level BPE)
        self._charbpe = None
        if pipeline is not None:
            from core.pipeline.hf import build_pipeline

            self._pipe = build_pipeline(pipeline)
            self._ignore_merges = self._pipe.ignore_merges
            self._charbpe = self._pipe.charbpe
        if unique:
            self.special_ids: dict[str, int] = {
                s: inverse[s.encode("utf-8", "surrogateescape")] for s in self.special_tokens
            }
        else:
            self.special_ids = special_ids(self.vocab, self.special_tokens)
        self._special_id_set = frozenset(self.special_ids.values())
        self._build_tables(inverse if unique else None, ids if unique else None)
        self._pretokens = tokenizer_splitter(self.pattern_regex)
        self._special_re = compile_alternation(self.special_tokens)
        self._longest_special = max((len(s) for s in self.special_tokens), default=0)
        self._cache = PretokenCache(self._encode_word)
        #: the tables the fast encoders read (prefill here, ArrayEncoder for .npy): nothing else is shared
        self.encoding_parts = EncodingParts(
            encoder=self._encoder,
            encode_word=self._encode_word,
            cache=self._cache,
            ignore_merges=self._ignore_merges,
            split=self._pretokens,
            special_re=self._special_re,
            hole_re=self._hole_re,
            has_pipeline=self._pipe is not None,
            make_pair_table=self._make_pair_table,
        )
        self._chunked = ChunkEncoder(
            self._pretokens,
            self._cache.__getitem__,
            self.pattern_regex,
            partial(prefill, self.encoding_parts),
        )
        self._streamable = self.pattern_regex in (GPT2_PATTERN, GPT4_PATTERN)

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_files(
        cls,
        vocab_filepath: str | os.PathLike,
        merges_filepath: str | os.PathLike,
        special_tokens: list[str] | None = None,
        *,
        pattern: str | None = "gpt2",
    ) -> Tokenizer:
        """Load a GPT-2 style ``vocab.json`` + ``merges.txt`` (``#version`` header optional)."""
        from core.formats.gpt2 import load_gpt2

        return cls.from_spec(
            load_gpt2(
                vocab_filepath, merges_filepath, special_tokens=list(special_tokens or []), pattern=pattern
            )
        )

    @classmethod
    def from_spec(cls, spec: TokenizerSpec) -> Tokenizer:
        tok = cls(
            dict(spec.vocab),
            spec.merges,
            list(spec.special_tokens),
            pattern=spec.pattern,
            pipeline=getattr(spec, "pipeline", None),
        )
        tok.tie_break = spec.tie_break
        tok.training = spec.training
        return tok

    def to_spec(self) -> TokenizerSpec:
        merges = self._lazy if self._lazy is not None else tuple(self.merges)
        return TokenizerSpec(
            dict(self.vocab),
            merges,
            tuple(self.special_tokens),
            self.pattern,
            self.tie_break,
            self.training,
            pipeline=self.pipeline_config,
        )

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
            raise TokenizerError(
                f"{token!r} is not a token of this vocabulary", code="token_unknown", shown=repr(token)
            ) from None

    def is_special(self, token_id: int) -> bool:
        """Whether ``token_id`` is one of :attr:`special_tokens` (found in text whole, never merged):
        an added token of a ``tokenizer.json`` too, special or not (see :meth:`is_plain_added`)."""
        return token_id in self._special_id_set

    @property
    def added_not_special(self) -> frozenset[str]:
        """The added tokens that an imported ``tokenizer.json`` marks ``"special": false`` (OLMo 1's
        runs of spaces): whole in text and never merged, like special tokens, but not special."""
        return added_not_special(self.pipeline_config, self.special_tokens)

    def is_plain_added(self, token_id: int) -> bool:
        """Whether ``token_id`` is an added token that is not special (:attr:`added_not_special`)."""
        if not self.pipeline_config:
            return False
        ids = self.__dict__.get("_plain_added_ids")
        if ids is None:
            ids = self.__dict__["_plain_added_ids"] = frozenset(
                self.special_ids[s] for s in self.added_not_special if s in self.special_ids
            )
        return token_id in ids

    @property
    def unencodable_bytes(self) -> tuple[int, ...]:
        """The byte values this vocab has no token for (only bytes that never occur in UTF-8, such as
        0xff: GPT-NeoX and OLMo 1 leave them out); a text holding one of them cannot be encoded."""
        return tuple(self._holes)

    # ------------------------------------------------------------------ encoding
    def _make_pair_table(self) -> PairTable:
        """The pair table of the batch encoder: from the merge table, or learnt from the ranks."""
        if self._by_rank is not None:
            return PairTable.from_ranks(self._by_rank, self.vocab)
        if self._table is None:
            self._merge_maps()  # (builds the merge table of lazily built merges)
        assert self._table is not None
        return PairTable.from_merge_table(self._table)

    def _encode_word(self, word: str) -> tuple[int, ...]:
        if self._charbpe is not None:
            return self._charbpe.encode_word(word)
        try:
            b = word.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            raise SurrogateInText from None
        if self._ignore_merges:
            i = self._encoder.get(b)
            if i is not None:
                return (i,)
        if self._by_rank is not None:
            return tuple(rank_bpe(b, self._by_rank))
        table = self._table
        assert table is not None  # (a tokenizer encodes by ranks or by its merge table)
        return tuple(bpe_ids(b, table))

    def _encode_ordinary(self, text: str) -> list[int]:
        if self._hole_re is not None and self._hole_re.search(text):
            raise hole_error(self._hole_re, text)
        if (pipe := self._pipe) is not None:
            if self._charbpe is not None and _BAD_SURROGATE.search(text):
                raise SurrogateInText
            split = pipe.pretokenize if pipe.pretokenize_first is None else pipe.pretokenize_first
            return list(chain.from_iterable(map(self._cache.__getitem__, split(pipe.normalize(text)))))
        return self._chunked.encode(text)  # (chunk by chunk where that is exact and faster)

    def merge_bytes(self, token: bytes) -> list[int]:
        """The ids the merges alone make of ``token``'s bytes: no pre-tokenization, no whole-word
        lookup (a token they do not rebuild is one no merge order reaches)."""
        if self._by_rank is not None:
            return rank_bpe(token, self._by_rank)
        if self._table is None:
            self._merge_maps()  # (builds the merge table of lazily built merges)
        assert self._table is not None
        return bpe_ids(token, self._table)

    def encode_many(self, texts: list[str]) -> list[list[int] | None]:
        """``encode(text, add_special_tokens=False)`` of each text, as a user would encode it (special
        and added tokens in a text are recognised); the texts without any are encoded together, their
        new words merged in one batch. None for a text the tokenizer refuses (a byte its vocab lacks)."""
        special = self._special_re
        out: list[list[int] | None] = [None] * len(texts)
        plain = [k for k, t in enumerate(texts) if special is None or not special.search(t)]
        if self._pipe is None and self._hole_re is None and plain:
            try:
                for k, ids in zip(plain, self._encode_all([texts[k] for k in plain])):
                    out[k] = ids
            except ValueError:
                out = [None] * len(texts)  # (one text is refused: each is encoded on its own below)
        for k, t in enumerate(texts):
            if out[k] is None:
                try:
                    out[k] = self.encode(t, add_special_tokens=False)
                except ValueError:
                    out[k] = None
        return out

    def _encode_all(self, texts: list[str]) -> list[list[int]]:
        """:meth:`_encode_ordinary` of each text (no pipeline), their new words merged together."""
        if (hole := self._hole_re) is not None and (
            bad := next(filter(hole.search, texts), None)
        ) is not None:
            raise hole_error(hole, bad)
        return self._chunked.encode_all(texts)

    def _encode_pipeline(self, text: str, add_special_tokens: bool) -> list[int]:
        pipe = self._pipe
        assert pipe is not None
        if self._hole_re is not None and self._hole_re.search(text):
            raise hole_error(self._hole_re, text)
        if self._charbpe is not None and _BAD_SURROGATE.search(text):
            raise SurrogateInText  # (a character-level model sees the characters themselves)
        out: list[int] = list(pipe.prefix_ids) if add_special_tokens else []
        get = self._cache.__getitem__
        first = pipe.pretokenize_first
        for piece, tid in pipe.pieces(text):
            if tid is not None:
                out.append(tid)
            elif piece:
                split = pipe.pretokenize if first is None else first
                out.extend(chain.from_iterable(map(get, split(piece))))
            first = None  # (only the piece that starts the text)
        if add_special_tokens:
            out += pipe.suffix_ids
        return out

    @property
    def char_model(self) -> Any:
        """The char-level BPE model of a SentencePiece-style tokenizer (:class:`core.bpe.charbpe.CharBPE`:
        each id's piece, score and kind, e.g. byte fallback), or None for byte-level BPE."""
        return self._charbpe

    @property
    def post_processor_ids(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The ids the post-processor puts (before, after) a text when ``add_special_tokens`` is on
        (e.g. GLM-4's ``[gMASK]<sop>``); empty for tokenizers without one."""
        if self._pipe is None:
            return (), ()
        return self._pipe.prefix_ids, self._pipe.suffix_ids

    @property
    def notes(self) -> tuple[str, ...]:
        """Messages for the user about the loaded file (truncation/padding that is not applied)."""
        from core.pipeline.hf import pipeline_notes

        return () if self._pipe is None else pipeline_notes(self._pipe, self.vocab)

    def _pieces(self, text: str) -> Iterator[tuple[str, int | None]]:
        """The text between special tokens (with None) and the special tokens (with their id)."""
        sre = self._special_re
        if sre is None:
            yield text, None
            return
        pos = 0
        sids = self.special_ids
        for m in sre.finditer(text):
            yield text[pos : m.start()], None
            yield m.group(), sids[m.group()]
            pos = m.end()
        yield text[pos:], None

    def encode(self, text: str, *, add_special_tokens: bool = True) -> list[int]:
        """Encode text to ids (special tokens become their ids, longest match first).

        For a HF ``tokenizer.json`` with a post-processor, ``add_special_tokens`` adds its tokens
        (:attr:`post_processor_ids`) as HF's ``encode(text, add_special_tokens=...)`` does; other
        tokenizers add nothing.

        >>> Tokenizer.from_spec(TokenizerSpec.from_merges([])).encode("")
        []
        """
        if not isinstance(text, str):
            raise TokenizerError(f"encode() takes a str, not {type(text).__name__}; decode bytes first")
        try:
            if self._pipe is not None:
                return self._encode_pipeline(text, add_special_tokens)
            if self._special_re is None:
                return self._encode_ordinary(text)
            pieces = list(self._pieces(text))
            ids = iter(self._encode_all([p for p, sid in pieces if sid is None and p]))
            out: list[int] = []
            for piece, sid in pieces:
                if sid is not None:
                    out.append(sid)
                elif piece:
                    out += next(ids)
            return out
        except SurrogateInText:
            raise surrogate_error(text) from None

    def encode_ordinary(self, text: str) -> list[int]:
        """Encode text ignoring special tokens (their text is encoded like any other text)."""
        try:
            return self._encode_ordinary(text)
        except SurrogateInText:
            raise surrogate_error(text) from None

    def encode_iterable(self, iterable: Iterable[str]) -> Iterator[int]:
        """Lazily encode an iterable of strings (e.g. a text file's lines).

        Yields exactly ``encode("".join(iterable))`` however the text is cut, with memory bounded by
        the chunk size: text is encoded up to the last place where neither a special token nor a
        pre-token can cross (for the built-in patterns, after a letter followed by a non-letter).
        With ``pattern="none"`` or a custom regex only special tokens are such places, so a long
        stretch without special tokens is held in memory until one comes.
        """
        pending: list[str] = []
        size = 0
        need = floor = self.stream_min_chars
        for chunk in iterable:
            if chunk == "":
                continue
            if not isinstance(chunk, str):  # (None too: skipping it would hide a bug upstream)
                raise TokenizerError(
                    f"encode_iterable() takes strings, got {type(chunk).__name__}; "
                    + (
                        "open the file in text mode (encoding='utf-8')"
                        if isinstance(chunk, (bytes, bytearray))
                        else "every item must be a str (filter out the others first)"
                    )
                )
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
            yield from self.encode("".join(pending), add_special_tokens=False)

    def _encode_prefix(self, buf: str) -> tuple[list[int], str]:
        """Encode the part of ``buf`` that no following text can change; return (ids, rest)."""
        out: list[int] = []
        pos = 0
        end = len(buf)
        if self._pipe is not None:
            return out, buf  # a normalizer or added-token flags can look across any cut: keep it all
        if self._special_re is not None:
            limit = len(buf) - self._longest_special
            sids = self.special_ids
            for m in self._special_re.finditer(buf):
                if m.start() > limit:
                    break  # a longer special token could still start here
                if m.start() > pos:
                    out += self.encode_ordinary(buf[pos : m.start()])
                out.append(sids[m.group()])
                pos = m.end()
            end = max(pos, limit + 1)  # no special token starts before `end` (after pos)
        if self._streamable:
            cut = last_safe_cut(buf, pos, end)
            if cut > pos:
                out += self.encode_ordinary(buf[pos:cut])
                pos = cut
        return out, buf[pos:]

    # ------------------------------------------------------------------ decoding
    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        """The exact bytes of a sequence of ids (also a NumPy array)."""
        if hasattr(ids, "tolist"):
            ids = ids.tolist()  # (a NumPy scalar gives one number: refused below)
        elif isinstance(ids, Iterable) and not isinstance(ids, (str, bytes, list, tuple)):
            ids = list(ids)
        if not isinstance(ids, (list, tuple)):  # decode(5), decode(None), decode("abc")
            raise TokenizerError(
                f"decode() takes a sequence of token ids, not {type(ids).__name__} {str(ids)[:40]!r}; "
                "wrap a single id in a list: decode([id])"
            )
        try:
            out = b"".join(map(self.vocab.__getitem__, ids))
        except (KeyError, TypeError):
            vocab = self.vocab
            bad = next(i for i in ids if not hashable(i) or i not in vocab)
            raise self._unknown_id(bad) from None
        kinds = set(map(type, ids))
        if kinds - {int}:  # 1.0 and True hash like 1: refuse what is not an integer id
            for k in kinds - {int}:
                if k is bool or not hasattr(k, "__index__"):
                    bad = next(i for i in ids if type(i) is k)
                    raise TokenizerError(f"token id {bad!r} is a {k.__name__}, not an int; ids are integers")
        return out

    def decode(self, ids: Iterable[int], errors: str = "replace") -> str:
        """Decode ids to text; bytes that are not valid UTF-8 become U+FFFD (``errors="replace"``).

        Pass ``errors="surrogateescape"`` to get invalid bytes back as U+DC80..U+DCFF instead.
        A SentencePiece-style tokenizer decodes as its reference does (:meth:`core.charbpe.CharBPE.decode`:
        the dummy-prefix space dropped, for a ``.model`` control pieces invisible and each invalid
        byte U+FFFD); ``decode_bytes`` gives the pieces' bytes as they are.
        """
        if self._charbpe is not None and errors == "replace":
            ids = ids.tolist() if hasattr(ids, "tolist") else list(ids)
            self.decode_bytes(ids)  # (checks the ids)
            return self._charbpe.decode(ids)
        return self.decode_bytes(ids).decode("utf-8", errors)

    def _unknown_id(self, token_id: object) -> TokenizerError:
        hi = max(self.vocab, default=-1)
        return TokenizerError(
            f"token id {token_id!r} is not in the vocabulary (ids 0..{hi}); "
            "the ids come from a different tokenizer or are corrupted",
            code="token_id_unknown",
            id=token_id,
            hi=hi,
            lo=0,
        )

    # ------------------------------------------------------------------ views
    def pretokenize(self, text: str) -> list[tuple[str, bool]]:
        """The pre-tokens of a text, with True for special tokens."""
        out: list[tuple[str, bool]] = []
        pipe = self._pipe
        for piece, sid in self._pieces(text) if pipe is None else pipe.pieces(text):
            if sid is not None:
                out.append((piece, True))
            elif piece:
                out.extend(
                    (w, False) for w in (self._pretokens(piece) if pipe is None else pipe.pretokenize(piece))
                )
        return out

    def trace(self, text: str) -> list[TokenSpan]:
        """Every token of ``encode(text, add_special_tokens=False)`` with its id, bytes and offsets in
        the input (the post-processor's tokens are :attr:`post_processor_ids`)."""
        ids, text = self._ids_and_spelled(text)
        return token_spans(text, ids, self.vocab, self._special_id_set)

    def _ids_and_spelled(self, text: str) -> tuple[list[int], str]:
        """The ids of ``encode(text, add_special_tokens=False)`` and the text they spell: a normalizer
        or a prefix space changes it, and span offsets are into the text the tokens spell."""
        ids = self.encode(text, add_special_tokens=False)
        if self._pipe is not None:
            got = self.decode_bytes(ids)
            if got != text.encode("utf-8", "surrogateescape"):
                text = got.decode("utf-8", "surrogateescape")
        return ids, text

    def trace_head(self, text: str, limit: int) -> TextTrace:
        """:meth:`trace` cut to the first ``limit`` tokens, with the number of all of them.

        A view that shows a few thousand tokens of a long text needs no span for the others: building
        one per token took most of the time (0.8 s of 1 s for a 1 MB text, where encoding took 0.1 s).
        """
        ids, text = self._ids_and_spelled(text)
        head = ids[: max(0, limit)]
        part = text
        if len(head) < len(ids):  # the characters the head covers (each at least one byte)
            n_bytes = sum(len(self.vocab[i]) for i in head)
            part = text[
                : len(text.encode("utf-8", "surrogateescape")[:n_bytes].decode("utf-8", "surrogateescape"))
            ]
        return TextTrace(token_spans(part, head, self.vocab, self._special_id_set), len(ids), text)

    def merge_trace(self, pretoken: str | bytes) -> list[MergeStep]:
        """The merges applied to one pre-token, in order (the "how was this word built" view)."""
        if isinstance(pretoken, str):
            text = pretoken
            try:
                pretoken = text.encode("utf-8", "surrogateescape")
            except UnicodeEncodeError:
                raise surrogate_error(text) from None
        return merge_steps(bytes(pretoken), self._ranks)

    def encode_file(self, input_path: str | os.PathLike, output_path: str | os.PathLike, **kw: Any):
        """Encode a whole file into a ``.npy`` of token ids; see :func:`core.tokenization.npy.encode_file_to_npy`."""
        from core.tokenization.npy import encode_file_to_npy

        return encode_file_to_npy(self, input_path, output_path, **kw)

    def __repr__(self) -> str:
        return (
            f"Tokenizer(vocab_size={self.vocab_size}, merges={len(self.merges)}, "
            f"special_tokens={self.special_tokens!r}, pattern={self.pattern!r})"
        )
