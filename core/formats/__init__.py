"""Import and export of tokenizers: GPT-2, HuggingFace, tiktoken and the native ``bpe.json``.

Each format is lossless for every token (bytes that are not valid UTF-8 included) and each file is
written atomically (temp file in the same folder, then ``os.replace``).

==========  ===============================  ==========================================
name        files                            read back with
==========  ===============================  ==========================================
gpt2        vocab.json + merges.txt          :func:`load_gpt2`, ``Tokenizer.from_files``
hf          tokenizer.json                   :func:`load_hf`, ``tokenizers.Tokenizer.from_file``
tiktoken    bpe.tiktoken                     :func:`load_tiktoken`, ``tiktoken.load.load_tiktoken_bpe``
native      bpe.json                         :func:`load_native` (keeps the training record)
==========  ===============================  ==========================================

>>> import tempfile
>>> from core.spec import TokenizerSpec
>>> d = tempfile.mkdtemp()
>>> spec = TokenizerSpec.from_merges([(b"a", b"b")], ["<|endoftext|>"])
>>> sorted(p.name for ps in export_all(d, spec).values() for p in ps)
['bpe.json', 'bpe.tiktoken', 'merges.txt', 'tokenizer.json', 'vocab.json']
>>> load_any(d).merges
((b'a', b'b'),)
"""
from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import FormatError
from ..spec import TokenizerSpec, spec_from_trainer
from ._io import atomic_write, load_json, read_text
from .gpt2 import MERGES_NAME, VOCAB_NAME, load_gpt2, save_gpt2
from .hf import HF_NAME, load_hf, save_hf, spec_from_hf
from .native import FORMAT_ID, NATIVE_NAME, load_native, save_native, spec_from_native
from .tiktoken_bpe import TIKTOKEN_NAME, load_tiktoken, save_tiktoken, tiktoken_encoding

FORMATS: tuple[str, ...] = ("gpt2", "hf", "tiktoken", "native")
FILE_NAMES: dict[str, tuple[str, ...]] = {
    "gpt2": (VOCAB_NAME, MERGES_NAME), "hf": (HF_NAME,), "tiktoken": (TIKTOKEN_NAME,), "native": (NATIVE_NAME,),
}

__all__ = [
    "FORMATS", "FILE_NAMES", "TokenizerSpec", "as_spec", "atomic_write", "export_all", "load_any",
    "parse_formats", "save", "load_gpt2", "save_gpt2", "load_hf", "save_hf", "load_tiktoken",
    "save_tiktoken", "tiktoken_encoding", "load_native", "save_native", "detect_format",
]


def as_spec(source: Any) -> TokenizerSpec:
    """A :class:`TokenizerSpec` from a spec, a :class:`core.Tokenizer` or a :class:`core.Trainer`."""
    if isinstance(source, TokenizerSpec):
        return source
    if hasattr(source, "to_spec"):
        return source.to_spec()
    if hasattr(source, "records") and hasattr(source, "merges"):
        return spec_from_trainer(source)
    raise FormatError(f"cannot export a {type(source).__name__}; pass a Tokenizer, Trainer or TokenizerSpec")


def parse_formats(formats: str | Iterable[str]) -> list[str]:
    """``"gpt2,hf"`` or ``["gpt2", "hf"]`` → checked list; ``"all"`` means every format.

    >>> parse_formats("hf, native")
    ['hf', 'native']
    """
    names = [f.strip().lower() for f in (formats.split(",") if isinstance(formats, str) else formats)]
    names = [n for n in names if n]
    if names == ["all"]:
        return list(FORMATS)
    bad = [n for n in names if n not in FORMATS]
    if bad or not names:
        raise FormatError(f"unknown format(s) {', '.join(bad) or '(none given)'}; choose from "
                          f"{','.join(FORMATS)} (comma-separated) or 'all'")
    return list(dict.fromkeys(names))


