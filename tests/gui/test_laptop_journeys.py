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


def test_a_bad_custom_regex_is_kept_and_checked_as_it_is_typed(qtbot, loaded):
    tp = loaded.training_panel
    before = loaded.controller.options.pattern
    tp.pattern.setCurrentIndex(tp.pattern.findData("custom"))
    tp.custom.setText(r"(\w+")
    assert tp.pattern_hint.isVisibleTo(tp)
    assert "Not a valid regular expression (missing )" in tp.pattern_hint.text()
    assert not tp.apply_button.isEnabled()
    # nothing was applied or reverted: the typed text and the choice stay for the user to fix
    assert tp.custom.text() == r"(\w+" and tp.pattern.currentData() == "custom"
    assert loaded.controller.options.pattern == before
    tp.custom.setText(r"\w+|\s+|[^\w\s]+")
    assert not tp.pattern_hint.isVisibleTo(tp) and tp.apply_button.isEnabled()
