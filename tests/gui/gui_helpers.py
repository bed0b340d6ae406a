"""Helpers shared by the GUI tests."""

from __future__ import annotations

SMALL_TEXT = (
    "the cat sat on the mat. the dog sat on the log. then the cat and the dog ran to the barn.\n"
    "A tokenizer learns merges: th + e -> the, and so on.<|endoftext|>"
    "Once there was a lighthouse keeper who kept the lamp burning every night.\n"
) * 20


def load(qtbot, w, path, timeout=60_000):
    with qtbot.waitSignal(w.controller.corpus_loaded, timeout=timeout) as blocker:
        w.controller.load_corpus(str(path))
    return blocker.args[0]


def check_consistent(c) -> None:
    """The controller's view of the merges matches the trainer (in the engine process) exactly."""
    assert c.has_trainer and not c.busy
    merges = c.engine.merges()
    assert [m.pair for m in c.index.merges] == merges
    assert len(c.records) == len(merges)
    assert [r.pair for r in c.records] == merges
    assert c.index.vocab == c.engine.vocab()
    assert c.vocab_size == c.engine.vocab_size()


def answer_next_dialog(button_text: str, check_box: bool = False, seen: list | None = None) -> None:
    """Click ``button_text`` in the next modal message box (shown with exec()) once it is up.

    ``check_box``: tick its "don't ask again" box first; ``seen`` gets the box's text.
    """
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    def poll() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(10, poll)
            return
        if seen is not None:
            seen.append(box.text())
        if check_box and box.checkBox() is not None:
            box.checkBox().setChecked(True)
        for b in box.buttons():
            if b.text().replace("&", "") == button_text:
                b.click()
                return
        raise AssertionError(f"no button {button_text!r} in {[b.text() for b in box.buttons()]}")

    QTimer.singleShot(0, poll)


def import_tokenizer(qtbot, c, path, timeout=30_000, **options):
    """Import a tokenizer file with the controller and wait until it is shown (the file is read in a
    worker); returns the LoadedTokenizer."""
    with qtbot.waitSignal(c.tokenizer_loaded, timeout=timeout) as blocker:
        assert c.import_tokenizer(path, **options)
    return blocker.args[0]
