"""Patterns that HF tokenizers and tiktoken read otherwise than BPE Explorer.

- A pattern that can match the empty string (``\\p{L}*|\\s+|\\d``): HF cut ``ab ... cd``'s ``...`` at each
  empty match, tiktoken panicked. It is refused wherever a pattern is given to train with (train_bpe,
  counting, the ``train`` and ``count`` commands), naming the fix; a tokenizer read with such a pattern
  still loads.
- A pattern that does not match all text (``\\p{L}+``): tiktoken drops what it does not match, so the
  tiktoken export lost spaces and punctuation without a word. It is a lossy export now: refused unless
  asked for, as other lossy exports are; the built-in and known patterns match all text and are not.
"""

from __future__ import annotations

import pytest
import regex

from core import Tokenizer, Trainer, train_bpe
from core.cli import main
from core.errors import FormatError, PatternError
from core.formats import export_all, export_losses, load_any, save
from core.formats.spec import as_spec
from core.pretokenization.patterns import (
    GPT2_PATTERN,
    GPT4_PATTERN,
    LLAMA3_PATTERN,
    O200K_PATTERN,
    QWEN35_PATTERN,
    QWEN_PATTERN,
)
from core.pretokenization.pretokenize import count_pretokens
from core.scale.counts import count_files_text

TEXT = (
    "The robot's garden: 12 roses, 3 tulips (and weeds!). It's 9:30 now... \"Water them,\" said Ann.\n\n"
    "  Indented line\twith a tab; prices $4.99 / €5,00 — 50% off? #sale @shop\r\n"
    "中文的句子，还有标点。 日本語も。 Café naïve résumé 👍🏽 🎉 ok\n"
) * 6

#: each of these matches the empty string somewhere in ordinary text
EMPTY_MATCHING = [
    r"\p{L}*|\s+|\d",  # the outside tester's: * lets the letters' alternative match nothing
    r"(?:\p{L}+|\s+|\d)?",  # a whole pattern made optional
    r"\p{Lu}?\p{Ll}*|\s+|\d+|[^\s\p{L}\d]+",  # empty before a letter with no case (中)
    r"\p{L}+|\s+|\p{N}+|[^\s\p{L}\p{N}]+|$",  # empty at the end of a text only
    r"\p{L}+|\s+|\p{N}+|[^\s\p{L}\p{N}]+|^$",  # empty on an empty text only
]

#: what ships (GPT-2, cl100k, o200k, Llama 3, Qwen) and a custom pattern that matches all text
COVERING = [
    GPT2_PATTERN,
    GPT4_PATTERN,
    O200K_PATTERN,
    LLAMA3_PATTERN,
    QWEN_PATTERN,
    QWEN35_PATTERN,
    r"\S+|\s+",
]
#: patterns that leave text out: tiktoken drops it
GAPPY = [r"\p{L}+", r"\p{L}+|\p{N}+|\s+", r"\w+|\s+"]


def _matches_empty(pattern: str, texts: list[str]) -> bool:
    """The reference: does the regex match "" anywhere in these texts (or on "")?"""
    compiled = regex.compile(pattern)
    return compiled.search("") is not None or any(
        m.start() == m.end() for t in texts for m in compiled.finditer(t)
    )


@pytest.mark.parametrize("pattern", EMPTY_MATCHING)
def test_a_pattern_that_can_match_empty_is_refused_for_training(tmp_path, pattern):
    assert _matches_empty(pattern, [TEXT, "xyz", ""])  # (the refusal is not spurious)
    corpus = tmp_path / "c.txt"
    corpus.write_text(TEXT, encoding="utf-8")
    attempts = [
        lambda: train_bpe(corpus, 300, [], pattern=pattern),
        lambda: count_pretokens(TEXT, [], pattern, is_text=True, workers=1),
        lambda: count_files_text([TEXT], [], pattern),
        lambda: Trainer.from_text(TEXT, [], pattern=pattern),
    ]
    for attempt in attempts:
        with pytest.raises(PatternError) as e:
            attempt()
        assert e.value.code == "pattern_can_match_empty" and e.value.params["pattern"] == pattern
        assert "can match the empty string" in str(e.value) and "+ instead of *" in str(e.value)


