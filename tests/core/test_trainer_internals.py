"""The trainer's internals: interrupted merges roll back, undo takes back exactly what a merge
did (index entries included), token codes, the batch and word-by-word paths agree."""

from __future__ import annotations

import pytest
from hypothesis import given, reject
from hypothesis import strategies as st

from core import Cancelled, CorpusError, Trainer
from core.pretokenization.pretokenize import count_pretokens

from .reference import reference_merges, reference_pair_counts, reference_train
from .trainer_state import (
    CATS,
    PATTERN_CHOICES,
    canonical_state,
    corpora,
    listed_bytes,
    listed_ids,
    text_trainer,
)


def _many_words(n: int) -> str:
    """``n`` distinct words that all contain "ab" (so the first merge changes every one)."""
    letters = "cdefghijklmnopqrstuvwxyz"
    words = []
    for i in range(n):
        tail = ""
        while True:
            i, r = divmod(i, len(letters))
            tail += letters[r]
            if not i:
                break
        words.append("ab" + tail + "ab")
    return " ".join(w for w in words for _ in range(3)) + "\n"


def test_interrupt_inside_a_big_merge_rolls_it_back():
    text = _many_words(6000)
    t = text_trainer(text, batch_min_words=10**9)  # word by word (a batched merge is short and never split)
    fresh = Trainer.from_text(text)
    before = canonical_state(t)
    calls = []

    def interrupt() -> bool:
        calls.append(1)
        return len(calls) >= 2  # stop at the second check, in the middle of the first merge

    with pytest.raises(Cancelled) as info:
        t.run(256 + 10, interrupt=interrupt)
    assert info.value.records == [] and t.n_merges == 0
    assert canonical_state(t) == before  # nothing of the half-done merge is left
    # the session goes on as if nothing happened, and the interrupt is gone
    assert [r.pair for r in t.steps(5)] == [r.pair for r in fresh.steps(5)]
    assert canonical_state(t) == canonical_state(fresh)
    assert t.run(256 + 8) and len(calls) == 2


def test_interrupt_between_merges_keeps_the_done_ones():
    text = _many_words(6000)
    t = Trainer.from_text(text)
    done: list = []

    def progress(phase, n, total):
        done.append(n)

    with pytest.raises(Cancelled) as info:
        t.run(256 + 50, progress=progress, interrupt=lambda: len(done) >= 3)
    kept = info.value.records
    assert len(kept) >= 3 and t.n_merges == len(kept)
    fresh = Trainer.from_text(text)
    fresh.steps(len(kept))
    assert canonical_state(t) == canonical_state(fresh)


@pytest.mark.parametrize("batch_min_words", [0, 10**9])
def test_interrupted_step_changes_nothing(batch_min_words):
    """step(interrupt=...) (used to merge ahead while an app is idle) rolls a stopped merge back,
    whether it was being done word by word or in one batch."""
    text = _many_words(6000)
    t = text_trainer(text, batch_min_words=batch_min_words)
    before = canonical_state(t)
    with pytest.raises(Cancelled):
        t.step(interrupt=lambda: True)
    assert canonical_state(t) == before and t.n_merges == 0
    checks = []
    r = t.step(interrupt=lambda: checks.append(1) and False)
    assert checks and r is not None and t.n_merges == 1  # checked, not stopped
    fresh = Trainer.from_text(text)
    fresh.step()
    assert canonical_state(t) == canonical_state(fresh)


def test_undo_in_two_parts_equals_undo():
    t = Trainer.from_text(CATS * 3)
    u = Trainer.from_text(CATS * 3)
    t.steps(12)
    u.steps(12)
    rec, restore_words = t.undo_in_two()
    assert rec == u.undo() and t.merges == u.merges and t.pair_counts() == u.pair_counts()
    restore_words()
    assert canonical_state(t) == canonical_state(u)
    fresh = Trainer.from_text(CATS)
    assert fresh.undo_in_two()[0] is None


