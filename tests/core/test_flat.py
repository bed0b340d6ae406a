"""The flat merge loop (core/training/flat.py) makes the trainer's merges, with the same counts and
ties, for both tie rules; train_bpe takes it where it fits in memory, with the same result."""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import train_bpe
from core.errors import BPEError, Cancelled, CorpusError
from core.pretokenization.pretokenize import count_pretokens
from core.training import flat
from core.training.flat import FlatMerger
from core.training.memory_need import flat_memory, lean_engine, training_memory
from core.training.trainer import Trainer

from .reference import reference_merges
from .trainer_state import corpora

# words over a few letters (long runs, repeats, adjacent and overlapping sites) and some other bytes
WEIGHTED = st.dictionaries(
    st.binary(min_size=1, max_size=14).map(lambda b: bytes(x % 3 + 97 if x < 200 else x for x in b)),
    st.integers(1, 9),
    min_size=1,
    max_size=30,
)

# 343 words of three letters over seven, repeated: many pairs, made and lost merge after merge
MANY_PAIRS = {
    bytes([97 + i % 7, 97 + i // 7 % 7, 97 + i // 49 % 7]) * (1 + i % 4): 1 + i % 5 for i in range(343)
}


def _same_as_trainer(counts: dict[bytes, int], tie_break: str, n: int) -> FlatMerger:
    flat = FlatMerger(counts, tie_break)
    trainer = Trainer(counts, [], pattern=None, tie_break=tie_break, keep_history=False)
    fields = ("pair", "count", "n_ties", "words_changed", "occurrences_changed")
    got = [tuple(getattr(r, f) for f in fields) for r in flat.steps(n)]
    want = [tuple(getattr(r, f) for f in fields) for r in trainer.steps(n)]
    assert got == want
    assert flat.words() == [toks for _w, toks, _c in trainer.words()]
    return flat


@settings(max_examples=150, deadline=None)
@given(WEIGHTED, st.sampled_from(["lexicographic", "first"]), st.integers(1, 40))
def test_flat_merges_are_the_trainers(counts, tie_break, n):
    flat = _same_as_trainer(counts, tie_break, n)
    assert flat.merges == reference_merges(counts, n, tie_break)[: len(flat.merges)]


# the loop's paths, each taken for every merge: one site at a time; NumPy calls over all sites;
# NumPy calls a slice of two sites' words at a time (later slices find the pairs made by earlier
# ones), after counting the byte pairs five nodes at a time; each with a pair id per node (short
# words, as these are) and without (long words: pairs found by key)
NODE_IDS = {"NODE_IDS_MAX_BYTES": flat.NODE_IDS_MAX_BYTES}
NO_NODE_IDS = {"NODE_IDS_MAX_BYTES": -1}
EAGER = {"GONE_SHARE": 10**9, "STALE_SHARE": 10**9, "SOFT_GROWTH": 1.0}
BY = st.sampled_from([NODE_IDS, NO_NODE_IDS])  # (with a pair id per node, or by key)
PATHS = {
    "sites one at a time": {"SMALL_SITES": 10**9},
    "all sites at once": {"SMALL_SITES": -1},
    "slices of sites": {"SMALL_SITES": -1, "SLICE_SITES": 2, "BUILD_BLOCK_NODES": 5},
    "sites one at a time, by key": {"SMALL_SITES": 10**9, **NO_NODE_IDS},
    "all sites at once, by key": {"SMALL_SITES": -1, **NO_NODE_IDS},
    "slices of sites, by key": {"SMALL_SITES": -1, "SLICE_SITES": 2, "BUILD_BLOCK_NODES": 5, **NO_NODE_IDS},
    # the pool compacted whenever past its limit, the ids of pairs gone renumbered whenever half
    "everything compacted eagerly": {**EAGER, "SMALL_SITES": 3, "COMPACT_MIN": 1},
    "everything compacted eagerly, by key": {**EAGER, "SMALL_SITES": 3, "COMPACT_MIN": 1, **NO_NODE_IDS},
    # a byte pair's list in one chunk, taken by slices while the pool is compacted under them
    "slices, the pool compacted between them": {
        "SMALL_SITES": -1,
        "SLICE_SITES": 2,
        "GONE_SHARE": 10**9,
        "STALE_SHARE": 10**9,
        "SOFT_GROWTH": 1.0,
    },
}


@pytest.mark.parametrize("path", PATHS)
@settings(max_examples=80, deadline=None)
@given(WEIGHTED, st.sampled_from(["lexicographic", "first"]), st.integers(1, 40))
def test_every_path_makes_the_trainers_merges(path, counts, tie_break, n):
    with mock.patch.multiple(flat, **PATHS[path]):
        _same_as_trainer(counts, tie_break, n)


@settings(max_examples=80, deadline=None)
@given(
    WEIGHTED,
    st.sampled_from(["lexicographic", "first"]),
    st.sampled_from([-1, 3, 10**9]),
    st.lists(st.booleans(), min_size=30, max_size=30),
    BY,
)
def test_compacting_the_lists_and_the_pair_ids_changes_nothing(counts, tie_break, small, stale, by):
    """Between any two merges: the pool of node lists compacted (dropping stale nodes too, or only
    the lists of pairs gone), the ids of pairs gone dropped."""
    trainer = Trainer(counts, [], pattern=None, tie_break=tie_break, keep_history=False)
    fields = ("pair", "count", "n_ties", "words_changed", "occurrences_changed")
    with mock.patch.multiple(flat, SMALL_SITES=small, **by):
        merger = FlatMerger(counts, tie_break)
        for drop_stale in stale:
            got = [tuple(getattr(r, f) for f in fields) for r in merger.steps(1)]
            assert got == [tuple(getattr(r, f) for f in fields) for r in trainer.steps(1)]
            if not got:
                break
            merger._compact_pool(stale=drop_stale)
            merger._next_check = 0  # (the ids are counted, and dropped where half are gone)
    assert merger.words() == [toks for _w, toks, _c in trainer.words()]


@settings(max_examples=60, deadline=None)
@given(WEIGHTED, st.sampled_from(["lexicographic", "first"]), st.sampled_from([-1, 3, 10**9]), BY)
def test_a_pool_compacted_whenever_past_its_limit_changes_nothing(counts, tie_break, small, by):
    """The pool's own rule, at its most eager: past its soft limit it is compacted whenever any of
    it is gone or stale, and the limit rises as little as it can."""
    with mock.patch.multiple(flat, **_eager(small), **by):
        merger = _same_as_trainer(counts, tie_break, 40)
    assert merger._npool <= merger._soft <= merger._pool.size


def _eager(small: int) -> dict:
    return {"SMALL_SITES": small, **EAGER}


@pytest.mark.parametrize("small", [-1, 10**9])
def test_the_pool_stays_within_its_limit_by_compacting(small):
    """Merges that make many pairs: the eager rule compacts the pool instead of letting it hold
    more entries (each compaction leaves live entries only, or none of the pairs gone)."""
    words = MANY_PAIRS
    spy = mock.patch.object(FlatMerger, "_compact_pool", autospec=True, side_effect=FlatMerger._compact_pool)
    with mock.patch.multiple(flat, **_eager(small)), spy as compacted:
        merger = FlatMerger(words)
        start = merger._soft
        merger.steps(150)
    assert compacted.call_count >= 10
    assert merger._soft < 1.1 * start  # (raised only where a merge's new entries did not fit)
    reference = FlatMerger(words)
    assert [r.pair for r in reference.steps(150)] == merger.merges


@settings(max_examples=60, deadline=None)
@given(WEIGHTED, st.sampled_from(["lexicographic", "first"]), st.sampled_from([-1, 10**9]), BY)
def test_tokens_turn_int32_when_the_codes_outgrow_int16(counts, tie_break, small, by):
    """The tokens are int16 while the codes fit (END - code too); the merge whose new code would not
    fit turns them int32 on the way, with the same merges (the limit lowered here to 259)."""
    with mock.patch.multiple(flat, SMALL_SITES=small, SHORT_CODES=259, **by):
        merger = FlatMerger(counts, tie_break)
        assert merger.T.dtype == np.int16
        trainer = Trainer(counts, [], pattern=None, tie_break=tie_break, keep_history=False)
        for _ in range(40):
            got = [(r.pair, r.count, r.n_ties, r.words_changed) for r in merger.steps(1)]
            assert got == [(r.pair, r.count, r.n_ties, r.words_changed) for r in trainer.steps(1)]
            if not got:
                break
            assert merger.T.dtype == (np.int16 if len(merger._tokens) <= 259 else np.int32)
    assert merger.words() == [toks for _w, toks, _c in trainer.words()]


def test_the_tokens_are_int32_from_the_start_for_a_vocabulary_past_int16():
    words = {b"abcabc": 3, b"bca": 2}
    assert FlatMerger(words, vocab_size=32_000).T.dtype == np.int16
    assert FlatMerger(words, vocab_size=32_000, special_tokens=["<s>"]).T.dtype == np.int16
    assert FlatMerger(words, vocab_size=2**15 + 1).T.dtype == np.int32
    assert FlatMerger(words, vocab_size=2**15 + 1).steps(3) == FlatMerger(words).steps(3)


def test_consume_empties_the_counts_it_was_built_from():
    from core.pretokenization.sharded_count import OrderedCounts

    words = {b"abab": 2, b"ab": 1}
    merger = FlatMerger(words, consume=True)
    assert words == {}
    ordered = OrderedCounts([b"abab", b"ab"], [2, 1])
    assert FlatMerger(ordered, consume=True).steps(2) == merger.steps(2)
    assert len(ordered) == 0 and list(ordered) == [] and dict(ordered) == {}
    kept = {b"abab": 2, b"ab": 1}
    FlatMerger(kept)
    assert kept == {b"abab": 2, b"ab": 1}


def _packed(words: dict[bytes, int]):
    from core.pretokenization.sharded_count import OrderedCounts

    lens = np.array([len(w) for w in words], np.int64)
    return OrderedCounts.from_packed(b"\0".join(words), lens, np.array(list(words.values()), np.int64))


@pytest.mark.parametrize("by", [NODE_IDS, NO_NODE_IDS])
def test_packed_counts_merge_as_the_words_do(by):
    """Counts as the workers hand them over (the words joined, lengths, counts) are read without
    making the words: the same merges as from a dict, NUL bytes in words included."""
    words = {**MANY_PAIRS, b"a\0b": 7, b"\0\0": 3, b"\0": 2}
    with mock.patch.multiple(flat, **by):
        expect = FlatMerger(words).steps(40)
        from core.pretokenization.sharded_count import OrderedCounts

        packed = _packed(words)
        # (no stats given: summed from the packed counts; never made into a list of words)
        with mock.patch.object(OrderedCounts, "_unpack", side_effect=AssertionError("made into lists")):
            merger = FlatMerger(packed, consume=True)
        assert packed.packed() is None and len(packed) == 0  # consumed
        assert merger.stats.pretokens == sum(words.values()) and merger.stats.distinct_pretokens == len(words)
        assert merger.steps(40) == expect


def test_packed_counts_that_break_the_rules_get_the_same_errors():
    for bad, code in (({b"ab": 0}, "counts_not_positive"), ({b"ab": 1 << 61, b"abc": 1}, "counts_too_large")):
        with pytest.raises(CorpusError) as e:
            FlatMerger(_packed(bad))
        assert e.value.code == code


@pytest.mark.parametrize("by", [NODE_IDS, NO_NODE_IDS])
def test_the_lists_hold_every_pair_start_once_and_weigh_its_count(by):
    """After merges and a compaction of the pool, the lists hold exactly the nodes where a pair
    starts, each once, and each pair's nodes, weighed by their words' counts, sum to its count."""
    words = MANY_PAIRS
    with mock.patch.multiple(flat, **by):
        merger = FlatMerger(words)
    assert (merger.P is None) == (by == NO_NODE_IDS)
    merger.steps(150)
    merger._compact_pool()
    assert merger._npool == merger._live > 0
    live = np.flatnonzero(merger._count[: merger._n] > 0)
    assert sum(merger._sites(int(p)).size for p in live) == merger._live
    for p in live.tolist():
        sites = merger._sites(p)
        assert int(merger._wcounts[merger._word_of(sites)].sum()) == int(merger._count[p])


def test_every_node_knows_its_word():
    """A node's word comes from a word number per 256 nodes and a byte per node: right across
    blocks, for runs of one-byte words (128 word starts in a block) and words longer than a block."""
    lengths = [1] * 700 + [3, 300, 1, 2, 600] * 40 + [1] * 300
    words = {
        bytes([i % 251, i // 251 % 251]) + b"x" * (n - 2) if n > 2 else bytes([i % 200 + 1, 7])[:n]: 1
        for i, n in enumerate(lengths)
    }
    merger = FlatMerger(words)
    nodes = np.flatnonzero(merger.T != flat.SEP)
    assert (
        merger._word_of(nodes).tolist() == (np.searchsorted(merger._wstart, nodes, side="right") - 1).tolist()
    )
    assert merger._wstart.size == len(words)


@settings(max_examples=60, deadline=None)
@given(corpora, st.sampled_from(["lexicographic", "first"]))
def test_flat_merges_of_pretokenized_text(data, tie_break):
    try:
        counts, _ = count_pretokens(data, [], "gpt2")
    except CorpusError:
        return  # (rejected as binary: not a case here)
    _same_as_trainer(dict(counts), tie_break, 60)


@pytest.mark.parametrize("tie_break", ["lexicographic", "first"])
def test_runs_adjacent_sites_and_a_long_word(tie_break):
    counts = {b"aaaaaaa": 3, b"abababab": 2, b"ba": 5, b"x" * 5000 + b"yx" * 700: 1, b"a": 4, b"zz": 1}
    _same_as_trainer(counts, tie_break, 40)


def test_counts_beyond_32_bits_stay_exact():
    counts = {b"ab": 3 * 2**40, b"abc": 2**33, b"bc": 7}
    flat = _same_as_trainer(counts, "lexicographic", 3)
    assert flat.merges[0] == (b"a", b"b")


def test_no_pairs_no_merges():
    assert FlatMerger({}).steps(5) == []
    assert FlatMerger({b"a": 3, b"b": 1}).steps(5) == []


def test_bad_counts_are_refused():
    with pytest.raises(CorpusError):
        FlatMerger({b"ab": 0})


def test_train_bpe_gives_the_same_with_either_loop(tmp_path):
    text = b"".join(
        b"Line %d: the quick brown fox jumps, %d times!<|endoftext|>\n" % (i, i * 7) for i in range(400)
    )
    path = tmp_path / "c.txt"
    path.write_bytes(text + "naïve café 中文 \xff".encode("utf-8", "surrogateescape")[:-1] + b"\xff")
    for tie_break in ("lexicographic", "first"):
        flat = train_bpe(path, 420, ["<|endoftext|>"], tie_break=tie_break, workers=1, engine="flat")
        words = train_bpe(path, 420, ["<|endoftext|>"], tie_break=tie_break, workers=1, engine="words")
        assert flat == words and len(flat[1]) > 100
    with pytest.raises(BPEError, match="engine"):
        train_bpe(path, 300, engine="fast")


def test_train_bpe_keeps_pair_ids_per_node_for_long_words_only_where_memory_allows(tmp_path, monkeypatch):
    """Chinese runs of characters (long pre-tokens): with memory to spare the flat loop keeps a pair
    id per node (faster merges), with little free it finds pairs by key (less memory); the merges
    are the same, and the CLI's line before a run gives the estimate of the layout taken."""
    from core.training import memory_need

    runs = ("".join(chr(0x4E00 + (i * 131 + j * 17) % 3000) for j in range(12)) for i in range(600))
    text = "，".join(runs)  # (600 runs of 12 characters, 36 bytes each, between commas)
    path = tmp_path / "zh.txt"
    path.write_text(text, encoding="utf-8")
    built: list[bool] = []
    real_init = FlatMerger.__init__

    def spy(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        built.append(self.P is not None)

    monkeypatch.setattr(FlatMerger, "__init__", spy)
    results = []
    for free, with_ids in ((64 * 10**9, True), (10**5, False)):
        monkeypatch.setattr(memory_need, "available_memory", lambda free=free: free)
        results.append(train_bpe(path, 400, ["<|endoftext|>"], workers=1, engine="flat"))
        assert built[-1] is with_ids
        counts = {"中文" * 20: 1, "天地" * 30: 2}
        distinct, word_bytes = len(counts), sum(len(w.encode()) for w in counts)
        need = memory_need.flat_memory(distinct, word_bytes, 100, node_ids=with_ids)
        assert memory_need.describe_need(distinct, word_bytes, 100, engine="flat").startswith(
            f"training needs about {memory_need.human(need)} "
        )
    assert results[0] == results[1] and len(results[0][1]) == 400 - 257
    # short words keep their ids whatever the memory free
    assert memory_need.flat_node_ids(1_000_000, 9_000_000, 30_000, available=1)
    assert not memory_need.flat_node_ids(1_000_000, 40_000_000, 30_000, available=10**8)
    assert memory_need.flat_node_ids(1_000_000, 40_000_000, 30_000, available=10**10)


def test_flat_train_bpe_reports_progress_and_stops_when_told(tmp_path):
    path = tmp_path / "c.txt"
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = ("".join(letters[(i * k) % 26] for k in (1, 7, 11, 13, 17)) for i in range(5000))
    path.write_text(" ".join(words), encoding="ascii")
    seen = []

    def progress(phase, done, total):
        seen.append((phase, done, total))
        return not (phase == "merge" and done >= 100)

    with pytest.raises(Cancelled):
        train_bpe(path, 1000, workers=1, engine="flat", progress=progress)
    assert ("merge", 100, 1000 - 256) in seen


def test_the_flat_loop_is_taken_where_its_memory_fits():
    gb = 10**9
    # English-like (8 bytes a word) and Chinese-like (40) corpora with memory to spare: the flat loop
    assert lean_engine(1_000_000, 8_000_000, 30_000, available=16 * gb) == "flat"
    assert lean_engine(1_000_000, 40_000_000, 2_000, available=16 * gb) == "flat"
    # memory short: the loop expected to need less. Short words, many merges: the flat one (the
    # trainer's pair lists grow with the merges); long words, few merges: the flat one too (no
    # pair id per node there: about 8 bytes a byte, as the trainer's strings and lists)
    assert flat_memory(1_000_000, 8_000_000, 30_000) < training_memory(1_000_000, 8_000_000, 30_000)
    assert lean_engine(1_000_000, 8_000_000, 30_000, available=gb // 4) == "flat"
    assert flat_memory(1_000_000, 40_000_000, 10) < training_memory(1_000_000, 40_000_000, 10)
    assert lean_engine(1_000_000, 40_000_000, 10, available=gb // 4) == "flat"
    # where the flat loop's estimate is the larger, the trainer's loop
    with mock.patch("core.training.memory_need.flat_memory", return_value=10 * gb):
        assert lean_engine(1_000_000, 40_000_000, 10, available=gb // 4) == "words"
        assert lean_engine(1_000_000, 40_000_000, 10, available=32 * gb) == "flat"


def test_the_command_line_trains_with_the_flat_loop_and_keeps_the_training_record(tmp_path, monkeypatch):
    from core.cli import main
    from core.formats import load_any
    from core.training import memory_need

    corpus = tmp_path / "c.txt"
    letters = "abcdefghij"
    corpus.write_text(
        " ".join("".join(letters[(i * k) % 10] for k in (1, 3, 7)) for i in range(3000)), encoding="ascii"
    )
    taken = []
    real = memory_need.lean_engine
    monkeypatch.setattr(memory_need, "lean_engine", lambda *a, **k: taken.append(real(*a, **k)) or taken[-1])
    assert main(["train", str(corpus), "--vocab-size", "320", "--out", str(tmp_path / "out"), "-q"]) == 0
    assert taken == ["flat"]
    spec = load_any(tmp_path / "out" / "bpe.json")
    trainer = Trainer.from_file(corpus, [], keep_history=False, workers=1)
    records = trainer.steps(64)
    assert list(spec.merges) == [r.pair for r in records]
    assert spec.training["counts"] == [r.count for r in records]
    assert spec.training["words_changed"] == [r.words_changed for r in records]
    assert spec.training["occurrences_changed"] == [r.occurrences_changed for r in records]


@pytest.mark.parametrize("path", PATHS)
def test_counts_near_the_limit_stay_exact(path):
    """Counts up to what the trainer accepts (pair sums below 2^62): exact int64 sums, no floats,
    on every path."""
    big = 2**57  # (above 2^53, where float sums lose units; total × longest word stays below 2^62)
    counts = {b"abab": big, b"ab": big - 1, b"ba": 3, b"bab": big // 3}
    with mock.patch.multiple(flat, **PATHS[path]):
        merger = _same_as_trainer(counts, "lexicographic", 4)
    # (a, b): twice in abab, once in ab and once in bab
    assert merger.records[0].count == 2 * big + (big - 1) + big // 3
    with pytest.raises(CorpusError):
        FlatMerger({b"ab": 2**62, b"abab": 2**62})


def test_more_tokens_than_the_flat_loop_numbers_take_the_trainer():
    # node numbers are int32: a node per byte of the distinct words and per separator
    assert lean_engine(10**8, 2**31 - 10**8 - 1, 30_000, available=10**15) == "words"
    assert lean_engine(10**8, 2**31 - 10**8 - 2, 30_000, available=10**15) == "flat"


def test_the_first_rule_orders_a_tie_once_not_at_every_merge():
    """300 pairs tied at one count: the "first" rule finds where each starts once, when the tie
    is found, and takes them in that order merge after merge (it looked them all up again at
    every merge: 78 s instead of 2.8 s for 20,000 merges of 5 MB of gcide)."""
    words = {bytes([65 + i % 20, 97 + i // 20]): 1 for i in range(300)}
    spy = mock.patch.object(FlatMerger, "_first_sites", autospec=True, side_effect=FlatMerger._first_sites)
    with spy as looked_up:
        merger = _same_as_trainer(words, "first", 250)
    assert len(merger.merges) == 250
    assert sum(call.args[1].size for call in looked_up.call_args_list) == 300


@settings(max_examples=80, deadline=None)
@given(WEIGHTED, st.sampled_from(["lexicographic", "first"]))
def test_pairs_kept_apart_from_the_order_of_ids_are_found_the_same(counts, tie_break):
    """Pairs made out of the order of ids are kept in a dict: with every pair but the byte pairs
    kept there (merges by NumPy calls, no place after any other), the merges are the trainer's."""
    apart = staticmethod(lambda keys: np.full(keys.size, -1, dtype=np.int64))
    with (
        mock.patch.object(FlatMerger, "_order", apart),
        mock.patch.multiple(flat, SMALL_SITES=-1, **NO_NODE_IDS),
    ):
        merger = _same_as_trainer(counts, tie_break, 40)
    assert len(merger._again) == merger._n - merger._nbyte


def test_a_pair_made_again_after_it_went_is_found_by_its_new_id():
    """Where a pair went (count 0) and a merge made it again (rare: two merges made one token),
    its key finds the new id, whether the old one was in the order of ids or kept apart; a byte
    pair's key finds its id by its bytes; a key no pair had finds none."""
    with mock.patch.multiple(flat, **NO_NODE_IDS):  # (long words: pairs found by key)
        merger = FlatMerger({b"abcd": 3, b"bdx": 1})
    ab = 97 << 32 | 98
    assert merger._find(np.array([ab])).tolist() == [merger._byte_list[97 << 8 | 98]]
    code = merger._code_for(b"ab")[0]
    in_order = merger._new_ids(np.array([120 << 32 | code, code << 32 | 99], dtype=np.int64))
    merger._set_counts(in_order, np.array([2, 2]))
    assert not merger._again
    for pid in in_order.tolist():
        key = int(merger._pkey[pid])
        assert merger._find(np.array([key])).tolist() == [pid]
        merger._count[pid] = 0  # the pair gone ...
        assert merger._find(np.array([key])).tolist() == [-1]
        again = merger._new_ids(np.array([key], dtype=np.int64))  # ... and made again: kept apart
        merger._set_counts(again, np.array([4]))
        assert merger._again == {key: int(again[0])}
        assert merger._find(np.array([key])).tolist() == again.tolist() == merger._find_list([key])
        merger._count[again] = 0  # gone again, and made a third time
        third = merger._new_ids(np.array([key], dtype=np.int64))
        merger._set_counts(third, np.array([1]))
        assert merger._find(np.array([key])).tolist() == third.tolist()
        merger._again.clear()
    assert merger._find(np.array([121 << 32 | 121, 121 << 32 | code])).tolist() == [-1, -1]


def _pairs_in_tokens(merger: FlatMerger) -> dict[int, list[int]]:
    """Each pair's key -> the nodes where it starts, found by walking the tokens."""
    T, lens = merger.T.tolist(), merger._lens
    out: dict[int, list[int]] = {}
    for s in merger._wstart.tolist():
        while T[s] != flat.SEP:
            nxt = s + lens[T[s]]
            if T[nxt] != flat.SEP:
                out.setdefault(T[s] << 32 | T[nxt], []).append(s)
            s = nxt
    return out


@settings(max_examples=60, deadline=None)
@given(
    WEIGHTED,
    st.sampled_from([-1, 10**9]),
    st.lists(st.sampled_from(["none", "plain", "stale"]), min_size=25, max_size=25),
    BY,
)
def test_every_pair_there_finds_exactly_where_it_starts(counts, small, compactions, by):
    """After every merge, and any compaction of the pool between merges (its chunks emptied of
    stale nodes, or the lists of pairs gone dropped): the pairs there are those the tokens hold;
    each finds from its lists exactly the nodes where it starts, whose words' counts sum to its
    count, and (without ids per node) its id by its key."""
    with mock.patch.multiple(flat, **_eager(small), BUILD_BLOCK_NODES=3, COMPACT_MIN=1, **by):
        merger = FlatMerger(counts)
        for how in compactions:
            if not merger.steps(1):
                break
            if how != "none":
                merger._compact_pool(stale=how == "stale")
            where = _pairs_in_tokens(merger)
            live = np.flatnonzero(merger._count[: merger._n] > 0).tolist()
            ids = {int(merger._pkey[p]): p for p in live}
            assert sorted(ids) == sorted(where)
            if merger.P is None:
                keys = np.array(list(ids), dtype=np.int64)
                assert merger._find(keys).tolist() == list(ids.values())
            for key, pid in ids.items():
                assert merger._sites(pid).tolist() == where[key]
                weights = merger._wcounts[merger._word_of(np.array(where[key]))]
                assert int(weights.sum()) == int(merger._count[pid])


def test_a_stale_compaction_reads_no_node_past_the_tokens_for_lists_of_pairs_gone():
    """Without pair ids per node, a compaction that drops stale nodes checks each listed node
    against its chunk's pair; a chunk whose pair is gone is dropped without reading past its nodes
    (the pair renumbered 0 after it, whose first token is long, once read past the last node)."""
    with mock.patch.multiple(
        flat, **NO_NODE_IDS, SMALL_SITES=3, **{k: v for k, v in _eager(3).items() if k != "SMALL_SITES"}
    ):
        merger = FlatMerger({b"aadcaa": 1}, "first")
        trainer = Trainer({b"aadcaa": 1}, [], pattern=None, tie_break="first", keep_history=False)
        for how in ["plain", "none", "ids", "stale"]:
            assert [r.pair for r in merger.steps(1)] == [r.pair for r in trainer.steps(1)]
            if how in ("plain", "stale"):
                merger._compact_pool(stale=how == "stale")
            if how == "ids":
                merger._next_check = 0  # (the ids renumbered before the next merge)
    assert merger.words() == [toks for _w, toks, _c in trainer.words()]
