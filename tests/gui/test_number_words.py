"""Counts in the app's lines are grouped ("1,000 special", not "1000 special")."""

from __future__ import annotations

from types import SimpleNamespace


class _Index(SimpleNamespace):
    n_plain_added = 0  # (no added token that is not special)

    def __len__(self) -> int:
        return 101_256


def test_the_vocab_line_groups_every_count(window, monkeypatch):
    panel = window.training_panel
    panel.vocab_size.setValue(200_000)
    index = _Index(n_merges=100_000, special_tokens=[f"<s{i}>" for i in range(1_000)])
    fake = SimpleNamespace(index=index, has_trainer=True, model=SimpleNamespace(imported=None))
    monkeypatch.setattr(panel, "controller", fake)  # (counts as large as an import gives)
    panel.update_vocab_label()
    text = panel.vocab_label.text()
    assert "101,256" in text and "200,000" in text and "100,000" in text, text
    assert "1,000 special" in text, text
