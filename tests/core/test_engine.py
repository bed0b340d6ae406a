"""The engine: a Trainer in a child process gives the same results as one in this process."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest

from core import BPEError, Cancelled, CorpusError, Trainer
from core.engine.client import Engine, EngineDied
from core.engine.protocol import Event, Op, Pairs, Progress, Records, Request

from .engine_corpus import TEXT, write_engine_corpus


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    return write_engine_corpus(tmp_path_factory.mktemp("engine") / "corpus.txt")


@pytest.fixture
def engine():
    eng = Engine()
    yield eng
    eng.close()


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    """Wait until ``condition()`` holds (checked every 10 ms); fail the test after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.01)


needs_sigstop = pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="needs SIGSTOP/SIGCONT")


@contextmanager
def engine_stopped(eng: Engine) -> Iterator[Callable[[], None]]:
    """Stop the engine process (SIGSTOP) so that it reads nothing until the returned ``resume()``
    is called (or the block ends): a request sent meanwhile waits in the pipe, unread."""
    pid = eng._proc.pid
    resumed = threading.Event()

    def resume() -> None:
        if not resumed.is_set():
            resumed.set()
            os.kill(pid, signal.SIGCONT)

    os.kill(pid, signal.SIGSTOP)
    wait_for(eng._proc.is_stopped, "the engine process to stop")
    try:
        yield resume
    finally:
        resume()


def test_load_steps_undo_and_queries_match_an_in_process_trainer(engine, corpus):
    info = engine.load(str(corpus), ["<|endoftext|>"])
    local = Trainer.from_file(corpus, ["<|endoftext|>"])
    assert info["stats"] == local.stats
    assert info["special_tokens"] == ["<|endoftext|>"] and info["vocab_size"] == local.vocab_size == 257
    assert engine.top_pairs(10) == local.top_pairs(10)
    assert engine.next_pair() == local.next_pair()

    remote = engine.steps(25)
    assert remote == local.steps(25)  # the records, with their ties and deltas
    assert engine.changed_words(3, 5) == local.changed_words(3, limit=5)
    assert engine.undo() == local.undo()  # answered before the words are put back …
    assert engine.merges() == local.merges
    assert engine.words_with_token(b"th") == local.words_with_token(b"th")  # … which they are
    assert engine.steps(5) == local.steps(5)
    assert engine.vocab() == local.vocab
    spec = engine.spec()
    assert spec.merges == tuple(local.merges) and spec.vocab == local.vocab


def test_run_streams_progress_records_and_pairs(engine, corpus):
    engine.load(str(corpus), [])
    events: list[Event] = []
    made = engine.run(256 + 600, on_event=events.append)
    assert made == 600
    assert {type(e) for e in events} == {Progress, Records, Pairs}
    streamed = [r for e in events if isinstance(e, Records) for r in e.records]
    expected = Trainer.from_file(corpus, []).steps(600)
    assert streamed == expected  # every record exactly once, in order
    progress = [e for e in events if isinstance(e, Progress)]
    assert progress[-1] == Progress("merge", 600, 600)
    assert all(0 < e.done <= 600 for e in progress)
    pairs = [e.pairs for e in events if isinstance(e, Pairs)]
    assert pairs and all(len(p) <= 100 for p in pairs)


def test_cancel_stops_a_run_and_keeps_a_consistent_trainer(engine, tmp_path):
    # a run of several seconds: on a loaded machine the app's side may read the first batch late,
    # and the shared corpus's whole run (0.3 s) could be over before the cancel is sent
    corpus = tmp_path / "long_run.txt"
    words = [f"w{i:x}{'abcdefgh'[i % 8] * (i % 5)}{i * 7919 % 10007:x}" for i in range(20_000)]
    corpus.write_bytes((TEXT * 40 + " ".join(words) + "\n").encode())
    engine.load(str(corpus), [])
    streamed: list = []

    def on_event(event: Event) -> None:
        if isinstance(event, Records):
            streamed.extend(event.records)
            if len(streamed) >= 5:
                engine.cancel()  # from inside the callback, i.e. the calling thread

    with pytest.raises(Cancelled):
        engine.run(256 + 50_000, on_event=on_event)
    n = engine.n_merges()
    assert 5 <= n < 50_000
    assert [r.pair for r in streamed] == engine.merges()  # the last batch came before the end
    fresh = Trainer.from_file(corpus, [])
    assert [r.pair for r in fresh.steps(n)] == engine.merges()
    # the engine keeps working after a cancel (the flag is cleared for the next request)
    assert len(engine.steps(2)) == 2


