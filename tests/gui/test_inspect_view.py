"""Evaluate → Dead and odd tokens: the core's lists for the tokenizer in the app, in a worker thread."""

from __future__ import annotations

import pytest

from bpe_gui.dialogs.inspect_dialog import InspectDialog, open_inspect
from core.evaluation.inspect import inspect_tokenizer

from .gui_helpers import SMALL_TEXT


def _step(qtbot, c, n):
    for _ in range(n):
        c.step(1)
    qtbot.waitUntil(lambda: not c.busy, timeout=30_000)


def test_lists_of_the_trained_tokenizer(qtbot, loaded, tmp_path):
    w = loaded
    c = w.controller
    _step(qtbot, c, 25)
    text = tmp_path / "other.txt"
    text.write_text("the cat sat. zebra!", encoding="utf-8")
    assert w.act_inspect.text().replace("&", "").startswith("Dead and odd tokens")
    w.act_inspect.trigger()
    dlg = w.findChild(InspectDialog)
    dlg.add_file(str(text))
    with qtbot.waitSignal(dlg.finished_inspect, timeout=60_000):
        assert dlg.run()
    assert dlg.last_error is None
    want = inspect_tokenizer(c.tokenizer(), [str(text)])
    r = dlg.report
    assert (r.unreachable_text, r.partial_utf8, r.never_used, r.specials) == (
        want.unreachable_text,
        want.partial_utf8,
        want.never_used,
        want.specials,
    )
    never = dlg.tables["never_used"]
    assert never.rowCount() == len(want.never_used) > 0
    assert [int(never.item(k, 0).text()) for k in range(never.rowCount())] == want.never_used
    assert dlg.tabs.tabText(5) == f"Never used ({len(want.never_used):,})"
    assert "other.txt" in dlg.summary.text()
    dlg.close()


def test_cancel_leaves_no_thread(qtbot, loaded, tmp_path):
    w = loaded
    big = tmp_path / "big.txt"
    big.write_text(SMALL_TEXT * 3000, encoding="utf-8")
    dlg = open_inspect(w)
    dlg.add_file(str(big))
    with qtbot.waitSignal(dlg.finished_inspect, timeout=60_000):
        assert dlg.run()
        dlg.cancel()
    assert dlg.summary.text() == "Cancelled." and dlg.report is None and not dlg.running
    dlg.close()


def test_in_chinese(qtbot, loaded):
    from bpe_gui.text import i18n

    i18n.install("zh_CN")
    try:
        dlg = open_inspect(loaded)
        dlg.close()
        dlg.setParent(None)  # (a new one is made: in the language now installed)
        dlg.deleteLater()
        dlg = open_inspect(loaded)
        assert dlg.windowTitle() == "无法到达与异常的词元"
        assert dlg.run_button.text() == "检查"
        dlg.close()
    finally:
        i18n.install("en")


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_every_tab_is_in_sight_on_a_1280x720_screen(qtbot, window, lang):
    """Longest and Never used were hidden behind the tab bar's scroll arrows."""
    from types import SimpleNamespace

    from bpe_gui.text import i18n

    i18n.install(lang)
    try:
        dlg = InspectDialog(window.controller, window)
        qtbot.addWidget(dlg)
        # counts as an imported 100k-token tokenizer gives them (and OLMo 1's 26 added tokens)
        dlg.report = SimpleNamespace(
            **{
                key: list(range(n))
                for key, n in zip(dlg.tables, (12, 1_234, 256, 5, 100, 99_000, 26), strict=True)
            }
        )
        dlg._retitle()
        dlg.show()
        qtbot.waitExposed(dlg)
        qtbot.waitUntil(lambda: dlg.tabs.tabBar().width() >= dlg.tabs.tabBar().sizeHint().width() - 2)
        bar = dlg.tabs.tabBar()
        assert dlg.width() <= 1280 - 40, dlg.width()
        for i in range(bar.count()):
            assert bar.tabRect(i).right() <= bar.width(), (i, bar.tabText(i), bar.tabRect(i), bar.width())
        assert "99,000" in bar.tabText(5)
    finally:
        i18n.install("en")


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_never_used_hint_wraps_in_the_browser_tab(qtbot, window, lang):
    """The Never used tab's hint ran off the list's edge ("…to list the t")."""
    from bpe_gui.text import i18n

    i18n.install(lang)
    try:
        window.resize(1280, 720)
        browser = window.browser
        lists = browser.lists
        browser.tabs.setCurrentWidget(lists.unused)
        hint = lists.unused_hint
        qtbot.waitUntil(hint.isVisible)
        assert hint.wordWrap() and hint.width() <= lists.unused.viewport().width()
        assert hint.heightForWidth(hint.width()) <= lists.unused.viewport().height()
        assert lists.unused.horizontalScrollBar().maximum() == 0
        lists.set_unused("t.txt", {0: b"a", 1: b"b"}, [0, 3])
        assert hint.isHidden() and lists.unused.item(0).text().startswith("1 ")
    finally:
        i18n.install("en")
