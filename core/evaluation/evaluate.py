"""Evaluate tokenizers on texts the way CS336 asks: compression, vocab use, longest tokens, speed.

Each tokenizer × text is encoded once (blocks cut where pre-tokenization cannot change, encoded
in one set of worker processes for all tokenizers that read their own byte ranges of a file and send
back its counts, not its ids: :mod:`core.tokenization.range_workers`), and every figure
comes from that one encode: token counts per id, tokens per document (documents are the pieces
between occurrences of the split token; when it is a special token of the tokenizer it counts as one
token; when it is not, its text is encoded like any other text, as tiktoken would, the documents are
counted, and only the mean of tokens per document is known), and the time each block took. Token counts equal ``Tokenizer.encode`` (and tiktoken / HF tokenizers)
on the whole text.

>>> from core.formats.spec import TokenizerSpec
>>> from core.tokenization.tokenizer import Tokenizer
>>> tok = Tokenizer.from_spec(TokenizerSpec.from_merges([(b"h", b"i")], ["<|endoftext|>"]))
>>> r = evaluate([("hi", tok)], [EvalText.from_bytes("t", b"hi hi<|endoftext|>hi")])[0]
>>> r.tokens, r.documents, r.bytes_per_token, r.doc_tokens
(5, 2, 4.0, (3, 1))
"""

from __future__ import annotations

import io
import os
import random
import time
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from core.errors import BPEError, Cancelled, CorpusError, TokenizerError
from core.pretokenization.blocks import MAX_BLOCK_BYTES, tokenizer_rule
from core.pretokenization.pretokenize import BLOCK_BYTES, SINGLE_PROCESS_BYTES, block_rule, iter_blocks
from core.pretokenization.sharded_count import plan_ranges
from core.tokenization.missing_bytes import first_byte_in, is_missing_byte, missing_byte_error
from core.tokenization.npy_ranges import RangeReader, encode_cuts, range_bounds
from core.tokenization.range_workers import RangeWorkers
from core.tokenization.tokenizer import Tokenizer

DEFAULT_SPLIT = "<|endoftext|>"
PILE_BYTES = 825 * 10**9  # the Pile, 825 GB
#: a text smaller than this is too small to time: its speed (and the Pile estimate) is not reported
#: as a measurement (a 1.6 KB file gave 59 to 88 days for the Pile on three runs: start-up costs)
MIN_TIMED_BYTES = 1_000_000
N_LONGEST = 20
Progress = Callable[[str, int, int], Any]


@dataclass(frozen=True)
class EvalText:
    """A text to evaluate on: a file (streamed) or bytes in memory (e.g. sampled documents)."""

    name: str
    path: Path | None = None
    data: bytes | None = None
    size: int = 0
    #: for a sample of a file's documents: the file it was drawn from, and where each document of
    #: ``data`` starts there ((offset in ``data``, offset in the file), in order), so that a place in
    #: the sample can be said as a place in the file (:meth:`file_offset`)
    source: Path | None = None
    starts: tuple[tuple[int, int], ...] = field(default=(), repr=False)

    @classmethod
    def from_file(cls, path: str | os.PathLike, name: str | None = None) -> EvalText:
        p = Path(path)
        if not p.is_file():
            from core.files import text_file_problem

            problem = text_file_problem(p, "text file")
            if problem is not None:
                raise problem
            raise CorpusError(
                f"text file {str(p)!r} does not exist or is not a file; check the path",
                code="corpus_not_regular",
                path=str(p),
            )
        return cls(name or str(path), p, None, p.stat().st_size)

    @classmethod
    def from_bytes(cls, name: str, data: bytes) -> EvalText:
        return cls(name, None, bytes(data), len(data))

    def open(self):
        return open(self.path, "rb") if self.path is not None else io.BytesIO(self.data or b"")

    def file_offset(self, offset: int) -> int:
        """Where byte ``offset`` of a sample is in the file it was drawn from (``offset`` itself for a
        file or for bytes not drawn from one).

        >>> t = EvalText("s", data=b"bb|dd", size=5, source=Path("f"), starts=((0, 2), (3, 7)))
        >>> t.file_offset(1), t.file_offset(4)
        (3, 8)
        """
        at = bisect_right(self.starts, (offset, 1 << 62)) - 1
        if at < 0:
            return offset
        in_sample, in_file = self.starts[at]
        return in_file + offset - in_sample