@needs_sigstop
def test_cancel_from_another_thread(engine, corpus):
    """A cancel from another thread stops the request under way: the engine is held (SIGSTOP)
    until the cancel is made, so the run cannot be over before it, however slow this machine is."""
    engine.load(str(corpus), [])
    sent = threading.Event()
    outcome: list[str] = []

    def run() -> None:
        try:
            engine.run(256 + 50_000, cancelled=lambda: sent.set() or False)
            outcome.append("finished")
        except Cancelled:
            outcome.append("Cancelled")

    with engine_stopped(engine):
        th = threading.Thread(target=run)
        th.start()
        assert sent.wait(30)  # the request is in the pipe, unread
        engine.cancel()  # from this thread
    th.join(30)
    assert outcome == ["Cancelled"]
    assert engine.n_merges() <= 1  # stopped after at most the merge under way when it looked


def test_core_errors_come_back_with_their_message(engine, corpus, tmp_path):
    with pytest.raises(BPEError, match="no corpus is loaded"):
        engine.steps(1)
    with pytest.raises(BPEError, match="does not exist"):
        engine.load(str(tmp_path / "missing.txt"), [])
    bad = tmp_path / "utf16.txt"
    bad.write_bytes("hello\n".encode("utf-16"))
    with pytest.raises(CorpusError, match="UTF-16"):  # the core's error class comes back too
        engine.load(str(bad), [])
    engine.load(str(corpus), [])
    with pytest.raises(BPEError, match="does not occur"):
        engine.merge((b"\x00", b"\x01"))
    with pytest.raises(BPEError, match="unknown engine request '__class__'"):  # what an old client would send
        engine._exchange(Request("__class__"), None, None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="__class__"):  # the client's own check
        engine.call_blocking("__class__")  # type: ignore[arg-type]
    # a failed load keeps the trainer that was there
    with pytest.raises(BPEError):
        engine.load(str(bad), [])
    assert engine.vocab_size() == 256


def test_one_request_at_a_time(engine, corpus):
    engine.load(str(corpus), [])
    inner: list = []

    def on_event(_event: Event) -> None:
        if not inner:
            with pytest.raises(RuntimeError, match="busy"):
                engine.vocab_size()
            inner.append(True)

    engine.run(256 + 300, on_event=on_event)
    assert inner == [True]


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL to kill the engine")
def test_a_killed_engine_is_reported_and_a_new_one_starts(engine, corpus):
    engine.load(str(corpus), [])
    os.kill(engine._proc.pid, signal.SIGKILL)
    wait_for(lambda: not engine._proc.is_alive(), "the killed engine process to end")
    with pytest.raises(EngineDied, match=r"stopped unexpectedly.*open it again"):
        engine.steps(1)
    # the next request starts a fresh process (without a trainer)
    assert engine.ping() == "pong"
    with pytest.raises(BPEError, match="no corpus is loaded"):
        engine.steps(1)


def test_close_ends_the_process(corpus):
    eng = Engine(start=True)
    proc = eng._proc
    eng.load(str(corpus), [])
    eng.close()
    assert not proc.is_alive() and not eng.alive


@pytest.mark.parametrize("tie_break", ["lexicographic", "first"])
def test_undo_answers_early_and_stays_exact(engine, corpus, tie_break):
    """The engine answers an undo before putting the words back; whatever comes next (pair
    queries answered meanwhile, or requests that need the words) matches a local trainer."""
    engine.load(str(corpus), [], "gpt2", tie_break)
    local = Trainer.from_file(corpus, [], tie_break=tie_break)
    assert engine.steps(10) == local.steps(10)
    for follow_up in ("top_pairs", "next_pair", "n_pairs_with_count", "steps", "changed_words"):
        assert engine.undo() == local.undo()
        if follow_up == "top_pairs":
            assert engine.top_pairs(30) == local.top_pairs(30)
        elif follow_up == "next_pair":
            assert engine.next_pair() == local.next_pair()
            assert engine.next_step_size() == local.next_step_size()
        elif follow_up == "n_pairs_with_count":
            assert engine.n_pairs_with_count(3) == local.n_pairs_with_count(3)
        elif follow_up == "changed_words":
            assert engine.changed_words(2, 10) == local.changed_words(2, limit=10)
        else:
            assert engine.steps(2) == local.steps(2)
    assert engine.steps(20) == local.steps(20)
    assert engine.merges() == local.merges


