"""Pre-tokenization: split text on special tokens, then into pre-tokens with a regex, and count them.

The corpus is handled as bytes. Text is decoded with ``surrogateescape`` so that invalid UTF-8
bytes survive as lone surrogates (U+DC80..U+DCFF) and come back byte-exactly on re-encoding.

>>> counts, stats = count_pretokens("the cat<|endoftext|>the", ["<|endoftext|>"], is_text=True)
>>> counts
{b'the': 2, b' cat': 1}
"""

from __future__ import annotations

import os
import stat
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from itertools import chain, islice, repeat
from operator import add
from pathlib import Path

import regex

from core.errors import Cancelled, CorpusError, SpecialTokenError
from core.files import is_npy, packed_kind
from core.pretokenization.batched_count import BlockCounter, batch_limit
from core.pretokenization.blocks import BLOCK_BYTES, auto_block_bytes, iter_blocks, rule_for_pattern  # noqa: F401 (BLOCK_BYTES re-exported)
from core.pretokenization.chunk_counts import chunk_counter
from core.pretokenization.compressed import refuse_compressed
from core.pretokenization.path_probe import probe_cuts
from core.pretokenization.pattern_probe import check_training_pattern
from core.pretokenization.patterns import GPT2_PATTERN, GPT4_PATTERN, PATTERNS, pattern_name, resolve_pattern  # noqa: F401 (re-exported)
from core.pretokenization.read_watch import watch
from core.pretokenization.sharded_count import OrderedCounts, ShardedCount, ShardTotal, plan_ranges
from core.pretokenization.sources import read_head
from core.pretokenization.space_chunks import PathChooser, chunks_exact
from core.pretokenization.special_matching import special_bytes_regex, special_text_regex

#: A progress callback: ``progress(phase, done, total)``; returning ``False`` cancels.
Progress = Callable[[str, int, int], "bool | None"]

_SURROGATES = regex.compile("[\udc80-\udcff]")
_BOM = b"\xef\xbb\xbf"
SINGLE_PROCESS_BYTES = 4 << 20


def check_special_tokens(special_tokens: Iterable[str] | None) -> list[str]:
    """Validate special tokens: strings, non-empty, no duplicates, no lone surrogate (every entry point
    calls this: training, counting, the tokenizer, specs). Returns them as a list."""
    if special_tokens is None:
        return []
    if isinstance(special_tokens, (str, bytes)):
        raise SpecialTokenError(
            "special_tokens must be a list of strings, e.g. ['<|endoftext|>'], not a single string"
        )
    tokens = list(special_tokens)
    seen: set[str] = set()
    for t in tokens:
        if not isinstance(t, str):
            raise SpecialTokenError(f"special token {t!r} is not a string; pass special tokens as str")
        if t == "":
            raise SpecialTokenError(
                "a special token is the empty string; remove it from the list", code="special_empty"
            )
        if t in seen:
            raise SpecialTokenError(
                f"special token {t!r} is listed twice; list each special token once",
                code="special_duplicate",
                token=t,
            )
        seen.add(t)
        bad = _LONE_SURROGATE.search(t)
        if bad is not None:
            raise SpecialTokenError(
                f"special token {t!r} contains a lone surrogate (U+{ord(bad.group()):04X}), which is not "
                "valid Unicode and cannot be written as UTF-8; fix the token",
                code="special_surrogate",
                token=t,
            )
    return tokens


#: a lone surrogate that does not stand for a byte (U+DC80–U+DCFF are bytes 0x80–0xFF under surrogateescape)
_LONE_SURROGATE = regex.compile("[\ud800-\udc7f\udd00-\udfff]")


def special_regex(special_tokens: Iterable[str]) -> regex.Pattern[str] | None:
    """A regex matching any special token, longest first (so ``<|a|><|a|>`` beats ``<|a|>``)."""
    return special_text_regex(tuple(check_special_tokens(special_tokens)))  # (a trie: linear in the text)


def split_specials(text: str, special_re: regex.Pattern[str] | None) -> list[str]:
    """Split text into the pieces between special tokens (the special tokens are dropped).

    >>> split_specials("a<|x|>b", special_regex(["<|x|>"]))
    ['a', 'b']
    """
    if special_re is None:
        return [text]
    return special_re.split(text)


