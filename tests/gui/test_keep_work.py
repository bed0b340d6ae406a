"""Never lose work: asking before merges are thrown away, sessions, rewind and reset, settings shown."""

from __future__ import annotations

import json
import os

import pytest
from PySide6.QtWidgets import QMessageBox

from bpe_gui.settings import ASK_DISCARD
from core import Trainer
from core.pretokenization.pretokenize import count_pretokens

from .gui_helpers import answer_next_dialog, check_consistent, load


def _trained(qtbot, w, n=30):
    c = w.controller
    c.step(n)
    qtbot.waitUntil(lambda: not c.busy and c.index.n_merges == n, timeout=30_000)
    return c


# ---------------------------------------------------------------------- rewind and reset
def test_rewind_to_a_merge_keeps_it_as_the_last_one(qtbot, loaded, small_corpus):
    c = _trained(qtbot, loaded, 30)
    pairs = [m.pair for m in c.index.merges]
    with qtbot.waitSignal(c.merges_removed) as removed:
        assert c.rewind_to(12)
    assert removed.args == [18]
    assert [m.pair for m in c.index.merges] == pairs[:12]
    check_consistent(c)
    assert "merge #12 is the last one" in loaded.training_panel.status.full_text
    assert "18 merges" in loaded.training_panel.status.full_text
    assert loaded.timeline.counts == [m.count for m in c.index.merges]
    c.step(1)  # training goes on from there exactly as a fresh trainer does
    expected = Trainer(
        count_pretokens(small_corpus, c.options.special_tokens)[0], c.options.special_tokens
    ).steps(13)
    assert [m.pair for m in c.index.merges] == [r.pair for r in expected]


def test_a_big_rewind_runs_in_the_worker(qtbot, loaded, monkeypatch):
    monkeypatch.setattr("bpe_gui.actions.session.REWIND_SYNC_WORDS", 0)
    c = _trained(qtbot, loaded, 20)
    pairs = [m.pair for m in c.index.merges]
    with qtbot.waitSignal(c.busy_changed) as busy:
        assert c.rewind_to(5)
    assert busy.args == ["rewind"] and not loaded.act_step.isEnabled()
    qtbot.waitUntil(lambda: not c.busy, timeout=30_000)
    assert [m.pair for m in c.index.merges] == pairs[:5]
    check_consistent(c)
    assert "merge #5 is the last one" in loaded.training_panel.status.full_text


def test_rewind_to_the_selected_merge_from_the_menu(qtbot, loaded):
    c = _trained(qtbot, loaded, 10)
    c.select_merge(3)  # merge #4 in the UI's numbering
    loaded.act_rewind.trigger()
    assert c.index.n_merges == 4
    check_consistent(c)


def test_reset_goes_back_to_no_merges_and_says_one_merge_right(qtbot, loaded):
    c = _trained(qtbot, loaded, 1)
    loaded.act_reset.trigger()
    assert c.index.n_merges == 0 and c.vocab_size == 257
    assert "undid all 1 merge;" in loaded.training_panel.status.full_text
    check_consistent(c)
    assert c.reset() is False and c.index.n_merges == 0  # nothing left to rewind
    assert loaded.act_reset.isEnabled()  # like every training action while a corpus is loaded


# ---------------------------------------------------------------------- asking before discarding
def test_opening_a_corpus_asks_and_cancel_keeps_the_merges(qtbot, loaded, small_corpus):
    c = _trained(qtbot, loaded, 5)
    seen: list = []
    answer_next_dialog("Cancel", seen=seen)
    assert not loaded.load_corpus_confirmed(str(small_corpus))
    assert "5 merges" in seen[0]
    assert c.index.n_merges == 5 and not c.busy


def test_dont_ask_again_is_remembered(qtbot, loaded, small_corpus):
    _trained(qtbot, loaded, 5)
    answer_next_dialog("Discard merges", check_box=True)
    with qtbot.waitSignal(loaded.controller.corpus_loaded, timeout=30_000):
        assert loaded.load_corpus_confirmed(str(small_corpus))
    assert loaded.settings.get(ASK_DISCARD) is False
    _trained(qtbot, loaded, 5)
    with qtbot.waitSignal(loaded.controller.corpus_loaded, timeout=30_000):  # no dialog this time
        assert loaded.load_corpus_confirmed(str(small_corpus))