def test_run_can_send_records_without_deltas(engine, corpus):
    engine.load(str(corpus), [])
    batches: list = []
    engine.run(
        256 + 80, 100, False, on_event=lambda e: batches.extend(e.records) if isinstance(e, Records) else None
    )
    expected = Trainer.from_file(corpus, []).steps(80)
    assert [replace(r, deltas=()) for r in expected] == batches
    assert engine.records() == expected  # the engine keeps them whole
    # one of them, whole, for the story of a merge the app picks; None for a merge it does not have
    assert engine.record(7) == expected[7] and engine.record(7).deltas
    assert engine.record(80) is None and engine.record(-1) is None


def test_a_cancel_made_while_a_request_starts_is_kept(engine, corpus):
    engine.load(str(corpus), [])
    with pytest.raises(Cancelled):
        engine.run(256 + 50_000, cancelled=lambda: True)
    assert engine.n_merges() < 50_000


def test_a_failing_event_handler_leaves_the_pipe_in_step(engine, corpus):
    engine.load(str(corpus), [])

    def boom(event: Event) -> None:
        raise KeyError("handler failed")

    with pytest.raises(KeyError):
        engine.run(256 + 40, on_event=boom)
    assert engine.n_merges() == 40  # the next answer is this request's, not a leftover event
    rec = engine.records()[-1]
    assert engine.undo(rec) == rec  # a copy of the last record names it too


@needs_sigstop
def test_close_while_another_thread_streams(corpus):
    """close() cancels the request another thread is waiting for, waits for it to end and then
    ends the process. The engine is held (SIGSTOP) until close() has cancelled, so the run cannot
    be over before it."""
    eng = Engine()
    eng.load(str(corpus), [])
    proc = eng._proc
    outcome: list[str] = []
    sent = threading.Event()

    def run() -> None:
        try:
            eng.run(256 + 50_000, cancelled=lambda: sent.set() or False)
            outcome.append("finished")
        except (Cancelled, EngineDied) as e:
            outcome.append(type(e).__name__)

    with engine_stopped(eng) as resume:
        cancel = eng.cancel

        def cancel_then_resume() -> None:  # what close() does first; then the engine may go on
            cancel()
            resume()

        eng.cancel = cancel_then_resume  # type: ignore[method-assign]
        th = threading.Thread(target=run)
        th.start()
        assert sent.wait(30)
        eng.close()
    th.join(30)
    assert outcome == ["Cancelled"]  # the request ended with its own reply, before the process did
    assert not eng.alive and not proc.is_alive()


@pytest.mark.parametrize("tie_break", ["lexicographic", "first"])
def test_step_and_undo_views_answer_what_separate_requests_would(engine, corpus, tie_break):
    """steps_view / undo_view: the records (or the record undone) with the pair table that
    follows them, in one round trip."""
    engine.load(str(corpus), [], "gpt2", tie_break)
    local = Trainer.from_file(corpus, [], tie_break=tie_break)

    def view(k: int) -> dict:
        top = local.top_pairs(k)
        return {"top_pairs": top, "n_best": local.n_pairs_with_count(top[0][1])}

    for n in (1, 3, 1, 2):
        assert engine.steps_view(n, 40) == {"records": local.steps(n), **view(40)}
        assert engine.undo_view(25) == {"record": local.undo(), **view(25)}
    assert engine.merges() == local.merges


def test_every_request_has_a_typed_method_and_the_trainer_has_what_is_passed_through():
    from core.engine.protocol import TRAINER_ATTRIBUTES, TRAINER_METHODS

    t = Trainer.from_text(TEXT, [])
    for op in Op:
        if op is not Op.QUIT:  # close() sends it
            assert callable(getattr(Engine, op.value, None)), op
    for op in TRAINER_METHODS:
        assert callable(getattr(t, op.value)), op
    for op in TRAINER_ATTRIBUTES:
        assert not callable(getattr(t, op.value)), op  # read, not called
    assert not TRAINER_METHODS & TRAINER_ATTRIBUTES