def decode_corpus(data: bytes) -> tuple[str, int]:
    """Decode corpus bytes with ``surrogateescape``; return the text and the number of invalid bytes."""
    try:
        return data.decode("utf-8"), 0
    except UnicodeDecodeError:
        text = data.decode("utf-8", "surrogateescape")
        return text, len(_SURROGATES.findall(text))


def count_text(text: str, pattern: str | None, special_re: regex.Pattern[str] | None) -> Counter[str]:
    """Count the pre-tokens of one piece of text (str keys, in order of first appearance)."""
    counts: Counter[str] = Counter()
    if pattern is None:
        for piece in split_specials(text, special_re):
            if piece:
                counts[piece] += 1
        return counts
    from core.pretokenization.splitting import make_covering_splitter  # (imports this module: imported late)

    # ASCII text takes a faster, equivalent pattern; text no match covers is kept (custom patterns)
    findall = make_covering_splitter(pattern)
    for piece in split_specials(text, special_re):
        if piece:
            counts.update(findall(piece))
    return counts


@dataclass(frozen=True)
class ChunkResult:
    counts: dict[bytes, int]
    n_bytes: int
    invalid_bytes: int
    n_special: int


_CHOOSER = PathChooser()
#: None: choose by timing (:class:`core.pretokenization.space_chunks.PathChooser`); True / False: always / never by chunks
COUNT_BY_CHUNKS: bool | None = None


def _count_chunk(data: bytes, pattern: str | None, specials: tuple[str, ...]) -> ChunkResult:
    """Worker entry point (top level so that a worker process can import it)."""
    if chunks_exact(pattern, specials):
        chunked = _CHOOSER.pick() if COUNT_BY_CHUNKS is None else COUNT_BY_CHUNKS
        if chunked and COUNT_BY_CHUNKS is None and _CHOOSER.probing:
            cuts = probe_cuts(data, pattern, specials)
            if (
                cuts is not None
            ):  # the chunk path timed on part of the block (core.pretokenization.path_probe)
                return _count_chunk_probed(data, pattern, specials, *cuts)  # type: ignore[arg-type]
        t0 = time.perf_counter()
        result = _count_chunk_by_chunks(data, pattern, specials) if chunked else None  # type: ignore[arg-type]
        if result is None:
            result = _count_chunk_plain(data, pattern, specials)
        _CHOOSER.record(chunked, time.perf_counter() - t0, len(data))
        return result
    return _count_chunk_plain(data, pattern, specials)


def _block_counter(pattern: str | None, specials: tuple[str, ...], **options) -> BlockCounter:
    """A counting worker's :class:`core.pretokenization.batched_count.BlockCounter` (top level: the
    workers import it by name; ``options`` as there, through :func:`functools.partial`)."""
    return BlockCounter(_count_chunk_plain, _invalid_bytes, pattern, specials, **options)


def _invalid_bytes(data: bytes) -> int:
    return decode_corpus(data)[1]


def _count_chunk_probed(data: bytes, pattern: str, specials: tuple[str, ...], a: int, b: int) -> ChunkResult:
    """:func:`_count_chunk` of a block cut at the valid cuts ``a < b``: ``data[:a]`` by chunks and
    ``data[a:b]`` by the plain path, both timed, the rest by the plain path; the counts joined."""
    t0 = time.perf_counter()
    first = _count_chunk_by_chunks(data[:a], pattern, specials)
    t1 = time.perf_counter()
    if first is None:  # (no two bytes free to mark with: the plain path)
        first = _count_chunk_plain(data[:a], pattern, specials)
    second = _count_chunk_plain(data[a:b], pattern, specials)
    _CHOOSER.record(True, t1 - t0, a)
    _CHOOSER.record(False, time.perf_counter() - t1, b - a)
    parts = [first, second] + ([_count_chunk_plain(data[b:], pattern, specials)] if b < len(data) else [])
    counts = dict(first.counts)  # in order of first appearance: a later piece's new tokens come after
    for p in parts[1:]:
        keys = p.counts.keys()
        counts.update(zip(keys, map(add, map(counts.get, keys, repeat(0)), p.counts.values())))
    return ChunkResult(
        counts,
        sum(p.n_bytes for p in parts),
        sum(p.invalid_bytes for p in parts),
        sum(p.n_special for p in parts),
    )