def test_apply_settings_asks_and_keeps_the_edit_when_cancelled(qtbot, loaded):
    c = _trained(qtbot, loaded, 5)
    panel = loaded.training_panel
    panel.tie.setCurrentIndex(panel.tie.findData("first"))
    answer_next_dialog("Cancel")
    panel.apply()
    assert c.options.tie_break == "lexicographic" and c.index.n_merges == 5
    assert panel.apply_button.isEnabled()


def test_import_offers_to_save_the_session_first(qtbot, loaded, tmp_path, monkeypatch):
    c = _trained(qtbot, loaded, 6)
    c.export(tmp_path / "exp", ["native"])
    c.undo()  # (the 5 merges left are not the exported ones: they are not kept anywhere)
    qtbot.waitUntil(lambda: not c.busy and c.index.n_merges == 5)
    session = tmp_path / "kept.bpe.json"
    monkeypatch.setattr(
        "bpe_gui.window.sessions.QFileDialog.getSaveFileName", lambda *a, **k: (str(session), "")
    )
    answer_next_dialog("Save session first…")
    with qtbot.waitSignal(c.merges_reset):
        assert loaded.import_confirmed(str(tmp_path / "exp" / "bpe.json"))
    assert session.is_file() and len(json.loads(session.read_text())["merges"]) == 5


# ---------------------------------------------------------------------- sessions
def test_session_round_trip_with_the_same_corpus(qtbot, loaded, small_corpus, tmp_path):
    c = _trained(qtbot, loaded, 25)
    loaded.training_panel.vocab_size.setValue(777)
    loaded.tokenize.set_text("saved text")
    pairs = [m.pair for m in c.index.merges]
    counts = [m.count for m in c.index.merges]
    stories = [(r.n_ties, r.ties) for r in c.records]
    assert any(n for n, _ in stories)  # (the small corpus has ties: the check below can fail)
    path = loaded.save_session(str(tmp_path / "s.bpe.json"))
    assert path is not None

    from bpe_gui import create_window

    w2 = create_window(load_sample=False)
    qtbot.addWidget(w2)
    c2 = w2.controller
    with qtbot.waitSignal(c2.trained, timeout=60_000):
        assert w2.open_session(str(path))
    assert [m.pair for m in c2.index.merges] == pairs
    assert [m.count for m in c2.index.merges] == counts
    # the replayed merges tell the same story ("won a tie of 3 pairs", not "most frequent")
    assert [(r.n_ties, r.ties) for r in c2.records] == stories
    assert c2.has_trainer and c2.corpus_path == str(small_corpus.resolve())
    check_consistent(c2)
    assert w2.training_panel.vocab_size.value() == 777
    assert w2.tokenize.input.toPlainText() == "saved text"
    assert "25 merges replayed" in w2.training_panel.status.full_text
    c2.shutdown()


def test_session_whose_corpus_changed_shows_the_saved_tokenizer(qtbot, loaded, small_corpus, tmp_path):
    c = _trained(qtbot, loaded, 10)
    pairs = [m.pair for m in c.index.merges]
    path = loaded.save_session(str(tmp_path / "s.bpe.json"))
    small_corpus.write_text(small_corpus.read_text() + "more text", encoding="utf-8")
    # (the merges on show are in the session file just saved: no question)
    with qtbot.waitSignal(c.session_opened):
        assert loaded.open_session(str(path))
    assert not c.has_trainer
    assert [m.pair for m in c.index.merges] == pairs
    assert "changed since the session was saved" in loaded.training_panel.status.full_text
    assert loaded.timeline.counts[0] > 0  # the saved timeline is shown


def test_closing_keeps_the_merges_and_the_next_start_offers_them(qtbot, loaded, tmp_path):
    _trained(qtbot, loaded, 7)
    loaded.close()
    last = loaded.autosave_path()
    assert last.is_file() and os.environ["BPE_EXPLORER_SETTINGS"]
    from bpe_gui import create_window

    w2 = create_window(load_sample=False)
    qtbot.addWidget(w2)
    answer_next_dialog("Reopen")
    with qtbot.waitSignal(w2.controller.trained, timeout=60_000):
        assert w2.offer_last_session()
    assert w2.controller.index.n_merges == 7
    w2.controller.shutdown()


