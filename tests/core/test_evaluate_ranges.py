"""evaluate() with worker processes that read their own byte ranges of each file and send back the
counts of a range, not its ids (core.tokenization.range_workers): every figure equals one process's
(documents split across ranges, special tokens, invalid UTF-8, CRLF, several tokenizers, text in
memory beside files); this process reads no block of a file; cancel ends the workers."""

from __future__ import annotations

import dataclasses
import threading

import numpy as np
import pytest

import core.evaluation.evaluate as ev
from core import Cancelled
from core.evaluation.evaluate import EvalText, evaluate
from core.workers.procs import live_children

from .test_npy_ranges import corpus
from .tok_corpus import EOT, trained_tokenizer

TIMING = {"mb_per_s", "mb_per_s_one_process", "pile_hours", "pile_hours_one_process", "workers", "seconds"}


def figures(r) -> dict:
    d = {f.name: getattr(r, f.name) for f in dataclasses.fields(r) if f.name not in TIMING}
    d["counts"] = r.counts.tolist()
    return d


@pytest.mark.parametrize(("workers", "block"), [(2, 3001), (3, 2048)])
def test_workers_give_every_figure_of_one_process(tmp_path, monkeypatch, workers, block):
    toks = [
        ("gpt2", trained_tokenizer(invalid_bytes=True)),  # <|endoftext|> is its special token: documents
        ("gpt4, no specials", trained_tokenizer(pattern="gpt4", specials=())),  # the split token is text
    ]
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_bytes(corpus(11, 15000))
    b.write_bytes(corpus(12, 6000) + b"\r\n" + EOT.encode() * 3 + b"tail")
    texts = [EvalText.from_file(a), EvalText.from_bytes("memory", corpus(13, 4000)), EvalText.from_file(b)]
    one = evaluate(toks, texts, workers=1, block_bytes=block)
    memory_blocks = ev._blocks

    def only_memory(text, tok, block_bytes):  # the parent cuts text in memory, never a file
        assert text.path is None, "the parent read a file's blocks"
        return memory_blocks(text, tok, block_bytes)

    monkeypatch.setattr(ev, "_blocks", only_memory)
    many = evaluate(toks, texts, workers=workers, block_bytes=block, single_process_bytes=0)
    assert [figures(r) for r in many] == [figures(r) for r in one]
    assert {r.workers for r in many} == {workers}
    assert many[0].documents > 10 and len(many[0].doc_tokens) == many[0].documents
    assert int(np.sum(many[0].counts)) == many[0].tokens
    assert live_children() == []


def test_cancel_ends_the_workers(tmp_path):
    f = tmp_path / "a.txt"
    f.write_bytes(corpus(14, 30000))
    seen: list[int] = []

    def progress(phase, done, total):
        seen.append(done)
        return done == 0

    with pytest.raises(Cancelled):
        evaluate([("t", trained_tokenizer())], [EvalText.from_file(f)], workers=2, block_bytes=2048,
                 single_process_bytes=0, progress=progress)  # fmt: skip
    assert 0 < seen[-1] < f.stat().st_size
    assert live_children() == []


def test_large_blocks_and_large_results_do_not_deadlock():
    # text in memory (as --sample-docs makes) is cut here and sent to the workers in blocks of
    # megabytes, and a block of many short documents gives a large result (one count per
    # document): the parent used to send a second block to a busy worker while that worker was
    # sending its result back, both pipes filled, and `bpe-explorer eval --sample-docs` hung for ever
    n = 9_000_000 // len("a" + EOT)
    text = EvalText.from_bytes("many short documents", ("a" + EOT).encode() * n)
    box: list = []

    def run() -> None:
        box.append(evaluate([("t", trained_tokenizer())], [text], workers=2, block_bytes=2_000_000,
                            single_process_bytes=0))  # fmt: skip

    th = threading.Thread(target=run, daemon=True)
    th.start()
    th.join(120)  # (a guard against hanging the suite, not a timing check: it takes seconds)
    hung = th.is_alive()
    if hung:
        for child in live_children():
            child.kill()
        th.join(30)
    assert not hung, "evaluate() hung: the parent and a worker both waited to send"
    (r,) = box[0]
    assert (r.documents, r.tokens, r.bytes) == (n, 2 * n, text.size)
    assert live_children() == []
