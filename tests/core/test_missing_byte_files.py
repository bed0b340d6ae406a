"""A file with a byte its tokenizer has no token for (OLMo 1 and GPT-NeoX leave out the 13 bytes that
never occur in UTF-8): every command that encodes files says which file, where in it, and which
tokenizer, instead of a character index inside one block, or a KeyError (extending such a tokenizer)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core import Tokenizer
from core.errors import BPEError, TokenizerError
from core.evaluation.compare import compare_tokenizers
from core.evaluation.evaluate import EvalText, evaluate, sample_documents
from core.evaluation.inspect import inspect_tokenizer
from core.formats.spec import TokenizerSpec
from core.tokenization.extend import ExtendTrainer
from core.tokenization.missing_bytes import first_byte_in
from core.tokenization.npy import encode_file_to_npy

NON_UTF8 = {0xC0, 0xC1, *range(0xF5, 0x100)}
HEAD = ("the cat sat on the mat. " * 400).encode()  # bytes before the bad one: 9,600
BAD_AT = len(HEAD) + len(b"odd ")


def _holed() -> Tokenizer:
    """A byte-level tokenizer without the byte tokens that never occur in UTF-8, as OLMo 1 has it."""
    base = TokenizerSpec.from_merges([(b"t", b"h"), (b"th", b"e"), (b" ", b"the")])
    vocab = {i: b for i, b in base.vocab.items() if len(b) > 1 or b[0] not in NON_UTF8}
    return Tokenizer(vocab, base.merges)


def _whole() -> Tokenizer:
    return Tokenizer.from_spec(TokenizerSpec.from_merges([(b"t", b"h")]))


@pytest.fixture
def bad_file(tmp_path: Path) -> Path:
    p = tmp_path / "dict.txt"
    p.write_bytes(HEAD + b"odd \xfe then \xff end\n" + HEAD)
    return p


def _says_where(e: BPEError, path: Path, tokenizer: str) -> None:
    msg = str(e)
    assert msg.startswith(f"{path}: the byte 0xfe at offset {BAD_AT:,} "), msg
    assert f"and {tokenizer} has no token for it" in msg and "iconv -c" in msg, msg
    assert e.params == {"file": str(path), "tokenizer": tokenizer, "offset": BAD_AT, "byte": 0xFE}


def test_the_tokenizer_says_which_bytes_it_cannot_encode() -> None:
    assert _holed().unencodable_bytes == tuple(sorted(NON_UTF8))
    assert _whole().unencodable_bytes == ()
    with pytest.raises(TokenizerError, match="0xff") as info:
        _holed().encode("ab \udcff")
    assert info.value.code == "byte_not_in_vocab" and info.value.params == {"byte": 0xFF}


def test_first_byte_in_a_file_across_read_chunks(tmp_path: Path, monkeypatch) -> None:
    import core.tokenization.missing_bytes as mb

    monkeypatch.setattr(mb, "CHUNK", 7)
    p = tmp_path / "t.bin"
    p.write_bytes(b"abcdefghij\xc1k\xffl")
    assert first_byte_in(p, NON_UTF8) == (10, 0xC1)
    assert first_byte_in(p, {0xFF}) == (12, 0xFF)
    assert first_byte_in(p, {0xF5}) is None and first_byte_in(p, ()) is None
    assert first_byte_in(b"ab\xf7", NON_UTF8) == (2, 0xF7)


def test_extending_says_the_file_and_offset_instead_of_a_key_error(bad_file: Path) -> None:
    with pytest.raises(TokenizerError) as info:
        ExtendTrainer.from_files(_holed(), [bad_file], workers=1)
    _says_where(info.value, bad_file, "the base tokenizer")
    # from texts (no file to name): the byte, still a clear error
    with pytest.raises(TokenizerError, match="the byte 0xff"):
        ExtendTrainer.from_texts(_holed(), ["fine text", "bad \udcff"])
    ExtendTrainer.from_files(_whole(), [bad_file], workers=1)  # a vocab with all 256 bytes: trained


def test_encoding_a_file_to_npy_names_the_offset(bad_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "ids.npy"
    with pytest.raises(TokenizerError) as info:
        encode_file_to_npy(_holed(), bad_file, out, workers=1)
    _says_where(info.value, bad_file, "the tokenizer")
    assert not out.exists()


@pytest.mark.parametrize("workers", [1, 2])
def test_evaluate_names_the_text_and_the_tokenizer(bad_file: Path, workers: int) -> None:
    texts = [EvalText.from_bytes("clean", HEAD), EvalText.from_file(bad_file)]
    with pytest.raises(TokenizerError) as info:
        evaluate(
            [("gpt2-like", _whole()), ("olmo-like", _holed())],
            texts,
            workers=workers,
            block_bytes=1 << 12,
            single_process_bytes=0,
        )
    _says_where(info.value, bad_file, "olmo-like")
    # text in memory (sampled documents): named by its name, offset into its bytes
    with pytest.raises(TokenizerError) as info:
        evaluate([("olmo-like", _holed())], [EvalText.from_bytes("sample", bad_file.read_bytes())], workers=1)
    assert str(info.value).startswith(f"sample: the byte 0xfe at offset {BAD_AT:,} ")


def test_inspect_and_compare_with_a_corpus_name_the_file(bad_file: Path) -> None:
    with pytest.raises(TokenizerError) as info:
        inspect_tokenizer(_holed(), [bad_file])
    _says_where(info.value, bad_file, "the tokenizer")
    with pytest.raises(TokenizerError) as info:
        compare_tokenizers(_whole(), _holed(), [bad_file])
    _says_where(info.value, bad_file, "tokenizer B")


def test_the_cli_prints_one_line_naming_the_file(bad_file: Path, tmp_path: Path, capsys) -> None:
    from core.cli.main import main
    from core.formats import save

    save(_holed().to_spec(), tmp_path / "tok", "native")
    code = main(
        ["encode", "-q", "--workers", "1", "--tokenizer", str(tmp_path / "tok"), "--out", str(tmp_path / "o.npy"),
         str(bad_file)]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and f"{bad_file}: the byte 0xfe at offset {BAD_AT:,}" in err and "Traceback" not in err


def test_evaluate_on_sampled_documents_names_the_file_and_its_offset(tmp_path: Path) -> None:
    """Sampled documents are encoded from a copy in memory; the offset said is the file's (where an
    editor or ``xxd -s`` finds the byte), not the sample's, and the file is named."""
    sep = b"<|endoftext|>"
    docs = [b"the cat sat. " * 50 + b"doc %d\n" % i for i in range(40)]
    docs[33] = docs[33] + b"odd \xfe end\n"
    p = tmp_path / "docs.txt"
    p.write_bytes(sep.join(docs))
    in_file = p.read_bytes().index(b"\xfe")
    text = sample_documents(p, 5, seed=5)
    assert text.data is not None and b"\xfe" in text.data  # (this seed draws the document that has it)
    assert text.data.index(b"\xfe") != in_file
    with pytest.raises(TokenizerError) as info:
        evaluate([("olmo-like", _holed())], [text], workers=1)
    assert str(info.value).startswith(f"{p}: the byte 0xfe at offset {in_file:,} "), str(info.value)
    assert info.value.params == {"file": str(p), "tokenizer": "olmo-like", "offset": in_file, "byte": 0xFE}
