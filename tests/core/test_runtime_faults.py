"""Issue 13 §6 runtime faults: text no match covers, FIFOs, NUL bytes, a stopped engine."""

from __future__ import annotations

import os
import signal
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core import CorpusError, Trainer
from core.cli import main
from core.engine.client import Engine, EngineDied
from core.pretokenization.pretokenize import count_pretokens

CUSTOM = [r"[a-z]+", r"x*", r"([a-z])", r"\d+|[A-Z]"]


@given(text=st.text(alphabet="abxyzAB12 ,.\n日é", max_size=60), pattern=st.sampled_from(CUSTOM))
def test_training_pre_tokens_cover_every_byte_for_custom_patterns(text, pattern):
    counts, _ = count_pretokens(
        text, [], pattern, workers=1, is_text=True, pattern_of_file=True
    )  # (x*: a file's)
    assert sum(len(k) * v for k, v in counts.items()) == len(text.encode())
    assert b"" not in counts


def test_gaps_between_matches_are_their_own_pre_tokens():
    counts, _ = count_pretokens("ab, cd!<|e|>ab", ["<|e|>"], "[a-z]+", workers=1, is_text=True)
    assert counts == {b"ab": 2, b", ": 1, b"cd": 1, b"!": 1}
    t = Trainer.from_text("aaa---aaa", pattern="a+")
    assert (b"-", b"-") in [r.pair for r in t.steps(3)]  # the dashes no match covers are trained on


# FIFOs and pipes are streamed now, not refused: see tests/core/test_sources.py


def test_nul_bytes_near_the_start_can_be_allowed(tmp_path, capsys):
    p = tmp_path / "c.txt"
    p.write_bytes(b"hello\x00 world " * 50)
    with pytest.raises(CorpusError, match=r"binary.*allow_nul=True"):
        count_pretokens(p)
    counts, _ = count_pretokens(p, allow_nul=True)
    assert counts[b" world"] == 50
    assert main(["train", str(p), "--vocab-size", "260", "--out", str(tmp_path / "o"), "-q"]) == 2
    assert "--allow-nul" in capsys.readouterr().err
    assert (
        main(["train", str(p), "--vocab-size", "260", "--out", str(tmp_path / "o"), "-q", "--allow-nul"]) == 0
    )


@pytest.mark.parametrize(
    "codec,kind", [("utf-32-le", "UTF-32-LE"), ("utf-32-be", "UTF-32-BE"), ("utf-16-le", "UTF-16-LE")]
)
def test_bomless_utf32_and_utf16_are_named(tmp_path, codec, kind):
    p = tmp_path / "c.txt"
    p.write_bytes("some plain text here\n".encode(codec) * 20)
    with pytest.raises(CorpusError, match=f"{kind} text without a byte-order mark"):
        count_pretokens(p)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the process state from /proc")
def test_a_call_on_a_stopped_engine_does_not_wait_for_ever(monkeypatch):
    monkeypatch.setattr("core.engine.client.STOPPED_GRACE", 0.5)
    eng = Engine()
    assert eng.ping() == "pong"
    os.kill(eng._proc.pid, signal.SIGSTOP)
    try:
        with pytest.raises(EngineDied, match="stopped \\(SIGSTOP\\)"):
            eng.ping()
    finally:
        eng.close()
    assert eng.ping() == "pong"  # a fresh process takes over
    stopped = eng._proc
    os.kill(stopped.pid, signal.SIGSTOP)
    eng.close(timeout=1.0)  # a stopped engine is ended, not waited for
    assert not stopped.is_alive()
