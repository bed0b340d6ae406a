"""File formats: lossless round trips, atomic writes, malformed files (FAULTS 20–21)."""

from __future__ import annotations

import base64
import json
import os
import re
from pathlib import Path

import pytest

from core import FormatError, Tokenizer
from core import files as core_files
from core.bpe.byte_level import token_to_str
from core.formats import (
    FORMATS,
    detect_format,
    export_all,
    load_any,
    load_gpt2,
    load_hf,
    load_native,
    load_tiktoken,
    parse_formats,
    save,
    save_gpt2,
    save_native,
)
from core.formats.spec import TokenizerSpec, records_from_spec

from .tok_corpus import EOT, trained_spec

SPECS = {
    "gpt2+invalid-bytes": {"invalid_bytes": True},
    "gpt4": {"pattern": "gpt4", "specials": (EOT, "<|pad|>")},
    "none": {"pattern": "none", "vocab_size": 350, "n_words": 1000},
    "no-specials": {"specials": ()},
    "first-tie": {"tie_break": "first", "specials": ("<|é|>", EOT)},
}


def reload(fmt: str, folder: Path, spec: TokenizerSpec) -> TokenizerSpec:
    if fmt == "gpt2":
        return load_gpt2(folder, pattern=spec.pattern)
    if fmt == "tiktoken":
        return load_tiktoken(
            folder / "bpe.tiktoken", pattern=spec.pattern, special_tokens=list(spec.special_tokens)
        )
    if fmt == "hf":
        return load_hf(folder / "tokenizer.json")
    return load_native(folder / "bpe.json")


@pytest.mark.parametrize("name", list(SPECS))
@pytest.mark.parametrize("fmt", FORMATS)
def test_roundtrip_is_lossless(tmp_path: Path, fmt: str, name: str) -> None:  # FAULTS 20
    spec = trained_spec(**SPECS[name])
    save(spec, tmp_path, fmt)
    back = reload(fmt, tmp_path, spec)
    assert back.vocab == spec.vocab
    assert back.merges == spec.merges
    assert back.special_tokens == spec.special_tokens
    assert back.special_ids == spec.special_ids
    assert back.pattern_regex == spec.pattern_regex
    if fmt == "native":
        assert back.tie_break == spec.tie_break
        assert back.training == spec.training
    text = f"the cat{EOT} 日本語 🙃  x"
    assert Tokenizer.from_spec(back).encode(text) == Tokenizer.from_spec(spec).encode(text)


def test_invalid_utf8_tokens_stay_distinct(tmp_path: Path) -> None:  # FAULTS 20: never errors="ignore"
    merges = [(b"\xff", b"\xfe"), (b"\xfe", b"\xff"), (b"\xc3", b"\xc3"), (b"a", b"\x80")]
    spec = TokenizerSpec.from_merges(merges, [EOT])
    for fmt in FORMATS:
        save(spec, tmp_path, fmt)
        back = reload(fmt, tmp_path, spec)
        assert back.vocab == spec.vocab, fmt
        assert back.merges == spec.merges, fmt
    trained = trained_spec(invalid_bytes=True)
    assert any(b"\xff\xfe" in t for t in trained.vocab.values()), (
        "the trained vocab needs invalid-UTF-8 tokens"
    )


def test_native_keeps_the_training_record(tmp_path: Path) -> None:
    spec = trained_spec()
    save_native(spec, tmp_path / "bpe.json")
    back = load_native(tmp_path / "bpe.json")
    assert back.training is not None and back.training["corpus"] == "generated-0"
    assert back.training["corpus_bytes"] > 0
    records = records_from_spec(back)
    assert [r.pair for r in records] == list(spec.merges)
    assert [r.count for r in records] == spec.training["counts"]
    assert all(r.count > 0 for r in records)
    assert records[3].new_id == Tokenizer.from_spec(back).token_to_id(records[3].token)
    assert records_from_spec(TokenizerSpec.from_merges(spec.merges))[0].count == 0


