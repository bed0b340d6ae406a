"""Issue 13 §6: corpora in any script are streamed in bounded blocks, with counts identical to the
unsplit text (core.pretokenization.blocks), and Cancel is asked before every block."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core import Cancelled
from core.formats.spec import TokenizerSpec
from core.pretokenization.blocks import BLOCK_BYTES, MAX_BLOCK_BYTES, auto_block_bytes, iter_blocks
from core.pretokenization.pretokenize import _count_chunk, block_rule, count_pretokens, resolve_pattern
from core.tokenization.npy import encode_file_to_npy
from core.tokenization.tokenizer import Tokenizer

PIECES = [
    "a",
    "Zb",
    "日本",
    "語",
    "Щи",
    "é",
    "e\u0301",
    "1",
    "23",
    "4567",
    " ",
    "  ",
    "\t",
    "\n",
    "\r",
    "\r\n",
    "\n\n",
    "\u3000",
    "\xa0",
    "\x1c",
    "\x85",
    "\u2028",
    "\x0b",
    "\x0c",
    "٣",
    "Ⅻ",
    "'s",
    "'ll",
    ".",
    "!?",
    "，",
    "。",
    '{"k": [1, 2]}',
    "🙂",
    "\x7f",
    "<|e|>",
    "<|e|><|e|>",
    "<|",
    "|>",
]
SPECIALS = ["<|e|>", "<|e|><|e|>"]
PATTERNS = ["gpt2", "gpt4", "none", r"[a-z]+|\s+|\p{Han}+"]

texts = st.lists(st.sampled_from(PIECES), max_size=80).map("".join)
raw = st.one_of(
    texts.map(lambda t: t.encode("utf-8")),
    st.tuples(texts, st.binary(max_size=4).map(lambda b: b.replace(b"\0", b"")), texts).map(
        lambda p: p[0].encode() + p[1] + p[2].encode()
    ),
)


@given(
    data=raw,
    block=st.integers(1, 40),
    pattern=st.sampled_from(PATTERNS),
    specials=st.sampled_from([[], SPECIALS]),
)
def test_streamed_counts_equal_the_whole_text(data, block, pattern, specials):
    whole, _ = count_pretokens(data, specials, pattern, workers=1, block_bytes=1 << 30, is_text=True)
    cut, _stats = count_pretokens(data, specials, pattern, workers=1, block_bytes=block, is_text=True)
    assert cut == whole
    blocks = list(iter_blocks(io.BytesIO(data), specials, block_rule(resolve_pattern(pattern)), block))
    assert b"".join(blocks) == data
    if pattern in ("gpt2", "gpt4"):  # the cuts safe for both built-in patterns (rule=True)
        both = list(iter_blocks(io.BytesIO(data), specials, True, block))
        pat = resolve_pattern(pattern)
        total: dict = {}
        for b in both:
            for k, v in _count_chunk(b, pat, tuple(specials)).counts.items():
                total[k] = total.get(k, 0) + v
        assert total == whole


def _cjk_corpus(n_lines: int) -> str:
    lines = []
    for i in range(n_lines):
        lead = ["", "  ", "12. ", "「"][i % 4]
        lines.append(f"{lead}今天天气很好，我们去公园散步吧{i}。Привет, мир {i}!")
    return "\r".join(lines[: n_lines // 2]) + "\n" + "\n".join(lines[n_lines // 2 :])


@pytest.mark.parametrize("pattern", ["gpt2", "gpt4"])
def test_non_ascii_corpora_are_cut_in_blocks_of_bounded_size(pattern):
    data = _cjk_corpus(20_000).encode()  # ~1.7 MB, CR-only and LF line ends, no ASCII letter leads a line
    block = 64 << 10
    blocks = list(iter_blocks(io.BytesIO(data), [], pattern, block))
    assert b"".join(blocks) == data
    assert len(blocks) >= len(data) // (2 * block)
    assert max(map(len, blocks)) <= 2 * block
    whole, _ = count_pretokens(data, [], pattern, workers=1, block_bytes=1 << 30, is_text=True)
    counts, stats = count_pretokens(data, [], pattern, workers=1, block_bytes=block)
    assert counts == whole and stats.chunks == len(blocks)


def test_single_line_json_is_cut_too():
    data = ("[" + ", ".join(f'{{"name": "item{i}", "v": {i}}}' for i in range(60_000)) + "]").encode()
    blocks = list(iter_blocks(io.BytesIO(data), [], "gpt2", 32 << 10))
    assert max(map(len, blocks)) <= 64 << 10
    assert (
        count_pretokens(data, [], "gpt2", workers=1, block_bytes=32 << 10)[0]
        == count_pretokens(data, [], "gpt2", workers=1, block_bytes=1 << 30)[0]
    )


def test_a_long_stretch_without_cuts_is_searched_once(monkeypatch):
    """One 2 MB word read in 1 KB reads: each byte is searched for a cut once (the old code
    searched the whole growing buffer after every read: quadratic)."""
    import core.pretokenization.blocks

    searched = []
    real = core.pretokenization.blocks._last_rule_cut

    def counting(buf, lo, hi, rule):
        searched.append(hi - lo)
        return real(buf, lo, hi, rule)

    monkeypatch.setattr(core.pretokenization.blocks, "_last_rule_cut", counting)
    data = b"x" * (2 << 20)
    blocks = list(iter_blocks(io.BytesIO(data), ["<|e|>"], "gpt2", 1 << 10))
    assert blocks == [data]  # nowhere to cut: one block
    assert len(searched) > 1000 and sum(searched) <= len(data)


def test_cancel_is_asked_before_the_first_block_is_counted(tmp_path):
    path = tmp_path / "c.txt"
    path.write_bytes(_cjk_corpus(5_000).encode())
    calls = []

    def progress(phase, done, total):
        calls.append(done)
        return len(calls) < 2

    with pytest.raises(Cancelled):
        count_pretokens(path, workers=1, progress=progress, block_bytes=16 << 10)
    assert calls == [0, 0]  # stopped before any block was counted


def test_cancel_is_asked_while_a_stretch_without_cuts_is_read(tmp_path):
    path = tmp_path / "word.txt"
    path.write_bytes(b"x" * (1 << 20))  # one word: no place to cut, read in 64 KB reads
    calls = []

    def progress(phase, done, total):
        calls.append(done)
        return len(calls) < 5

    with pytest.raises(Cancelled):
        count_pretokens(path, workers=1, progress=progress, block_bytes=64 << 10)
    assert len(calls) == 5 and calls[-1] == 0  # stopped during the reads, before any counting
    with pytest.raises(Cancelled):
        encode_file_to_npy(
            Tokenizer.from_spec(TokenizerSpec.from_merges([])),
            path,
            tmp_path / "o.npy",
            workers=1,
            block_bytes=64 << 10,
            progress=lambda *a: False,
        )
    assert not (tmp_path / "o.npy").exists()


@pytest.mark.parametrize("pattern", ["gpt2", "gpt4"])
def test_npy_encoding_streams_cjk_and_equals_encode(tmp_path, pattern):
    spec = TokenizerSpec.from_merges(
        [(b"\xe5", b"\xa4"), (b"\xe5\xa4", b"\xa9"), (b" ", b"1")],
        pattern=resolve_pattern(pattern),
        special_tokens=["<|e|>"],
    )
    tok = Tokenizer.from_spec(spec)
    text = _cjk_corpus(3_000).replace("。", "。<|e|>", 7)
    path = tmp_path / "in.txt"
    path.write_bytes(text.encode())
    r = encode_file_to_npy(tok, path, tmp_path / "out.npy", workers=1, block_bytes=8 << 10)
    assert np.load(tmp_path / "out.npy").tolist() == tok.encode(text)
    assert r.n_tokens == len(tok.encode(text))


@pytest.mark.parametrize(
    "size, workers",
    [(0, 2), (1, 1), (40 << 20, 2), (107 << 20, 2), (2 << 30, 2), (2 << 30, 64), (10 << 30, 1)],
)
def test_auto_block_size_gives_every_process_work_and_stays_bounded(size, workers):
    b = auto_block_bytes(size, workers)
    assert BLOCK_BYTES <= b <= MAX_BLOCK_BYTES
    if size >= 4 * workers * BLOCK_BYTES:  # big enough to share: at least four blocks per process
        assert size // b >= 4 * workers or b == BLOCK_BYTES
    if size >= 4 * workers * MAX_BLOCK_BYTES:  # a big corpus: the largest blocks
        assert b == MAX_BLOCK_BYTES


def test_counts_do_not_depend_on_the_block_size(tmp_path):
    words = [f"w{i % 37}x{i % 11}" for i in range(60_000)]
    text = " ".join(words).replace("w3x", "\nw3x") + "<|endoftext|> tail  end\n"
    path = tmp_path / "c.txt"
    path.write_bytes(text.encode())
    whole, _ = count_pretokens(str(path), ["<|endoftext|>"], workers=1, block_bytes=1 << 30)
    small, stats = count_pretokens(str(path), ["<|endoftext|>"], workers=1, block_bytes=16 << 10)
    auto, _ = count_pretokens(str(path), ["<|endoftext|>"], workers=1)
    assert stats.chunks > 10
    assert list(small.items()) == list(whole.items()) == list(auto.items())


def test_encode_refuses_a_compressed_file(tmp_path):
    import gzip

    from core import Tokenizer
    from core.errors import CorpusError
    from core.formats.spec import TokenizerSpec

    path = tmp_path / "corpus.txt.gz"
    path.write_bytes(gzip.compress(b"the cat sat on the mat\n" * 100))
    tok = Tokenizer.from_spec(TokenizerSpec.from_merges([(b"t", b"h")]))
    with pytest.raises(CorpusError, match=r"gzip-compressed.*zcat"):
        encode_file_to_npy(tok, path, tmp_path / "out.npy", workers=1)
    assert not (tmp_path / "out.npy").exists()
