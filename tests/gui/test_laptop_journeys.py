"""A new user's journeys on a laptop (issue 28's minor items): settings checked inline, files forgiven."""

from __future__ import annotations

from bpe_gui.text import i18n

from .gui_helpers import load


def test_a_vocab_size_below_the_minimum_disables_train_and_says_why(qtbot, loaded):
    tp = loaded.training_panel
    tp.vocab_size.setValue(100)
    assert not tp.train_button.isEnabled() and not loaded.act_train.isEnabled()
    assert tp.vocab_hint.isVisibleTo(tp)
    hint = tp.vocab_hint.text()
    assert "257" in hint and "(s)" not in hint and "vocab_size" not in hint, hint
    tp.vocab_size.setValue(300)
    assert tp.train_button.isEnabled() and loaded.act_train.isEnabled()
    assert not tp.vocab_hint.isVisibleTo(tp)


def test_the_vocab_size_reason_is_in_the_users_language(qtbot, chinese_window, small_corpus):
    load(qtbot, chinese_window, small_corpus)
    tp = chinese_window.training_panel
    tp.vocab_size.setValue(100)
    assert not tp.train_button.isEnabled()
    hint = tp.vocab_hint.text()
    assert "257" in hint and "太小" in hint and "token" not in hint, hint


def test_a_bad_custom_regex_is_kept_and_checked_as_it_is_typed(qtbot, loaded):
    tp = loaded.training_panel
    before = loaded.controller.options.pattern
    tp.pattern.setCurrentIndex(tp.pattern.findData("custom"))
    tp.custom.setText(r"(\w+")
    assert tp.pattern_hint.isVisibleTo(tp)
    assert "Not a valid regular expression (missing )" in tp.pattern_hint.text()
    assert not tp.apply_button.isEnabled()
    # nothing was applied or reverted: the typed text and the choice stay for the user to fix
    assert tp.custom.text() == r"(\w+" and tp.pattern.currentData() == "custom"
    assert loaded.controller.options.pattern == before
    tp.custom.setText(r"\w+|\s+|[^\w\s]+")
    assert not tp.pattern_hint.isVisibleTo(tp) and tp.apply_button.isEnabled()


def _exported(tmp_path, small_corpus):
    """An export of all formats (bpe.json beside bpe.tiktoken), with two special tokens and GPT-4's pattern."""
    from core import Trainer
    from core.formats import as_spec, export_all

    t = Trainer.from_file(small_corpus, ["<|endoftext|>", "<|pad|>"], pattern="gpt4")
    t.run(300)
    export_all(tmp_path / "export", t)
    return tmp_path / "export", as_spec(t)


def test_an_exported_bpe_tiktoken_is_imported_without_asking(qtbot, window, tmp_path, small_corpus):
    from bpe_gui.dialogs.import_ask import is_unknown_tiktoken
    from core.pretokenization.patterns import resolve_pattern as as_regex

    from .gui_helpers import import_tokenizer

    folder, spec = _exported(tmp_path, small_corpus)
    assert window._ask_tiktoken_options(str(folder / "bpe.tiktoken")) == {}  # no dialog: nothing to ask
    assert not is_unknown_tiktoken(folder / "bpe.tiktoken")
    (tmp_path / "alone").mkdir()
    (tmp_path / "alone" / "bpe.tiktoken").write_bytes((folder / "bpe.tiktoken").read_bytes())
    assert is_unknown_tiktoken(tmp_path / "alone" / "bpe.tiktoken")  # alone, it is asked for
    loaded = import_tokenizer(qtbot, window.controller, str(folder / "bpe.tiktoken"))
    assert list(loaded.tokenizer.special_tokens) == ["<|endoftext|>", "<|pad|>"]
    assert loaded.tokenizer.pattern_regex == as_regex(spec.pattern)


def test_a_compressed_tokenizer_is_refused_by_name_in_the_users_language(qtbot, chinese_window, tmp_path):
    import gzip

    from bpe_gui.dialogs.import_ask import is_unknown_tiktoken

    path = tmp_path / "vocab.tiktoken.gz"
    path.write_bytes(gzip.compress(b"IQ== 0\nIg== 1\n"))
    assert not is_unknown_tiktoken(path)  # no tiktoken prompt for it
    c = chinese_window.controller
    with qtbot.waitSignal(c.error, timeout=30_000) as blocker:
        c.import_tokenizer(str(path))
    message = blocker.args[0]
    assert "gzip" in message and "gunzip -k vocab.tiktoken.gz" in message and "压缩" in message, message
    assert "UTF-8" not in message


