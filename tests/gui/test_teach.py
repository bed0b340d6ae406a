"""Learn view, "What happened" panel, glossary, and core errors rendered in the app's language."""

from __future__ import annotations

import pytest

from bpe_gui.text import i18n
from bpe_gui.text.errors import error_text
from bpe_gui.views.learn_view import HANDOUT_MERGES, LearnView, open_learn
from bpe_gui.views.story_view import status_line, story_html
from core import Trainer
from core.errors import BPEError, PatternError, SpecialTokenError
from core.pretokenization.pretokenize import check_special_tokens, resolve_pattern

from .gui_helpers import load


@pytest.fixture
def english():
    i18n.install("en")
    yield
    i18n.install("en")


@pytest.fixture
def learn(qtbot, english):
    v = LearnView()
    qtbot.addWidget(v)
    return v


def test_learn_lecture_reaches_the_wikipedia_result(learn):
    learn.set_kind("lecture")
    assert learn.text.text() == "aaabdaaabac" and learn.merges.value() == 3
    learn.btn_end.click()
    assert not learn.btn_end.isEnabled() and not learn.btn_step.isEnabled()  # (at the last frame)
    f = learn.walk.frames[learn.at]
    assert f.event == "summary" and f.values["indices"] == [258, 100, 258, 97, 99]
    assert f.values["merges"] == {(97, 97): 256, (256, 97): 257, (257, 98): 258}
    # the highlighted line is the frame's line (return merges, vocab), and the table shows its values
    sel = learn.code.extraSelections()[0]
    assert sel.cursor.blockNumber() == f.line == 12
    shown = {learn.vars.item(r, 0).text(): learn.vars.item(r, 1).text() for r in range(learn.vars.rowCount())}
    assert shown["indices"] == "[258, 100, 258, 97, 99]"
    assert "258" in learn.story.text()


def test_learn_step_back_and_edit_text(learn, qtbot):
    learn.set_kind("lecture")
    learn.btn_step.click()
    learn.btn_step.click()
    assert learn.at == 2
    learn.btn_back.click()
    assert learn.at == 1
    learn.text.setText("hi")
    qtbot.keyClick(learn.text, "\r")
    assert learn.at == 0 and learn.walk.frames[0].values["indices"] == [104, 105]


def test_learn_play_runs_to_the_end(learn, qtbot, monkeypatch):
    learn.set_kind("training")
    learn.timer.setInterval(1)
    learn.btn_play.click()
    qtbot.waitUntil(lambda: learn.at == len(learn.walk.frames) - 1, timeout=20_000)
    qtbot.waitUntil(lambda: not learn.timer.isActive())
    # the handout's example, cut on whitespace (the default of this walk-through)
    t = Trainer.from_text(learn.text.text(), ["<|endoftext|>"], pattern=r"\S+")
    assert learn.walk.merges == [r.pair for r in t.steps(learn.merges.value())]
    pairs = [(a + b" " + b).decode() for a, b in learn.walk.merges]
    assert ", ".join(pairs) == HANDOUT_MERGES and HANDOUT_MERGES in learn.note.text()


def test_learn_encoding_ids_match_and_bad_specials_are_reported(learn):
    learn.set_kind("encoding")
    assert learn.walk.ids == learn.walk.streamed
    learn.specials.setText("<s> <s>")
    learn.rerun()
    assert learn.walk is None and "twice" in learn.story.text()


