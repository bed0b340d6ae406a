"""Compressed files named by their magic bytes (gzip, xz, zstd, zip, bzip2), with the command that
streams them: every command that reads a corpus (train, count, encode; local and Dask) says the same.

>>> refuse_compressed(b"\\x1f\\x8b\\x08", "c.txt.gz", "train - --vocab-size N --out DIR")
Traceback (most recent call last):
...
core.errors.CorpusError: c.txt.gz is gzip-compressed: stream it into the command, zcat c.txt.gz | bpe-explorer train - --vocab-size N --out DIR
"""

from __future__ import annotations

import shlex

from core.errors import CorpusError
from core.files import packed_kind

#: the command that streams each kind to standard output
_STREAM = {"gzip": "zcat", "xz": "xzcat", "zstd": "zstdcat", "zip": "unzip -p", "bzip2": "bzcat"}


def refuse_compressed(
    head: bytes,
    source: str,
    command: str = "count - --out counts.parquet (local engine)",
    path: str | None = None,
) -> None:
    """Refuse a file whose first bytes are those of a gzip, xz, zstd, zip or bzip2 archive; the
    message gives one command, with the file's name, that streams it into ``command`` (the app,
    which cannot stream, says how to unpack it from the error's ``command`` parameter); ``path``: the
    file as the user named it, when ``source`` is a shorter name for it."""
    packed = packed_kind(head)
    if packed is not None:
        kind, unpack = packed
        raise CorpusError(
            f"{source} is {kind}-compressed: stream it into the command, "
            f"{_STREAM.get(kind, unpack)} {shlex.quote(path or source)} | bpe-explorer {command}",
            code="corpus_compressed",
            name=source,
            kind=kind,
            command=unpack,
        )
