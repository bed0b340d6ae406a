"""BPE Explorer core: byte-level BPE training, tokenization and file formats (no Qt here).

>>> from core import train_bpe, Trainer, Tokenizer
"""

from __future__ import annotations

from core.errors import (
    BPEError,
    Cancelled,
    CorpusError,
    FormatError,
    PatternError,
    SpecialTokenError,
    TokenizerError,
)
from core.pretokenization.pretokenize import (
    GPT2_PATTERN,
    GPT4_PATTERN,
    PATTERNS,
    CorpusStats,
    count_pretokens,
)

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
# imported on first use, so that pre-tokenization worker processes start fast (they need neither the
# trainer, which imports NumPy, nor the tokenizer and its file formats)
_LAZY = {
    "MergeRecord": "training.trainer",
    "Trainer": "training.trainer",
    "build_vocab": "training.trainer",
    "train_bpe": "training.trainer",
    "TokenSpan": "tokenization.tokenizer",
    "TokenizerSpec": "formats.spec",
    "spec_from_trainer": "formats.spec",
    "records_from_spec": "formats.spec",
    "FORMATS": "formats",
    "export_all": "formats",
    "load_any": "formats",
    "detect_format": "formats",
    "encode_file_to_npy": "tokenization.npy",
    "train_bpe_from_counts": "scale.counts",
    "trainer_from_counts": "scale.counts",
    "count_files": "scale.counts",
    "audit_merges": "evaluation.audit",
    "ExtendTrainer": "tokenization.extend",
    "extend_tokenizer": "tokenization.extend",
    "inspect_tokenizer": "evaluation.inspect",
    "compare_tokenizers": "evaluation.compare",
    "token_home": "evaluation.token_home",
}
__all__ += [name for name in _LAZY if name not in __all__]


def __dir__() -> list[str]:
    # the lazily imported names too (dir(), tab completion): train_bpe, Tokenizer, ...
    return sorted(set(globals()) | set(__all__))


def __getattr__(name: str):
    if name == "Tokenizer":
        from core.tokenization.tokenizer import Tokenizer

        return Tokenizer
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'core' has no attribute {name!r}")