@dataclass(frozen=True)
class LongToken:
    """One of the longest tokens of a vocab: its id, bytes shown readably, length, uses on the text."""

    id: int
    text: str
    n_bytes: int
    count: int


@dataclass(frozen=True)
class EvalResult:
    """Every figure for one tokenizer on one text."""

    tokenizer: str
    file: str
    bytes: int
    chars: int
    documents: int
    tokens: int
    bytes_per_token: float
    chars_per_token: float
    tokens_per_doc_mean: float
    tokens_per_doc_p50: float | None  # None when the split token is not a special token of the tokenizer
    tokens_per_doc_p95: float | None
    vocab_size: int
    vocab_used: int
    vocab_used_share: float
    never_used: int
    single_byte_share: float  # tokens that are one byte (ASCII letters included)
    byte_fallback_share: float  # tokens that are one byte >= 0x80 (a piece of a character); byte pieces
    # (<0xE4>, <0x0A> …) of a SentencePiece-style tokenizer
    longest: tuple[LongToken, ...]
    mb_per_s: float  # all cores (the workers used), wall clock of the encode
    mb_per_s_one_process: float  # bytes / time spent encoding inside the processes
    pile_hours: float  # 825 GB at mb_per_s
    pile_hours_one_process: float
    workers: int
    seconds: float
    doc_tokens: tuple[int, ...] = field(repr=False, default=())
    counts: np.ndarray | None = field(repr=False, compare=False, default=None)  # uses of each id
    timed: bool = True  # False: the text was too small (< MIN_TIMED_BYTES) for the speed to mean anything

    def to_dict(self) -> dict[str, Any]:
        """The JSON record (without the per-document and per-id lists)."""
        d = {
            k: getattr(self, k)
            for k in self.__dataclass_fields__
            if k not in ("doc_tokens", "counts", "longest")
        }
        d["longest"] = [
            {"id": t.id, "text": t.text, "bytes": t.n_bytes, "count": t.count} for t in self.longest
        ]
        return d


def readable(token: bytes) -> str:
    """Token bytes as text; bytes that are not UTF-8 are shown as ``\\xNN``.

    >>> readable(b"ab\\xe2\\x80")
    'ab\\\\xe2\\\\x80'
    """
    return token.decode("utf-8", "backslashreplace")


def percentile(values: Sequence[int], q: float) -> float:
    """Linear-interpolation percentile (NumPy's default), 0.0 for no values."""
    return float(np.percentile(np.asarray(values, dtype=np.float64), q)) if len(values) else 0.0


def pile_hours(mb_per_s: float) -> float:
    """Hours to encode the Pile (825 GB) at ``mb_per_s`` (0.0 when nothing was measured).

    >>> round(pile_hours(1.0), 1)
    229.2
    """
    return PILE_BYTES / (mb_per_s * 1e6) / 3600 if mb_per_s > 0 else 0.0


def count_documents(text: EvalText, sep: bytes, chunk_bytes: int = 1 << 24) -> int:
    """The number of non-empty pieces between occurrences of ``sep`` (read in chunks).

    >>> count_documents(EvalText.from_bytes("t", b"a||b||||c||"), b"||")
    3
    """
    n = pos = last = 0  # pos: file offset of buf[0]; last: end of the last separator
    buf = b""
    with text.open() as f:
        while True:
            chunk = f.read(chunk_bytes)
            buf += chunk
            i = 0
            while (j := buf.find(sep, i)) >= 0:
                if pos + j > last:
                    n += 1
                last = pos + j + len(sep)
                i = j + len(sep)
            if not chunk:
                return n + (pos + len(buf) > last)
            keep = max(i, len(buf) - len(sep) + 1)
            pos += keep
            buf = buf[keep:]


