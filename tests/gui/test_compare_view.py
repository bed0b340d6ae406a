"""File → Vocabulary overlap: the app's tokenizer beside the compared one (core.evaluation.compare), in a worker."""

from __future__ import annotations

from bpe_gui.dialogs.overlap_dialog import open_overlap
from bpe_gui.views.token_spans import LINK_BG
from core.evaluation.compare import compare_tokenizers


def test_overlap_of_the_compared_tokenizer(qtbot, trained, tmp_path, small_corpus):
    w = trained
    c = w.controller
    c.export(tmp_path, ["gpt2"])
    for _ in range(10):
        c.undo()
    qtbot.waitUntil(lambda: not c.busy, timeout=30_000)
    dlg = open_overlap(w)
    assert not dlg.run_button.isEnabled() and "Compare with tokenizer" in dlg.names.text()
    with qtbot.waitSignal(c.tokenizer_loaded, timeout=30_000) as blocker:
        assert w.compare_with(tmp_path / "vocab.json")
    other = blocker.args[0].tokenizer
    w.act_overlap.trigger()
    assert dlg.run_button.isEnabled() and "vocab.json" in dlg.names.text()
    dlg.add_file(str(small_corpus))
    with qtbot.waitSignal(dlg.finished_compare, timeout=60_000):
        assert dlg.run()
    assert dlg.last_error is None
    want = compare_tokenizers(c.tokenizer(), other, [str(small_corpus)])
    r = dlg.report
    assert (r.only_a, r.only_b, r.first_differing_merge) == ([], want.only_b, want.first_differing_merge)
    assert len(r.only_b) == 10 and r.merge_a is None
    assert dlg.tables["only_b"].rowCount() == 10 and dlg.tabs.tabText(1) == "Only in the other (10)"
    assert dlg.files_table.item(0, 2).text() == f"{want.files[0].tokens_a:,}"
    assert dlg.files_table.item(0, 3).text() == f"{want.files[0].tokens_b:,}"
    assert f"part at merge {want.first_differing_merge:,}" in dlg.summary.text()
    # counts without the special tokens (shared + only here = the vocab less 1 special): said, and named
    assert r.n_shared + len(r.only_a) + 1 == r.vocab_a
    assert "Special tokens are compared apart, by their text: 1 shared, 0 only here, 0 only there." in (
        dlg.summary.text()
    )
    assert "<|endoftext|>" in dlg.summary.toolTip()
    dlg.close()


def test_side_by_side_panes_wrap_their_stats_instead_of_cutting_them(qtbot, trained, tmp_path):
    """Two panes at half width cut "1.41 chars/token · vocab 1,000" and the hover line at 1280×720:
    side by side the stats wrap onto two lines and the hover line (also the tooltip) is left out."""
    w = trained
    c = w.controller
    c.export(tmp_path, ["gpt2"])
    tv = w.tokenize
    assert tv.primary.info.isVisibleTo(tv) and not tv.primary.stats.wordWrap()
    with qtbot.waitSignal(c.tokenizer_loaded, timeout=30_000):
        assert w.compare_with(tmp_path / "vocab.json")
    qtbot.waitUntil(lambda: tv.secondary.tokenizer is not None)
    for pane in (tv.primary, tv.secondary):
        assert pane.stats.wordWrap() and not pane.info.isVisibleTo(tv)
        assert pane.stats.height() >= 2 * pane.stats.fontMetrics().lineSpacing()
    tv.set_comparison(None)
    assert tv.primary.info.isVisibleTo(tv) and not tv.primary.stats.wordWrap()


def test_a_token_clicked_in_either_pane_marks_the_same_bytes_in_both(qtbot, trained, tmp_path):
    """Side by side, a click on a token of the compared tokenizer did nothing (no mark, no word in
    the status bar), and one in this tokenizer's pane left the other pane as it was: now the
    tokens of both panes holding the clicked token's bytes turn blue and the status bar names them."""
    w = trained
    c = w.controller
    c.export(tmp_path, ["gpt2"])
    for _ in range(10):  # (the compared tokenizer has 10 merges more: some words are cut apart here)
        c.undo()
    qtbot.waitUntil(lambda: not c.busy, timeout=30_000)
    tv = w.tokenize
    with qtbot.waitSignal(c.tokenizer_loaded, timeout=30_000):
        assert w.compare_with(tmp_path / "vocab.json")
    qtbot.waitUntil(lambda: tv.secondary.tokenizer is not None)
    assert tv.wait_idle()
    mine, theirs = tv.primary.view, tv.secondary.view
    assert mine.spans and theirs.spans

    def holding(spans, start, end):
        return [k for k, s in enumerate(spans) if s.byte_start < end and s.byte_end > start]

    # a token of the other pane that this tokenizer cuts into more than one token
    i = next(k for k, s in enumerate(theirs.spans) if len(holding(mine.spans, s.byte_start, s.byte_end)) > 1)
    s = theirs.spans[i]
    with qtbot.waitSignal(c.message) as said:
        theirs.clicked.emit(i)
    want_mine = holding(mine.spans, s.byte_start, s.byte_end)
    assert mine.linked_spans() == want_mine and theirs.linked_spans() == [i]
    blue = [sel for sel in mine.extraSelections() if sel.format.background().color().name() == LINK_BG]
    assert [(b.cursor.selectionStart(), b.cursor.selectionEnd()) for b in blue] == [
        (mine.starts[k], mine._ends[k]) for k in want_mine
    ]
    msg = said.args[0]
    assert f"1 token in {tv.secondary.name}" in msg and f"{len(want_mine)} tokens in {tv.primary.name}" in msg
    assert f"({mine.spans[want_mine[0]].id:,})" in msg
    # … and back: a token of this pane marks the other pane's tokens over its bytes
    j = want_mine[0]
    mine.clicked.emit(j)
    t = mine.spans[j]
    assert mine.linked_spans() == [j] and theirs.linked_spans() == holding(
        theirs.spans, t.byte_start, t.byte_end
    )
    # new text: the marks belonged to the old one
    tv.set_text("something else entirely")
    assert tv.wait_idle()
    assert mine.linked_spans() == [] and theirs.linked_spans() == []


