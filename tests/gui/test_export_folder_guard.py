"""Exporting from the app never replaces another tokenizer's files without asking; a SentencePiece
model's "Export anyway" writes the formats that hold it and names the others (it wrote nothing); the
chosen folder is remembered also when the export fails."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from bpe_gui import settings

from .gui_helpers import answer_next_dialog, import_tokenizer

MODEL = Path(str(resources.files("mistral_common") / "data" / "tokenizer.model.v1"))


def _dialog_answers(monkeypatch, folder: Path, formats: list[str]) -> None:
    from bpe_gui.window import files as window_module

    monkeypatch.setattr(window_module.ExportDialog, "exec", lambda self: 1)
    monkeypatch.setattr(window_module.ExportDialog, "chosen_folder", lambda self: folder)
    monkeypatch.setattr(window_module.ExportDialog, "formats", lambda self: formats)


@pytest.mark.parametrize("answer", ["Replace", "Cancel"])
def test_export_asks_before_replacing_another_tokenizers_files(trained, tmp_path, monkeypatch, answer):
    folder = tmp_path / "gpt2"
    folder.mkdir()
    theirs = json.dumps({"x": 0})
    (folder / "vocab.json").write_text(theirs, encoding="utf-8")
    _dialog_answers(monkeypatch, folder, ["gpt2", "native"])
    seen: list[str] = []
    answer_next_dialog(answer, seen=seen)
    assert trained.export_dialog() is (answer == "Replace")
    assert "already holds vocab.json, which BPE Explorer did not write there" in seen[0]
    assert ((folder / "vocab.json").read_text(encoding="utf-8") == theirs) is (answer == "Cancel")
    assert (folder / "bpe.json").exists() is (answer == "Replace")
    # once written by the app, a second export replaces its own files without asking
    if answer == "Replace":
        assert trained.export_dialog() is True


def test_exporting_a_sentencepiece_model_writes_what_holds_it(qtbot, window, tmp_path, monkeypatch):
    c = window.controller
    import_tokenizer(qtbot, c, MODEL)
    folder = tmp_path / "sp"
    _dialog_answers(monkeypatch, folder, ["gpt2", "hf", "tiktoken", "native"])
    errors: list[str] = []
    c.error.connect(errors.append)
    answer_next_dialog("Export anyway")
    assert window.export_dialog() is True
    assert sorted(p.name for p in folder.iterdir() if not p.name.startswith(".")) == [
        "bpe.json",
        "tokenizer.json",
    ]
    assert "Not written: GPT-2 files (vocab.json + merges.txt), tiktoken (bpe.tiktoken)" in errors[-1]
    assert window.settings.get(settings.EXPORT_FOLDER) == str(folder)


def test_the_folder_is_remembered_when_the_export_fails(trained, tmp_path, monkeypatch):
    folder = tmp_path / "a-file"
    folder.write_text("not a folder", encoding="utf-8")
    _dialog_answers(monkeypatch, folder, ["native"])
    assert trained.export_dialog() is False
    assert trained.settings.get(settings.EXPORT_FOLDER) == str(folder)


def test_export_names_the_files_it_left_from_before(trained, tmp_path):
    c = trained.controller
    messages: list[str] = []
    c.message.connect(messages.append)
    assert c.export(tmp_path, ["gpt2", "native"])
    assert c.export(tmp_path, ["native"])
    assert any("also holds merges.txt, vocab.json from before, not written now" in m for m in messages)


def test_a_sentencepiece_model_is_not_offered_formats_that_cannot_hold_it(
    qtbot, window, tmp_path, monkeypatch
):
    """It offered all four, asked 'Export anyway', then said GPT-2 and tiktoken were not written."""
    from bpe_gui.window import files as window_module

    c = window.controller
    import_tokenizer(qtbot, c, MODEL)
    unavailable = window._unavailable_formats()
    assert set(unavailable) == {"gpt2", "tiktoken"}
    dlg = window_module.ExportDialog(str(tmp_path / "sp"), window, unavailable)
    qtbot.addWidget(dlg)
    assert dlg.formats() == ["hf", "native"]
    assert not dlg.checks["gpt2"].isEnabled() and "SentencePiece" in dlg.checks["gpt2"].toolTip()
    monkeypatch.setattr(window_module.ExportDialog, "exec", lambda self: 1)
    monkeypatch.setattr(window_module.ExportDialog, "chosen_folder", lambda self: tmp_path / "sp")
    errors: list[str] = []
    c.error.connect(errors.append)
    assert window.export_dialog() is True  # (no question: nothing is lost)
    assert sorted(p.name for p in (tmp_path / "sp").iterdir() if not p.name.startswith(".")) == [
        "bpe.json",
        "tokenizer.json",
    ]
    assert errors == []


def test_a_byte_level_tokenizer_is_offered_every_format(trained):
    assert trained._unavailable_formats() == {}


def test_a_tokenizer_with_one_token_at_two_ids_is_not_offered_gpt2_files(
    qtbot, window, tmp_path, monkeypatch
):
    """OLMo 1 holds its run of spaces as a merged token and again as an added one: vocab.json (token
    -> id) cannot hold both. The export offered GPT-2 files and said only after "Export anyway" that
    they were not written; now the dialog says so up front, and the other formats are written."""
    from tokenizers import AddedToken, decoders, pre_tokenizers
    from tokenizers import Tokenizer as HF
    from tokenizers.models import BPE
    from tokenizers.trainers import BpeTrainer

    from bpe_gui.window import files as window_module

    hf = HF(BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.decoder = decoders.ByteLevel()
    trainer = BpeTrainer(
        vocab_size=300, show_progress=False, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    hf.train_from_iterator(["a    b    c    d"] * 50, trainer)
    assert "ĠĠĠ" in hf.get_vocab()  # three spaces, merged
    hf.add_tokens([AddedToken("   ", normalized=False, special=False)])  # and again, added
    path = tmp_path / "tokenizer.json"
    hf.save(str(path))
    c = window.controller
    import_tokenizer(qtbot, c, path)
    unavailable = window._unavailable_formats()
    assert list(unavailable) == ["gpt2"]
    ids = (hf.get_vocab()["ĠĠĠ"], hf.token_to_id("   "))
    assert f"ids {min(ids)} and {max(ids)} are the same token" in unavailable["gpt2"]
    monkeypatch.setattr(window_module.ExportDialog, "exec", lambda self: 1)
    monkeypatch.setattr(window_module.ExportDialog, "chosen_folder", lambda self: tmp_path / "out")
    errors: list[str] = []
    c.error.connect(errors.append)
    assert window.export_dialog() is True
    written = sorted(p.name for p in (tmp_path / "out").iterdir() if not p.name.startswith("."))
    assert written == ["bpe.json", "bpe.tiktoken", "tokenizer.json"] and errors == []
