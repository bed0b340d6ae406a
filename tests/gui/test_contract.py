"""The automation contract: load_corpus / step / undo / train / cancel and their signals."""

from __future__ import annotations

import pytest

from bpe_gui import create_window
from bpe_gui.views.pairs_view import PairsView
from core import Trainer

from .gui_helpers import check_consistent, load


def test_load_reports_stats(qtbot, window, small_corpus):
    stats = load(qtbot, window, small_corpus)
    assert stats.size_bytes == small_corpus.stat().st_size
    assert stats.pretokens > stats.distinct_pretokens > 0
    c = window.controller
    assert c.has_trainer and c.index.n_merges == 0 and c.vocab_size == 257
    assert window.corpus_panel.values["Distinct"].text() == f"{stats.distinct_pretokens:,}"
    assert c.top_pairs(5)


def test_step_and_undo_match_core(qtbot, loaded):
    c = loaded.controller
    expected = Trainer.from_file(c.corpus_path, ["<|endoftext|>"]).steps(3)
    with qtbot.waitSignal(c.stepped) as blocker:
        c.step()
    assert [r.pair for r in blocker.args[0]] == [expected[0].pair]
    with qtbot.waitSignal(c.stepped) as blocker:
        c.step(n=2)
    assert [r.pair for r in blocker.args[0]] == [r.pair for r in expected[1:]]
    check_consistent(c)
    with qtbot.waitSignal(c.undone) as blocker:
        c.undo()
    assert blocker.args[0].pair == expected[2].pair
    assert c.index.n_merges == 2
    check_consistent(c)


def test_undo_with_nothing_to_undo(qtbot, loaded):
    c = loaded.controller
    with qtbot.waitSignal(c.undone) as blocker:
        c.undo()
    assert blocker.args[0] is None
    assert c.index.n_merges == 0


def test_step_n_in_worker(qtbot, window, sample_corpus, monkeypatch):
    from bpe_gui.actions import training as train_actions

    monkeypatch.setattr(train_actions, "SYNC_STEP_BUDGET", 1000)  # force the worker path
    load(qtbot, window, sample_corpus)
    c = window.controller
    with qtbot.waitSignal(c.stepped, timeout=60_000) as blocker:
        c.step(n=40)
    assert len(blocker.args[0]) == 40
    assert not c.busy
    check_consistent(c)


def test_big_single_steps_run_in_the_worker_and_queue_up(qtbot, loaded, monkeypatch):
    """A step that changes many words runs in the worker: the GUI stays free, and presses made
    meanwhile are queued and done next (an undo drops a queued step instead of waiting)."""
    from bpe_gui.actions import training as train_actions

    monkeypatch.setattr(train_actions, "SYNC_STEP_WORDS", 0)  # every step counts as big
    c = loaded.controller
    seen: list = []
    c.stepped.connect(seen.append)
    expected = Trainer.from_file(c.corpus_path, ["<|endoftext|>"]).steps(3)
    c.step()
    assert c.busy == "step" and not seen  # not done yet: the worker has it
    c.step()
    c.step()
    c.step()
    c.undo()  # takes back the last press, which was only queued
    qtbot.waitUntil(lambda: not c.busy and c.index.n_merges == 3, timeout=30_000)
    assert [r.pair for batch in seen for r in batch] == [r.pair for r in expected]
    assert c.records == expected  # records with their counts, ties and deltas
    assert "Merge #3:" in loaded.statusBar().currentMessage()
    check_consistent(c)
    # cancelling a step in the worker drops what was queued
    c.step()
    c.step()
    c.cancel()
    qtbot.waitUntil(lambda: not c.busy, timeout=30_000)
    assert c.index.n_merges in (3, 4)
    check_consistent(c)


