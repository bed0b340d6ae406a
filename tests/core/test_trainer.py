"""The trainer: exact examples, differential tests against the reference trainer, undo, sessions."""
from __future__ import annotations

import itertools
from array import array

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from core import Cancelled, CorpusError, Tokenizer, Trainer, train_bpe
from core.pretokenize import count_pretokens

from .reference import reference_merges, reference_pair_counts, reference_train
from .trainer_state import canonical_state

CATS = ("   \n"
        "Cats never fail to fascinate human beings.\n"
        "They can be friendly and affectionate towards humans, but they lead mysterious lives of their own as well.\n"
        "They never become submissive like dogs and horses. As a result, humans have learned to respect feline independence.\n"
        "Most cats remain suspicious of humans all their lives.\n"
        "One of the things that fascinates us most about cats is the popular belief that they have nine lives.\n"
        "Apparently, there is a good deal of truth in this idea. A cat's ability to survive falls is based on fact.\n")

SPECIAL_POOL = ["<|endoftext|>", "<|a|>", "<|a|><|a|>", "a.b", "[x]"]
FRAGMENTS = [
    b"the", b" the", b" cat", b" cats", b"at", b"  ", b"   ", b"\t", b"\n", b"\n\n", b"\r\n", b"123", b" 4567",
    b"don't", b"'s", b"!!", b"?", b" ...", "\U0001f642".encode(), "中文字".encode(), "é".encode(), b"a", b"b",
    b"aaaa", b"\xff", b"\xc3", b"\xe9t\xe9", b"x", b" x", b"\xef\xbb\xbf",
] + [s.encode() for s in SPECIAL_POOL]
PATTERN_CHOICES = ["gpt2", "gpt4", "none", r"\S+|\s+"]

corpora = st.lists(st.sampled_from(FRAGMENTS), min_size=0, max_size=60).map(b"".join)
specials_st = st.lists(st.sampled_from(SPECIAL_POOL), unique=True, max_size=3)


def listed_ids(t: Trainer, pair) -> list[int]:
    """The word ids the trainer's index lists under ``pair`` (C ints packed in a bytearray)."""
    return array("i", bytes(t._index.words[t._codes.code[pair[0]] + t._codes.code[pair[1]]])).tolist()


def text_trainer(text: str, **options) -> Trainer:
    """``Trainer.from_text(text)`` with the test-only options (which code path to take)."""
    counts, stats = count_pretokens(text, [], "gpt2", workers=1, is_text=True)
    return Trainer(counts, [], stats=stats, **options)


def test_wikipedia_example():
    t = Trainer.from_text("aaabdaaabac", pattern="none")
    assert [r.pair for r in t.steps(3)] == [(b"a", b"a"), (b"aa", b"a"), (b"aaa", b"b")]
    tok = Tokenizer(t.vocab, t.merges)
    assert tok.encode("aaabdaaabac") == [258, 100, 258, 97, 99]


def test_lecture_cats_example():
    t = Trainer.from_text(CATS, pattern="none", tie_break="first")
    t.run(266)
    assert [a + b for a, b in t.merges] == [b"s ", b"e ", b" t", b"at", b"in", b" th", b"an", b".\n", b"li", b"ve"]
    assert [t.token_id(i) for i in range(10)] == list(range(256, 266))
    tok = Tokenizer(t.vocab, t.merges, pattern="none")
    assert tok.encode("do you like cats") == [100, 111, 32, 121, 111, 117, 32, 264, 107, 257, 99, 259, 115]


def test_train_bpe_file_vocab_layout(tmp_path):
    path = tmp_path / "c.txt"
    path.write_bytes(b"low lower lowest<|endoftext|>newer newest wider<|endoftext|>" * 20)
    vocab, merges = train_bpe(path, 270, ["<|endoftext|>"])
    assert len(vocab) == 270 and sorted(vocab) == list(range(270))
    assert all(vocab[i] == bytes([i]) for i in range(256))
    assert vocab[256] == b"<|endoftext|>"
    assert [vocab[257 + i] for i in range(len(merges))] == [a + b for a, b in merges]
    data = path.read_bytes()
    assert merges == reference_train(data, 13, ["<|endoftext|>"])


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(corpora, specials_st, st.sampled_from(PATTERN_CHOICES), st.sampled_from(["lexicographic", "first"]),
       st.integers(0, 25))
