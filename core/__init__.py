"""BPE Explorer core: byte-level BPE training, tokenization and file formats (no Qt here).

>>> from core import train_bpe, Trainer, Tokenizer
"""
from __future__ import annotations

from .errors import (
    BPEError,
    Cancelled,
    CorpusError,
    FormatError,
    PatternError,
    SpecialTokenError,
    TokenizerError,
)
from .pretokenize import GPT2_PATTERN, GPT4_PATTERN, PATTERNS, CorpusStats, count_pretokens
from .trainer import MergeRecord, Trainer, build_vocab, train_bpe

__all__ = [
    "BPEError", "Cancelled", "CorpusError", "FormatError", "PatternError", "SpecialTokenError",
    "TokenizerError", "GPT2_PATTERN", "GPT4_PATTERN", "PATTERNS", "CorpusStats", "count_pretokens",
    "MergeRecord", "Trainer", "build_vocab", "train_bpe", "Tokenizer",
]
# tokenizer files and encoding (imported on first use, like Tokenizer)
_LAZY = {"TokenSpan": "tokenizer", "TokenizerSpec": "spec", "spec_from_trainer": "spec",
         "records_from_spec": "spec", "FORMATS": "formats", "export_all": "formats", "load_any": "formats",
         "detect_format": "formats", "encode_file_to_npy": "npy"}
__all__ += list(_LAZY)


def __getattr__(name: str):
    # the tokenizer is imported on first use so that pre-tokenization worker processes start fast
    if name == "Tokenizer":
        from .tokenizer import Tokenizer

        return Tokenizer
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'core' has no attribute {name!r}")
