"""The offer to reopen the last session names what the user gets back: for an extension (training
continued from an imported tokenizer) the base it continued from, and its new merges apart."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from bpe_gui import settings

from .gui_helpers import import_tokenizer
from .test_continue_training import OTHER, base_files, continue_on


def _answer_offer(button_text: str, seen: list) -> None:
    """Click ``button_text`` in the next message box, keeping its text and informative text."""

    def poll() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(10, poll)
            return
        seen.append((box.text(), box.informativeText()))
        for b in box.buttons():
            if b.text().replace("&", "") == button_text:
                b.click()
                return

    QTimer.singleShot(0, poll)


def test_the_reopen_offer_names_the_base_of_an_extension_session(qtbot, window, tmp_path):
    w = window
    c = w.controller
    paths, spec = base_files(tmp_path)
    import_tokenizer(qtbot, c, paths)
    corpus = tmp_path / "other.txt"
    corpus.write_text(OTHER, encoding="utf-8")
    continue_on(qtbot, w, corpus)
    c.step(3)
    qtbot.waitUntil(lambda: not c.busy and c.index.n_merges == len(spec.merges) + 3, timeout=30_000)
    session = w.save_session(str(tmp_path / "ext.bpe.json"))
    assert session is not None

    described = w.session_description(str(session)).splitlines()
    n_base = len(spec.merges)
    assert described[0] == "Corpus: other.txt"
    assert described[1] == f"Continued from base/vocab.json ({n_base:,} merges)"
    assert described[2].startswith("New merges: 3")  # (not the base's and the new ones as one count)
    assert described[3].startswith("Saved: ")

    # the offer at start shows it
    w.settings.set(settings.LAST_SESSION, str(session))
    w.settings.set(settings.ASK_REOPEN, True)
    seen: list = []
    _answer_offer("Start with the sample", seen)
    assert not w.offer_last_session()
    assert seen and "Continued from base/vocab.json" in seen[0][1]


def test_a_session_trained_from_scratch_is_offered_as_before(qtbot, trained, tmp_path):
    w = trained
    session = w.save_session(str(tmp_path / "plain.bpe.json"))
    lines = w.session_description(str(session)).splitlines()
    assert lines[0] == "Corpus: small.txt" and lines[1].startswith(f"Merges: {w.controller.index.n_merges:,}")
    assert not any("Continued from" in line for line in lines)
