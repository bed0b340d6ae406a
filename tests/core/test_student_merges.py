"""A student's own ``train_bpe`` result, saved the ways students save it (pickle, JSON), is read
by ``audit``; a min() tie-break and pairs counted across pre-tokens are named as such."""

from __future__ import annotations

import itertools
import json
import pickle

import pytest
import regex

from core.bpe.byte_level import token_to_str
from core.cli import main
from core.errors import FormatError
from core.evaluation.audit import audit_merges, read_merge_list
from core.pretokenization.patterns import GPT2_PATTERN

from .reference import merge_everywhere

EOT = "<|endoftext|>"
Pair = tuple[bytes, bytes]


def _merge_from_the_right(seqs: list[list[bytes]], best: Pair) -> None:
    """Replace every occurrence of ``best``, walking each sequence backwards (``a a a`` -> ``a aa``)."""
    for k, s in enumerate(seqs):
        out, j = [], len(s) - 1
        while j >= 0:
            if j > 0 and (s[j - 1], s[j]) == best:
                out.append(s[j - 1] + s[j])
                j -= 2
            else:
                out.append(s[j])
                j -= 1
        seqs[k] = out[::-1]


def student_train(chunks: list[bytes], n: int, pick=max, *, from_the_right: bool = False) -> list[Pair]:
    """A student's slow trainer over sequences of bytes; ``pick`` chooses among the tied pairs;
    ``from_the_right``: its merge loop walks each word backwards."""
    seqs = [[bytes([x]) for x in w] for w in chunks]
    merges: list[Pair] = []
    for _ in range(n):
        counts: dict[Pair, int] = {}
        for s in seqs:
            for p in itertools.pairwise(s):
                counts[p] = counts.get(p, 0) + 1
        if not counts:
            break
        top = max(counts.values())
        best = pick([p for p, c in counts.items() if c == top])
        merges.append(best)
        (_merge_from_the_right if from_the_right else merge_everywhere)(seqs, best)
    return merges


def words(text: str) -> list[bytes]:
    return [w.encode() for piece in text.split(EOT) for w in regex.findall(GPT2_PATTERN, piece)]


PROSE = "the cat and the dog and the bird sat in the sun and then the rain came down " * 4
CHINESE = (
    "我们今天学习字节对编码。字节对编码把常见的字节对合并成新的词元。\n"
    "如果两个字节对的次数一样多，就选最大的那一个。\n"
    f"{EOT}第二篇：作业要求我们自己实现训练函数。\n"
    "我们的合并列表和参考答案不一样。\n"
) * 3


def test_min_tie_break_is_named(tmp_path):
    p = tmp_path / "c.txt"
    p.write_text(PROSE, encoding="utf-8")
    right = student_train(words(PROSE), 25)
    wrong = student_train(words(PROSE), 25, pick=min)
    k = next(i for i, (a, b) in enumerate(zip(right, wrong)) if a != b)
    r = audit_merges(p, wrong)
    assert r.first_divergence == k + 1 and r.given == wrong[k] and r.expected == right[k]
    assert r.given_count == r.expected_count
    assert r.diagnosis == "smallest_of_tie" and r.detail["tied"] >= 2
    assert "min() instead of max()" in r.explanation()


def test_pairs_across_pretokens_are_named_even_where_gpt4_fits_too(tmp_path):
    # no pre-tokenization at all: "。" and "\n" join, which GPT-4's pattern also does; the list
    # agrees much longer with no pre-tokenization, and that is what the audit must say
    p = tmp_path / "zh.txt"
    p.write_text(CHINESE, encoding="utf-8")
    wrong = student_train([c.encode() for c in CHINESE.split(EOT)], 60)
    r = audit_merges(p, wrong, [EOT])
    assert r.first_divergence is not None
    assert r.diagnosis == "other_pretokenization"
    assert r.detail["pattern"] == "none"
    assert "across pre-token boundaries" in r.explanation()


MERGES = [(b" ", b"t"), (b"h", b"e"), (b" t", b"he"), (b"\xe5", b"\xad"), (b"\xe5\xad", b"\x97")]


