"""What a saved session holds, read cheaply for the "reopen the last session?" prompt (no Qt)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class SessionPreview:
    corpus: str | None  # the corpus file's name (None: a session without a corpus)
    merges: int
    vocab_target: int | None
    saved: float  # when the session file was written (seconds since the epoch)
    #: an extension (training continued from an imported tokenizer): how many of the merges are its
    #: base's (None: not an extension), and the base's name as the session keeps it ("" when not kept)
    base_merges: int | None = None
    base_name: str = ""


def session_preview(path: str | os.PathLike) -> SessionPreview | None:
    """The corpus, number of merges, vocab target and date of the session at ``path`` (and the base
    of an extension); None when it
    cannot be read (the prompt then shows the path alone, and opening it says what is wrong)."""
    p = Path(path)
    try:
        saved = p.stat().st_mtime
        with p.open("rb") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    info = data.get("session")
    if not isinstance(info, dict):
        info = {}
    merges = data.get("merges")
    corpus = info.get("corpus_path")
    target = info.get("vocab_target")
    training = data.get("training")
    extends = training.get("extends") if isinstance(training, dict) else None
    base_merges = extends.get("merges") if isinstance(extends, dict) else None
    base_name = extends.get("name") if isinstance(extends, dict) else None
    return SessionPreview(
        corpus=Path(corpus).name if isinstance(corpus, str) and corpus else None,
        merges=len(merges) if isinstance(merges, list) else 0,
        vocab_target=target if isinstance(target, int) and not isinstance(target, bool) else None,
        saved=saved,
        base_merges=base_merges
        if isinstance(base_merges, int) and not isinstance(base_merges, bool)
        else None,
        base_name=base_name if isinstance(base_name, str) else "",
    )