def sample_documents(
    path: str | os.PathLike, n: int, seed: int = 0, split_on: str = DEFAULT_SPLIT
) -> EvalText:
    """``n`` documents drawn at random (reproducibly for a seed) from a file, joined by ``split_on``
    in file order. All documents when the file has at most ``n``."""
    if n < 1:
        raise CorpusError(f"--sample-docs {n}: sample at least 1 document", code="sample_docs_few", n=n)
    if not split_on:
        raise CorpusError(
            "sampling documents needs a split token (--split-on); documents are the pieces "
            "between its occurrences",
            code="sample_docs_split",
        )
    src = EvalText.from_file(path)
    sep = split_on.encode("utf-8", "surrogateescape")
    with src.open() as f:
        whole = f.read()
    docs: list[tuple[int, bytes]] = []  # (offset in the file, document)
    at = 0
    for d in whole.split(sep):
        if d:
            docs.append((at, d))
        at += len(d) + len(sep)
    picked = sorted(random.Random(seed).sample(range(len(docs)), min(n, len(docs))))
    name = f"{src.name} [{len(picked)} of {len(docs)} docs, seed {seed}]"
    starts = []
    done = 0
    for k, i in enumerate(picked):
        done += len(sep) if k else 0
        starts.append((done, docs[i][0]))
        done += len(docs[i][1])
    data = sep.join(docs[i][1] for i in picked)
    return EvalText(name, None, data, len(data), src.path, tuple(starts))


# ---------------------------------------------------------------- worker side
def _encode_timed(tok: Tokenizer, block: bytes, dtype: type) -> tuple[np.ndarray, int, float]:
    text = block.decode("utf-8", "surrogateescape")
    t0 = time.perf_counter()
    ids = tok.encode(text, add_special_tokens=False)  # a post-processor's <s> … is not text's
    dt = time.perf_counter() - t0
    return np.asarray(ids, dtype=dtype), len(text), dt


def _dtype(tok: Tokenizer) -> type:
    """uint16 when every id fits (half the bytes to send back from a worker), else uint32."""
    return np.uint16 if max(tok.vocab, default=0) < (1 << 16) else np.uint32


class _EvalRanges:
    """A worker's handler (:class:`core.tokenization.range_workers.RangeWorkers`): encodes a byte
    range of a file, or a block sent to it, with tokenizer ``k`` and gives the counts of it (an
    :class:`_Acc` that started at the range's first byte), not its ids."""

    def __init__(self, setup: tuple) -> None:
        specs, self.block_bytes = setup
        self.toks = [Tokenizer.from_spec(spec) for spec, _ in specs]
        self.seps = [sep for _, sep in specs]
        self.dtypes = [_dtype(t) for t in self.toks]
        self.files: dict[str, Any] = {}
        # where a range may be cut, and where a block within it (as the .npy encoder cuts)
        self.cuts = [
            (encode_cuts(t) or (False, None), tokenizer_rule(t, block_rule(t.pattern_regex)))
            for t in self.toks
        ]

    def __call__(self, kind: str, k: int = 0, *args: Any) -> Any:
        if kind in ("warm", "end"):
            return kind
        tok = self.toks[k]
        acc = _Acc(max(tok.vocab) + 1, self.seps[k])
        if kind == "block":
            blocks: Iterator[bytes] = iter(args)
        else:
            path, size, lo, hi = args
            f = self.files.get(path)
            if f is None:  # (ranges come file by file: one file is open at a time)
                for old in self.files.values():
                    old.close()
                self.files.clear()
                f = self.files[path] = open(path, "rb")  # noqa: SIM115 (closed when the worker ends)
            (newlines, cut_at), rule = self.cuts[k]
            start, end = range_bounds(f, lo, hi, size, tuple(tok.special_tokens), newlines, cut_at)
            blocks = iter_blocks(RangeReader(f, start, end), list(tok.special_tokens), rule, self.block_bytes)
        for block in blocks:
            ids, n_chars, dt = _encode_timed(tok, block, self.dtypes[k])
            acc.add(ids, len(block), n_chars, dt)
        return acc.part()


