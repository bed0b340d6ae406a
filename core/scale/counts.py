"""Counts files: pre-token counts in Parquet, summed across files and machines, and training from them.

Training only ever needs the distinct pre-tokens with their counts, so a corpus far larger than one
machine can be counted elsewhere (Dask, Spark, Ray), written as a counts file, and trained on here.
A counts file is a Parquet table with one row per distinct pre-token:

========================  ==========  ===============================================================
column                    type        meaning
========================  ==========  ===============================================================
``token``                 binary      the pre-token's exact bytes (invalid UTF-8 kept as is)
``count``                 int64       how many times it occurs
``first_file``            int32       index (into ``sources``) of the file of its first occurrence
``first_offset``          int64       byte offset of its first occurrence in that file
========================  ==========  ===============================================================

plus the key ``bpe_explorer`` in the Parquet key-value metadata: JSON with ``format``
(``"bpe-explorer-counts"``), ``version`` (1), ``pattern`` (the regex, or null for no
pre-tokenization), ``special_tokens`` (list), ``sources`` (list of file names/URLs), ``tool``, and
corpus statistics. Rows may come in any order; readers sort them by ``(first_file, first_offset)``,
which is the first-seen order of the ``"first"`` tie rule.

>>> c = count_files_text(["low lower<|endoftext|>low"], ["<|endoftext|>"])
>>> c.word_counts()
{b'low': 2, b' lower': 1}
"""

from __future__ import annotations

import enum
import os
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import closing
from dataclasses import replace

import regex

from core.errors import Cancelled
from core.pretokenization.pattern_probe import check_training_pattern
from core.pretokenization.pretokenize import (
    SINGLE_PROCESS_BYTES,
    Progress,
    auto_block_bytes,
    block_rule,
    check_special_tokens,
    iter_blocks,
    pattern_name,
    resolve_pattern,
)
from core.pretokenization.read_watch import watch
from core.pretokenization.scan import (
    BlockCounts,
    check_text,
    count_block,
    expand_inputs,
    is_url,
    open_source,
    source_size,
)
from core.pretokenization.sharded_count import POSITION_BITS, ShardedCount, plan_ranges
from core.pretokenization.sources import is_stream, read_head
from core.scale.counts_schema import (  # noqa: F401  (re-exported: the schema is part of this module's API)
    EXTRA_HINT,
    FORMAT,
    META_KEY,
    POS_BITS,
    VERSION,
    CountsError,
    CountsMeta,
    PretokenCounts,
    need_pyarrow,
    tool_version,
)
from core.training.records import TieBreak
from core.workers.parallel import ordered_map


def _count_item(
    item: tuple[int, int, bytes], pattern: str | None, specials: tuple[str, ...]
) -> tuple[int, BlockCounts]:
    """Worker entry point: count one block of file ``item[0]`` starting at byte ``item[1]``."""
    return item[0], count_block(item[2], item[1], pattern, specials)


def _blocks(
    sources: list[str],
    specials: list[str],
    rule: str | None,
    block_bytes: int,
    allow_nul: bool,
    notes: list[str] | None = None,
):
    for i, src in enumerate(sources):
        with closing(open_source(src)) as f:
            watched = watch(src)
            head, f = read_head(f)  # (a stream is not rewound: its first bytes are served again)
            check_text(head, src, allow_nul=allow_nul)
            if notes is not None and head.startswith(b"\xef\xbb\xbf"):
                notes.append(
                    f"{os.path.basename(src)} starts with a UTF-8 byte-order mark (kept as the bytes EF BB BF)"
                )
            base = 0
            for block in iter_blocks(f, specials, rule, block_bytes):
                yield i, base, block
                base += len(block)
            if watched is not None:  # truncated, grown or rewritten while it was read
                watched.check(base)


