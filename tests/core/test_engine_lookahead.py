"""Merging ahead: the engine does the next merge while the app is quiet (or right after a step),
and nothing but a step can tell. The timing-dependent parts run an :class:`EngineServer` in a
thread of this process, which reports each merge done ahead, so the tests wait for it instead of
sleeping."""

from __future__ import annotations

import multiprocessing as mp
import queue
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from core import Trainer
from core.engine.client import Engine
from core.engine.protocol import Done, Op, Pairs, Progress, Records, Request
from core.engine.server import EngineServer

from .engine_corpus import TEXT, write_engine_corpus


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    return write_engine_corpus(tmp_path_factory.mktemp("engine_ahead") / "corpus.txt")


class ThreadedServer:
    """An :class:`EngineServer` in a thread of this process, driven over a pipe like the real one,
    whose merges done ahead can be waited for (the real process gives no sign of them)."""

    def __init__(self, lookahead: tuple[int, float]) -> None:
        self.app, end = mp.Pipe()
        self.server = EngineServer(end, mp.RawValue("b", 0), lookahead=lookahead)
        self.sent = 0  # requests sent (and, once answered, handled) so far
        self._handled = 0  # counted in the server's thread
        self._ahead: queue.Queue[int] = queue.Queue()  # requests handled when a merge ahead was done
        self.words_back: queue.Queue[int] = queue.Queue()  # the same when an undo's words were put back
        handle, look_ahead, finish_after = (
            self.server.handle,
            self.server._look_ahead,
            self.server._finish_after,
        )

        def counting_handle(request: Request):
            self._handled += 1
            return handle(request)

        def noting_look_ahead() -> None:
            look_ahead()
            if self.server.ahead is not None:
                self._ahead.put(self._handled)

        def noting_finish_after() -> None:
            finish_after()
            self.words_back.put(self._handled)

        self.server.handle = counting_handle
        self.server._look_ahead = noting_look_ahead
        self.server._finish_after = noting_finish_after
        self.thread = threading.Thread(target=self.server.serve, daemon=True)
        self.thread.start()

    def __getattr__(self, name: str) -> Callable:
        op = Op(name)
        return lambda *args: self.ask(op, *args)

    def ask(self, op: Op, *args):
        self.app.send(Request(op, args))
        self.sent += 1
        while True:
            assert self.app.poll(60), f"no answer to {op}"
            message = self.app.recv()
            if isinstance(message, Done):
                return message.value
            assert isinstance(message, (Progress, Records, Pairs)), message

    def wait_merged_ahead(self) -> None:
        """Wait until the server has merged ahead after answering the last request."""
        while self._ahead.get(timeout=60) != self.sent:
            pass  # a merge ahead from before the last request (taken or undone since)

    def close(self) -> None:
        self.app.send(Request(Op.QUIT))
        self.thread.join(30)
        assert not self.thread.is_alive()
        self.app.close()


def test_look_ahead_is_invisible(corpus):
    """With look-ahead the engine merges ahead whenever the app is quiet for 10 ms: whatever the
    timing of the requests, every answer is the one of a trainer that never merged ahead."""
    eng = Engine(lookahead=(0, 0.01))  # every merge counts as big; 10 ms of quiet is enough
    try:
        eng.load(str(corpus), [])
        local = Trainer.from_file(corpus, [])
        # requests in quick succession (a merge ahead under way is stopped and rolled back, or
        # finished for a step) and with quiet moments between them (merged ahead, then undone)
        for i in range(30):
            if i % 3 == 0:
                assert eng.steps(1) == local.steps(1)
            elif i % 3 == 1:
                assert eng.top_pairs(5) == local.top_pairs(5)
            else:
                assert eng.n_merges() == local.n_merges
        assert eng.undo() == local.undo()
        assert eng.vocab() == local.vocab
        assert eng.run(local.vocab_size + 50) == 50
        local.run(local.vocab_size + 50)
        assert eng.merges() == local.merges
        spec = eng.spec()  # export never includes the merge done ahead
        assert spec.merges == tuple(local.merges)
    finally:
        eng.close()


