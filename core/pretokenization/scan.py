"""Pre-token counts with first positions, over byte ranges of files (the counting side of scaling out).

A block of bytes is counted like :func:`core.pretokenization.pretokenize.count_pretokens` counts it, and each
distinct pre-token also gets the byte offset of its first occurrence, so that partial counts made
anywhere (other processes, other machines) can be summed and still give the first-seen order that
the ``"first"`` tie rule needs.

Byte ranges of a file are cut at *valid cuts*: a position ``q`` that no occurrence of a special
token spans, and where either a special token starts or (built-in patterns only) ``q`` follows a
newline that has a printable ASCII byte before it and an ASCII letter after it, or has a letter
(any script) before it and a character that is neither a letter nor a combining mark after it
(letters end a pre-token there in both patterns, as :mod:`core.pretokenization.blocks` proves). Whether ``q`` is a
valid cut depends only on the bytes around it, so two tasks that look for the first valid cut
after the same offset agree without talking to each other, and counting the pieces separately
gives exactly the counts of the whole file.

>>> b = count_block("the cat the cat".encode(), 100, GPT2_PATTERN, ())
>>> list(zip(b.tokens, b.counts, b.offsets))
[(b'the', 1, 100), (b' cat', 2, 103), (b' the', 1, 107)]
"""

from __future__ import annotations

import glob
import os
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, repeat
from operator import add

import regex

from core.errors import CorpusError
from core.pretokenization.chunk_counts import chunk_counter, first_indices
from core.pretokenization.compressed import refuse_compressed
from core.pretokenization.path_probe import probe_cuts
from core.pretokenization.pretokenize import (
    GPT2_PATTERN,  # noqa: F401 (the doctest above uses it)
    decode_corpus,
    resolve_pattern,
    sniff_encoding,
)
from core.pretokenization.range_cuts import (  # noqa: F401 (re-exported: the cuts of byte ranges live there)
    WINDOW,
    cuts_at_newlines,
    next_valid_cut,
    range_rule,
)
from core.pretokenization.sources import is_stream, open_stream
from core.pretokenization.space_chunks import PathChooser, chunks_exact
from core.pretokenization.special_matching import (
    special_bytes_regex,
    special_text_regex,
)

#: None: choose by timing (:class:`core.pretokenization.space_chunks.PathChooser`); True / False: always / never by chunks
COUNT_BY_CHUNKS: bool | None = None


@dataclass(frozen=True)
class BlockCounts:
    """The pre-tokens of one block: aligned lists, in order of first appearance in the block."""

    tokens: list[bytes]
    counts: list[int]
    offsets: list[int]  # absolute byte offset of each token's first occurrence
    n_bytes: int
    invalid_bytes: int
    n_special: int


@lru_cache(maxsize=8)
def _splitter(pattern: str | None) -> Callable[[str], list[str]]:
    # the same splitter as count_pretokens: text a custom pattern does not cover is kept as pre-tokens
    from core.pretokenization.splitting import make_covering_splitter

    return make_covering_splitter(pattern)


@lru_cache(maxsize=8)
def _resolved(pattern: str | None) -> str | None:
    return resolve_pattern(pattern)


@lru_cache(maxsize=8)
def _compiled(pattern: str) -> regex.Pattern[str]:
    return regex.compile(pattern)


_CHOOSER = PathChooser()


def count_block(data: bytes, base: int, pattern: str | None, specials: tuple[str, ...]) -> BlockCounts:
    """Count the pre-tokens of ``data`` (which starts at byte ``base`` of its file) with first offsets.

    ``pattern`` is a name ("gpt2", "gpt4", "none", as everywhere) or a regex, or None; ``data`` must
    start and end at valid cuts (:func:`next_valid_cut` finds them). For the
    patterns :mod:`core.pretokenization.space_chunks` proves, each process times counting by distinct chunks
    against the plain path and takes the faster (the results are the same).
    """
    pattern = _resolved(pattern)
    if chunks_exact(pattern, specials):
        chunked = _CHOOSER.pick() if COUNT_BY_CHUNKS is None else COUNT_BY_CHUNKS
        if chunked and COUNT_BY_CHUNKS is None and _CHOOSER.probing:
            cuts = probe_cuts(data, pattern, specials)
            if (
                cuts is not None
            ):  # the chunk path timed on part of the block (core.pretokenization.path_probe)
                return _count_block_probed(data, base, pattern, specials, *cuts)  # type: ignore[arg-type]
        t0 = time.perf_counter()
        found = _count_block_by_chunks(data, base, pattern, specials) if chunked else None  # type: ignore[arg-type]
        if found is None:
            found = _count_block_plain(data, base, pattern, specials)
        _CHOOSER.record(chunked, time.perf_counter() - t0, len(data))
        return found
    return _count_block_plain(data, base, pattern, specials)