def test_train_emits_progress_then_trained(qtbot, loaded):
    c = loaded.controller
    seen = []
    c.progress.connect(lambda d, t: seen.append((d, t)))
    with qtbot.waitSignal(c.trained, timeout=60_000) as blocker:
        c.train(300)
    summary = blocker.args[0]
    assert not summary.cancelled
    assert seen and seen[-1][0] == seen[-1][1]
    assert c.vocab_size == summary.vocab_size
    assert summary.vocab_size == 300  # the small corpus has far more than the 43 merges asked for
    assert summary.message.startswith("Trained 43 merges")
    check_consistent(c)
    assert loaded.training_panel.status.text() == summary.message
    # a run's records come without their pair-count changes (memory); counts and ties are there
    expected = Trainer.from_file(c.corpus_path, ["<|endoftext|>"]).steps(c.index.n_merges)
    assert [(r.pair, r.count, r.ties, r.words_changed) for r in c.records] == [
        (r.pair, r.count, r.ties, r.words_changed) for r in expected
    ]
    assert all(r.deltas == () for r in c.records)
    with qtbot.waitSignal(c.undone) as undone:
        c.undo()  # the engine's record of the undone merge has them, for the pair table
    assert undone.args[0].deltas == expected[-1].deltas and undone.args[0].deltas


def test_cancel_mid_run_keeps_consistent_merges(qtbot, window, sample_corpus):
    load(qtbot, window, sample_corpus)
    c = window.controller
    c.progress.connect(lambda done, total: c.cancel() if done > 0 else None)
    with qtbot.waitSignal(c.trained, timeout=60_000) as blocker:
        c.train(60_000)
    summary = blocker.args[0]
    assert summary.cancelled
    assert 0 < c.index.n_merges < 60_000 - 257
    assert summary.vocab_size == c.vocab_size
    assert f"Cancelled after {summary.n_merges:,} merges" in summary.message
    check_consistent(c)
    # the kept merges are exactly what a fresh trainer does in the same number of steps
    fresh = Trainer.from_file(sample_corpus, ["<|endoftext|>"])
    assert [r.pair for r in fresh.steps(c.index.n_merges)] == c.engine.merges()
    # and the session goes on from there
    with qtbot.waitSignal(c.stepped):
        c.step()
    c.undo()
    check_consistent(c)


def test_cancel_during_load_keeps_previous_corpus(qtbot, loaded, sample_corpus):
    c = loaded.controller
    before = c.corpus_path
    c.step(2)
    with qtbot.waitSignal(c.busy_changed, timeout=60_000, check_params_cb=lambda b: b == ""):
        c.load_corpus(str(sample_corpus))
        c.cancel()
    assert c.corpus_path == before
    assert c.index.n_merges == 2
    check_consistent(c)


def test_empty_corpus_trains_no_merges(qtbot, window, tmp_path):
    """FAULTS 1: an empty corpus gives 256 bytes + specials and no merges, and the UI says so."""
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    load(qtbot, window, empty)
    c = window.controller
    with qtbot.waitSignal(c.trained, timeout=30_000) as blocker:
        c.train(1000)
    summary = blocker.args[0]
    assert summary.n_merges == 0 and c.vocab_size == 257
    assert "No merges" in summary.message
    assert "No merges" in window.training_panel.status.text()
    with qtbot.waitSignal(c.stepped) as blocker:
        c.step()
    assert blocker.args[0] == []


def test_newer_load_request_wins(qtbot, window, small_corpus, sample_corpus):
    c = window.controller
    with qtbot.waitSignal(c.corpus_loaded, timeout=60_000) as blocker:
        c.load_corpus(str(sample_corpus))
        c.load_corpus(str(small_corpus))
    assert blocker.args[0].name == small_corpus.name
    qtbot.waitUntil(lambda: not c.busy)
    assert c.corpus_path == str(small_corpus)


def test_first_start_loads_the_sample(qtbot, sample_corpus):
    w = create_window()
    qtbot.addWidget(w)
    with qtbot.waitSignal(w.controller.corpus_loaded, timeout=60_000) as blocker:
        pass
    assert blocker.args[0].name == sample_corpus.name
    assert w.training_panel.train_button.isEnabled()