def test_export_all_and_load_any(tmp_path: Path) -> None:
    spec = trained_spec()
    written = export_all(tmp_path / "out", spec, "gpt2,hf,tiktoken,native")
    names = sorted(p.name for ps in written.values() for p in ps)
    assert names == ["bpe.json", "bpe.tiktoken", "merges.txt", "tokenizer.json", "vocab.json"]
    out = tmp_path / "out"
    assert detect_format(out) == "native"
    assert load_any(out) == spec
    for file, fmt in (
        ("tokenizer.json", "json"),
        ("vocab.json", "json"),
        ("merges.txt", "gpt2"),
        ("bpe.tiktoken", "tiktoken"),
        ("bpe.json", "native"),
    ):
        assert detect_format(out / file) == fmt
        got = load_any(out / file, special_tokens=[EOT])
        assert got.vocab == spec.vocab and got.merges == spec.merges, file
        assert got.special_tokens == (EOT,), file
    assert load_any(out / "vocab.json").special_tokens == (EOT,)  # detected: not a byte, not made by a merge
    (out / "bpe.json").unlink()
    assert detect_format(out) == "hf"
    assert list(os.listdir(out)) and not [n for n in os.listdir(out) if n.endswith(".tmp")]


def test_export_accepts_tokenizer_and_trainer(tmp_path: Path) -> None:
    from core import Trainer

    t = Trainer.from_text("the cat the cat the hat", pattern="gpt2")
    t.steps(4)
    export_all(tmp_path / "a", t, ["native"])
    assert load_native(tmp_path / "a" / "bpe.json").training["counts"] == [r.count for r in t.records]
    export_all(tmp_path / "b", Tokenizer.from_spec(trained_spec()), "all")
    assert load_any(tmp_path / "b").merges == trained_spec().merges


def test_parse_formats_errors(tmp_path: Path) -> None:
    assert parse_formats("all") == list(FORMATS)
    with pytest.raises(FormatError, match=r"unknown format.*xml"):
        parse_formats("gpt2,xml")
    with pytest.raises(FormatError, match="none given"):
        parse_formats("")
    with pytest.raises(FormatError, match="unknown format"):
        save(trained_spec(), tmp_path, "gpt2,hf")


def test_from_files_with_and_without_version_header(tmp_path: Path) -> None:
    spec = trained_spec()
    save_gpt2(spec, tmp_path)
    merges = (tmp_path / "merges.txt").read_text(encoding="utf-8")
    assert merges.startswith("#version: 0.2\n")
    a = Tokenizer.from_files(tmp_path / "vocab.json", tmp_path / "merges.txt", [EOT])
    (tmp_path / "merges.txt").write_text(merges.split("\n", 1)[1], encoding="utf-8")
    b = Tokenizer.from_files(tmp_path / "vocab.json", tmp_path / "merges.txt", [EOT])
    (tmp_path / "merges.txt").write_text(merges.replace("\n", "\r\n"), encoding="utf-8")
    c = Tokenizer.from_files(tmp_path / "vocab.json", tmp_path / "merges.txt", [EOT])
    assert a.to_spec() == b.to_spec() == c.to_spec()
    assert a.merges == list(spec.merges)
    assert Tokenizer.from_files(tmp_path / "vocab.json", tmp_path / "merges.txt").special_tokens == []


