"""A reopened session whose replay is stopped keeps its file: the autosave does not cut it short."""

from __future__ import annotations

from bpe_gui.actions.session import ReplayJob
from bpe_gui.jobs import worker
from core.formats.session import load_session


def _reopen_and_stop(qtbot, monkeypatch, w, n: int = 30):
    """Step ``n`` merges, autosave, then reopen that last session and Cancel during its replay.
    Returns (the session file, its merges, every message said meanwhile)."""
    c = w.controller
    c.step(n)
    qtbot.waitUntil(lambda: not c.busy and c.index.n_merges == n, timeout=30_000)
    pairs = [m.pair for m in c.index.merges]
    last = w.autosave_path()
    w.autosave()
    assert [tuple(p) for p in load_session(last).spec.merges] == pairs
    said: list[str] = []
    c.message.connect(said.append)
    start = worker.start

    def started_and_stopped(job, on_finished):
        # the replay stopped at once (Cancel pressed as it began): a Cancel during it raced the
        # replay of a small session, which can end first
        if isinstance(job, ReplayJob):
            worker.Job.cancel(job)
        return start(job, on_finished)

    monkeypatch.setattr(worker, "start", started_and_stopped)
    with qtbot.waitSignal(c.trained, timeout=60_000):
        assert w.open_session(str(last))
    monkeypatch.setattr(worker, "start", start)
    c.message.disconnect(said.append)
    assert c.index.n_merges < n
    return last, pairs, said


def test_stopping_the_replay_of_the_last_session_does_not_cut_its_file(qtbot, monkeypatch, loaded):
    """Reopening the last session (8,817 merges on a 107 MB corpus), Cancel (or Esc, or closing the
    window) during its replay, then quitting: the autosave wrote the 103 merges replayed so far over
    the last session's file, and the other 8,714 were gone."""
    w = loaded
    c = w.controller
    last, pairs, _said = _reopen_and_stop(qtbot, monkeypatch, w)
    kept = c.index.n_merges
    c.step(5)  # (the same merges as the file's next ones)
    qtbot.waitUntil(lambda: not c.busy and c.index.n_merges == kept + 5, timeout=30_000)
    w.autosave()  # (what closing the window does)
    assert [tuple(p) for p in load_session(last).spec.merges] == pairs


def test_a_stopped_replay_says_the_session_file_keeps_its_merges(qtbot, monkeypatch, loaded):
    """ "Cancelled after 103 merges; they are kept" after stopping a reopen left the user to wonder
    about the other merges of the file: the message says the file keeps them all."""
    last, _pairs, said = _reopen_and_stop(qtbot, monkeypatch, loaded)
    assert any(f"The session file {last.name} keeps all its 30 merges" in m for m in said), said
