"""Encoding a file in blocks through an imported HF pipeline gives HF's ids for the whole text.

The blocks are cut where the pattern restarts; a normalizer may join a combining mark (or a Hangul
vowel) to the character before the cut, a prefix space is added to every piece, and added tokens
strip whitespace or look at their neighbours: each case is checked against HF ``tokenizers`` on the
whole text, with blocks small enough to put cuts everywhere.
"""

from __future__ import annotations

import io
import itertools
import tempfile
import unicodedata
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tokenizers import AddedToken, Regex, normalizers, pre_tokenizers

from core.pretokenization.blocks import PipelineRule, iter_blocks, tokenizer_rule
from core.pretokenization.patterns import LLAMA3_PATTERN, O200K_PATTERN, QWEN_PATTERN
from core.pretokenization.pretokenize import block_rule
from core.tokenization.npy import encode_file_to_npy

from .test_hf_pipeline import configured, ours_of, trained

PIECES = [
    "Cafe\u0301 re\u0301sume\u0301 na\u0131ve",
    unicodedata.normalize("NFD", "Ünïcödé ÀÉÎÕÜ ếộ"),
    "\u1100\u1161\u11a8 \u1100\u1161 \u3131\u314f \uff76\uff9e",
    "ΟΔΟΣ ΣΑΣ",
    "line\nnext\r\n  x",
    "abc 12 345",
    "<mask>",
    " <mask>",
    "  <mask> ",
    "x<mask>y",
    "<|endoftext|>",
    "\t",
    "é\u0301",
    "A\u030a\u0323",
]


def corpus(n: int = 400) -> str:
    rng = np.random.default_rng(5)
    return "".join(PIECES[i] for i in rng.integers(0, len(PIECES), n))


@pytest.fixture(scope="module")
def base():
    return trained()


def _split(pattern: str) -> pre_tokenizers.Split:
    return pre_tokenizers.Split(Regex(pattern), behavior="isolated")


_BYTES = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
LLAMA3_STYLE = pre_tokenizers.Sequence([_split(LLAMA3_PATTERN), _BYTES])
SPLITS = pre_tokenizers.Sequence(
    [_split(r"\p{N}{1,3}"), _split("[\u4e00-\u9fa5\u3040-\u30ff]+"), _split(QWEN_PATTERN), _BYTES]
)

CASES = {
    "none": {},
    "nfc": {"normalizer": normalizers.NFC()},
    "nfkc": {"normalizer": normalizers.NFKC()},
    "nfkd_lowercase": {"normalizer": normalizers.Sequence([normalizers.NFKD(), normalizers.Lowercase()])},
    "replace": {"normalizer": normalizers.Replace(Regex(r"e\s"), "E")},
    "prefix_space": {"pre_tokenizer": pre_tokenizers.ByteLevel(add_prefix_space=True)},
    # a regex split, then the byte mapping (Llama 3, Qwen 2/2.5 with NFC); several splits (DeepSeek V3)
    "llama3": {"pre_tokenizer": LLAMA3_STYLE},
    "llama3_nfc": {"pre_tokenizer": LLAMA3_STYLE, "normalizer": normalizers.NFC()},
    "llama3_nfkd_lowercase": {
        "pre_tokenizer": LLAMA3_STYLE,
        "normalizer": normalizers.Sequence([normalizers.NFKD(), normalizers.Lowercase()]),
    },
    "splits": {"pre_tokenizer": SPLITS},
    "splits_nfkc": {"pre_tokenizer": SPLITS, "normalizer": normalizers.NFKC()},
    # GPT-4o's and MiniMax's files: the matches kept, the stretches between them removed
    "removed_inverted": {
        "pre_tokenizer": pre_tokenizers.Sequence(
            [pre_tokenizers.Split(Regex(O200K_PATTERN), behavior="removed", invert=True), _BYTES]
        )
    },
}
SPLIT_CASES = ("llama3", "llama3_nfc", "llama3_nfkd_lowercase", "splits", "splits_nfkc", "removed_inverted")
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


@pytest.mark.parametrize("case", SPLIT_CASES)
def test_pipelines_that_start_with_a_regex_split_are_cut_by_that_regex(
    base, tmp_path: Path, case: str
) -> None:
    """A big file through such a pipeline becomes many blocks (it was one: cut only before added
    tokens), and, with a normalizer, never next to a character it may change or join."""
    hf = configured(base, **CASES[case])
    ours = ours_of(hf, tmp_path)
    rule = tokenizer_rule(ours, block_rule(ours.pattern_regex))
    assert isinstance(rule, PipelineRule) and rule.rule is not None
    text = corpus(3000).replace("<mask>", "").replace("<|endoftext|>", "").encode()
    blocks = list(iter_blocks(io.BytesIO(text), [], rule, 64))
    assert b"".join(blocks) == text
    assert len(blocks) > len(text) // 400
    if "normalizer" in CASES[case]:
        for left, right in itertools.pairwise(blocks):
            x, y = left.decode()[-1], right.decode()[:2]
            assert all(
                unicodedata.normalize("NFKD", ch) == ch and unicodedata.combining(ch) == 0 for ch in (x, y[0])
            ), (x, y)
            assert unicodedata.combining(y[1:2] or "a") == 0