def count_files(
    inputs: Iterable[str | os.PathLike],
    special_tokens: Iterable[str] | None = None,
    pattern: str | None = "gpt2",
    *,
    workers: int | None = None,
    progress: Progress | None = None,
    block_bytes: int | None = None,
    allow_nul: bool = False,
) -> PretokenCounts:
    """Count the pre-tokens of files, globs or fsspec URLs on this machine (``workers`` processes).

    Each file is pre-tokenized on its own (no pre-token spans two files), like
    :func:`core.pretokenization.pretokenize.count_pretokens` does for one file. With several
    processes, they read local files by byte ranges themselves and sum the counts among
    themselves (:mod:`core.pretokenization.sharded_count`); this process reads only streams and
    URLs (and hands their blocks on), and joins the summed pieces.
    """
    specials = check_special_tokens(special_tokens)
    pat = check_training_pattern(pattern)
    sources = expand_inputs([os.fspath(x) for x in inputs])
    total_size = sum(source_size(s) for s in sources)
    if workers is None:
        workers = (os.cpu_count() or 1) if total_size > SINGLE_PROCESS_BYTES else 1
    workers = max(1, int(workers))
    done = 0

    def tick() -> None:
        if progress is not None and progress("pretokenize", done, total_size) is False:
            raise Cancelled("counting cancelled")

    tick()
    if block_bytes is None:
        block_bytes = auto_block_bytes(total_size, workers)
    notes: list[str] = []
    if workers > 1:
        return _count_files_sharded(
            sources, specials, pat, workers, block_bytes, allow_nul, progress, total_size
        )
    counts: Counter[bytes] = Counter()
    first: dict[bytes, tuple[int, int]] = {}
    invalid = n_special = chunks = 0
    items = _blocks(sources, specials, block_rule(pat), block_bytes, allow_nul, notes)
    results = ordered_map(_count_item, items, workers=workers, extra_args=(pat, tuple(specials)), poll=tick)
    with closing(results):
        for fi, b in results:  # in file and block order: the first time a token is seen is its first
            counts.update(dict(zip(b.tokens, b.counts)))
            if len(first) != len(counts):
                new = set(b.tokens).difference(first)
                first.update({t: (fi, o) for t, o in zip(b.tokens, b.offsets) if t in new})
            done += b.n_bytes
            invalid += b.invalid_bytes
            n_special += b.n_special
            chunks += 1
            tick()
    meta = CountsMeta(
        pat,
        tuple(specials),
        tuple(sources),
        tool_version(),
        max(total_size, done),
        invalid,
        n_special,
        chunks,
    )
    tokens = list(counts)
    return PretokenCounts(
        tokens,
        [counts[t] for t in tokens],
        [first[t][0] for t in tokens],
        [first[t][1] for t in tokens],
        meta,
        workers,
        tuple(notes),
    )


def _local_file(source: str) -> bool:
    """A local regular file (the workers read it by byte ranges), not a stream or a URL."""
    return not is_url(source) and not is_stream(source) and os.path.isfile(source)