# ---------------------------------------------------------------- main side
class _Acc:
    """Accumulates one tokenizer × text from its encoded blocks, in order."""

    def __init__(self, n_ids: int, sep_id: int | None) -> None:
        self.counts = np.zeros(n_ids, dtype=np.int64)
        self.sep_id = sep_id
        self.docs: list[int] = []
        self.cur = 0
        self.bytes = self.chars = self.tokens = 0
        self.encode_s = 0.0
        self.used = np.zeros(0, np.int64)  # (a partial result: the ids its counts are of)

    def add(self, ids: np.ndarray, n_bytes: int, n_chars: int, dt: float) -> None:
        self.counts += np.bincount(ids, minlength=len(self.counts))[: len(self.counts)]
        self.bytes += n_bytes
        self.chars += n_chars
        self.tokens += len(ids)
        self.encode_s += dt
        if self.sep_id is None:
            self.cur += len(ids)
            return
        pos = np.flatnonzero(ids == self.sep_id)
        if len(pos) == 0:
            self.cur += len(ids)
            return
        self.docs.append(self.cur + int(pos[0]))
        self.docs.extend((np.diff(pos) - 1).tolist())
        self.cur = len(ids) - int(pos[-1]) - 1

    def part(self) -> _Acc:
        """This accumulator as a compact partial result (sent from a worker): counts of the ids used."""
        used = np.flatnonzero(self.counts)
        out = _Acc(0, self.sep_id)
        out.counts = self.counts[used]
        out.used = used
        out.docs, out.cur = self.docs, self.cur
        out.bytes, out.chars, out.tokens, out.encode_s = self.bytes, self.chars, self.tokens, self.encode_s
        return out

    def merge(self, part: _Acc) -> None:
        """Add a partial result of the text that follows (:meth:`part`), as :meth:`add` of its ids would."""
        self.counts[part.used] += part.counts
        self.bytes += part.bytes
        self.chars += part.chars
        self.tokens += part.tokens
        self.encode_s += part.encode_s
        if part.docs:  # the stretch before its first separator ends the document running here
            self.docs.append(self.cur + part.docs[0])
            self.docs.extend(part.docs[1:])
            self.cur = part.cur
        else:
            self.cur += part.cur

    def doc_tokens(self) -> tuple[int, ...]:
        return tuple(d for d in [*self.docs, self.cur] if d > 0)


