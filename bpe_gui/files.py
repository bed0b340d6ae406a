"""Tokenizer files for the GUI: export the session, import or compare a tokenizer (no Qt here)."""
from __future__ import annotations

import json
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
    """Load any supported tokenizer file (or folder): returns (Tokenizer, MergeRecords, name, note).

    The records carry the merge counts when the file has a training record (native format);
    otherwise their counts are 0. ``note`` says what the format could not store and was assumed
    ("" when nothing was).
    """
    from core.formats import detect_format, load_any
    from core.spec import records_from_spec
    from core.tokenizer import Tokenizer

    spec = load_any(path)
    tokenizer = Tokenizer.from_spec(spec)
    records = records_from_spec(spec)
    p = Path(path)
    name = p.name if p.is_dir() or p.name not in ("vocab.json", "merges.txt") else f"{p.parent.name}/{p.name}"
    fmt = detect_format(p)
    if fmt == "json":  # an HF tokenizer.json (a "model" key, and it stores its pattern) or a GPT-2 vocab.json
        data = json.loads(p.read_text(encoding="utf-8"))
        fmt = "hf" if isinstance(data, dict) and "model" in data else "gpt2"
    note = ""
    if fmt in ("gpt2", "tiktoken"):
        what = "GPT-2 vocab/merges files" if fmt == "gpt2" else "A .tiktoken file"
        holds = "do" if fmt == "gpt2" else "does"
        note = f"{what} {holds} not store the pre-tokenizer pattern: GPT-2's is assumed"
        if not spec.special_tokens:
            note += ", and no special tokens are known (they are encoded as plain text)"
        note += "."
    note = " ".join([note, *(n[0].upper() + n[1:] + "." for n in tokenizer.notes)]).strip()  # HF pipeline notes
    return tokenizer, records, name, note


def is_tokenizer_file(path: str | os.PathLike) -> bool:
    """Whether a dropped file looks like a tokenizer rather than a corpus."""
    p = Path(path)
    if p.is_dir():
        return True
    return p.suffix in (".json", ".tiktoken") or p.name == "merges.txt"
