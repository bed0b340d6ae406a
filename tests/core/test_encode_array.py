"""Encoding straight to an array by distinct chunks (core.encode_array, the .npy path) gives the ids
of ``Tokenizer.encode``: special tokens, first chunks, mark characters in the text, a table that is
cleared, invalid bytes, and the errors of ``encode``."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import core.encode_array as encode_array_module
from core.encode_array import encode_array
from core.errors import TokenizerError
from core.formats.known import LLAMA3_PATTERN, O200K_PATTERN, QWEN35_PATTERN, QWEN_PATTERN
from core.patterns import GPT2_PATTERN, GPT4_PATTERN
from core.space_chunks import _TEXT_MARKS
from core.tokenizer import Tokenizer

from .tok_corpus import EOT, make_corpus, trained_spec

PATTERNS = {"gpt2": GPT2_PATTERN, "gpt4": GPT4_PATTERN, "o200k": O200K_PATTERN, "llama3": LLAMA3_PATTERN,
            "qwen": QWEN_PATTERN, "qwen35": QWEN35_PATTERN}
PIECES = [" ", " ", "  ", "   ", "a", "Zb", "the", " the", "cat", "don't", "日本", "é", "e\u0301", "1", "234",
          "\t", "\n", "\r\n", " \n", "\u3000", "\xa0", "\x1c", "\x85", "'s", "'LL", ".", "!?", "🙂", "\x00",
          "\x01", "\x02", "\udcff", "\udcc3", EOT, EOT, "<|pad|>", "<|endof"]
texts = st.lists(st.sampled_from(PIECES), max_size=80).map("".join)
_TOKS: dict[str, Tokenizer] = {}


def _tok(name: str) -> Tokenizer:
    if name not in _TOKS:
        spec = trained_spec(specials=(EOT, "<|pad|>"), invalid_bytes=True)
        _TOKS[name] = Tokenizer(dict(spec.vocab), spec.merges, [EOT, "<|pad|>"], pattern=PATTERNS[name])
    return _TOKS[name]


@settings(deadline=None)
@given(parts=st.lists(texts, min_size=1, max_size=4), name=st.sampled_from(sorted(PATTERNS)))
def test_array_ids_equal_encode(parts, name):
    tok = _tok(name)  # (shared: its chunk table carries over from text to text, as in a worker)
    for text in parts:
        got = encode_array(tok, text)
        assert got.dtype == np.int64
        assert got.tolist() == tok.encode(text, add_special_tokens=False)


def test_a_corpus_in_blocks_with_a_small_table_that_is_cleared(monkeypatch):
    tok = Tokenizer.from_spec(trained_spec(specials=(EOT,)))
    text = make_corpus(6000, seed=11)
    monkeypatch.setattr(encode_array_module, "MAX_KEYS", 300)
    cleared = []
    real = encode_array_module._Table.clear
    monkeypatch.setattr(encode_array_module._Table, "clear", lambda self: cleared.append(1) or real(self))
    blocks = [text[i:i + 2000] for i in range(0, len(text), 2000)]
    for block in blocks + blocks:
        assert encode_array(tok, block).tolist() == tok.encode(block)
    assert len(cleared) > 3


def test_text_holding_the_marks_uses_a_table_of_its_own_or_encode():
    tok = Tokenizer.from_spec(trained_spec(specials=(EOT,)))
    text = "the cat " * 50
    encode_array(tok, text)
    shared = tok._arrays.table
    marked = "\x00 the\x01 cat \x02" + text
    assert encode_array(tok, marked).tolist() == tok.encode(marked)
    assert tok._arrays.table is shared  # the shared table is kept for the next plain text
    everything = "".join(_TEXT_MARKS) + " the cat " + text
    assert encode_array(tok, everything).tolist() == tok.encode(everything)


def test_other_tokenizers_take_their_encode():
    spec = trained_spec(specials=(EOT,))
    custom = Tokenizer(dict(spec.vocab), spec.merges, [EOT], pattern=r"\S+|\s+")
    text = f"the cat  sat{EOT} on the mat"
    assert encode_array(custom, text).tolist() == custom.encode(text)
    none = Tokenizer(dict(spec.vocab), spec.merges, [EOT], pattern="none")
    assert encode_array(none, text).tolist() == none.encode(text)


def test_errors_are_those_of_encode():
    tok = Tokenizer.from_spec(trained_spec(specials=(EOT,)))
    with pytest.raises(TokenizerError, match="lone surrogate"):
        encode_array(tok, "the cat \ud800 sat")
    assert encode_array(tok, "").tolist() == []
    assert encode_array(tok, EOT).tolist() == tok.encode(EOT)


def test_a_byte_the_vocab_lacks_is_the_error_of_encode():
    tok = Tokenizer({i: bytes([i]) for i in range(0xF5)}, [], [EOT])  # no tokens for 0xF5..0xFF
    assert encode_array(tok, "ab \udcc3 c").tolist() == tok.encode("ab \udcc3 c")
    with pytest.raises(TokenizerError, match="byte 0xff"):
        encode_array(tok, "ab \udcff c")