@pytest.mark.parametrize("pattern", COVERING + GAPPY)
def test_patterns_that_never_match_empty_still_train(pattern):
    assert not _matches_empty(pattern, [TEXT, "xyz", ""])
    t = Trainer.from_text(TEXT, [], pattern=pattern)
    t.run(270)
    assert len(t.merges) == 14


def test_a_tokenizer_with_such_a_pattern_still_loads_and_encodes(tmp_path):
    """Loading keeps a file's pattern as it is (the refusal is for training)."""
    pattern = EMPTY_MATCHING[0]
    tok = Tokenizer({i: bytes([i]) for i in range(256)} | {256: b"ab"}, [(b"a", b"b")], [], pattern=pattern)
    assert tok.decode(tok.encode("ab ... cd")) == "ab ... cd"
    save(tok, tmp_path, "native")
    again = Tokenizer.from_spec(load_any(tmp_path / "bpe.json"))
    assert again.pattern_regex == pattern and again.encode("ab ... cd") == tok.encode("ab ... cd")
    with pytest.raises(FormatError) as e:  # (tiktoken fails on it: not written without consent)
        save(tok, tmp_path, "tiktoken")
    assert e.value.code == "export_pattern_empty"
    assert export_losses(as_spec(tok), "tiktoken") == [
        "a pattern that can match the empty string (tiktoken fails on it)"
    ]


def _trained(pattern: str) -> Trainer:
    t = Trainer.from_text(TEXT, ["<|endoftext|>"], pattern=pattern)
    t.run(320)
    return t


@pytest.mark.parametrize("pattern", COVERING + GAPPY)
def test_the_tiktoken_export_is_lossy_exactly_when_tiktoken_gives_other_ids(pattern):
    """Differential: tiktoken with the tokenizer's ranks and pattern against our encode."""
    from core.formats.tiktoken_bpe import tiktoken_encoding

    pytest.importorskip("tiktoken")
    t = _trained(pattern)
    ours = Tokenizer.from_spec(as_spec(t))
    enc = tiktoken_encoding(t)
    lines = [*TEXT.splitlines(keepends=True), TEXT]
    same = all(enc.encode(s, allowed_special="all") == ours.encode(s) for s in lines)
    lost = export_losses(as_spec(t), "tiktoken")
    assert bool(lost) == (not same), (pattern, lost)
    assert export_losses(as_spec(t), "hf") == export_losses(as_spec(t), "native") == []
    if lost:
        assert lost[0].startswith("the text the pattern does not match (")
        assert "tiktoken drops it" in lost[0]


@pytest.mark.parametrize("pattern", GAPPY)
def test_a_gappy_pattern_is_not_written_to_tiktoken_without_consent(tmp_path, pattern):
    from tiktoken.load import load_tiktoken_bpe

    from core.formats.tiktoken_bpe import tiktoken_encoding

    t = _trained(pattern)
    with pytest.raises(FormatError) as e:
        save(t, tmp_path / "one", "tiktoken")
    assert e.value.code == "export_pattern_gaps" and e.value.params["pattern"] == pattern
    assert "does not match all text" in str(e.value) and "tiktoken drops" in str(e.value)
    assert "--allow-lossy" in str(e.value) and "lossy=True" in str(e.value)
    with pytest.raises(FormatError):
        export_all(tmp_path / "all", t)  # (all or nothing: nothing written)
    assert not (tmp_path / "all").exists()
    assert sorted(export_all(tmp_path / "some", t, "gpt2,hf,native")) == ["gpt2", "hf", "native"]
    [path] = save(t, tmp_path / "one", "tiktoken", lossy=True)
    enc = tiktoken_encoding(t, mergeable_ranks=load_tiktoken_bpe(str(path)))
    line = "It's 9:30, Ann."
    assert enc.decode(enc.encode(line)) != line  # (what was lost: tiktoken drops the unmatched text)
    assert Tokenizer.from_spec(as_spec(t)).decode(Tokenizer.from_spec(as_spec(t)).encode(line)) == line


