"""The app's side of the pattern checks (tests/core/test_pattern_checks.py): the custom regex field
refuses a regex that can match the empty string as it is typed, and the Export dialog names what a
tiktoken file of a pattern that does not match all text would lose, writing it only when asked."""

from __future__ import annotations

import pytest

from bpe_gui.text import i18n

from .gui_helpers import answer_next_dialog, load

EMPTY_MATCHING = r"\p{L}*|\s+|\d"
GAPPY = r"\p{L}+"


def _type_custom(window, text: str) -> None:
    tp = window.training_panel
    tp.pattern.setCurrentIndex(tp.pattern.findData("custom"))
    tp.custom.setText(text)


def test_a_regex_that_can_match_empty_is_refused_as_it_is_typed(qtbot, window):
    tp = window.training_panel
    before = window.controller.options.pattern
    _type_custom(window, EMPTY_MATCHING)
    assert tp.pattern_hint.isVisibleTo(tp) and not tp.apply_button.isEnabled()
    hint = tp.pattern_hint.text()
    assert "can match the empty string" in hint and "+ instead of *" in hint, hint
    tp.apply()  # (refused: the settings in effect stay)
    assert window.controller.options.pattern == before
    tp.custom.setText(EMPTY_MATCHING.replace("*", "+"))
    assert not tp.pattern_hint.isVisibleTo(tp) and tp.apply_button.isEnabled()
    tp.apply()
    assert window.controller.options.pattern == r"\p{L}+|\s+|\d"


def test_the_refusal_is_in_chinese_in_the_chinese_app(qtbot, chinese_window):
    tp = chinese_window.training_panel
    _type_custom(chinese_window, EMPTY_MATCHING)
    assert "能匹配空字符串" in tp.pattern_hint.text() and "用 + 代替 *" in tp.pattern_hint.text()


def test_the_core_refusals_are_said_in_chinese(qapp):
    from bpe_gui.dialogs.export_dialog import lossy_export_text
    from bpe_gui.text.errors import error_text
    from core.errors import BPEError
    from core.formats.losses import pattern_loss_error, tiktoken_pattern_losses
    from core.pretokenization.pattern_probe import check_training_pattern

    with pytest.raises(BPEError) as e:
        check_training_pattern(EMPTY_MATCHING)
    try:
        i18n.install("zh_CN")
        assert "能匹配空字符串" in error_text(e.value) and repr(EMPTY_MATCHING) in error_text(e.value)
        gaps = error_text(pattern_loss_error(GAPPY))
        assert "不能匹配所有文本" in gaps and "tiktoken 会丢掉" in gaps and "','" in gaps, gaps
        empty = error_text(pattern_loss_error(EMPTY_MATCHING))
        assert "它能匹配空字符串" in empty and "tiktoken 在出现空匹配的文本上会出错" in empty, empty
        text = lossy_export_text({"tiktoken": tiktoken_pattern_losses(GAPPY)})
        assert "预分词模式匹配不到的文本" in text and "tiktoken 会把它丢掉" in text, text
        assert "the text the pattern" not in text
    finally:
        i18n.install("en")


def _trained_with_gaps(qtbot, window, small_corpus):
    """The window's controller after training 300 merges with a pattern that leaves text uncovered."""
    c = window.controller
    _type_custom(window, GAPPY)
    window.training_panel.apply()
    load(qtbot, window, small_corpus)
    with qtbot.waitSignal(c.trained, timeout=60_000):
        c.train(300)
    return c


def test_what_tiktoken_loses_of_a_trained_tokenizer_is_named(qtbot, window, small_corpus):
    """The losses of a trained (not imported) tokenizer are named too: before, only an imported
    pipeline's were, and the tiktoken file dropped spaces and punctuation without a word."""
    from bpe_gui.model import files

    c = _trained_with_gaps(qtbot, window, small_corpus)
    lost = c.export_losses(["gpt2", "hf", "tiktoken", "native"])
    assert list(lost) == ["gpt2", "tiktoken"]
    assert lost["tiktoken"][0].startswith("the text the pattern does not match (")
    assert files.export_losses(c.model.tokenizer(), ["hf", "native"]) == {}


@pytest.mark.parametrize("answer", ["Export anyway", "Cancel"])
def test_the_export_dialog_says_what_tiktoken_would_lose_and_asks(
    qtbot, window, small_corpus, tmp_path, monkeypatch, answer
):
    from bpe_gui.window import files as window_module

    _trained_with_gaps(qtbot, window, small_corpus)
    folder = tmp_path / "exported"
    monkeypatch.setattr(window_module.ExportDialog, "exec", lambda self: 1)
    monkeypatch.setattr(window_module.ExportDialog, "chosen_folder", lambda self: folder)
    monkeypatch.setattr(window_module.ExportDialog, "formats", lambda self: ["hf", "tiktoken"])
    seen: list[str] = []
    answer_next_dialog(answer, seen=seen)
    assert window.export_dialog() is (answer == "Export anyway")
    assert "tiktoken (bpe.tiktoken): the text the pattern does not match" in seen[0], seen[0]
    assert "tiktoken drops it" in seen[0]
    names = sorted(p.name for p in folder.iterdir()) if folder.exists() else []
    want = [".bpe-explorer-export.json", "bpe.tiktoken", "tokenizer.json"]
    assert names == (want if answer == "Export anyway" else [])