def save(source: Any, path: str | os.PathLike, fmt: str) -> list[Path]:
    """Write one format; ``path`` is a folder for gpt2, a file or folder for the others."""
    if fmt not in FORMATS:
        raise FormatError(f"unknown format {fmt!r}; save() writes one of {', '.join(FORMATS)}")
    if fmt == "gpt2":
        return save_gpt2(source, path)
    if fmt == "hf":
        return [save_hf(source, path)]
    if fmt == "tiktoken":
        return [save_tiktoken(source, path)]
    return [save_native(source, path)]


def export_all(directory: str | os.PathLike, source: Any,
               formats: str | Iterable[str] = FORMATS) -> dict[str, list[Path]]:
    """Write the chosen formats into ``directory`` (created if needed); returns the files per format."""
    names = parse_formats(formats)
    spec = as_spec(source)
    d = Path(directory)
    if d.exists() and not d.is_dir():
        raise FormatError(f"{str(d)!r} is a file; export needs a folder")
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise FormatError(f"cannot create folder {str(d)!r}: {e.strerror or e}") from e
    return {name: save(spec, d, name) for name in names}


def detect_format(path: str | os.PathLike) -> str:
    """The format of a file or folder: ``"gpt2"``, ``"hf"``, ``"tiktoken"`` or ``"native"``."""
    p = Path(path)
    if p.is_dir():
        for fmt, names in (("native", (NATIVE_NAME,)), ("hf", (HF_NAME,)), ("gpt2", (VOCAB_NAME, MERGES_NAME)),
                           ("tiktoken", (TIKTOKEN_NAME,))):
            if all((p / n).is_file() for n in names):
                return fmt
        raise FormatError(f"folder {str(p)!r} holds no tokenizer files; expected one of {NATIVE_NAME}, "
                          f"{HF_NAME}, {VOCAB_NAME} + {MERGES_NAME} or {TIKTOKEN_NAME}")
    if not p.is_file():
        raise FormatError(f"{str(p)!r} does not exist; check the path")
    if p.suffix == ".tiktoken":
        return "tiktoken"
    if p.suffix == ".txt":
        return "gpt2"
    with p.open("rb") as f:
        head = f.read(4096).lstrip()
    if head.startswith(b"{"):
        if b'"format"' in head and FORMAT_ID.encode() in head:
            return "native"
        return "json"  # HF tokenizer.json or GPT-2 vocab.json: decided after parsing
    return "tiktoken"


def load_any(path: str | os.PathLike, *, special_tokens: list[str] | None = None,
             pattern: str | None = None) -> TokenizerSpec:
    """Load a tokenizer from a file or folder, detecting the format.

    ``special_tokens`` and ``pattern`` are used by the formats that do not store them (GPT-2 files,
    ``bpe.tiktoken``); by default GPT-2 special tokens are detected and the pattern is ``"gpt2"``.
    """
    p = Path(path)
    fmt = detect_format(p)
    pat = "gpt2" if pattern is None else pattern
    if p.is_dir():
        p = p / FILE_NAMES[fmt][0]
    if fmt == "native":
        return load_native(p)
    if fmt == "hf":
        return load_hf(p)
    if fmt == "tiktoken":
        return load_tiktoken(p, pattern=pat, special_tokens=special_tokens)
    if fmt == "gpt2":
        vocab = p if p.name != MERGES_NAME and p.suffix != ".txt" else p.with_name(VOCAB_NAME)
        merges = p if p.suffix == ".txt" else p.with_name(MERGES_NAME)
        return load_gpt2(vocab, merges, special_tokens=special_tokens, pattern=pat)
    text = read_text(p, "tokenizer")
    data = load_json(p, text)
    if isinstance(data, dict) and data.get("format") == FORMAT_ID:
        return spec_from_native(p, text, data)
    if isinstance(data, dict) and "model" in data:
        return spec_from_hf(p, text, data)
    if not p.with_name(MERGES_NAME).is_file():
        raise FormatError(f"{p}: looks like a GPT-2 vocab.json but {p.with_name(MERGES_NAME)} is missing; "
                          "put merges.txt next to it")
    return load_gpt2(p, p.with_name(MERGES_NAME), special_tokens=special_tokens, pattern=pat)