def _argv(*args, tmp_path, corpus):
    return [
        str(corpus) if a == "CORPUS" else str(tmp_path / a[4:]) if a.startswith("OUT:") else a for a in args
    ]


@pytest.fixture()
def corpus(tmp_path):
    p = tmp_path / "corpus.txt"
    p.write_text(TEXT, encoding="utf-8")
    return p


def test_train_and_count_refuse_an_empty_matching_pattern(tmp_path, corpus, capsys):
    for cmd in (
        ["train", "CORPUS", "--vocab-size", "300", "--out", "OUT:tok", "--pattern", r"\p{L}*|\s+|\d"],
        ["count", "CORPUS", "--out", "OUT:c.parquet", "--pattern", r"\p{L}*|\s+|\d"],
    ):
        assert main(_argv(*cmd, tmp_path=tmp_path, corpus=corpus)) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("bpe-explorer: error: pre-tokenizer regex") and "\n" not in err
        assert "can match the empty string" in err and "+ instead of *" in err
    assert not (tmp_path / "tok").exists() and not (tmp_path / "c.parquet").exists()


def test_train_leaves_tiktoken_out_for_a_gappy_pattern_and_says_why(tmp_path, corpus, capsys):
    argv = ["train", "CORPUS", "--vocab-size", "300", "--out", "OUT:tok", "--pattern", r"\p{L}+", "-q"]
    assert main(_argv(*argv, tmp_path=tmp_path, corpus=corpus)) == 0
    names = sorted(p.name for p in (tmp_path / "tok").iterdir())
    assert names == [".bpe-explorer-export.json", "bpe.json", "merges.txt", "tokenizer.json", "vocab.json"]
    err = capsys.readouterr().err
    assert "note: no bpe.tiktoken written: the tiktoken format cannot hold this tokenizer's pattern" in err
    assert "tiktoken drops the text its pattern does not match" in err and "--allow-lossy" in err


def test_train_refuses_a_chosen_tiktoken_format_before_the_run(tmp_path, corpus, capsys):
    argv = ["train", "CORPUS", "--vocab-size", "300", "--out", "OUT:tok", "--pattern", r"\p{L}+"]
    assert main(_argv(*argv, "--format", "hf,tiktoken", tmp_path=tmp_path, corpus=corpus)) == 2
    out, err = capsys.readouterr()
    assert "trained" not in out and not (tmp_path / "tok").exists()
    assert "does not match all text" in err and "--allow-lossy" in err
    lossy = _argv(*argv, "--format", "hf,tiktoken", "--allow-lossy", "-q", tmp_path=tmp_path, corpus=corpus)
    assert main(lossy) == 0
    assert (tmp_path / "tok" / "bpe.tiktoken").is_file()
    assert "warning: the tiktoken files lack the text the pattern does not match" in capsys.readouterr().err


def test_train_with_a_covering_pattern_writes_tiktoken_as_before(tmp_path, corpus, capsys):
    argv = ["train", "CORPUS", "--vocab-size", "300", "--out", "OUT:tok", "--pattern", "gpt4", "-q"]
    assert main(_argv(*argv, tmp_path=tmp_path, corpus=corpus)) == 0
    assert (tmp_path / "tok" / "bpe.tiktoken").is_file()
    assert "lack" not in capsys.readouterr().err


def test_convert_refuses_a_gappy_pattern_for_tiktoken_unless_allowed(tmp_path, corpus, capsys):
    export_all(tmp_path / "src", _trained(r"\p{L}+"), "native")
    src = str(tmp_path / "src" / "bpe.json")
    assert main(["convert", src, "--out", str(tmp_path / "a"), "--format", "tiktoken"]) == 2
    assert "does not match all text" in capsys.readouterr().err and not (tmp_path / "a").exists()
    assert main(["convert", src, "--out", str(tmp_path / "b"), "--format", "tiktoken", "--allow-lossy"]) == 0
    assert (tmp_path / "b" / "bpe.tiktoken").is_file()
    assert "the tiktoken files lack the text the pattern does not match" in capsys.readouterr().err
    assert main(["convert", src, "--out", str(tmp_path / "c"), "--format", "hf,native"]) == 0
