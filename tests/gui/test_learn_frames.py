"""Every frame of every Learn walk-through, in English and Chinese, on the texts a learner types.

For each frame the view shows: the frame's line highlighted, its variables in the table, its sentence
and "step i / n" with the same i; the sentence names the values the frame holds (the same step, not
the one before); and in Chinese every sentence is translated (no English source string left).
"""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QCoreApplication, Qt

from bpe_gui.text import i18n
from bpe_gui.text import learn as learn_text
from bpe_gui.views.learn_view import EXAMPLES, KINDS, PATTERN_KEYS, LearnView

TEXTS = {
    "example": None,  # the walk-through's own example
    "overlap": "aaaaaaa",
    "chinese": "我们的模型学习分词，我们的词表很小。",
    "emoji": "👍🏽 ok 👍🏽👍 🎉",
    "specials": "a<|endoftext|>b<|endoftext|><|endoftext|> the end",
    "empty": "",
    "one_char": "x",
    "whitespace": "  \n\t  ",
    "long": "the quick brown fox jumps over the lazy dog. " * 40,
}

# per (walk-through, event): the variables whose values the sentence must name
NAMED = {
    ("lecture", "new_index"): ["new_index"],
    ("lecture", "merged"): ["new_index"],
    ("lecture", "loop"): [],
    ("lecture", "zip"): ["a", "b"],
    ("lecture", "count"): ["a", "b"],
    ("training", "append"): ["next_id"],
    ("training", "next_id"): ["next_id"],
    ("training", "special_vocab"): ["next_id"],
    ("training", "word"): ["n"],
    ("encoding", "lowest"): ["rank"],
    ("encoding", "stream"): ["cut"],
}

# words a Chinese sentence may keep: code names it quotes, standards and abbreviations
CODE_WORDS = {
    "zip",
    "max",
    "merges",
    "merge",
    "counts",
    "next_id",
    "pair_counts",
    "PAT",
    "encode_iterable",
    "naive",
    "step",
    "bytes",
    "UTF",
    "ASCII",
    "GPT",
    "ID",
    "id",
}


@pytest.fixture(params=["en", "zh_CN"])
def language(request, qapp):
    i18n.install(request.param)
    yield request.param
    i18n.install("en")


def _shown_vars(view: LearnView) -> list[str]:
    return [view.vars.item(r, 0).text() for r in range(view.vars.rowCount())]


def _untranslated(sentence: str) -> list[str]:
    """English words left in a Chinese sentence, outside quoted tokens and code names."""
    bare = re.sub(r"“[^”]*”", "", sentence)
    bare = re.sub(r"\b[0-9a-f]{2}(\|[0-9a-f]{2})*\b", "", bare)  # bytes in hex: 我 = e6|88|91
    words = re.findall(r"[A-Za-z][A-Za-z_]+", bare)
    return [w for w in words if w not in CODE_WORDS]


@pytest.mark.parametrize("name", list(TEXTS))
@pytest.mark.parametrize("kind", KINDS)
def test_every_frame_shows_its_own_sentence_and_variables(qtbot, language, kind, name, monkeypatch):
    sources: set[str] = set()
    real = learn_text.translate

    def recording(context, text, *args):
        sources.add(text)
        return real(context, text, *args)

    monkeypatch.setattr(learn_text, "translate", recording)
    view = LearnView()
    qtbot.addWidget(view)
    view.set_kind(kind)
    text = TEXTS[name] if TEXTS[name] is not None else EXAMPLES[kind]
    view.text.setText(text)
    view.rerun()
    assert view.walk is not None, view.story.text()
    frames = view.walk.frames
    n = len(frames)
    assert n >= 2 and frames[-1].event == "summary"
    for i in range(n):
        if i:
            view.btn_step.click() if i % 2 else qtbot.keyClick(view.code, Qt.Key.Key_Right)
        assert view.at == i
        f = frames[i]
        sentence = view.story.text()
        assert sentence and sentence != f.event
        assert f" {i + 1:,} / {n:,}" in view.position.text()  # (grouped: "step 1,234 / 5,001")
        assert view.code.extraSelections()[0].cursor.blockNumber() == f.line
        assert _shown_vars(view) == list(f.values)
        for var in NAMED.get((kind, f.event), []):
            assert str(f.values[var]) in sentence, (f.event, var, sentence)
        if f.event == "loop":
            assert str(f.values["step"] + 1) in sentence
        if language == "zh_CN":
            assert not _untranslated(sentence), (f.event, sentence)
    if language == "zh_CN":
        left = sorted(s for s in sources if QCoreApplication.translate("Learn", s) == s)
        assert not left, left


def test_each_example_text_opens_at_its_start(qtbot, qapp):
    """A long example (the CS336 handout's) opened scrolled to its end, its start hidden."""
    i18n.install("en")
    view = LearnView()
    qtbot.addWidget(view)
    view.resize(700, 500)
    view.show()
    qtbot.waitExposed(view)
    for kind in ("training", "encoding", "lecture", "training"):
        view.set_kind(kind)
        assert view.text.cursorPosition() == 0, kind


