"""Encoding a file in blocks through an imported HF pipeline gives HF's ids for the whole text.

The blocks are cut where the pattern restarts; a normalizer may join a combining mark (or a Hangul
vowel) to the character before the cut, a prefix space is added to every piece, and added tokens
strip whitespace or look at their neighbours: each case is checked against HF ``tokenizers`` on the
whole text, with blocks small enough to put cuts everywhere.
"""
from __future__ import annotations

import io
import unicodedata
from pathlib import Path

import numpy as np
import pytest
from tokenizers import AddedToken, Regex, normalizers, pre_tokenizers

from core.blocks import iter_blocks, tokenizer_rule
from core.npy import encode_file_to_npy
from core.pretokenize import block_rule

from .test_hf_pipeline import configured, ours_of, trained

PIECES = [
    "Cafe\u0301 re\u0301sume\u0301 na\u0131ve", unicodedata.normalize("NFD", "Ünïcödé ÀÉÎÕÜ ếộ"),
    "\u1100\u1161\u11a8 \u1100\u1161 \u3131\u314f \uff76\uff9e", "ΟΔΟΣ ΣΑΣ", "line\nnext\r\n  x", "abc 12 345",
    "<mask>", " <mask>", "  <mask> ", "x<mask>y", "<|endoftext|>", "\t", "é\u0301", "A\u030a\u0323",
]


def corpus(n: int = 400) -> str:
    rng = np.random.default_rng(5)
    return "".join(PIECES[i] for i in rng.integers(0, len(PIECES), n))


@pytest.fixture(scope="module")
def base():
    return trained()


CASES = {
    "none": {},
    "nfc": {"normalizer": normalizers.NFC()},
    "nfkc": {"normalizer": normalizers.NFKC()},
    "nfkd_lowercase": {"normalizer": normalizers.Sequence([normalizers.NFKD(), normalizers.Lowercase()])},
    "replace": {"normalizer": normalizers.Replace(Regex(r"e\s"), "E")},
    "prefix_space": {"pre_tokenizer": pre_tokenizers.ByteLevel(add_prefix_space=True)},
}
TOKENS = {
    "lstrip": AddedToken("<mask>", lstrip=True, normalized=False),
    "rstrip": AddedToken("<mask>", rstrip=True, normalized=False),
    "single_word": AddedToken("<mask>", single_word=True, normalized=False),
    "plain": AddedToken("<mask>", normalized=False),
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("token", sorted(TOKENS))
def test_npy_in_blocks_equals_hf_whole(base, tmp_path: Path, case: str, token: str) -> None:
    hf = configured(base, **CASES[case])
    hf.add_special_tokens([TOKENS[token], "<|endoftext|>"])
    ours = ours_of(hf, tmp_path)
    text = corpus()
    (tmp_path / "c.txt").write_text(text, encoding="utf-8", newline="")
    want = hf.encode(text, add_special_tokens=False).ids
    assert ours.encode(text, add_special_tokens=False) == want
    for block_bytes in (16, 61, 256):
        encode_file_to_npy(ours, tmp_path / "c.txt", tmp_path / "o.npy", workers=1, block_bytes=block_bytes)
        assert np.load(tmp_path / "o.npy").tolist() == want, block_bytes


def test_normalized_cuts_avoid_joining_characters(base, tmp_path: Path) -> None:
    """With NFC the GPT-2 cuts still happen (blocks stay small), but never before a combining mark."""
    hf = configured(base, normalizer=normalizers.NFC())
    ours = ours_of(hf, tmp_path)
    rule = tokenizer_rule(ours, block_rule(ours.pattern_regex))
    text = ("abc de\u0301 " * 200).encode()
    blocks = list(iter_blocks(io.BytesIO(text), [], rule, 64))
    assert len(blocks) > 20
    assert b"".join(blocks) == text
    assert not any(b.startswith("\u0301".encode()) for b in blocks)


def test_lstrip_cut_goes_before_the_whitespace(base, tmp_path: Path) -> None:
    hf = configured(base)
    hf.add_special_tokens([AddedToken("<mask>", lstrip=True, normalized=False)])
    ours = ours_of(hf, tmp_path)
    rule = tokenizer_rule(ours, block_rule(ours.pattern_regex))
    text = ("word \n  <mask>" * 50).encode()
    blocks = list(iter_blocks(io.BytesIO(text), list(ours.special_tokens), rule, 32))
    assert len(blocks) > 10
    assert b"".join(blocks) == text
    assert all(b.startswith(b" \n  <mask>") for b in blocks[1:])
