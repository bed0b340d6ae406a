"""The pair table follows the merge the learner picks: picked in the timeline or the merges list,
an earlier merge shows the counts it was chosen from (checked against a fresh training stopped
just before it, in this process), says so, and goes back to the counts now."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel

from bpe_gui.model.formatting import signed, token_label
from core import Trainer

from .gui_helpers import import_tokenizer, load, reimport_trained


def _rows(view) -> list:
    return [(pair, count) for pair, count, _d, _m in view.model.rows]


def _cells(view, column: int) -> list:
    m = view.table.model()
    return [m.index(row, column).data() for row in range(m.rowCount())]


def _fresh(path, merges: int) -> Trainer:
    """A new training of the corpus, stopped after ``merges`` merges (nothing shared with the app's;
    the app's default settings)."""
    t = Trainer.from_file(path, ["<|endoftext|>"], workers=1)
    t.steps(merges)
    return t


def _check_before(view, c, path, rank: int) -> None:
    fresh = _fresh(path, rank)
    assert _rows(view) == fresh.top_pairs(100)
    record = fresh.step()  # what merge #rank+1 changed, made again here
    assert record.pair == c.records[rank].pair == view.model.rows[0][0]  # its pair is the top row
    changes = dict(record.deltas)
    assert _cells(view, 3) == [signed(changes.get(p, 0)) for p, _n in _rows(view)]
    assert f"before merge #{rank + 1}" in view.title.text()
    assert f"now at merge #{c.index.n_merges}" in view.title.text()
    assert view.now_button.isVisible()
    a, b = record.pair
    assert token_label(a + b) in view.next_label.text().replace("&lt;", "<").replace("&gt;", ">")


def _check_now(view, c, path) -> None:
    assert _rows(view) == _fresh(path, c.index.n_merges).top_pairs(100)
    assert "before merge" not in view.title.text()
    button = getattr(view, "now_button", None)  # ("Back to now": shown only while the past is)
    assert getattr(view, "shown_rank", None) is None and (button is None or not button.isVisible())


def test_an_earlier_merge_shows_the_counts_it_was_chosen_from(qtbot, window, sample_corpus):
    w, c = window, window.controller
    load(qtbot, w, sample_corpus)
    for _ in range(20):
        c.step()
    qtbot.waitUntil(lambda: c.index.n_merges == 20 and not c.busy, timeout=30_000)
    view = w.pairs
    live = _cells(view, 3)  # Δ of the latest step, to come back to
    _check_now(view, c, sample_corpus)

    w.timeline.merge_chosen.emit(4)  # merge #5 clicked in the timeline
    assert c.selected_merge == 4
    _check_before(view, c, sample_corpus, 4)
    story = (
        w.story.browser.toPlainText()
    )  # the story tells the same merge, with the count of the table's top row
    assert story.splitlines()[0].split("→")[-1].strip() == token_label(c.records[4].token)
    assert f"{view.model.rows[0][1]:,}" in story
    gone = [p for p, _n in _rows(view) if c.engine.pair_count(p) == 0]
    assert gone, "pairs of the table then that are gone now are shown with their counts then"

    # the merges list: merge #10's row
    table, proxy = w.browser.merges_table, w.browser.merges_proxy
    qtbot.waitUntil(lambda: proxy.rowCount() == c.index.n_merges, timeout=5000)
    flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
    table.selectionModel().setCurrentIndex(proxy.index(9, 0), flags)
    assert c.selected_merge == 9
    _check_before(view, c, sample_corpus, 9)

    # back to now: the live table as it was, its Δ those of the latest step; and in every view no
    # merge is selected any more, the story tells the latest merge, as after a step
    view.now_button.click()
    _check_now(view, c, sample_corpus)
    assert _cells(view, 3) == live
    assert c.selected_merge is None
    latest = token_label(c.records[19].token)
    assert w.story.browser.toPlainText().splitlines()[0].split("→")[-1].strip() == latest
    assert not any(line.isVisible() for line in w.timeline.lines)  # no merge marked on the timeline
    assert not w.browser.merges_table.selectionModel().hasSelection()
    assert "Click a point of the timeline" in w.details.browser.toPlainText()

    # undo and step while an earlier merge is shown: the table follows the merges, now
    w.timeline.merge_chosen.emit(4)
    with qtbot.waitSignal(c.merges_removed, timeout=20_000):
        c.undo()
    _check_now(view, c, sample_corpus)
    assert c.index.n_merges == 19
    w.timeline.merge_chosen.emit(4)
    _check_before(view, c, sample_corpus, 4)  # "now at merge #19"
    c.step()
    qtbot.waitUntil(lambda: c.index.n_merges == 20 and not c.busy, timeout=30_000)
    _check_now(view, c, sample_corpus)
    assert _cells(view, 3) == live  # the same merge again: the same changes


def test_an_imported_tokenizer_says_its_counts_before_a_merge_are_not_known(qtbot, loaded, tmp_path):
    w, c = loaded, loaded.controller
    reimport_trained(qtbot, c, tmp_path)
    c.select_merge(3)
    view = w.pairs
    assert view.model.rows == []
    assert "before merge #4" in view.title.text()
    assert "not known" in view.next_label.text()
    view.now_button.click()
    assert view.shown_rank is None and "before merge" not in view.title.text()


def test_an_extension_shows_its_new_merges_tables_and_says_the_base_ones_are_not_known(
    qtbot, window, tmp_path
):
    """Continue training from an imported tokenizer: the trainer numbers the new merges from 0, the
    views after the base's merges; a base merge was made elsewhere."""
    from core.tokenization.extend import ExtendTrainer

    from .test_continue_training import OTHER, base_files, continue_on

    w, c = window, window.controller
    paths, _spec = base_files(tmp_path)
    import_tokenizer(qtbot, c, paths)
    base = c.model.imported
    n_base = len(base.merges)
    corpus = tmp_path / "other.txt"
    corpus.write_text(OTHER, encoding="utf-8")
    continue_on(qtbot, w, corpus)
    c.step(6)
    qtbot.waitUntil(lambda: c.index.n_merges == n_base + 6 and not c.busy, timeout=30_000)
    view = w.pairs
    for new in (0, 3, 5):
        c.select_merge(n_base + new)
        local = ExtendTrainer.from_files(base, [corpus])
        local.steps(new)
        assert _rows(view) == local.top_pairs(100)
        assert f"before merge #{n_base + new + 1}" in view.title.text()
    c.select_merge(n_base - 1)
    assert view.model.rows == [] and "base tokenizer" in view.next_label.text()


def test_a_trainer_without_history_says_so_instead_of_numbers(qtbot, window, sample_corpus, monkeypatch):
    """(The app's engine always keeps the history; a trainer that did not would answer with an error.)"""
    from core.engine.client import Engine
    from core.errors import BPEError

    w, c = window, window.controller
    load(qtbot, w, sample_corpus)
    for _ in range(3):
        c.step()
    qtbot.waitUntil(lambda: c.index.n_merges == 3 and not c.busy, timeout=30_000)

    def no_history(*_args):
        raise BPEError("this trainer was created with keep_history=False")

    monkeypatch.setattr(Engine, "pairs_before", no_history)
    errors: list = []
    c.error.connect(errors.append)
    c.select_merge(1)
    view = w.pairs
    assert view.model.rows == [] and "kept no history" in view.next_label.text()
    assert "before merge #2" in view.title.text() and not errors  # (said in the table, not a dialog)


def test_after_a_whole_run_the_story_tells_what_the_picked_merge_changed(qtbot, loaded, small_corpus):
    """Train to vocab size sends the merges without their pair-count changes (they are big); the story
    of a merge picked then said "Pair count changes are not known for this merge: Step keeps them, one
    whole training run does not", while the pair table beside it showed that merge's Δ. The engine's
    trainer keeps them: the story tells them as after a step (checked against a fresh training)."""
    w, c = loaded, loaded.controller
    with qtbot.waitSignal(c.trained, timeout=60_000):
        c.train(300)
    rank = 3
    assert not c.records[rank].deltas  # (the run sent none)
    c.select_merge(rank)
    story = w.story.browser.toPlainText()
    assert "not known for this merge" not in story
    record = _fresh(small_corpus, rank).step()
    assert record.pair == c.records[rank].pair
    down = [(p, d) for p, d in record.deltas if d < 0 and p != record.pair]
    up = [(p, d) for p, d in record.deltas if d > 0]
    assert down and up
    for (a, b), d in down[:3] + up[:3]:
        assert f"{token_label(a)} + {token_label(b)} {'+' if d > 0 else '−'}{abs(d):,}" in story
    # the pair table's Δ of the merged pair is the story's count
    assert view_delta(w.pairs, record.pair) == signed(dict(record.deltas)[record.pair])
    # back to now: the story of the latest merge (also made by the run) tells its changes too
    w.pairs.now_button.click()
    assert "not known for this merge" not in w.story.browser.toPlainText()


def view_delta(view, pair) -> str:
    return next(_cells(view, 3)[i] for i, (p, _n) in enumerate(_rows(view)) if p == pair)
