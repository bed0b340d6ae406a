"""A tiktoken file exported beside our ``bpe.json``: its pattern and special-token ids come from there.

A tiktoken file stores neither the pre-tokenizer pattern nor the special tokens, but an export of all
formats writes ``bpe.json`` (which stores both) into the same folder. When that ``bpe.json`` holds the
very same tokens at the same ids, its settings are the tiktoken file's own.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from core.errors import BPEError
from core.formats.native import NATIVE_NAME, load_native
from core.formats.spec import TokenizerSpec
from core.formats.tiktoken_bpe import load_tiktoken


def companion_path(path: str | Path) -> Path | None:
    """The ``bpe.json`` beside the tiktoken file ``path`` (None: none there).

    It is asked before a known encoding: an export of a tokenizer whose ranks are a known file's, but
    not its special tokens, writes that very file (Qwen2.5's ranks are qwen.tiktoken's, its special
    tokens from id 151646 on are not); the bpe.json written with it says which tokenizer it was."""
    p = Path(path)
    other = p.parent / NATIVE_NAME
    if not p.is_file() or not other.is_file():
        return None
    return other


def load_with_companion(path: str | Path) -> TokenizerSpec | None:
    """The tiktoken file read with the pattern, special tokens and tie rule of the ``bpe.json`` beside
    it, when that file holds the same vocab (same tokens, same ids); None otherwise."""
    other = companion_path(path)
    if other is None:
        return None
    try:
        native = load_native(other)
        spec = load_tiktoken(path, pattern=native.pattern, special_tokens=native.special_ids)
    except BPEError:
        return None  # another tokenizer, or a broken file: the tiktoken file is read on its own
    if spec.vocab != native.vocab:
        return None
    note = f"pattern and special tokens read from {NATIVE_NAME} beside it (the same tokens at the same ids)"
    return replace(spec, tie_break=native.tie_break, notes=(*spec.notes, note))