def test_the_selected_merge_comes_back_with_the_session(qtbot, loaded, small_corpus, tmp_path):
    """A session (saved, or kept on closing) reopened with every merge but none selected: the merge
    the user was looking at (timeline mark, merge tree, details) was lost."""
    c = _trained(qtbot, loaded, 12)
    c.select_merge(4)
    loaded.close()
    from bpe_gui import create_window

    w2 = create_window(load_sample=False)
    qtbot.addWidget(w2)
    c2 = w2.controller
    answer_next_dialog("Reopen")
    with qtbot.waitSignal(c2.merge_selected, timeout=60_000) as picked:
        assert w2.offer_last_session()
    qtbot.waitUntil(lambda: not c2.busy, timeout=30_000)
    assert picked.args == [4] and c2.selected_merge == 4 and c2.index.n_merges == 12
    # its corpus changed: the saved tokenizer is shown at once, the same merge selected in it
    path = w2.save_session(str(tmp_path / "s.bpe.json"))
    c2.select_merge(0)
    small_corpus.write_text(small_corpus.read_text() + "more text", encoding="utf-8")
    with qtbot.waitSignal(c2.session_opened):
        assert w2.open_session(str(path))
    qtbot.waitUntil(lambda: not c2.busy, timeout=30_000)
    assert not c2.has_trainer and c2.selected_merge == 4
    c2.shutdown()


# ---------------------------------------------------------------------- the settings in effect
def test_failed_apply_shows_the_settings_in_effect_again(qtbot, loaded):
    panel = loaded.training_panel
    panel.specials.setText("<|endoftext|> <|endoftext|>")  # (a bad regex is kept as typed instead)
    with qtbot.waitSignal(loaded.controller.error):
        panel.apply()
    assert panel.specials.text() == "<|endoftext|>"
    assert not panel.apply_button.isEnabled()
    for b in loaded.findChildren(QMessageBox):
        b.close()


def test_vocab_size_below_the_minimum_is_kept_and_explained(qtbot, loaded):
    panel = loaded.training_panel
    panel.vocab_size.setValue(100)
    assert panel.vocab_size.value() == 100  # not silently changed
    assert panel.vocab_hint.isVisible()
    assert "At least 257" in panel.vocab_hint.text() and "1 special token." in panel.vocab_hint.text()
    assert not loaded.act_train.isEnabled()  # Train waits for a size it can reach (issue 28)


def test_import_says_what_the_imported_tokenizer_uses(qtbot, loaded, small_corpus, tmp_path):
    c = _trained(qtbot, loaded, 5)
    c.export(tmp_path, ["native"])  # (the merges are kept in bpe.json: no question)
    with qtbot.waitSignal(c.merges_reset):
        loaded.import_confirmed(str(tmp_path / "bpe.json"))
    note = loaded.training_panel.imported_note
    assert note.isVisible()
    assert "Imported tokenizer (bpe.json): pattern GPT-2" in note.text() and "<|endoftext|>" in note.text()
    load(qtbot, loaded, small_corpus)
    assert not note.isVisible()


def test_rewind_to_here_menu_on_a_merge(qtbot, loaded):
    from bpe_gui.views.widgets import rewind_menu

    c = _trained(qtbot, loaded, 8)
    menu = rewind_menu(loaded, c, 2)  # the third merge
    (act,) = menu.actions()
    assert "merge #3" in act.text() and act.isEnabled()
    act.trigger()
    assert c.index.n_merges == 3
    last = rewind_menu(loaded, c, 2).actions()[0]
    assert not last.isEnabled()  # already the last merge


def test_dropping_a_session_file_reopens_it(qtbot, loaded, tmp_path):
    c = _trained(qtbot, loaded, 6)
    path = loaded.save_session(str(tmp_path / "mine.bpe.json"))
    c.reset()
    with qtbot.waitSignal(c.trained, timeout=60_000):
        loaded.open_path(str(path))
    assert c.index.n_merges == 6 and c.has_trainer


