"""Once a corpus is loaded, the training panel says how much memory training to the vocab size
needs, and warns when the machine has less free."""

from __future__ import annotations

import core.training.memory_need as memory_need
from core.training.memory_need import human, training_memory


def test_loaded_corpus_shows_the_memory_training_needs(qtbot, window, small_corpus, monkeypatch):
    from bpe_gui.views.training_panel import TrainingPanel

    panel = window.findChild(TrainingPanel)
    assert not panel.memory_need.isVisible()  # no corpus yet: nothing to estimate
    with qtbot.waitSignal(window.controller.corpus_loaded, timeout=60_000) as blocker:
        window.controller.load_corpus(str(small_corpus))
    stats = blocker.args[0]
    word_bytes = window.controller.model.distinct_bytes
    assert word_bytes and word_bytes >= stats.distinct_pretokens
    panel.vocab_size.setValue(2000)
    merges = 2000 - panel.minimum_vocab_size()
    need = training_memory(stats.distinct_pretokens, word_bytes, merges, history=True)
    assert panel.memory_need.isVisible() and not panel.memory_hint.isVisible()
    assert panel.memory_need.text() == f"≈ {human(need)}"
    tip = panel.memory_need.toolTip()
    assert f"needs about {human(need)} of memory" in tip and f"{stats.distinct_pretokens:,} distinct" in tip
    # a bigger vocab size needs more, said at once
    panel.vocab_size.setValue(50_000)
    more = training_memory(
        stats.distinct_pretokens, word_bytes, 50_000 - panel.minimum_vocab_size(), history=True
    )
    assert more > need and human(more) in panel.memory_need.text()
    # a machine with less free than training to 40,000 adds to what the loaded trainer holds:
    # a warning that says what to do
    d = stats.distinct_pretokens
    held = training_memory(d, word_bytes, 0, history=True)
    to_40k = training_memory(d, word_bytes, 40_000 - panel.minimum_vocab_size(), history=True)
    monkeypatch.setattr(memory_need, "available_memory", lambda: to_40k - held - 1)
    panel.vocab_size.setValue(40_000)
    text = panel.memory_hint.text()
    assert panel.memory_hint.isVisible()
    assert "this computer has" in text and "free" in text and "smaller vocab size" in text
    panel.vocab_size.setValue(2000)  # enough again: the warning goes
    assert not panel.memory_hint.isVisible()
