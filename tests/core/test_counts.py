"""Counts files: counting with first positions, Parquet round trips, sums, training from counts."""

from __future__ import annotations

import random

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st

from core import train_bpe, train_bpe_from_counts
from core.pretokenization import scan
from core.pretokenization.pretokenize import count_pretokens, resolve_pattern
from core.pretokenization.scan import count_block
from core.scale.counts import CountsError, count_files, count_files_text, trainer_from_counts
from core.scale.counts_io import read_counts, sum_counts, to_arrow, write_counts

pa = pytest.importorskip("pyarrow")  # the scale extra is part of the test extra
import pyarrow.parquet as pq  # noqa: E402

EOT = "<|endoftext|>"
SPECIAL_POOL = [EOT, "<|a|>", "<|a|><|a|>", "[x]"]
FRAGMENTS = [
    b"the",
    b" the",
    b" cat",
    b" cats",
    b"at",
    b"  ",
    b"   ",
    b"\t",
    b"\n",
    b"\n\n",
    b"\r\n",
    b"123",
    b" 4567",
    b"don't",
    b"'s",
    b"!!",
    b" ...",
    "\U0001f642".encode(),
    "\u4e2d\u6587".encode(),
    "\u00e9".encode(),
    b"a",
    b"\xff",
    b"\xc3",
    b"\xe9t\xe9",
    b"x.\nNext",
    b"\xef\xbb\xbf",
] + [s.encode() for s in SPECIAL_POOL]
PATTERNS = ["gpt2", "gpt4", "none", r"\w+"]  # \w+ skips text: positions come from the regex itself


def corpus(seed: int, n: int = 3000, specials=(EOT,)) -> bytes:
    rng = random.Random(seed)
    frags = [f for f in FRAGMENTS if f.decode("utf-8", "replace") not in SPECIAL_POOL] + [
        s.encode() for s in specials
    ]
    return b"".join(rng.choice(frags) for _ in range(n))


def reference_first_offsets(data: bytes, pattern: str | None, specials: list[str]) -> dict[bytes, int]:
    """Byte offset of every pre-token's first occurrence, by scanning the whole text once."""
    text = data.decode("utf-8", "surrogateescape")
    pieces, pos = [], 0
    if specials:
        sre = regex.compile("|".join(regex.escape(s) for s in sorted(specials, key=len, reverse=True)))
        for m in sre.finditer(text):
            pieces.append((pos, m.start()))
            pos = m.end()
    pieces.append((pos, len(text)))
    first: dict[bytes, int] = {}
    for s, e in pieces:
        if s == e:
            continue
        if pattern is None:
            found = [(s, text[s:e])]
        else:
            found, at = [], s  # text no match covers is a pre-token of its own (never dropped)
            for m in regex.finditer(pattern, text[s:e]):
                if s + m.start() > at:
                    found.append((at, text[at : s + m.start()]))
                if m.group():
                    found.append((s + m.start(), m.group()))
                at = s + m.end()
            if at < e:
                found.append((at, text[at:e]))
        for c, tok in found:
            key = tok.encode("utf-8", "surrogateescape")
            if key not in first:
                first[key] = len(text[:c].encode("utf-8", "surrogateescape"))
    return first


@pytest.mark.parametrize("pattern", PATTERNS)
def test_count_files_equals_count_pretokens_in_order_with_first_offsets(tmp_path, pattern):
    data = corpus(1)
    path = tmp_path / "c.txt"
    path.write_bytes(data)
    want, _ = count_pretokens(path, [EOT], pattern, workers=1)
    got = count_files([path], [EOT], pattern, workers=1, block_bytes=500)  # many blocks
    assert list(got.word_counts().items()) == list(want.items())
    first = reference_first_offsets(data, resolve_pattern(pattern), [EOT])
    assert dict(zip(got.tokens, got.offsets)) == first
    assert set(got.files) == {0}
    assert got.meta.invalid_bytes > 0 and got.meta.size_bytes == len(data)


