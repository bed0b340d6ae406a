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


def session_preview(path: str | os.PathLike) -> SessionPreview | None:
    """The corpus, number of merges, vocab target and date of the session at ``path``; None when it
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
    return SessionPreview(
        corpus=Path(corpus).name if isinstance(corpus, str) and corpus else None,
        merges=len(merges) if isinstance(merges, list) else 0,
        vocab_target=target if isinstance(target, int) and not isinstance(target, bool) else None,
        saved=saved,
    )
