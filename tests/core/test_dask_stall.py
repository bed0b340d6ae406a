"""A Dask worker stopped (SIGSTOP) while it holds tasks: the run gives up after the stall time, naming it."""

from __future__ import annotations

import os
import signal
import time

import pytest

pytest.importorskip("distributed")

import core.scale.dask_watch as dask_watch
from core.formats.spec import TokenizerSpec
from core.scale.counts_schema import CountsError
from core.scale.dask_cluster import dask_client
from core.scale.dask_scale import count_dask, encode_dask
from core.tokenization.tokenizer import Tokenizer

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="needs SIGSTOP/SIGCONT")


@pytest.fixture(scope="module")
def client():
    with dask_client(workers=2) as c:
        yield c


@pytest.fixture()
def corpus(tmp_path):
    p = tmp_path / "c.txt"
    p.write_text("the quick brown fox jumps over the lazy dog.\n" * 4000, encoding="utf-8")
    return p


def _stopped_worker(client):
    pids = client.run(os.getpid)  # address -> pid
    address, pid = sorted(pids.items())[0]
    os.kill(pid, signal.SIGSTOP)
    return address, pid


@pytest.mark.parametrize("what", ["count", "encode"])
def test_a_stopped_worker_is_named_after_the_stall_time(client, corpus, tmp_path, monkeypatch, what):
    monkeypatch.setattr(dask_watch, "STALL_SECONDS", 3.0)
    address, pid = _stopped_worker(client)
    t0 = time.monotonic()
    try:
        with pytest.raises(CountsError, match=f"Dask worker {address}.*has not answered for more than 3 s"):
            if what == "count":
                count_dask([corpus], [], "gpt2", client=client, range_bytes=4096, progress_bar=True)
            else:
                tok = Tokenizer.from_spec(TokenizerSpec.from_merges([(b"t", b"h")]))
                encode_dask(tok, [corpus], tmp_path / "shards", client=client, range_bytes=4096)
    finally:
        os.kill(pid, signal.SIGCONT)
    assert time.monotonic() - t0 < 60  # (it waited 4 min 47 s and more before)
    assert count_dask([corpus], [], "gpt2", client=client, range_bytes=4096).tokens  # the cluster goes on
