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

__all__ = [
    "GPT2_PATTERN",
    "GPT4_PATTERN",
    "PATTERNS",
    "BPEError",
    "Cancelled",
    "CorpusError",
    "CorpusStats",
    "FormatError",
    "MergeRecord",
    "PatternError",
    "SpecialTokenError",
    "Tokenizer",
    "TokenizerError",
    "Trainer",
    "build_vocab",
    "count_pretokens",
    "train_bpe",
]
# imported on first use, so that pre-tokenization worker processes start fast (the trainer needs
# NumPy, 0.1 s to import; the tokenizer and its file formats are not needed there either)
_LAZY = {
    "MergeRecord": "trainer",
    "Trainer": "trainer",
    "build_vocab": "trainer",
    "train_bpe": "trainer",
    "TokenSpan": "tokenizer",
    "TokenizerSpec": "spec",
    "spec_from_trainer": "spec",
    "records_from_spec": "spec",
    "FORMATS": "formats",
    "export_all": "formats",
    "load_any": "formats",
    "detect_format": "formats",
    "encode_file_to_npy": "npy",
    "train_bpe_from_counts": "counts",
    "trainer_from_counts": "counts",
    "count_files": "counts",
    "audit_merges": "merge_audit",
    "inspect_tokenizer": "token_inspect",
    "ExtendTrainer": "extend",
    "extend_tokenizer": "extend",
    "compare_tokenizers": "compare",
    "token_home": "token_home",
}
__all__ += [name for name in _LAZY if name not in __all__]


def __dir__() -> list[str]:
    # the lazily imported names too (dir(), tab completion): train_bpe, Tokenizer, ...
    return sorted(set(globals()) | set(__all__))


def __getattr__(name: str):
    if name == "Tokenizer":
        from .tokenizer import Tokenizer

        return Tokenizer
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'core' has no attribute {name!r}")