def test_matches_reference_trainer(data, specials, pattern, tie_break, n_merges):
    counts, _ = count_pretokens(data, specials, pattern)
    t = Trainer(counts, specials, pattern=pattern, tie_break=tie_break)
    records = t.steps(n_merges)
    assert [r.pair for r in records] == reference_train(data, n_merges, specials, pattern, tie_break)
    assert t.pair_counts() == reference_pair_counts(data, t.merges, specials, pattern)
    for r in records:
        assert r.count > 0
        for s in specials:
            assert s.encode() not in r.token  # special tokens are never merged


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(corpora, min_size=1, max_size=4).map(lambda parts: b" ".join(parts) * 3),
       st.sampled_from(PATTERN_CHOICES), st.sampled_from(["lexicographic", "first"]), st.integers(1, 30))
def test_batch_merges_equal_word_by_word_merges(data, pattern, tie_break, n_merges):
    """The batched merge (all words at once, for pairs in many words) changes exactly what merging
    word by word changes: records with their deltas, words, counts, index; undo too."""
    try:
        counts, _ = count_pretokens(data, ["<|a|>"], pattern)
    except CorpusError:  # mostly invalid bytes: rejected as binary, not a case for this test
        reject()
    one = Trainer(counts, ["<|a|>"], pattern=pattern, tie_break=tie_break, batch_min_words=10**9)
    many = Trainer(counts, ["<|a|>"], pattern=pattern, tie_break=tie_break, batch_min_words=0)
    for _ in range(n_merges):
        r1, r2 = one.step(), many.step()
        if r1 is None:
            assert r2 is None
            break
        assert (r1.pair, r1.count, r1.ties, r1.words_changed, r1.occurrences_changed) == \
            (r2.pair, r2.count, r2.ties, r2.words_changed, r2.occurrences_changed)
        assert dict(r1.deltas) == dict(r2.deltas)
        assert canonical_state(one) == canonical_state(many)
    assert many.pair_counts() == reference_pair_counts(data, many.merges, ["<|a|>"], pattern)
    # the index lists every word that contains a pair (it may list more: a superset)
    for t in (one, many):
        for wid, (_word, toks, _count) in enumerate(t.words()):
            for p in itertools.pairwise(toks):
                assert wid in listed_ids(t, p)
    for _ in range(min(3, many.n_merges)):
        assert one.undo().pair == many.undo().pair
        assert canonical_state(one) == canonical_state(many)


@given(corpora, specials_st, st.sampled_from(PATTERN_CHOICES), st.integers(1, 64))
def test_chunked_pretokenization_equals_whole(data, specials, pattern, block):
    whole, _ = count_pretokens(data, specials, pattern, block_bytes=1 << 30)
    chunked, _stats = count_pretokens(data, specials, pattern, block_bytes=block)
    assert chunked == whole
    assert list(chunked) == list(whole)  # same first-appearance order (the "first" tie rule uses it)


def test_parallel_pretokenization_equals_single(tmp_path):
    lines = [f"Line {i}: the quick brown fox, {i * 7} jumps!\n" for i in range(3000)]
    text = "".join(line + ("<|endoftext|>" if i % 50 == 0 else "") for i, line in enumerate(lines))
    path = tmp_path / "c.txt"
    path.write_text(text, encoding="utf-8")
    single, s1 = count_pretokens(path, ["<|endoftext|>"], workers=1, block_bytes=4096)
    multi, s2 = count_pretokens(path, ["<|endoftext|>"], workers=2, block_bytes=4096)
    assert multi == single and list(multi) == list(single)
    assert s2.workers == 2 and s2.chunks > 10
    assert s2.special_occurrences == s1.special_occurrences == 60


@given(corpora, st.sampled_from(PATTERN_CHOICES), st.sampled_from(["lexicographic", "first"]),
       st.integers(0, 12), st.integers(1, 6))
def test_undo_restores_state_exactly(data, pattern, tie_break, before, extra):
    t = Trainer(count_pretokens(data, ["<|a|>"], pattern)[0], ["<|a|>"], pattern=pattern, tie_break=tie_break)
    initial = canonical_state(t)
    t.steps(before)
    snap = canonical_state(t)
    merges = list(t.merges)
    done = t.steps(extra)
    for r in reversed(done):
        assert t.undo() is r
    assert canonical_state(t) == snap and t.merges == merges
    # stepping again after undo gives the same merges
    assert [r.pair for r in t.steps(len(done))] == [r.pair for r in done]
    while t.undo() is not None:
        pass
    assert canonical_state(t) == initial


def test_undo_of_step_record_and_errors():
    t = Trainer.from_text("abababab cdcd", pattern="gpt2")
    before = canonical_state(t)
    t.undo(t.step())
    assert canonical_state(t) == before and t.merges == []
    r1 = t.step()
    t.step()
    with pytest.raises(ValueError, match="last merge"):
        t.undo(r1)
    assert t.undo() is not None and t.undo() is r1 and t.undo() is None


