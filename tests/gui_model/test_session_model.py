"""The GUI's session model without Qt: merges absorbed and undone, the pair view, the caches."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bpe_gui.model.session import Busy, Options, PairView, SessionModel, merge_deltas
from core import BPEError, Trainer
from core.formats import load_any, save_native
from core.formats.spec import records_from_spec

TEXT = "the cat sat on the mat. the dog sat on the log. then the cat ran.<|endoftext|>a cat; a hat.\n" * 5


def _trainer() -> Trainer:
    return Trainer.from_text(TEXT, ["<|endoftext|>"])


def test_importing_the_model_imports_no_qt():
    code = (
        "import sys, bpe_gui.model.session; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph')]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


def test_busy_is_an_enum_that_compares_with_its_old_strings():
    assert not Busy.IDLE and Busy.IDLE == ""
    assert Busy.STEP == "step" and Busy("rewind") is Busy.REWIND
    assert all(b for b in Busy if b is not Busy.IDLE)
    assert f"{Busy.IMPORT}" == "import"
    with pytest.raises(ValueError):
        Busy("trian")


def test_absorbing_records_follows_the_trainer_and_skips_those_seen():
    t = _trainer()
    m = SessionModel()
    m.corpus_loaded("c.txt", t.stats, ["<|endoftext|>"], Options())
    v0 = m.version
    first = t.steps(3)
    assert m.absorb(first) == 3
    more = t.steps(2)
    assert m.absorb(first + more) == 2  # a run's final list repeats its batches
    assert m.absorb(more) == 0 and m.version == v0 + 2
    assert [i.pair for i in m.index.merges] == t.merges == [r.pair for r in m.records]
    assert m.index.vocab == t.vocab and m.vocab_size == len(t.vocab)
    assert m.record(4) is more[-1] and m.record(5) is None and m.record(-1) is None


def test_pop_undoes_the_last_merges_like_the_trainer():
    t = _trainer()
    m = SessionModel()
    m.corpus_loaded("c.txt", t.stats, ["<|endoftext|>"], Options())
    m.absorb(t.steps(6))
    t.undo()
    t.undo()
    m.pop(2)
    assert [i.pair for i in m.index.merges] == t.merges and m.index.vocab == t.vocab
    assert len(m.records) == 4


def test_the_pair_view_is_valid_only_until_the_merges_change():
    t = _trainer()
    m = SessionModel()
    m.corpus_loaded("c.txt", t.stats, ["<|endoftext|>"], Options())
    top = t.top_pairs(5)
    rec = t.steps(1)
    m.absorb(rec, view={"top_pairs": top, "n_best": 2})
    assert m.current_view() == PairView(m.version, top, 2)
    assert m.current_view().top_pairs is top
    m.pop(1)
    assert m.current_view() is None


def test_merge_deltas_add_up_and_undo_with_a_sign():
    t = _trainer()
    recs = t.steps(3)
    forward = merge_deltas(recs)
    expected: dict = {}
    for r in recs:
        for p, d in r.deltas:
            expected[p] = expected.get(p, 0) + d
    assert forward == expected and forward
    assert merge_deltas(recs, -1) == {p: -d for p, d in expected.items()}


def test_the_tokenizer_is_cached_per_version():
    t = _trainer()
    m = SessionModel()
    m.corpus_loaded("c.txt", t.stats, ["<|endoftext|>"], Options())
    m.absorb(t.steps(5))
    assert m.cached_tokenizer() is None
    tok = m.tokenizer()
    assert m.tokenizer() is tok and m.cached_tokenizer() is tok
    from core.tokenization.tokenizer import Tokenizer

    assert tok.encode("the cat sat") == Tokenizer(t.vocab, t.merges, ["<|endoftext|>"]).encode("the cat sat")
    stale_version = m.version
    m.absorb(t.steps(1))
    assert m.cached_tokenizer() is None
    m.store_tokenizer(stale_version, tok)  # built for older merges: not kept
    assert m.cached_tokenizer() is None
    assert m.tokenizer() is not tok


def test_a_tokenizer_without_a_corpus_is_shown_with_its_rule_and_pattern(tmp_path):
    t = Trainer.from_text(TEXT, ["<|endoftext|>"], tie_break="first", pattern="gpt4")
    t.steps(4)
    save_native(t, tmp_path / "bpe.json")
    spec = load_any(tmp_path / "bpe.json")
    from core.tokenization.tokenizer import Tokenizer

    tok = Tokenizer.from_spec(spec)
    m = SessionModel()
    m.show_tokenizer(tok, records_from_spec(spec), "bpe.json")
    assert not m.has_trainer and m.imported is tok and m.source_name == "bpe.json"
    assert [i.pair for i in m.index.merges] == t.merges and m.index.has_counts
    assert m.tie_break == "first" and m.options.tie_break == "lexicographic"  # the settings stay
    assert m.pattern_label == "gpt4"
    assert m.tokenizer() is tok


def test_options_are_checked_and_a_failed_load_puts_the_loaded_ones_back():
    o = Options()
    new = o.with_changes(special_tokens=["<a>", "<b>"], pattern="none", tie_break="first")
    assert new == Options(["<a>", "<b>"], None, "first") and o == Options()
    for bad in ({"tie_break": "frist"}, {"pattern": "("}):
        with pytest.raises(BPEError):
            o.with_changes(**bad)
    m = SessionModel()
    t = _trainer()
    m.corpus_loaded("c.txt", t.stats, ["<|endoftext|>"], Options())
    m.options = new
    m.revert_options()
    assert m.options == Options() and m.options is not m.loaded_options


def test_merge_matrix_gives_each_merges_count_and_token_length():
    t = _trainer()
    m = SessionModel()
    m.corpus_loaded("c.txt", t.stats, ["<|endoftext|>"], Options())
    recs = t.steps(12)
    m.absorb(recs)
    counts, lengths = m.index.merge_matrix()
    assert counts == [r.count for r in recs]
    assert lengths == [len(r.pair[0]) + len(r.pair[1]) for r in recs]


def test_an_extension_shows_its_base_then_the_trainers_merges_with_its_ids():
    """SessionModel of an extension: the base's merges stay, the trainer's records (ranked from 0)
    are numbered after them, ids are the trainer's (a reused id does not grow the vocab), pop stops
    at the base, and the Tokenizer is the base's pattern with every merge (what Export writes)."""
    from bpe_gui.model.session import Extension
    from bpe_gui.model.state import VocabIndex
    from core.formats.spec import TokenizerSpec
    from core.tokenization.extend import ExtendTrainer
    from core.tokenization.tokenizer import Tokenizer

    base = TokenizerSpec.from_merges([(b"a", b"b"), (b"b", b"c"), (b"a", b"bc")], ["<s>"], pattern="gpt4")
    text = " abc abcd" * 10
    t = ExtendTrainer.from_texts(base, [text])
    m = SessionModel()
    stats = t.stats
    m.extension_loaded(
        "c.txt",
        stats,
        Extension(base, "base", 3, len(base.vocab)),
        VocabIndex.extension(dict(base.vocab), base.merges, base.special_tokens),
        Options(),
    )
    assert m.index.n_merges == m.merge_offset == m.extended_from == 3 and m.trained_merges == 0
    made = t.steps(3)
    m.absorb(m.shifted(made))
    assert [r.rank for r in m.records] == [3, 4, 5] and m.record(4).pair == made[1].pair
    assert m.record(2) is None and m.index.reused == len(t.reused) >= 1
    assert m.index.vocab == t.vocab and len(m.index) == t.vocab_size
    assert m.tokenizer().encode(text) == Tokenizer.from_spec(t.to_spec()).encode(text)
    assert m.pattern_label == "gpt4"
    m.pop(3)
    assert m.index.vocab == dict(base.vocab) and m.index.n_merges == 3
    assert m.index.pop() is None  # never below the base
    assert m.index.vocab == dict(base.vocab)
