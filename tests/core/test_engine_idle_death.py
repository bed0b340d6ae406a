"""An engine that ended while idle: opening a corpus starts a new one; the message names the signal."""

from __future__ import annotations

import os
import signal

import pytest

from core.engine.client import Engine, EngineDied
from core.workers.exit_codes import exit_reason

from .engine_corpus import write_engine_corpus
from .test_engine import wait_for

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return write_engine_corpus(tmp_path_factory.mktemp("idle") / "corpus.txt")


@pytest.fixture
def engine():
    eng = Engine()
    yield eng
    eng.close()


def _end(engine, sig):
    os.kill(engine._proc.pid, sig)
    wait_for(lambda: not engine._proc.is_alive(), "the engine process to end")


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_open_corpus_after_the_engine_died_while_idle(engine, corpus, sig):
    engine.load(str(corpus), [])
    _end(engine, sig)
    info = engine.load(str(corpus), [])  # a fresh engine: no "the loaded corpus is gone"
    assert info is not None
    assert len(engine.steps(2)) == 2


@pytest.mark.parametrize(
    "sig, says, not_said",
    [
        (signal.SIGTERM, "ended by SIGTERM", "out of memory"),
        (signal.SIGKILL, "killed by SIGKILL: out of memory", None),
        (signal.SIGSEGV, "crashed (SIGSEGV", "out of memory"),
    ],
)
def test_the_message_names_the_signal(engine, corpus, sig, says, not_said):
    engine.load(str(corpus), [])
    _end(engine, sig)
    with pytest.raises(EngineDied, match="open it again") as info:
        engine.steps(1)  # needs the trainer that died: reported
    assert says in str(info.value) and (not_said is None or not_said not in str(info.value))


def test_exit_reasons():
    assert exit_reason(0) == "exit code 0" and exit_reason(None) == "exit code unknown"
    assert "SIGHUP" in exit_reason(-1) and exit_reason(-200) == "ended by signal 200"