def test_records_explain_ties_and_changes():
    t = Trainer.from_text(" ab ab cd cd xy", pattern="gpt2")
    assert t.n_pairs_with_count(2) == 4 and t.n_pairs_with_count(1) == 2 and t.n_pairs_with_count(3) == 0
    r = t.step()
    # (' ', 'a'), ('a','b'), (' ','c'), ('c','d') all occur twice: the greatest pair wins
    assert r.count == 2 and r.pair == max((*r.ties, r.pair))
    assert r.n_ties == len(r.ties) == 3
    assert "tied with 3" in r.why()
    assert r.words_changed >= 1 and r.occurrences_changed == 2
    assert dict(r.deltas)[r.pair] == -2


def test_top_pairs_and_words_views():
    text = "the then there these other the the"
    t = Trainer.from_text(text)
    counts = t.pair_counts()
    top = t.top_pairs(5)
    expected = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)[:5]
    assert top == expected
    r = t.step()
    words = t.words_with_token(r.token)
    assert words and all(r.token in toks for _, toks, _ in words)
    assert [w for w, _, _ in words] == sorted([w for w, _, _ in words], key=lambda w: -{
        x[0]: x[2] for x in t.words()}[w])
    changed = t.changed_words(0)
    assert {w for w, _, _, _ in changed} == {w for w, _, _ in words}
    nxt = t.next_pair()
    assert nxt is not None and nxt[0] == t.top_pairs(1)[0][0]
    with_pair = t.words_with_pair(nxt[0], limit=None)
    brute = [(w, toks, c) for w, toks, c in t.words()
             if any(toks[i:i + 2] == nxt[0] for i in range(len(toks) - 1))]
    assert sorted(with_pair) == sorted(brute)
    # the size of the next step bounds the words it changes, and covers them all
    bound = t.next_step_size()
    r2 = t.step()
    assert r2.pair == nxt[0] and len(brute) == r2.words_changed <= bound
    t.steps(10_000)
    assert t.next_pair() is None and t.next_step_size() == 0


def test_session_state_roundtrip():
    t = Trainer.from_text(CATS, ["<|x|>"], pattern="gpt4", tie_break="first")
    t.steps(30)
    again = Trainer.from_state(t.state())
    assert canonical_state(again) == canonical_state(t)
    assert again.vocab == t.vocab and again.tie_break == "first" and again.pattern == "gpt4"
    assert [r.pair for r in again.steps(5)] == [r.pair for r in t.steps(5)]


def test_train_to_vocab_size_and_run_progress():
    t = Trainer.from_text(CATS)
    seen = []
    records = t.run(300, progress=lambda phase, done, total: seen.append((phase, done, total)))
    assert t.vocab_size == 300 and len(records) == 44
    assert seen[-1] == ("merge", 44, 44)
    assert [r.rank for r in records] == list(range(44))
    assert [r.new_id for r in records] == list(range(256, 300))


def test_merge_counts_never_increase_much():
    # sanity of records: counts are the pair frequencies at merge time (recount by reference)
    data = CATS.encode()
    t = Trainer.from_text(CATS)
    for r in t.steps(20):
        before = reference_pair_counts(data, t.merges[: r.rank], [], "gpt2")
        assert before[r.pair] == r.count


@pytest.mark.parametrize("pattern", ["gpt2", "none"])
def test_long_words_take_the_bulk_path_exactly(pattern):
    # pre-tokens longer than LONG_WORD_TOKENS are merged as LongWords: same result as the reference
    data = ("abaab" * 1500 + "a" + " xyxyx" * 20 + " " * 5000 + "abab").encode()
    t = Trainer(count_pretokens(data, [], pattern)[0], [], pattern=pattern)
    before = canonical_state(t)
    records = t.steps(10)
    assert [r.pair for r in records] == reference_train(data, 10, [], pattern)
    assert t.pair_counts() == reference_pair_counts(data, t.merges, [], pattern)
    while t.undo() is not None:
        pass
    assert canonical_state(t) == before


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
    words = {bytes([i, (i * 7) % n_byte_values, i, (i * 7) % n_byte_values, 97, 98]): 1 + i % 5
             for i in range(n_byte_values)}
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
    plain, vectorised = (Trainer(counts, [], pattern=pattern, tie_break=tie_break, small_corpus_bytes=limit)
                         for limit in (10**12, 0))
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
    from core.trainer import MergeRecord

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
    before = {k: bytes(v) for k, v in t._index.words.items()}
    size = t.next_step_size()
    for _ in range(20):
        t.steps(3)
        for _ in range(3):
            t.undo()
    assert {k: bytes(v) for k, v in t._index.words.items()} == before
    assert t.next_step_size() == size
    fresh = Trainer.from_text(CATS * 3)
    fresh.steps(4)
    t.steps(5)
    fresh.steps(5)
    assert canonical_state(t) == canonical_state(fresh)
