"""Fixtures shared by the core tests (no Qt here)."""

from __future__ import annotations

import pytest

from core.tokenization.tokenizer import Tokenizer

from .tok_corpus import trained_tokenizer


@pytest.fixture(scope="session")
def tok() -> Tokenizer:
    """The tokenizer trained on the generated corpus of :mod:`tok_corpus` (GPT-2 pattern, one special token)."""
    return trained_tokenizer()
