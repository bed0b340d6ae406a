"""Continue training from an imported tokenizer, in the app: the engine extends it on a corpus and
the whole training journey works on the new merges (Step, Undo never below the base, Reset to the
base, Train, the pair table, changed words, timeline, Tokenize, Export, sessions)."""

from __future__ import annotations

from pathlib import Path

from core.formats import export_all, load_any
from core.formats.spec import TokenizerSpec
from core.tokenization.extend import ExtendTrainer
from core.tokenization.tokenizer import Tokenizer

from .gui_helpers import answer_next_dialog, import_tokenizer

BASE_TEXT = "the cat sat on the mat, the hat on the cat. that is the thing.\n" * 30
OTHER = "def train(corpus):\n    return corpus.split()\n" * 30 + "我们的模型在中文文本上训练。" * 20


def base_files(tmp_path):
    """A small GPT-2 style tokenizer (vocab.json + merges.txt), trained here."""
    from core import Trainer

    tr = Trainer.from_texts([BASE_TEXT], ["<|endoftext|>"])
    tr.run(290)
    spec = TokenizerSpec(dict(tr.vocab), tuple(tr.merges), ("<|endoftext|>",), "gpt2")
    out = tmp_path / "base"
    export_all(out, spec, ["gpt2"])
    return [str(out / "vocab.json"), str(out / "merges.txt")], spec


def continue_on(qtbot, w, corpus):
    with qtbot.waitSignal(w.controller.corpus_loaded, timeout=60_000):
        assert w.continue_training_confirmed(str(corpus))


def test_continue_training_journey(qtbot, window, tmp_path, monkeypatch):
    w = window
    c = w.controller
    paths, _spec = base_files(tmp_path)
    import_tokenizer(qtbot, c, paths)
    base = c.model.imported
    n_base, v_base = len(base.merges), len(base.vocab)
    assert w.act_continue.isEnabled() and w.corpus_panel.continue_button.isVisibleTo(w)
    said: list = []
    c.error.connect(said.append)
    c.step(1)  # the imported tokenizer as it is: Step says where training from it goes on
    assert said and "Continue training from this tokenizer" in said[-1]
    corpus = tmp_path / "other.txt"
    corpus.write_text(OTHER, encoding="utf-8")
    continue_on(qtbot, w, corpus)
    local = ExtendTrainer.from_files(base, [corpus])
    # the base's merges are on show, no new ones; the title says what this is
    assert c.has_trainer and c.model.extension is not None
    assert c.index.n_merges == n_base and len(c.index) == v_base and c.records == []
    assert "extension of base/vocab.json with 0 new merges on other.txt" in w.windowTitle()
    assert w.training_panel.vocab_size.value() > v_base
    assert c.top_pairs(20) == local.top_pairs(20)  # the live pair table

    c.step(3)
    made = local.steps(3)
    assert [(m.pair, m.token_id, m.count) for m in c.index.merges[n_base:]] == [
        (r.pair, r.new_id, r.count) for r in made
    ]
    assert [m.rank for m in c.index.merges[n_base:]] == [n_base, n_base + 1, n_base + 2]
    assert c.record(n_base + 1).pair == made[1].pair and c.record(n_base - 1) is None
    assert c.changed_words(n_base + 1, 5) == local.changed_words(1, limit=5)
    assert c.changed_words(n_base - 1, 5) == []  # a base merge: made elsewhere
    assert "with 3 new merges" in w.windowTitle()
    c.undo()
    local.undo()
    assert (
        c.index.n_merges == n_base + 2 and c.index.vocab == local.vocab and len(c.index) == local.vocab_size
    )
    assert c.top_pairs(20) == local.top_pairs(20)
    assert w.timeline.counts[n_base:] == [r.count for r in made[:2]] and w.timeline.base_lines[0].isVisible()
    # the selection shared by the views: a new merge picked in the timeline shows in the details
    c.select_merge(n_base + 1)
    assert c.selected_merge == n_base + 1 and made[1].pair == c.index.merges[n_base + 1].pair
    shown = w.details.browser.toPlainText()  # the details: its number, the engine's id, count and words
    assert f"merge #{n_base + 2}" in shown and f"token id {made[1].new_id}" in shown
    assert f"count when merged: {made[1].count:,}" in shown and f"changed {made[1].words_changed:,}" in shown
    # Tokenize encodes with the extension: the base's pattern + all merges, the engine's ids
    text = OTHER[:200]
    want = Tokenizer.from_spec(local.to_spec())
    assert c.tokenizer().encode(text) == want.encode(text) != base.encode(text)

    # Reset goes back to the base, not to the 256 bytes; Undo never goes below it (the rewind is
    # made to run in the worker, as a long one does)
    from bpe_gui.actions import session as session_actions

    monkeypatch.setattr(session_actions, "REWIND_SYNC_WORDS", 0)
    with qtbot.waitSignal(c.busy_changed, check_params_cb=lambda b: not b, timeout=60_000):
        assert c.reset()
        assert c.busy == "rewind"
    assert "Back to the base base/vocab.json: undid 2 new merges" in w.statusBar().currentMessage()
    monkeypatch.undo()  # (short rewinds are made at once again)
    assert c.index.n_merges == n_base and c.index.vocab == dict(base.vocab) and c.records == []
    c.undo()
    assert c.index.n_merges == n_base and c.engine.merges() == []

    # Train to a vocab size
    target = v_base + 25
    with qtbot.waitSignal(c.trained, timeout=60_000):
        c.train(target)
    local.undo_to(0)
    local.run(target)
    assert [m.pair for m in c.index.merges[n_base:]] == local.merges
    assert c.index.vocab == local.vocab == c.engine.vocab()
    # a vocab size the base already has is refused, in words
    errors: list = []
    c.error.connect(errors.append)
    c.train(v_base - 1)
    assert errors and "keeps all" in errors[-1] and not c.busy

    # Export writes the extended tokenizer: reloaded, the same vocab, merges and ids
    out = tmp_path / "out"
    assert c.export(str(out), ["gpt2", "hf", "native"]) is not None
    got = load_any(out / "bpe.json")
    want_spec = local.to_spec()
    assert dict(got.vocab) == dict(want_spec.vocab) and list(got.merges) == list(want_spec.merges)
    assert got.training["extends"]["merges"] == n_base
    hf = Tokenizer.from_spec(load_any(out / "tokenizer.json"))
    assert hf.encode(OTHER) == Tokenizer.from_spec(want_spec).encode(OTHER) == c.tokenizer().encode(OTHER)

    # a session keeps it: reopened, the base on the corpus and the new merges replayed
    session = tmp_path / "ext.bpe.json"
    assert c.save_session(str(session)) is not None
    c.rewind_to(n_base + 2)
    answer_next_dialog("Discard merges")
    with qtbot.waitSignal(c.trained, timeout=60_000):
        assert w.open_session(str(session))
    qtbot.waitUntil(lambda: not c.busy, timeout=30_000)
    assert c.model.extension is not None and c.model.extension.name == "base/vocab.json"
    assert [m.pair for m in c.index.merges] == list(want_spec.merges) and c.index.vocab == want_spec.vocab
    assert c.engine.merges() == local.merges


