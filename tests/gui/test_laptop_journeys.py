"""A new user's journeys on a laptop (issue 28's minor items): settings checked inline, files forgiven."""

from __future__ import annotations

import pytest

from bpe_gui.text import i18n

from .gui_helpers import load


@pytest.fixture
def chinese_window(qtbot):
    from bpe_gui import create_window

    w = create_window(load_sample=False, language="zh_CN")
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    yield w
    i18n.install("en")


def test_a_vocab_size_below_the_minimum_disables_train_and_says_why(qtbot, loaded):
    tp = loaded.training_panel
    tp.vocab_size.setValue(100)
    assert not tp.train_button.isEnabled() and not loaded.act_train.isEnabled()
    assert tp.vocab_hint.isVisibleTo(tp)
    hint = tp.vocab_hint.text()
    assert "257" in hint and "(s)" not in hint and "vocab_size" not in hint, hint
    tp.vocab_size.setValue(300)
    assert tp.train_button.isEnabled() and loaded.act_train.isEnabled()
    assert not tp.vocab_hint.isVisibleTo(tp)


def test_the_vocab_size_reason_is_in_the_users_language(qtbot, chinese_window, small_corpus):
    load(qtbot, chinese_window, small_corpus)
    tp = chinese_window.training_panel
    tp.vocab_size.setValue(100)
    assert not tp.train_button.isEnabled()
    hint = tp.vocab_hint.text()
    assert "257" in hint and "太小" in hint and "token" not in hint, hint
