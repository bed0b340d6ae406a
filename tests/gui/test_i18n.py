"""Translations: every source string of bpe_gui is translated, the .qm is current, languages switch."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from bpe_gui.text import i18n

TS = i18n.ts_path("zh_CN")


def _messages(ts: Path):
    root = ET.parse(ts).getroot()
    for ctx in root.iter("context"):
        name = ctx.findtext("name")
        for m in ctx.iter("message"):
            yield name, m.findtext("source"), m.find("translation")


def test_every_string_is_translated():
    def text(t):  # a plural ("%n merge(s)") keeps its forms in <numerusform> children
        return (t.text or "") + "".join(f.text or "" for f in t.findall("numerusform"))

    bad = [
        (c, s)
        for c, s, t in _messages(TS)
        if t is None or t.get("type") in ("unfinished", "vanished", "obsolete") or not text(t).strip()
    ]
    assert not bad, f"untranslated: {bad[:10]}"
    assert len(list(_messages(TS))) > 300


def test_chinese_words_stand_in_full_width_parentheses():
    """（…） around Chinese words, as the other translations have them: 29 had ASCII ones
    ("这些合并保留(词表大小 4,801)"); a menu accelerator "(&E)" keeps its own."""
    import re

    ascii_around_chinese = re.compile(r"\(([^()&]*[\u4e00-\u9fff][^()]*)\)")
    bad = [
        (source, text)
        for _c, source, t in _messages(TS)
        for text in [t.text or "", *(f.text or "" for f in t.findall("numerusform"))]
        if ascii_around_chinese.search(text)
    ]
    assert not bad, bad[:5]


def test_ts_covers_the_current_sources(tmp_path):
    """lupdate over today's bpe_gui adds no new (unfinished) string to a copy of the .ts."""
    copy = tmp_path / TS.name
    shutil.copy(TS, copy)
    sources = sorted(str(p) for p in Path(i18n.__file__).parent.rglob("*.py"))
    subprocess.run(
        [i18n._tool("pyside6-lupdate"), *sources, "-no-obsolete", "-ts", str(copy)],
        check=True,
        capture_output=True,
    )
    new = [(c, s) for c, s, t in _messages(copy) if t is None or t.get("type") == "unfinished"]
    assert not new, f"strings missing from {TS.name} (run python -m bpe_gui.text.i18n update): {new[:10]}"


def test_qm_is_current(tmp_path):
    assert TS.with_suffix(".sha256").read_text().strip() == i18n.ts_hash(TS)
    qm = tmp_path / "x.qm"
    subprocess.run([i18n._tool("pyside6-lrelease"), str(TS), "-qm", str(qm)], check=True, capture_output=True)
    assert qm.read_bytes() == TS.with_suffix(".qm").read_bytes()


def test_normalize():
    assert i18n.normalize("zh_CN") == i18n.normalize("zh-Hans") == "zh_CN"
    assert i18n.normalize("en_US") == "en"
    with pytest.raises(ValueError, match="zh_CN"):
        i18n.normalize("fr")


def test_window_in_chinese_and_back(qtbot):
    from bpe_gui import create_window

    try:
        w = create_window(load_sample=False, language="zh_CN")
        qtbot.addWidget(w)
        titles = [a.text() for a in w.menuBar().actions()]
        assert titles[0].startswith("文件") and all(not t.lstrip("&").isascii() for t in titles)
        assert i18n.current_language() == "zh_CN"
        w2 = create_window(load_sample=False, language="en")
        qtbot.addWidget(w2)
        assert next(a.text() for a in w2.menuBar().actions()) == "&File"
    finally:
        i18n.install("en")


def test_language_choice_is_remembered(qtbot):
    from bpe_gui import create_window

    w = create_window(load_sample=False, language="en")
    qtbot.addWidget(w)
    i18n.remember("zh_CN", w.settings)
    try:
        assert i18n.chosen_language() == "zh_CN"
        assert i18n.chosen_language("en") == "en"  # --lang wins
    finally:
        i18n.remember("en", w.settings)


def test_every_context_is_named():
    """A string extracted without a context (QT_TR_NOOP outside a class) is never found at run time."""
    root = ET.parse(TS).getroot()
    assert all((ctx.findtext("name") or "").strip() for ctx in root.iter("context"))


TECHNICAL = {"GPT-2", "GPT-4", "ID", "Δ", "#", "BPE Explorer", "CS336", "UTF-8", "regex", "<|endoftext|>"}


def _visible_texts(w):
    from PySide6.QtWidgets import QAbstractButton, QGroupBox, QLabel, QLineEdit, QTableView, QTabWidget

    for child in w.findChildren(QLabel):
        yield child.text()
    for child in w.findChildren(QAbstractButton):
        yield child.text()
    for child in w.findChildren(QGroupBox):
        yield child.title()
    for child in w.findChildren(QLineEdit):
        yield child.placeholderText()
    for tabs in w.findChildren(QTabWidget):
        yield from (tabs.tabText(i) for i in range(tabs.count()))
    for view in w.findChildren(QTableView):
        m = view.model()
        if m is not None:
            yield from (str(m.headerData(i, Qt.Orientation.Horizontal) or "") for i in range(m.columnCount()))
    for a in w.menuBar().actions():
        yield a.text()
        if a.menu() is not None:
            yield from (b.text() for b in a.menu().actions())


def _english_texts(w) -> list[str]:
    import re

    english = []
    for text in _visible_texts(w):
        plain = re.sub(r"<[^>]+>", " ", text or "")
        for t in TECHNICAL:
            plain = plain.replace(t, " ")
        if re.search(r"[A-Za-z]{3,}", plain) and not re.search(r"[\u4e00-\u9fff]", plain):
            english.append(text)
    # the corpus file name is data, not interface text
    return [t for t in english if "small.txt" not in t]


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_no_english_left_in_the_chinese_window(qtbot, small_corpus, language):
    from bpe_gui import create_window

    from .gui_helpers import load

    try:
        w = create_window(load_sample=False, language=language)
        qtbot.addWidget(w)
        load(qtbot, w, small_corpus)
        with qtbot.waitSignal(w.controller.stepped):
            w.controller.step(1)
        english = _english_texts(w)
        if language == "en":  # the check finds English where there is some
            assert "&File" in english and "Pattern" in english
        else:
            assert not english, english
    finally:
        i18n.install("en")


def test_lang_flag_is_checked():
    from bpe_gui.app import parse_args

    assert parse_args(["--lang", "zh-CN"]).lang == "zh_CN"
    assert parse_args([]).lang is None
    with pytest.raises(SystemExit):
        parse_args(["--lang", "fr"])


@pytest.mark.parametrize(
    "argv", [["--lang", "zh_CN"], ["gui", "--lang", "zh_CN"], ["--lang", "zh_CN", "gui"]]
)
def test_cli_passes_lang_to_the_app(monkeypatch, argv):
    import bpe_gui.app
    from bpe_gui import cli

    got = []
    monkeypatch.setattr(bpe_gui.app, "main", lambda a: got.append(a) or 0)
    assert cli.main(argv) == 0
    assert got == [["--lang", "zh_CN"]]