def _count_files_sharded(
    sources: list[str],
    specials: list[str],
    pat: str | None,
    workers: int,
    block_bytes: int,
    allow_nul: bool,
    progress: Progress | None,
    total_size: int,
) -> PretokenCounts:
    """:func:`count_files` in ``workers`` processes that read local files by byte ranges and sum
    the counts among themselves; the first positions are each token's least (file, offset)."""
    done = 0

    def poll() -> None:
        if progress is not None and progress("pretokenize", done, total_size) is False:
            raise Cancelled("counting cancelled")

    def on_block(n_bytes: int, _invalid: int, _n_special: int) -> None:
        nonlocal done
        done += n_bytes
        poll()

    notes: list[str] = []
    rule = block_rule(pat)
    # a local file is read by the workers, by byte ranges: its size is fixed here, and checked at the end
    watched = {i: w for i, src in enumerate(sources) if _local_file(src) and (w := watch(src)) is not None}
    files = [(src, watched[i].size) if i in watched else ("", 0) for i, src in enumerate(sources)]

    def tasks() -> Iterator[tuple[str, int, int, int, bytes | None]]:
        for i, src in enumerate(sources):
            with closing(open_source(src)) as f:
                head, f = read_head(f)  # (a stream is not rewound: its first bytes are served again)
                check_text(head, src, allow_nul=allow_nul)
                if head.startswith(b"\xef\xbb\xbf"):
                    notes.append(
                        f"{os.path.basename(src)} starts with a UTF-8 byte-order mark (kept as the bytes EF BB BF)"
                    )
                if i in watched:  # only offsets go to the workers
                    for lo, hi in plan_ranges(files[i][1], block_bytes):
                        yield "range", i, lo, hi, None
                    continue
                base = 0
                for block in iter_blocks(f, specials, rule, block_bytes, poll=poll):
                    yield "block", i, base, 0, block
                    base += len(block)

    pool = ShardedCount(
        count_block, workers, pat, tuple(specials), files=files, positions=True, poll=poll, on_block=on_block
    )
    counts = pool.count_tasks(tasks())
    for w in watched.values():  # truncated, grown or rewritten while the workers read it
        w.check()
    t = pool.totals
    meta = CountsMeta(
        pat,
        tuple(specials),
        tuple(sources),
        tool_version(),
        max(total_size, t.n_bytes),
        t.invalid_bytes,
        t.n_special,
        t.blocks,
    )
    places = pool.places
    if len(sources) == 1:  # (file 0: a place is the offset)
        in_file, offsets = [0] * len(places), places.tolist()
    else:
        in_file, offsets = (places >> POSITION_BITS).tolist(), (places & ((1 << POSITION_BITS) - 1)).tolist()
    return PretokenCounts(
        counts.tokens,
        counts.counts,
        in_file,
        offsets,
        meta,
        workers,
        tuple(notes),
    )


def count_files_text(
    texts: Iterable[str], special_tokens: Iterable[str] | None = None, pattern: str | None = "gpt2"
) -> PretokenCounts:
    """Count in-memory texts as if each were a file (for tests and examples)."""
    specials = check_special_tokens(special_tokens)
    pat = check_training_pattern(pattern)
    parts = [count_block(t.encode("utf-8", "surrogateescape"), 0, pat, tuple(specials)) for t in texts]
    tables = [(i, b) for i, b in enumerate(parts)]
    return from_blocks(
        tables,
        CountsMeta(
            pat,
            tuple(specials),
            tuple(f"<text {i}>" for i in range(len(parts))),
            tool_version(),
            sum(b.n_bytes for b in parts),
            sum(b.invalid_bytes for b in parts),
            sum(b.n_special for b in parts),
            len(parts),
        ),
    )


def from_blocks(blocks: list[tuple[int, BlockCounts]], meta: CountsMeta) -> PretokenCounts:
    """Combine block counts (any order) into sorted counts."""
    counts: Counter[bytes] = Counter()
    first: dict[bytes, tuple[int, int]] = {}
    for fi, b in blocks:
        counts.update(dict(zip(b.tokens, b.counts)))
        for t, off in zip(b.tokens, b.offsets):
            p = (fi, off)
            if p < first.get(t, (1 << 62, 0)):
                first[t] = p
    tokens = sorted(counts, key=first.__getitem__)
    return PretokenCounts(
        tokens,
        [counts[t] for t in tokens],
        [first[t][0] for t in tokens],
        [first[t][1] for t in tokens],
        meta,
    )


# ---------------------------------------------------------------------------- training from counts
def load_counts(source) -> PretokenCounts:
    """A counts file path, a list of them (summed), or :class:`PretokenCounts` as they are."""
    from core.scale.counts_io import read_counts, sum_counts

    if isinstance(source, PretokenCounts):
        return source
    if isinstance(source, (str, os.PathLike)):
        return read_counts(source)
    return sum_counts(read_counts(p) for p in source)


