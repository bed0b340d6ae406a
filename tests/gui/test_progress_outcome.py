"""The training panel's bar says what the last task did, and only while that is what is on show: a
run ends "done" (or "cancelled"); a step, an undo, a rewind or a reset afterwards makes it idle again
(it used to keep "done" with a full bar at 0 merges after Reset)."""

from __future__ import annotations


def _bar(w):
    bar = w.training_panel.progress
    return bar.format(), bar.value(), bar.maximum()


def test_done_only_after_a_run(qtbot, loaded):
    w, c = loaded, loaded.controller
    assert _bar(w) == ("idle", 0, 1)
    with qtbot.waitSignal(c.trained, timeout=60_000):
        c.train(300)
    qtbot.waitUntil(lambda: not c.busy)
    assert _bar(w) == ("done", 1, 1)

    n = c.index.n_merges
    c.undo()
    qtbot.waitUntil(lambda: not c.busy and c.index.n_merges == n - 1)
    assert _bar(w) == ("idle", 0, 1)

    with qtbot.waitSignal(c.trained, timeout=60_000):
        c.train(300)
    qtbot.waitUntil(lambda: not c.busy)
    assert _bar(w)[0] == "done"

    c.rewind_to(10)
    qtbot.waitUntil(lambda: not c.busy and c.index.n_merges == 10)
    assert _bar(w) == ("idle", 0, 1)

    c.step()
    qtbot.waitUntil(lambda: not c.busy and c.index.n_merges == 11)
    assert _bar(w) == ("idle", 0, 1)

    with qtbot.waitSignal(c.trained, timeout=60_000):
        c.train(300)
    qtbot.waitUntil(lambda: not c.busy)
    c.reset()
    qtbot.waitUntil(lambda: not c.busy and c.index.n_merges == 0)
    assert _bar(w) == ("idle", 0, 1)
