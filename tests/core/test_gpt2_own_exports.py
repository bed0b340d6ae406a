"""Our own GPT-2 export (vocab.json + merges.txt) reopens with the same ids whatever its special tokens
look like (``EOS``, ``the``, ``.*``): from the bpe.json / tokenizer.json written beside it, or, alone,
from our layout (added tokens at the ids right after the 256 bytes, used by no merge). A merges file
that does not belong to its vocab is still refused."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from core import Tokenizer
from core.cli import main
from core.errors import FormatError
from core.formats import load_any, save
from core.formats.spec import TokenizerSpec

TEXT = (
    "Once upon a time there was a tiny robot. The robot liked the garden EOS and the sea.\n"
    "Every morning the robot watered 12345 plants   then   rested .* there.\n"
) * 30


def _train(tmp_path: Path, special: str, *extra: str) -> Path:
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(TEXT, encoding="utf-8")
    out = tmp_path / "out"
    argv = ["train", str(corpus), "--vocab-size", "300", "--special-token", special, "--out", str(out), "-q"]
    assert main([*argv, *extra]) == 0
    return out


@pytest.mark.parametrize("special", ["EOS", "the", ".*"])
def test_encode_reads_the_vocab_json_of_our_export(tmp_path, special, capsys):
    out = _train(tmp_path, special)
    npy = tmp_path / "ids.npy"
    rc = main(
        ["encode", "--tokenizer", str(out / "vocab.json"), str(tmp_path / "corpus.txt"), "--out", str(npy)]
    )
    assert rc == 0, capsys.readouterr().err
    native = Tokenizer.from_spec(load_any(out / "bpe.json"))
    assert np.load(npy).tolist() == native.encode(TEXT)
    assert native.special_ids[special] == 256 and 256 in np.load(npy).tolist()


@pytest.mark.parametrize("special", ["EOS", "the", ".*"])
def test_the_gpt2_files_alone_reopen_with_the_same_special_token(tmp_path, special):
    out = _train(tmp_path, special)
    alone = tmp_path / "alone"
    alone.mkdir()
    for name in ("vocab.json", "merges.txt"):
        shutil.copy(out / name, alone / name)
    spec = load_any(alone / "vocab.json")
    assert spec.special_tokens == (special,) and spec.special_ids == {special: 256}
    assert Tokenizer.from_spec(spec).encode(TEXT) == Tokenizer.from_spec(load_any(out / "bpe.json")).encode(
        TEXT
    )


def test_the_bpe_json_beside_them_brings_the_pattern_too(tmp_path):
    out = _train(tmp_path, "EOS", "--pattern", "gpt4")
    spec = load_any(out / "vocab.json", merges=out / "merges.txt")  # (as the app's import of the two files)
    assert spec.pattern_name == "gpt4" and spec.special_tokens == ("EOS",)
    assert any("read from bpe.json beside it" in n for n in spec.notes)
    native = Tokenizer.from_spec(load_any(out / "bpe.json"))
    assert Tokenizer.from_spec(spec).encode(TEXT) == native.encode(TEXT)
    # the tokenizer.json beside them, when there is no bpe.json
    (out / "bpe.json").unlink()
    spec = load_any(out / "vocab.json")
    assert spec.special_tokens == ("EOS",) and spec.pattern_name == "gpt4"
    assert any("read from tokenizer.json beside it" in n for n in spec.notes)


def test_a_bpe_json_of_another_tokenizer_beside_them_is_not_used(tmp_path):
    out = _train(tmp_path, "EOS", "--pattern", "gpt4")
    save(TokenizerSpec.from_merges([(b"a", b"b")], ["EOS"], pattern="gpt4"), out, "native")
    (out / "tokenizer.json").unlink()
    spec = load_any(out / "vocab.json")
    assert spec.pattern_name == "gpt2" and spec.special_tokens == ("EOS",)  # (read from the files alone)


def _without_first_merge(tmp_path: Path, specials: list[str]) -> Path:
    merges = [(b"a", b"b"), (b"ab", b"c"), (b"x", b"y"), (b"xy", b"z")]
    save(TokenizerSpec.from_merges(merges, specials), tmp_path, "gpt2")
    lines = (tmp_path / "merges.txt").read_text(encoding="utf-8").split("\n")
    (tmp_path / "merges.txt").write_text("\n".join([lines[0], *lines[2:]]), encoding="utf-8")
    return tmp_path / "vocab.json"


def test_a_merges_file_that_lost_its_first_merge_is_still_refused(tmp_path):
    """'ab' (id 256) right after the bytes is made by no merge, but a merge uses it: no added token."""
    with pytest.raises(
        FormatError, match=r"the vocab has 1 token\(s\) made by no merge, e\.g\. 'ab' \(id 256\)"
    ):
        load_any(_without_first_merge(tmp_path, []))
    other = tmp_path / "other"
    other.mkdir()
    with pytest.raises(FormatError, match=r"2 token\(s\) made by no merge.*do not belong together"):
        load_any(_without_first_merge(other, ["EOS"]))


def test_the_command_line_says_one_token_in_the_singular(tmp_path, capsys):
    vocab = _without_first_merge(tmp_path, [])
    rc = main(["encode", "--tokenizer", str(vocab), str(vocab), "--out", str(tmp_path / "x.npy")])
    err = capsys.readouterr().err
    assert rc == 2 and "the vocab has 1 token made by no merge" in err