def test_overlap_counts_of_another_vocab_are_not_left_on_show(qtbot, trained, tmp_path, small_corpus):
    """The overlap dialog kept its counts after a step (this app's vocab changed) and after a second
    Compare with… (they were GPT-2's, under Qwen's name): they are dropped, with what to do."""
    w = trained
    c = w.controller
    c.export(tmp_path / "a", ["gpt2"])
    for _ in range(10):
        c.undo()
    qtbot.waitUntil(lambda: not c.busy, timeout=30_000)
    with qtbot.waitSignal(c.tokenizer_loaded, timeout=30_000):
        assert w.compare_with(tmp_path / "a" / "vocab.json")
    dlg = open_overlap(w)
    with qtbot.waitSignal(dlg.finished_compare, timeout=60_000):
        assert dlg.run()
    assert dlg.report is not None and dlg.tables["only_b"].rowCount() == 10
    c.step(1)
    qtbot.waitUntil(lambda: not c.busy, timeout=30_000)
    assert dlg.report is None and dlg.tables["only_b"].rowCount() == 0
    assert dlg.tabs.tabText(1) == "Only in the other (–)" and "press Compare again" in dlg.summary.text()
    with qtbot.waitSignal(dlg.finished_compare, timeout=60_000):
        assert dlg.run()
    assert len(dlg.report.only_b) == 9
    # another tokenizer compared with: the counts of the first one go
    for _ in range(5):
        c.undo()
    qtbot.waitUntil(lambda: not c.busy, timeout=30_000)
    with qtbot.waitSignal(dlg.finished_compare, timeout=60_000):
        assert dlg.run()
    c.export(tmp_path / "b", ["gpt2"])
    with qtbot.waitSignal(c.tokenizer_loaded, timeout=30_000):
        assert w.compare_with(tmp_path / "b" / "vocab.json")
    w.act_overlap.trigger()
    assert dlg.report is None and dlg.tables["only_b"].rowCount() == 0 and dlg.run_button.isEnabled()
    dlg.close()


def test_overlap_tells_added_tokens_apart_from_special_ones(qtbot, trained, tmp_path):
    """Compared with a tokenizer.json whose added tokens are marked "special": false (as OLMo 1's), the
    dialog counted them as special tokens "only there", where the vocab list and Tokenize call them
    added."""
    from tokenizers import AddedToken, pre_tokenizers
    from tokenizers import Tokenizer as HF
    from tokenizers.models import BPE
    from tokenizers.trainers import BpeTrainer

    hf = HF(BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.train_from_iterator(
        ["the cat sat on the mat.    indented    code"] * 20,
        BpeTrainer(
            vocab_size=290,
            show_progress=False,
            special_tokens=["<|endoftext|>"],
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        ),
    )
    hf.add_tokens([AddedToken(t, normalized=True, special=False) for t in ["   ", "|||IP|||"]])
    hf.save(str(tmp_path / "tokenizer.json"))
    w, c = trained, trained.controller
    with qtbot.waitSignal(c.tokenizer_loaded, timeout=30_000):
        assert w.compare_with(tmp_path / "tokenizer.json")
    dlg = open_overlap(w)
    with qtbot.waitSignal(dlg.finished_compare, timeout=60_000):
        assert dlg.run()
    text = dlg.summary.text()
    assert "Special tokens are compared apart, by their text: 1 shared, 0 only here, 0 only there." in text
    assert "Added tokens that are not special, by their text: 0 shared, 0 only here, 2 only there." in text
    assert "added, only there: ···, |||IP|||" in dlg.summary.toolTip()  # (spaces shown)
