"""Compressed files and NumPy arrays are named and refused the same way everywhere (issue 28), and a
tiktoken file exported beside our bpe.json takes its pattern and special tokens from it."""

from __future__ import annotations

import bz2
import gzip
import lzma
import shutil

import numpy as np
import pytest

from core import Trainer, train_bpe
from core.cli import main
from core.errors import CorpusError, FormatError
from core.formats import as_spec, detect_format, export_all, load_any
from core.formats.companion import load_with_companion

TEXT = ("the cat sat on the mat; the dog sat on the log. " * 200).encode()
PACKERS = {"gz": (gzip.compress, "gzip", "gunzip -k"), "bz2": (bz2.compress, "bzip2", "bunzip2 -k"),
           "xz": (lzma.compress, "xz", "unxz -k")}  # fmt: skip


def _spec(corpus, vocab_size, specials, pattern="gpt2"):
    t = Trainer.from_file(corpus, specials, pattern=pattern)
    t.run(vocab_size)
    return as_spec(t)


@pytest.fixture
def npy(tmp_path):
    path = tmp_path / "ids.npy"
    np.save(path, (np.arange(4000) % 200).astype(np.uint16))  # every other byte NUL: once "UTF-16-LE"
    return path


@pytest.mark.parametrize("ext", list(PACKERS))
def test_a_compressed_corpus_is_named_with_the_way_to_unpack_it(tmp_path, capsys, ext):
    pack, kind, command = PACKERS[ext]
    path = tmp_path / f"corpus.txt.{ext}"
    path.write_bytes(pack(TEXT))
    with pytest.raises(CorpusError, match=f"{kind}-compressed") as info:
        train_bpe(path, 300, [])
    assert info.value.code == "corpus_compressed" and info.value.params["kind"] == kind
    assert main(["train", str(path), "--vocab-size", "300", "--out", str(tmp_path / "o"), "-q"]) == 2
    err = capsys.readouterr().err
    assert (
        f"{kind}-compressed" in err
        and f"{command} corpus.txt.{ext}" in info.value.params["command"] + " " + path.name
    )
    # one suggestion, with the file's name (it said "gunzip -k c.gz" and then "zcat FILE | …")
    stream = {"gzip": "zcat", "bzip2": "bzcat", "xz": "xzcat"}[kind]
    assert f"{stream} {path} | bpe-explorer train -" in err and "FILE" not in err, err
    assert "binary" not in err and "UTF-8" not in err


def test_a_npy_file_is_not_called_utf16_text(tmp_path, capsys, npy):
    with pytest.raises(CorpusError, match="NumPy array") as info:
        train_bpe(npy, 300, [])
    assert info.value.code == "corpus_npy"
    tok = tmp_path / "tok"
    train_bpe_out = tmp_path / "c.txt"
    train_bpe_out.write_bytes(TEXT)
    assert main(["train", str(train_bpe_out), "--vocab-size", "270", "--out", str(tok), "-q"]) == 0
    assert main(["encode", "--tokenizer", str(tok), str(npy), "--out", str(tmp_path / "o.npy"), "-q"]) == 2
    err = capsys.readouterr().err
    assert "NumPy array" in err and "UTF-16" not in err
    assert not (tmp_path / "o.npy").exists()


