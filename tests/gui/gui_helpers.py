"""Helpers shared by the GUI tests."""
from __future__ import annotations


def load(qtbot, w, path, timeout=60_000):
    with qtbot.waitSignal(w.controller.corpus_loaded, timeout=timeout) as blocker:
        w.controller.load_corpus(str(path))
    return blocker.args[0]


def check_consistent(c) -> None:
    """The controller's view of the merges matches the trainer (in the engine process) exactly."""
    assert c.has_trainer and not c.busy
    merges = c.engine.call("merges")
    assert [m.pair for m in c.index.merges] == merges
    assert len(c.records) == len(merges)
    assert [r.pair for r in c.records] == merges
    assert c.index.vocab == c.engine.call("vocab")
    assert c.vocab_size == c.engine.call("vocab_size")