def test_batched_merges_leave_very_long_words_to_the_word_path():
    data = ("--" * 3000 + " " + " ".join(f"a--{i}" for i in range(300))).encode()
    t = Trainer(count_pretokens(data, [], "none")[0], [], pattern="none", batch_min_words=0)
    assert [r.pair for r in t.steps(6)] == reference_train(data, 6, [], "none")


def test_canonical_state_compares_tokens_not_codes():
    t = Trainer.from_text(CATS)
    u = Trainer.from_text(CATS)
    t._codes.code_for(b"zzz")  # as an interrupted merge would: t's later tokens get other codes than u's
    r = t.step()
    u.merge(r.pair)
    assert t._codes.code[r.token] != u._codes.code[r.token]
    assert canonical_state(t) == canonical_state(u)


@pytest.mark.parametrize("n_byte_values", [256, 253])
def test_token_codes_when_few_or_no_byte_values_are_free(n_byte_values):
    """Merged tokens take codes of byte values the corpus never uses first (one of them separates
    words in a batched merge), then codes from 256 up; with all 256 byte values in use there are
    none. Both merge paths stay exact through the switch."""
    words = {
        bytes([i, (i * 7) % n_byte_values, i, (i * 7) % n_byte_values, 97, 98]): 1 + i % 5
        for i in range(n_byte_values)
    }
    words.update({b"abab" * k: 40 - k for k in range(1, 8)})
    expected = reference_merges(words, 30)
    for batch in (0, 10**9):
        t = Trainer(words, pattern=None, batch_min_words=batch)
        assert (t._codes.sep_code < 256) == (n_byte_values < 256)
        states = [canonical_state(t)]
        for _ in range(30):
            t.step()
            states.append(canonical_state(t))
        assert t.merges == expected
        codes = sorted(ord(t._codes.code[a + b]) for a, b in t.merges)
        assert codes[-1] >= 256  # free byte values (if any) ran out
        assert (codes[0] < 256) == (n_byte_values < 256)  # free byte values are used first, if any
        while t.n_merges:
            states.pop()
            t.undo()
            assert canonical_state(t) == states[-1]


@pytest.mark.parametrize("batch_min_words", [0, 10**9])
def test_words_listed_twice_in_the_index_are_merged_once(batch_min_words):
    # after a+b, "abcabc" holds (ab, c) twice: the index lists the word twice under it
    data = b"abcabc abcabc xabc"
    t = Trainer(count_pretokens(data, [], "gpt2")[0], [], batch_min_words=batch_min_words)
    assert t.merge((b"a", b"b")).pair == (b"a", b"b")
    assert listed_ids(t, (b"ab", b"c")).count(0) == 2
    r = t.step()
    assert (r.pair, r.count, r.words_changed, r.occurrences_changed) == ((b"ab", b"c"), 5, 3, 3)
    assert t.pair_counts() == reference_pair_counts(data, t.merges, [], "gpt2")
    assert sorted(w for w, _toks, _c in t.words_with_pair((b"abc", b"abc"))) == [b" abcabc", b"abcabc"]
    t.undo()
    assert t.pair_counts() == reference_pair_counts(data, t.merges, [], "gpt2")


@given(corpora, st.sampled_from(PATTERN_CHOICES), st.sampled_from(["lexicographic", "first"]))
def test_plain_and_numpy_builds_agree(data, pattern, tie_break):
    """The pair counts and index built in plain Python (small corpora) equal NumPy's (large ones)."""
    try:
        counts, _ = count_pretokens(data, [], pattern)
    except CorpusError:
        reject()
    # every corpus is "small", then none is
    plain, vectorised = (
        Trainer(counts, [], pattern=pattern, tie_break=tie_break, small_corpus_bytes=limit)
        for limit in (10**12, 0)
    )
    assert canonical_state(plain) == canonical_state(vectorised)
    assert plain._codes.free == vectorised._codes.free and plain._codes.sep == vectorised._codes.sep
    assert [r.pair for r in plain.steps(5)] == [r.pair for r in vectorised.steps(5)]
    assert canonical_state(plain) == canonical_state(vectorised)