def test_from_files_on_what_a_cs336_student_saved_says_what_it_is_and_what_to_do(tmp_path: Path) -> None:
    # train_bpe's vocab and merges pickled, or dumped as JSON of id -> token: from_files said
    # "line 1: not valid UTF-8 (byte 0x80)" and "the id of '0' is '\x00'"
    import pickle

    from core import export_all

    spec = trained_spec()
    vocab, merges = dict(spec.vocab), list(spec.merges)
    for name, obj in (("vocab.pkl", vocab), ("merges.pkl", merges)):
        (tmp_path / name).write_bytes(pickle.dumps(obj))
    save_gpt2(spec, tmp_path)
    with pytest.raises(FormatError, match=r"vocab\.pkl is a Python pickle, not a GPT-2 vocab\.json") as e:
        Tokenizer.from_files(tmp_path / "vocab.pkl", tmp_path / "merges.pkl", [EOT])
    assert "pickle.load" in str(e.value) and "Tokenizer(vocab, merges, special_tokens)" in str(e.value)
    with pytest.raises(FormatError, match=r"merges\.pkl is a Python pickle, not a GPT-2 merges\.txt"):
        Tokenizer.from_files(tmp_path / "vocab.json", tmp_path / "merges.pkl", [EOT])
    (tmp_path / "ids.json").write_text(
        json.dumps({str(i): t.decode("latin-1") for i, t in vocab.items()}), encoding="utf-8"
    )
    with pytest.raises(FormatError, match=r"ids\.json: maps ids to tokens \('0': '\\x00' …\)") as e:
        Tokenizer.from_files(tmp_path / "ids.json", tmp_path / "merges.txt", [EOT])
    assert "core.export_all(folder, Tokenizer(vocab, merges, special_tokens), 'gpt2')" in str(e.value)
    # what the messages advise works: the same tokenizer back from the files written
    export_all(tmp_path / "out", Tokenizer(vocab, merges, [EOT]), "gpt2")
    back = Tokenizer.from_files(tmp_path / "out" / "vocab.json", tmp_path / "out" / "merges.txt", [EOT])
    assert back.vocab == vocab and back.merges == merges


# ---------------------------------------------------------------------------------------- atomic
def _no_temp_files(folder: Path) -> bool:
    return not [n for n in os.listdir(folder) if n.endswith(".tmp")]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("failing", ["replace", "fsync"])
def test_failed_write_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str, failing: str
) -> None:  # FAULTS 20
    old = TokenizerSpec.from_merges([(b"a", b"b")])
    save(old, tmp_path, fmt)
    before = {n: (tmp_path / n).read_bytes() for n in os.listdir(tmp_path)}

    def boom(*args, **kw):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(core_files.os, failing, boom)
    with pytest.raises(FormatError, match=r"No space left.*unchanged"):
        save(trained_spec(), tmp_path, fmt)
    monkeypatch.undo()
    assert {n: (tmp_path / n).read_bytes() for n in os.listdir(tmp_path)} == before
    assert _no_temp_files(tmp_path)


def test_write_into_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="does not exist"):
        core_files.atomic_write(tmp_path / "nope" / "x.json", "{}")


# ------------------------------------------------------------------------------------- malformed
@pytest.fixture()
def files(tmp_path: Path) -> Path:
    spec = TokenizerSpec.from_merges([(b"a", b"b"), (b"ab", b"c"), (b" ", b"abc")], [EOT])
    export_all(tmp_path, spec)
    return tmp_path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (old, text[:300])
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize(
    "old, new, match",
    [
        ("ab c\n", "ab c d\n", r"merges.txt: line 3: .* 3 part"),
        ("ab c\n", "abc\n", r"merges.txt: line 3: .* 1 part"),
        ("a b\n", "a  b\n", r"merges.txt: line 2: "),
        ("ab c\n", "ab x\n", r"merges.txt: line 3: .*'abx' which is not in vocab.json"),
        ("ab c\n", "ab €\n", r"merges.txt: line 3: '€' .* not a GPT-2 byte character"),
    ],
)
def test_malformed_merges_txt(files: Path, old: str, new: str, match: str) -> None:  # FAULTS 21
    _edit(files / "merges.txt", old, new)
    with pytest.raises(FormatError, match=match):
        load_gpt2(files)


