"""``compare``: two tokenizers side by side, checked against plain set arithmetic, the merge lists
themselves and the token counts of ``tokenizers`` (HF)."""

from __future__ import annotations

import json

import pytest

from core.cli import main
from core.errors import Cancelled
from core.evaluation.compare import compare_tokenizers, first_difference
from core.formats import export_all, load_any
from core.formats.spec import spec_from_trainer
from core.tokenization.tokenizer import Tokenizer
from core.training.trainer import Trainer

tokenizers = pytest.importorskip("tokenizers")

EOT = "<|endoftext|>"
TEXT = ("zz yy xx ab ab cd cd the cat sat on the mat, the dog ate 12 hats.\n\n" * 8 + EOT) * 4


def trained(tmp_path, name: str, n: int, **kw):
    t = Trainer.from_text(TEXT, kw.pop("specials", [EOT]), **kw)
    t.steps(n)
    export_all(tmp_path / name, spec_from_trainer(t), ["hf", "native"])
    return Tokenizer.from_spec(load_any(tmp_path / name / "bpe.json"))


def test_shared_and_own_tokens_and_first_merge(tmp_path):
    a = trained(tmp_path, "a", 30)
    b = trained(tmp_path, "b", 30, tie_break="first", specials=[EOT, "<pad>"])
    c = compare_tokenizers(a, b)
    va = {t for i, t in a.vocab.items() if not a.is_special(i)}
    vb = {t for i, t in b.vocab.items() if not b.is_special(i)}
    assert c.n_shared == len(va & vb)
    assert {a.vocab[i] for i in c.only_a} == va - vb and {b.vocab[i] for i in c.only_b} == vb - va
    assert all(a.vocab[i] == b.vocab[j] for i, j in c.shared)
    k = next(i for i, (x, y) in enumerate(zip(a.merges, b.merges, strict=True)) if x != y)
    assert (c.first_differing_merge, c.merge_a, c.merge_b) == (k + 1, a.merges[k], b.merges[k])
    assert (c.specials_shared, c.specials_only_a, c.specials_only_b) == ([EOT], [], ["<pad>"])
    # the counts leave the special tokens out, and the summary says so (they were left out silently)
    assert c.n_shared + len(c.only_a) + 1 == len(a.vocab)
    assert "special tokens apart (compared by their text): 1 shared, 0 only in A, 1 only in B" in c.summary()


def test_a_prefix_and_equal_lists():
    assert first_difference([(b"a", b"b")], [(b"a", b"b"), (b"c", b"d")]) == (2, None, (b"c", b"d"))
    assert first_difference([(b"a", b"b")], [(b"a", b"b")]) == (None, None, None)


def test_token_counts_per_file_equal_hf(tmp_path):
    a = trained(tmp_path, "a", 20)
    b = trained(tmp_path, "b", 60)
    big = tmp_path / "big.txt"
    # over 1 MB with blank lines: pieces are read a megabyte of lines at a time, counts must not change
    big.write_text(("the dog\n\n ate\n\n\n" + TEXT) * 2200, encoding="utf-8")
    small = tmp_path / "small.txt"
    small.write_text("the cat ate the hat", encoding="utf-8")
    c = compare_tokenizers(a, b, [big, small])
    hf = tokenizers.Tokenizer.from_file(str(tmp_path / "a" / "tokenizer.json"))
    assert c.files[1].tokens_a == len(hf.encode(small.read_text(encoding="utf-8")).ids)
    for f, path in zip(c.files, (big, small), strict=True):
        text = path.read_text(encoding="utf-8")  # the whole text at once (HF takes ~20 s on the big one)
        assert (f.tokens_a, f.tokens_b) == (len(a.encode(text)), len(b.encode(text)))
        assert f.n_bytes == path.stat().st_size
    assert c.files[0].tokens_b < c.files[0].tokens_a


def test_cancel(tmp_path):
    a = trained(tmp_path, "a", 5)
    f = tmp_path / "t.txt"
    f.write_text("abc", encoding="utf-8")
    with pytest.raises(Cancelled):
        compare_tokenizers(a, a, [f], progress=lambda *_: False)


def test_cli(tmp_path, capsys):
    trained(tmp_path, "a", 20)
    trained(tmp_path, "b", 25)
    f = tmp_path / "t.txt"
    f.write_text("the cat sat on the mat", encoding="utf-8")
    out = tmp_path / "c.json"
    assert (
        main(
            [
                "compare",
                str(tmp_path / "a"),
                str(tmp_path / "b"),
                "--corpus",
                str(f),
                "--json",
                str(out),
                "-q",
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "the merge lists part at merge 21" in text and "t.txt" in text
    data = json.loads(out.read_text())
    assert data["first_differing_merge"] == 21 and data["merge_a"] is None and len(data["only_b"]) == 5
    assert data["shared"] == data["same_id"] == 256 + 20  # (special tokens are compared apart)
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "nope"), "-q"]) == 2
    assert "nope" in capsys.readouterr().err


def test_doctests():
    import doctest

    import core.evaluation.compare

    assert doctest.testmod(core.evaluation.compare).failed == 0


def test_added_tokens_that_are_not_special_are_told_apart_from_special_ones(tmp_path, capsys):
    """OLMo 1 against GPT-2: compare said "27 special tokens only in B", 26 of them OLMo's added tokens
    marked "special": false (runs of spaces, |||IP_ADDRESS|||), which the rest of the app shows as added,
    not special. The summary, the JSON and the command's list now say which is which."""
    from tokenizers import AddedToken, pre_tokenizers
    from tokenizers import Tokenizer as HF
    from tokenizers.models import BPE
    from tokenizers.trainers import BpeTrainer

    hf = HF(BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.train_from_iterator(
        [TEXT.replace(EOT, " ")] * 3,
        BpeTrainer(
            vocab_size=300,
            show_progress=False,
            special_tokens=[EOT],
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        ),
    )
    hf.add_tokens([AddedToken(t, normalized=True, special=False) for t in ["   ", "|||IP|||"]])
    hf.save(str(tmp_path / "tokenizer.json"))
    b = Tokenizer.from_spec(load_any(tmp_path / "tokenizer.json"))
    a = trained(tmp_path, "a", 30)
    c = compare_tokenizers(a, b)
    assert (c.specials_shared, c.specials_only_a, c.specials_only_b) == ([EOT], [], [])
    assert (c.added_shared, c.added_only_a, c.added_only_b) == ([], [], ["   ", "|||IP|||"])
    assert "special tokens apart (compared by their text): 1 shared, 0 only in A, 0 only in B" in c.summary()
    assert "added tokens that are not special: 0 shared, 0 only in A, 2 only in B" in c.summary()
    assert c.to_json()["added_only_b"] == ["   ", "|||IP|||"]
    assert main(["compare", str(tmp_path / "a" / "bpe.json"), str(tmp_path / "tokenizer.json"), "-q"]) == 0
    out = capsys.readouterr().out
    assert "added tokens (not special) only in A: []; only in B: ['   ', '|||IP|||']" in out
    assert "special tokens only in A" not in out  # (none apart: no line)
    # a comparison without added tokens says nothing of them
    assert "added" not in compare_tokenizers(a, a).summary()