def test_help_opens_learn_window_and_story_panel_tells_the_step(qtbot, window, small_corpus, english):
    help_menu = next(a for a in window.menuBar().actions() if a.text() == "&Help").menu()
    next(a for a in help_menu.actions() if a.text() == "What is &BPE?").trigger()
    from PySide6.QtWidgets import QDialog, QMainWindow, QPushButton

    # first the plain-words introduction, whose button goes on to Learn mode
    intro = window.findChild(QDialog, "intro")
    assert intro is not None and intro.isVisible()
    intro.findChild(QPushButton, "introLearn").click()
    assert not intro.isVisible()
    learn_window = window.findChild(QMainWindow, "learnWindow")
    assert learn_window is not None and learn_window.isVisible()
    assert isinstance(learn_window.centralWidget(), LearnView)
    assert open_learn(window) is learn_window  # one window, raised again
    load(qtbot, window, small_corpus)
    c = window.controller
    with qtbot.waitSignal(c.stepped) as blocker:
        c.step(1)
    rec = blocker.args[0][0]
    c.select_merge(0)
    html = window.story.browser.toHtml()
    assert f"{rec.words_changed:,}" in html and str(rec.new_id) in html and "glossary:" in html
    assert window.statusBar().currentMessage() == status_line(rec, c.tie_break)


def test_story_names_ties_rule_and_count_changes(english):
    t = Trainer.from_text("ab ab cd cd", pattern="none")
    rec = t.step()
    html = story_html(rec, "lexicographic", None)
    assert rec.n_ties == 3 and "3 other pairs were" in html and "lexicographically greatest" in html
    assert "(s)" not in html  # English plurals, not "pair(s)"
    # "cd" merged: (d, " ") -1 and (" ", c) -2 went down; (" ", cd) +2 and (cd, " ") +1 appeared
    assert "went down" in html and "−1" in html and "−2" in html
    assert "appeared" in html and "+2" in html and "+1" in html
    assert "first in the text" in story_html(rec, "first", None)


def test_core_errors_carry_codes_that_survive_pickling():
    import pickle

    with pytest.raises(SpecialTokenError) as ei:
        check_special_tokens(["<s>", "<s>"])
    e = pickle.loads(pickle.dumps(ei.value))
    assert (e.code, e.params, str(e)) == ("special_duplicate", {"token": "<s>"}, str(ei.value))
    with pytest.raises(PatternError) as ei:
        resolve_pattern("(")
    assert ei.value.code == "pattern_invalid" and ei.value.params["pattern"] == "("


def test_errors_in_chinese(qapp):
    try:
        assert i18n.install("zh_CN") == "zh_CN"
        with pytest.raises(SpecialTokenError) as ei:
            check_special_tokens(["<s>", "<s>"])
        text = error_text(ei.value)
        assert "<s>" in text and "特殊标记" in text
        assert error_text(BPEError("plain message")) == "plain message"
        from core.training.trainer import check_vocab_size

        with pytest.raises(BPEError) as ei2:
            check_vocab_size(200, 1)
        assert ei2.value.code == "vocab_size_small"
        assert (
            error_text(ei2.value)
            == "词表大小 200 太小：至少需要 256 个字节 + 1 个特殊标记 = 257。请选择 257 或更大的值。"
        )
    finally:
        i18n.install("en")
    assert error_text(ei.value) == str(ei.value)  # English: the core message itself


def test_story_of_an_imported_merge_says_its_file_records_no_counts(english):
    from core.training.records import MergeRecord

    rec = MergeRecord(rank=0, pair=(b"a", b"b"), new_id=256, count=0)  # as records_from_spec makes them
    html = story_html(rec, "lexicographic", None)
    assert "imported tokenizer" in html and "no counts" in html and "256" in html
    assert "most frequent" not in html and "0 time" not in html


def test_story_counts_agree_with_the_pair_count_when_a_word_holds_the_pair_twice(english):
    # "的的" holds (e7 9a 84 … ) twice: as in the issue, the pair stands more often than its words occur
    text = "的的 的 的的 的"
    t = Trainer.from_text(text, pattern="gpt2")
    recs = t.steps(3)
    rec = recs[-1]  # the merge that makes 的 from its bytes' pieces, or the one joining 的 + 的
    for r in recs:
        if r.count > r.occurrences_changed:
            rec = r
            break
    assert rec.count > rec.occurrences_changed
    html = story_html(rec, "lexicographic", t.changed_words(rec.rank, limit=4))
    assert f"<b>{rec.count}</b>" in html  # the pair table's count
    assert (
        f"The pair stood {rec.count} times but the words holding it occur {rec.occurrences_changed}" in html
    )
    assert "(the pair 2 times in it)" in html