def check_settings(
    c: PretokenCounts, special_tokens: Iterable[str] | None, pattern: str | _Keep | None
) -> PretokenCounts:
    """Fill in or check the pattern and special tokens against what the counts were made with."""
    meta = c.meta
    unknown = not meta.known
    if unknown and pattern is KEEP:
        files = ", ".join(dict.fromkeys(regex.sub(r"#\d+$", "", s) for s in meta.sources))
        raise CountsError(
            f"{files} has no 'bpe_explorer' metadata: pass the pattern (and "
            "the special tokens, if any) it was counted with: --pattern gpt2 (and --special-token …) on the "
            "command line, pattern='gpt2' in Python",
            code="counts_no_meta",
            name=files,
        )
    if pattern is not KEEP:
        pat = resolve_pattern(pattern)
        if not unknown and pat != meta.pattern:
            raise CountsError(
                f"the counts were made with pattern '{pattern_name(meta.pattern)}', not "
                f"'{pattern_name(pat)}': train with the counts' own pattern, or count again "
                "with this one",
                code="counts_other_pattern",
                made=pattern_name(meta.pattern),
                given=pattern_name(pat),
            )
        meta = replace(meta, pattern=pat)
    if special_tokens is not None:
        specials = check_special_tokens(special_tokens)
        if not unknown and set(specials) != set(meta.special_tokens):
            raise CountsError(
                f"the counts were made with special tokens {list(meta.special_tokens)}, not "
                f"{specials}: train with the counts' own special tokens, or count again with these",
                code="counts_other_specials",
                made=str(list(meta.special_tokens)),
                given=str(specials),
            )
        meta = replace(meta, special_tokens=tuple(specials))  # their order sets the vocab ids
    return replace(c, meta=replace(meta, known=True))


class _Keep(enum.Enum):
    KEEP = "keep"


KEEP = _Keep.KEEP  # "use the pattern stored in the counts" (an enum member: the type checker narrows on it)


def trainer_from_counts(
    source,
    special_tokens: Iterable[str] | None = None,
    *,
    pattern: str | _Keep | None = KEEP,
    tie_break: TieBreak = "lexicographic",
    keep_history: bool = True,
    vocab_size: int | None = None,
):
    """A :class:`core.training.trainer.Trainer` over a counts file (or files, summed, or PretokenCounts).

    The pattern and special tokens come from the counts; passing them checks that they match
    (special tokens may be given in another order: that order sets their vocab ids). Without
    history (``keep_history=False``: train_bpe_from_counts, ``train --counts``) it is the flat merge
    loop (:class:`core.training.flat.FlatMerger`, the same merges) where that fits in memory for
    ``vocab_size`` (:func:`core.training.memory_need.lean_engine`).
    """
    from core.training.trainer import Trainer

    c = check_settings(load_counts(source), special_tokens, pattern)
    if tie_break == "first" and not c.meta.positions:
        raise CountsError(
            "the counts have no first_file/first_offset columns, which the 'first' tie rule needs "
            "(each token's first occurrence); train with --tie-break lexicographic, or write "
            "those columns",
            code="counts_no_first",
        )
    words, specials, stats = c.word_counts(), list(c.meta.special_tokens), c.stats()
    name = pattern_name(c.meta.pattern)
    del c  # (the lists it holds take as much memory as the words)
    if not keep_history and vocab_size is not None:
        from core.training.memory_need import lean_engine

        word_bytes = sum(map(len, words))
        if lean_engine(len(words), word_bytes, vocab_size - 256 - len(specials)) == "flat":
            from core.training.flat import lean_merger

            return lean_merger(
                words,
                tie_break,
                specials,
                pattern=name,
                stats=stats,
                vocab_size=vocab_size,
                word_bytes=word_bytes,
            )
    return Trainer(words, specials, pattern=name, tie_break=tie_break, keep_history=keep_history, stats=stats)


def train_bpe_from_counts(
    counts,
    vocab_size: int,
    special_tokens: list[str] | None = None,
    *,
    pattern: str | _Keep | None = KEEP,
    tie_break: TieBreak = "lexicographic",
    progress: Progress | None = None,
) -> tuple[dict[int, bytes], list[tuple[bytes, bytes]]]:
    """:func:`core.train_bpe` from counts (a counts file, several summed, or PretokenCounts).

    Gives the same ``(vocab, merges)`` as ``train_bpe`` on the files the counts were made from.
    """
    trainer = trainer_from_counts(
        counts,
        special_tokens,
        pattern=pattern,
        tie_break=tie_break,
        keep_history=False,
        vocab_size=vocab_size,
    )
    trainer.run(vocab_size, progress=progress, min_interval=50)
    return trainer.vocab, list(trainer.merges)