def test_malformed_vocab_json(files: Path) -> None:  # FAULTS 21
    vocab = files / "vocab.json"
    text = vocab.read_text(encoding="utf-8")
    _edit(vocab, '"abc": 258', '"abc": 257')
    with pytest.raises(FormatError, match=r"vocab.json: line 260: id 257 is used by both 'ab' and 'abc'"):
        load_gpt2(files)
    vocab.write_text(text.replace('"abc": 258', '"ab": 258'), encoding="utf-8")
    with pytest.raises(FormatError, match=r"vocab.json: lines 259 and 260: the key 'ab' appears twice"):
        load_gpt2(files)
    vocab.write_text(text.replace('"abc": 258', '"ab€": 258'), encoding="utf-8")
    with pytest.raises(FormatError, match=r"vocab.json: line 260: token 'ab€' contains '€'"):
        load_gpt2(files)
    vocab.write_text(text.replace('"abc": 258', '"abc": "x"'), encoding="utf-8")
    with pytest.raises(FormatError, match=r"vocab.json: line 260: the id of 'abc' is 'x'"):
        load_gpt2(files)
    vocab.write_text(text.replace('"a": 97,\n', ""), encoding="utf-8")
    with pytest.raises(FormatError, match=r"vocab.json: no single-byte token for 1 byte\(s\) \(0x61\)"):
        load_gpt2(files, special_tokens=[])
    vocab.write_text(text[:-20], encoding="utf-8")
    with pytest.raises(FormatError, match=r"vocab.json: line \d+: not valid JSON"):
        load_gpt2(files)
    vocab.write_bytes(text.encode().replace(b'"abc"', b'"\xffbc"'))
    with pytest.raises(FormatError, match=r"vocab.json: line 260: not valid UTF-8"):
        load_gpt2(files)
    vocab.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(FormatError, match="expected a JSON object"):
        load_gpt2(files)


@pytest.mark.parametrize(
    "edit, match",
    [
        (
            lambda ls: ls.__setitem__(2, "!!notbase64 2"),
            r"bpe.tiktoken: line 3: '!!notbase64' is not valid base64",
        ),
        (lambda ls: ls.__setitem__(3, ls[3].split()[0] + " 2"), r"line 4: rank 2 is already used on line 3"),
        (
            lambda ls: ls.__setitem__(3, ls[2].split()[0] + " 999"),
            r"line 4: token b'\\x02' is already listed on line 3",
        ),
        (lambda ls: ls.__setitem__(4, ls[4] + " extra"), r"line 5: .* has 3 part"),
        (
            lambda ls: ls.__setitem__(4, ls[4].split()[0] + " -4"),
            r"line 5: rank '-4' is not an integer from 0 to 2\^31-1",
        ),
        (lambda ls: ls.pop(97), r"bpe.tiktoken: no single-byte token for 1 byte\(s\) \(0x61\)"),
    ],
)
def test_malformed_tiktoken(files: Path, edit, match: str) -> None:  # FAULTS 21
    path = files / "bpe.tiktoken"
    lines = path.read_text(encoding="utf-8").split("\n")
    edit(lines)
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(FormatError, match=match):
        load_tiktoken(path)


def test_a_tiktoken_file_damaged_on_its_first_line_is_named_by_that_line(files: Path, tmp_path: Path) -> None:
    """Opened as any file (the command line, the app): "not a tokenizer file" said nothing of the
    line; a file of plain text still gets that answer."""
    path = files / "bpe.tiktoken"
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[0] = "A!== 0"
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(FormatError, match=r"bpe.tiktoken: line 1: 'A!==' is not valid base64"):
        load_any(path)
    notes = tmp_path / "notes.tiktoken"
    notes.write_text("hello world\nthis is text\nmore of it\nand more\nthe end\n", encoding="utf-8")
    with pytest.raises(FormatError, match="is not a tokenizer file BPE Explorer reads"):
        load_any(notes)


def test_tiktoken_specials_fill_the_gaps(files: Path) -> None:
    spec = load_tiktoken(files / "bpe.tiktoken", special_tokens=[EOT, "<|x|>"])
    assert spec.special_ids == {EOT: 256, "<|x|>": 260}
    spec = load_tiktoken(files / "bpe.tiktoken", special_tokens={EOT: 1000})
    assert spec.special_ids == {EOT: 1000}
    with pytest.raises(FormatError, match="already uses"):
        load_tiktoken(files / "bpe.tiktoken", special_tokens={EOT: 5})


