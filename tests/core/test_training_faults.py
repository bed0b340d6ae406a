"""../shared/FAULTS.md items 1–12 (corpus and training), plus: core never imports Qt, never prints."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import tracemalloc

import pytest

from core import BPEError, Cancelled, CorpusError, SpecialTokenError, Trainer, train_bpe
from core.pretokenization.pretokenize import count_pretokens
from core.workers.procs import live_children

from .trainer_state import canonical_state


def write(tmp_path, data: bytes, name="corpus.txt"):
    p = tmp_path / name
    p.write_bytes(data)
    return p


# 1
def test_empty_corpus_gives_bytes_and_specials_only(tmp_path):
    vocab, merges = train_bpe(write(tmp_path, b""), 1000, ["<|endoftext|>"])
    assert merges == [] and len(vocab) == 257 and vocab[256] == b"<|endoftext|>"
    t = Trainer.from_file(write(tmp_path, b""), [])
    assert t.step() is None and t.run(300) == [] and t.vocab_size == 256


# 2
def test_invalid_utf8_is_trained_byte_exactly(tmp_path):
    data = b"A dictionary entry: caf\xe9 caf\xe9 \xe9\xe9\xe9\xe9 na\xefve \xff\xfe\xfd in Latin-1.\n" * 20
    path = write(tmp_path, data)
    t = Trainer.from_file(path)
    assert t.stats.invalid_bytes == data.count(b"\xe9") + data.count(b"\xef") + 60
    t.run(300)
    tokens = set(t.vocab.values())
    assert b"\xe9\xe9" in tokens and b"\xff\xfe" in tokens
    # every pre-token is rebuilt exactly from its bytes
    assert sum(len(w) * c for w, _, c in t.words()) == len(data)


# 3
def test_crlf_is_kept(tmp_path):
    path = write(tmp_path, b"one line\r\ntwo line\r\n" * 30)
    counts, _ = count_pretokens(path)  # GPT-2 splits "\r" and "\n" before a word
    assert counts[b"\r"] == counts[b"\n"] == 59 and counts[b"\r\n"] == 1
    counts, _ = count_pretokens(path, pattern="gpt4")  # GPT-4 keeps "\r\n" together
    assert counts[b"\r\n"] == 60 and b"\n" not in counts
    _vocab, merges = train_bpe(path, 262, pattern="gpt4")
    assert (b"\r", b"\n") in merges


# 4
def test_bom_is_kept_and_reported(tmp_path):
    path = write(tmp_path, b"\xef\xbb\xbfhello world hello")
    counts, stats = count_pretokens(path)
    assert stats.has_bom and any("byte-order mark" in n for n in stats.notes)
    assert counts[b"\xef\xbb\xbf"] == 1
    assert sum(len(k) * v for k, v in counts.items()) == path.stat().st_size


# 5
@pytest.mark.parametrize(
    "encoding, expected",
    [("utf-16", "UTF-16-LE"), ("utf-16-be", "UTF-16-BE"), ("utf-16-le", "UTF-16-LE"), ("utf-32", "UTF-32")],
)
def test_utf16_is_rejected_with_encoding_name(tmp_path, encoding, expected):
    path = write(tmp_path, ("Some English text, long enough to sniff. " * 20).encode(encoding))
    with pytest.raises(CorpusError, match=expected):
        train_bpe(path, 300)


def test_binary_file_is_rejected(tmp_path):
    path = write(tmp_path, bytes(range(256)) * 50)
    with pytest.raises(CorpusError, match="binary"):
        train_bpe(path, 300)


def test_missing_corpus_names_the_file(tmp_path):
    with pytest.raises(CorpusError, match="does not exist"):
        train_bpe(tmp_path / "nope.txt", 300)


# 6
def test_vocab_too_small_fails_before_any_work(tmp_path):
    # the file does not exist: the vocab error must come first, proving nothing was read
    with pytest.raises(BPEError, match="smaller than 256 bytes \\+ 2 special"):
        train_bpe(tmp_path / "missing.txt", 257, ["<|a|>", "<|b|>"])
    # (the API's caller reads the message as it is: no "1 special token(s)")
    with pytest.raises(BPEError, match="smaller than 256 bytes \\+ 1 special token = 257;"):
        train_bpe(tmp_path / "missing.txt", 100, ["<|endoftext|>"])


# 7
def test_vocab_larger_than_corpus_can_produce(tmp_path):
    vocab, merges = train_bpe(write(tmp_path, b"abc abc"), 100_000)
    # "abc" and " abc": (a,b),(b,c),(' ',a) ... until no pair is left
    assert 0 < len(merges) < 10 and len(vocab) == 256 + len(merges)
    t = Trainer.from_text("abc abc")
    t.run(100_000)
    assert t.next_pair() is None and t.vocab_size == len(vocab)


# 8
@pytest.mark.parametrize(
    "bad, message",
    [([""], "empty string"), (["<|a|>", "<|a|>"], "listed twice"), ("<|a|>", "list of strings")],
)
def test_bad_special_token_lists(tmp_path, bad, message):
    with pytest.raises(SpecialTokenError, match=message):
        train_bpe(write(tmp_path, b"text"), 300, bad)


def test_prefix_and_metachar_special_tokens(tmp_path):
    text = b"x<|a|><|a|>y<|a|>z a.b axb [x] x"
    counts, stats = count_pretokens(write(tmp_path, text), ["<|a|>", "<|a|><|a|>", "a.b", "[x]"])
    assert stats.special_occurrences == 4  # longest first: one double, one single, a.b, [x]
    assert b" axb" in counts  # "." is literal
    assert not any(b"<|" in k or b"[x]" in k for k in counts)


# 9
def test_special_tokens_in_corpus_are_never_merged(tmp_path):
    path = write(tmp_path, b"hello<|endoftext|>hello<|endoftext|>world<|endoftext|>" * 50)
    _vocab, merges = train_bpe(path, 400, ["<|endoftext|>"])
    learned = [a + b for a, b in merges]
    assert all(b"<|" not in t and b"|>" not in t and b"endoftext" not in t for t in learned)
    assert b"ohello" not in learned and (b"o", b"w") not in merges  # nothing across a boundary


# 10
@pytest.mark.timeout(120)
def test_enormous_pretokens_do_not_blow_up(tmp_path):
    path = write(tmp_path, b"x" * 2_000_000 + b"\n" + b" " * 1_000_000 + b"end")
    t = Trainer.from_file(path, keep_history=False)
    records = t.run(256 + 12)

    # three pre-tokens: 2,000,000 x's, "\n" + 999,999 spaces, " end". In a run of L equal
    # symbols the k-th merge of it joins blocks of 2**k into blocks of 2**(k+1), L // 2**k - 1 times;
    # the two runs take turns by count.
    def doublings(symbol: bytes, length: int, n: int) -> list[tuple[bytes, int]]:
        return [(symbol * 2 ** (k + 1), length // 2**k - 1) for k in range(n)]

    expected = sorted(doublings(b"x", 2_000_000, 7) + doublings(b" ", 999_999, 5), key=lambda tc: -tc[1])
    assert [(r.token, r.count) for r in records] == expected


# 11
def test_streaming_memory_is_bounded_by_blocks_not_file(tmp_path):
    line = b"The same few words again and again, 12 times.\n"
    path = write(tmp_path, line * 100_000)  # ~4.6 MB
    count_pretokens(b"warm up caches and compiled patterns", workers=1)
    tracemalloc.start()
    counts, stats = count_pretokens(path, workers=1, block_bytes=32 << 10)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert stats.chunks > 30
    assert counts[b" again"] == 200_000
    assert peak < path.stat().st_size / 4


# 12
def test_cancel_during_pretokenization_stops_workers(tmp_path):
    path = write(tmp_path, b"some words to count, over and over.\n" * 400_000)  # ~14 MB
    calls: list[tuple[str, int, int]] = []

    def progress(phase, done, total):
        calls.append((phase, done, total))
        return len(calls) < 3

    with pytest.raises(Cancelled):
        count_pretokens(path, workers=2, progress=progress, block_bytes=1 << 20)
    assert len(calls) == 3  # nothing more was reported once progress said stop
    phase, done, total = calls[-1]
    assert phase == "pretokenize" and total == path.stat().st_size
    assert done < total  # stopped with most of the file still unread
    assert live_children() == []  # and its worker processes are gone


def test_cancel_during_merging_leaves_consistent_state():
    text = " ".join(f"w{i % 97}x{i % 13}" for i in range(3000))
    t = Trainer.from_text(text)
    with pytest.raises(Cancelled) as info:
        t.run(600, progress=lambda phase, done, total: done < 10)
    assert len(info.value.records) == 10 == len(t.merges)
    fresh = Trainer.from_text(text)
    fresh.steps(10)
    assert canonical_state(fresh) == canonical_state(t)
    assert t.step() is not None  # still usable


def test_cancel_from_another_thread_via_event():
    text = " ".join(f"w{i % 997}y{i % 31}" for i in range(20000))
    t = Trainer.from_text(text)
    started, stop = threading.Event(), threading.Event()

    def progress(_phase, done, _total) -> bool:
        if done == 10:
            started.set()
        if done >= 10:
            stop.wait(0.01)  # slow the run down from here on, so the other thread's stop arrives first
        return not stop.is_set()

    other = threading.Thread(target=lambda: started.wait(10) and stop.set())
    other.start()
    with pytest.raises(Cancelled) as info:
        t.run(5000, progress=progress)
    other.join()
    assert 10 <= t.n_merges < 900  # the run (988 merges to its end) stopped on the event
    assert t.merges == [r.pair for r in t.records] == [r.pair for r in info.value.records]


def test_bad_pattern_and_tie_break(tmp_path):
    p = write(tmp_path, b"abc")
    with pytest.raises(BPEError, match="invalid pre-tokenizer regex"):
        train_bpe(p, 300, pattern="(unclosed")
    with pytest.raises(BPEError, match="tie_break"):
        train_bpe(p, 300, tie_break="random")


def test_core_never_imports_qt():
    code = (
        "import sys, core, core.training.trainer, core.pretokenization.pretokenize, core.cli; from core import Tokenizer; "
        "bad = [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6', 'pyqtgraph'))]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_core_never_prints(tmp_path, capfd):
    path = write(tmp_path, b"quiet please, quiet please<|endoftext|>" * 100)
    train_bpe(path, 300, ["<|endoftext|>"], progress=lambda *a: None)
    t = Trainer.from_file(path, ["<|endoftext|>"])
    t.steps(5)
    t.undo()
    out, err = capfd.readouterr()
    assert out == "" and err == ""


@pytest.mark.skipif(
    not hasattr(os, "nice"), reason="os.nice is POSIX-only (lower_priority does nothing on Windows)"
)
def test_worker_processes_can_run_at_lower_priority():
    from core.workers.parallel import lower_priority, ordered_map

    base = os.nice(0)
    got = list(ordered_map(os.nice, [0, 0, 0], workers=2, initializer=lower_priority, initargs=(7,)))
    assert got == [min(base + 7, 19)] * 3
    assert os.nice(0) == base  # the calling process keeps its priority


def test_one_ordinary_block_is_counted_without_starting_processes(tmp_path):
    path = tmp_path / "small.txt"
    path.write_bytes(b"hello world\nthe cat sat\n" * 2000)
    counts, stats = count_pretokens(path, [], "gpt2", workers=2)
    assert stats.workers == 1 and stats.chunks == 1
    many, stats2 = count_pretokens(path, [], "gpt2", workers=2, block_bytes=4096)
    assert stats2.workers == 2 and stats2.chunks > 1 and many == counts
    # one block larger than the block size (one long word: nowhere to cut) still goes to a worker,
    # where a cancel is seen while it is counted
    line = tmp_path / "line.txt"
    line.write_bytes(b"word" * 5000)
    _, stats3 = count_pretokens(line, [], "gpt2", workers=2, block_bytes=4096)
    assert stats3.workers == 2 and stats3.chunks == 1


def test_npy_encoding_of_one_big_block_in_workers(tmp_path, monkeypatch):
    """A file that is one block (no place to cut) is encoded by a worker process that has the tokenizer."""
    import numpy as np

    import core.tokenization.npy
    from core import Tokenizer, Trainer
    from core.tokenization.npy import encode_file_to_npy

    monkeypatch.setattr(
        core.tokenization.npy, "SINGLE_PROCESS_BYTES", 1000
    )  # processes from 1 KB (not 4 MiB) up

    src = tmp_path / "one_line.txt"
    src.write_bytes(b"abc abd " * 3000)
    trained = Trainer.from_text("abc abd abc")
    trained.steps(3)
    tok = Tokenizer(trained.vocab, trained.merges, pattern="none")
    out = tmp_path / "ids.npy"
    encode_file_to_npy(tok, src, out, workers=2, block_bytes=4096)
    assert np.load(out).tolist() == tok.encode(src.read_text())
