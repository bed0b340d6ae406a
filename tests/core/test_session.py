"""Session files: a native bpe.json plus the explorer's state; the corpus check on reopening."""

from __future__ import annotations

import json
import os
import re

import pytest

from core import Trainer
from core.errors import FormatError
from core.formats import load_native
from core.formats.session import load_session, save_session
from core.formats.spec import spec_from_trainer


@pytest.fixture()
def trained(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_bytes(("the cat sat on the mat; the dog sat on the log\n" * 30).encode() + b"\xff")
    t = Trainer.from_file(corpus, ["<|endoftext|>"])
    t.steps(15)
    return corpus, spec_from_trainer(t)


def test_round_trip_keeps_everything(tmp_path, trained):
    corpus, spec = trained
    p = save_session(
        tmp_path / "s.bpe.json",
        spec,
        corpus_path=corpus,
        vocab_target=500,
        step_n=7,
        text="naïve <|endoftext|> text",
    )
    s = load_session(p)
    assert s.spec == spec and s.spec.training["counts"] == spec.training["counts"]
    assert (s.vocab_target, s.step_n, s.text) == (500, 7, "naïve <|endoftext|> text")
    assert s.corpus_path == str(corpus.resolve()) and s.corpus_bytes == corpus.stat().st_size
    assert s.corpus_state() == "same"
    assert load_native(p) == spec  # a session file is a bpe.json any reader of the format reads


def test_a_changed_or_missing_corpus_is_noticed(tmp_path, trained):
    corpus, spec = trained
    p = save_session(tmp_path / "s.bpe.json", spec, corpus_path=corpus)
    st = corpus.stat()
    os.utime(corpus, (st.st_atime, st.st_mtime + 10))  # same size, touched
    assert load_session(p).corpus_state() == "changed"
    corpus.write_bytes(corpus.read_bytes() + b"more")
    assert load_session(p).corpus_state() == "changed"
    corpus.unlink()
    assert load_session(p).corpus_state() == "missing"


def test_a_plain_bpe_json_opens_without_a_corpus(tmp_path, trained):
    from core.formats import save_native

    _corpus, spec = trained
    s = load_session(save_native(spec, tmp_path / "bpe.json"))
    assert s.corpus_state() == "none" and s.spec == spec and s.text is None


def test_bad_session_entries_are_format_errors(tmp_path, trained):
    corpus, spec = trained
    p = save_session(tmp_path / "s.bpe.json", spec, corpus_path=corpus)
    data = json.loads(p.read_text())
    data["session"]["step_n"] = "ten"
    p.write_text(json.dumps(data))
    with pytest.raises(FormatError, match=re.escape("session.step_n")):
        load_session(p)
    data["session"] = {"version": 99}
    p.write_text(json.dumps(data))
    with pytest.raises(FormatError, match="newer"):
        load_session(p)


def test_saving_with_a_vanished_corpus_says_so(tmp_path, trained):
    corpus, spec = trained
    corpus.unlink()
    with pytest.raises(FormatError, match="cannot read the corpus"):
        save_session(tmp_path / "s.bpe.json", spec, corpus_path=corpus)
