"""encode_iterable: identical to encode of the joined text for every cut, bounded memory (FAULTS 19)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.pretokenization.splitting import last_safe_cut
from core.tokenization.tokenizer import Tokenizer

from .tok_corpus import EOT, VARIED_TEXTS, make_corpus, trained_spec

SPECIALS = (EOT, EOT + EOT, "<|pad|>")
# characters that exercise every alternative of the GPT-2/GPT-4 patterns and the special tokens
ALPHABET = st.sampled_from(
    [
        *list("aZé日🙃'sldvmtre 1²\n\r\t.,!-_"),
        "  ",
        "\xa0",
        "\u3000",
        "'ll",
        "<|",
        "|>",
        "<|endoftext",
        "|><|",
    ]
)
pieces = st.lists(st.one_of(ALPHABET, st.sampled_from(SPECIALS), st.text(max_size=4)), max_size=40)


def tokenizer(pattern: str | None) -> Tokenizer:
    spec = trained_spec(pattern=pattern, specials=SPECIALS, vocab_size=400, n_words=1500)
    tok = Tokenizer.from_spec(spec)
    tok.stream_min_chars = 1  # encode after every chunk, so every cut is a real stream cut
    return tok


TOKENIZERS = {p: tokenizer(p) for p in ("gpt2", "gpt4", "none", r"\w+|\s+|[^\w\s]+")}


def cut(text: str, cuts: list[int]) -> list[str]:
    points = sorted({c % (len(text) + 1) for c in cuts})
    bounds = [0, *points, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds)]


@pytest.mark.parametrize("pattern", list(TOKENIZERS))
@given(parts=pieces, cuts=st.lists(st.integers(min_value=0, max_value=10_000), max_size=12))
def test_any_cut_gives_the_same_ids(pattern: str, parts: list[str], cuts: list[int]) -> None:
    tok = TOKENIZERS[pattern]
    text = "".join(parts)
    assert list(tok.encode_iterable(cut(text, cuts))) == tok.encode(text)


@pytest.mark.parametrize("pattern", list(TOKENIZERS))
def test_every_single_cut_of_varied_texts(pattern: str) -> None:
    tok = TOKENIZERS[pattern]
    for text in (*VARIED_TEXTS[:10], f"ab{EOT}{EOT}cd {EOT}<|pad|>x  y\n\n z'll"):
        want = tok.encode(text)
        for i in range(len(text) + 1):
            assert list(tok.encode_iterable([text[:i], text[i:]])) == want, (text, i)
        assert list(tok.encode_iterable(list(text))) == want  # one character per chunk


def test_lines_of_a_file(tmp_path) -> None:
    tok = tokenizer("gpt2")
    text = make_corpus(3000, seed=3)
    path = tmp_path / "corpus.txt"
    path.write_text(text, encoding="utf-8", newline="")
    with open(path, encoding="utf-8", newline="") as f:
        assert list(tok.encode_iterable(f)) == tok.encode(text)


@pytest.mark.parametrize("pattern", ["gpt2", "gpt4"])
def test_memory_is_bounded_by_the_chunk_size(pattern: str) -> None:
    """Ids come out while the stream is read: the text held back never exceeds a few chunks."""
    tok = Tokenizer.from_spec(trained_spec(pattern=pattern))
    tok.stream_min_chars = 1000
    line = make_corpus(200, seed=5).replace(EOT, " ") + "\n"
    n_lines = 400
    consumed = 0

    def lines():
        nonlocal consumed
        for _ in range(n_lines):
            consumed += len(line)
            yield line

    ends = _token_char_ends(tok, line * n_lines)
    worst = 0
    for k, _ in enumerate(tok.encode_iterable(lines())):
        worst = max(worst, consumed - ends[k])  # text read but not yet given out as ids
    assert worst <= 2 * max(tok.stream_min_chars, len(line)) + 64
    assert consumed == n_lines * len(line)


def _token_char_ends(tok: Tokenizer, text: str) -> list[int]:
    return [s.end for s in tok.trace(text)]


def test_no_cut_place_still_streams_correctly() -> None:
    """Digits and spaces only: no safe cut, the text is held until the end, ids still exact."""
    tok = tokenizer("gpt2")
    text = "1234 5678 " * 300
    assert list(tok.encode_iterable([text[i : i + 7] for i in range(0, len(text), 7)])) == tok.encode(text)


@pytest.mark.parametrize(
    "text, start, end, want",
    [
        ("hello world", 0, 11, 5),
        ("ab", 0, 2, -1),
        ("a b", 0, 2, 1),
        ("x日本.", 0, 4, 3),
        ("a1", 0, 2, 1),
        ("it's", 0, 4, 2),
        ("12 34", 0, 5, -1),
        ("hello world", 0, 5, -1),
        ("ab cd", 3, 5, -1),
    ],
)
def test_last_safe_cut(text: str, start: int, end: int, want: int) -> None:
    assert last_safe_cut(text, start, end) == want


def test_safe_cut_rule_holds_for_builtin_patterns() -> None:
    """Pre-tokenizing both sides of every safe cut separately equals pre-tokenizing the whole."""
    import regex

    from core.pretokenization.pretokenize import GPT2_PATTERN, GPT4_PATTERN

    samples = [make_corpus(300, seed=s) for s in range(3)] + ["a'll 's x\r\n'LL a\u00a0 b  \n c"]
    for pat in (GPT2_PATTERN, GPT4_PATTERN):
        r = regex.compile(pat)
        for text in samples:
            whole = r.findall(text)
            for m in regex.finditer(r"\p{L}(?=\P{L})", text):
                i = m.end()
                assert r.findall(text[:i]) + r.findall(text[i:]) == whole


def test_bytes_chunks_are_a_clear_error() -> None:
    from core import TokenizerError

    with pytest.raises(TokenizerError, match="text mode"):
        list(tokenizer("gpt2").encode_iterable([b"abc"]))  # type: ignore[list-item]
