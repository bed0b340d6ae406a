"""A content fingerprint of a corpus file, so a session notices an edit that kept the size and time.

Files up to :data:`WHOLE_FILE_BYTES` are hashed whole; larger ones by three blocks (the first, the
middle and the last :data:`SAMPLE_BYTES`), which reading a session must stay quick for. The digest
names which it is (``sha256:`` or ``sha256-sampled:``).

>>> import tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "c.txt"
>>> _ = p.write_bytes(b"hello")
>>> corpus_digest(p)
'sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824'
"""

from __future__ import annotations

import hashlib
import os

WHOLE_FILE_BYTES = 64 << 20
SAMPLE_BYTES = 4 << 20


def corpus_digest(path: str | os.PathLike) -> str:
    """The fingerprint of the file's content (raises OSError when it cannot be read)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size <= WHOLE_FILE_BYTES:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
            return f"sha256:{h.hexdigest()}"
        h.update(size.to_bytes(8, "little"))
        for start in (0, (size - SAMPLE_BYTES) // 2, size - SAMPLE_BYTES):
            f.seek(start)
            h.update(f.read(SAMPLE_BYTES))
        return f"sha256-sampled:{h.hexdigest()}"
