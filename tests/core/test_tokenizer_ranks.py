"""A tiktoken file read without merges: encoding by rank, the merges rebuilt only when read, the fast
line parser, and the fast path of custom-pattern pre-tokenization."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from core.bpe.ranks import RankMerges, _rank_bpe_heap, rank_bpe
from core.bpe.support import covering
from core.formats import export_all, load_any, load_native, load_tiktoken, save_tiktoken
from core.formats.tiktoken_bpe import _parse_fast
from core.pretokenization.ascii_pattern import ascii_twin
from core.tokenization.tokenizer import Tokenizer

from .tok_corpus import EOT, VARIED_TEXTS, make_corpus, trained_spec

tiktoken = pytest.importorskip("tiktoken")

CASES = {
    "gpt2": {"specials": (EOT, "<|pad|>")},
    "gpt4": {"pattern": "gpt4", "specials": (EOT,)},
    "none": {"pattern": "none", "vocab_size": 350, "n_words": 1000},
    "invalid-bytes": {"invalid_bytes": True},
}
TEXTS = (*VARIED_TEXTS, make_corpus(300, seed=5), f"{EOT}x{EOT}", "<|pad|><|endoftext|>", "aaaa" * 60)


@pytest.fixture(scope="module", params=list(CASES))
def by_rank(request, tmp_path_factory):
    """(trained spec, the spec read back from its tiktoken file, a tiktoken.Encoding of that file)."""
    spec = trained_spec(**CASES[request.param])
    path = save_tiktoken(spec, tmp_path_factory.mktemp("rank") / "bpe.tiktoken")
    loaded = load_tiktoken(path, pattern=spec.pattern, special_tokens=dict(spec.special_ids))
    ranks = {b: i for i, b in spec.ordinary_tokens().items()}
    enc = tiktoken.Encoding(
        "t", pat_str=spec.pattern_regex or r"(?s:.+)", mergeable_ranks=ranks, special_tokens=spec.special_ids
    )
    return spec, loaded, enc


def test_loading_and_encoding_do_not_rebuild_the_merges(by_rank) -> None:
    _, loaded, enc = by_rank
    assert isinstance(loaded.merges, RankMerges) and not loaded.merges.built
    tok = Tokenizer.from_spec(loaded)
    for text in TEXTS:
        assert tok.encode(text) == enc.encode(text, allowed_special="all"), text
        assert tok.encode_ordinary(text) == enc.encode_ordinary(text), text
    assert not loaded.merges.built
    assert tok.to_spec().merges is loaded.merges  # still by rank: exports that need no merges stay fast


def test_rebuilt_merges_equal_the_trained_ones(by_rank) -> None:
    spec, loaded, _ = by_rank
    tok = Tokenizer.from_spec(loaded)
    assert tok.merges == list(spec.merges)  # read through the tokenizer: rebuilt now
    assert loaded.merges.built
    assert (
        loaded.merges == spec.merges
        and spec.merges == loaded.merges
        and len(loaded.merges) == len(spec.merges)
    )
    assert loaded.merges[3] == spec.merges[3] and loaded.merges[-2:] == spec.merges[-2:]
    eager = Tokenizer.from_spec(spec)
    for i in (300, 400, len(spec.vocab) - 1):
        assert tok.parts(i) == eager.parts(i) and tok.token_rank(i) == eager.token_rank(i)
    word = "quickly running"
    assert tok.merge_trace(word) == eager.merge_trace(word)
    assert tok.merge_rank(spec.merges[5]) == 5


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(st.sampled_from("abcdehilnorstu '\n日本🙃é"), max_size=14),
            st.sampled_from([EOT, " ", "  ", "the", "don't", "running"]),
        ),
        max_size=10,
    ).map("".join)
)
def test_rank_ids_equal_tiktoken_and_the_merge_rule(by_rank, text: str) -> None:
    spec, loaded, enc = by_rank
    ids = Tokenizer.from_spec(loaded).encode(text)
    assert ids == enc.encode(text, allowed_special="all")
    assert ids == Tokenizer.from_spec(spec).encode(text)


def test_native_export_of_a_rank_tokenizer_keeps_the_merges(by_rank, tmp_path: Path) -> None:
    spec, loaded, _ = by_rank
    tok = Tokenizer.from_spec(replace(loaded, merges=RankMerges(loaded.merges.tokens)))
    export_all(tmp_path, tok, "native,tiktoken")
    assert load_native(tmp_path / "bpe.json").merges == spec.merges
    again = load_any(tmp_path / "bpe.tiktoken", pattern=spec.pattern, special_tokens=dict(spec.special_ids))
    assert again.vocab == loaded.vocab


def _reference_rank_bpe(word: bytes, ranks: dict[bytes, int]) -> list[int]:
    """tiktoken's rule written plainly: merge the leftmost adjacent pair whose concatenation ranks lowest."""
    parts = [word[i : i + 1] for i in range(len(word))]
    while True:
        found = [(ranks[a + b], i) for i, (a, b) in enumerate(pairwise(parts)) if a + b in ranks]
        if not found:
            return [ranks[p] for p in parts]
        _, i = min(found)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]


