"""Compressed files named by their magic bytes (gzip, xz, zstd, zip, bzip2), with the command that
streams them: every command that reads a corpus (train, count, encode; local and Dask) says the same.

>>> refuse_compressed(b"\\x1f\\x8b\\x08", "c.txt.gz", "train - --vocab-size N --out DIR")
Traceback (most recent call last):
...
core.errors.CorpusError: c.txt.gz is gzip-compressed; decompress it first, or stream it: zcat FILE | bpe-explorer train - --vocab-size N --out DIR
"""

from __future__ import annotations

from core.errors import CorpusError

_COMPRESSED = [
    (b"\x1f\x8b", "gzip", "zcat"),
    (b"\xfd7zXZ\x00", "xz", "xzcat"),
    (b"\x28\xb5\x2f\xfd", "zstd", "zstdcat"),
    (b"PK\x03\x04", "zip", "unzip -p"),
]


def refuse_compressed(
    head: bytes, source: str, command: str = "count - --out counts.parquet (local engine)"
) -> None:
    """Refuse a file whose first bytes are those of a gzip, xz, zstd, zip or bzip2 archive."""
    found = [(kind, cat) for magic, kind, cat in _COMPRESSED if head.startswith(magic)]
    if head[:3] == b"BZh" and head[4:10] == b"1AY&SY":
        found.append(("bzip2", "bzcat"))
    if found:
        kind, cat = found[0]
        raise CorpusError(
            f"{source} is {kind}-compressed; decompress it first, or stream it: "
            f"{cat} FILE | bpe-explorer {command}",
            code="corpus_compressed",
            name=source,
            kind=kind,
        )
