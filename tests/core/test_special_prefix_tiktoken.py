"""Special tokens of which one begins another (``<|a|>`` and ``<|a|><|a|>``): BPE Explorer and HF
take the longest at each place; tiktoken takes the first of an alternation built from a hash map, so
the shorter may win. A tiktoken file of them is a lossy export: refused, or left out by ``train``,
unless asked for."""

from __future__ import annotations

from pathlib import Path

import pytest

from core import Tokenizer
from core.cli import main
from core.errors import FormatError
from core.formats import export_all, export_losses
from core.formats.spec import TokenizerSpec

A, AA = "<|a|>", "<|a|><|a|>"
TEXT = f"the cat sat on the mat{AA} the robot{A} watered the garden\n" * 40


def _spec(specials: list[str]) -> TokenizerSpec:
    return TokenizerSpec.from_merges([(b"t", b"h"), (b"th", b"e")], specials)


def test_ours_takes_the_longest_special_token():
    tok = Tokenizer.from_spec(_spec([A, AA]))
    assert tok.encode(AA) == [tok.token_to_id(AA)]


def test_only_tiktoken_loses_them_and_only_where_one_begins_another():
    spec = _spec([A, AA])
    lost = export_losses(spec, "tiktoken")
    assert len(lost) == 1 and repr(A) in lost[0] and repr(AA) in lost[0], lost
    assert export_losses(spec, "hf") == [] and export_losses(spec, "gpt2") == []
    assert export_losses(_spec(["<s>", "</s>", "<|endoftext|>"]), "tiktoken") == []


def test_export_refuses_tiktoken_unless_lossy(tmp_path: Path):
    spec = _spec([A, AA])
    with pytest.raises(FormatError) as e:
        export_all(tmp_path / "o", spec, ["tiktoken"])
    assert e.value.code == "export_special_prefix" and not (tmp_path / "o" / "bpe.tiktoken").exists()
    export_all(tmp_path / "o", spec, ["hf", "native"])  # (the others hold them)
    export_all(tmp_path / "o", spec, ["tiktoken"], lossy=True)
    assert (tmp_path / "o" / "bpe.tiktoken").is_file()


def _train(tmp_path: Path, *extra: str) -> list[str]:
    corpus = tmp_path / "c.txt"
    corpus.write_text(TEXT, encoding="utf-8")
    specials = ["--special-token", A, "--special-token", AA]
    return [
        "train",
        str(corpus),
        "--vocab-size",
        "280",
        *specials,
        "--out",
        str(tmp_path / "out"),
        "-q",
        *extra,
    ]


def test_train_leaves_tiktoken_out_by_default_and_says_why(tmp_path, capsys):
    assert main(_train(tmp_path)) == 0
    err = capsys.readouterr().err
    out = tmp_path / "out"
    assert not (out / "bpe.tiktoken").exists() and (out / "tokenizer.json").is_file()
    assert "no bpe.tiktoken written" in err and repr(AA) in err, err


def test_train_refuses_a_chosen_tiktoken_before_the_run_or_writes_it_when_allowed(tmp_path, capsys):
    assert main(_train(tmp_path, "--format", "tiktoken,native")) == 2
    assert "begins" in capsys.readouterr().err and not (tmp_path / "out").exists()
    assert main(_train(tmp_path, "--format", "tiktoken,native", "--allow-lossy")) == 0
    assert (tmp_path / "out" / "bpe.tiktoken").is_file()
    assert "lack special tokens of which one begins another" in capsys.readouterr().err
