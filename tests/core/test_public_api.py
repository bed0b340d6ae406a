"""The names ``core`` offers: each listed one imports, and dir() (tab completion) shows them all,
the lazily imported ones included."""

from __future__ import annotations

import importlib

import core


def test_every_public_name_imports_and_dir_lists_it():
    listed = set(dir(core))
    for name in core.__all__:
        assert getattr(core, name) is not None
        assert name in listed
    assert {"train_bpe", "Tokenizer", "Trainer", "load_any", "export_all"} <= listed
    assert callable(importlib.import_module("core").train_bpe)
