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
from pathlib import Path

from core.errors import BPEError
from core.files import input_files


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
