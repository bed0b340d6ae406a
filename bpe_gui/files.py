"""Tokenizer files for the GUI: export the session, import or compare a tokenizer (no Qt here)."""
from __future__ import annotations

import os
from pathlib import Path

FORMAT_LABELS = {
    "gpt2": "GPT-2 files (vocab.json + merges.txt)",
    "hf": "Hugging Face tokenizer.json",
    "tiktoken": "tiktoken (bpe.tiktoken)",
    "native": "Native bpe.json (keeps the merge timeline)",
}
OPEN_FILTER = "Tokenizer files (*.json *.tiktoken *.txt *.model);;All files (*)"


def export_tokenizer(source, folder: str | os.PathLike, formats: list[str]) -> list[Path]:
    """Write ``formats`` of ``source`` (a Trainer or Tokenizer) into ``folder``; returns the files."""
    from core.formats import export_all

    written = export_all(folder, source, formats)
    return [p for paths in written.values() for p in paths]


def load_tokenizer(path: str | os.PathLike):
    """Load any supported tokenizer file (or folder): returns (Tokenizer, MergeRecords, name).

    The records carry the merge counts when the file has a training record (native format);
    otherwise their counts are 0.
    """
    from core.formats import load_any
    from core.spec import records_from_spec
    from core.tokenizer import Tokenizer

    spec = load_any(path)
    tokenizer = Tokenizer.from_spec(spec)
    records = records_from_spec(spec)
    p = Path(path)
    name = p.name if p.is_dir() or p.name not in ("vocab.json", "merges.txt") else f"{p.parent.name}/{p.name}"
    return tokenizer, records, name


def is_tokenizer_file(path: str | os.PathLike) -> bool:
    """Whether a dropped file looks like a tokenizer rather than a corpus."""
    p = Path(path)
    if p.is_dir():
        return True
    return p.suffix in (".json", ".tiktoken") or p.name == "merges.txt"