def test_a_reused_token_keeps_the_vocab_and_undo_is_exact(qtbot, window, tmp_path):
    """A new merge whose bytes already are a base token takes that id: the vocab does not grow, and
    undoing it leaves the base token in place (core's ExtendTrainer does the same)."""
    c = window.controller
    # the base has "abc" (from a + bc) but encodes "abc" as ab + c (a + b comes first): the corpus's
    # first new merge is ab + c, which makes "abc" again, with its old id
    spec = TokenizerSpec.from_merges([(b"a", b"b"), (b"b", b"c"), (b"a", b"bc")], ["<|endoftext|>"])
    out = tmp_path / "base"
    export_all(out, spec, ["native"])
    import_tokenizer(qtbot, c, str(out / "bpe.json"))
    base = c.model.imported
    corpus = tmp_path / "c.txt"
    corpus.write_text(" abc abcd" * 40, encoding="utf-8")
    continue_on(qtbot, window, corpus)
    local = ExtendTrainer.from_files(base, [corpus])
    local.run(local.vocab_size + 6)
    n = len(local.merges)
    c.step(n)
    assert [(m.pair, m.token_id) for m in c.index.merges[3:]] == [
        (p, i) for p, i in zip(local.merges, (r.new_id for r in local.records), strict=True)
    ]
    assert c.index.vocab == local.vocab and len(c.index) == local.vocab_size
    assert local.reused and c.index.reused == len(local.reused)  # (the case this test is about)
    # Export names the format that cannot hold it (tiktoken would apply that merge at the old rank)
    said: list = []
    c.message.connect(said.append)
    paths = c.export(str(tmp_path / "out"), ["tiktoken", "native"])
    assert [p.name for p in paths] == ["bpe.json"] and "Not written: tiktoken" in said[-1]
    assert load_any(tmp_path / "out" / "bpe.json").vocab == local.vocab
    for _ in range(n):
        c.undo()
    assert c.index.vocab == dict(spec.vocab) and c.index.n_merges == 3


