"""A special token whose bytes are not UTF-8 (byte-exact, for a non-UTF-8 corpus; kept as surrogate
escapes): vocab.json + merges.txt and bpe.json hold it and reopen with it; tokenizer.json and tiktoken
cannot hold it as a special token, so exporting them is refused unless asked for as lossy, and the
tokenizer.json then written is one HF ``tokenizers`` reads, with the token as an ordinary one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core import Tokenizer
from core.cli import main
from core.errors import FormatError
from core.formats import export_all, export_losses, load_any, save
from core.formats.spec import TokenizerSpec

RAW = b"\xed\xa0\x80"  # (an encoded surrogate: never valid UTF-8)
SPECIAL = RAW.decode("utf-8", "surrogateescape")  # what a command-line argument of these bytes becomes
TEXT = "the cat sat on the mat, the robot watered the garden\n" * 40


def _spec() -> TokenizerSpec:
    return TokenizerSpec.from_merges([(b"t", b"h"), (b"th", b"e"), (b" ", b"the")], [SPECIAL])


def _corpus(tmp_path: Path) -> Path:
    p = tmp_path / "corpus.txt"
    p.write_bytes(TEXT.encode() + RAW + TEXT.encode())
    return p


def _train_argv(tmp_path: Path, out: Path) -> list[str]:
    """``train`` on a corpus holding the special token's bytes, into ``out``."""
    return [
        "train",
        str(_corpus(tmp_path)),
        "--vocab-size",
        "270",
        "--special-token",
        SPECIAL,
        "--out",
        str(out),
    ]


def test_train_refuses_before_the_run_and_names_the_formats_that_hold_it(tmp_path, capsys):
    out = tmp_path / "out"
    rc = main(_train_argv(tmp_path, out))
    err = capsys.readouterr().err
    assert rc == 2 and not out.exists()
    assert r"special token b'\xed\xa0\x80' is not UTF-8: the hf and tiktoken files cannot hold it" in err
    assert "--format gpt2,native" in err


def test_gpt2_and_native_exports_reopen_with_the_special_token(tmp_path, capsys):
    out = tmp_path / "out"
    assert main([*_train_argv(tmp_path, out), "--format", "gpt2,native", "-q"]) == 0
    native = load_any(out / "bpe.json")
    text = (TEXT.encode() + RAW + b"the").decode("utf-8", "surrogateescape")
    want = Tokenizer.from_spec(native).encode(text)
    assert native.special_ids == {SPECIAL: 256} and 256 in want
    (out / "bpe.json").unlink()  # vocab.json + merges.txt alone
    spec = load_any(out / "vocab.json")
    assert spec.special_tokens == (SPECIAL,) and Tokenizer.from_spec(spec).encode(text) == want


def test_export_of_hf_or_tiktoken_is_refused_naming_the_bytes(tmp_path):
    spec = _spec()
    assert export_losses(spec, "gpt2") == export_losses(spec, "native") == []
    assert export_losses(spec, "hf") == [
        r"1 special token(s) whose bytes are not UTF-8 (b'\xed\xa0\x80' (id 256); only vocab.json + "
        "merges.txt and bpe.json hold them as special tokens)"
    ]
    for fmt in ("hf", "tiktoken"):
        with pytest.raises(
            FormatError, match=r"special token b'\\xed\\xa0\\x80' \(id 256\) is not UTF-8"
        ) as e:
            export_all(tmp_path / fmt, spec, [fmt])
        assert e.value.code == "export_special_not_utf8" and not (tmp_path / fmt).exists()
    assert sorted(p.name for ps in export_all(tmp_path / "ok", spec, "gpt2,native").values() for p in ps) == [
        "bpe.json",
        "merges.txt",
        "vocab.json",
    ]


def test_a_lossy_tokenizer_json_is_one_hf_reads(tmp_path):
    tokenizers = pytest.importorskip("tokenizers")
    spec = _spec()
    path = save(spec, tmp_path, "hf", lossy=True)[0]
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["added_tokens"] == []
    hf = tokenizers.Tokenizer.from_file(str(path))  # (was: "lone leading surrogate in hex escape")
    ours = Tokenizer.from_spec(spec)
    for text in ("the cat", " the them", "théâtre"):
        assert hf.encode(text).ids == ours.encode(text)
    back = load_any(path)
    assert back.vocab == spec.vocab and back.special_tokens == ()  # (an ordinary token, at its id)


def test_convert_asks_for_allow_lossy(tmp_path, capsys):
    export_all(tmp_path / "in", _spec(), "native")
    src = str(tmp_path / "in" / "bpe.json")
    assert main(["convert", src, "--out", str(tmp_path / "a"), "--format", "hf"]) == 2
    assert "not UTF-8" in capsys.readouterr().err and not (tmp_path / "a").exists()
    assert (
        main(["convert", src, "--out", str(tmp_path / "b"), "--format", "hf,tiktoken", "--allow-lossy"]) == 0
    )
    err = capsys.readouterr().err
    assert "warning: the hf files lack 1 special token whose bytes are not UTF-8" in err
    assert "--special-token" not in err  # (no TOKEN=ID a reader of the tiktoken file could give)
