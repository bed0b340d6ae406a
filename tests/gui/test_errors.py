"""Core errors reach the user as a dialog with the message; the app keeps its state."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from .gui_helpers import check_consistent, load


def _dialogs(w) -> list[QMessageBox]:
    return [b for b in w.findChildren(QMessageBox) if b.isVisible()]


def _close_dialogs(w) -> None:
    for b in _dialogs(w):
        b.close()


def test_utf16_corpus_shows_dialog_and_keeps_state(qtbot, loaded, tmp_path):
    c = loaded.controller
    c.step(3)
    before = (c.corpus_path, c.engine.merges())
    bad = tmp_path / "utf16.txt"
    bad.write_bytes("hello world\n".encode("utf-16"))
    with qtbot.waitSignal(c.error, timeout=30_000) as blocker:
        c.load_corpus(str(bad))
    assert "UTF-16" in blocker.args[0]
    qtbot.waitUntil(lambda: not c.busy)
    boxes = _dialogs(loaded)
    assert boxes and "UTF-16" in boxes[0].text()
    assert (c.corpus_path, c.engine.merges()) == before
    check_consistent(c)
    _close_dialogs(loaded)


def test_missing_file_error(qtbot, loaded, tmp_path):
    c = loaded.controller
    with qtbot.waitSignal(c.error, timeout=30_000) as blocker:
        c.load_corpus(str(tmp_path / "nope.txt"))
    assert "does not exist" in blocker.args[0]
    qtbot.waitUntil(lambda: not c.busy)
    assert c.has_trainer
    _close_dialogs(loaded)


def test_vocab_size_too_small(qtbot, loaded):
    c = loaded.controller
    with qtbot.waitSignal(c.error) as blocker:
        c.train(100)
    assert "smaller than 256" in blocker.args[0]
    assert not c.busy and c.index.n_merges == 0
    assert loaded.last_error == blocker.args[0]
    _close_dialogs(loaded)


@pytest.mark.parametrize(
    "kwargs, needle",
    [
        ({"pattern": "(unclosed"}, "invalid pre-tokenizer regex"),
        ({"special_tokens": ["<a>", "<a>"]}, "listed twice"),
        ({"special_tokens": [""]}, "empty string"),
    ],
)
def test_bad_settings_are_rejected(qtbot, loaded, kwargs, needle):
    c = loaded.controller
    c.step(2)
    with qtbot.waitSignal(c.error) as blocker:
        assert c.set_options(**kwargs) is False
    assert needle in blocker.args[0]
    assert c.index.n_merges == 2 and not c.busy
    check_consistent(c)
    _close_dialogs(loaded)


def test_custom_pattern_via_panel_reloads(qtbot, loaded):
    tp = loaded.training_panel
    c = loaded.controller
    tp.pattern.setCurrentIndex(tp.pattern.findData("custom"))
    tp.custom.setText(r"\S+|\s+")
    assert tp.apply_button.isEnabled()
    with qtbot.waitSignal(c.corpus_loaded, timeout=30_000):
        qtbot.mouseClick(tp.apply_button, Qt.MouseButton.LeftButton)
    assert c.options.pattern == r"\S+|\s+"
    assert not tp.apply_button.isEnabled()


def test_special_tokens_with_spaces_via_panel(qtbot, loaded):
    tp = loaded.training_panel
    c = loaded.controller
    tp.specials.clear()
    qtbot.keyClicks(tp.specials, '<|endoftext|> "<|end of turn|>"')
    with qtbot.waitSignal(c.corpus_loaded, timeout=30_000):
        qtbot.mouseClick(tp.apply_button, Qt.MouseButton.LeftButton)
    assert c.options.special_tokens == ["<|endoftext|>", "<|end of turn|>"]
    assert c.index.vocab[257] == b"<|end of turn|>"
    c.step(3)
    merges = [m.pair for m in c.index.merges]
    # an unclosed quote is an error that changes nothing
    qtbot.keyClicks(tp.specials, ' "<|oops')
    assert tp.apply_button.isEnabled()
    with qtbot.waitSignal(tp.error) as blocker:  # the panel says it; the window shows it
        qtbot.mouseClick(tp.apply_button, Qt.MouseButton.LeftButton)
    assert "not closed" in blocker.args[0] and loaded.last_error == blocker.args[0]
    assert c.options.special_tokens == ["<|endoftext|>", "<|end of turn|>"]
    assert [m.pair for m in c.index.merges] == merges
    check_consistent(c)
    _close_dialogs(loaded)


def test_step_without_corpus_is_an_error(qtbot, window):
    c = window.controller
    with qtbot.waitSignal(c.error) as blocker:
        c.step()
    assert "no corpus" in blocker.args[0]
    _close_dialogs(window)


def test_busy_controller_refuses_conflicting_calls(qtbot, window, sample_corpus):
    load(qtbot, window, sample_corpus)
    c = window.controller
    errors = []
    c.error.connect(errors.append)
    with qtbot.waitSignal(c.trained, timeout=60_000):
        c.train(60_000)
        c.step()
        c.undo()
        c.train(400)
        c.load_corpus(str(sample_corpus))
        assert not window.act_step.isEnabled() and not window.act_open.isEnabled()
        assert window.act_cancel.isEnabled()
        c.cancel()
    assert len(errors) == 4
    check_consistent(c)
    _close_dialogs(window)


@pytest.mark.skipif(not hasattr(__import__("signal"), "SIGKILL"), reason="needs SIGKILL")
def test_engine_killed_during_a_session(qtbot, loaded, small_corpus):
    """The engine process dies (e.g. the OOM killer): a dialog says so, the merges stay visible,
    training is disabled until a corpus is opened again, and then everything works."""
    import os
    import signal

    c = loaded.controller
    c.step(4)
    shown = [m.pair for m in c.index.merges]
    proc = c.engine._proc
    os.kill(proc.pid, signal.SIGKILL)
    proc.join(10)
    with qtbot.waitSignal(c.error) as blocker:
        c.step()
    assert "stopped unexpectedly" in blocker.args[0]
    assert not c.has_trainer
    assert [m.pair for m in c.index.merges] == shown  # nothing the user saw is lost
    assert not loaded.training_panel.step_button.isEnabled()
    assert any("stopped unexpectedly" in b.text() for b in _dialogs(loaded))
    _close_dialogs(loaded)
    load(qtbot, loaded, small_corpus)  # a fresh engine process takes over
    c.step(2)
    check_consistent(c)


@pytest.mark.skipif(not hasattr(__import__("signal"), "SIGKILL"), reason="needs SIGKILL (POSIX)")
def test_engine_killed_during_a_run_says_so_in_the_status(qtbot, loaded):
    """Issue 13 §6: after an engine death the status line names it (not "no pair is left to merge";
    a load that loses its engine goes through the same Controller._lost)."""
    import os
    import signal

    c = loaded.controller
    messages: list[str] = []
    c.message.connect(messages.append)
    c.train(100_000)
    qtbot.waitUntil(lambda: bool(c.busy), timeout=10_000)
    os.kill(c.engine._proc.pid, signal.SIGKILL)
    with qtbot.waitSignal(c.error, timeout=30_000):
        pass
    qtbot.waitUntil(lambda: not c.busy, timeout=30_000)
    assert "training engine stopped" in messages[-1]
    assert not any("no pair is left" in m for m in messages)
    _close_dialogs(loaded)