def test_evaluate_shows_the_gain_of_an_extension_per_file(qtbot, window, tmp_path):
    """Evaluate measures an extension (the session's, and an opened extended tokenizer's file) with
    its base too: per text, the base's tokens, the extension's and the gain, as core counts them."""
    w = window
    c = w.controller
    paths, _spec = base_files(tmp_path)
    import_tokenizer(qtbot, c, paths)
    base = c.model.imported
    corpus = tmp_path / "other.txt"
    corpus.write_text(OTHER, encoding="utf-8")
    continue_on(qtbot, w, corpus)
    with qtbot.waitSignal(c.trained, timeout=60_000):
        c.train(len(base.vocab) + 30)
    ext = c.tokenizer()
    texts = {"other.txt": OTHER, "mixed.txt": BASE_TEXT[:300] + OTHER[:300]}
    for name, text in texts.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    out = tmp_path / "ext"
    assert c.export(str(out), ["native"]) is not None
    from bpe_gui.jobs.evaluate import TokSource

    ev = w.evaluate
    ev.add_current()
    ev.add_tokenizer(TokSource("extended file", "path", str(out / "bpe.json")))
    for name in texts:
        ev.add_text(str(tmp_path / name))
    with qtbot.waitSignal(ev.finished, timeout=60_000):
        ev.run(workers=1)
    assert ev.last_error is None and len(ev.results) == 4  # (the bases are not rows of their own)
    assert len(ev.gains) == 4 and ev.tabs.isTabVisible(ev.gain_tab)
    for g in ev.gains:
        text = texts[Path(g.file).name]
        assert (g.base_tokens, g.tokens) == (len(base.encode(text)), len(ext.encode(text)))
        assert g.saved == g.base_tokens - g.tokens and g.saved > 0
    row = ev.gains.index(next(g for g in ev.gains if g.tokenizer == "extended file"))
    g = ev.gains[row]
    assert ev.gain_table.item(row, 1).text() == f"{g.base_tokens:,}"
    assert ev.gain_table.item(row, 2).text() == f"{g.tokens:,}"
    assert ev.gain_table.item(row, 3).text() == f"{g.saved:,} ({g.share:.1%})"


def test_cancel_keeps_the_imported_tokenizer(qtbot, window, tmp_path):
    """Cancel while the corpus is read for the extension: nothing changes (the import stays on show)."""
    c = window.controller
    paths, _spec = base_files(tmp_path)
    import_tokenizer(qtbot, c, paths)
    imported, index = c.model.imported, c.index
    corpus = tmp_path / "other.txt"
    corpus.write_text(OTHER, encoding="utf-8")
    said: list = []
    c.message.connect(said.append)
    with qtbot.waitSignal(c.busy_changed, check_params_cb=lambda b: not b, timeout=60_000):
        assert window.continue_training_confirmed(str(corpus))
        assert c.busy == "load"
        c.cancel()
    assert said[-1] == "Loading cancelled; nothing changed."
    assert c.model.imported is imported and c.index is index and c.model.extension is None
    assert not c.has_trainer and window.act_continue.isEnabled()


def test_the_extend_dialog_continues_in_the_app(qtbot, window, tmp_path):
    """Extend dialog → Continue step by step…: the chosen corpus, the same extension in the app."""
    from bpe_gui.dialogs.extend_dialog import open_extend

    c = window.controller
    paths, _spec = base_files(tmp_path)
    import_tokenizer(qtbot, c, paths)
    corpus = tmp_path / "other.txt"
    corpus.write_text(OTHER, encoding="utf-8")
    dlg = open_extend(window)
    assert dlg.step_button.isEnabled()
    dlg.set_corpus(str(corpus))
    with qtbot.waitSignal(c.corpus_loaded, timeout=60_000):
        dlg.step_button.click()
    assert not dlg.isVisible() and c.model.extension is not None and c.corpus_path == str(corpus)


def test_the_count_column_comes_back_readable_when_training_goes_on(qtbot, window, tmp_path):
    # (hidden for the imported file, which has no counts, it came back at the sliver the token
    # columns had left it: its label read "oun" at 1280x720)
    w, c = window, window.controller
    w.resize(1280, 720)
    paths, _spec = base_files(tmp_path)
    import_tokenizer(qtbot, c, paths)
    table = w.browser.merges_table
    assert table.isColumnHidden(5)
    corpus = tmp_path / "other.txt"
    corpus.write_text(OTHER, encoding="utf-8")
    continue_on(qtbot, w, corpus)
    with qtbot.waitSignal(c.stepped, timeout=60_000):
        c.step(3)
    qtbot.waitUntil(lambda: not table.isColumnHidden(5))
    header = table.horizontalHeader()
    assert table.columnWidth(5) >= header.sectionSizeHint(5)  # "Count" whole


def test_the_training_panel_says_an_extension_splits_with_its_bases_pattern(qtbot, window, tmp_path):
    """Continuing a tokenizer with GPT-4's pattern (cl100k, Qwen, Llama 3 …): the panel still showed
    GPT-2's pattern and <|endoftext|>, and no note, though the extension splits text with its base's
    pattern and keeps its special tokens. The note says so (the full pattern in its tooltip)."""
    from core import Trainer

    tr = Trainer.from_texts([BASE_TEXT], ["<|endoftext|>", "<|im_start|>"], pattern="gpt4")
    tr.run(290)
    export_all(tmp_path / "base", tr, ["native"])
    w = window
    c = w.controller
    import_tokenizer(qtbot, c, str(tmp_path / "base" / "bpe.json"))
    tp = w.training_panel
    assert tp.pattern.currentData() == "gpt2"  # (the panel's own settings, for the next corpus)
    corpus = tmp_path / "other.txt"
    corpus.write_text(OTHER, encoding="utf-8")
    continue_on(qtbot, w, corpus)
    assert c.model.extension is not None and c.has_trainer
    assert tp.imported_note.isVisibleTo(tp)
    note = tp.imported_note.full_text()
    assert note == (
        "Extension: it uses its base's pattern (GPT-4) and special tokens (<|endoftext|> <|im_start|>); "
        "the ones above are for the next corpus."
    ), note
