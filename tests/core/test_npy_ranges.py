"""encode_file_to_npy with worker processes that read their own byte ranges and write their own ids
(core.tokenization.npy_ranges): the .npy equals the single-process encoder's byte for byte (special
tokens, also back to back, invalid UTF-8, CRLF, ranges cut inside characters and special tokens);
this process reads no block of the file; cancel and errors leave no output, no temporary folder
and no process behind."""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path

import numpy as np
import pytest

import core.tokenization.npy as npy
from core import Cancelled, Tokenizer
from core.tokenization.npy_ranges import encode_cuts
from core.workers.procs import live_children

from .tok_corpus import EOT, WORDS, trained_tokenizer


def corpus(seed: int, n: int = 12000) -> bytes:
    rng = random.Random(seed)
    out: list[bytes] = []
    for _ in range(n):
        r = rng.random()
        if r < 0.04:
            out.append(rng.choice([b"\r\n", b"\n", b"\n\n", b"\r\n\r\n", b" \n "]))
        elif r < 0.06:
            out.append(rng.choice([EOT, EOT + EOT, " " + EOT, EOT + " "]).encode())
        elif r < 0.07:
            out.append(rng.choice([b"\xff", b"\xc3", b"\xe6\x97", b"\x80\x80", b"\xf0\x9f"]))
        elif r < 0.09:
            out.append(b"   ")
        else:
            out.append((rng.choice([" ", "", ", ", ". "]) + rng.choice(WORDS)).encode())
    return b"".join(out)


def one_process(tok: Tokenizer, src: Path, out: Path) -> bytes:
    npy.encode_file_to_npy(tok, src, out, workers=1)
    return out.read_bytes()


def no_parent_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(npy, "SINGLE_PROCESS_BYTES", 0)
    fail = lambda *a, **k: pytest.fail("the parent cut or piped blocks of a regular file")  # noqa: E731
    monkeypatch.setattr(npy, "iter_blocks", fail)
    monkeypatch.setattr(npy, "ordered_map", fail)


@pytest.mark.parametrize(
    ("pattern", "seed", "workers", "block"),
    [
        ("gpt2", 0, 2, 3001),  # odd sizes: nominal ends fall inside characters and special tokens
        ("gpt4", 1, 3, 2048),
        (r"\p{L}+|\p{N}+|[^\p{L}\p{N}]+", 2, 2, 4096),  # a custom pattern (cuts proven by RegexCuts)
        (None, 3, 2, 4096),  # no pre-tokenization: cut only at special tokens
    ],
)
def test_workers_write_the_ids_of_one_process(tmp_path, monkeypatch, pattern, seed, workers, block):
    tok = trained_tokenizer(pattern=pattern, invalid_bytes=True)
    assert encode_cuts(tok) is not None
    src = tmp_path / "c.txt"
    raw = corpus(seed)
    src.write_bytes(raw)
    expect = one_process(tok, src, tmp_path / "one.npy")
    no_parent_reading(monkeypatch)
    seen: list[int] = []
    r = npy.encode_file_to_npy(
        tok,
        src,
        tmp_path / "many.npy",
        workers=workers,
        block_bytes=block,
        progress=lambda phase, done, total: seen.append(done),
    )
    assert (tmp_path / "many.npy").read_bytes() == expect
    assert r.workers == workers and r.n_bytes == len(raw) and r.n_tokens == len(np.load(tmp_path / "one.npy"))
    assert len(seen) > 4 and seen == sorted(seen) and seen[-1] == len(raw)
    assert tok.decode_bytes(np.load(tmp_path / "many.npy")) == raw
    assert live_children() == []
    assert sorted(os.listdir(tmp_path)) == ["c.txt", "many.npy", "one.npy"]  # (no temporary piece left)


def test_a_file_without_any_cut_is_one_range(tmp_path, monkeypatch):
    tok = trained_tokenizer()
    src = tmp_path / "c.txt"
    src.write_bytes(b"x" * 50000)  # one word: no valid cut anywhere
    expect = one_process(tok, src, tmp_path / "one.npy")
    no_parent_reading(monkeypatch)
    npy.encode_file_to_npy(tok, src, tmp_path / "many.npy", workers=2, block_bytes=4096)
    assert (tmp_path / "many.npy").read_bytes() == expect


def test_cancel_leaves_no_output_no_pieces_no_processes(tmp_path, monkeypatch):
    tok = trained_tokenizer()
    src = tmp_path / "c.txt"
    src.write_bytes(corpus(4, 30000))
    no_parent_reading(monkeypatch)
    calls: list[int] = []

    def progress(phase, done, total):
        calls.append(done)
        return done == 0  # stop once the first range is done

    with pytest.raises(Cancelled):
        npy.encode_file_to_npy(tok, src, tmp_path / "ids.npy", workers=2, block_bytes=2048, progress=progress)
    assert 0 < calls[-1] < src.stat().st_size
    assert live_children() == []
    assert os.listdir(tmp_path) == ["c.txt"]


class BrokenInWorkers(Tokenizer):
    """A tokenizer that cannot be made again in a worker process (its error must come back here)."""

    @classmethod
    def from_spec(cls, spec, *a, **k):
        raise ValueError("this tokenizer cannot be rebuilt (from the test)")


def test_a_workers_error_is_raised_here_and_nothing_is_left(tmp_path, monkeypatch):
    spec = trained_tokenizer().to_spec()
    tok = BrokenInWorkers(spec.vocab, spec.merges, [EOT])
    src = tmp_path / "c.txt"
    src.write_bytes(corpus(7))
    no_parent_reading(monkeypatch)
    with pytest.raises(ValueError, match="cannot be rebuilt"):
        npy.encode_file_to_npy(tok, src, tmp_path / "ids.npy", workers=2, block_bytes=4096)
    assert live_children() == []
    assert os.listdir(tmp_path) == ["c.txt"]


def test_a_stream_is_still_read_here(tmp_path, monkeypatch):
    import threading

    tok = trained_tokenizer()
    raw = corpus(5)
    (tmp_path / "c.txt").write_bytes(raw)
    expect = one_process(tok, tmp_path / "c.txt", tmp_path / "one.npy")
    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "wb") as f:
            f.write(raw)

    writer = threading.Thread(target=feed)
    writer.start()
    try:
        npy.encode_file_to_npy(tok, fifo, tmp_path / "many.npy", workers=2, block_bytes=4096)
    finally:
        writer.join()
    assert (tmp_path / "many.npy").read_bytes() == expect


def test_no_room_for_the_pieces_is_a_clear_error(tmp_path, monkeypatch):
    from core.errors import BPEError

    tok = trained_tokenizer()
    src = tmp_path / "c.txt"
    src.write_bytes(corpus(6))
    no_parent_reading(monkeypatch)

    def refuse(*a, **k):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkdtemp", refuse)
    with pytest.raises(BPEError, match=r"temporary folder .*--workers 1"):
        npy.encode_file_to_npy(tok, src, tmp_path / "ids.npy", workers=2, block_bytes=4096)
    assert os.listdir(tmp_path) == ["c.txt"]
