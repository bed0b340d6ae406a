"""A JSON file ``{"merges": [...]}`` with no ``model`` (a student's dump, a tokenizer.json's model cut
out of it) opens: both shapes of merge HF writes, ids from a vocab in the file or beside it, else
derived (bytes, special tokens, merges); what cannot be read is refused saying what is missing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tokenizers import Tokenizer as HF
from tokenizers import decoders, pre_tokenizers
from tokenizers.models import BPE
from tokenizers.trainers import BpeTrainer

from core import Tokenizer
from core.bpe.byte_level import str_to_token
from core.errors import FormatError
from core.formats import load_any

CORPUS = [
    "The quick brown fox jumps over the lazy dog. Café résumé naïve 1234567",
    "hello hello hello world world the the the and and of of 中文 中文 🙃",
] * 20
TEXTS = ["Hello world, the quick fox!", "naïve café 1234 中文 🙃", "  spaces\n\nand lines ", ""]


@pytest.fixture(scope="module")
def hf() -> HF:
    tok = HF(BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(
        CORPUS,
        BpeTrainer(
            vocab_size=400,
            show_progress=False,
            special_tokens=["<|endoftext|>"],
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        ),
    )
    return tok


def _model(hf: HF) -> dict:
    return json.loads(hf.to_str())["model"]


@pytest.mark.parametrize("shape", ["strings", "pairs"])
def test_merges_with_the_vocab_beside_give_hfs_ids(hf: HF, tmp_path: Path, shape: str) -> None:
    model = _model(hf)
    pairs = [m if isinstance(m, list) else m.split(" ") for m in model["merges"]]
    merges = [" ".join(p) for p in pairs] if shape == "strings" else pairs
    (tmp_path / "mine_merges.json").write_text(json.dumps({"merges": merges}), encoding="utf-8")
    (tmp_path / "mine_vocab.json").write_text(json.dumps(model["vocab"]), encoding="utf-8")
    spec = load_any(tmp_path / "mine_merges.json")
    ours = Tokenizer.from_spec(spec)
    for t in TEXTS:
        assert ours.encode(t) == hf.encode(t).ids, t
    assert spec.special_tokens == ("<|endoftext|>",)
    assert any("ids from the vocab beside it (mine_vocab.json)" in n for n in spec.notes), spec.notes


def test_the_vocab_in_the_same_file(hf: HF, tmp_path: Path) -> None:
    model = _model(hf)
    p = tmp_path / "model.json"
    p.write_text(json.dumps({"vocab": model["vocab"], "merges": model["merges"]}), encoding="utf-8")
    ours = Tokenizer.from_spec(load_any(p))
    assert [ours.encode(t) for t in TEXTS] == [hf.encode(t).ids for t in TEXTS]


@pytest.mark.parametrize("shape", ["strings", "pairs"])
def test_merges_alone_derive_the_ids_and_say_so(hf: HF, tmp_path: Path, shape: str) -> None:
    pairs = [m if isinstance(m, list) else m.split(" ") for m in _model(hf)["merges"]]
    merges = [" ".join(p) for p in pairs] if shape == "strings" else pairs
    p = tmp_path / "merges.json"
    p.write_text(json.dumps({"merges": merges}), encoding="utf-8")
    spec = load_any(p, special_tokens=["<|endoftext|>"])
    ours = Tokenizer.from_spec(spec)
    assert spec.vocab[256] == b"<|endoftext|>" and spec.vocab[0] == b"\x00"
    assert [spec.vocab[257 + k] for k in range(3)] == [
        str_to_token(a) + str_to_token(b) for a, b in pairs[:3]
    ]
    for t in [*TEXTS, "a<|endoftext|>b"]:  # the same tokens as HF's, under the derived ids
        ids = ours.encode(t)
        assert [spec.vocab[i] for i in ids] == [
            b"<|endoftext|>" if s == "<|endoftext|>" else str_to_token(s) for s in hf.encode(t).tokens
        ], t
    assert any("holds merges but no vocab: ids are derived" in n for n in spec.notes), spec.notes


def test_a_list_not_built_on_itself_without_a_vocab_says_what_is_missing(tmp_path: Path) -> None:
    p = tmp_path / "merges.json"
    p.write_text(json.dumps({"merges": ["h e", "Ġ he", "l lo"]}), encoding="utf-8")
    with pytest.raises(FormatError) as info:
        load_any(p)
    e = info.value
    assert e.code == "merge_list_needs_vocab" and e.params["n"] == 3 and e.params["token"] == "lo"
    assert "vocab.json" in str(e) and "whole tokenizer.json" in str(e)


def test_a_vocab_beside_that_lacks_a_merges_token_is_named(hf: HF, tmp_path: Path) -> None:
    model = _model(hf)
    vocab = dict(model["vocab"])
    first = model["merges"][0]
    made = "".join(first if isinstance(first, list) else first.split(" "))
    del vocab[made]
    (tmp_path / "merges.json").write_text(json.dumps({"merges": model["merges"]}), encoding="utf-8")
    (tmp_path / "vocab.json").write_text(json.dumps(vocab), encoding="utf-8")
    with pytest.raises(FormatError) as info:
        load_any(tmp_path / "merges.json")
    assert info.value.code == "merge_list_vocab_mismatch" and info.value.params["token"] == made


@pytest.mark.parametrize(
    ("merges", "code"),
    [
        (["h e l"], "merge_list_shape"),
        ([["h", "e", "l"]], "merge_list_shape"),
        ([["h", 1]], "merge_list_shape"),
        (["中 文"], "merge_list_not_byte_level"),
    ],
)
def test_malformed_merges_are_named(tmp_path: Path, merges: list, code: str) -> None:
    p = tmp_path / "m.json"
    p.write_text(json.dumps({"merges": merges}), encoding="utf-8")
    with pytest.raises(FormatError) as info:
        load_any(p)
    assert info.value.code == code and info.value.params["n"] == 1, str(info.value)


def test_a_train_bpe_dump_with_an_id_to_token_vocab(tmp_path: Path) -> None:
    """``json.dump({"vocab": {id: token.decode("latin-1")}, "merges": [[a, b] …]})`` of a student's
    ``train_bpe`` result: the same vocab, merges and special token back."""
    from core.formats.spec import TokenizerSpec

    merges = [(b" ", b"t"), (b"h", b"e"), (b" t", b"he"), (b"\xe4", b"\xb8")]
    spec = TokenizerSpec.from_merges(merges, ["<|endoftext|>"])
    p = tmp_path / "bpe_result.json"
    dump = {
        "vocab": {str(i): b.decode("latin-1") for i, b in spec.vocab.items()},
        "merges": [[a.decode("latin-1"), b.decode("latin-1")] for a, b in merges],
    }
    p.write_text(json.dumps(dump), encoding="utf-8")
    loaded = load_any(p)
    assert loaded.vocab == spec.vocab and tuple(loaded.merges) == tuple(merges)
    assert loaded.special_tokens == ("<|endoftext|>",)
    dump["vocab"]["999"] = 5
    p.write_text(json.dumps(dump), encoding="utf-8")
    with pytest.raises(FormatError) as info:
        load_any(p)
    assert info.value.code == "merge_list_vocab_entry" and "'999': 5" in str(info.value)


def test_trace_takes_the_ids_of_the_vocab_beside(hf: HF, tmp_path: Path, capsys) -> None:
    """(compare, trace and inspect read a JSON merge list as load_any does: with its vocab's ids, not
    derived ones, as they did for a list of pairs.)"""
    from core.cli import main

    model = _model(hf)
    (tmp_path / "merges.json").write_text(json.dumps({"merges": model["merges"]}), encoding="utf-8")
    (tmp_path / "vocab.json").write_text(json.dumps(model["vocab"]), encoding="utf-8")
    want = hf.token_to_id("a")
    assert want != ord("a")  # (the id derived from the merges alone)
    assert main(["trace", str(tmp_path / "merges.json"), "--text", "a", "-q"]) == 0
    assert capsys.readouterr().out.startswith(f"token {want} ")
