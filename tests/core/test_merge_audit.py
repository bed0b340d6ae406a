"""``audit``: merge lists from deliberately wrong trainers are caught at their first wrong merge,
with the right diagnosis (the wrong trainers are written here, sharing nothing with core)."""

from __future__ import annotations

import itertools
import json

import pytest
import regex

from core.bpe.byte_level import token_to_str
from core.cli import main
from core.errors import BPEError, FormatError
from core.evaluation.audit import audit_merges, read_merge_list
from core.pretokenization.patterns import GPT2_PATTERN

from .reference import merge_everywhere

EOT = "<|endoftext|>"


def naive_train(words: list[bytes], n: int, *, first_seen: bool = False) -> list[tuple[bytes, bytes]]:
    """A slow trainer over word occurrences in text order: recount every pair before every merge;
    ties go to the greatest pair, or (``first_seen``) to the pair met first in the text."""
    seqs = [[bytes([x]) for x in w] for w in words]
    merges = []
    for _ in range(n):
        counts: dict[tuple[bytes, bytes], int] = {}
        for s in seqs:
            for p in itertools.pairwise(s):
                counts[p] = counts.get(p, 0) + 1
        if not counts:
            break
        top = max(counts.values())
        tied = [p for p, c in counts.items() if c == top]  # in first-seen order
        best = tied[0] if first_seen else max(tied)
        merges.append(best)
        merge_everywhere(seqs, best)
    return merges


def gpt2_words(text: str, specials: list[str]) -> list[bytes]:
    pieces = regex.split("|".join(map(regex.escape, specials)), text) if specials else [text]
    return [w.encode() for piece in pieces for w in regex.findall(GPT2_PATTERN, piece)]


TIES = "zz yy xx ab ab cd cd " * 3 + "the cat sat on the mat " * 2
SPECIALS = f"one fish{EOT}two fish{EOT}" * 2 + f"{EOT}{EOT}" * 4 + "red fish blue fish"
PROSE = "then the thin thing thanks the other thinker; the theory then thrives " * 5


@pytest.fixture()
def write(tmp_path):
    def w(text: str, name: str = "corpus.txt"):
        p = tmp_path / name
        p.write_text(text, encoding="utf-8")
        return p

    return w


def test_correct_list_agrees(write):
    p = write(PROSE)
    merges = naive_train(gpt2_words(PROSE, []), 20)
    r = audit_merges(p, merges)
    assert r.agrees and r.first_divergence is None and r.merges_checked == 20
    assert r.to_json()["first_divergence"] is None and r.to_json()["diagnosis"] is None


def test_first_seen_ties_are_diagnosed(write):
    p = write(TIES)
    right = naive_train(gpt2_words(TIES, []), 12)
    wrong = naive_train(gpt2_words(TIES, []), 12, first_seen=True)
    k = next(i for i, (a, b) in enumerate(zip(right, wrong)) if a != b)
    r = audit_merges(p, wrong)
    assert r.first_divergence == k + 1 and r.merges_checked == k
    assert r.given == wrong[k] and r.expected == right[k]
    assert r.given_count == r.expected_count > 0
    assert r.diagnosis == "other_tie_rule" and r.detail["rule"] == "first"
    # and the other way round: a greatest-pair list audited against first-seen training
    back = audit_merges(p, right, tie_break="first")
    assert back.diagnosis == "other_tie_rule" and back.detail["rule"] == "lexicographic"
    assert audit_merges(p, wrong, tie_break="first").agrees


def test_specials_left_in_the_text_are_diagnosed(write):
    p = write(SPECIALS)
    right = naive_train(gpt2_words(SPECIALS, [EOT]), 10)
    wrong = naive_train(gpt2_words(SPECIALS, []), 10)  # the special token pre-tokenized as text
    k = next(i for i, (a, b) in enumerate(zip(right, wrong)) if a != b)
    r = audit_merges(p, wrong, [EOT])
    assert r.first_divergence == k + 1 and r.given == wrong[k] and r.expected == right[k]
    assert r.diagnosis == "specials_not_removed"
    # the true count (specials removed) is lower than the count the wrong trainer saw
    assert r.given_count < r.detail["count"]
    assert audit_merges(p, right, [EOT]).agrees


def test_whitespace_pretokenization_is_diagnosed(write):
    p = write(PROSE)
    right = naive_train(gpt2_words(PROSE, []), 10)
    wrong = naive_train([w.encode() for w in PROSE.split()], 10)
    k = next(i for i, (a, b) in enumerate(zip(right, wrong)) if a != b)
    r = audit_merges(p, wrong)
    assert r.first_divergence == k + 1 and r.given == wrong[k] and r.expected == right[k]
    assert r.diagnosis == "other_pretokenization" and r.detail["pattern"] == "whitespace"
    assert r.given_count < r.expected_count