@pytest.mark.parametrize("protocol", [0, 2, pickle.HIGHEST_PROTOCOL])
@pytest.mark.parametrize(
    "shape",
    [
        lambda m: m,
        lambda m: ({i: bytes([i]) for i in range(256)}, m),
        lambda m: {"vocab": {0: b"\x00"}, "merges": m},
        lambda m: [list(p) for p in m],
    ],
)
def test_pickles_students_write(tmp_path, protocol, shape):
    p = tmp_path / "merges.pkl"
    p.write_bytes(pickle.dumps(shape(MERGES), protocol=protocol))
    assert read_merge_list(p) == MERGES
    q = tmp_path / "merges_no_suffix"  # found by its opening bytes
    if protocol >= 2:
        q.write_bytes(p.read_bytes())
        assert read_merge_list(q) == MERGES


def test_json_lists_students_write(tmp_path):
    p = tmp_path / "merges.json"
    for as_text in (
        lambda b: b.decode("latin-1"),  # one character a byte
        token_to_str,  # GPT-2's table ("Ġt")
    ):
        p.write_text(json.dumps([[as_text(a), as_text(b)] for a, b in MERGES]), encoding="utf-8")
        assert read_merge_list(p) == MERGES
        p.write_text(json.dumps({"merges": [[as_text(a), as_text(b)] for a, b in MERGES]}), encoding="utf-8")
        assert read_merge_list(p) == MERGES
    whole = [(b" ", b"t"), (b"\xe5\xad\x97", b"\xe8\x8a\x82")]  # UTF-8 text of whole characters
    p.write_text(json.dumps([[a.decode(), b.decode()] for a, b in whole]), encoding="utf-8")
    assert read_merge_list(p) == whole


class _Runs:
    def __reduce__(self):
        import os

        return (os.mkdir, ("SHOULD_NOT_EXIST",))