def _count_block_probed(
    data: bytes, base: int, pattern: str, specials: tuple[str, ...], a: int, b: int
) -> BlockCounts:
    """:func:`count_block` of a block cut at the valid cuts ``a < b``: ``data[:a]`` by chunks and
    ``data[a:b]`` by the plain path, both timed, the rest by the plain path; the counts joined
    (a token's first offset is that of the first piece that has it)."""
    t0 = time.perf_counter()
    first = _count_block_by_chunks(data[:a], base, pattern, specials)
    t1 = time.perf_counter()
    if first is None:  # (no two bytes free to mark with: the plain path)
        first = _count_block_plain(data[:a], base, pattern, specials)
    second = _count_block_plain(data[a:b], base + a, pattern, specials)
    _CHOOSER.record(True, t1 - t0, a)
    _CHOOSER.record(False, time.perf_counter() - t1, b - a)
    parts = [first, second]
    if b < len(data):
        parts.append(_count_block_plain(data[b:], base + b, pattern, specials))
    counts = dict(zip(first.tokens, first.counts))  # a later piece's new tokens come after
    offsets = dict(zip(first.tokens, first.offsets))
    for p in parts[1:]:
        counts.update(zip(p.tokens, map(add, map(counts.get, p.tokens, repeat(0)), p.counts)))
        deque(map(offsets.setdefault, p.tokens, p.offsets), 0)  # (an earlier piece's offset stays)
    tokens = list(counts)
    return BlockCounts(
        tokens,
        list(counts.values()),
        list(map(offsets.__getitem__, tokens)),
        len(data),
        sum(p.invalid_bytes for p in parts),
        sum(p.n_special for p in parts),
    )


def _count_block_by_chunks(
    data: bytes, base: int, pattern: str, specials: tuple[str, ...]
) -> BlockCounts | None:
    """:func:`count_block` by distinct space-separated chunks, on the bytes (no special token holds
    a surrogate escape, so bytes and text find the same occurrences)."""
    invalid = 0 if data.isascii() else decode_corpus(data)[1]
    sre = special_bytes_regex(tuple(specials))  # (one scan for all of them, however many)
    pieces = [(base, data)]
    if sre is not None:
        pieces, pos = [], 0
        for m in sre.finditer(data):
            pieces.append((base + pos, data[pos : m.start()]))
            pos = m.end()
        pieces.append((base + pos, data[pos:]))
    found = chunk_counter(pattern).count_at(pieces)
    if found is None:
        return None
    tokens, counts, offsets = found
    return BlockCounts(tokens, counts, offsets or [], len(data), invalid, len(pieces) - 1)


def _count_block_plain(data: bytes, base: int, pattern: str | None, specials: tuple[str, ...]) -> BlockCounts:
    text, invalid = decode_corpus(data)
    sre = special_text_regex(tuple(specials))  # (one scan for all of them, however many)
    spans: list[tuple[int, int]] = []
    n_special = 0
    pos = 0
    if sre is not None:
        for m in sre.finditer(text):
            spans.append((pos, m.start()))
            pos = m.end()
            n_special += 1
    spans.append((pos, len(text)))
    split = _splitter(pattern)
    toks: list[str] = []  # every pre-token of the block, in order
    starts: list[int] = []  # the char position of each (filled only where the matches tile the text)
    skipped: dict[str, int] = {}  # first char position of tokens of pieces a custom pattern does not tile
    for s, e in spans:
        if s == e:
            continue
        piece = text[s:e]
        found = split(piece)
        if not found:
            continue
        lengths = list(map(len, found))
        if sum(lengths) == len(piece):  # the matches tile the piece: starts are running sums
            starts += accumulate(lengths[:-1], initial=s)
        else:  # a custom pattern that skips text: ask the regex where each match starts
            starts += [-1] * len(found)
            for t, m in zip(found, _compiled(pattern).finditer(piece)):
                skipped.setdefault(t, s + m.start())
        toks += found
    counts = Counter(toks)
    tokens = list(counts)  # first-appearance order
    chars = [starts[i] for i in first_indices(toks, tokens)]
    if skipped:
        chars = [skipped[t] if c < 0 else c for t, c in zip(tokens, chars)]
    if len(text) == len(data):  # one byte per character: char positions are byte offsets
        offsets = [base + c for c in chars]
    else:
        offsets = (_byte_offsets(text, chars) + base).tolist()
    encoded = [t.encode("utf-8", "surrogateescape") for t in tokens]
    return BlockCounts(encoded, [counts[t] for t in tokens], offsets, len(data), invalid, n_special)


