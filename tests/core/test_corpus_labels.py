"""What a corpus is called when it is refused: UTF-16 without a byte-order mark (Chinese too), gzip for
every command, all-NUL data (not "UTF-32")."""

from __future__ import annotations

import gzip
import os

import pytest

from core.cli import main
from core.errors import CorpusError
from core.pretokenization.pretokenize import count_pretokens, sniff_encoding

ZH = "深度学习模型需要大量的训练数据。分词器把文本切成词元。\n" * 300
JA = "日本語のテキストです。トークナイザーの学習に使います。\n" * 300
MIXED = "这是一个中文的句子，用于测试编码检测。\n第二行：模型、分词器和语料。 Hello 2024\n" * 200


@pytest.mark.parametrize("text", [ZH, JA, MIXED], ids=["zh", "ja", "mixed"])
@pytest.mark.parametrize("kind", ["UTF-16-LE", "UTF-16-BE"])
@pytest.mark.parametrize("allow_nul", [False, True])
def test_utf16_without_a_bom(tmp_path, text, kind, allow_nul):
    path = tmp_path / "c.txt"
    path.write_bytes(text.encode(kind.lower()))
    with pytest.raises(CorpusError, match=f"looks like {kind} text without a byte-order mark"):
        count_pretokens(path, [], "gpt2", allow_nul=allow_nul)


def test_utf8_text_with_a_few_nul_bytes_still_trains_with_allow_nul(tmp_path):
    path = tmp_path / "c.txt"
    path.write_bytes((ZH + "\0abc\0 \0x").encode() * 3)
    with pytest.raises(CorpusError, match="binary"):
        count_pretokens(path, [], "gpt2")
    counts, stats = count_pretokens(path, [], "gpt2", allow_nul=True)
    assert stats.size_bytes == path.stat().st_size and counts


def test_all_nul_bytes_are_not_utf32(tmp_path):
    path = tmp_path / "zeros.bin"
    path.write_bytes(bytes(100_000))
    for allow in (False, True):
        with pytest.raises(CorpusError, match="holds only NUL bytes") as e:
            count_pretokens(path, [], "gpt2", allow_nul=allow)
        assert "UTF-32" not in str(e.value)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="a system without /dev/zero")
def test_dev_zero(capsys):
    assert (
        main(["train", "/dev/zero", "--vocab-size", "300", "--out", "/nonexistent-never-written", "-q"]) == 2
    )
    err = capsys.readouterr().err
    assert "holds only NUL bytes" in err and "UTF-32" not in err


def test_utf32_without_a_bom_is_still_named(tmp_path):
    with pytest.raises(CorpusError, match="UTF-32-LE"):
        sniff_encoding(("hello world\n" * 100).encode("utf-32-le"), "c.txt")


def test_train_names_a_gzip_file_as_count_and_encode_do(tmp_path, capsys):
    path = tmp_path / "c.txt.gz"
    path.write_bytes(gzip.compress(("hello world " * 1000).encode()))
    assert main(["train", str(path), "--vocab-size", "300", "--out", str(tmp_path / "o"), "-q"]) == 2
    err = capsys.readouterr().err
    assert "is gzip-compressed" in err and f"zcat {path} | bpe-explorer train -" in err


@pytest.fixture
def small_tokenizer(tmp_path):
    from core import Trainer
    from core.formats import export_all

    t = Trainer.from_text("hello world hello there " * 20, ["<|endoftext|>"])
    t.run(270)
    export_all(tmp_path / "tok", t, ["native"])
    return str(tmp_path / "tok")


def test_encode_and_eval_refuse_utf16_binary_and_compressed_text(tmp_path, capsys, small_tokenizer):
    # encode wrote a .npy of a UTF-16 file's bytes (one id a byte) and eval gave 1.0 bytes per token
    # for it, or for a gzip file, without a word: both now refuse them as train does
    text = "hello world, hello there\n" * 200
    files = {
        "u16.txt": text.encode("utf-16"),
        "u16le.txt": text.encode("utf-16-le"),  # no byte-order mark
        "nul.txt": text.encode().replace(b",", b"\0"),
        "c.txt.gz": gzip.compress(text.encode()),
    }
    says = {
        "u16.txt": "looks like UTF-16-LE",
        "u16le.txt": "looks like UTF-16-LE",
        "nul.txt": "--allow-nul",
        "c.txt.gz": "gzip-compressed",
    }
    out = tmp_path / "ids.npy"
    for name, data in files.items():
        path = tmp_path / name
        path.write_bytes(data)
        assert main(["encode", "--tokenizer", small_tokenizer, str(path), "--out", str(out), "-q"]) == 2
        assert says[name] in capsys.readouterr().err, name
        assert not out.exists()
        assert main(["eval", "--tokenizer", small_tokenizer, str(path), "-q", "--workers", "1"]) == 2
        captured = capsys.readouterr()
        assert says[name] in captured.err and captured.out == "", name
    # UTF-8 text that holds NUL bytes: --allow-nul, as for train
    nul = str(tmp_path / "nul.txt")
    assert main(["encode", "--tokenizer", small_tokenizer, nul, "--out", str(out), "-q", "--allow-nul"]) == 0
    assert main(["eval", "--tokenizer", small_tokenizer, nul, "-q", "--workers", "1", "--allow-nul"]) == 0
    assert out.exists()