@pytest.mark.parametrize("key", PATTERN_KEYS)
def test_pattern_choice_reaches_training_and_encoding(qtbot, key, qapp):
    i18n.install("en")
    view = LearnView()
    qtbot.addWidget(view)
    for kind in ("training", "encoding"):
        view.set_kind(kind)
        view.text.setText("low low low lower")
        view.pattern.setCurrentIndex(PATTERN_KEYS.index(key))
        view.rerun()
        split = view.walk.frames[0]
        shown = repr(split.values["PAT"])
        assert shown == {"gpt2": shown, "whitespace": r"\S+", "none": "None"}[key]
        if kind == "training" and key == "whitespace":
            assert view.walk.word_counts == {
                b"low": 3,
                b"lower": 1,
                b" ": 3,
            }  # spaces kept, as the trainer keeps them
        if kind == "training" and key == "gpt2":
            assert view.walk.word_counts == {b"low": 1, b" low": 2, b" lower": 1}


def test_learn_window_fits_comes_back_when_minimised_and_closes_on_esc(qtbot, qapp):
    from PySide6.QtWidgets import QMainWindow

    from bpe_gui.views.learn_view import open_learn
    from bpe_gui.views.screen_fit import fit_size

    i18n.install("zh_CN")
    try:
        parent = QMainWindow()
        qtbot.addWidget(parent)
        win = open_learn(parent)
        view = win.centralWidget()
        # the window and its layout fit a 1280×720 screen in Chinese too
        hint = win.minimumSizeHint()
        assert hint.width() <= 1280 - 16 and hint.height() <= 720 - 48
        free = win.screen().availableGeometry()
        size = fit_size(win, 1200, 720)
        assert size.width() <= max(640, free.width() - 16) and size.height() <= max(400, free.height() - 48)
        win.showMinimized()
        assert open_learn(parent) is win and not win.isMinimized()
        # ← → step from the code view and from a button; the text field keeps its arrows
        view.go(0)
        view.code.setFocus()
        qtbot.keyClick(view.code, Qt.Key.Key_Right)
        assert view.at == 1
        qtbot.keyClick(view.btn_step, Qt.Key.Key_Left)
        assert view.at == 0
        qtbot.keyClick(view.text, Qt.Key.Key_Right)
        assert view.at == 0
        qtbot.keyClick(win, Qt.Key.Key_Escape)
        assert not win.isVisible()
    finally:
        i18n.install("en")


def test_chinese_text_shows_characters_over_bytes_and_the_gpt2_clause(qtbot, qapp):
    i18n.install("en")
    view = LearnView()
    qtbot.addWidget(view)
    view.set_kind("encoding")
    view.text.setText(TEXTS["chinese"])
    view.rerun()
    said = {}
    for f in view.walk.frames:
        said.setdefault(f.event, []).append(learn_text.describe("encoding", f))
    assert any("我 = e6|88|91" in s for s in said["parts"])
    assert any(
        "a whole Chinese clause without spaces or punctuation is one pre-token" in s for s in said["pretoken"]
    )
    assert any("In bytes: 我 = e6|88|91" in s for s in said["lowest"])


@pytest.mark.parametrize("kind", KINDS)
def test_learn_window_has_no_english_left_in_chinese(qtbot, kind, qapp):
    from PySide6.QtWidgets import QAbstractButton, QComboBox, QLabel

    i18n.install("zh_CN")
    try:
        view = LearnView()
        qtbot.addWidget(view)
        view.set_kind(kind)
        texts = [w.text() for w in view.findChildren(QLabel) if w is not view.story]
        texts += [w.text() for w in view.findChildren(QAbstractButton)]
        for box in view.findChildren(QComboBox):
            texts += [box.itemText(i) for i in range(box.count())]
        texts += [view.vars.horizontalHeaderItem(i).text() for i in range(2)]
        english = [
            t
            for t in texts
            if re.search(r"[A-Za-z]{3,}", re.sub(r"GPT-2|CS336|\\S\+|“[^”]*”", "", t))
            and not re.search(r"[\u4e00-\u9fff]", t)
        ]
        assert not english, english
        assert re.search(r"[\u4e00-\u9fff]", view.note.text() or "中")
    finally:
        i18n.install("en")


def test_typed_text_is_walked_through_without_enter(qtbot):
    view = LearnView()
    qtbot.addWidget(view)
    view.set_kind("lecture")
    view.text.selectAll()
    qtbot.keyClicks(view.text, "aaaaaaa")  # typed, no Enter: the frames follow once typing pauses
    qtbot.waitUntil(lambda: view.walk is not None and view.walk.frames[0].values.get("indices") == [97] * 7)
