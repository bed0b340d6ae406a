"""The engine's EXTEND request: an ExtendTrainer in the child process, built from a base
tokenizer's spec and a corpus, steps, undoes, runs and answers its spec exactly as one built here."""

from __future__ import annotations

import pytest

from core import BPEError, CorpusError
from core.engine.client import Engine
from core.formats.spec import TokenizerSpec
from core.tokenization.extend import ExtendTrainer, extension_base
from core.tokenization.tokenizer import Tokenizer

TEXT = "the cat sat on the mat. the hat is that cat's hat.\n" * 20 + "a rather other text, rather.\n" * 7
BASE = TokenizerSpec.from_merges([(b"t", b"h"), (b"th", b"e"), (b"a", b"t")], ["<|endoftext|>"])


@pytest.fixture
def engine():
    eng = Engine()
    yield eng
    eng.close()


@pytest.fixture
def corpus(tmp_path):
    p = tmp_path / "corpus.txt"
    p.write_text(TEXT, encoding="utf-8")
    return p


def test_extend_builds_the_same_trainer_as_in_process(engine, corpus):
    info = engine.extend(BASE, str(corpus))
    local = ExtendTrainer.from_files(BASE, [corpus], keep_history=True)
    assert info["stats"] == local.stats
    assert (info["base_vocab_size"], info["base_merges"], info["vocab_size"]) == (260, 3, 260)
    assert info["special_tokens"] == ["<|endoftext|>"]
    assert engine.top_pairs(10) == local.top_pairs(10)
    got = engine.steps(4)
    assert got == local.steps(4)
    assert [r.new_id for r in got] == [260, 261, 262, 263]  # ids after the base's
    assert [r.rank for r in got] == [0, 1, 2, 3]  # the trainer's ranks: new merges only
    assert engine.changed_words(1, 5) == local.changed_words(1, limit=5)
    assert engine.undo() == local.undo()
    assert engine.vocab() == local.vocab and engine.vocab_size() == 263
    spec = engine.spec("corpus.txt")
    assert spec == local.to_spec("corpus.txt")  # the extended tokenizer: base merges then the new ones
    assert list(spec.merges[:3]) == list(BASE.merges) and spec.training["extends"]["merges"] == 3
    # undo never goes below the base: the base's merges are not the trainer's to take back
    assert engine.undo_to(0)["undone"] == 3 and engine.undo() is None
    assert engine.vocab() == dict(BASE.vocab)


def test_extend_run_and_replay_match(engine, corpus):
    engine.extend(BASE, str(corpus))
    engine.run(275)
    local = ExtendTrainer.from_files(BASE, [corpus])
    local.run(275)
    assert engine.merges() == local.merges and engine.vocab() == local.vocab
    spec = engine.spec()
    # a replay of the new merges on a fresh extension (a saved session reopened) gives the same tokenizer
    base = extension_base(spec)
    assert (
        base is not None and dict(base.vocab) == dict(BASE.vocab) and list(base.merges) == list(BASE.merges)
    )
    engine.extend(base, str(corpus))
    engine.replay(list(spec.merges[3:]))
    assert engine.spec().merges == spec.merges and engine.spec().vocab == spec.vocab
    ext = Tokenizer.from_spec(spec)
    assert ext.encode(TEXT) == Tokenizer.from_spec(local.to_spec()).encode(TEXT)


def test_extend_refuses_a_bad_corpus_and_keeps_the_trainer(engine, corpus, tmp_path):
    engine.extend(BASE, str(corpus))
    engine.steps(2)
    with pytest.raises(CorpusError):
        engine.extend(BASE, str(tmp_path / "missing.txt"))
    assert len(engine.merges()) == 2  # the extension there was is still there
    with pytest.raises(BPEError, match="smaller than the base"):
        engine.run(100)


def test_extension_base_of_a_plain_tokenizer_is_none():
    assert extension_base(BASE) is None


def test_a_cancelled_extend_keeps_the_trainer_there_was(engine, corpus):
    from core import Cancelled

    engine.extend(BASE, str(corpus))
    engine.steps(3)
    with pytest.raises(Cancelled):
        engine.extend(BASE, str(corpus), cancelled=lambda: True)
    assert len(engine.merges()) == 3
