"""Tokenizer files for the GUI: export the session, import or compare a tokenizer (no Qt here)."""
from __future__ import annotations

import os
from pathlib import Path


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - marks text for lupdate; shown translated
    return text


FORMAT_LABELS = {
    "gpt2": QT_TRANSLATE_NOOP("Files", "GPT-2 files (vocab.json + merges.txt)"),
    "hf": QT_TRANSLATE_NOOP("Files", "Hugging Face tokenizer.json"),
    "tiktoken": QT_TRANSLATE_NOOP("Files", "tiktoken (bpe.tiktoken)"),
    "native": QT_TRANSLATE_NOOP("Files", "Native bpe.json (keeps the merge timeline)"),
}
OPEN_FILTER = QT_TRANSLATE_NOOP("Files", "Tokenizer files (*.json *.tiktoken *.txt);;All files (*)")


def export_tokenizer(source, folder: str | os.PathLike, formats: list[str]) -> list[Path]:
    """Write ``formats`` of ``source`` (a Trainer or Tokenizer) into ``folder``; returns the files."""
    from core.formats import export_all

    written = export_all(folder, source, formats)
    return [p for paths in written.values() for p in paths]


def load_tokenizer(path: str | os.PathLike):
    """Load any supported tokenizer file (or folder): returns (Tokenizer, MergeRecords, name, note).

    The records carry the merge counts when the file has a training record (native format);
    otherwise their counts are 0. ``note`` says what the format could not store and was assumed
    ("" when nothing was).
    """
    from core.formats import load_any
    from core.spec import records_from_spec
    from core.tokenizer import Tokenizer

    spec = load_any(path)
    tokenizer = Tokenizer.from_spec(spec)
    records = records_from_spec(spec)
    p = Path(path)
    name = p.name if p.is_dir() or p.name not in ("vocab.json", "merges.txt") else f"{p.parent.name}/{p.name}"
    # what the loader assumed or recognised (GPT-2's pattern, cl100k_base by its hash …) and what a
    # tokenizer.json sets but we do not apply (truncation …), as sentences
    note = " ".join(n[0].upper() + n[1:] + ("" if n.endswith(".") else ".")
                    for n in (*spec.notes, *tokenizer.notes) if n)
    return tokenizer, records, name, note


def is_tokenizer_file(path: str | os.PathLike) -> bool:
    """Whether a dropped file looks like a tokenizer rather than a corpus."""
    p = Path(path)
    if p.is_dir():
        return True
    return p.suffix in (".json", ".tiktoken") or p.name == "merges.txt"