def test_a_compressed_corpus_is_refused_by_name_in_the_users_language(qtbot, chinese_window, tmp_path):
    import bz2

    path = tmp_path / "corpus.txt.bz2"
    path.write_bytes(bz2.compress(b"hello world " * 500))
    c = chinese_window.controller
    with qtbot.waitSignal(c.error, timeout=30_000) as blocker:
        c.load_corpus(str(path))
    message = blocker.args[0]
    assert "bzip2" in message and "bunzip2 -k corpus.txt.bz2" in message and "压缩" in message, message


def test_evaluate_checks_entries_in_the_users_language_and_removes_them_one_by_one(
    qtbot, chinese_window, small_corpus, tmp_path, monkeypatch
):
    import gzip

    from bpe_gui.jobs.evaluate import TokSource

    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "empty"))
    load(qtbot, chinese_window, small_corpus)
    ev = chinese_window.evaluate
    assert not ev.add_tokenizer(TokSource("gpt2", "known", "gpt2"))
    assert "gpt2" in ev.notice.text() and "离线" in ev.notice.text(), ev.notice.text()
    packed = tmp_path / "corpus.txt.gz"
    packed.write_bytes(gzip.compress(b"hello " * 100))
    assert not ev.add_text(str(packed))
    assert "gunzip -k corpus.txt.gz" in ev.notice.text() and "压缩" in ev.notice.text(), ev.notice.text()
    ev.add_current()
    ev.add_current()
    other = tmp_path / "other.txt"
    other.write_text("another text to evaluate on\n" * 20, encoding="utf-8")
    assert ev.add_text(str(small_corpus)) and ev.add_text(str(other))
    assert len(ev.toks) == 2 and len(ev.texts) == 2
    ev.tok_list.item(0).setSelected(True)
    ev.text_list.item(0).setSelected(True)
    ev.remove_selected()
    assert len(ev.toks) == 1 and ev.tok_list.count() == 1
    assert [t.path for t in ev.texts] == [str(other)] and ev.text_list.count() == 1
    assert ev.run_button.isEnabled()


def test_a_long_import_note_is_summed_up_with_the_whole_in_its_tooltip(qtbot, window, tmp_path, small_corpus):
    """Qwen's note (a 150-character regex, 22 special tokens) once pushed Step and Train out of view."""
    from core import Trainer
    from core.formats import export_all

    from .gui_helpers import import_tokenizer

    regex = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
    specials = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"] + [f"<|extra_{i}|>" for i in range(19)]
    t = Trainer.from_file(small_corpus, specials, pattern=regex)
    t.run(300)
    export_all(tmp_path / "qwen", t, ["native"])
    import_tokenizer(qtbot, window.controller, str(tmp_path / "qwen" / "bpe.json"))
    tp = window.training_panel
    qtbot.waitUntil(lambda: tp.imported_note.isVisibleTo(tp))
    note, tip = tp.imported_note.text(), tp.imported_note.toolTip()
    assert regex not in note and "<|extra_5|>" not in note and "22" in note, note
    assert regex in tip and "<|extra_18|>" in tip
    lines = (
        tp.imported_note.heightForWidth(tp.imported_note.width())
        / tp.imported_note.fontMetrics().lineSpacing()
    )
    assert lines <= 5, (lines, note)


def test_the_reopen_prompt_says_what_the_last_session_holds(qtbot, loaded):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    from bpe_gui import create_window

    c = loaded.controller
    loaded.training_panel.vocab_size.setValue(321)
    c.step(7)
    qtbot.waitUntil(lambda: not c.busy and c.index.n_merges == 7, timeout=30_000)
    loaded.close()
    w2 = create_window(load_sample=False)
    qtbot.addWidget(w2)
    seen: list[str] = []

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(10, answer)
            return
        seen.append(box.informativeText())
        next(b for b in box.buttons() if b.text() == "Start with the sample").click()

    QTimer.singleShot(0, answer)
    assert not w2.offer_last_session()
    text = seen[0]
    assert "Corpus: small.txt" in text and "Merges: 7" in text and "target vocab size: 321" in text, text
    assert "Saved: " in text
    w2.controller.shutdown()


