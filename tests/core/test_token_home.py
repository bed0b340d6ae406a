"""``trace``: a token's merge, its count at that merge (from the training record), the merges that
build it, and corpus snippets where the whole text's encoding has it."""

from __future__ import annotations

import json
from itertools import accumulate

import pytest

from core.cli import main
from core.errors import TokenizerError
from core.evaluation.token_home import token_home
from core.formats import export_all, load_any
from core.formats.spec import spec_from_trainer
from core.tokenization.tokenizer import Tokenizer
from core.training.trainer import Trainer

EOT = "<|endoftext|>"
TEXT = ("the cat sat on the mat. then the other cat ate the hat.\n" * 10 + EOT) * 3


@pytest.fixture()
def made(tmp_path):
    t = Trainer.from_text(TEXT, [EOT])
    t.steps(30)
    export_all(tmp_path / "tok", spec_from_trainer(t), ["native", "hf"])
    corpus = tmp_path / "c.txt"
    corpus.write_text(TEXT, encoding="utf-8")
    return t, Tokenizer.from_spec(load_any(tmp_path / "tok" / "bpe.json")), corpus


def test_merge_count_and_build_tree(made):
    t, tok, _ = made
    the = tok.token_to_id(b" the")
    h = token_home(tok, the)
    rank = next(r for r in t.records if r.token == b" the")
    assert (h.merge, h.pair, h.count) == (rank.rank + 1, rank.pair, rank.count)

    def tree(token: bytes) -> set[int]:  # the oracle: ranks by bytes, recursively
        r = next((r for r in t.records if r.token == token), None)
        return set() if r is None else {r.rank + 1} | tree(r.pair[0]) | tree(r.pair[1])

    assert [s.merge for s in h.built] == sorted(tree(b" the"))
    assert token_home(tok, " the").id == the == token_home(tok, b" the").id
    assert token_home(tok, ord("t")).merge is None
    assert token_home(tok, EOT).is_special


def test_snippets_are_where_the_encoding_has_the_token(made):
    _, tok, corpus = made
    data = corpus.read_bytes()
    for token in (" cat", EOT, "."):
        tid = tok.token_to_id(token)
        ids = tok.encode(TEXT)
        starts = [0, *accumulate(len(tok.vocab[i]) for i in ids)]
        want = [starts[k] for k, i in enumerate(ids) if i == tid][:4]
        h = token_home(tok, tid, [corpus], snippets=4, context=10)
        assert [s.byte_offset for s in h.snippets] == want
        for s in h.snippets:
            assert s.token == tok.vocab[tid] and s.before == data[max(0, s.byte_offset - 10) : s.byte_offset]
            assert s.after == data[s.byte_offset + len(s.token) : s.byte_offset + len(s.token) + 10]


def test_reading_stops_when_enough_are_found(made, tmp_path):
    _, tok, _ = made
    big = tmp_path / "big.txt"
    big.write_text(TEXT * 2000, encoding="utf-8")  # over 2 MB
    read = []
    h = token_home(tok, " cat", [big], snippets=2, progress=lambda phase, done, total: read.append(done))
    assert len(h.snippets) == 2 and max(read) < big.stat().st_size / 2


def test_a_normalized_text_has_no_offsets(made, tmp_path):
    data = json.loads((tmp_path / "tok" / "tokenizer.json").read_text())
    data["normalizer"] = {"type": "NFC"}
    (tmp_path / "nfc.json").write_text(json.dumps(data))
    tok = Tokenizer.from_spec(load_any(tmp_path / "nfc.json"))
    f = tmp_path / "n.txt"
    f.write_text("cafe\u0301 the cat", encoding="utf-8")
    h = token_home(tok, " cat", [f])
    assert [s.byte_offset for s in h.snippets] == [None] and h.snippets[0].marked() == "café the[ cat]"
    assert h.count is None  # tokenizer.json keeps no merge counts


def test_errors(made, capsys):
    _, tok, corpus = made
    with pytest.raises(TokenizerError):
        token_home(tok, b"zzzz")
    with pytest.raises(TokenizerError, match="not in this vocabulary"):
        token_home(tok, 10**6)
    assert main(["trace", str(corpus.parent / "tok"), "--text", "zzzz", "-q"]) == 2
    assert "zzzz" in capsys.readouterr().err


def test_cli(made, tmp_path, capsys):
    t, _, corpus = made
    out = tmp_path / "h.json"
    rc = main(
        ["trace", str(tmp_path / "tok"), "--text", " the", "--corpus", str(corpus), "--json", str(out), "-q"]
    )
    assert rc == 0
    text = capsys.readouterr().out
    r = next(r for r in t.records if r.token == b" the")
    a, b = (x.decode() for x in r.pair)
    assert f"made by merge {r.rank + 1} of {a!r} + {b!r}, counted {r.count:,} times at that merge" in text
    assert "c.txt @ byte " in text and "[ the]" in text
    data = json.loads(out.read_text())
    assert data["count"] == r.count and len(data["snippets"]) == 3


def test_doctests():
    import doctest

    import core.evaluation.token_home

    assert doctest.testmod(core.evaluation.token_home).failed == 0


def test_snippet_context_is_cut_between_characters():
    from core.evaluation.token_home import _whole_end, _whole_start

    text = "我们今天学习".encode()  # 3 bytes a character
    for a in range(len(text)):
        for b in range(a, len(text) + 1):
            kept = _whole_end(_whole_start(text[a:b]))
            kept.decode("utf-8")  # whole characters only (strict decoding raises on a piece of one)
            assert len(kept) >= (b - a) - 4  # at most the pieces at both ends are left out
            assert kept in text[a:b]


def test_a_text_that_is_no_token_names_the_tokens_it_is_cut_into(made, capsys):
    # it said only "b' the cat' is not a token of this vocabulary": nothing to trace instead
    _, tok, corpus = made
    ids = tok.encode(" the cat")
    assert len(ids) > 1
    with pytest.raises(TokenizerError) as e:
        token_home(tok, " the cat")
    parts = ", ".join(f"{i} {tok.vocab[i].decode()!r}" for i in ids)
    assert f"cuts it into {len(ids)} tokens ({parts})" in str(e.value)
    assert main(["trace", str(corpus.parent / "tok"), "--text", " the cat", "-q"]) == 2
    assert f"({parts})" in capsys.readouterr().err
    token_home(tok, ids[0])  # (and one of them can be traced)
