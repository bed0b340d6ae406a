"""The memory training will need, said by `train` once counting has found the distinct pre-tokens."""

from __future__ import annotations

import re

import core.training.memory_need as memory_need
from core.cli import main
from core.pretokenization.pretokenize import count_pretokens
from core.training.memory_need import describe_need, too_much, training_memory

TEXT = "the cat sat on the mat; 12 cats, 13 mats.<|endoftext|>" * 200


def train(tmp_path, *extra):
    corpus = tmp_path / "c.txt"
    corpus.write_text(TEXT, encoding="utf-8")
    args = ["train", str(corpus), "--vocab-size", "270", "--special-token", "<|endoftext|>"]
    return main([*args, "--out", str(tmp_path / "tok"), *extra]), corpus


def test_train_says_how_much_memory_it_will_need(tmp_path, capsys):
    rc, corpus = train(tmp_path)
    assert rc == 0
    counts, _ = count_pretokens(corpus, ["<|endoftext|>"])
    line = describe_need(len(counts), sum(map(len, counts)), 270 - 257)  # (13 merges to vocab 270)
    assert line in capsys.readouterr().err
    assert re.match(r"training needs about \d+ MB of memory \(\d+ distinct pre-tokens", line)


def test_quiet_train_says_it_only_when_the_machine_has_too_little(tmp_path, capsys, monkeypatch):
    rc, _ = train(tmp_path, "-q")
    assert rc == 0 and "memory" not in capsys.readouterr().err
    monkeypatch.setattr(memory_need, "physical_memory", lambda: 1 << 20)  # a machine with 1 MB
    rc, _ = train(tmp_path, "-q")
    err = capsys.readouterr().err
    assert rc == 0 and "warning: training needs about" in err and "more than this machine has (1 MB)" in err


def test_the_estimate_grows_with_distinct_tokens_their_bytes_and_the_merges():
    assert training_memory(2_000_000, 20_000_000) > training_memory(1_000_000, 20_000_000)
    assert training_memory(1_000_000, 40_000_000) > training_memory(1_000_000, 20_000_000)
    assert training_memory(1_000_000, 20_000_000, 10_000) > training_memory(1_000_000, 20_000_000, 2_000)
    assert training_memory(1_000_000, 20_000_000, 2_000, history=True) > training_memory(
        1_000_000, 20_000_000, 2_000
    )
    # 15 MB of Chinese-like text (358k distinct, 14 MB) peaked 312 MB above the interpreter's ~45
    # at 2,000 merges, 483 MB at 9,743 (RESULTS.md, stop 26): a little above that
    assert 357 << 20 < training_memory(357_551, 14_023_876, 2_000) < 450 << 20
    assert 528 << 20 < training_memory(357_551, 14_023_876, 9_743) < 650 << 20
    assert too_much(357_551, 14_023_876, 2_000, available=16 << 30) is None
    warning = too_much(357_551, 14_023_876, 2_000, available=256_000_000)
    assert warning is not None and "more than this machine has (256 MB)" in warning  # (decimal MB)


def test_the_warning_names_the_need_of_the_loop_that_runs():
    """The command line warns with the estimate of the merge loop it chose: the flat loop's, which
    differs from the trainer's, is the one in the warning when the flat loop runs."""
    from core.training.memory_need import flat_memory, human

    args = (357_551, 14_023_876, 2_000)
    flat, words = flat_memory(*args), training_memory(*args)
    assert human(flat) != human(words)
    for engine, need in (("flat", flat), ("words", words)):
        warning = too_much(*args, available=100_000_000, engine=engine)
        assert warning is not None and f"training needs about {human(need)} of memory" in warning


def test_the_flat_estimate_is_a_little_above_the_measured_peaks():
    """Peaks of the flat merge loop measured at stop 32 (bench_train_memory.py --engine flat, MiB
    above the interpreter's; the Chinese text's words long, without a pair id per node): the
    estimate is above each, and within a third of the large ones."""
    from core.training.memory_need import flat_memory

    measured = {  # (distinct, bytes of them, merges): peak MiB
        (357_551, 14_023_876, 2_000): 204,  # 15 MB of Chinese
        (3_462_004, 138_579_052, 2_000): 1280,  # 150 MB of Chinese-like text
        (1_426_821, 15_008_354, 31_743): 359,  # 0.2 GB of varied text
        (331_328, 2_821_290, 9_743): 81,  # gcide
    }
    for args, peak in measured.items():
        estimate = flat_memory(*args) / 2**20
        assert peak < estimate
        if args[1] > 10**7:
            assert estimate < 1.33 * peak


def test_the_flat_estimate_counts_pair_ids_per_node_where_words_are_short():
    """The flat loop keeps a pair id per node where the words hold at most 16 bytes on average,
    and the estimate counts them exactly there."""
    from core.training import flat
    from core.training.memory_need import FLAT_NODE_IDS, FLAT_NODE_IDS_MAX_BYTES, flat_memory

    assert FLAT_NODE_IDS_MAX_BYTES == flat.NODE_IDS_MAX_BYTES
    assert flat.FlatMerger({b"x" * 16: 1, b"y" * 14: 1, b"z" * 18: 1}).P is not None
    assert flat.FlatMerger({b"x" * 16: 1, b"y" * 14: 1, b"z" * 19: 1}).P is None
    words = 1_000_000
    short, long = 16 * words, 16 * words + 1
    with_ids, without = flat_memory(words, short, 1000), flat_memory(words, long, 1000)
    assert with_ids - without > FLAT_NODE_IDS * short - 10**6


def test_the_flat_estimate_counts_wider_tokens_past_int16_codes():
    from core.training import flat
    from core.training.memory_need import FLAT_SHORT_CODES, FLAT_WIDE_TOKENS, flat_memory

    assert FLAT_SHORT_CODES == flat.SHORT_CODES
    below, past = FLAT_SHORT_CODES - 256, FLAT_SHORT_CODES - 255  # (merges: codes 256 + merges)
    wider = flat_memory(1_000_000, 10_000_000, past) - flat_memory(1_000_000, 10_000_000, below)
    assert wider >= FLAT_WIDE_TOKENS * 10_000_000


def test_freed_heap_memory_is_given_back_where_glibc_can(monkeypatch):
    """After a trainer empties the counts it was built from, glibc's free pages go back to the
    system (Linux with glibc: True); elsewhere nothing is called and it says so."""
    import platform

    from core import memory

    if platform.system() == "Linux" and platform.libc_ver()[0] == "glibc":
        assert memory.release_free_memory() is True
    monkeypatch.setattr(memory.sys, "platform", "darwin")
    assert memory.release_free_memory() is False
