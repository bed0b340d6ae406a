"""Seams around extending a tokenizer and training to a vocab size, found by an outside tester: the
Extend dialog starts fresh for a new tokenizer, takes a new folder, says why a SentencePiece model
cannot be extended; Train below the vocab on show says why; Reset and Undo say and do what they can
at the base of an extension; an extension's name says it is one."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from bpe_gui.dialogs.extend_dialog import ExtendDialog

from .gui_helpers import import_tokenizer
from .test_continue_training import OTHER, base_files, continue_on

SP_MODEL = Path(str(resources.files("mistral_common") / "data" / "tokenizer.model.v1"))


def _corpus(tmp_path) -> Path:
    corpus = tmp_path / "code_train.txt"
    corpus.write_text(OTHER, encoding="utf-8")
    return corpus


def _extend(qtbot, w, tmp_path) -> ExtendDialog:
    w.act_extend.trigger()
    dlg = w.findChild(ExtendDialog)
    dlg.set_corpus(str(_corpus(tmp_path)))
    dlg.set_out(str(tmp_path / "ext"))
    dlg.vocab_size.setValue(len(w.controller.index.vocab) + 20)
    with qtbot.waitSignal(dlg.finished_extend, timeout=60_000):
        assert dlg.run()
    assert dlg.outcome is not None and dlg.open_button.isEnabled()
    return dlg


def test_extend_dialog_starts_fresh_for_another_tokenizer(qtbot, trained, tmp_path):
    w = trained
    c = w.controller
    dlg = _extend(qtbot, w, tmp_path)
    dlg.close()
    paths, spec = base_files(tmp_path)
    import_tokenizer(qtbot, c, paths)
    w.act_extend.trigger()
    assert w.findChild(ExtendDialog) is dlg
    assert dlg.vocab_size.value() == len(spec.vocab) + 1000
    assert dlg.summary.text() == "" and dlg.outcome is None
    assert not dlg.open_button.isEnabled()
    dlg.close()


def test_extend_dialog_keeps_its_result_for_the_same_tokenizer(qtbot, trained, tmp_path):
    w = trained
    dlg = _extend(qtbot, w, tmp_path)
    size = dlg.vocab_size.value()
    dlg.close()
    w.act_extend.trigger()
    assert dlg.outcome is not None and dlg.open_button.isEnabled() and dlg.summary.text()
    assert dlg.vocab_size.value() == size
    dlg.close()


def test_sentencepiece_model_cannot_be_extended_and_says_why_up_front(qtbot, window, tmp_path):
    w = window
    c = w.controller
    import_tokenizer(qtbot, c, SP_MODEL)
    assert not w.act_continue.isEnabled()
    assert "SentencePiece" in w.act_continue.toolTip() and "SentencePiece" in w.act_continue.statusTip()
    w.act_extend.trigger()
    dlg = w.findChild(ExtendDialog)
    dlg.set_corpus(str(_corpus(tmp_path)))
    dlg.set_out(str(tmp_path / "ext"))
    assert not dlg.run_button.isEnabled()
    assert dlg.note.isVisibleTo(dlg) and "SentencePiece" in dlg.note.text()
    assert not dlg.run()
    dlg.close()
    # a byte-level tokenizer afterwards: both are offered again, with their usual words
    paths, _spec = base_files(tmp_path)
    import_tokenizer(qtbot, c, paths)
    assert w.act_continue.isEnabled() and "SentencePiece" not in w.act_continue.statusTip()
    w.act_extend.trigger()
    assert dlg.run_button.isEnabled() and not dlg.note.isVisibleTo(dlg)
    dlg.close()


def test_extend_dialog_writes_to_a_new_folder_typed_in(qtbot, trained, tmp_path):
    w = trained
    w.act_extend.trigger()
    dlg = w.findChild(ExtendDialog)
    dlg.set_corpus(str(_corpus(tmp_path)))
    new = tmp_path / "not" / "yet"
    dlg.out_edit.setText(str(new))
    assert dlg.out == str(new) and dlg.run_button.isEnabled()
    dlg.vocab_size.setValue(len(w.controller.index.vocab) + 10)
    with qtbot.waitSignal(dlg.finished_extend, timeout=60_000):
        assert dlg.run()
    assert dlg.last_error is None and (new / "bpe.json").is_file()
    dlg.out_edit.setText("  ")
    assert dlg.out is None and not dlg.run_button.isEnabled()
    dlg.close()


def test_train_below_the_vocab_on_show_says_why(qtbot, trained):
    w = trained
    c = w.controller
    tp = w.training_panel
    said: list = []
    c.message.connect(said.append)
    c.error.connect(said.append)
    n = len(c.index)
    tp.vocab_size.setValue(n - 10)
    w.act_train.trigger()  # at once, without a run: the panel's message line and the status bar say why
    assert not c.busy and len(c.index) == n
    assert said and f"{n:,}" in said[-1] and f"{n - 10:,}" in said[-1]
    assert f"{n:,}" in tp.status.full_text and f"{n:,}" in w.statusBar().currentMessage()


def test_extension_names_reset_undo_and_train_below(qtbot, window, tmp_path):
    w = window
    c = w.controller
    paths, _spec = base_files(tmp_path)
    import_tokenizer(qtbot, c, paths)
    assert "0 merges" in w.act_reset.text().replace("&", "")
    continue_on(qtbot, w, _corpus(tmp_path))
    # the name says it is an extension: the tokenize pane and Evaluate's "Add current" show it
    assert c.source_name == "base/vocab.json + code_train.txt"
    qtbot.waitUntil(
        lambda: "base/vocab.json + code_train.txt" in w.tokenize.primary.title.text(), timeout=10_000
    )
    w.evaluate.add_current()
    assert w.evaluate.toks[-1].name.startswith("base/vocab.json + code_train.txt @ ")
    # Reset goes back to the base; Undo has nothing to take back at the base
    assert "base tokenizer" in w.act_reset.text().replace("&", "")
    assert not w.act_undo.isEnabled() and not w.training_panel.undo_button.isEnabled()
    c.step(2)
    assert w.act_undo.isEnabled() and w.training_panel.undo_button.isEnabled()
    c.undo()
    assert w.act_undo.isEnabled()
    c.undo()
    assert not w.act_undo.isEnabled() and not w.training_panel.undo_button.isEnabled()
    # a target between the base and the vocab on show: Train says why nothing happens
    c.step(3)
    n = len(c.index)
    said: list = []
    c.message.connect(said.append)
    c.error.connect(said.append)
    w.training_panel.vocab_size.setValue(n - 1)
    w.act_train.trigger()
    assert not c.busy and len(c.index) == n and said and f"{n:,}" in said[-1]


def test_undo_disabled_at_zero_merges(qtbot, loaded):
    w = loaded
    c = w.controller
    assert c.index.n_merges == 0
    assert not w.act_undo.isEnabled() and not w.training_panel.undo_button.isEnabled()
    c.step(1)
    assert w.act_undo.isEnabled() and w.training_panel.undo_button.isEnabled()
    c.reset()
    assert not w.act_undo.isEnabled()