def test_bytes_absent_from_the_corpus_are_never_found():
    # merged tokens take the codes of byte values the corpus never uses: asking for such a byte
    # must not find the words of the token that took its code
    t = Trainer.from_text("the cat sat on the mat with the hat " * 50)
    tokens = [r.token for r in t.steps(5)]
    assert len(tokens) == 5
    for value in [*list(range(0, 9)), 127, 200, 255]:
        byte = bytes([value])
        assert t.words_with_token(byte) == []
        assert t.words_with_pair((byte, b" ")) == [] and t.words_with_pair((b"t", byte)) == []
    for token in tokens:  # the merged tokens themselves are found where they are
        expected = {w for w, toks, _c in t.words() if token in toks}
        assert expected and {w for w, _toks, _c in t.words_with_token(token, limit=None)} == expected


def test_lean_trainer_counts_ties_without_listing_them():
    full = Trainer.from_text(CATS, pattern="gpt2")
    lean = Trainer.from_text(CATS, pattern="gpt2", keep_history=False)
    a, b = full.steps(40), lean.steps(40)
    assert [r.pair for r in a] == [r.pair for r in b] and [r.n_ties for r in a] == [r.n_ties for r in b]
    assert any(r.ties for r in a) and not any(r.ties for r in b)


def test_why_reads_as_a_sentence():
    from core.training.trainer import MergeRecord

    one = MergeRecord(rank=0, pair=(b"a", b"b"), new_id=256, count=1)
    assert one.why() == "most frequent pair (1 time)"
    tie = MergeRecord(rank=0, pair=(b"a", b"b"), new_id=256, count=5, n_ties=1)
    assert tie.why("first") == "tied with 1 other pair at 5; the pair seen first in the text wins"
    many = MergeRecord(rank=0, pair=(b"a", b"b"), new_id=256, count=5, n_ties=1200)
    assert many.why().startswith("tied with 1,200 other pairs at 5;")


def test_words_ending_in_nul_bytes_stay_exact():
    # NUL is a token code like any other: no step may drop it from the end of a word
    counts = {b"ab\x00": 5, b" ab\x00\x00": 4, b"\x00ab": 3, b"cab\x00": 2}
    runs = []
    for batch_min_words in (0, 10**9):
        t = Trainer(counts, [], pattern="none", batch_min_words=batch_min_words)
        runs.append([r.pair for r in t.steps(6)])
        for word, tokens, _count in t.words():
            assert b"".join(tokens) == word and tokens[-1].endswith(word[-1:])
        while t.undo():
            pass
        assert [toks for _w, toks, _c in t.words()] == [tuple(bytes([x]) for x in w) for w in counts]
    assert runs[0] == runs[1] and len(runs[0]) == 6


@pytest.mark.parametrize("batch_min_words", [0, 10**9])
def test_undo_takes_back_the_index_entries_of_its_merge(batch_min_words):
    """Redoing a merge after its undo must not list its words again: the engine merges ahead and
    takes it back on every other request, so the index would grow for as long as the app runs."""
    t = text_trainer(CATS * 3, batch_min_words=batch_min_words)
    t.steps(4)
    before = {k: listed_bytes(v) for k, v in t._index.words.items()}
    size = t.next_step_size()
    for _ in range(20):
        t.steps(3)
        for _ in range(3):
            t.undo()
    assert {k: listed_bytes(v) for k, v in t._index.words.items()} == before
    assert t.next_step_size() == size
    fresh = Trainer.from_text(CATS * 3)
    fresh.steps(4)
    t.steps(5)
    fresh.steps(5)
    assert canonical_state(t) == canonical_state(fresh)
