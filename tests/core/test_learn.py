"""Learn mode walk-throughs: their values match the real trainer and tokenizer."""

from __future__ import annotations

import itertools

import pytest

from core.formats.spec import TokenizerSpec
from core.learn import encoding as enc
from core.learn import lecture, show, training
from core.learn.frame import MAX_FRAMES
from core.tokenization.tokenizer import Tokenizer
from core.training.trainer import Trainer

from .reference import merge_everywhere

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
    assert [f.event for f in w.frames[-2:]] == ["no_pairs", "summary"]


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
    stream, naive, summary = w.frames[-3:]
    assert stream.event == "stream" and stream.args["same"] is True
    # encoding the two pieces on their own differs at the cut chosen (inside a merged pre-token)
    assert naive.event == "naive" and naive.args["same"] is False
    cut = w.cut
    assert w.naive == tok.encode(text[:cut]) + tok.encode(text[cut:]) != w.ids
    assert summary.event == "summary" and summary.values["ids"] == w.ids


def _merge_all(parts: list[bytes], pair: tuple[bytes, bytes]) -> list[bytes]:
    """The textbook merge: every occurrence of ``pair``, left to right."""
    seqs = [list(parts)]
    merge_everywhere(seqs, pair)
    return seqs[0]


@pytest.mark.parametrize("text", ["banana", "the lowest newest<|endoftext|>low", "aaaa abab"])
def test_each_encoding_merge_frame_replaces_every_occurrence_as_the_code_says(text):
    """The code on screen is ``parts = merge(parts, pair)``: each "merged" frame's parts are the
    parts before it with every occurrence of its pair merged, and the pair is gone after it."""
    merges = [
        (b"a", b"n"),
        (b"w", b"e"),
        (b"we", b"s"),
        (b"a", b"a"),
        (b"l", b"o"),
        (b"a", b"b"),
        (b"ab", b"ab"),
    ]
    for pattern in (None, "gpt2"):
        tok = Tokenizer.from_spec(
            TokenizerSpec.from_merges(merges, special_tokens=[SPECIAL], pattern=pattern)
        )
        w = enc.walk(tok, text)
        assert w.ids == tok.encode(text)
        frames = list(w.frames)
        merged = [
            (a, b) for a, b in itertools.pairwise(frames) if a.event == "lowest" and b.event == "merged"
        ]
        assert merged
        for lowest, after in merged:
            pair = lowest.args["pair"]
            expect = _merge_all(lowest.values["parts"], pair)
            assert after.values["parts"] == expect
            assert after.args["replaced"] == len(lowest.values["parts"]) - len(expect)
            assert pair not in itertools.pairwise(expect)
        if "banana" in text and pattern is None:
            assert [a.args["replaced"] for _, a in merged] == [2]


def test_long_text_frames_are_capped_but_results_complete():
    text = "ab" * 3000
    w = lecture.walk(text, 1)
    # the frames stop at the cap, but the closing summary is always there
    assert w.truncated and len(w.frames) == MAX_FRAMES + 1
    assert w.frames[-1].event == "summary" and w.frames[-1].values["indices"] == [256] * 3000
    assert w.indices == [256] * 3000


def test_show_cuts_long_values():
    assert show(list(range(30)), 2) == "[0, 1, … (28 more)]"
    assert show({(b"a", b"b"): 3}) == "{(b'a', b'b'): 3}"


def test_lecture_records_merges_and_explains_overlapping_pairs():
    w = lecture.walk("aaaaaaa", 1)
    entry = next(f for f in w.frames if f.event == "merges_entry")
    assert w.code[entry.line] == "    merges[pair] = new_index"
    assert entry.values["merges"] == {(97, 97): 256}
    merged = next(f for f in w.frames if f.event == "merged")
    # six overlapping (97, 97) pairs in seven a's, three replaced left to right
    assert merged.args["count"] == 6 and merged.args["replaced"] == 3
    assert merged.values["indices"] == [256, 256, 256, 97]


def test_training_shows_where_ids_come_from():
    w = training.walk("abc abc", [SPECIAL, "<pad>"], 2, pattern="whitespace")
    vocab = next(f for f in w.frames if f.event == "vocab")
    assert vocab.values["next_id"] == 256
    specials = [f for f in w.frames if f.event == "special_vocab"]
    assert [(f.args["id"], f.args["next_id"]) for f in specials] == [(256, 257), (257, 258)]
    appended = [f.values["next_id"] for f in w.frames if f.event == "append"]
    moved = [f.values["next_id"] for f in w.frames if f.event == "next_id"]
    assert appended == [258, 259] and moved == [259, 260]
    assert w.code[next(f for f in w.frames if f.event == "next_id").line].strip() == "next_id += 1"
    summary = w.frames[-1]
    assert summary.event == "summary" and summary.args["vocab_size"] == 260
    assert summary.values["vocab (new)"] == {256: b"<|endoftext|>", 257: b"<pad>", 258: b"bc", 259: b"abc"}


def test_training_handout_example_with_whitespace_gives_the_handout_merges():
    text = "low low low low low lower lower widest widest widest newest newest newest newest newest newest"
    w = training.walk(text, [SPECIAL], 12, pattern="whitespace")
    # the handout's word counts, and the spaces between them kept as pre-tokens (as the trainer keeps
    # text the pattern does not cover): a lone space has no pair, so the merges are the handout's
    assert w.word_counts == {b"low": 5, b"lower": 2, b"widest": 3, b"newest": 6, b" ": 15}
    got = " ".join((a + b"_" + b).decode() for a, b in w.merges)
    assert got == "s_t e_st o_w l_ow w_est n_e ne_west w_i wi_d wid_est low_e lowe_r"


def test_training_overlap_in_a_word_is_counted_and_explained():
    w = training.walk("aaa", [], 1, pattern="none")
    new_word = next(f for f in w.frames if f.event == "new_word")
    assert new_word.args["seen"] == 2 and new_word.args["replaced"] == 1


@pytest.mark.parametrize("pattern", ["gpt2", "whitespace", "none"])
def test_training_walk_equals_the_trainer_for_each_learn_pattern(pattern):
    import random

    from core.pretokenization.splitting import make_covering_splitter

    rng = random.Random(7)
    for _ in range(25):
        text = "".join(rng.choice("ab  c\n我é") for _ in range(rng.randint(0, 30)))
        w = training.walk(text, [], 6, pattern=pattern)
        regex_ = training.LEARN_PATTERNS[pattern]
        t = Trainer.from_text(text, pattern=regex_)
        assert w.merges == [r.pair for r in t.steps(6)], text
        pat = None if pattern == "none" else (r"\S+" if pattern == "whitespace" else None)
        if pat is not None:
            assert [p for p, _m in training.pretokens(pat, text)] == make_covering_splitter(pat)(text)