def test_after_quiet_the_engine_merges_ahead_and_a_step_takes_it(corpus):
    """After 10 ms without a request the next merge is done ahead: a step then returns it, and
    every other request first undoes it."""
    srv = ThreadedServer(lookahead=(0, 0.01))
    try:
        srv.load(str(corpus), [])
        local = Trainer.from_file(corpus, [])
        srv.wait_merged_ahead()
        assert srv.next_step_size() == 0  # the next step is ready
        assert srv.steps(1) == local.steps(1)
        srv.wait_merged_ahead()
        assert srv.top_pairs(20) == local.top_pairs(20)  # undoes the merge done ahead first
        assert srv.merges() == local.merges
        srv.wait_merged_ahead()
        assert srv.server.ahead is not None
        assert srv.steps(3) == local.steps(3)  # the first one was done ahead
        srv.wait_merged_ahead()
        assert srv.undo() == local.undo()
        assert srv.vocab() == local.vocab
        assert srv.steps(5) == local.steps(5)
        assert srv.merges() == local.merges
    finally:
        srv.close()


def test_after_a_step_the_engine_merges_ahead_at_once(corpus):
    """Right after a step (no quiet time needed) the next merge is done ahead: the next step
    takes it, and any other request still sees the state before it."""
    srv = ThreadedServer(lookahead=(0, 3600.0))  # the quiet-time look-ahead never starts in this test
    try:
        srv.load(str(corpus), [])
        local = Trainer.from_file(corpus, [])
        assert srv.next_step_size() == local.next_step_size() > 0  # nothing done ahead yet
        for _ in range(4):
            assert srv.steps_view(1, 10)["records"] == local.steps(1)
            srv.wait_merged_ahead()
            assert srv.next_step_size() == 0  # done ahead (finished, not stopped)
            assert srv.steps(1) == local.steps(1)
            srv.wait_merged_ahead()
            assert srv.top_pairs(10) == local.top_pairs(10)  # the merge ahead is undone first
            assert srv.server.ahead is None
            assert srv.next_step_size() == local.next_step_size() > 0
            assert srv.steps(1) == local.steps(1)
            srv.wait_merged_ahead()  # zero steps take nothing and show the state without it
            assert srv.steps_view(0, 10) == {
                "records": [],
                "top_pairs": local.top_pairs(10),
                "n_best": local.n_pairs_with_count(local.top_pairs(1)[0][1]),
            }
    finally:
        srv.close()


@pytest.mark.parametrize("tie_break", ["lexicographic", "first"])
def test_after_an_undo_and_a_quiet_moment_the_words_go_back_alone(corpus, tie_break):
    """The second half of an undo (putting the words back) is done after 30 ms without a
    request, and the answers stay those of a local trainer."""
    srv = ThreadedServer(lookahead=(10**9, 3600.0))  # no merge is ever big enough to do ahead
    try:
        srv.load(str(corpus), [], "gpt2", tie_break)
        local = Trainer.from_file(corpus, [], tie_break=tie_break)
        assert srv.steps(10) == local.steps(10)
        for _ in range(3):
            assert srv.undo() == local.undo()
            while srv.words_back.get(timeout=60) != srv.sent:
                pass
            assert srv.server._after is None  # done by the server on its own
            assert srv.words_with_token(b"th") == local.words_with_token(b"th")
            assert srv.top_pairs(30) == local.top_pairs(30)
        assert srv.steps(20) == local.steps(20)
        assert srv.merges() == local.merges
    finally:
        srv.close()


def test_a_merge_done_ahead_is_stopped_by_any_request_but_a_step():
    """While merging ahead, the engine reads what comes in: a step (or the question of its size)
    lets the merge finish, anything else stops it; either way the request is handled next."""
    app_end, engine_end = mp.Pipe()
    server = EngineServer(engine_end, mp.RawValue("b", 0), 0, lookahead=(0, 0.1))
    server.trainer = Trainer.from_text(TEXT * 5, [])
    try:
        assert server._request_stops_merge() is False  # nothing came in
        for request, stops in (
            (Request(Op.STEPS, (1,)), False),
            (Request(Op.STEPS_VIEW, (1, 100)), False),
            (Request(Op.NEXT_STEP_SIZE), False),
            (Request(Op.TOP_PAIRS, (10,)), True),
            (Request(Op.UNDO), True),
            (Request(Op.SPEC), True),
        ):
            app_end.send(request)
            assert server._request_stops_merge() is stops
            assert server._stash == request  # kept for the serve loop
            server._stash = None
        app_end.close()
        assert server._request_stops_merge() is True  # the app is gone
        assert server._stash == Request(Op.QUIT)
    finally:
        engine_end.close()