def _result(
    name: str, text: EvalText, tok: Tokenizer, split_on: str | None, acc: _Acc, wall: float, workers: int
) -> EvalResult:
    counts = acc.counts
    orig_size = len(tok.vocab)
    ids = np.asarray(sorted(tok.vocab), dtype=np.int64)
    used = int(np.count_nonzero(counts[ids]))
    lens = np.fromiter((len(tok.vocab[i]) for i in ids), dtype=np.int64, count=len(ids))
    first = np.fromiter((tok.vocab[i][0] for i in ids), dtype=np.int64, count=len(ids))
    specials = np.isin(ids, list(set(tok.special_ids.values())))
    one = (lens == 1) & ~specials
    total = max(acc.tokens, 1)
    single = int(acc.counts[ids[one]].sum())
    sp = tok.char_model
    if sp is not None:  # SentencePiece-style: the byte pieces are the fallback (<0x0A> too)
        fb = np.fromiter((sp.is_byte_fallback(int(i)) for i in ids), dtype=bool, count=len(ids))
        fallback = int(acc.counts[ids[fb]].sum())
    else:
        fallback = int(acc.counts[ids[one & (first >= 0x80)]].sum())
    ordinary = [int(i) for i in ids[~specials]]
    longest = sorted(ordinary, key=lambda i: (-len(tok.vocab[i]), i))[:N_LONGEST]
    docs = acc.doc_tokens()
    p50: float | None
    p95: float | None
    n_docs, p50, p95 = len(docs), percentile(docs, 50), percentile(docs, 95)
    if split_on and acc.sep_id is None:  # the separator is ordinary text here: documents are counted
        docs, p50, p95 = (), None, None
        n_docs = count_documents(text, split_on.encode("utf-8", "surrogateescape"))
    mean = float(np.mean(docs)) if docs else acc.tokens / n_docs if n_docs else 0.0
    mbps = acc.bytes / 1e6 / wall if wall > 0 else 0.0
    mbps1 = acc.bytes / 1e6 / acc.encode_s if acc.encode_s > 0 else 0.0
    return EvalResult(
        tokenizer=name,
        file=text.name,
        bytes=acc.bytes,
        chars=acc.chars,
        documents=n_docs,
        tokens=acc.tokens,
        bytes_per_token=acc.bytes / acc.tokens if acc.tokens else 0.0,
        chars_per_token=acc.chars / acc.tokens if acc.tokens else 0.0,
        tokens_per_doc_mean=mean,
        tokens_per_doc_p50=p50,
        tokens_per_doc_p95=p95,
        vocab_size=orig_size,
        vocab_used=used,
        vocab_used_share=used / orig_size if orig_size else 0.0,
        never_used=orig_size - used,
        single_byte_share=single / total if acc.tokens else 0.0,
        byte_fallback_share=fallback / total if acc.tokens else 0.0,
        longest=tuple(
            LongToken(i, readable(tok.vocab[i]), len(tok.vocab[i]), int(counts[i])) for i in longest
        ),
        mb_per_s=mbps,
        mb_per_s_one_process=mbps1,
        pile_hours=pile_hours(mbps),
        pile_hours_one_process=pile_hours(mbps1),
        workers=workers,
        seconds=wall,
        doc_tokens=docs,
        counts=counts,
        timed=acc.bytes >= MIN_TIMED_BYTES,
    )


def _blocks(text: EvalText, tok: Tokenizer, block_bytes: int) -> Iterator[bytes]:
    rule = tokenizer_rule(tok, block_rule(tok.pattern_regex))  # (as the .npy encoder cuts)
    with text.open() as stream:
        yield from iter_blocks(stream, list(tok.special_tokens), rule, block_bytes)


def evaluate(
    tokenizers: Sequence[tuple[str, Tokenizer]],
    texts: Sequence[EvalText],
    *,
    split_on: str | None = DEFAULT_SPLIT,
    workers: int | None = None,
    progress: Progress | None = None,
    block_bytes: int = BLOCK_BYTES,
    single_process_bytes: int = SINGLE_PROCESS_BYTES,
    niceness: int = 0,
) -> list[EvalResult]:
    """One :class:`EvalResult` per text × tokenizer (texts outer, tokenizers inner).

    ``progress("evaluate", done_bytes, total_bytes)`` after each block; returning False stops with
    :class:`Cancelled`. ``workers`` processes encode (default: all cores; one when no text is larger
    than ``single_process_bytes``), in blocks of about ``block_bytes``, at ``niceness`` (an app passes
    a positive value so that its GUI stays responsive).
    """
    try:
        return _evaluate(
            tokenizers, texts, split_on, workers, progress, block_bytes, single_process_bytes, niceness
        )
    except BPEError as e:
        if not is_missing_byte(e):
            raise
        for text in texts:  # which text has a byte which tokenizer has no token for (said with its offset)
            for name, tok in tokenizers:
                source = text.data if text.path is None else text.path
                try:
                    found = first_byte_in(source or b"", tok.unencodable_bytes)
                except OSError:  # (the file is gone since: the error as it came)
                    raise e from None
                if found is None:
                    continue
                offset, byte = found
                if text.source is not None:  # a sample: the place in the file it was drawn from
                    raise missing_byte_error(str(text.source), name, text.file_offset(offset), byte) from None
                raise missing_byte_error(text.name, name, offset, byte) from None
        raise


