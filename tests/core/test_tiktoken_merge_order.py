"""tiktoken merges by token rank (the adjacent pair whose concatenation has the lowest id first); BPE
Explorer and HF apply the merge list in order. Where the two give other ids, a tiktoken file of the
tokenizer is a lossy export: refused, or written with a warning when asked for. Checked against
tiktoken itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from core import Tokenizer, Trainer
from core.cli import main
from core.errors import FormatError
from core.formats import export_all, export_losses, save
from core.formats.rank_order import rank_order_example, tiktoken_piece
from core.formats.spec import TokenizerSpec, as_spec
from core.formats.tiktoken_bpe import tiktoken_encoding

BYTES = {i: bytes([i]) for i in range(256)}


def _out_of_id_order() -> TokenizerSpec:
    """``ab`` is merged first but ``bc`` has the lower id: on ``abc`` the list makes ``ab``, tiktoken ``bc``."""
    return TokenizerSpec({**BYTES, 256: b"bc", 257: b"ab"}, ((b"a", b"b"), (b"b", b"c")))


def _made_by_another_pair() -> TokenizerSpec:
    """Ids in merge order, but ``abc`` is made by ``(ab, c)``: after ``bc`` tiktoken joins ``a`` and
    ``bc`` (their concatenation is a token), the merge list does not."""
    return TokenizerSpec.from_merges([(b"b", b"c"), (b"a", b"b"), (b"ab", b"c")])


def _trained() -> Trainer:
    text = (Path(__file__).resolve().parents[2] / "assets" / "sample_corpus.txt").read_text(encoding="utf-8")
    trainer = Trainer.from_text(text[:60_000], ["<|endoftext|>"], pattern="gpt4")
    trainer.run(1000)
    return trainer


LOSSY = [_out_of_id_order, _made_by_another_pair]


def _tiktoken_ids(spec: TokenizerSpec, text: str) -> list[int]:
    return tiktoken_encoding(spec).encode(text, allowed_special=spec.specials_in_text, disallowed_special=())


def test_tiktoken_piece_merges_by_rank():
    ranks = {b"a": 0, b"b": 1, b"c": 2, b"bc": 3, b"ab": 4, b"abc": 5}
    assert tiktoken_piece(b"abc", ranks) == [5]  # bc first, then a + bc is a token
    assert tiktoken_piece(b"abca", ranks) == [5, 0]
    assert tiktoken_piece(b"ab", ranks) == [4]  # (the token itself)


@pytest.mark.parametrize("make", LOSSY)
def test_the_example_is_what_tiktoken_and_we_give(make):
    spec = make()
    found = rank_order_example(spec)
    assert found is not None
    assert list(found.ours) == Tokenizer.from_spec(spec).encode(found.text)
    assert list(found.tiktoken) == _tiktoken_ids(spec, found.text)
    assert found.ours != found.tiktoken


def test_the_two_rules_agree_where_the_merges_follow_the_ids():
    assert rank_order_example(TokenizerSpec.from_merges([(b"a", b"b"), (b"ab", b"c"), (b"b", b"c")])) is None
    spec = as_spec(_trained())
    assert len(spec.merges) > 100 and export_losses(spec, "tiktoken") == []
    tok = Tokenizer.from_spec(spec)
    text = (Path(__file__).resolve().parents[2] / "assets" / "sample_corpus.txt").read_text(encoding="utf-8")
    text = text[60_000:70_000] + "\n    indented   runs 1234567 def f(x):\n\treturn x  # 北京 🙃"
    assert _tiktoken_ids(spec, text) == tok.encode(text)


@pytest.mark.parametrize("make", LOSSY)
def test_only_tiktoken_loses_the_order_and_names_an_example(make):
    spec = make()
    found = rank_order_example(spec)
    assert found is not None
    lost = export_losses(spec, "tiktoken")
    assert len(lost) == 1 and lost[0].startswith("the order of the merges (tiktoken merges by token rank")
    assert repr(found.text) in lost[0] and str(list(found.tiktoken)) in lost[0], lost
    assert all(export_losses(spec, fmt) == [] for fmt in ("hf", "gpt2", "native"))


def test_export_refuses_tiktoken_unless_lossy(tmp_path: Path):
    spec = _out_of_id_order()
    with pytest.raises(FormatError) as e:
        export_all(tmp_path / "o", spec, ["tiktoken", "native"])
    assert e.value.code == "export_merge_order" and e.value.params["text"] == "'abc'"
    assert not (tmp_path / "o" / "bpe.tiktoken").exists()
    export_all(tmp_path / "o", spec, ["hf", "native"])  # (they keep the merge list)
    export_all(tmp_path / "o", spec, ["tiktoken"], lossy=True)
    assert (tmp_path / "o" / "bpe.tiktoken").is_file()


def test_convert_refuses_it_and_warns_when_allowed(tmp_path: Path, capsys):
    (tmp_path / "in").mkdir()
    save(_made_by_another_pair(), tmp_path / "in", "hf")
    src = str(tmp_path / "in" / "tokenizer.json")
    assert main(["convert", src, "--out", str(tmp_path / "a"), "--format", "tiktoken"]) == 2
    err = capsys.readouterr().err
    assert "cannot hold the order of this tokenizer's merges" in err and "with tiktoken" in err, err
    assert not (tmp_path / "a" / "bpe.tiktoken").exists()
    args = ["convert", src, "--out", str(tmp_path / "b"), "--format", "tiktoken", "--allow-lossy"]
    assert main(args) == 0
    assert "the tiktoken files lack the order of the merges" in capsys.readouterr().err
    assert (tmp_path / "b" / "bpe.tiktoken").is_file()


def test_the_docstring_examples_hold():
    import doctest

    import core.formats.losses
    import core.formats.rank_order

    assert doctest.testmod(core.formats.rank_order).failed == 0
    assert doctest.testmod(core.formats.losses).failed == 0