def test_malformed_tokenizer_json(files: Path) -> None:  # FAULTS 21
    path = files / "tokenizer.json"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"ab c"', '"ab x"'), encoding="utf-8")
    with pytest.raises(
        FormatError, match=r"tokenizer.json: line \d+: the merge 'ab x' needs the token 'abx'"
    ):
        load_hf(path)
    path.write_text(text.replace('"ab c"', '"abc"'), encoding="utf-8")
    with pytest.raises(FormatError, match=r"tokenizer.json: line \d+: 'abc' is not two tokens"):
        load_hf(path)
    path.write_text(text.replace('  "a": 97,\n', ""), encoding="utf-8")
    with pytest.raises(FormatError, match=r"no single-byte token .*0x61"):
        load_hf(path)
    path.write_text(text.replace('"b": 98', '"a": 98'), encoding="utf-8")
    with pytest.raises(
        FormatError,
        match=r"tokenizer.json: lines \d+ and \d+: the key 'a' appears twice; each token must be listed once",
    ):
        load_hf(path)
    path.write_text(text.replace('"type": "BPE"', '"type": "WordPiece"'), encoding="utf-8")
    with pytest.raises(
        FormatError, match=r"this is a WordPiece .*tokenizer; BPE Explorer opens byte-level BPE"
    ):
        load_hf(path)
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(FormatError, match=r"tokenizer.json: line \d+: not valid JSON"):
        load_hf(path)


def test_malformed_native(files: Path) -> None:  # FAULTS 21
    path = files / "bpe.json"
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    first_vocab = lines.index(' "vocab": [') + 1
    entry = lines[first_vocab + 97]
    assert entry.startswith("  [97, ")
    path.write_text(text.replace(entry, '  [97, "@@@"],'), encoding="utf-8")
    with pytest.raises(FormatError, match=rf"bpe.json: line {first_vocab + 98}: '@@@' is not valid base64"):
        load_native(path)
    path.write_text(text.replace(entry, '  [96, "YQ=="],'), encoding="utf-8")
    with pytest.raises(FormatError, match=rf"line {first_vocab + 98}: id 96 is listed twice"):
        load_native(path)
    path.write_text(text.replace(entry + "\n", ""), encoding="utf-8")
    with pytest.raises(FormatError, match=r"bpe.json: no single-byte token .*0x61"):
        load_native(path)
    path.write_text(text.replace('"version": 1', '"version": 99'), encoding="utf-8")
    with pytest.raises(FormatError, match=r"version 99 is newer.*update"):
        load_native(path)
    path.write_text(text.replace("[257, 99]", "[257, 9999]"), encoding="utf-8")
    with pytest.raises(FormatError, match=r"line \d+: merge 1 uses id 9999"):
        load_native(path)
    path.write_text(text.replace("[257, 99]", "[257, 98]"), encoding="utf-8")
    with pytest.raises(FormatError, match=r"merge 1 makes b'abb', which is not in the vocab"):
        load_native(path)
    path.write_text(text.replace('"content": "<|endoftext|>"', '"content": "<|eot|>"'), encoding="utf-8")
    with pytest.raises(FormatError, match=re.escape("special token '<|eot|>' has id 256")):
        load_native(path)
    path.write_text(text.replace('"pattern": "gpt2"', '"pattern": "(["'), encoding="utf-8")
    with pytest.raises(FormatError, match=r"line 5: invalid pre-tokenizer regex"):
        load_native(path)
    path.write_text(text.replace('"format": "bpe-explorer"', '"format": "other"'), encoding="utf-8")
    with pytest.raises(FormatError, match="not a BPE Explorer file"):
        load_native(path)


def test_native_training_must_match_merges(tmp_path: Path) -> None:
    spec = trained_spec()
    save_native(spec, tmp_path)
    data = json.loads((tmp_path / "bpe.json").read_text(encoding="utf-8"))
    data["training"]["counts"] = data["training"]["counts"][:-1]
    (tmp_path / "bpe.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError, match=r"training.counts has \d+ entries for \d+ merges"):
        load_native(tmp_path / "bpe.json")


def test_load_any_errors(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="does not exist"):
        load_any(tmp_path / "missing.json")
    with pytest.raises(FormatError, match="holds no tokenizer files"):
        load_any(tmp_path)
    (tmp_path / "vocab.json").write_text("{}", encoding="utf-8")
    with pytest.raises(FormatError, match="merges file is missing"):
        load_any(tmp_path / "vocab.json")


def test_gpt2_strings_are_the_standard_table() -> None:
    assert token_to_str(b" hello\n") == "ĠhelloĊ"
    assert base64.b64decode("IGhlbGxv") == b" hello"
