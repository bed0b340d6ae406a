"""A vocab without the 13 bytes that never occur in UTF-8 (GPT-NeoX, OLMo 1, DeepSeek Coder) opens in
every format we write: the native bpe.json keeps it whole, and the GPT-2 and tiktoken files written
with ``lossy=True`` open too, with the ids of HF ``tokenizers`` for any UTF-8 text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tokenizers import Tokenizer as HF

from core import Tokenizer
from core.bpe.byte_level import token_to_str
from core.errors import BPEError
from core.formats import load_any, save

from .test_hf_pipeline import TEXTS, trained

NON_UTF8 = [0xC0, 0xC1, *range(0xF5, 0x100)]


@pytest.fixture(scope="module")
def neox_like(tmp_path_factory) -> tuple[HF, Path]:
    """A trained byte-level BPE with the 13 byte tokens taken out of its vocab, as NeoX has it."""
    data = json.loads(trained().to_str())
    for b in NON_UTF8:
        del data["model"]["vocab"][token_to_str(bytes([b]))]
    path = tmp_path_factory.mktemp("neox") / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return HF.from_file(str(path)), path


@pytest.mark.parametrize("fmt", ["native", "gpt2", "tiktoken", "hf"])
def test_each_export_opens_with_hf_ids(neox_like, tmp_path: Path, fmt: str) -> None:
    hf, path = neox_like
    spec = load_any(path)
    written = save(spec, tmp_path, fmt, lossy=True)
    back = Tokenizer.from_spec(load_any(written[0]))
    for t in TEXTS:
        assert back.encode(t, add_special_tokens=False) == hf.encode(t, add_special_tokens=False).ids, t
    assert back.decode(back.encode("plain text")) == "plain text"


def test_text_that_needs_a_missing_byte_is_refused_by_position(neox_like, tmp_path: Path) -> None:
    _, path = neox_like
    written = save(load_any(path), tmp_path, "tiktoken", lossy=True)
    tok = Tokenizer.from_spec(load_any(written[0]))
    with pytest.raises(BPEError, match="0xff"):
        tok.encode("ab" + b"\xff".decode("utf-8", "surrogateescape"))


def test_other_missing_bytes_are_still_refused(tmp_path: Path) -> None:
    data = json.loads(trained().to_str())
    del data["model"]["vocab"][token_to_str(b"\x07")]
    (tmp_path / "t.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(BPEError, match=r"no single-byte token for 1 byte\(s\) \(0x07\)"):
        load_any(tmp_path / "t.json")