def test_pattern_special_tokens_and_tie_rule_are_remembered_across_starts(qtbot, window):
    from bpe_gui import create_window

    tp = window.training_panel
    tp.specials.setText('<|endoftext|> "<|end of turn|>"')
    tp.pattern.setCurrentIndex(tp.pattern.findData("custom"))
    tp.custom.setText(r"\w+|\s+|[^\w\s]+")
    tp.tie.setCurrentIndex(tp.tie.findData("first"))
    tp.apply()
    assert window.controller.options.pattern == r"\w+|\s+|[^\w\s]+"
    window.close()
    w2 = create_window(load_sample=False)
    qtbot.addWidget(w2)
    o = w2.controller.options
    assert list(o.special_tokens) == ["<|endoftext|>", "<|end of turn|>"]
    assert o.pattern == r"\w+|\s+|[^\w\s]+" and o.tie_break == "first"
    tp2 = w2.training_panel
    assert tp2.pattern.currentData() == "custom" and tp2.custom.text() == r"\w+|\s+|[^\w\s]+"
    assert tp2.specials.text() == '<|endoftext|> "<|end of turn|>"'
    # no special tokens at all is remembered too
    tp2.specials.setText("")
    tp2.apply()
    w2.close()
    w3 = create_window(load_sample=False)
    qtbot.addWidget(w3)
    assert list(w3.controller.options.special_tokens) == []
    w2.controller.shutdown()
    w3.controller.shutdown()


def test_a_language_change_is_told_in_both_languages_and_offers_a_restart(qtbot, window, monkeypatch):
    from PySide6.QtCore import QProcess, QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    from bpe_gui.window import language

    started: list = []
    monkeypatch.setattr(
        QProcess, "startDetached", lambda program, args: started.append((program, args)) or True
    )
    monkeypatch.setattr("sys.orig_argv", ["/venv/python", "-m", "bpe_gui", "--lang", "en", "corpus.txt"])
    seen: list = []

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(10, answer)
            return
        seen.append((box.text(), [b.text() for b in box.buttons()]))
        next(b for b in box.buttons() if b.text().startswith("Restart now")).click()

    QTimer.singleShot(0, answer)
    window._set_language("zh_CN")
    text, buttons = seen[0]
    assert "next start" in text and "下次启动" in text, text
    assert any("Restart now" in b and "立即重启" in b for b in buttons), buttons
    assert i18n.chosen_language(settings=window.settings) == "zh_CN"
    assert not window.isVisible()
    assert started == [("/venv/python", ["-m", "bpe_gui", "corpus.txt"])]
    assert language.restart_command() == ("/venv/python", ["-m", "bpe_gui", "corpus.txt"])


def test_after_reset_the_merge_tree_shows_its_hint_not_a_special_token(qtbot, loaded):
    c = loaded.controller
    c.step(5)
    qtbot.waitUntil(lambda: not c.busy and c.index.n_merges == 5, timeout=30_000)
    c.select_merge(3)
    tree = loaded.browser.tree
    assert tree.topLevelItem(0).text(1)  # the tree of merge #4's token (with its id)
    c.reset()
    qtbot.waitUntil(lambda: not c.busy and c.index.n_merges == 0, timeout=30_000)
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 1 and tree.topLevelItem(0).isDisabled())
    assert tree.topLevelItem(0).text(0) == "Select a merge or a token to see how it was built"
    assert loaded.browser.vocab_table.currentIndex().row() == -1


def test_the_comparison_tokenizer_comes_back_with_a_session(qtbot, loaded, tmp_path, small_corpus):
    from bpe_gui import create_window

    folder, _spec = _exported(tmp_path, small_corpus)
    c = loaded.controller
    c.step(4)
    qtbot.waitUntil(lambda: not c.busy and c.index.n_merges == 4, timeout=30_000)
    with qtbot.waitSignal(c.tokenizer_loaded, timeout=30_000):
        assert loaded.compare_with(str(folder / "bpe.json"))
    assert loaded.tokenize.secondary.tokenizer is not None
    session = loaded.save_session(str(tmp_path / "s.bpe.json"))
    w2 = create_window(load_sample=False)
    qtbot.addWidget(w2)
    with qtbot.waitSignal(w2.controller.tokenizer_loaded, timeout=60_000) as blocker:
        assert w2.open_session(str(session))
    assert blocker.args[0].purpose == "compare"
    assert w2.tokenize.secondary.isVisibleTo(w2.tokenize)
    assert len(w2.tokenize.secondary.tokenizer.vocab) == 300
    # closed, it is not saved any more
    w2.tokenize.close_compare.click()
    assert w2.comparison_source is None
    w2.controller.shutdown()


def test_the_timeline_title_counts_the_merges_as_the_status_bar_does(qtbot, loaded):
    """While merges arrive (a tiktoken file's rebuilt merges, a run) the counts shown agree at once."""
    c = loaded.controller
    with qtbot.waitSignal(c.merges_appended, timeout=30_000):
        c.step(3)
    n = c.index.n_merges
    assert f"{n} merge" in loaded.timeline.title.text() and f"{n} merge" in loaded.vocab_status.text()
    qtbot.waitUntil(lambda: not c.busy)