def test_bad_pickles_are_refused_with_the_fix(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    p = tmp_path / "m.pkl"
    p.write_bytes(pickle.dumps([_Runs()]))
    with pytest.raises(FormatError, match="only lists, tuples, dicts and bytes"):
        read_merge_list(p)
    assert not (tmp_path / "SHOULD_NOT_EXIST").exists()
    p.write_bytes(pickle.dumps([("a", "b")]))
    with pytest.raises(FormatError, match=r"merge 1 .* not a pair of bytes"):
        read_merge_list(p)
    p.write_bytes(pickle.dumps({"a": 1}))
    with pytest.raises(FormatError, match="not a merge list"):
        read_merge_list(p)
    p.write_bytes(b"\x80\x04garbage")
    with pytest.raises(FormatError, match="not a readable pickle"):
        read_merge_list(p)


def test_cli_audits_a_pickle(tmp_path, capsys):
    c = tmp_path / "c.txt"
    c.write_text(PROSE, encoding="utf-8")
    m = tmp_path / "merges.pkl"
    m.write_bytes(pickle.dumps(student_train(words(PROSE), 25, pick=min)))
    assert main(["audit", str(c), "--merges", str(m), "-q"]) == 1
    out = capsys.readouterr().out
    assert "differs" in out and "min() instead of max()" in out


RUNS = "wait... what... no... so... yes.. ok.. hmm.. " * 3 + "zzz zzz " * 2


def test_merging_runs_from_the_right_is_named(tmp_path):
    p = tmp_path / "runs.txt"
    p.write_text(RUNS, encoding="utf-8")
    right = student_train(words(RUNS), 30)
    wrong = student_train(words(RUNS), 30, from_the_right=True)
    k = next(i for i, (a, b) in enumerate(zip(right, wrong)) if a != b)
    r = audit_merges(p, wrong)
    assert r.first_divergence == k + 1 and r.given == wrong[k] and r.expected == right[k]
    assert r.diagnosis == "merged_from_the_right"
    assert bytes.fromhex(r.detail["token"]) == b"."  # "..." is the run the lists part on
    assert b"..." in bytes.fromhex(r.detail["example"])
    assert "from the right" in r.explanation() and "left to right" in r.explanation()
    assert audit_merges(p, right).agrees


def test_compare_and_trace_take_a_bare_merge_list(tmp_path, capsys):
    c = tmp_path / "c.txt"
    c.write_text(PROSE, encoding="utf-8")
    right = student_train(words(PROSE), 25)
    wrong = student_train(words(PROSE), 25, pick=min)
    k = next(i for i, (a, b) in enumerate(zip(right, wrong)) if a != b)
    ref = tmp_path / "ref.pkl"
    ref.write_bytes(pickle.dumps(right))
    mine = tmp_path / "mine.pkl"
    mine.write_bytes(pickle.dumps(wrong))
    # a merges.txt alone, with the student's JSON list beside it (no vocab.json anywhere)
    txt = tmp_path / "mine_merges.txt"
    txt.write_text("#version: 0.2\n" + "".join(f"{token_to_str(a)} {token_to_str(b)}\n" for a, b in wrong))
    (tmp_path / "mine.json").write_text(
        json.dumps([[a.decode("latin-1"), b.decode("latin-1")] for a, b in wrong])
    )
    for other in (mine, txt, tmp_path / "mine.json"):
        assert main(["compare", str(ref), str(other), "-q"]) == 0
        out = capsys.readouterr()
        assert f"part at merge {k + 1}" in out.out, other
        assert "bare merge list" in out.err
    a, b = wrong[k]
    assert main(["trace", str(mine), "--text", (a + b).decode(), "--corpus", str(c), "-q"]) == 0
    assert f"made by merge {k + 1} of" in capsys.readouterr().out


def test_a_json_list_beside_a_merges_txt_is_not_taken_for_its_vocab(tmp_path):
    from core.formats import find_vocab_for

    txt = tmp_path / "merges.txt"
    txt.write_text("#version: 0.2\nh e\n")
    (tmp_path / "mine.json").write_text('[["h", "e"]]')
    with pytest.raises(FormatError, match="cannot find the vocab"):
        find_vocab_for(txt)
    (tmp_path / "vocab_of_it.json").write_text('{"h": 0, "e": 1, "he": 2}')
    assert find_vocab_for(txt).name == "vocab_of_it.json"


def test_inspect_takes_a_pickle_with_its_special_token(tmp_path, capsys):
    m = tmp_path / "merges.pkl"
    m.write_bytes(pickle.dumps(student_train(words(PROSE), 10)))
    assert main(["inspect", str(m), "--special-token", EOT, "-q"]) == 0
    out = capsys.readouterr()
    assert "merges.pkl: 267 tokens" in out.out and f"special: 256 {EOT!r}" in out.out
    assert "then the special tokens" in out.err


def test_ties_broken_by_gpt2_characters_are_named_not_first_seen(tmp_path):
    # "Ġc" > "th" as str (Ġ is U+0120), but b" c" < b"th" as bytes; at the first tie the smallest
    # pair is the same one (two pairs tie), and the list's later ties tell the two mistakes apart
    from core.bpe.byte_level import token_to_str

    text = "the cat th com th com the come " * 3 + "xy yx " * 2 + "ab ba " * 2
    p = tmp_path / "c.txt"
    p.write_text(text, encoding="utf-8")
    as_str = student_train(
        words(text), 20, pick=lambda t: max(t, key=lambda q: (token_to_str(q[0]), token_to_str(q[1])))
    )
    right = student_train(words(text), 20)
    k = next(i for i, (a, b) in enumerate(zip(right, as_str)) if a != b)
    r = audit_merges(p, as_str)
    assert r.first_divergence == k + 1 and r.given == as_str[k] and r.expected == right[k]
    assert r.diagnosis == "gpt2_chars_order"
    assert "GPT-2 characters" in r.explanation()


def test_merges_printed_as_bytes_literals_are_read(tmp_path):
    odd = [*MERGES, (b"'", b"s"), (b'"', b"x"), (b"\\", b"n"), (b"\n", b"\n")]
    p = tmp_path / "merges.txt"
    p.write_text("".join(f"{a!r} {b!r}\n" for a, b in odd))
    assert read_merge_list(p) == odd
    p.write_text("".join(f"{(a, b)!r}\n" for a, b in odd))  # print(pair) for pair in merges
    assert read_merge_list(p) == odd
    p.write_text("b' ' b't'\nb'h'\n")
    with pytest.raises(FormatError, match=r"line 2: \"b'h'\" is not two bytes literals"):
        read_merge_list(p)


def test_a_merges_txt_with_raw_spaces_says_how_to_write_them(tmp_path):
    p = tmp_path / "merges.txt"
    p.write_text("  t\nh e\n")  # b" " + b"t" written as it is
    with pytest.raises(FormatError, match=r"line 1: .*GPT-2's byte characters .*pickle") as e:
        read_merge_list(p)
    assert e.value.code == "merges_raw_space"
