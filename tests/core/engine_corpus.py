"""The small corpus of the engine tests (written by each test module into its own folder)."""

from __future__ import annotations

from pathlib import Path

TEXT = (
    "the cat sat on the mat. the dog sat on the log; then the cat and the dog ran.\n"
    "Tokenizers learn merges: th + e -> the.<|endoftext|>naïve café 12345 \U0001f642\n"
)


def write_engine_corpus(path: Path) -> Path:
    """TEXT and 4,000 varied words, so that a run has thousands of merges to make."""
    words = [f"w{i:x}{'abcdefgh'[i % 8] * (i % 5)}" for i in range(4000)]
    path.write_bytes((TEXT * 40 + " ".join(words) + "\n").encode())
    return path