def _count_chunk_plain(data: bytes, pattern: str | None, specials: tuple[str, ...]) -> ChunkResult:
    text, invalid = decode_corpus(data)
    # one scan for all the special tokens (a test per token cost O(tokens x bytes))
    sre = special_text_regex(tuple(specials))
    if sre is not None and sre.search(text) is None:
        sre = None
    n_special = len(sre.findall(text)) if sre is not None else 0
    counts = count_text(text, pattern, sre)
    if pattern is None:
        # whole pieces: drop empty strings produced between adjacent special tokens
        counts.pop("", None)
    encoded = dict(zip(map(str.encode, counts, repeat("utf-8"), repeat("surrogateescape")), counts.values()))
    return ChunkResult(encoded, len(data), invalid, n_special)


def _count_chunk_by_chunks(data: bytes, pattern: str, specials: tuple[str, ...]) -> ChunkResult | None:
    """:func:`_count_chunk` by distinct space-separated chunks (:mod:`core.pretokenization.space_chunks`), on the
    bytes: special tokens (none holds a surrogate escape, so bytes and text find the same
    occurrences) are split out first."""
    invalid = 0 if data.isascii() else decode_corpus(data)[1]
    sre = special_bytes_regex(tuple(specials))
    pieces = [data] if sre is None else sre.split(data)
    counts = chunk_counter(pattern).count(*pieces)
    if counts is None:
        return None
    return ChunkResult(counts, len(data), invalid, len(pieces) - 1)


@dataclass
class CorpusStats:
    """What the corpus looked like; shown in the GUI and returned by the CLI."""

    name: str = "<text>"
    size_bytes: int = 0
    pretokens: int = 0
    distinct_pretokens: int = 0
    invalid_bytes: int = 0
    has_bom: bool = False
    special_occurrences: int = 0
    chunks: int = 0
    workers: int = 1
    notes: list[str] = field(default_factory=list)


