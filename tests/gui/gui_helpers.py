"""Helpers shared by the GUI tests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

#: a 1280×720 laptop's screen less a title bar and a task bar
LAPTOP_SIZE = (1280, 672)

SMALL_TEXT = (
    "the cat sat on the mat. the dog sat on the log. then the cat and the dog ran to the barn.\n"
    "A tokenizer learns merges: th + e -> the, and so on.<|endoftext|>"
    "Once there was a lighthouse keeper who kept the lamp burning every night.\n"
) * 20


def load(qtbot, w, path, timeout=60_000):
    with qtbot.waitSignal(w.controller.corpus_loaded, timeout=timeout) as blocker:
        w.controller.load_corpus(str(path))
    return blocker.args[0]


@contextmanager
def shown_window(qtbot, language: str | None = None, size: tuple[int, int] = LAPTOP_SIZE) -> Iterator:
    """A main window without the sample corpus, at ``size``, shown (in ``language``, English put back
    afterwards); its controller is shut down when the block ends without an error."""
    from bpe_gui import create_window
    from bpe_gui.text import i18n

    w = create_window(load_sample=False, language=language)
    try:
        qtbot.addWidget(w)
        w.resize(*size)
        w.show()
        qtbot.waitExposed(w)
        yield w
        w.controller.shutdown()
    finally:
        if language is not None:
            i18n.install("en")


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


def reimport_trained(qtbot, c, folder, merges: int = 300):
    """Train the loaded corpus to ``merges``, export it as tokenizer.json into ``folder`` and import
    that file: a tokenizer on show without a corpus (its counts are not known)."""
    with qtbot.waitSignal(c.trained, timeout=60_000):
        c.train(merges)
    c.export(folder, ["hf"])
    import_tokenizer(qtbot, c, folder / "tokenizer.json")
    qtbot.waitUntil(lambda: not c.busy)


def import_tokenizer(qtbot, c, path, timeout=30_000, **options):
    """Import a tokenizer file with the controller and wait until it is shown (the file is read in a
    worker); returns the LoadedTokenizer."""
    with qtbot.waitSignal(c.tokenizer_loaded, timeout=timeout) as blocker:
        assert c.import_tokenizer(path, **options)
    return blocker.args[0]
