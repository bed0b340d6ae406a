"""Encode a whole text file into a NumPy ``.npy`` of token ids, in parallel, with bounded memory.

The file is read in blocks cut only where pre-tokenization cannot change (just before a special
token, or for the built-in patterns where they provably restart, in any script: see
:mod:`core.pretokenization.blocks`), so the ids equal ``Tokenizer.encode`` of the whole text.
A regular file is encoded by worker processes that read their own byte ranges (cut at the valid
cuts the Dask tasks use) and write their own ids; this process only appends their pieces in order
(:mod:`core.tokenization.npy_ranges`). A stream (pipe, stdin) is read here in blocks, which are
encoded in worker processes (:mod:`core.workers.parallel`; the tokenizer is sent once per worker)
with at most ``2 × workers`` blocks in flight, and written in order. Each process encodes its blocks
with one :class:`core.tokenization.array_encode.ArrayEncoder` (ids as arrays, a cache of words kept from block to
block, the new words of a block merged in one batch). The array is ``uint16`` when
every id fits, else ``uint32``. Bytes that are not valid UTF-8 are kept (``surrogateescape``).

>>> import tempfile, pathlib, numpy as np
>>> from core.formats.spec import TokenizerSpec
>>> from core.tokenization.tokenizer import Tokenizer
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "in.txt").write_text("hi hi")
>>> tok = Tokenizer.from_spec(TokenizerSpec.from_merges([(b"h", b"i")]))
>>> r = encode_file_to_npy(tok, d / "in.txt", d / "out.npy")
>>> np.load(d / "out.npy").tolist(), r.dtype
([256, 32, 256], 'uint16')
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from core.errors import Cancelled, CorpusError, FormatError
from core.files import discard, is_npy, new_temp, publish
from core.pretokenization.blocks import BLOCK_BYTES, MAX_BLOCK_BYTES, iter_blocks, tokenizer_rule
from core.pretokenization.pretokenize import SINGLE_PROCESS_BYTES, block_rule
from core.pretokenization.read_watch import watch
from core.pretokenization.scan import refuse_compressed
from core.pretokenization.sources import is_stream, open_stream, read_head
from core.tokenization.array_encode import ArrayEncoder
from core.tokenization.missing_bytes import naming_the_file
from core.tokenization.npy_ranges import encode_cuts, encode_ranges_to
from core.workers.parallel import ordered_map

HEADER_BYTES = 128  # fixed .npy header size, so the final length can be written at the end

_worker_encoder: ArrayEncoder | None = None


@dataclass(frozen=True)
class NpyResult:
    """What :func:`encode_file_to_npy` wrote."""

    path: Path
    n_tokens: int
    n_bytes: int
    dtype: str
    workers: int


def npy_header(n: int, dtype: str) -> bytes:
    """A version 1.0 ``.npy`` header for a 1-D little-endian array of ``n`` items, padded to 128 bytes.

    >>> len(npy_header(10, "uint16"))
    128
    """
    descr = np.dtype(dtype).newbyteorder("<").str
    d = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': ({n},), }}"
    room = HEADER_BYTES - 10 - 1
    if len(d) > room:
        raise FormatError(f"array of {n} items is too long for a .npy header")
    return (
        b"\x93NUMPY\x01\x00"
        + (HEADER_BYTES - 10).to_bytes(2, "little")
        + (d.ljust(room) + "\n").encode("latin1")
    )


def _init_worker(cls: Any, spec: Any) -> None:
    # the tokenizer's class travels by reference (pickled as its name), so this module needs no
    # import of core.tokenization.tokenizer, which imports this one for Tokenizer.encode_file
    global _worker_encoder
    _worker_encoder = ArrayEncoder(cls.from_spec(spec))


def _block_ids(encoder: ArrayEncoder, block: bytes, dtype: str) -> bytes:
    """The ids of one block as little-endian ``dtype`` bytes."""
    ids = encoder.encode(block.decode("utf-8", "surrogateescape"))
    return ids.astype(np.dtype(dtype).newbyteorder("<")).tobytes()


def _encode_block(block: bytes, dtype: str) -> bytes:
    """Worker entry point: encode one block, return the ids as little-endian bytes."""
    assert _worker_encoder is not None  # (set by _init_worker)
    return _block_ids(_worker_encoder, block, dtype)


def _encode_sized_block(item: tuple[bytes, int], dtype: str) -> tuple[bytes, int]:
    return _encode_block(item[0], dtype), item[1]


def encode_file_to_npy(
    tokenizer: Any,
    input_path: str | os.PathLike,
    output_path: str | os.PathLike,
    *,
    workers: int | None = None,
    progress: Callable[[str, int, int], Any] | None = None,
    block_bytes: int = BLOCK_BYTES,
) -> NpyResult:
    """Encode ``input_path`` into ``output_path`` (a ``.npy``), written atomically.

    ``progress("encode", done_bytes, total_bytes)`` is called after each block; returning False
    stops the run with :class:`Cancelled` and leaves no output file. A byte of the input that the
    vocab has no token for is named with its offset in the file.
    """
    holes = getattr(tokenizer, "unencodable_bytes", ())
    with naming_the_file(None if is_stream(input_path) else input_path, "the tokenizer", holes):
        return _encode_file_to_npy(
            tokenizer, input_path, output_path, workers=workers, progress=progress, block_bytes=block_bytes
        )


def _encode_file_to_npy(
    tokenizer: Any,
    input_path: str | os.PathLike,
    output_path: str | os.PathLike,
    *,
    workers: int | None,
    progress: Callable[[str, int, int], Any] | None,
    block_bytes: int,
) -> NpyResult:
    src = Path(input_path)
    streamed = is_stream(input_path)  # a FIFO, pipe or "-" (stdin): read once, front to back
    if not streamed and not src.is_file():
        if src.exists() and not src.is_dir():
            raise CorpusError(
                f"input {str(src)!r} is not a regular file, FIFO or pipe (a socket or block "
                "device); save the text to a file first"
            )
        from core.files import text_file_problem

        problem = text_file_problem(src, "input file")
        if problem is not None:
            raise problem
        raise CorpusError(f"input file {str(src)!r} does not exist or is not a file; check the path")
    out = Path(output_path)
    if not out.parent.is_dir():
        raise FormatError(f"folder {str(out.parent)!r} does not exist; create it first")
    if not streamed:
        from core.files import check_not_inputs

        check_not_inputs([(out, "the output")], [src])
    top = max(tokenizer.vocab, default=0)
    if top >= 1 << 32:
        raise FormatError(
            f"the tokenizer has id {top}, which does not fit the .npy's uint32; ids must be below 2^32"
        )
    size = 0 if streamed else src.stat().st_size  # (0: a stream's size is not known in advance)
    dtype = "uint16" if max(tokenizer.vocab, default=0) < (1 << 16) else "uint32"
    if workers is None:
        workers = os.cpu_count() or 1
    workers = 1 if size <= SINGLE_PROCESS_BYTES and not streamed else max(1, int(workers))
    n_items = 0
    done = 0
    ok = False
    tmp = None

    def poll() -> None:
        if progress is not None and progress("encode", done, size) is False:
            raise Cancelled("encoding cancelled")

    try:  # the input first: its error must not read as the output's
        source = open_stream(input_path, poll) if streamed else open(src, "rb")  # noqa: SIM115 (closed below)
    except OSError as e:
        raise CorpusError(
            f"cannot read the input {str(src)!r}: {e.strerror or e}; check its permissions",
            code="corpus_unreadable",
            path=str(src),
            reason=e.strerror or str(e),
        ) from e
    watched = None if streamed else watch(src, source.fileno())
    try:
        fd, tmp = new_temp(out)
        with os.fdopen(fd, "wb") as f, source as stream:
            f.write(npy_header(0, dtype))

            def absorb(data: bytes, n_in: int) -> None:
                nonlocal n_items, done
                f.write(data)
                n_items += len(data) // np.dtype(dtype).itemsize
                done += n_in
                if progress is not None and progress("encode", done, size) is False:
                    raise Cancelled("encoding cancelled")

            head, stream = read_head(stream)
            refuse_compressed(head, str(input_path), "encode --tokenizer TOKENIZER - --out ids.npy")
            if is_npy(head):  # (its ids are not text: encoding its bytes is a mix-up of files)
                raise CorpusError(
                    f"{input_path} is a NumPy array (.npy, e.g. token ids written by encode), not text; "
                    "give the UTF-8 text to encode",
                    code="corpus_npy",
                    name=str(input_path),
                )
            if workers > 1 and watched is not None and encode_cuts(tokenizer) is not None:
                # a regular file: the workers read their own byte ranges and write their own ids
                # (core.tokenization.npy_ranges); this process only appends their pieces
                stream.close()

                def ranged(n_in: int) -> None:
                    nonlocal done
                    done += n_in
                    poll()

                n_items = encode_ranges_to(
                    tokenizer,
                    str(src),
                    watched.size,
                    f,
                    dtype,
                    workers,
                    range_bytes=max(block_bytes, min(MAX_BLOCK_BYTES, watched.size // (4 * workers))),
                    block_bytes=block_bytes,
                    temp_dir=str(out.parent),
                    on_range=ranged,
                    poll=poll,
                ).n_items
            else:
                rule = tokenizer_rule(tokenizer, block_rule(tokenizer.pattern_regex))
                blocks = iter_blocks(stream, list(tokenizer.special_tokens), rule, block_bytes, poll=poll)
                if workers == 1:
                    encoder = ArrayEncoder(tokenizer)
                    for block in blocks:
                        absorb(_block_ids(encoder, block, dtype), len(block))
                else:
                    sized = ((block, len(block)) for block in blocks)
                    results = ordered_map(
                        _encode_sized_block,
                        sized,
                        workers=workers,
                        extra_args=(dtype,),
                        initializer=_init_worker,
                        initargs=(type(tokenizer), tokenizer.to_spec()),
                    )
                    with closing(results):  # a cancel terminates the pool before the exception leaves
                        for data, n_in in results:
                            absorb(data, n_in)
            if watched is not None:  # truncated, grown or rewritten while it was read
                watched.check(done)
            f.seek(0)
            f.write(npy_header(n_items, dtype))
            f.flush()
            os.fsync(f.fileno())
        publish(tmp, out)
        ok = True
    except OSError as e:
        raise FormatError(
            f"cannot write {str(out)!r}: {e.strerror or e}; check free space and permissions"
        ) from e
    finally:
        if not ok:
            discard(tmp)
        source.close()  # (closed already, unless the temp file could not be made)
    return NpyResult(out, n_items, done if streamed else size, dtype, workers)
