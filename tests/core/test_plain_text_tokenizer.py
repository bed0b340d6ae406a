"""A plain text file given where a tokenizer is expected is named as such, not blamed on a JSON file
beside it (a session, a config.json) that was taken for its vocab."""

from __future__ import annotations

import pytest

from core.cli import main
from core.errors import FormatError
from core.formats import load_any, looks_like_merges
from core.formats.spec import TokenizerSpec


def test_plain_text_is_named(tmp_path, capsys):
    text = tmp_path / "c.txt"
    text.write_text("The quick brown fox jumps over the lazy dog.\n" * 50, encoding="utf-8")
    (tmp_path / "config.json").write_text('{"model_type": "gpt2"}', encoding="utf-8")
    with pytest.raises(FormatError, match=r"c\.txt is plain text, not a tokenizer file") as e:
        load_any(text)
    assert e.value.code == "tokenizer_plain_text"
    assert main(["inspect", str(text), "-q"]) == 2
    err = capsys.readouterr().err
    assert "plain text" in err and "config.json" not in err


def test_merges_files_still_load(tmp_path):
    from core.formats import export_all

    spec = TokenizerSpec.from_merges([(b" ", b"t"), (b"h", b"e"), (b" t", b"he")])
    export_all(tmp_path, spec, "gpt2")
    assert load_any(tmp_path / "merges.txt").merges == spec.merges
    empty = tmp_path / "e" / "merges.txt"
    empty.parent.mkdir()
    empty.write_text("#version: 0.2\n", encoding="utf-8")
    assert looks_like_merges(empty.read_bytes())


@pytest.mark.parametrize(
    ("head", "want"),
    [
        (b"#version: 0.2\n\xc4\xa0 t\nh e\n", True),
        (b"\xc4\xa0 t\r\nh e\r\n", True),  # (CRLF, no header)
        (b"a b c\nd e f\n", False),
        (b"one line of prose here\n", False),
        (b"", True),
        (b"hello world\nfoo bar\n", False),  # (two words a line: the shape of merges, not their build)
        (b"good morning\r\nthank you\r\nsee you\r\n", False),
        (b"#version: 0.2\nhello world\n", True),  # (a saved merges file says what it is)
        (b"\xc4\xa0 t\nh e\n\xc4\xa0t he\n\xc4\xa0 a\n", True),  # (each part: a character or made above)
        (b"\xe2\x96\x81 t\n\xe2\x96\x81t h\n", True),  # (SentencePiece-style ▁ merges)
    ],
)
def test_looks_like_merges(head, want):
    assert looks_like_merges(head) is want


def test_two_word_lines_are_plain_text_wherever_a_merges_file_is_opened(tmp_path, capsys):
    """A text of two-word lines ("hello world") read as a merge list: inspect said it lacked its vocab,
    audit compared (hello, world) with the corpus's first merge."""
    text = tmp_path / "hw.txt"
    text.write_text("hello world\nfoo bar\n", encoding="utf-8")
    (tmp_path / "vocab.json").write_text('{"h": 0}', encoding="utf-8")
    with pytest.raises(FormatError, match=r"hw\.txt is plain text, not a tokenizer file") as e:
        load_any(text)
    assert e.value.code == "tokenizer_plain_text"
    from core.evaluation.audit import read_merge_list

    with pytest.raises(FormatError, match=r"hw\.txt is plain text") as e:
        read_merge_list(text)
    assert e.value.code == "tokenizer_plain_text"
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("hello world\n" * 5, encoding="utf-8")
    assert main(["audit", "--merges", str(text), str(corpus), "-q"]) == 2
    assert "plain text" in capsys.readouterr().err


def test_a_merges_file_without_its_version_line_still_opens(tmp_path):
    from core.evaluation.audit import read_merge_list
    from core.formats import export_all

    spec = TokenizerSpec.from_merges([(b" ", b"t"), (b"h", b"e"), (b" t", b"he"), (b"\xe4", b"\xb8")])
    export_all(tmp_path, spec, "gpt2")
    merges = tmp_path / "merges.txt"
    merges.write_text(merges.read_text(encoding="utf-8").split("\n", 1)[1], encoding="utf-8")
    assert not merges.read_text(encoding="utf-8").startswith("#")
    assert load_any(merges).merges == spec.merges
    assert read_merge_list(merges) == list(spec.merges)


@pytest.mark.parametrize(
    "name, data",
    [
        ("junk.model", bytes(range(256)) * 4),  # a .model that is no SentencePiece protobuf
        ("notes.model", b"hello world\nthis is not a model\n"),
        ("weights.bin", b"\x00\x01\x02garbage\xff" * 50),
    ],
)
def test_a_file_of_no_known_format_is_named_as_such_not_as_a_bad_tiktoken_line(tmp_path, name, data):
    # (everything unrecognised was read as tiktoken: "line 1: 'hello' is not valid base64")
    from core.formats import load_any

    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(FormatError, match=rf"{name} is not a tokenizer file BPE Explorer reads") as e:
        load_any(path)
    assert e.value.code == "tokenizer_unknown" and "line 1" not in str(e.value)