def test_what_happened_follows_steps_without_a_click(qtbot, window, small_corpus, english):
    load(qtbot, window, small_corpus)
    c = window.controller
    for _ in range(2):
        with qtbot.waitSignal(c.stepped) as blocker:
            c.step(1)
        rec = blocker.args[0][-1]
        html = window.story.browser.toHtml()
        assert str(rec.new_id) in html and "Do a step or select a merge" not in html
    first_id = c.records[0].new_id
    with qtbot.waitSignal(c.merges_removed):
        c.undo()
    text = window.story.browser.toPlainText()
    assert f"with id {first_id};" in text and f"with id {rec.new_id};" not in text  # the merge now latest
    with qtbot.waitSignal(c.merges_removed):
        c.undo()
    assert "Do a step or select a merge" in window.story.browser.toHtml()


def test_story_and_tokenize_hover_show_characters_over_their_bytes(qtbot, english):
    from bpe_gui.views.token_spans import TokenPane
    from core.tokenization.tokenizer import Tokenizer

    t = Trainer.from_text("我们 我们 我们 我", pattern="gpt2")
    recs = t.steps(6)
    piece = next(r for r in recs if r.token in "我".encode() and len(r.token) == 2)  # e6 88
    html = story_html(piece, "lexicographic", t.changed_words(piece.rank, limit=4))
    assert "a piece of a character outside ASCII (in the examples below: 我 = e6|88|91)" in html
    # a piece of several characters: each one its example words hold, not the first word's alone
    t2 = Trainer.from_text("了 了 了 人 人 交", pattern="gpt2")
    first = t2.steps(1)[0]
    assert first.token == b"\xe4\xba"  # (了 = e4|ba|86, 人 = e4|ba|ba, 交 = e4|ba|a4)
    html = story_html(first, "lexicographic", t2.changed_words(first.rank, limit=4))
    for char in ("了 = e4|ba|86", "人 = e4|ba|ba", "交 = e4|ba|a4"):
        assert char in html, html
    whole = next(r for r in recs if r.token == "我".encode())
    assert "In bytes: 我 = e6|88|91." in story_html(whole, "lexicographic", None)
    pane = TokenPane("t")
    qtbot.addWidget(pane)
    pane.tokenizer = Tokenizer({i: bytes([i]) for i in range(256)}, [])
    text = "a我"
    spans = pane.tokenizer.trace(text)
    pane.show_tokens(spans, text, True)
    hover = pane.describe(spans[1])  # e6: the first byte of 我
    assert "partial UTF-8" in hover and "a piece of: 我 = e6|88|91" in hover
    # without hovering: the characters cut into byte tokens are named under the tokens
    assert not pane.split_chars.isHidden() and "我 = e6|88|91" in pane.split_chars.text()
    pane.show_tokens(pane.tokenizer.trace("ab"), "ab", True)
    assert pane.split_chars.isHidden()


def test_the_tokenize_view_says_a_chinese_clause_is_one_pre_token(qtbot, loaded):
    pane = loaded.tokenize.primary
    loaded.tokenize.input.setPlainText("我们今天学习字节对编码")
    qtbot.waitUntil(lambda: pane.split_chars.isVisibleTo(pane) and "pre-token" in pane.split_chars.text())
    assert "我 = e6|88|91" in pane.split_chars.text()  # and the characters over their bytes
    loaded.tokenize.input.setPlainText("plain English words only")
    qtbot.waitUntil(lambda: not pane.split_chars.isVisibleTo(pane))


