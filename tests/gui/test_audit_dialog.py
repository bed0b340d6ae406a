"""Train → Audit a merge list: a list from a wrong trainer against the loaded corpus, its diagnosis,
and the jump to the first differing merge in the timeline (training that far first)."""

from __future__ import annotations

from bpe_gui.dialogs.audit_dialog import AuditDialog, open_audit
from core.bpe.byte_level import token_to_str
from core.evaluation.audit import audit_merges


def _merges_txt(path, merges) -> None:
    path.write_text("#version: 0.2\n" + "".join(f"{token_to_str(a)} {token_to_str(b)}\n" for a, b in merges))


def test_a_list_with_specials_left_in(qtbot, loaded, tmp_path, small_corpus):
    w = loaded
    c = w.controller
    from core.training.trainer import Trainer

    # a wrong list: trained with the special token left in the text
    t = Trainer.from_file(small_corpus, [])
    wrong = [r.pair for r in t.steps(40)]
    want = audit_merges(small_corpus, wrong, ["<|endoftext|>"])
    assert want.diagnosis == "specials_not_removed"
    path = tmp_path / "merges.txt"
    _merges_txt(path, wrong)
    w.act_audit.trigger()
    dlg = w.findChild(AuditDialog)
    with qtbot.waitSignal(dlg.finished_audit, timeout=60_000):
        assert dlg.run(str(path))
    r = dlg.report
    assert dlg.last_error is None and r is not None
    assert (r.first_divergence, r.given, r.expected, r.diagnosis) == (
        want.first_divergence,
        want.given,
        want.expected,
        want.diagnosis,
    )
    assert f"Merge {r.first_divergence} differs" in dlg.summary.text()
    assert "special tokens are left in the text" in dlg.summary.text()
    assert c.index.n_merges == 0 and dlg.show_button.isEnabled()
    dlg.show_in_timeline()
    assert not dlg.isVisible()  # (it stayed over the timeline it had just pointed to)
    qtbot.waitUntil(lambda: c.model.selected == r.first_divergence - 1, timeout=60_000)
    assert c.index.n_merges == r.first_divergence
    w.act_audit.trigger()  # shown again, with its report
    assert w.findChild(AuditDialog) is dlg and dlg.isVisible() and dlg.report is r
    assert f"Merge {r.first_divergence} differs" in dlg.summary.text()
    assert c.index.merges[r.first_divergence - 1].pair == r.expected
    # merged by steps: the story of the divergence has its pair-count changes
    story = loaded.story.browser.toPlainText()
    assert "went down" in story and "not known for this merge" not in story
    dlg.close()


def test_agreeing_list_and_bad_file(qtbot, loaded, tmp_path, small_corpus):
    c = loaded.controller
    for _ in range(12):
        c.step(1)
    qtbot.waitUntil(lambda: not c.busy, timeout=30_000)
    path = tmp_path / "merges.txt"
    _merges_txt(path, [m.pair for m in c.index.merges])
    dlg = open_audit(loaded)
    with qtbot.waitSignal(dlg.finished_audit, timeout=60_000):
        assert dlg.run(str(path))
    assert dlg.summary.text() == "All 12 merges agree with training on this corpus."
    assert not dlg.show_button.isEnabled()
    path.write_text("a b c\n")
    with qtbot.waitSignal(dlg.finished_audit, timeout=60_000):
        assert dlg.run(str(path))
    assert dlg.last_error and "line 1" in dlg.last_error
    dlg.close()


def test_a_pickled_list_with_min_ties_is_named_in_english_and_chinese(qtbot, loaded, tmp_path, small_corpus):
    import pickle

    from bpe_gui.text import i18n
    from core.evaluation.audit import AuditResult
    from core.training.trainer import Trainer

    # a student's list saved with pickle: correct training, then one tie broken by the smallest pair
    t = Trainer.from_file(small_corpus, ["<|endoftext|>"])
    wrong = []
    while True:
        tied = t.tied_pairs()
        if not tied:
            break
        wrong.append(min(tied))
        t.merge(wrong[-1])
        if len(tied) > 1:
            break
    path = tmp_path / "merges.pkl"
    path.write_bytes(pickle.dumps(wrong))
    dlg = open_audit(loaded)
    with qtbot.waitSignal(dlg.finished_audit, timeout=60_000):
        assert dlg.run(str(path))
    assert dlg.last_error is None and dlg.report is not None
    assert dlg.report.diagnosis == "smallest_of_tie" and dlg.report.first_divergence == len(wrong)
    assert "min() instead of max()" in dlg.summary.text()
    none = AuditResult(
        9, 0, 1, (b"a", b" "), (b" ", b"b"), 0, 5, "other_pretokenization", {"pattern": "none", "count": 7}
    )
    assert "across pre-token boundaries" in dlg.describe(none)
    try:
        i18n.install("zh_CN")
        assert "用 min() 而不是 max() 打破平局" in dlg.describe(dlg.report)
        assert "跨越预分词边界" in dlg.describe(none)
    finally:
        i18n.install("en")
    dlg.close()


def test_runs_merged_from_the_right_are_told_in_english_and_chinese(qtbot, loaded):
    from bpe_gui.text import i18n
    from core.evaluation.audit import AuditResult

    r = AuditResult(
        40,
        9,
        10,
        (b".", b".."),
        (b"..", b"."),
        0,
        6,
        "merged_from_the_right",
        {"token": b".".hex(), "count": 6, "example": b" ...".hex()},
    )
    dlg = open_audit(loaded)
    text = dlg.describe(r)
    assert "from the right in runs of three or more" in text and "left to right" in text
    assert "“.” + “..” where “..” + “.” is correct" in text
    try:
        i18n.install("zh_CN")
        text = dlg.describe(r)
        assert "从右往左合并 “.” + “.”" in text and "请从左往右执行每次合并" in text
    finally:
        i18n.install("en")
    dlg.close()


def test_a_bad_pickle_is_told_in_chinese(qtbot, loaded, tmp_path):
    import pickle

    from bpe_gui.text import i18n

    path = tmp_path / "merges.pkl"
    path.write_bytes(pickle.dumps([("t", "h")]))  # str pairs, not bytes
    dlg = open_audit(loaded)
    try:
        i18n.install("zh_CN")
        with qtbot.waitSignal(dlg.finished_audit, timeout=60_000):
            assert dlg.run(str(path))
        assert dlg.last_error is not None
        assert "merges.pkl：第 1 个合并是 ('t', 'h')，不是字节串对" in dlg.last_error
        assert "请在把它们转成字符串之前保存" in dlg.last_error
    finally:
        i18n.install("en")
    with qtbot.waitSignal(dlg.finished_audit, timeout=60_000):
        assert dlg.run(str(path))
    assert "merge 1 is ('t', 'h'), not a pair of bytes" in (dlg.last_error or "")
    dlg.close()


def test_gpt2_character_ties_are_told_in_english_and_chinese(qtbot, loaded):
    from bpe_gui.text import i18n
    from core.evaluation.audit import AuditResult

    r = AuditResult(
        40,
        92,
        93,
        (b" c", b"om"),
        (b"t", b"h"),
        172,
        172,
        "gpt2_chars_order",
        {"tied": 2, "ties_agreeing": 3},
    )
    dlg = open_audit(loaded)
    assert "greatest compared as GPT-2's printable characters" in dlg.describe(r)
    try:
        i18n.install("zh_CN")
        assert "列表选了按 GPT-2 可打印字符" in dlg.describe(r)
    finally:
        i18n.install("en")
    dlg.close()
