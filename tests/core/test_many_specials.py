"""Thousands of special tokens (nested in one another too) are found as a flat longest-first
alternation finds them, on every counting path; one scan per block (it tested each token: O(tokens x bytes))."""

from __future__ import annotations

import random
from collections import Counter

import pytest
import regex

import core.pretokenization.pretokenize as pretokenize_mod
import core.pretokenization.scan as scan_mod
from core.pretokenization.pretokenize import count_pretokens, count_texts
from core.pretokenization.special_matching import special_bytes_regex, special_text_regex
from core.scale.counts import count_files

SPECIALS = [f"<|s{i}|>" for i in range(3000)] + ["<|s1|><|s1|>", "<|é|>", "<|", "|>|>"]


def _text(seed=0):
    rng = random.Random(seed)
    words = [
        "hello",
        "world",
        " ",
        "<|s1|>",
        "<|s1|><|s1|>",
        "<|s2999|>",
        "<|é|>",
        "<|",
        "|>|>",
        "café",
        "\n",
    ]
    return "".join(rng.choice(words) for _ in range(20_000))


def _reference(text):
    flat = regex.compile("|".join(regex.escape(t) for t in sorted(SPECIALS, key=len, reverse=True)))
    pieces = flat.split(text)
    counts, _ = count_texts(pieces, [], "gpt2")
    return Counter({k.decode(): v for k, v in counts.items() if v}), len(pieces) - 1


def test_the_trie_regexes_match_as_the_flat_alternation():
    text = _text(1)
    flat = regex.compile("|".join(regex.escape(t) for t in sorted(SPECIALS, key=len, reverse=True)))
    want = [(m.start(), m.group()) for m in flat.finditer(text)]
    assert [(m.start(), m.group()) for m in special_text_regex(tuple(SPECIALS)).finditer(text)] == want
    data = text.encode()
    got = [m.group().decode() for m in special_bytes_regex(tuple(SPECIALS)).finditer(data)]
    assert got == [g for _, g in want]


@pytest.mark.parametrize("by_chunks", [False, True])
def test_counting_with_thousands_of_specials(tmp_path, monkeypatch, by_chunks):
    monkeypatch.setattr(pretokenize_mod, "COUNT_BY_CHUNKS", by_chunks)
    monkeypatch.setattr(scan_mod, "COUNT_BY_CHUNKS", by_chunks)
    text = _text(2)
    path = tmp_path / "c.txt"
    path.write_text(text, encoding="utf-8")
    want, n_special = _reference(text)
    counts, stats = count_pretokens(path, SPECIALS, "gpt2", workers=1, block_bytes=8192)
    assert Counter({k.decode(): v for k, v in counts.items()}) == want
    assert stats.special_occurrences == n_special
    files = count_files([path], SPECIALS, "gpt2", workers=1, block_bytes=8192)
    assert Counter({k.decode(): v for k, v in zip(files.tokens, files.counts)}) == want
