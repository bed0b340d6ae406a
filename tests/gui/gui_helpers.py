"""Helpers shared by the GUI tests."""
from __future__ import annotations


def load(qtbot, w, path, timeout=60_000):
    with qtbot.waitSignal(w.controller.corpus_loaded, timeout=timeout) as blocker:
        w.controller.load_corpus(str(path))
    return blocker.args[0]


def check_consistent(c) -> None:
    """The controller's view of the merges matches the trainer exactly."""
    t = c._trainer
    assert t is not None
    assert [m.pair for m in c.index.merges] == list(t.merges)
    assert len(c.records) == len(t.merges)
    assert [r.pair for r in c.records] == list(t.merges)
    assert c.index.vocab == t.vocab
    assert c.vocab_size == t.vocab_size
