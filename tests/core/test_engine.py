"""The engine: a Trainer in a child process gives the same results as one in this process."""
from __future__ import annotations

import os
import signal
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from core import BPEError, Cancelled, CorpusError, Trainer
from core.engine import Engine, EngineDied

TEXT = ("the cat sat on the mat. the dog sat on the log; then the cat and the dog ran.\n"
        "Tokenizers learn merges: th + e -> the.<|endoftext|>naïve café 12345 \U0001f642\n")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    p = tmp_path_factory.mktemp("engine") / "corpus.txt"
    # varied words so that a run has thousands of merges to make
    words = [f"w{i:x}{'abcdefgh'[i % 8] * (i % 5)}" for i in range(4000)]
    p.write_bytes((TEXT * 40 + " ".join(words) + "\n").encode())
    return p


@pytest.fixture
def engine():
    eng = Engine()
    yield eng
    eng.close()


def test_load_steps_undo_and_queries_match_an_in_process_trainer(engine, corpus):
    info = engine.call("load", str(corpus), ["<|endoftext|>"])
    local = Trainer.from_file(corpus, ["<|endoftext|>"])
    assert info["stats"] == local.stats
    assert info["special_tokens"] == ["<|endoftext|>"] and info["vocab_size"] == local.vocab_size == 257
    assert engine.call("top_pairs", 10) == local.top_pairs(10)
    assert engine.call("next_pair") == local.next_pair()

    remote = engine.call("steps", 25)
    assert remote == local.steps(25)  # the records, with their ties and deltas
    assert engine.call("changed_words", 3, 5) == local.changed_words(3, limit=5)
    assert engine.call("undo") == local.undo()  # answered before the words are put back …
    assert engine.call("merges") == local.merges
    assert engine.call("words_with_token", b"th") == local.words_with_token(b"th")  # … which they are
    assert engine.call("steps", 5) == local.steps(5)
    assert engine.call("vocab") == local.vocab
    spec = engine.call("spec")
    assert spec.merges == tuple(local.merges) and spec.vocab == local.vocab


def test_run_streams_progress_records_and_pairs(engine, corpus):
    engine.call("load", str(corpus), [])
    events: list[tuple[str, object]] = []
    made = engine.stream("run", 256 + 600, on_event=lambda kind, payload: events.append((kind, payload)))
    assert made == 600
    batches = [p for k, p in events if k == "records"]
    streamed = [r for batch in batches for r in batch]
    expected = Trainer.from_file(corpus, []).steps(600)
    assert streamed == expected  # every record exactly once, in order
    progress = [p for k, p in events if k == "progress"]
    assert progress[-1] == ("merge", 600, 600)
    assert all(0 < done <= 600 for _phase, done, _total in progress)
    pairs = [p for k, p in events if k == "pairs"]
    assert pairs and all(len(p) <= 100 for p in pairs)


def test_cancel_stops_a_run_and_keeps_a_consistent_trainer(engine, tmp_path):
    # a run of several seconds: on a loaded machine the app's side may read the first batch late,
    # and the shared corpus's whole run (0.3 s) could be over before the cancel is sent
    corpus = tmp_path / "long_run.txt"
    words = [f"w{i:x}{'abcdefgh'[i % 8] * (i % 5)}{i * 7919 % 10007:x}" for i in range(20_000)]
    corpus.write_bytes((TEXT * 40 + " ".join(words) + "\n").encode())
    engine.call("load", str(corpus), [])
    streamed: list = []

    def on_event(kind, payload):
        if kind == "records":
            streamed.extend(payload)
            if len(streamed) >= 5:
                engine.cancel()  # from inside the callback, i.e. the calling thread

    with pytest.raises(Cancelled):
        engine.stream("run", 256 + 50_000, on_event=on_event)
    n = engine.call("n_merges")
    assert 5 <= n < 50_000
    assert [r.pair for r in streamed] == engine.call("merges")  # the last batch came before the end
    fresh = Trainer.from_file(corpus, [])
    assert [r.pair for r in fresh.steps(n)] == engine.call("merges")
    # the engine keeps working after a cancel (the flag is cleared for the next request)
    assert len(engine.call("steps", 2)) == 2


def test_cancel_from_another_thread(engine, corpus):
    engine.call("load", str(corpus), [])
    started = threading.Event()
    threading.Timer(0.0, lambda: (started.wait(10), engine.cancel())).start()
    with pytest.raises(Cancelled):
        engine.stream("run", 256 + 50_000, on_event=lambda kind, _p: started.set())


def test_core_errors_come_back_with_their_message(engine, corpus, tmp_path):
    with pytest.raises(BPEError, match="no corpus is loaded"):
        engine.call("steps", 1)
    with pytest.raises(BPEError, match="does not exist"):
        engine.call("load", str(tmp_path / "missing.txt"), [])
    bad = tmp_path / "utf16.txt"
    bad.write_bytes("hello\n".encode("utf-16"))
    with pytest.raises(CorpusError, match="UTF-16"):  # the core's error class comes back too
        engine.call("load", str(bad), [])
    engine.call("load", str(corpus), [])
    with pytest.raises(BPEError, match="does not occur"):
        engine.call("merge", (b"\x00", b"\x01"))
    with pytest.raises(BPEError, match="unknown engine request"):
        engine.call("__class__")
    # a failed load keeps the trainer that was there
    with pytest.raises(BPEError):
        engine.call("load", str(bad), [])
    assert engine.call("vocab_size") == 256