def test_load_corpus_right_after_create_window_replaces_the_sample(qtbot, small_corpus):
    w = create_window()
    qtbot.addWidget(w)
    c = w.controller
    with qtbot.waitSignal(c.corpus_loaded, timeout=60_000) as blocker:
        c.load_corpus(str(small_corpus))
    assert blocker.args[0].name == "small.txt"
    qtbot.waitUntil(lambda: not c.busy, timeout=10_000)  # (the sample load, queued first, never replaces it)
    assert c.corpus_path == str(small_corpus) and c.stats.name == "small.txt"


def test_train_then_step_continues(qtbot, loaded):
    c = loaded.controller
    with qtbot.waitSignal(c.trained, timeout=60_000):
        c.train(280)
    n = c.index.n_merges
    with qtbot.waitSignal(c.stepped):
        c.step()
    assert c.index.n_merges == n + 1
    check_consistent(c)


def test_steps_with_engine_look_ahead_match_core(qtbot, small_corpus, monkeypatch, own_engine_pool):
    """With look-ahead on (the engine merges ahead while the window is quiet), stepping, undoing
    and training give exactly the core's merges, and the views never see a merge done ahead."""
    from bpe_gui.jobs import worker

    monkeypatch.setattr(worker, "LOOKAHEAD", (0, 0.01))  # every merge, after 10 ms of quiet
    w = create_window(load_sample=False)
    qtbot.addWidget(w)
    c = w.controller
    load(qtbot, w, small_corpus)
    expected = Trainer.from_file(small_corpus, ["<|endoftext|>"])
    for i in range(6):
        # the pauses are stimuli, not waits for a result: they let the engine merge ahead, and the
        # asserts below hold whether or not it did
        qtbot.wait(60)  # quiet: the engine merges ahead
        assert c.top_pairs(5) == expected.top_pairs(5)  # not the state after the merge done ahead
        qtbot.wait(60)
        with qtbot.waitSignal(c.stepped):
            c.step()
        assert c.records[-1] == expected.step()
        if i % 3 == 2:
            qtbot.wait(60)
            c.undo()
            expected.undo()
    check_consistent(c)
    assert c.engine.merges() == expected.merges
    with qtbot.waitSignal(c.trained, timeout=30_000):
        c.train(c.vocab_size + 20)
    expected.run(expected.vocab_size + 20)
    assert [r.pair for r in c.records] == expected.merges
    check_consistent(c)


@pytest.mark.parametrize("lookahead", [None, (0, 0.01)])
def test_pair_table_after_back_to_back_steps_and_undos_matches_core(
    qtbot, small_corpus, monkeypatch, lookahead, own_engine_pool
):
    """A step or an undo brings the pair table's contents with it (one engine round trip); with
    look-ahead the engine merges ahead right after each step. The table, the tie count and the
    merges equal the core's at every point, stepping back to back."""
    from bpe_gui.jobs import worker

    monkeypatch.setattr(worker, "LOOKAHEAD", lookahead)
    w = create_window(load_sample=False)
    qtbot.addWidget(w)
    c = w.controller
    load(qtbot, w, small_corpus)
    expected = Trainer.from_file(small_corpus, ["<|endoftext|>"])
    model = w.findChild(PairsView).model
    for i in range(24):
        if i % 5 == 4:
            with qtbot.waitSignal(c.undone):
                c.undo()
            expected.undo()
        else:
            with qtbot.waitSignal(c.stepped):
                c.step()
            assert c.records[-1] == expected.step()
        top = expected.top_pairs(100)
        assert c.top_pairs(100) == top
        assert c.n_pairs_with_count(top[0][1]) == expected.n_pairs_with_count(top[0][1])
        assert [row[:2] for row in model.rows] == top
        tied = expected.n_pairs_with_count(top[0][1]) > 1
        assert ("tied with" in w.findChild(PairsView).next_label.text()) == tied
    check_consistent(c)