def test_the_discard_question_is_asked_in_chinese_with_its_count(qtbot, loaded):
    from bpe_gui.text import i18n

    _trained(qtbot, loaded, 5)
    seen: list[str] = []
    try:
        i18n.install("zh_CN")
        answer_next_dialog("取消", seen=seen)
        assert not loaded.confirm_discard("导入 x.json")
    finally:
        i18n.install("en")
    assert seen and "导入 x.json" in seen[0] and "5" in seen[0] and "throws away" not in seen[0]


@pytest.mark.parametrize("kind", ["corpus", "continue", "import"])
def test_a_file_that_cannot_be_opened_is_refused_before_the_discard_question(
    qtbot, trained, tmp_path, monkeypatch, kind
):
    """Opening c.gz asked whether to throw the trained merges away, then refused the file."""
    import gzip

    w, c = trained, trained.controller
    asked: list[str] = []
    monkeypatch.setattr(w, "confirm_discard", lambda what: asked.append(what) or False)
    errors: list[str] = []
    c.error.connect(errors.append)
    path = tmp_path / "c.txt.gz"
    path.write_bytes(gzip.compress(b"the cat sat on the mat\n" * 10))
    n = c.index.n_merges
    opened = {
        "corpus": w.load_corpus_confirmed,
        "continue": w.continue_training_confirmed,
        "import": w.import_confirmed,
    }[kind](str(path))
    assert opened is False and asked == [] and "gzip" in errors[-1]
    assert c.index.n_merges == n and not c.busy
    # a file that can be opened still asks first
    ok = tmp_path / "ok.txt"
    ok.write_text("the cat sat on the mat\n", encoding="utf-8")
    if kind == "corpus":
        assert w.load_corpus_confirmed(str(ok)) is False and len(asked) == 1


def test_merges_just_saved_or_exported_are_left_without_a_question(qtbot, trained, tmp_path, monkeypatch):
    """Reopening the session just saved said it 'throws away the 20 merges'."""
    w, c = trained, trained.controller
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "exec", lambda box: asked.append(box.text()) or 0)
    assert w.save_session(str(tmp_path / "s.bpe.json")) is not None
    assert w.confirm_discard("Opening x") is True and asked == []
    c.step(1)
    qtbot.waitUntil(lambda: not c.busy)
    assert w.confirm_discard("Opening x") is False and len(asked) == 1  # (a new merge: not kept)
    assert c.export(tmp_path / "out", ["native"])
    assert w.confirm_discard("Opening x") is True and len(asked) == 1


def test_a_session_just_reopened_is_left_without_a_question(qtbot, loaded, tmp_path, monkeypatch):
    """Importing right after reopening an unchanged session asked 'Discard the trained merges?'."""
    w, c = loaded, loaded.controller
    _trained(qtbot, w, 6)
    path = w.save_session(str(tmp_path / "s.bpe.json"))
    c.step(1)
    qtbot.waitUntil(lambda: not c.busy)
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "exec", lambda box: asked.append(box.text()) or 0)
    c.model.kept_version = c.model.version  # (so that opening the session asks nothing here)
    with qtbot.waitSignal(c.trained, timeout=60_000):
        assert w.open_session(str(path))
    qtbot.waitUntil(lambda: not c.busy)
    assert c.index.n_merges == 6 and w.confirm_discard("Importing x") is True and asked == []


def test_the_last_session_is_kept_beside_the_settings_whatever_the_application_is_called(
    qtbot, monkeypatch, tmp_path
):
    # (it went to Qt's data folder of the running QApplication: a script called grab.py kept it in
    # ~/.local/share/grab.py/, and the settings the app shares then offered the app that file)
    from PySide6.QtCore import QCoreApplication, QSettings, QStandardPaths

    from bpe_gui.settings import autosave_path, qsettings

    monkeypatch.delenv("BPE_EXPLORER_SETTINGS")
    fmt, scope = QSettings.Format.IniFormat, QSettings.Scope.UserScope
    QSettings.setPath(fmt, scope, str(tmp_path))
    app = QCoreApplication.instance()
    name = app.applicationName()
    try:
        app.setApplicationName("grab.py")
        assert autosave_path() == tmp_path / "bpe-explorer" / "last.bpe.json"
        assert str(autosave_path().parent) == os.path.dirname(qsettings().fileName())
    finally:
        app.setApplicationName(name)
        QSettings.setPath(
            fmt, scope, QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericConfigLocation)
        )