def test_one_request_at_a_time(engine, corpus):
    engine.call("load", str(corpus), [])
    inner: list = []

    def on_event(kind, _payload):
        if not inner:
            with pytest.raises(RuntimeError, match="busy"):
                engine.call("vocab_size")
            inner.append(True)

    engine.stream("run", 256 + 300, on_event=on_event)
    assert inner == [True]


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL to kill the engine")
def test_a_killed_engine_is_reported_and_a_new_one_starts(engine, corpus):
    engine.call("load", str(corpus), [])
    os.kill(engine._proc.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while engine._proc.is_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    with pytest.raises(EngineDied, match=r"stopped unexpectedly.*open it again"):
        engine.call("steps", 1)
    # the next request starts a fresh process (without a trainer)
    assert engine.call("ping") == "pong"
    with pytest.raises(BPEError, match="no corpus is loaded"):
        engine.call("steps", 1)


def test_close_ends_the_process(corpus):
    eng = Engine(start=True)
    proc = eng._proc
    eng.call("load", str(corpus), [])
    eng.close()
    assert not proc.is_alive() and not eng.alive


def test_look_ahead_is_invisible_and_makes_the_next_step_instant(corpus):
    """With look-ahead the engine does the next big merge while the app is quiet; a step then
    returns it, and every other request sees the state as if it had not happened."""
    eng = Engine(lookahead=(0, 0.01))  # every merge counts as big; 10 ms of quiet is enough
    try:
        eng.call("load", str(corpus), [])
        local = Trainer.from_file(corpus, [])
        time.sleep(0.3)  # the engine merged ahead meanwhile
        assert eng.call("next_step_size") == 0  # the next step is ready
        assert eng.call("steps", 1) == local.steps(1)
        time.sleep(0.3)
        # queries undo the merge done ahead first: same answers as the local trainer
        assert eng.call("top_pairs", 20) == local.top_pairs(20)
        assert eng.call("merges") == local.merges
        assert eng.call("next_step_size") == local.next_step_size()
        time.sleep(0.3)
        assert eng.call("steps", 3) == local.steps(3)  # the first one was done ahead
        time.sleep(0.3)
        assert eng.call("undo") == local.undo()
        assert eng.call("vocab") == local.vocab
        # requests in quick succession (the look-ahead is interrupted and rolled back)
        for i in range(30):
            if i % 3 == 0:
                assert eng.call("steps", 1) == local.steps(1)
            elif i % 3 == 1:
                assert eng.call("top_pairs", 5) == local.top_pairs(5)
            else:
                time.sleep(0.002 * i)
                assert eng.call("n_merges") == local.n_merges
        time.sleep(0.2)
        assert eng.stream("run", local.vocab_size + 50) == 50
        local.run(local.vocab_size + 50)
        assert eng.call("merges") == local.merges
        spec = eng.call("spec")  # export never includes the merge done ahead
        assert spec.merges == tuple(local.merges)
    finally:
        eng.close()


@pytest.mark.parametrize("tie_break", ["lexicographic", "first"])
def test_undo_answers_early_and_stays_exact(engine, corpus, tie_break):
    """The engine answers an undo before putting the words back; whatever comes next (pair
    queries answered meanwhile, or requests that need the words) matches a local trainer."""
    engine.call("load", str(corpus), [], "gpt2", tie_break)
    local = Trainer.from_file(corpus, [], tie_break=tie_break)
    assert engine.call("steps", 10) == local.steps(10)
    for follow_up in ("top_pairs", "next_pair", "n_pairs_with_count", "steps", "changed_words"):
        assert engine.call("undo") == local.undo()
        if follow_up == "top_pairs":
            assert engine.call("top_pairs", 30) == local.top_pairs(30)
        elif follow_up == "next_pair":
            assert engine.call("next_pair") == local.next_pair()
            assert engine.call("next_step_size") == local.next_step_size()
        elif follow_up == "n_pairs_with_count":
            assert engine.call("n_pairs_with_count", 3) == local.n_pairs_with_count(3)
        elif follow_up == "changed_words":
            assert engine.call("changed_words", 2, 10) == local.changed_words(2, limit=10)
        else:
            assert engine.call("steps", 2) == local.steps(2)
        time.sleep(0.05 if follow_up == "n_pairs_with_count" else 0)  # sometimes the engine finishes alone
    assert engine.call("steps", 20) == local.steps(20)
    assert engine.call("merges") == local.merges


def test_run_can_send_records_without_deltas(engine, corpus):
    engine.call("load", str(corpus), [])
    batches: list = []
    engine.stream("run", 256 + 80, 100, False, on_event=lambda k, p: batches.extend(p) if k == "records" else None)
    expected = Trainer.from_file(corpus, []).steps(80)
    assert [replace(r, deltas=()) for r in expected] == batches
    assert engine.call("records") == expected  # the engine keeps them whole


def test_a_cancel_made_while_a_request_starts_is_kept(engine, corpus):
    engine.call("load", str(corpus), [])
    with pytest.raises(Cancelled):
        engine.stream("run", 256 + 50_000, cancelled=lambda: True)
    assert engine.call("n_merges") < 50_000


def test_a_failing_event_handler_leaves_the_pipe_in_step(engine, corpus):
    engine.call("load", str(corpus), [])

    def boom(kind, payload):
        raise KeyError("handler failed")

    with pytest.raises(KeyError):
        engine.stream("run", 256 + 40, on_event=boom)
    assert engine.call("n_merges") == 40  # the next answer is this request's, not a leftover event
    rec = engine.call("records")[-1]
    assert engine.call("undo", rec) == rec  # a copy of the last record names it too


def test_close_while_another_thread_streams(corpus):
    eng = Engine()
    eng.call("load", str(corpus), [])
    outcome: list = []
    started = threading.Event()

    def run() -> None:
        try:
            eng.stream("run", 256 + 50_000, on_event=lambda k, p: started.set())
            outcome.append("finished")
        except (Cancelled, EngineDied) as e:
            outcome.append(type(e).__name__)

    th = threading.Thread(target=run)
    th.start()
    started.wait(10)
    eng.close()
    th.join(10)
    assert outcome and outcome[0] in ("Cancelled", "EngineDied", "finished") and not eng.alive


@pytest.mark.parametrize("tie_break", ["lexicographic", "first"])
def test_step_and_undo_views_answer_what_separate_requests_would(engine, corpus, tie_break):
    """steps_view / undo_view: the records (or the record undone) with the pair table that
    follows them, in one round trip."""
    engine.call("load", str(corpus), [], "gpt2", tie_break)
    local = Trainer.from_file(corpus, [], tie_break=tie_break)

    def view(k: int) -> dict:
        top = local.top_pairs(k)
        return {"top_pairs": top, "n_best": local.n_pairs_with_count(top[0][1])}

    for n in (1, 3, 1, 2):
        assert engine.call("steps_view", n, 40) == {"records": local.steps(n), **view(40)}
        assert engine.call("undo_view", 25) == {"record": local.undo(), **view(25)}
    assert engine.call("merges") == local.merges


def test_after_a_step_the_engine_merges_ahead_at_once(corpus):
    """Right after a step (no quiet time needed) the next merge is done ahead: the next step
    takes it, and any other request still sees the state before it."""
    eng = Engine(lookahead=(0, 3600.0))  # the quiet-time look-ahead never starts in this test
    try:
        eng.call("load", str(corpus), [])
        local = Trainer.from_file(corpus, [])
        assert eng.call("next_step_size") == local.next_step_size() > 0  # nothing done ahead yet
        for _ in range(4):
            assert eng.call("steps_view", 1, 10)["records"] == local.steps(1)
            time.sleep(0.2)
            assert eng.call("next_step_size") == 0  # done ahead (finished, not stopped)
            assert eng.call("steps", 1) == local.steps(1)
            time.sleep(0.2)
            assert eng.call("top_pairs", 10) == local.top_pairs(10)  # the merge ahead is undone first
            assert eng.call("next_step_size") == local.next_step_size() > 0
            assert eng.call("steps", 1) == local.steps(1)
            time.sleep(0.2)  # merged ahead again; zero steps take nothing and show the state without it
            assert eng.call("steps_view", 0, 10) == {"records": [], "top_pairs": local.top_pairs(10),
                                                     "n_best": local.n_pairs_with_count(local.top_pairs(1)[0][1])}
    finally:
        eng.close()


def test_a_merge_done_ahead_is_stopped_by_any_request_but_a_step():
    """While merging ahead, the engine reads what comes in: a step (or the question of its size)
    lets the merge finish, anything else stops it; either way the request is handled next."""
    import multiprocessing as mp

    from core.engine import _Server

    app_end, engine_end = mp.Pipe()
    server = _Server(engine_end, mp.RawValue("b", 0), 0, lookahead=(0, 0.1))
    server.trainer = Trainer.from_text(TEXT * 5, [])
    try:
        assert server._request_stops_merge() is False  # nothing came in
        for request, stops in ((("steps", (1,)), False), (("steps_view", (1, 100)), False),
                               (("next_step_size", ()), False), (("top_pairs", (10,)), True),
                               (("undo", ()), True), (("spec", ()), True)):
            app_end.send(request)
            assert server._request_stops_merge() is stops
            assert server._stash == request  # kept for the serve loop
            server._stash = None
        app_end.close()
        assert server._request_stops_merge() is True  # the app is gone
        assert server._stash == ("quit", ())
    finally:
        engine_end.close()
