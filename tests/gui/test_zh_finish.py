"""The Chinese UI finished: Qt's own dialogs and key names, menu mnemonics, and two words for
merge number and rank."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QFileDialog, QLabel

from bpe_gui.dialogs.messages import ShortcutsDialog
from bpe_gui.text import i18n
from bpe_gui.text.qt_strings import plain_action_text


@pytest.fixture
def chinese(qapp):
    i18n.install("zh_CN")
    yield
    i18n.install("en")


def test_qt_file_dialog_and_key_names_in_chinese(qtbot, chinese):
    d = QFileDialog(None, "x")
    d.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    qtbot.addWidget(d)
    labels = [w.text() for w in d.findChildren(QLabel) if w.text()]
    assert labels and not [t for t in labels if re.search(r"[A-Za-z]{3,}", t)], labels
    assert "查找范围(&L)：" in labels and "文件类型(&T)：" in labels
    native = QKeySequence.SequenceFormat.NativeText
    assert QKeySequence("Right").toString(native) == "右方向键"
    assert QKeySequence("Space").toString(native) == "空格"  # Qt's own translation


def _mnemonic(text: str) -> str | None:
    m = re.search(r"&([^&])", text.replace("&&", ""))
    return m.group(1).lower() if m else None


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_menu_mnemonics_are_unique_and_stay_out_of_the_shortcut_table(qtbot, language):
    from bpe_gui import create_window

    try:
        w = create_window(load_sample=False, language=language)
        qtbot.addWidget(w)
        bar = list(w.menuBar().actions())
        menus = [[a.text() for a in bar]] + [
            [b.text() for b in a.menu().actions() if not b.isSeparator()] for a in bar if a.menu()
        ]
        for texts in menus:
            keys = [k for k in map(_mnemonic, texts) if k]
            assert len(keys) == len(set(keys)), texts
        dlg = ShortcutsDialog(w.actions(), w)
        qtbot.addWidget(dlg)
        names = [name for name, _keys in dlg.rows]
        assert names and not [n for n in names if "&" in n or re.search(r"\([A-Z]\)", n)], names
    finally:
        i18n.install("en")


def test_plain_action_text():
    assert plain_action_text("打开会话(&N)…") == "打开会话"
    assert plain_action_text("Open sessio&n…") == "Open session"
    assert plain_action_text("Fish && &Chips") == "Fish & Chips"


def test_merge_number_and_rank_are_two_words_with_glossary_entries(chinese):
    from bpe_gui.dialogs.glossary import terms

    found = {k: (term, text) for k, term, text in terms()}
    assert found["merge_number"][0] == "合并编号" and "从 1 数起" in found["merge_number"][1]
    assert found["rank"][0] == "排位" and "从 0 数起" in found["rank"][1]
    for key in ("compression", "throughput", "byte_fallback"):
        assert key in found
    root = ET.parse(i18n.ts_path("zh_CN")).getroot()
    translations = [m.findtext("translation") or "" for m in root.iter("message")]
    # "序号" meant both; "秩" is a matrix's rank
    assert not [t for t in translations if "序号" in t or "秩" in t]
    assert not [t for t in translations if "最大字节对" in t]  # read as "the largest count"
