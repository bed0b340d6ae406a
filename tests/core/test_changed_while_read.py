"""A corpus truncated, grown or rewritten while it is read: train, count and encode say so (local, Dask)."""

from __future__ import annotations

import os

import pytest

import core.scale.dask_scale as dask_scale
from core.errors import CorpusError
from core.formats.spec import TokenizerSpec
from core.pretokenization.pretokenize import count_pretokens
from core.scale.counts import count_files
from core.tokenization.npy import encode_file_to_npy
from core.tokenization.tokenizer import Tokenizer

TEXT = "the quick brown fox jumps over the lazy dog.\n" * 2000  # 90 KB: several 4 KB blocks


def _changer(path, how):
    """A progress callback that changes the file at its second call (reading has begun)."""
    calls = []

    def progress(*_):
        calls.append(1)
        if len(calls) == 2:
            if how == "grow":
                with open(path, "ab") as f:
                    f.write(b"more text appended by another program\n" * 100)
            elif how == "truncate":
                os.truncate(path, 1000)
            else:  # rewritten with the same size, another time
                data = path.read_bytes()
                path.write_bytes(data.upper())
                st = path.stat()
                os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
        return True

    return progress


@pytest.fixture()
def corpus(tmp_path):
    p = tmp_path / "c.txt"
    p.write_text(TEXT, encoding="utf-8")
    return p


HOW = ["grow", "truncate", "rewrite"]


@pytest.mark.parametrize("how", HOW)
def test_train_counting(corpus, how):
    with pytest.raises(CorpusError, match=r"c\.txt changed while it was read"):
        count_pretokens(corpus, [], "gpt2", workers=1, block_bytes=4096, progress=_changer(corpus, how))


@pytest.mark.parametrize("how", HOW)
def test_count_files(corpus, how):
    with pytest.raises(CorpusError, match="changed while it was read"):
        count_files([corpus], [], "gpt2", workers=1, block_bytes=4096, progress=_changer(corpus, how))


@pytest.mark.parametrize("how", HOW)
def test_encode(corpus, tmp_path, how):
    tok = Tokenizer.from_spec(TokenizerSpec.from_merges([(b"t", b"h")]))
    out = tmp_path / "ids.npy"
    with pytest.raises(CorpusError, match="changed while it was read"):
        encode_file_to_npy(tok, corpus, out, workers=1, block_bytes=4096, progress=_changer(corpus, how))
    assert not out.exists()


def test_an_unchanged_file_reads_as_before(corpus):
    counts, stats = count_pretokens(corpus, [], "gpt2", workers=1, block_bytes=4096)
    assert stats.size_bytes == len(TEXT) and sum(counts.values()) == stats.pretokens


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed")
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None) as c:
        yield c


@pytest.mark.parametrize("how", ["grow", "truncate"])
def test_dask_count_and_encode(corpus, tmp_path, client, monkeypatch, how):
    plan = dask_scale.plan

    def changed_plan(sources, step):  # the file changes once the ranges are planned
        tasks = plan(sources, step)
        if how == "grow":
            with open(corpus, "ab") as f:
                f.write(b"appended\n" * 100)
        else:
            os.truncate(corpus, 1000)
        return tasks

    monkeypatch.setattr(dask_scale, "plan", changed_plan)
    with pytest.raises(CorpusError, match="changed while it was read"):
        dask_scale.count_dask([corpus], [], "gpt2", client=client, range_bytes=8192)
    corpus.write_text(TEXT, encoding="utf-8")
    tok = Tokenizer.from_spec(TokenizerSpec.from_merges([(b"t", b"h")]))
    with pytest.raises(CorpusError, match="changed while it was read"):
        dask_scale.encode_dask(tok, [corpus], tmp_path / "shards", client=client, range_bytes=8192)
    assert not (tmp_path / "shards" / "manifest.json").exists()