def _random_ranks(seed: int) -> dict[bytes, int]:
    rng = random.Random(seed)
    tokens = [bytes([b]) for b in b"abc"]
    while len(tokens) < 40:
        t = rng.choice(tokens) + rng.choice(tokens)
        if t not in tokens and len(t) <= 6:
            tokens.append(t)
    rng.shuffle(tokens)  # ranks in any order, not only the order a trainer makes
    return {t: i for i, t in enumerate(tokens)}


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 50), st.text("abc", min_size=0, max_size=240))
def test_rank_bpe_scan_and_heap_equal_the_plain_rule(seed: int, text: str) -> None:
    ranks = _random_ranks(seed)
    word = text.encode()
    want = _reference_rank_bpe(word, ranks)
    assert rank_bpe(word, ranks) == want  # the scan up to 96 bytes, the heap above
    if word:
        assert _rank_bpe_heap(word, ranks) == want


def test_rank_merges_of_another_vocab_fall_back_to_the_merges() -> None:
    spec = trained_spec(**CASES["gpt2"])
    ordinary = spec.ordinary_tokens()
    tokens = [ordinary[i] for i in sorted(ordinary)]
    swapped = dict(spec.vocab)
    swapped[300], swapped[301] = swapped[301], swapped[300]  # not rank order any more
    tok = Tokenizer(swapped, RankMerges(tokens), list(spec.special_tokens))
    plain = Tokenizer(swapped, list(spec.merges), list(spec.special_tokens))
    assert tok.merges == list(spec.merges)
    for text in TEXTS:
        assert tok.encode(text) == plain.encode(text)


def test_fast_and_careful_line_parsers_agree(tmp_path: Path) -> None:
    spec = trained_spec(**CASES["gpt2"])
    plain = save_tiktoken(spec, tmp_path / "plain.tiktoken").read_text(encoding="ascii")
    assert _parse_fast(plain) == spec.ordinary_tokens()
    variants = {
        "crlf": plain.replace("\n", "\r\n"),
        "blank lines": plain.replace("\n", "\n\n", 5),
        "tabs": plain.replace(" ", "\t", 3),
        "no final newline": plain.rstrip("\n"),
        "leading space": " " + plain,
    }
    want = load_tiktoken(tmp_path / "plain.tiktoken").vocab
    for name, text in variants.items():
        path = tmp_path / f"{name}.tiktoken"
        path.write_text(text, encoding="ascii", newline="")
        assert load_tiktoken(path).vocab == want, name
    assert _parse_fast(variants["crlf"]) is None  # taken by the careful, line-by-line parser
    assert _parse_fast(plain.replace("YQ== ", "YQ= ", 1)) is None  # bad padding: the careful parser names it


def _reference_covering(pattern: str, text: str) -> list[str]:
    out, pos = [], 0
    for m in regex.finditer(pattern, text):
        if m.start() == m.end():
            continue
        if m.start() > pos:
            out.append(text[pos : m.start()])
        out.append(m.group())
        pos = m.end()
    return [*out, text[pos:]] if pos < len(text) else out


@pytest.mark.parametrize(
    "pattern",
    [
        r"[a-z]+",
        r"[a-z]*",
        r"(a)|b+|\s+",
        r"\p{L}+|\p{N}|\s+|[^\s\p{L}\p{N}]+",
        r"(?i:'s|'t)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+|\s+",
    ],
)
def test_custom_pattern_splitting_keeps_every_character(pattern: str) -> None:
    for split in (covering(regex.compile(pattern)), covering(regex.compile(pattern), ascii_twin(pattern))):
        for text in (*TEXTS, "ab, cd!", "Ab12345 it'S x", "aaa bb"):
            assert split(text) == _reference_covering(pattern, text), text