@given(
    st.lists(st.sampled_from(FRAGMENTS), max_size=80).map(b"".join),
    st.lists(st.sampled_from(SPECIAL_POOL), unique=True, max_size=2),
    st.sampled_from(PATTERNS),
    st.sampled_from([True, False]),
)
def test_count_block_matches_a_whole_text_scan(data, specials, pattern, chunked):
    """By distinct chunks (GPT-2/GPT-4 patterns) or the plain way: the same counts, order and offsets."""
    pat = resolve_pattern(pattern)
    scan.COUNT_BY_CHUNKS = chunked
    try:
        b = count_block(data, 1000, pat, tuple(specials))
    finally:
        scan.COUNT_BY_CHUNKS = None
    want, _ = count_pretokens(data, specials, pattern, workers=1)
    assert dict(zip(b.tokens, b.counts)) == want and b.tokens == list(want)
    assert {t: o - 1000 for t, o in zip(b.tokens, b.offsets)} == reference_first_offsets(data, pat, specials)


def test_several_files_are_counted_each_on_its_own_in_file_order(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_bytes(b"hello wor")  # no pre-token crosses into the next file
    b.write_bytes(b"ld hello there")
    c = count_files([a, b], [], workers=1)
    assert c.word_counts() == {b"hello": 1, b" wor": 1, b"ld": 1, b" hello": 1, b" there": 1}
    assert list(zip(c.files, c.offsets))[:4] == [(0, 0), (0, 5), (1, 0), (1, 2)]
    glob_c = count_files([str(tmp_path / "*.txt")], [], workers=1)
    assert glob_c.word_counts() == c.word_counts() and glob_c.meta.sources == (str(a), str(b))


def test_count_files_with_worker_processes_equals_one_process(tmp_path):
    path = tmp_path / "c.txt"
    path.write_bytes(corpus(2, 6000))
    one = count_files([path], [EOT], workers=1, block_bytes=2000)
    two = count_files([path], [EOT], workers=2, block_bytes=2000)
    assert (two.tokens, two.counts, two.offsets) == (one.tokens, one.counts, one.offsets)


def test_parquet_round_trip_keeps_bytes_counts_positions_and_metadata(tmp_path):
    c = count_files_text(["caf\udcc3 the<|a|>the \udcff", "the end"], ["<|a|>"], "gpt4")
    out = write_counts(c, tmp_path / "c.parquet")
    back = read_counts(out)
    assert (back.tokens, back.counts, back.files, back.offsets) == (c.tokens, c.counts, c.files, c.offsets)
    assert back.meta == c.meta and back.meta.special_tokens == ("<|a|>",)
    assert b"\xc3" in back.tokens and b" \xff" in back.tokens  # invalid bytes kept as they were
    schema = pq.read_schema(out)
    assert [(f.name, str(f.type)) for f in schema] == [
        ("token", "binary"),
        ("count", "int64"),
        ("first_file", "int32"),
        ("first_offset", "int64"),
    ]


def test_rows_in_any_order_and_a_folder_of_parts_are_read_in_first_seen_order(tmp_path):
    """What a Spark job writes: a folder of part files, rows unordered, wider integer types."""
    c = count_files_text([" ".join(f"w{i % 37}" for i in range(500))], [])
    t = to_arrow(c)
    idx = list(range(t.num_rows))
    random.Random(0).shuffle(idx)
    t = t.take(pa.array(idx)).cast(
        pa.schema(
            [
                ("token", pa.binary()),
                ("count", pa.int64()),
                ("first_file", pa.int64()),
                ("first_offset", pa.int64()),
            ]
        )
    )
    t = t.replace_schema_metadata(to_arrow(c).schema.metadata)  # (cast drops it)
    folder = tmp_path / "spark_out"
    folder.mkdir()
    pq.write_table(t.slice(0, 10), folder / "part-0000.parquet")
    pq.write_table(t.slice(10).replace_schema_metadata(None), folder / "part-0001.parquet")
    back = read_counts(folder)
    assert back.tokens == c.tokens and back.counts == c.counts and back.meta.known


def test_counts_without_metadata_need_the_pattern_and_special_tokens(tmp_path):
    c = count_files_text(["low lower lowest"], [])
    pq.write_table(to_arrow(c).replace_schema_metadata(None), tmp_path / "bare.parquet")
    with pytest.raises(CountsError, match="no 'bpe_explorer' metadata: pass the pattern"):
        trainer_from_counts(tmp_path / "bare.parquet")
    t = trainer_from_counts(tmp_path / "bare.parquet", pattern="gpt2")  # no special tokens then
    assert t.special_tokens == [] and t.step().pair == (b"o", b"w")  # ties with (l, o): the greater wins


def test_cli_trains_from_counts_without_metadata_and_says_what_it_trained_on(tmp_path, capsys):
    """A counts file a Spark job wrote (no metadata, so no corpus size): not called an empty corpus."""
    from core.cli import main

    c = count_files_text(["low lower lowest " * 20], [])
    pq.write_table(to_arrow(c).replace_schema_metadata(None), tmp_path / "bare.parquet")
    assert (
        main(
            [
                "train",
                "--counts",
                str(tmp_path / "bare.parquet"),
                "--vocab-size",
                "260",
                "--out",
                str(tmp_path / "out"),
                "-q",
            ]
        )
        != 0
    )
    assert "--pattern gpt2" in capsys.readouterr().err
    assert (
        main(
            [
                "train",
                "--counts",
                str(tmp_path / "bare.parquet"),
                "--pattern",
                "gpt2",
                "--vocab-size",
                "260",
                "--out",
                str(tmp_path / "out"),
                "-q",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert (
        "trained 4 merges" in out and "empty" not in out and f"on {sum(c.counts):,} counted pre-tokens" in out
    )


@pytest.mark.parametrize(
    "table,msg",
    [
        ({"token": [b"a"], "first_file": [0], "first_offset": [0]}, "lacks the column"),
        (
            {"token": [b"a", b"a"], "count": [1, 2], "first_file": [0, 0], "first_offset": [0, 1]},
            "token twice",
        ),
        ({"token": [b"a"], "count": [0], "first_file": [0], "first_offset": [0]}, "count of at least 1"),
    ],
)
def test_malformed_counts_files_are_refused_clearly(tmp_path, table, msg):
    pq.write_table(pa.table(table), tmp_path / "bad.parquet")
    with pytest.raises(CountsError, match=msg):
        read_counts(tmp_path / "bad.parquet")


def test_a_file_that_is_not_parquet_is_refused(tmp_path):
    (tmp_path / "x.parquet").write_text("hello")
    with pytest.raises(CountsError, match="not a readable Parquet counts file"):
        read_counts(tmp_path / "x.parquet")
    with pytest.raises(CountsError, match="does not exist"):
        read_counts(tmp_path / "missing.parquet")


def test_summed_counts_files_equal_counting_all_files_at_once(tmp_path):
    paths = []
    for i in range(3):
        p = tmp_path / f"p{i}.txt"
        p.write_bytes(corpus(10 + i, 800) + EOT.encode())
        paths.append(p)
    whole = count_files(paths, [EOT], workers=1)
    parts = [
        write_counts(count_files([p], [EOT], workers=1), tmp_path / f"p{i}.parquet")
        for i, p in enumerate(paths)
    ]
    summed = sum_counts(read_counts(p) for p in parts)
    assert (summed.tokens, summed.counts, summed.files, summed.offsets) == (
        whole.tokens,
        whole.counts,
        whole.files,
        whole.offsets,
    )
    assert summed.meta.sources == whole.meta.sources


def test_summing_counts_of_different_patterns_or_special_tokens_is_refused():
    a = count_files_text(["the cat"], [EOT], "gpt2")
    with pytest.raises(CountsError, match=r"pattern 'gpt4'.*same pattern"):
        sum_counts([a, count_files_text(["the cat"], [EOT], "gpt4")])
    with pytest.raises(CountsError, match="same special tokens"):
        sum_counts([a, count_files_text(["the cat"], [], "gpt2")])


@pytest.mark.parametrize("tie_break", ["lexicographic", "first"])
@pytest.mark.parametrize("pattern", ["gpt2", "none"])
def test_training_from_counts_equals_train_bpe(tmp_path, tie_break, pattern):
    data = corpus(3, 4000, specials=(EOT, "<|a|>"))
    path = tmp_path / "c.txt"
    path.write_bytes(data)
    assert b"\xff" in data
    vocab, merges = train_bpe(path, 420, [EOT, "<|a|>"], pattern=pattern, tie_break=tie_break, workers=1)
    counts = write_counts(
        count_files([path], [EOT, "<|a|>"], pattern, workers=1, block_bytes=900), tmp_path / "c.parquet"
    )
    v2, m2 = train_bpe_from_counts(counts, 420, tie_break=tie_break)
    assert m2 == merges and v2 == vocab


@pytest.mark.parametrize("tie_break", ["lexicographic", "first"])
def test_training_from_summed_counts_of_several_files_equals_train_bpe_on_their_concatenation(
    tmp_path, tie_break
):
    datas = [corpus(20 + i, 1500) + EOT.encode() for i in range(3)]  # each file ends at a special token
    paths = []
    for i, d in enumerate(datas):
        paths.append(
            write_counts(
                count_files_text([d.decode("utf-8", "surrogateescape")], [EOT]), tmp_path / f"{i}.parquet"
            )
        )
    (tmp_path / "all.txt").write_bytes(b"".join(datas))
    vocab, merges = train_bpe(tmp_path / "all.txt", 380, [EOT], tie_break=tie_break, workers=1)
    assert train_bpe_from_counts(paths, 380, tie_break=tie_break) == (vocab, merges)


def test_trainer_from_counts_checks_the_settings_against_the_counts():
    c = count_files_text(["the cat<|a|><|b|>"], ["<|a|>", "<|b|>"], "gpt4")
    t = trainer_from_counts(c)
    assert t.pattern == "gpt4" and t.special_tokens == ["<|a|>", "<|b|>"]
    assert trainer_from_counts(c, ["<|b|>", "<|a|>"]).vocab[256] == b"<|b|>"  # order sets the ids
    with pytest.raises(CountsError, match="made with pattern 'gpt4', not 'gpt2'"):
        trainer_from_counts(c, pattern="gpt2")
    custom = count_files_text(["the cat 12"], [], r"\p{L}+|\s+|\d")
    with pytest.raises(CountsError) as e:  # the regex as written, not its repr (doubled backslashes)
        trainer_from_counts(custom, pattern="gpt2")
    assert "pattern '\\p{L}+|\\s+|\\d', not 'gpt2'" in str(e.value)
    with pytest.raises(CountsError, match="made with special tokens"):
        trainer_from_counts(c, ["<|a|>"])
    assert t.stats.distinct_pretokens == 2 and t.stats.pretokens == 2


@pytest.mark.parametrize("name", ["gpt2", "gpt4", "none"])
def test_count_block_takes_a_pattern_name_as_everything_else_does(name):
    """A Spark job following the README may pass "gpt2": that is GPT-2's pattern, not the regex ``gpt2``."""
    data = b"the gpt2 cat, gpt4 and none\n" * 3
    by_name = count_block(data, 0, name, ())
    by_regex = count_block(data, 0, resolve_pattern(name), ())
    assert (by_name.tokens, by_name.counts, by_name.offsets) == (
        by_regex.tokens,
        by_regex.counts,
        by_regex.offsets,
    )
    assert len(by_name.tokens) > 3 or name == "none"


def test_a_full_disk_while_writing_counts_says_what_to_do(tmp_path, monkeypatch):
    # pyarrow's "[Errno 28] Error writing bytes to file" was the whole message: no path to a fix
    corpus = tmp_path / "c.txt"
    corpus.write_text("hello world " * 50, encoding="utf-8")
    counts = count_files([corpus], [EOT], workers=1)
    out = tmp_path / "c.parquet"
    write_counts(counts, out)
    before = out.read_bytes()

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pq, "write_table", full)
    with pytest.raises(CountsError, match="No space left on device") as e:
        write_counts(counts, out)
    assert "free space" in str(e.value) and "unchanged" in str(e.value)
    assert out.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.parquet", "c.txt"]  # no temp file left
