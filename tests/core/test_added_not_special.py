"""Added tokens a tokenizer.json marks ``"special": false`` (OLMo 1's 24 runs of spaces and its
``|||EMAIL_ADDRESS|||`` …): they keep that flag through import and export, with HF's ids."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tokenizers import AddedToken, decoders, normalizers, pre_tokenizers
from tokenizers import Tokenizer as HF
from tokenizers.models import BPE
from tokenizers.trainers import BpeTrainer

from core import Tokenizer
from core.evaluation.token_home import token_home
from core.formats import export_all, load_any

CORPUS = ["the cat sat on the mat.    indented    code\n        deeper |||EMAIL||| end"] * 30
PLAIN = ["    ", "        ", "|||EMAIL|||"]
TEXTS = [
    "the cat        sat",
    "x    y |||EMAIL||| z<|endoftext|>w",
    "    lead and trail    ",
    "no added tokens here",
]


def _hf(*, simple: bool) -> HF:
    """A byte-level BPE with one special token and three added tokens that are not special. ``simple``:
    nothing else the pipeline does (ignore_merges, no normalizer): the file our own exports write."""
    tok = HF(BPE(ignore_merges=simple))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(
        CORPUS,
        BpeTrainer(
            vocab_size=320,
            show_progress=False,
            special_tokens=["<|endoftext|>"],
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        ),
    )
    if not simple:
        tok.normalizer = normalizers.NFC()
    tok.add_tokens([AddedToken(t, normalized=False, special=False) for t in PLAIN])
    return tok


@pytest.mark.parametrize("simple", [True, False], ids=["simple-file", "with-pipeline"])
def test_the_flag_and_the_ids_survive_import_and_export(tmp_path: Path, simple: bool) -> None:
    hf = _hf(simple=simple)
    src = tmp_path / "tokenizer.json"
    hf.save(str(src))
    spec = load_any(src)
    assert spec.added_not_special == frozenset(PLAIN)
    assert set(spec.special_tokens) == {"<|endoftext|>", *PLAIN}  # (all whole in text, never merged)
    written = export_all(tmp_path / "out", spec, ["hf", "native"])
    out_data = json.loads(written["hf"][0].read_text(encoding="utf-8"))
    flags = {t["content"]: t["special"] for t in out_data["added_tokens"]}
    assert flags == {"<|endoftext|>": True, **dict.fromkeys(PLAIN, False)}
    out = HF.from_file(str(written["hf"][0]))
    for t in TEXTS:
        ids = hf.encode(t).ids
        assert out.encode(t).ids == ids == Tokenizer.from_spec(spec).encode(t), t
        # skipping special tokens keeps the added ones, as in the original
        assert out.decode(ids, skip_special_tokens=True) == hf.decode(ids, skip_special_tokens=True), t
    again = load_any(written["native"][0])  # (the native file keeps the flag too)
    assert again.added_not_special == frozenset(PLAIN)


def test_the_tokenizer_and_trace_tell_them_from_special_tokens(tmp_path: Path) -> None:
    hf = _hf(simple=False)
    hf.save(str(tmp_path / "tokenizer.json"))
    tok = Tokenizer.from_spec(load_any(tmp_path / "tokenizer.json"))
    plain_id, special_id = hf.token_to_id("    "), hf.token_to_id("<|endoftext|>")
    assert tok.is_plain_added(plain_id) and tok.is_special(plain_id)
    assert not tok.is_plain_added(special_id) and tok.is_special(special_id)
    assert "an added token, not special" in token_home(tok, plain_id, []).describe()
    assert "a special token" in token_home(tok, special_id, []).describe()
    assert token_home(tok, plain_id, []).to_json()["is_added_not_special"] is True


def test_inspect_lists_them_apart_from_the_special_tokens(tmp_path: Path) -> None:
    from core.evaluation.inspect import inspect_tokenizer

    hf = _hf(simple=False)
    hf.save(str(tmp_path / "tokenizer.json"))
    r = inspect_tokenizer(Tokenizer.from_spec(load_any(tmp_path / "tokenizer.json")))
    assert r.specials == [hf.token_to_id("<|endoftext|>")]
    assert r.added == sorted(hf.token_to_id(t) for t in PLAIN)
    assert "1 special, 3 added (not special)" in r.summary() and r.to_json()["added"] == r.added
