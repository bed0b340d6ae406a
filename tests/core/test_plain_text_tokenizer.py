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
    ],
)
def test_looks_like_merges(head, want):
    assert looks_like_merges(head) is want