def test_absent_pair_and_later_order(write):
    p = write(PROSE)
    right = naive_train(gpt2_words(PROSE, []), 12)
    absent = [*right[:4], (b"q", b"q"), *right[4:]]
    r = audit_merges(p, absent)
    assert (r.first_divergence, r.diagnosis, r.given_count) == (5, "pair_absent", 0)
    swapped = list(right)
    swapped[3], swapped[7] = swapped[7], swapped[3]
    r = audit_merges(p, swapped)
    assert r.first_divergence == 4 and r.diagnosis == "order_differs"
    assert r.detail == {"expected_in_given": 8, "given_in_training": 8}
    assert 0 < r.given_count < r.expected_count


def test_list_longer_than_training(write):
    p = write("abab")
    r = audit_merges(p, [(b"a", b"b"), (b"ab", b"ab"), (b"abab", b"x")])
    assert r.first_divergence == 3 and r.diagnosis == "no_pairs_left" and r.expected is None


def test_bad_tie_rule_is_refused(write):
    with pytest.raises(BPEError, match="tie_break"):
        audit_merges(write("ab"), [], tie_break="random")


def test_cli_json_and_merges_txt(write, tmp_path, capsys):
    p = write(TIES)
    wrong = naive_train(gpt2_words(TIES, []), 12, first_seen=True)
    merges = tmp_path / "merges.txt"
    merges.write_text("#version: 0.2\n" + "".join(f"{token_to_str(a)} {token_to_str(b)}\n" for a, b in wrong))
    out = tmp_path / "audit.json"
    assert main(["audit", str(p), "--merges", str(merges), "--json", str(out), "-q"]) == 1  # (they differ)
    text = capsys.readouterr().out
    assert "differs" in text and "other_tie_rule" in text
    data = json.loads(out.read_text())
    r = audit_merges(p, wrong)
    assert data["first_divergence"] == r.first_divergence
    assert data["given"] == [r.given[0].hex(), r.given[1].hex()]
    assert data["expected"] == [r.expected[0].hex(), r.expected[1].hex()]
    assert (data["given_count"], data["expected_count"], data["diagnosis"]) == (
        r.given_count,
        r.expected_count,
        "other_tie_rule",
    )


def test_cli_reads_a_tokenizer_file_and_reports_agreement(write, tmp_path, capsys):
    p = write(PROSE)
    assert main(["train", str(p), "--vocab-size", "280", "--out", str(tmp_path / "tok"), "-q"]) == 0
    capsys.readouterr()
    assert main(["audit", str(p), "--merges", str(tmp_path / "tok" / "tokenizer.json"), "-q"]) == 0
    assert "all 24 merges agree" in capsys.readouterr().out
    assert len(read_merge_list(tmp_path / "tok" / "merges.txt")) == 24


def test_bad_merges_file_is_one_line_error(write, tmp_path, capsys):
    p = write(PROSE)
    bad = tmp_path / "merges.txt"
    bad.write_text("a b c\n")
    with pytest.raises(FormatError, match="line 1"):
        read_merge_list(bad)
    assert main(["audit", str(p), "--merges", str(bad), "-q"]) == 2
    assert "line 1" in capsys.readouterr().err


def test_doctests():
    import doctest

    import core.evaluation.audit

    assert doctest.testmod(core.evaluation.audit).failed == 0


def test_cancel(write):
    from core.errors import Cancelled

    p = write(PROSE)
    merges = naive_train(gpt2_words(PROSE, []), 20)
    seen = []

    def stop(phase, done, total):
        seen.append(phase)
        return phase != "replay"

    with pytest.raises(Cancelled):
        audit_merges(p, merges, progress=stop)
    assert seen[-1] == "replay"


def test_a_forgotten_special_token_is_pointed_at(tmp_path, capsys):
    import random

    from core import train_bpe

    rng = random.Random(
        1
    )  # short documents of random letters: the special token's pieces are the most frequent
    docs = ["".join(rng.choice("abcdefghij") for _ in range(6)) for _ in range(300)]
    corpus = tmp_path / "c.txt"
    corpus.write_text("<|endoftext|>".join(docs), encoding="utf-8")
    _, merges = train_bpe(corpus, 300, ["<|endoftext|>"])
    path = tmp_path / "merges.txt"
    path.write_text("#version: 0.2\n" + "".join(f"{token_to_str(a)} {token_to_str(b)}\n" for a, b in merges))
    assert main(["audit", str(corpus), "--merges", str(path), "-q"]) == 1  # no --special-token given
    out = capsys.readouterr().out
    assert "--special-token '<|endoftext|>'" in out
    assert main(["audit", str(corpus), "--merges", str(path), "--special-token", "<|endoftext|>", "-q"]) == 0