def _byte_offsets(text: str, chars: list[int]):
    """UTF-8 (surrogateescape) byte offsets of the char positions ``chars`` of ``text``."""
    import numpy as np

    cps = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    width = 1 + (cps >= 0x80).astype(np.int64) + (cps >= 0x800) + (cps >= 0x10000)
    width[(cps >= 0xDC80) & (cps <= 0xDCFF)] = 1  # an invalid byte kept as a lone surrogate
    ends = np.cumsum(width)
    at = np.asarray(chars, dtype=np.int64)
    return np.where(at > 0, ends[np.maximum(at - 1, 0)], 0)


# ---------------------------------------------------------------------------- inputs and ranges
def is_url(source: str) -> bool:
    return "://" in source


def expand_inputs(inputs: list[str]) -> list[str]:
    """Files, globs and fsspec URLs → the list of sources, globs sorted (their order is file order)."""
    out: list[str] = []
    for item in inputs:
        item = os.fspath(item)
        if is_url(item):
            fsspec = _fsspec()
            if glob.has_magic(item):
                fs, _, paths = fsspec.get_fs_token_paths(item)
                if not paths:
                    raise CorpusError(f"no file matches {item!r}; check the pattern")
                protocol = fs.protocol[0] if isinstance(fs.protocol, (list, tuple)) else fs.protocol
                out += [fs.unstrip_protocol(p) if protocol != "file" else p for p in sorted(paths)]
            else:
                out.append(item)
        elif glob.has_magic(item):
            found = sorted(
                p for p in glob.glob(os.path.expanduser(item), recursive=True) if os.path.isfile(p)
            )
            if not found:
                raise CorpusError(f"no file matches {item!r}; check the pattern")
            out += found
        elif is_stream(item):  # "-" (stdin), a FIFO or a pipe: read once, front to back
            out.append(item)
        else:
            path = os.path.expanduser(item)
            if not os.path.exists(path):
                raise CorpusError(f"corpus file {item!r} does not exist; check the path")
            if os.path.isdir(path):
                raise CorpusError(f"{item!r} is a folder; pass its files (e.g. '{item}/*.txt')")
            out.append(path)
    if not out:
        raise CorpusError("no corpus files given; pass files, globs or URLs")
    return out


def check_text(head: bytes, source: str, *, allow_nul: bool = False) -> None:
    """:func:`core.pretokenization.pretokenize.sniff_encoding`, after naming a compressed file by its magic bytes
    (a clearer message than "binary", with the way to read it)."""
    refuse_compressed(head, source)
    sniff_encoding(head, source, allow_nul=allow_nul)


def cluster_inputs(inputs: list[str]) -> list[str]:
    """:func:`expand_inputs` for tasks that run elsewhere: local paths made absolute (a worker's
    working folder is not ours), streams refused (only this process can read them)."""
    sources = expand_inputs(inputs)
    for src in sources:
        if not is_url(src) and is_stream(src):
            raise CorpusError(
                f"{'standard input' if src == '-' else repr(src)} is a stream: the Dask workers read "
                "files by byte ranges; save it to a file they can read, or use --engine local"
            )
    return [src if is_url(src) else os.path.abspath(src) for src in sources]


def _fsspec():
    try:
        import fsspec
    except ImportError as e:  # pragma: no cover - fsspec comes with the scale extra
        raise CorpusError('reading URLs needs fsspec: pip install "bpe-explorer[scale]"') from e
    return fsspec


def open_source(source: str):
    """A binary file object for a local path or an fsspec URL."""
    try:
        if is_url(source):
            return _fsspec().open(source, "rb").open()
        if is_stream(source):
            return open_stream(source)
        return open(source, "rb")
    except FileNotFoundError as e:
        raise CorpusError(f"corpus file {source!r} does not exist; check the path") from e
    except OSError as e:
        raise CorpusError(f"cannot read corpus file {source!r}: {e}") from e


def source_size(source: str) -> int:
    if is_url(source):
        fs, _, (path,) = _fsspec().get_fs_token_paths(source)
        return int(fs.size(path))
    return 0 if is_stream(source) else os.path.getsize(source)  # (a stream's size is not known)
