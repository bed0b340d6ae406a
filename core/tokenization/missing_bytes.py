"""Where a file has a byte its tokenizer cannot encode, said with the file's name and the offset.

A vocab may lack the 13 bytes that never occur in UTF-8 (GPT-NeoX, OLMo 1). Text read from a file
keeps an invalid byte as a ``surrogateescape`` character, and encoding it then fails inside a block or
a worker, where only a character index within that piece is known. The functions here name the file
(or text), the tokenizer and the byte's offset in the whole file instead.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from core.bpe.support import BYTE_NOT_IN_VOCAB
from core.errors import BPEError, TokenizerError

CHUNK = 1 << 22  # bytes read at a time while looking for the byte


def first_byte_in(source: str | os.PathLike | bytes, values: Iterable[int]) -> tuple[int, int] | None:
    """(offset, byte) of the first of ``values`` in a file or in bytes; None when none occurs."""
    wanted = sorted(set(values))
    if not wanted:
        return None
    find = re.compile(b"[" + b"".join(re.escape(bytes([v])) for v in wanted) + b"]").search
    if isinstance(source, bytes):
        m = find(source)
        return None if m is None else (m.start(), source[m.start()])
    done = 0
    with open(source, "rb") as f:
        while chunk := f.read(CHUNK):
            m = find(chunk)
            if m is not None:
                return done + m.start(), chunk[m.start()]
            done += len(chunk)
    return None


def missing_byte_error(where: str, tokenizer: str, offset: int, byte: int) -> TokenizerError:
    """The error for byte ``byte`` at ``offset`` of ``where`` (a file), which ``tokenizer`` cannot encode."""
    return TokenizerError(
        f"{where}: the byte 0x{byte:02x} at offset {offset:,} is not valid UTF-8, and {tokenizer} has no "
        "token for it (its vocab leaves out the bytes that never occur in UTF-8, as GPT-NeoX and OLMo 1 "
        "do), so it cannot encode this file. Remove or replace such bytes first (for example: "
        "iconv -c -f utf-8 -t utf-8 FILE > clean.txt), or use a tokenizer that has all 256 bytes",
        code=BYTE_NOT_IN_VOCAB,
        file=where,
        tokenizer=tokenizer,
        offset=offset,
        byte=byte,
    )


def locate(
    source: str | os.PathLike | bytes, where: str, tokenizer: str, holes: Iterable[int]
) -> TokenizerError | None:
    """The error naming the first byte of ``holes`` in ``source``; None when it has none (or cannot
    be read again, e.g. a stream)."""
    try:
        found = first_byte_in(source, holes)
    except OSError:
        return None
    return None if found is None else missing_byte_error(where, tokenizer, *found)


def is_missing_byte(e: BaseException) -> bool:
    """``e`` says a text has a byte the vocab has no token for (without saying where in which file)."""
    return isinstance(e, BPEError) and e.code == BYTE_NOT_IN_VOCAB and "offset" not in e.params


@contextmanager
def naming_the_file(path: str | os.PathLike | None, tokenizer: str, holes: Iterable[int]) -> Iterator[None]:
    """Re-raise a missing-byte error from the block as one naming ``path``, ``tokenizer`` and the offset."""
    try:
        yield
    except BPEError as e:
        if not is_missing_byte(e) or path is None or not Path(path).is_file():
            raise
        better = locate(path, os.fspath(path), tokenizer, holes)
        if better is None:
            raise
        raise better from None
