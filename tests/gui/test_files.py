"""Export / import round trips and the side-by-side comparison."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from .gui_helpers import answer_next_dialog, import_tokenizer

pytest.importorskip("core.formats")

ALL = ["gpt2", "hf", "tiktoken", "native"]


def test_export_all_formats(trained, tmp_path):
    c = trained.controller
    paths = c.export(tmp_path / "out", ALL)
    names = sorted(p.name for p in paths)
    assert names == ["bpe.json", "bpe.tiktoken", "merges.txt", "tokenizer.json", "vocab.json"]


def test_native_round_trip_brings_the_timeline(qtbot, trained, tmp_path):
    c = trained.controller
    merges = [m.pair for m in c.index.merges]
    counts = [m.count for m in c.index.merges]
    vocab = dict(c.index.vocab)
    text = "the cat sat on the mat"
    before = c.tokenizer().encode(text)
    c.export(tmp_path, ["native"])
    import_tokenizer(qtbot, c, tmp_path / "bpe.json")
    assert not c.has_trainer
    assert [m.pair for m in c.index.merges] == merges
    assert [m.count for m in c.index.merges] == counts
    assert c.index.vocab == vocab
    assert c.index.has_counts
    assert trained.timeline.counts == counts
    assert c.tokenizer().encode(text) == before
    # an imported tokenizer can be explored but not trained further
    assert not trained.act_step.isEnabled() and not trained.act_train.isEnabled()
    assert trained.act_export.isEnabled()
    trained.tokenize.set_text(text)
    assert trained.tokenize.wait_idle()
    assert [s.id for s in trained.tokenize.primary.view.spans] == before


@pytest.mark.parametrize(
    "fmt, path", [("gpt2", "vocab.json"), ("hf", "tokenizer.json"), ("tiktoken", "bpe.tiktoken")]
)
def test_other_formats_import_without_counts(qtbot, trained, tmp_path, fmt, path):
    c = trained.controller
    merges = [m.pair for m in c.index.merges]
    text = "the dog ran to the barn"
    before = c.tokenizer().encode(text)
    c.export(tmp_path, [fmt])
    import_tokenizer(qtbot, c, tmp_path / path)
    assert [m.pair for m in c.index.merges] == merges
    assert c.tokenizer().encode(text) == before
    assert not c.index.has_counts
    # a tiktoken file's merges come in batches, as a run's: the timeline follows them within its refresh delay
    qtbot.waitUntil(lambda: "no counts in this file" in trained.timeline.title.text())


def test_compare_side_by_side(qtbot, trained, tmp_path):
    c = trained.controller
    c.export(tmp_path, ["gpt2"])
    for _ in range(10):
        c.undo()
    tv = trained.tokenize
    with qtbot.waitSignal(c.tokenizer_loaded, timeout=30_000):
        assert trained.compare_with(tmp_path / "vocab.json")
    tv.set_text("the cat sat on the mat and the dog ran")
    assert tv.wait_idle()
    assert tv.secondary.isVisible()
    assert tv.secondary.view.spans and tv.primary.view.spans
    assert "tokens" in tv.secondary.stats.text()
    tv.close_compare.click()
    assert not tv.secondary.isVisible()


def test_import_malformed_file_shows_error_and_keeps_state(qtbot, trained, tmp_path):
    c = trained.controller
    n = c.index.n_merges
    (tmp_path / "vocab.json").write_text('{"a": 0}', encoding="utf-8")
    (tmp_path / "merges.txt").write_text("a b c\n", encoding="utf-8")
    with qtbot.waitSignal(c.error, timeout=30_000) as blocker:
        assert c.import_tokenizer(tmp_path / "vocab.json")  # started: the file is read in a worker
    assert "vocab.json: no single-byte token for 242 bytes" in blocker.args[0]
    qtbot.waitUntil(lambda: not c.busy)
    assert c.has_trainer and c.index.n_merges == n
    assert trained.act_step.isEnabled()
    for b in trained.findChildren(QMessageBox):
        b.close()


def test_export_into_a_file_path_is_an_error(qtbot, trained, tmp_path):
    f = tmp_path / "file.txt"
    f.write_text("x")
    with qtbot.waitSignal(trained.controller.error):
        assert trained.controller.export(f, ["native"]) is None
    for b in trained.findChildren(QMessageBox):
        b.close()


def test_drop_tokenizer_file_imports(qtbot, trained, tmp_path):
    c = trained.controller
    c.export(tmp_path, ["hf"])
    c.undo()  # (the merges on show are then not the exported ones)
    qtbot.waitUntil(lambda: not c.busy)
    answer_next_dialog("Discard merges")  # dropping a file asks before throwing the merges away
    with qtbot.waitSignal(c.tokenizer_loaded, timeout=30_000):
        trained.open_path(str(tmp_path / "tokenizer.json"))
    assert not c.has_trainer and c.source_name == "tokenizer.json"
    assert "tokenizer.json" in trained.windowTitle()


def test_import_keeps_the_training_settings_the_panel_shows(qtbot, loaded, small_corpus, tmp_path):
    """A tokenizer trained with the "first" rule is explained with its rule, while the panel and the
    next corpus keep the rule the panel shows (importing used to switch it silently)."""
    from core import Trainer
    from core.pretokenization.pretokenize import count_pretokens

    c = loaded.controller
    assert c.set_options(tie_break="first")
    qtbot.waitUntil(lambda: c.has_trainer and not c.busy, timeout=30_000)
    c.step(20)
    c.export(tmp_path, ["native"])
    assert c.set_options(tie_break="lexicographic")
    qtbot.waitUntil(lambda: c.has_trainer and not c.busy, timeout=30_000)
    import_tokenizer(qtbot, c, tmp_path / "bpe.json")
    assert c.tie_break == "first"  # the imported merges are explained with their own rule
    panel = loaded.training_panel
    assert c.options.tie_break == "lexicographic" == panel.tie.currentData()
    assert not panel.apply_button.isEnabled()
    with qtbot.waitSignal(c.corpus_loaded, timeout=30_000):
        c.load_corpus(str(small_corpus))
    c.step(20)
    expected = Trainer(
        count_pretokens(small_corpus, c.options.special_tokens)[0],
        c.options.special_tokens,
        tie_break="lexicographic",
    ).steps(20)
    assert [m.pair for m in c.index.merges] == [r.pair for r in expected]


def test_import_says_what_the_format_does_not_store(qtbot, trained, tmp_path):
    c = trained.controller
    c.export(tmp_path, ["tiktoken", "hf"])
    messages = []
    c.message.connect(messages.append)
    import_tokenizer(qtbot, c, tmp_path / "bpe.tiktoken")
    assert "pattern" in messages[-1] and "no special tokens" in messages[-1]
    import_tokenizer(qtbot, c, tmp_path / "tokenizer.json")
    assert "assumed" not in messages[-1]


def test_failed_load_says_so_in_the_status(qtbot, loaded, tmp_path):
    c = loaded.controller
    with qtbot.waitSignal(c.error, timeout=30_000):
        c.load_corpus(str(tmp_path / "missing.txt"))
    qtbot.waitUntil(lambda: not c.busy, timeout=5000)
    assert "Could not load" in loaded.training_panel.status.text()
    assert "Could not load" in loaded.statusBar().currentMessage()
    for b in loaded.findChildren(QMessageBox):
        b.close()


def test_export_dialog_folder_expands_home(qtbot, trained, tmp_path, monkeypatch):
    from bpe_gui.dialogs.export_dialog import ExportDialog

    monkeypatch.setenv("HOME", str(tmp_path))
    for typed, expected in (
        ("~/tok", tmp_path / "tok"),
        ("rel/dir", tmp_path / "rel" / "dir"),
        (str(tmp_path / "abs"), tmp_path / "abs"),
    ):
        dlg = ExportDialog(typed)
        qtbot.addWidget(dlg)
        assert dlg.chosen_folder() == expected
    messages = []
    trained.controller.message.connect(messages.append)
    dlg = ExportDialog("~/tok")
    qtbot.addWidget(dlg)
    paths = trained.controller.export(str(dlg.chosen_folder()), ["native"])
    assert [p.parent for p in paths] == [tmp_path / "tok"] and (tmp_path / "tok" / "bpe.json").is_file()
    assert str(tmp_path / "tok") in messages[-1]


def _gpt2_pair_named_oddly(tmp_path):
    """A GPT-2 vocab holding the token "model" and its merges file, under names no rule finds together."""
    from core.formats import save_gpt2
    from core.formats.spec import TokenizerSpec

    spec = TokenizerSpec.from_merges([(b"m", b"o"), (b"mo", b"d"), (b"e", b"l"), (b"mod", b"el")])
    save_gpt2(spec, tmp_path)
    vocab = (tmp_path / "vocab.json").rename(tmp_path / "mine.json")
    merges = (tmp_path / "merges.txt").rename(tmp_path / "mine.txt")
    (tmp_path / "other.json").write_text("{}")  # so "the single *.json beside it" does not apply either
    return spec, vocab, merges


def test_import_dialog_takes_a_vocab_and_a_merges_file_picked_together(qtbot, window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    spec, vocab, merges = _gpt2_pair_named_oddly(tmp_path)
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(merges), str(vocab)], ""))
    messages = []
    window.controller.message.connect(messages.append)
    with qtbot.waitSignal(window.controller.tokenizer_loaded, timeout=30_000):
        window.import_dialog()
    assert [m.pair for m in window.controller.index.merges] == list(spec.merges)
    assert "mine.json" in messages[-1] and "mine.txt" in messages[-1]  # the loader's note names both files


def test_import_opens_our_gpt2_export_with_a_special_token_that_is_no_markup(
    qtbot, window, tmp_path, monkeypatch
):
    """vocab.json + merges.txt picked together, of an export whose special token is ``EOS`` (at id 256,
    right after the bytes): once refused as "the two files do not belong together"."""
    from PySide6.QtWidgets import QFileDialog

    from core.formats import save
    from core.formats.spec import TokenizerSpec

    spec = TokenizerSpec.from_merges([(b"a", b"b"), (b"ab", b"c")], ["EOS"])
    vocab, merges = save(spec, tmp_path, "gpt2")
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(vocab), str(merges)], ""))
    with qtbot.waitSignal(window.controller.tokenizer_loaded, timeout=30_000):
        window.import_dialog()
    assert window.controller.tokenizer().encode("abcEOSab") == [258, 256, 257]


def test_an_unknown_tiktoken_file_asks_for_its_pattern_and_special_ids(qtbot, window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    from bpe_gui.dialogs import import_ask
    from core.formats import save_tiktoken
    from core.formats.spec import TokenizerSpec

    path = save_tiktoken(TokenizerSpec.from_merges([(b"a", b"b")]), tmp_path / "x.tiktoken")
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(path)], ""))
    asked = []

    def answer(dlg):
        asked.append(dlg)
        dlg.pattern.setCurrentText("gpt4")
        dlg.specials.setText("<|end|>")  # no id: refused, the dialog stays open
        dlg._check()
        assert "TOKEN=ID" in dlg.problem.text() and dlg.result() == 0
        dlg.specials.setText("<|end|>=1000")
        dlg._check()
        return dlg.result()

    monkeypatch.setattr(import_ask.TiktokenOptionsDialog, "exec", answer)
    with qtbot.waitSignal(window.controller.tokenizer_loaded, timeout=30_000):
        window.import_dialog()
    assert len(asked) == 1
    tok = window.controller.tokenizer()
    assert tok.encode("ab<|end|>") == [256, 1000]


def test_the_open_filter_offers_sentencepiece_models_and_a_dropped_one_is_a_tokenizer(tmp_path):
    from bpe_gui.model.files import OPEN_FILTER, is_tokenizer_file

    assert "*.model" in OPEN_FILTER and "*.model.*" in OPEN_FILTER and "*.tiktoken" in OPEN_FILTER
    for name in ("tokenizer.model", "tokenizer.model.v3"):
        (tmp_path / name).write_bytes(b"\x0a")
        assert is_tokenizer_file(tmp_path / name)
    (tmp_path / "corpus.txt").write_text("text", encoding="utf-8")
    assert not is_tokenizer_file(tmp_path / "corpus.txt")