# characters that normalization changes, joins or reorders, next to ones the regexes split on
TRICKY = (
    "aAbZ 19\n\t.,'sS<"
    "\u0301\u0323\u0338\u0307"
    "\u00e9\u00c5\u03a3\u03c3\u0130\u00df"
    "\ufb01\u2122\u2460\uff21\u00b2\u212b"
    "\u1100\u1161\u11a8\u3131\uff9e"
    "\u4e2d\u6587\u3002\uff0c\u3042"
)


@pytest.fixture(scope="module")
def split_pipelines(base, tmp_path_factory):
    out = {}
    for case in ("llama3_nfc", "llama3_nfkd_lowercase", "splits_nfkc"):
        hf = configured(base, **CASES[case])
        out[case] = (hf, ours_of(hf, tmp_path_factory.mktemp(case)))
    return out


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(alphabet=TRICKY, min_size=1, max_size=160))
def test_normalized_split_pipelines_in_blocks_equal_hf_whole(split_pipelines, text: str) -> None:
    """Every cut the rule allows (not only those the block cutter picks) splits HF's ids exactly."""
    with tempfile.TemporaryDirectory() as d:
        src, out = Path(d) / "c.txt", Path(d) / "o.npy"
        src.write_text(text, encoding="utf-8", newline="")
        for hf, ours in split_pipelines.values():
            want = hf.encode(text, add_special_tokens=False).ids
            encode_file_to_npy(ours, src, out, workers=1, block_bytes=8)
            assert np.load(out).tolist() == want
            cuts = tokenizer_rule(ours, block_rule(ours.pattern_regex)).rule
            for c in range(1, len(text) - 1):
                if cuts.last_cut(text, c - 1, c + 2) == c:
                    parts = (
                        hf.encode(text[:c], add_special_tokens=False).ids
                        + hf.encode(text[c:], add_special_tokens=False).ids
                    )
                    assert parts == want, (text[:c], text[c:])


def test_dask_ranges_of_a_regex_split_pipeline_are_cut_by_its_rule(base, tmp_path: Path) -> None:
    """Byte ranges (Dask) of a pipeline cut by a regex split go where its rule allows (and before its
    added tokens); encoding the ranges one by one gives HF's ids for the whole text."""
    from core.pretokenization.blocks import NormalizedCuts
    from core.pretokenization.scan import next_valid_cut
    from core.scale.dask_scale import encode_cuts

    hf = configured(base, **CASES["llama3_nfc"])
    hf.add_special_tokens(["<|endoftext|>"])
    ours = ours_of(hf, tmp_path)
    rule, cut_at = encode_cuts(ours)
    assert isinstance(rule, NormalizedCuts) and cut_at == frozenset({"<|endoftext|>"})
    text = corpus(1500).replace("<mask>", "")
    data = text.encode()
    (tmp_path / "c.txt").write_bytes(data)
    with open(tmp_path / "c.txt", "rb") as f:
        cuts = sorted(
            {
                0,
                len(data),
                *(
                    next_valid_cut(f, p, len(data), ("<|endoftext|>",), rule, cut_at)
                    for p in range(1, len(data), 97)
                ),
            }
        )
    assert len(cuts) > len(data) // 400
    got = [
        i
        for a, b in itertools.pairwise(cuts)
        for i in ours.encode(data[a:b].decode("utf-8"), add_special_tokens=False)
    ]
    assert got == hf.encode(text, add_special_tokens=False).ids


@pytest.mark.parametrize("normalizer", [normalizers.NFKC(), normalizers.NFD(), normalizers.NFKD()])
def test_cuts_keep_off_characters_a_normalizer_decomposes(tmp_path: Path, normalizer) -> None:
    """NFKC makes "TM" of "™" and "km" of "㎞", NFD "e" + U+0301 of "é": a cut between "the" and "™"
    or between "é" and "," would split what the normalized whole text keeps in one pre-token."""
    from tokenizers import Tokenizer as HF
    from tokenizers import decoders
    from tokenizers.models import BPE
    from tokenizers.trainers import BpeTrainer

    hf = HF(BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.decoder = decoders.ByteLevel()
    hf.train_from_iterator(
        ["theTM wordkm xTEL cafe\u0301, ne\u0301e. " * 200],
        BpeTrainer(vocab_size=320, show_progress=False, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()),
    )
    hf.normalizer = normalizer
    ours = ours_of(hf, tmp_path)
    text = "the\u2122 word\u339e x\u2121 caf\u00e9, n\u00e9e. " * 40
    (tmp_path / "c.txt").write_text(text, encoding="utf-8", newline="")
    want = hf.encode(text, add_special_tokens=False).ids
    for block_bytes in (8, 16, 61):
        encode_file_to_npy(ours, tmp_path / "c.txt", tmp_path / "o.npy", workers=1, block_bytes=block_bytes)
        assert np.load(tmp_path / "o.npy").tolist() == want, block_bytes
