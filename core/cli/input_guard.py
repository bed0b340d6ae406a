"""The files a tokenizer path is read from, for the commands' "an output is not an input" check
(:func:`core.files.check_not_inputs`).

>>> import pathlib, tempfile
>>> from core.files import check_not_inputs
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> corpus = d / "in.txt"
>>> _ = corpus.write_text("hello")
>>> check_not_inputs([(corpus, "--out")], [corpus])
Traceback (most recent call last):
...
core.errors.BPEError: --out ... is the input ... (the same file): writing it would destroy the input; choose another output path
"""

from __future__ import annotations

import contextlib
import os
import re
from collections import Counter
from pathlib import Path

from core.errors import BPEError
from core.files import input_files, packed_kind


def tokenizer_inputs(path: str | os.PathLike) -> list[Path]:
    """The files a tokenizer path is read from: the file and, for a GPT-2 file, the other file of its pair;
    the files of a folder. A known encoding name ("cl100k_base") gives none."""
    p = Path(path).expanduser()
    if not p.exists():
        return []
    files = list(input_files(p))
    if p.is_file():
        from core.formats import find_merges_for, find_vocab_for

        for find in (find_merges_for, find_vocab_for):
            with contextlib.suppress(BPEError):
                files.append(find(p))
    return files


def check_text_input(
    path: str | os.PathLike, *, allow_nul: bool = False, compressed_ok: bool = False
) -> None:
    """Refuse a text input of ``encode`` or ``eval`` whose start shows UTF-16/32, binary data (NUL
    bytes, unless ``allow_nul``), a NumPy array or (unless ``compressed_ok``: the command names it
    itself, with the command that streams it) a compressed file: as ``train`` does. Their bytes were
    encoded as they were, into ids no model was trained on (a UTF-16 file: 1.0 bytes per token) without
    a word. A stream (``-``, a FIFO) is not looked at (it can be read only once); a missing or
    unreadable file is left to the command, which says so."""
    from core.files import packed_kind
    from core.pretokenization.pretokenize import sniff_encoding
    from core.pretokenization.sources import is_stream

    p = Path(path).expanduser()
    if is_stream(path) or not p.is_file():
        return
    try:
        with open(p, "rb") as f:
            head = f.read(65536)
    except OSError:
        return
    if compressed_ok and packed_kind(head) is not None:
        return
    sniff_encoding(head, str(path), allow_nul=allow_nul)


#: what a special token of the ``<|endoftext|>`` kind looks like in text
_SPECIAL_LIKE = re.compile(r"<\|[^|<>\s]{1,40}\|>")
#: how much of the text is looked at: a file's first block, never a second pass over the whole
SPECIAL_LIKE_HEAD = 1 << 20


def special_like_note(path: str | os.PathLike, tiktoken: bool) -> str | None:
    """A note for encoding a text that holds ``<|…|>`` strings with a tokenizer that knows no special
    tokens (they become plain text), from the first MiB of a regular file; None when there are none,
    or the input is a stream or compressed (its first bytes are not its text)."""
    p = Path(path)
    try:
        if not p.is_file():
            return None
        with p.open("rb") as f:
            head = f.read(SPECIAL_LIKE_HEAD)
            whole = not f.read(1)
    except OSError:
        return None
    if packed_kind(head) is not None:
        return None
    found = Counter(_SPECIAL_LIKE.findall(head.decode("utf-8", "replace")))
    if not found:
        return None
    token, n = found.most_common(1)[0]
    where = "" if whole else " in its first MiB"
    others = f" (and {len(found) - 1} other such string(s))" if len(found) > 1 else ""
    given = f"{token}=ID" if tiktoken else token
    return (
        f"the text holds {token!r} {n:,} time(s){where}{others}, encoded as plain text (the tokenizer knows "
        f"no special tokens); give --special-token {given!r} if it is one"
    )