def _utf16_without_bom(sample: bytes) -> str | None:
    """ "UTF-16-LE" / "UTF-16-BE" when a sample without a byte-order mark is UTF-16 text: it does not read
    as UTF-8 (5% of its bytes invalid at least: UTF-8 text holding a few NULs stays UTF-8), and it reads
    as UTF-16 of that byte order into printable text with line breaks or spaces. Chinese or Japanese
    UTF-16 has few NULs (only its ASCII characters have them), so their number does not tell it from
    binary data."""
    if len(sample) < 16 or decode_corpus(sample)[1] < 0.05 * len(sample):
        return None
    body = sample[: len(sample) // 2 * 2]
    best: tuple[float, str] | None = None
    for kind in ("UTF-16-LE", "UTF-16-BE"):
        try:
            text = body.decode(kind.lower())
        except UnicodeDecodeError as e:
            if e.start < len(body) - 4:  # (the sample may end inside a surrogate pair)
                continue
            text = body[: e.start].decode(kind.lower())
        if not text or "\x00" in text or not ("\n" in text or " " in text):
            continue
        printable = sum(1 for ch in text if ch.isprintable() or ch in "\t\r\n") / len(text)
        if printable >= 0.95 and (best is None or printable > best[0]):
            best = (printable, kind)
    return None if best is None else best[1]


def sniff_encoding(head: bytes, name: str, *, allow_nul: bool = False) -> None:
    """Raise :class:`CorpusError` when the start of a file shows UTF-16/32 or binary data.

    ``allow_nul`` accepts NUL bytes (text that really contains them); the byte-order marks of
    UTF-16/32 are refused all the same. Compressed files and NumPy arrays are named as such.
    """
    packed = packed_kind(head)
    if packed is not None:
        kind, command = packed
        raise CorpusError(
            f"{name} is {kind}-compressed; decompress it first ({command} {name}) and use the decompressed file",
            code="corpus_compressed",
            name=name,
            kind=kind,
            command=command,
        )
    if is_npy(head):
        raise CorpusError(
            f"{name} is a NumPy array (.npy, e.g. token ids written by encode), not text; "
            "choose a UTF-8 text file",
            code="corpus_npy",
            name=name,
        )
    if head.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        raise CorpusError(
            f"{name} looks like UTF-32 (byte-order mark found); convert it to UTF-8 first, "
            f"e.g. iconv -f UTF-32 -t UTF-8",
            code="corpus_encoding",
            name=name,
            kind="UTF-32",
        )
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        kind = "UTF-16-LE" if head.startswith(b"\xff\xfe") else "UTF-16-BE"
        raise CorpusError(
            f"{name} looks like {kind} (byte-order mark found); convert it to UTF-8 first, "
            f"e.g. iconv -f UTF-16 -t UTF-8",
            code="corpus_encoding",
            name=name,
            kind=kind,
        )
    sample = head[:65536]
    if not sample:
        return
    nul = sample.count(0)
    utf16 = _utf16_without_bom(sample) if nul else None
    if utf16 is not None:  # (also with allow_nul: that is for UTF-8 text holding NUL bytes, not UTF-16)
        raise CorpusError(
            f"{name} looks like {utf16} text without a byte-order mark (its bytes read as {utf16} text, "
            f"NUL bytes between the characters); convert it to UTF-8 first, e.g. iconv -f {utf16} -t UTF-8",
            code="corpus_encoding",
            name=name,
            kind=utf16,
        )
    if nul == len(sample):
        raise CorpusError(
            f"{name} holds only NUL bytes (the first {len(sample):,} bytes are all 0); choose a UTF-8 text file",
            code="corpus_all_nul",
            name=name,
            size=len(sample),
        )
    if nul and not allow_nul:
        override = (
            "; if it is UTF-8 text that contains NUL bytes, allow them (--allow-nul on the command "
            "line, allow_nul=True in Python)"
        )
        quarters = [sample[i::4].count(0) for i in range(4)]
        if nul > len(sample) // 2 and len(sample) >= 8:
            zero_rate = [q / max(1, len(sample[i::4])) for i, q in enumerate(quarters)]
            utf32 = (  # (the fourth byte of each character, the one not NUL, must mostly not be NUL)
                "UTF-32-LE"
                if min(zero_rate[1:]) > 0.9 and zero_rate[0] < 0.5
                else "UTF-32-BE"
                if min(zero_rate[:3]) > 0.9 and zero_rate[3] < 0.5
                else None
            )
            if utf32 is not None:
                raise CorpusError(
                    f"{name} looks like {utf32} text without a byte-order mark (three of "
                    f"every four bytes are NUL); convert it to UTF-8 first, e.g. iconv -f "
                    f"{utf32} -t UTF-8",
                    code="corpus_encoding",
                    name=name,
                    kind=utf32,
                )
        even = sample[0::2].count(0)
        odd = sample[1::2].count(0)
        if nul > len(sample) // 8 and (odd > 0.8 * nul or even > 0.8 * nul):
            kind = "UTF-16-LE" if odd > even else "UTF-16-BE"
            raise CorpusError(
                f"{name} looks like {kind} text without a byte-order mark (every other byte "
                f"is NUL); convert it to UTF-8 first, e.g. iconv -f {kind} -t UTF-8",
                code="corpus_encoding",
                name=name,
                kind=kind,
            )
        raise CorpusError(
            f"{name} looks like a binary file ({nul} NUL bytes in the first "
            f"{len(sample)} bytes); choose a UTF-8 text file{override}",
            code="corpus_binary",
            name=name,
            nul=nul,
            size=len(sample),
        )
    _, invalid = decode_corpus(sample[: len(sample) - 4] if len(sample) > 4 else sample)
    if invalid > 0.25 * len(sample) and len(sample) > 64:
        raise CorpusError(
            f"{name} does not look like UTF-8 text ({invalid} of the first {len(sample)} "
            f"bytes are invalid UTF-8); choose a UTF-8 text file",
            code="corpus_not_utf8",
            name=name,
            invalid=invalid,
            size=len(sample),
        )


def block_rule(pattern: str | None):
    """The safe-cut rule of :mod:`core.pretokenization.blocks` for a resolved pattern: ``"gpt2"``/``"gpt4"``, a
    :class:`core.pretokenization.regex_cuts.RegexCuts` for a custom pattern, or None (cut at specials only)."""
    return rule_for_pattern(pattern, {GPT2_PATTERN: "gpt2", GPT4_PATTERN: "gpt4"})


def check_corpus(path: str | os.PathLike) -> None:
    """The checks of a corpus file that its start decides (missing, a folder, unreadable, compressed,
    UTF-16/32, binary), without reading the rest: the app makes them before it asks whether to throw
    trained merges away for this file. A FIFO or pipe is not read (it can be read only once)."""
    from core.pretokenization.sources import is_stream

    if is_stream(path):
        return
    if str(path).lower().endswith(".parquet") and Path(path).is_file():
        return  # a counts file (bpe-explorer count): the engine reads it as counts and says what is wrong
    stream, name, _size = _source_stream(path, False)
    with stream:
        head = stream.read(65536)
    refuse_compressed(head, name, "train - --vocab-size N --out DIR")
    sniff_encoding(head, name)


def _source_stream(source, is_text: bool, poll=None):
    """Open ``source`` (a path, a stream's path or ``"-"``, or bytes / str data) as a binary stream;
    returns (stream, name, size); size 0 for a stream (FIFO, pipe, stdin: read once, in blocks)."""
    import io

    from core.pretokenization.sources import is_stream, open_stream

    if not is_text and is_stream(source):
        s = open_stream(source, poll)
        return s, s.name, 0
    if isinstance(source, os.PathLike) or (isinstance(source, str) and not is_text):
        path = Path(source)
        if not path.exists():
            raise CorpusError(
                f"corpus file {str(path)!r} does not exist; check the path",
                code="corpus_missing",
                path=str(path),
            )
        if path.is_dir():
            raise CorpusError(
                f"{str(path)!r} is a folder; choose a text file", code="corpus_folder", path=str(path)
            )
        if not stat.S_ISREG(path.stat().st_mode):  # (FIFOs and character devices are streamed above)
            raise CorpusError(
                f"{str(path)!r} is not a regular file, FIFO or pipe (a socket or block device); "
                "save the text to a file first",
                code="corpus_not_regular",
                path=str(path),
            )
        try:
            f = open(path, "rb")  # noqa: SIM115 (the caller owns and closes it)
        except OSError as e:
            raise CorpusError(
                f"cannot read corpus file {str(path)!r}: {e.strerror}",
                code="corpus_unreadable",
                path=str(path),
                reason=str(e.strerror),
            ) from e
        return f, path.name, path.stat().st_size
    data = source.encode("utf-8", "surrogateescape") if isinstance(source, str) else bytes(source)
    return io.BytesIO(data), "<text>", len(data)


def count_pretokens(
    source: str | os.PathLike | bytes,
    special_tokens: Iterable[str] | None = None,
    pattern: str | None = "gpt2",
    *,
    workers: int | None = None,
    progress: Progress | None = None,
    block_bytes: int | None = None,
    is_text: bool = False,
    niceness: int = 0,
    allow_nul: bool = False,
    pattern_of_file: bool = False,
) -> tuple[dict[bytes, int], CorpusStats]:
    """Count pre-tokens of a corpus file (or of in-memory data: ``bytes``, or ``str`` with ``is_text``).

    Returns ``(counts, stats)``: counts maps each pre-token's bytes to its frequency, in order of
    first appearance (the "first" tie rule relies on that order). Files larger than a few MB are
    counted in ``workers`` processes that read their own byte ranges and sum the counts among
    themselves (:mod:`core.pretokenization.sharded_count`; a stream is read here and its blocks
    sent to them); memory stays bounded by the distinct pre-tokens plus a few blocks in flight.
    ``niceness`` lowers the worker processes' CPU priority (the GUI uses it so that its own thread
    keeps getting the CPU while the workers count).
    ``allow_nul`` accepts a file with NUL bytes near its start (refused as binary by default).
    A pattern that can match the empty string is refused
    (:func:`core.pretokenization.pattern_probe.check_training_pattern`) unless ``pattern_of_file``:
    a tokenizer file's own (an extension counts its corpus with its base's pattern).
    """
    counts, stats = count_pretokens_ordered(
        source,
        special_tokens,
        pattern,
        workers=workers,
        progress=progress,
        block_bytes=block_bytes,
        is_text=is_text,
        niceness=niceness,
        allow_nul=allow_nul,
        pattern_of_file=pattern_of_file,
    )
    if isinstance(counts, OrderedCounts):
        return counts.as_dict(), stats
    assert isinstance(counts, dict)  # (counted in this process)
    return counts, stats


def count_pretokens_ordered(
    source: str | os.PathLike | bytes,
    special_tokens: Iterable[str] | None = None,
    pattern: str | None = "gpt2",
    *,
    workers: int | None = None,
    progress: Progress | None = None,
    block_bytes: int | None = None,
    is_text: bool = False,
    niceness: int = 0,
    allow_nul: bool = False,
    pattern_of_file: bool = False,
) -> tuple[Mapping[bytes, int], CorpusStats]:
    """:func:`count_pretokens`, whose counts may come as an
    :class:`core.pretokenization.sharded_count.OrderedCounts` (counted in worker processes: the
    tokens and counts in order, no dict built in this process; what a trainer needs)."""
    specials = check_special_tokens(special_tokens)
    pat = resolve_pattern(pattern) if pattern_of_file else check_training_pattern(pattern)
    done = size = 0

    def poll() -> None:
        if progress is not None and progress("pretokenize", done, size) is False:
            raise Cancelled("pre-tokenization cancelled")

    # a FIFO, pipe or stdin ("-") is read once, front to back (size 0: not known in advance)
    stream, name, size = _source_stream(source, is_text, poll)
    streamed = not stream.seekable()
    local = not (is_text or streamed) and isinstance(source, (str, os.PathLike))
    watched = watch(source, stream.fileno()) if local else None
    if watched is not None:
        size = watched.size  # (the size of the file opened, not of the path a moment before)
    stats = CorpusStats(name=name, size_bytes=size)
    try:
        head, stream = read_head(stream)
        if not is_text:
            given = os.fspath(source) if isinstance(source, (str, os.PathLike)) else None
            refuse_compressed(head, name, "train - --vocab-size N --out DIR", path=given)
            sniff_encoding(head, name, allow_nul=allow_nul)
        stats.has_bom = head.startswith(_BOM)
        if stats.has_bom:
            stats.notes.append("starts with a UTF-8 byte-order mark (kept as the bytes EF BB BF)")
        if workers is None:  # automatic: processes only pay off for larger files (or a stream)
            workers = (os.cpu_count() or 1) if size > SINGLE_PROCESS_BYTES or streamed else 1
        workers = max(1, int(workers))

        def checked(blocks: Iterable[bytes]) -> Iterator[bytes]:
            for block in blocks:  # Cancel is asked before each block is handed on
                poll()
                yield block

        poll()
        if block_bytes is None:
            block_bytes = auto_block_bytes(size, workers)

        def on_block(n_bytes: int, _invalid: int, _n_special: int) -> None:
            nonlocal done
            done += n_bytes
            poll()

        # a regular file: the workers read their own byte ranges (core.pretokenization.sharded_count)
        path = (
            os.fspath(source)
            if not streamed and not is_text and isinstance(source, (str, os.PathLike))
            else None
        )
        if workers > 1 and path is not None:
            if size <= block_bytes:  # one ordinary block is counted here: processes cost more
                workers = 1
            else:
                ranges = plan_ranges(size, block_bytes)
                stats.workers = workers = min(workers, len(ranges))
                return _count_in_workers(
                    stats, workers, pat, specials, niceness, poll, on_block, path=path, ranges=ranges
                )
        blocks = checked(iter_blocks(stream, specials, block_rule(pat), block_bytes, poll=poll))
        if workers > 1:  # one block of ordinary size is counted here: starting processes costs more
            first = list(islice(blocks, 2))
            if len(first) < 2 and sum(map(len, first)) <= block_bytes:
                workers = 1
            blocks = chain(first, blocks)
        stats.workers = workers
        if workers > 1:
            counts, stats = _count_in_workers(
                stats, workers, pat, specials, niceness, poll, on_block, blocks=blocks
            )
            if streamed:
                stats.size_bytes = done
            return counts, stats

        def tally(n_bytes: int, invalid: int, n_special: int) -> None:  # a block counted here
            stats.invalid_bytes += invalid
            stats.special_occurrences += n_special
            stats.chunks += 1
            on_block(n_bytes, invalid, n_special)

        if COUNT_BY_CHUNKS is None and chunks_exact(
            pat, specials
        ):  # by batches of blocks where that is faster
            total: Mapping[bytes, int] = _count_here_by_batches(blocks, pat, tuple(specials), tally)
        else:
            total = _count_here(blocks, pat, tuple(specials), tally)
    finally:
        stream.close()
    if watched is not None:  # truncated, grown or rewritten meanwhile: the counts are of no one version
        watched.check(done)
    if streamed:
        stats.size_bytes = done
    stats.pretokens = sum(total.values())
    stats.distinct_pretokens = len(total)
    if stats.invalid_bytes:
        stats.notes.append(
            f"{stats.invalid_bytes:,} invalid UTF-8 byte{'' if stats.invalid_bytes == 1 else 's'} kept byte-exactly"
        )
    return (total if isinstance(total, OrderedCounts) else dict(total)), stats


def _count_here(
    blocks: Iterable[bytes],
    pattern: str | None,
    specials: tuple[str, ...],
    tally: Callable[[int, int, int], None],
) -> dict[bytes, int]:
    """One process's counts of ``blocks``, block by block (:func:`_count_chunk`), in order of first
    appearance; ``tally(n_bytes, invalid, n_special)`` after each block."""
    total: Counter[bytes] = Counter()
    for block in blocks:
        r = _count_chunk(block, pattern, specials)
        total.update(r.counts)
        tally(r.n_bytes, r.invalid_bytes, r.n_special)
    return total


def _count_here_by_batches(
    blocks: Iterable[bytes],
    pattern: str | None,
    specials: tuple[str, ...],
    tally: Callable[[int, int, int], None],
) -> OrderedCounts:
    """One process's counts of ``blocks``, in order of first appearance, by the workers'
    :class:`core.pretokenization.batched_count.BlockCounter` (a batch of chunks over many blocks
    where that times faster than the plain path): each piece's tokens are placed, and the total is
    sorted by place, as a worker's shard is; ``tally`` as for :func:`_count_here`."""
    counter = _block_counter(pattern, specials, limit=batch_limit(1))
    total = ShardTotal()
    for i, block in enumerate(blocks):
        found, n_bytes, invalid, n_special = counter.block(i, block)
        for piece in found:
            total.add_tokens(*piece)
        tally(n_bytes, invalid, n_special)
    for piece in counter.finish():
        total.add_tokens(*piece)
    total.sort(0)
    assert total.sorted is not None
    tokens, counts, _ = total.sorted
    return OrderedCounts(tokens, counts.tolist())


def _count_in_workers(
    stats: CorpusStats,
    workers: int,
    pattern: str | None,
    specials: list[str],
    niceness: int,
    poll: Callable[[], None],
    on_block: Callable[[int, int, int], None],
    *,
    path: str | None = None,
    ranges: list[tuple[int, int]] | None = None,
    blocks: Iterable[bytes] | None = None,
) -> tuple[OrderedCounts, CorpusStats]:
    """:func:`count_pretokens` in worker processes that count, and sum the counts, among themselves
    (:mod:`core.pretokenization.sharded_count`): byte ranges of a file, or the blocks of a stream."""
    pool = ShardedCount(
        _count_chunk,
        workers,
        pattern,
        tuple(specials),
        batched=partial(_block_counter, limit=batch_limit(workers)) if COUNT_BY_CHUNKS is None else None,
        path=path,
        size=stats.size_bytes,
        niceness=niceness,
        poll=poll,
        on_block=on_block,
    )
    counts = pool.count_ranges(ranges) if ranges is not None else pool.count_blocks(blocks or ())
    t = pool.totals
    stats.invalid_bytes, stats.special_occurrences, stats.chunks = t.invalid_bytes, t.n_special, t.blocks
    stats.pretokens = t.pretokens
    stats.distinct_pretokens = len(counts)
    if stats.invalid_bytes:
        stats.notes.append(
            f"{stats.invalid_bytes:,} invalid UTF-8 byte{'' if stats.invalid_bytes == 1 else 's'} kept byte-exactly"
        )
    return counts, stats


def count_texts(
    texts: Iterable[str], special_tokens: Iterable[str] | None = None, pattern: str | None = "gpt2"
) -> tuple[dict[bytes, int], CorpusStats]:
    """Count pre-tokens over an iterable of texts (each text is pre-tokenized on its own)."""
    specials = tuple(check_special_tokens(special_tokens))
    pat = check_training_pattern(pattern)
    total: Counter[bytes] = Counter()
    stats = CorpusStats(name="<texts>")
    for text in texts:
        data = text.encode("utf-8", "surrogateescape")
        r = _count_chunk(data, pat, specials)
        total.update(r.counts)
        stats.size_bytes += r.n_bytes
        stats.invalid_bytes += r.invalid_bytes
        stats.special_occurrences += r.n_special
        stats.chunks += 1
    stats.pretokens = sum(total.values())
    stats.distinct_pretokens = len(total)
    return dict(total), stats