@pytest.mark.parametrize("ext", list(PACKERS))
def test_a_compressed_tokenizer_file_is_named(tmp_path, capsys, ext):
    pack, kind, command = PACKERS[ext]
    corpus = tmp_path / "c.txt"
    corpus.write_bytes(TEXT)
    export_all(tmp_path / "tok", _spec(corpus, 270, []), ["native"])
    packed = tmp_path / f"bpe.json.{ext}"
    packed.write_bytes(pack((tmp_path / "tok" / "bpe.json").read_bytes()))
    with pytest.raises(FormatError, match=f"{kind}-compressed") as info:
        detect_format(packed)
    assert info.value.code == "tokenizer_compressed"
    with pytest.raises(FormatError, match=f"{command} bpe.json.{ext}"):
        load_any(packed)
    argv = ["encode", "--tokenizer", str(packed), str(corpus), "--out", str(tmp_path / "o.npy"), "-q"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"{kind}-compressed" in err and "not valid UTF-8" not in err


def test_a_npy_file_given_as_tokenizer_is_named(npy):
    with pytest.raises(FormatError, match=r"NumPy array.*not a tokenizer file") as info:
        load_any(npy)
    assert info.value.code == "tokenizer_npy"


def test_a_binary_corpus_on_the_command_line_names_the_option_not_the_argument(tmp_path, capsys):
    path = tmp_path / "nul.txt"
    path.write_bytes(b"abc\x00def\n" * 300)
    assert main(["train", str(path), "--vocab-size", "260", "--out", str(tmp_path / "o"), "-q"]) == 2
    err = capsys.readouterr().err
    assert "--allow-nul" in err and "allow_nul" not in err and "True" not in err


def test_an_exported_tiktoken_file_reads_its_settings_from_the_bpe_json_beside_it(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_bytes(TEXT)
    specials = ["<|endoftext|>", "<|pad|>"]
    trained = _spec(corpus, 300, specials, pattern="gpt4")
    export_all(tmp_path / "out", trained, ["native", "tiktoken"])
    spec = load_any(tmp_path / "out" / "bpe.tiktoken")
    assert spec.pattern == trained.pattern and spec.special_ids == trained.special_ids
    assert spec.vocab == trained.vocab and spec.tie_break == trained.tie_break
    assert any("bpe.json" in n for n in spec.notes)
    # a bpe.json of another tokenizer beside it is not used
    other = _spec(corpus, 280, ["<|x|>"])
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(tmp_path / "out" / "bpe.tiktoken", alone / "bpe.tiktoken")
    export_all(alone, other, ["native"])
    assert load_with_companion(alone / "bpe.tiktoken") is None
    assert load_any(alone / "bpe.tiktoken").special_tokens == ()


def test_an_engine_error_keeps_its_code_for_the_app_to_translate(tmp_path):
    """The app's engine process sends a core error back with its code and details (not just English)."""
    from core.engine.client import Engine

    path = tmp_path / "c.txt.xz"
    path.write_bytes(lzma.compress(TEXT))
    engine = Engine()
    try:
        with pytest.raises(CorpusError) as info:
            engine.load(str(path), [], "gpt2", "lexicographic")
    finally:
        engine.close()
    assert info.value.code == "corpus_compressed"
    assert info.value.params == {"name": "c.txt.xz", "kind": "xz", "command": "unxz -k"}


def test_an_export_whose_ranks_are_a_known_files_keeps_its_own_special_tokens(tmp_path, monkeypatch):
    """Qwen2.5 exported to tiktoken writes qwen.tiktoken byte for byte (same ranks), but its special
    tokens from id 151646 on are not Qwen 1's. Reopened, the file was taken for the known encoding:
    Qwen 1's 208 special tokens, so Qwen2.5's <|object_ref_start|> … were read as plain text. The
    bpe.json written beside it says which tokenizer it was, and now wins."""
    from core.formats import known
    from core.formats.known import KnownEncoding, file_sha256

    corpus = tmp_path / "c.txt"
    corpus.write_bytes(TEXT)
    trained = _spec(corpus, 300, ["<|endoftext|>", "<|object_ref_start|>"], pattern="gpt4")
    export_all(tmp_path / "out", trained, ["native", "tiktoken"])
    path = tmp_path / "out" / "bpe.tiktoken"
    first = {"<|endoftext|>": trained.special_ids["<|endoftext|>"], "<|extra_0|>": 299}
    monkeypatch.setitem(  # the same bytes as a known encoding whose second special token is another
        known.KNOWN_BY_HASH,
        file_sha256(path),
        KnownEncoding("qwen-like", trained.pattern, first, "a known file"),
    )
    spec = load_any(path)
    assert spec.special_ids == trained.special_ids and spec.vocab == trained.vocab
    assert any("bpe.json beside it" in n for n in spec.notes) and not any(
        "qwen-like" in n for n in spec.notes
    )
    # alone, the file is the known encoding (its pattern and special ids)
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(path, alone / "bpe.tiktoken")
    spec = load_any(alone / "bpe.tiktoken")
    assert spec.special_ids == first and any("qwen-like" in n for n in spec.notes)


@pytest.mark.parametrize(
    "name, data",
    [
        (
            "tokenizer_config.json",
            {"tokenizer_class": "Qwen2Tokenizer", "model_max_length": 131072, "bos_token": None},
        ),
        ("special_tokens_map.json", {"bos_token": "<s>", "eos_token": "</s>"}),
        ("config.json", {"architectures": ["LlamaForCausalLM"], "vocab_size": 128256}),
    ],
)
def test_a_models_settings_file_is_named_and_its_tokenizer_json_offered(tmp_path, name, data):
    """Picked beside tokenizer.json in a model's folder, tokenizer_config.json (or special_tokens_map.json,
    config.json) was 'a JSON file of no known tokenizer kind'."""
    import json

    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError) as refused:
        load_any(path)
    assert (
        "is a HuggingFace settings file" in str(refused.value) and refused.value.code == "tokenizer_settings"
    )
    assert "tokenizer.json" in str(refused.value)
    trained = _spec_of_text(tmp_path)
    export_all(tmp_path, trained, ["hf"])
    with pytest.raises(FormatError) as refused:
        load_any(path)
    assert refused.value.code == "tokenizer_settings_beside"
    assert str(refused.value).endswith(f"open the tokenizer.json beside it ({tmp_path / 'tokenizer.json'})")
    assert load_any(tmp_path / "tokenizer.json").vocab == trained.vocab


def _spec_of_text(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_bytes(TEXT)
    return _spec(corpus, 280, [])