def test_a_message_shown_before_the_window_is_laid_out_is_not_cut_short(qtbot):
    from bpe_gui import create_window

    w = create_window(load_sample=False)  # not shown yet: its status bar has no width
    qtbot.addWidget(w)
    w.resize(1280, 700)
    message = "Reading the tokenizer file cl100k_base.tiktoken …"
    w.show_message(message)
    assert w.statusBar().currentMessage() == message
    w.controller.shutdown()


def test_a_plain_text_file_opened_as_a_tokenizer_is_named_in_the_users_language(
    qtbot, chinese_window, tmp_path
):
    """A corpus given to Import blamed a session file beside it ("sess1.bpe.json: line 2: the id of
    'format' …", in English)."""
    path = tmp_path / "c.txt"
    path.write_text("The quick brown fox jumps over the lazy dog.\n" * 50, encoding="utf-8")
    (tmp_path / "sess1.bpe.json").write_text('{"format": "bpe-explorer-session"}', encoding="utf-8")
    c = chinese_window.controller
    with qtbot.waitSignal(c.error, timeout=30_000) as blocker:
        c.import_tokenizer(str(path))
    message = blocker.args[0]
    assert "c.txt" in message and "纯文本" in message and "sess1" not in message, message


def test_an_imported_tokenizer_is_not_measured_against_the_vocab_size(qtbot, trained, tmp_path):
    """'Vocab 100,261 / 1,000' was shown for cl100k: the target belongs to training, not to a
    tokenizer shown without a corpus."""
    from .gui_helpers import import_tokenizer

    c, tp = trained.controller, trained.training_panel
    assert f"/ {tp.vocab_size.value():,}" in tp.vocab_label.text()  # (training: the target is shown)
    c.export(tmp_path, ["native"])
    import_tokenizer(qtbot, c, tmp_path / "bpe.json")
    qtbot.waitUntil(lambda: not c.busy)
    label = tp.vocab_label.text()
    assert f"Vocab <b>{len(c.index):,}</b> · " in label and " / " not in label, label


def test_an_imported_merge_without_counts_claims_no_reason(qtbot, trained, tmp_path):
    """cl100k's merge #5001 said 'why: No other pair was as frequent' though the file records no
    counts."""
    from .gui_helpers import import_tokenizer

    c = trained.controller
    c.export(tmp_path, ["gpt2"])
    import_tokenizer(qtbot, c, tmp_path / "vocab.json")
    qtbot.waitUntil(lambda: not c.busy)
    c.select_merge(3)
    text = trained.details.browser.toPlainText()
    assert "records no counts" in text and "why:" not in text and "No other pair" not in text


def test_a_status_message_is_cut_again_when_the_counter_grows(qtbot, trained):
    """An import's long note ran under the vocab counter, cut without a '…', when the counter grew
    after the note was shown."""
    w = trained
    w.resize(1280, 672)
    bar = w.statusBar()
    w.vocab_status.setText("v")
    w.vocab_status.adjustSize()
    w.show_message("Imported a tokenizer: " + "a long note about it, " * 30)
    w._update_status()  # the counter gets its text (wider than 'v')
    qtbot.waitUntil(lambda: w.vocab_status.width() >= w.vocab_status.sizeHint().width() - 2)
    shown = bar.currentMessage()
    room = w.width() - w.vocab_status.sizeHint().width() - 20
    assert shown.endswith("…") and bar.fontMetrics().horizontalAdvance(shown) <= room


def test_a_sessions_notice_is_not_hidden_by_its_comparison(qtbot, loaded, tmp_path, small_corpus):
    """Reopened with its corpus gone, the session's notice went only to View → Messages: the status bar
    said 'Comparing with …' instead."""
    import shutil

    from bpe_gui import create_window

    folder, _spec = _exported(tmp_path, small_corpus)
    moved = tmp_path / "corpus_copy.txt"
    shutil.copy(small_corpus, moved)
    c = loaded.controller
    load(qtbot, loaded, moved)
    c.step(4)
    qtbot.waitUntil(lambda: not c.busy and c.index.n_merges == 4, timeout=30_000)
    with qtbot.waitSignal(c.tokenizer_loaded, timeout=30_000):
        assert loaded.compare_with(str(folder / "bpe.json"))
    session = loaded.save_session(str(tmp_path / "s.bpe.json"))
    moved.unlink()  # the corpus is gone
    w2 = create_window(load_sample=False)
    qtbot.addWidget(w2)
    with qtbot.waitSignal(w2.controller.tokenizer_loaded, timeout=60_000):
        assert w2.open_session(str(session))
    qtbot.waitUntil(lambda: "is gone" in w2.statusBar().toolTip(), timeout=10_000)
    w2.controller.shutdown()
