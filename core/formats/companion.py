"""A tiktoken file or GPT-2 files exported beside our ``bpe.json``: their pattern and special tokens
come from there.

A tiktoken file stores neither the pre-tokenizer pattern nor the special tokens, GPT-2 files store no
pattern and do not say which tokens are special; but an export of all formats writes ``bpe.json``
(which stores both) into the same folder. When that ``bpe.json`` holds the very same tokens at the
same ids (and, for GPT-2 files, the same merges), its settings are the files' own. GPT-2 files
exported without ``bpe.json`` take the special tokens from the ``tokenizer.json`` beside them.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from core.errors import BPEError
from core.formats.hf import HF_NAME, load_hf
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
    return replace(
        spec,
        tie_break=native.tie_break,
        pipeline=_tiktoken_part(native.pipeline, spec.pattern_regex),
        notes=(*spec.notes, note),
    )


def gpt2_companion(vocab_path: str | Path) -> tuple[str, TokenizerSpec] | None:
    """The file name and tokenizer of the ``bpe.json`` (else ``tokenizer.json``) beside a GPT-2 ``vocab.json``, when
    GPT-2 files hold all of it (no imported pipeline they lose); None otherwise. The caller reads the
    GPT-2 files with its special tokens and pattern and keeps them only if vocab and merges are the
    same (:func:`same_tokenizer`)."""
    from core.formats.losses import _unmade_tokens, export_losses

    folder = Path(vocab_path).parent
    for name, load in ((NATIVE_NAME, load_native), (HF_NAME, load_hf)):
        other = folder / name
        if not other.is_file():
            continue
        try:
            spec = load(other)
        except BPEError:
            continue  # another tokenizer, or a broken file: the GPT-2 files are read on their own
        if export_losses(spec, "gpt2"):
            continue
        if name == HF_NAME and _unmade_tokens(spec):
            continue  # (an added token it lost: a special token that is not UTF-8, written as ordinary)
        return name, spec
    return None


def same_tokenizer(spec: TokenizerSpec, other: TokenizerSpec) -> bool:
    """Whether two specs hold the same tokens at the same ids and the same merges in the same order."""
    return spec.vocab == other.vocab and tuple(spec.merges) == tuple(other.merges)


def _tiktoken_part(pipeline: Any, regex: str | None) -> dict[str, Any] | None:
    """What a tiktoken file and its export's recipe hold of an imported tokenizer's pipeline: which
    special tokens text holds (the added tokens: none for a tekken file or a SentencePiece model, whose
    control tokens are plain text; an added token marked ``"special": false`` stays not special), split
    by the pattern, a pre-token that is a token taken whole (tiktoken's rule). Not the normalizer, the
    post-processor's ids or ``ignore_merges=false``: the export said those are lost, and the tiktoken
    file gives the ids without them. None for a tokenizer without such a pipeline (every special token
    is found in text)."""
    if not isinstance(pipeline, dict):
        return None
    pre = None
    if regex is not None:
        pre = {
            "type": "Sequence",
            "pretokenizers": [
                {"type": "Split", "pattern": {"Regex": regex}, "behavior": "Isolated", "invert": False},
                {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False},
            ],
        }
    return {
        "normalizer": None,
        "pre_tokenizer": pre,
        "added_tokens": list(pipeline.get("added_tokens") or []),
        "ignore_merges": True,
    }