def _evaluate(
    tokenizers: Sequence[tuple[str, Tokenizer]],
    texts: Sequence[EvalText],
    split_on: str | None,
    workers: int | None,
    progress: Progress | None,
    block_bytes: int,
    single_process_bytes: int,
    niceness: int,
) -> list[EvalResult]:
    if not tokenizers:
        raise TokenizerError("no tokenizer to evaluate; add at least one", code="eval_no_tokenizer")
    if not texts:
        raise CorpusError("no text to evaluate on; add at least one file", code="eval_no_text")
    prepared = [(name, t, t.special_ids.get(split_on) if split_on else None) for name, t in tokenizers]
    units = [(ti, ki) for ti in range(len(texts)) for ki in range(len(prepared))]
    total = sum(texts[ti].size for ti, _ in units)
    if workers is None:
        workers = os.cpu_count() or 1
    workers = max(1, int(workers))
    if max(t.size for t in texts) <= single_process_bytes:
        workers = 1  # starting processes costs more than it saves
    done = 0

    def tick() -> None:
        if progress is not None and progress("evaluate", done, total) is False:
            raise Cancelled("evaluation cancelled")

    results: list[EvalResult] = []
    acc: _Acc | None  # the counts of the (tokenizer, text) unit being encoded
    if workers == 1:
        for ti, ki in units:
            name, tok, sid = prepared[ki]
            acc = _Acc(max(tok.vocab) + 1, sid)
            t0 = time.perf_counter()
            for block in _blocks(texts[ti], tok, block_bytes):
                ids, n_chars, dt = _encode_timed(tok, block, _dtype(tok))
                acc.add(ids, len(block), n_chars, dt)
                done += len(block)
                tick()
            results.append(_result(name, texts[ti], tok, split_on, acc, time.perf_counter() - t0, 1))
        return results

    # a file is read by the workers, by byte ranges (core.tokenization.range_workers): each sends
    # back the counts of its range, not its ids; text in memory is cut here and its blocks sent
    cuts = [encode_cuts(p[1]) is not None for p in prepared]

    def tasks() -> Iterator[tuple]:
        for _ in range(workers):
            yield ("warm",)
        for ti, ki in units:
            text = texts[ti]
            if text.path is not None and cuts[ki]:
                path = os.path.abspath(text.path)
                step = max(block_bytes, min(MAX_BLOCK_BYTES, text.size // (4 * workers)))
                for lo, hi in plan_ranges(text.size, step):
                    yield "range", ki, path, text.size, lo, hi
            else:
                for block in _blocks(text, prepared[ki][1], block_bytes):
                    yield "block", ki, block
            yield ("end",)  # end of this unit

    setup = ([(p[1].to_spec(), p[2]) for p in prepared], block_bytes)
    unit = iter(units)
    acc = None
    warm = 0
    t0 = 0.0
    with RangeWorkers(_EvalRanges, setup, workers, niceness=niceness, name="bpe-evaluate") as pool:
        for part in pool.run(tasks(), tick):
            if part == "warm":
                warm += 1
                if warm == workers:
                    t0 = time.perf_counter()
                continue
            if acc is None:
                ti, ki = next(unit)
                acc = _Acc(max(prepared[ki][1].vocab) + 1, prepared[ki][2])
            if part == "end":
                name, tok, _ = prepared[ki]
                t1 = time.perf_counter()
                results.append(_result(name, texts[ti], tok, split_on, acc, t1 - t0, workers))
                t0, acc = t1, None
                continue
            acc.merge(part)
            done += part.bytes
            tick()
    return results
