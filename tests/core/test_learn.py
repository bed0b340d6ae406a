"""Learn mode walk-throughs: their values match the real trainer and tokenizer."""

from __future__ import annotations

import pytest

from core.learn import encoding as enc
from core.learn import lecture, show, training
from core.learn.frame import MAX_FRAMES
from core.tokenization.tokenizer import Tokenizer
from core.training.trainer import Trainer

SPECIAL = "<|endoftext|>"
TEXT = f"low low lower{SPECIAL}newest widest newest"


def test_lecture_hi_is_its_bytes():
    w = lecture.walk("hi", 0)
    assert w.indices == [104, 105]
    assert w.frames[0].values["indices"] == [104, 105]


def test_lecture_wikipedia_example_after_three_merges():
    w = lecture.walk("aaabdaaabac", 3)
    assert w.indices == [258, 100, 258, 97, 99]
    assert w.merges == [((97, 97), 256), ((256, 97), 257), ((257, 98), 258)]
    assert w.vocab == {256: b"aa", 257: b"aaa", 258: b"aaab"}
    maxes = [f for f in w.frames if f.event == "max"]
    # second merge: (256, 97) and (97, 98) both occur twice; max keeps the first seen
    assert maxes[1].args["count"] == 2 and maxes[1].args["ties"] == [(97, 98)]
    # the counting loop visits every adjacent pair: 10 in the first round
    assert sum(f.event == "count" and f.values["step"] == 0 for f in w.frames) == 10
    assert maxes[0].values["counts"][(97, 97)] == 4


@pytest.mark.parametrize("text", ["aaabdaaabac", "abababcbc", "héllo héllo"])
def test_lecture_matches_trainer_without_pretokenization_first_seen_ties(text):
    n = 4
    w = lecture.walk(text, n)
    t = Trainer.from_text(text, pattern="none", tie_break="first")
    recs = t.steps(n)
    vocab = {i: bytes([i]) for i in range(256)} | w.vocab
    assert [(vocab[a], vocab[b]) for (a, b), _ in w.merges] == [r.pair for r in recs]


def test_lecture_stops_when_one_index_is_left():
    w = lecture.walk("aa", 5)
    assert w.indices == [256] and len(w.merges) == 1
    assert w.frames[-1].event == "no_pairs"


def test_training_matches_trainer_merges_counts_and_deltas():
    n = 8
    w = training.walk(TEXT, [SPECIAL], n)
    t = Trainer.from_text(TEXT, [SPECIAL])
    recs = t.steps(n)
    assert w.merges == [r.pair for r in recs]
    assert w.word_counts == {b"low": 1, b" low": 1, b" lower": 1, b"newest": 1, b" widest": 1, b" newest": 1}
    assert list(w.vocab) == [t.token_id(r.rank) for r in recs]
    for upd, rec in zip(w.updates, recs):
        assert upd == dict(rec.deltas)
    # the counts after the last merge are the trainer's
    assert w.pair_counts_after[-1] == {p: c for p, c in t.pair_counts().items() if c}


def test_training_special_token_is_split_out_and_never_merged():
    w = training.walk(f"ab{SPECIAL}ab", [SPECIAL], 3)
    first = w.frames[0]
    assert first.event == "split" and first.values["pieces"] == ["ab", "ab"]
    assert all(b"<" not in a + b for a, b in w.merges)


def test_training_lexicographic_tie_rule():
    # every pair occurs once: the greatest (bytes, bytes) pair wins
    w = training.walk("abc", [], 1, pattern="none")
    best = next(f for f in w.frames if f.event == "best")
    assert best.args["pair"] == (b"b", b"c") and best.args["ties"] == [(b"a", b"b")]


def test_training_incremental_update_frames_name_the_changed_words():
    w = training.walk("aaa aaa", [], 1)
    dec = [f for f in w.frames if f.event == "decrement"]
    inc = [f for f in w.frames if f.event == "increment"]
    # words "aaa" (count 1) and " aaa" (count 1); merge (a, a)
    assert next(f.args["pairs"] for f in dec) == [(b"a", b"a"), (b"a", b"a")]
    assert next(f.args["pairs"] for f in inc) == [(b"aa", b"a")]


def test_encoding_matches_tokenizer_and_streaming():
    t = Trainer.from_text(TEXT, [SPECIAL])
    t.steps(10)
    tok = Tokenizer(t.vocab, t.merges, [SPECIAL])
    text = f"the newest lower{SPECIAL}low"
    w = enc.walk(tok, text)
    assert w.ids == tok.encode(text)
    assert w.streamed == w.ids
    assert w.pretokens[-2] == (SPECIAL, True)
    steps = dict(w.steps)
    assert [s.pair for s in steps[" newest"]] == [s.pair for s in tok.merge_trace(" newest")]
    ranks = [f.args["rank"] for f in w.frames if f.event == "lowest"]
    assert ranks and all(r is not None for r in ranks)
    assert w.frames[-1].event == "stream" and w.frames[-1].args["same"] is True


def test_long_text_frames_are_capped_but_results_complete():
    text = "ab" * 3000
    w = lecture.walk(text, 1)
    assert w.truncated and len(w.frames) == MAX_FRAMES
    assert w.indices == [256] * 3000


def test_show_cuts_long_values():
    assert show(list(range(30)), 2) == "[0, 1, … (28 more)]"
    assert show({(b"a", b"b"): 3}) == "{(b'a', b'b'): 3}"
