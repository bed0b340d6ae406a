"""What ``encode`` says about special tokens: the ones given for a tiktoken file (not "no special tokens
are known"), and ``<|…|>`` strings in a text that a tokenizer knowing none encodes as plain text."""

from __future__ import annotations

import numpy as np

from core.cli import main
from core.formats import export_all, save
from core.formats.spec import TokenizerSpec

MERGES = [(b"t", b"h"), (b"th", b"e"), (b" ", b"the")]


def _tiktoken(tmp_path):
    return save(TokenizerSpec.from_merges(MERGES), tmp_path / "x.tiktoken", "tiktoken")[0]


def _encode(tmp_path, capsys, tokenizer, text: str, *extra: str):
    corpus = tmp_path / "in.txt"
    corpus.write_text(text, encoding="utf-8")
    out = tmp_path / "ids.npy"
    assert main(["encode", "--tokenizer", str(tokenizer), str(corpus), "--out", str(out), *extra]) == 0
    return np.load(out).tolist(), capsys.readouterr().err


def test_the_note_names_the_special_tokens_given_for_a_tiktoken_file(tmp_path, capsys):
    ids, err = _encode(
        tmp_path, capsys, _tiktoken(tmp_path), "the<|endoftext|>", "--special-token", "<|endoftext|>=300"
    )
    assert ids == [257, 300]
    assert "no special tokens are known" not in err and "the text holds" not in err
    assert "GPT-2's pattern is assumed" in err
    assert "the special tokens are the ones given (<|endoftext|>=300)" in err


def test_special_looking_text_is_named_when_the_tokenizer_knows_none(tmp_path, capsys):
    ids, err = _encode(
        tmp_path, capsys, _tiktoken(tmp_path), "the end<|endoftext|>the<|endoftext|><|pad|>\n" * 3
    )
    assert 300 not in ids and ids.count(ord("|")) == 18  # (plain text, as said)
    assert (
        "note: the text holds '<|endoftext|>' 6 times (and 1 other such string), encoded as plain text "
        "(the tokenizer knows no special tokens); give --special-token '<|endoftext|>=ID' if it is one"
    ) in err


def test_only_the_first_mib_is_read_for_it(tmp_path, capsys):
    text = "<|endoftext|> the\n" * 70_000  # (1.26 MB: 58,254 of them in the first MiB)
    _ids, err = _encode(tmp_path, capsys, _tiktoken(tmp_path), text)
    in_head = text.encode()[: 1 << 20].count(b"<|endoftext|>")
    assert f"holds '<|endoftext|>' {in_head:,} times in its first MiB, encoded as plain text" in err


def test_nothing_is_said_when_the_tokenizer_knows_special_tokens(tmp_path, capsys):
    export_all(tmp_path / "tok", TokenizerSpec.from_merges(MERGES, ["<|endoftext|>"]), "gpt2")
    ids, err = _encode(tmp_path, capsys, tmp_path / "tok" / "vocab.json", "the<|endoftext|>")
    assert ids == [258, 256] and "the text holds" not in err
    # GPT-2 files that know none: the hint gives the token without an id
    export_all(tmp_path / "none", TokenizerSpec.from_merges(MERGES), "gpt2")
    _ids, err = _encode(tmp_path, capsys, tmp_path / "none" / "vocab.json", "the<|endoftext|>")
    assert "give --special-token '<|endoftext|>' if it is one" in err