def test_learn_trainer_code_shows_the_uncovered_text_it_counts(learn):
    """With \\S+ the spaces between words are counted as pre-tokens of their own: the code line and
    the variable beside it say so (it showed ``re.finditer`` and ``m.group() = ' '``, which \\S+
    never matches)."""
    learn.set_kind("training")
    learn.pattern.setCurrentIndex(1)  # Whitespace (\S+)
    w = learn.walk
    gaps = [f for f in w.frames if f.event == "pretoken" and f.args.get("gap")]
    assert gaps and gaps[0].args["pretoken"] == " "
    line = w.code[gaps[0].line]
    assert "finditer" not in line and "between" in line
    learn.go(w.frames.index(gaps[0]))
    shown = {learn.vars.item(r, 0).text(): learn.vars.item(r, 1).text() for r in range(learn.vars.rowCount())}
    assert shown.get("pre_token") == "' '" and "pre_token" in line
    assert "does not match" in learn.story.text()
    # the line that counts it names the same variable
    count = next(f for f in w.frames if f.event == "word_count" and f.args["word"] == (b" ",))
    assert "pre_token" in w.code[count.line] and "pre_token" in count.values


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("size", [(1280, 720), (1366, 768)])
def test_learn_buttons_stay_put_and_code_fits_on_a_laptop(qtbot, lang, size):
    """The Step button is at the same place in every walk-through (the note above it wrapped onto two
    lines for the trainer and pushed it down); no line of code is cut; the lecture algorithm hides the
    special-token and pre-token fields it does not use."""
    from bpe_gui.views.learn_view import KINDS, LearnWindow

    i18n.install(lang)
    try:
        win = LearnWindow()
        view = LearnView(win)
        win.setCentralWidget(view)
        qtbot.addWidget(win)
        win.resize(size[0] - 80, size[1] - 40)  # as place_on_screen leaves it, with window frame
        win.show()
        qtbot.waitExposed(win)
        places = {}
        for kind in KINDS:
            view.set_kind(kind)
            qtbot.waitUntil(lambda: view.btn_step.isVisible())
            win.layout().activate()
            view.layout().activate()
            places[kind] = view.btn_step.mapTo(view, view.btn_step.rect().topLeft())
            widest = max(view.code.fontMetrics().horizontalAdvance(line) for line in view.walk.code)
            room = view.code.viewport().width() - 2 * view.code.document().documentMargin()
            assert widest <= room, (kind, widest, room)
            hidden = kind == "lecture"
            for w in (view.specials, view.specials_label, view.pattern, view.pattern_label):
                assert w.isHidden() == hidden, (kind, w)
        assert len(set(places.values())) == 1, places
    finally:
        i18n.install("en")


def test_learn_summaries_say_proper_plurals(learn):
    """ "Done: 3 merge(s) learned" read as a form to fill in: English says 1 merge, 3 merges."""
    learn.set_kind("lecture")
    learn.btn_end.click()
    assert "Done: 3 merges learned" in learn.story.text() and "(s)" not in learn.story.text()
    learn.merges.setValue(1)
    learn.btn_end.click()
    assert "Done: 1 merge learned" in learn.story.text()
    learn.set_kind("training")
    learn.btn_end.click()
    text = learn.story.text()
    assert "(s)" not in text and "+ 1 special token +" in text and "+ 12 merges" in text, text


def test_learn_encoding_says_a_space_between_matches_is_kept_not_found(learn):
    """With \\S+ the encoding walk-through said "The regex finds the pre-token “·”"; \\S+ never
    matches a space: the tokenizer keeps the text between matches as a pre-token of its own."""
    learn.set_kind("encoding")
    learn.pattern.setCurrentIndex(1)  # Whitespace (\S+)
    w = learn.walk
    space = next(i for i, f in enumerate(w.frames) if f.event == "pretoken" and f.args["pretoken"] == " ")
    learn.go(space)
    assert "does not match" in learn.story.text() and "finds" not in learn.story.text()
    word = next(i for i, f in enumerate(w.frames) if f.event == "pretoken" and f.args["pretoken"] == "the")
    learn.go(word)
    assert "finds the pre-token" in learn.story.text()
