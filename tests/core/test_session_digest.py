"""A session notices a corpus edited with its size and modification time restored (content digest)."""

from __future__ import annotations

import json
import os

import core.formats.corpus_digest as cd
from core.formats.session import load_session, save_session
from core.formats.spec import TokenizerSpec

SPEC = TokenizerSpec.from_merges([(b"a", b"b")])


def _edit_keeping_size_and_time(path, old, new):
    st = path.stat()
    data = path.read_bytes()
    assert len(old) == len(new) and old in data
    path.write_bytes(data.replace(old, new, 1))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_an_edit_that_keeps_size_and_time_is_changed(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text("the quick brown fox " * 100, encoding="utf-8")
    path = save_session(tmp_path / "s.bpe.json", SPEC, corpus_path=corpus)
    assert load_session(path).corpus_state() == "same"
    _edit_keeping_size_and_time(corpus, b"quick", b"QUICK")
    assert load_session(path).corpus_state() == "changed"


def test_a_large_corpus_is_sampled_first_middle_and_last(tmp_path, monkeypatch):
    monkeypatch.setattr(cd, "WHOLE_FILE_BYTES", 1000)
    monkeypatch.setattr(cd, "SAMPLE_BYTES", 100)
    corpus = tmp_path / "c.txt"
    corpus.write_bytes(bytes(range(256)) * 40)  # 10,240 bytes: sampled
    assert cd.corpus_digest(corpus).startswith("sha256-sampled:")
    path = save_session(tmp_path / "s.bpe.json", SPEC, corpus_path=corpus)
    for at in (0, 5100, 10200):  # an edit in each sampled block
        data = bytearray(corpus.read_bytes())
        data[at] ^= 1
        st = corpus.stat()
        corpus.write_bytes(bytes(data))
        os.utime(corpus, ns=(st.st_atime_ns, st.st_mtime_ns))
        assert load_session(path).corpus_state() == "changed"
        data[at] ^= 1
        corpus.write_bytes(bytes(data))
        os.utime(corpus, ns=(st.st_atime_ns, st.st_mtime_ns))
        assert load_session(path).corpus_state() == "same"


def test_an_older_session_without_a_digest_still_opens(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text("abc", encoding="utf-8")
    path = save_session(tmp_path / "s.bpe.json", SPEC, corpus_path=corpus)
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["session"]["corpus_digest"]
    path.write_text(json.dumps(data), encoding="utf-8")
    s = load_session(path)
    assert s.corpus_digest is None and s.corpus_state() == "same"
