"""Paths opened other than by File → Import: a dropped tiktoken file asks what File → Import asks, and
a session whose corpus is gone has its saved tokenizer built in the import worker."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent


def _drop(window, path) -> None:
    """Drop ``path`` on the window as a file manager does."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    event = QDropEvent(
        QPointF(10, 10),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    window.dropEvent(event)


@pytest.fixture
def unknown_tiktoken(tmp_path):
    from core.formats import save_tiktoken
    from core.formats.spec import TokenizerSpec

    return save_tiktoken(TokenizerSpec.from_merges([(b"a", b"b")]), tmp_path / "x.tiktoken")


def test_a_dropped_unknown_tiktoken_file_asks_for_its_pattern_and_special_ids(
    qtbot, window, unknown_tiktoken, monkeypatch
):
    from bpe_gui.dialogs import import_ask

    asked = []

    def answer(dlg):
        asked.append(dlg.windowTitle())
        dlg.pattern.setCurrentText("gpt4")
        dlg.specials.setText("<|end|>=1000")
        dlg._check()
        return dlg.result()

    monkeypatch.setattr(import_ask.TiktokenOptionsDialog, "exec", answer)
    c = window.controller
    with qtbot.waitSignal(c.tokenizer_loaded, timeout=30_000):
        _drop(window, unknown_tiktoken)
    assert asked == ["Import x.tiktoken"]
    tok = c.tokenizer()
    assert tok.encode("ab<|end|>") == [256, 1000] and tok.pattern == "gpt4"


def test_cancelling_the_question_for_a_dropped_tiktoken_file_imports_nothing(
    qtbot, window, unknown_tiktoken, monkeypatch
):
    from bpe_gui.dialogs import import_ask

    asked = []
    monkeypatch.setattr(import_ask.TiktokenOptionsDialog, "exec", lambda dlg: asked.append(1) or 0)
    c = window.controller
    before = dict(c.index.vocab)
    _drop(window, unknown_tiktoken)
    assert asked == [1] and not c.busy and c.index.vocab == before and c.source_name != "x.tiktoken"


def test_a_dropped_tokenizer_json_is_imported_without_a_question(qtbot, window, tmp_path, monkeypatch):
    from bpe_gui.dialogs import import_ask
    from core.formats import save_hf
    from core.formats.spec import TokenizerSpec

    path = save_hf(TokenizerSpec.from_merges([(b"a", b"b")]), tmp_path / "tokenizer.json")

    def never(dlg):
        raise AssertionError("a tokenizer.json stores its pattern: nothing to ask")

    monkeypatch.setattr(import_ask.TiktokenOptionsDialog, "exec", never)
    with qtbot.waitSignal(window.controller.tokenizer_loaded, timeout=30_000):
        _drop(window, path)
    assert window.controller.index.n_merges == 1


def test_a_session_whose_corpus_is_gone_builds_its_tokenizer_in_the_worker(
    qtbot, loaded, small_corpus, tmp_path, monkeypatch
):
    from bpe_gui.actions import files as file_actions

    c = loaded.controller
    c.step(12)
    qtbot.waitUntil(lambda: not c.busy and c.index.n_merges == 12, timeout=30_000)
    pairs = [m.pair for m in c.index.merges]
    text = "the cat sat on the mat"
    want = c.tokenizer().encode(text)
    path = loaded.save_session(str(tmp_path / "s.bpe.json"))
    small_corpus.unlink()

    real = file_actions.Tokenizer.from_spec
    built_in, release = [], threading.Event()

    def held(spec):
        built_in.append(threading.current_thread())
        release.wait(30)
        return real(spec)

    monkeypatch.setattr(file_actions.Tokenizer, "from_spec", staticmethod(held))
    from bpe_gui import create_window

    w2 = create_window(load_sample=False)
    qtbot.addWidget(w2)
    c2 = w2.controller
    messages = []
    c2.message.connect(messages.append)
    opened = []
    c2.session_opened.connect(opened.append)
    assert c2.open_session(str(path)) is not None
    # the call returned while the tokenizer is built in the worker: busy, nothing shown yet
    assert c2.busy == "import" and c2.index.n_merges == 0 and not opened
    qtbot.waitUntil(lambda: bool(built_in))
    assert built_in[0] is not threading.main_thread()
    with qtbot.waitSignal(c2.session_opened, timeout=30_000):
        release.set()
    assert not c2.busy and not c2.has_trainer and [m.pair for m in c2.index.merges] == pairs
    assert c2.tokenizer().encode(text) == want
    assert "is gone" in messages[-1] and "showing the saved tokenizer" in messages[-1]
    assert w2.timeline.counts[0] > 0  # the saved timeline (the session keeps the counts)
    c2.shutdown()


def _open_corpus_picking(window, monkeypatch, path) -> None:
    """File → Open corpus… with ``path`` picked in the file dialog."""
    from bpe_gui.window import files as window_files

    monkeypatch.setattr(window_files.QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    window.open_corpus_dialog()


@pytest.fixture
def exported(tmp_path):
    from core.formats import export_all
    from core.formats.spec import TokenizerSpec

    export_all(tmp_path / "out", TokenizerSpec.from_merges([(b"a", b"b"), (b"ab", b"c")]), ["hf", "gpt2"])
    return tmp_path / "out"


def test_a_tokenizer_picked_as_a_corpus_is_imported_when_the_user_says_so(
    qtbot, window, exported, monkeypatch
):
    # (an exported tokenizer.json picked with File → Open corpus… was read as a text to train on)
    from .gui_helpers import answer_next_dialog

    c = window.controller
    seen: list[str] = []
    answer_next_dialog("Import tokenizer", seen=seen)
    with qtbot.waitSignal(c.tokenizer_loaded, timeout=30_000):
        _open_corpus_picking(window, monkeypatch, exported / "tokenizer.json")
    assert seen == ["tokenizer.json looks like a tokenizer file, not a text to train on."]
    assert c.index.n_merges == 2 and not c.has_trainer and c.source_name == "tokenizer.json"


def test_a_tokenizer_picked_as_a_corpus_can_still_be_read_as_text_or_left(
    qtbot, window, exported, monkeypatch
):
    from .gui_helpers import answer_next_dialog

    c = window.controller
    answer_next_dialog("Cancel")
    _open_corpus_picking(window, monkeypatch, exported / "vocab.json")
    assert not c.busy and c.source_name != "vocab.json"
    answer_next_dialog("Open as corpus")
    with qtbot.waitSignal(c.corpus_loaded, timeout=30_000):
        _open_corpus_picking(window, monkeypatch, exported / "vocab.json")
    assert c.corpus_path is not None and c.corpus_path.endswith("vocab.json")


def test_a_text_file_picked_as_a_corpus_is_opened_without_a_question(qtbot, window, tmp_path, monkeypatch):
    corpus = tmp_path / "notes.txt"
    corpus.write_text("the cat sat on the mat\n" * 20, encoding="utf-8")
    with qtbot.waitSignal(window.controller.corpus_loaded, timeout=30_000):
        _open_corpus_picking(window, monkeypatch, corpus)  # (a question would wait here for ever)
    assert window.controller.corpus_path.endswith("notes.txt")
