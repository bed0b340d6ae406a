"""Counts files as other tools write them (Spark, Ray, pandas, polars, DuckDB follow the README's schema)."""

from __future__ import annotations

import json
import random

import pytest

from core import train_bpe, train_bpe_from_counts
from core.pretokenization.pretokenize import GPT2_PATTERN
from core.pretokenization.scan import count_block
from core.scale.counts import CountsError, trainer_from_counts
from core.scale.counts_io import read_counts, sum_counts

pa = pytest.importorskip("pyarrow")  # the scale extra is part of the test extra
import pyarrow.compute  # noqa: E402,F401  (pa.compute)
import pyarrow.parquet as pq  # noqa: E402

WORDS = ["the", " the", " cat", " cats", " sat", "\n", "  ", " 42", "!", " a", " at", " hat", "'s"]


def text(seed: int, n: int = 1500) -> bytes:
    rng = random.Random(seed)
    return "".join(rng.choice(WORDS) for _ in range(n)).encode()


def table_of(data: bytes, file_index: int = 0) -> pa.Table:
    """What a user's job makes of one file: count_block's rows, as the README suggests."""
    b = count_block(data, 0, "gpt2", ())
    return pa.table(
        {
            "token": pa.array(b.tokens, pa.binary()),
            "count": pa.array(b.counts, pa.int64()),
            "first_file": pa.array([file_index] * len(b.tokens), pa.int32()),
            "first_offset": pa.array(b.offsets, pa.int64()),
        }
    )


def with_meta(table: pa.Table, **meta) -> pa.Table:
    record = {"format": "bpe-explorer-counts", "version": 1} | meta
    return table.replace_schema_metadata({"bpe_explorer": json.dumps(record)})


def test_metadata_with_only_pattern_name_is_read_with_that_pattern(tmp_path):
    """The README shows both "pattern" and "pattern_name": a job that writes only the name must not
    get a tokenizer without pre-tokenization."""
    data = text(0)
    (tmp_path / "c.txt").write_bytes(data)
    path = tmp_path / "c.parquet"
    pq.write_table(with_meta(table_of(data), pattern_name="gpt2", special_tokens=[], sources=["c.txt"]), path)
    assert read_counts(path).meta.pattern == GPT2_PATTERN
    assert trainer_from_counts(path).pattern == "gpt2"
    assert train_bpe_from_counts(path, 300) == train_bpe(tmp_path / "c.txt", 300, [], workers=1)


def test_metadata_without_any_pattern_or_with_two_that_disagree_is_refused(tmp_path):
    path = tmp_path / "c.parquet"
    pq.write_table(with_meta(table_of(text(0)), special_tokens=[], sources=["c.txt"]), path)
    with pytest.raises(CountsError, match=r"no 'pattern'.*null for no pre-tokenization"):
        read_counts(path)
    pq.write_table(
        with_meta(
            table_of(text(0)), pattern=GPT2_PATTERN, pattern_name="gpt4", special_tokens=[], sources=["c.txt"]
        ),
        path,
    )
    with pytest.raises(CountsError, match="pattern 'gpt2' but pattern_name 'gpt4'"):
        read_counts(path)
    pq.write_table(with_meta(table_of(text(0)), pattern=None, special_tokens=[], sources=["c.txt"]), path)
    assert read_counts(path).meta.pattern is None  # null: no pre-tokenization, said explicitly


def test_metadata_without_sources_takes_its_files_from_first_file(tmp_path):
    """Summing shifts file indices by the number of sources: a job's two files without a "sources"
    list must still keep each part's files apart (the "first" tie rule follows them)."""
    parts = [text(1), text(2), text(3)]
    (tmp_path / "all.txt").write_bytes(parts[0] + b"\n" + parts[1] + b"\n" + parts[2])
    pieces = [parts[0] + b"\n", parts[1] + b"\n", parts[2]]  # (each ends at a place a pre-token ends)
    one = pa.concat_tables([table_of(pieces[0], 0), table_of(pieces[1], 1)])
    one = one.group_by("token").aggregate([("count", "sum")]).rename_columns(["token", "count"])
    firsts = {}
    for fi, piece in enumerate(pieces[:2]):
        b = count_block(piece, 0, "gpt2", ())
        for t, o in zip(b.tokens, b.offsets):
            firsts.setdefault(t, (fi, o))
    toks = one["token"].to_pylist()
    one = one.append_column("first_file", pa.array([firsts[t][0] for t in toks], pa.int32()))
    one = one.append_column("first_offset", pa.array([firsts[t][1] for t in toks], pa.int64()))
    pq.write_table(with_meta(one, pattern="gpt2", special_tokens=[]), tmp_path / "a.parquet")
    pq.write_table(with_meta(table_of(pieces[2]), pattern="gpt2", special_tokens=[]), tmp_path / "b.parquet")
    a = read_counts(tmp_path / "a.parquet")
    assert len(a.meta.sources) == 2
    summed = sum_counts([a, read_counts(tmp_path / "b.parquet")])
    assert sorted(set(summed.files)) == [0, 1, 2]
    want = train_bpe(tmp_path / "all.txt", 320, [], tie_break="first", workers=1)
    assert train_bpe_from_counts(summed, 320, tie_break="first") == want


@pytest.mark.parametrize(
    "change,msg",
    [
        (
            lambda t: t.set_column(2, "first_file", pa.array([1] * t.num_rows, pa.int32())),
            "first_file goes up to 1 but the metadata lists 1 source",
        ),
        (
            lambda t: t.set_column(3, "first_offset", pa.array([-1] * t.num_rows, pa.int64())),
            "must be at least 0",
        ),
        (
            lambda t: t.set_column(3, "first_offset", pa.array([None] * t.num_rows, pa.int64())),
            "need a value in every row",
        ),
    ],
)
def test_first_positions_that_cannot_be_right_are_refused(tmp_path, change, msg):
    path = tmp_path / "c.parquet"
    pq.write_table(
        with_meta(change(table_of(text(0))), pattern="gpt2", special_tokens=[], sources=["c.txt"]), path
    )
    with pytest.raises(CountsError, match=msg):
        read_counts(path)


@pytest.mark.parametrize(
    "token_type", ["large_binary", "binary_view", "string", "large_string", "string_view"]
)
@pytest.mark.parametrize("count_type", ["int32", "uint64"])
def test_other_writers_column_types_train_like_train_bpe(tmp_path, token_type, count_type):
    """polars writes large/view types, Spark StringType tokens, pandas int32 or unsigned counts."""
    data = text(4)
    (tmp_path / "c.txt").write_bytes(data)
    t = table_of(data)
    tokens = t["token"] if "binary" in token_type else pa.array([x.decode() for x in t["token"].to_pylist()])
    t = t.set_column(0, "token", tokens.cast(getattr(pa, token_type)()))
    t = t.set_column(1, "count", t["count"].cast(getattr(pa, count_type)()))
    path = tmp_path / "c.parquet"
    pq.write_table(
        with_meta(t, pattern="gpt2", special_tokens=[], sources=["c.txt"]), path, row_group_size=50
    )
    for tie_break in ("lexicographic", "first"):
        want = train_bpe(tmp_path / "c.txt", 300, [], tie_break=tie_break, workers=1)
        assert train_bpe_from_counts(path, 300, tie_break=tie_break) == want


def test_a_plain_word_count_trains_with_the_lexicographic_rule_and_refuses_the_first_rule(tmp_path):
    """A Spark or pandas word count has only token and count: enough for the lexicographic rule
    (ties never depend on order), not for "first" (which needs first positions)."""
    data = text(5)
    (tmp_path / "c.txt").write_bytes(data)
    rows = table_of(data).select(["token", "count"])
    rows = rows.take(pa.array(random.Random(0).sample(range(rows.num_rows), rows.num_rows)))  # any order
    path = tmp_path / "wc.parquet"
    pq.write_table(rows, path)  # no metadata either
    want = train_bpe(tmp_path / "c.txt", 300, [], workers=1)
    assert train_bpe_from_counts(path, 300, pattern="gpt2") == want
    with pytest.raises(CountsError, match=r"'first' tie rule needs.*--tie-break lexicographic"):
        train_bpe_from_counts(path, 300, pattern="gpt2", tie_break="first")
    pq.write_table(with_meta(rows, pattern="gpt2", special_tokens=[], sources=["c.txt"]), path)
    c = read_counts(path)
    assert not c.meta.positions
    full = tmp_path / "full.parquet"
    pq.write_table(with_meta(table_of(data), pattern="gpt2", special_tokens=[], sources=["c.txt"]), full)
    summed = sum_counts([read_counts(full), c])
    assert not summed.meta.positions and summed.word_counts() == {
        t: 2 * n for t, n in c.word_counts().items()
    }
    with pytest.raises(CountsError, match="'first' tie rule needs"):
        trainer_from_counts(summed, tie_break="first")
    from core.scale.counts_io import write_counts

    write_counts(summed, tmp_path / "again.parquet")  # written without the columns, read back the same way
    assert pq.read_schema(tmp_path / "again.parquet").names == ["token", "count"]
    assert not read_counts(tmp_path / "again.parquet").meta.positions


def test_one_position_column_without_the_other_is_refused(tmp_path):
    path = tmp_path / "c.parquet"
    pq.write_table(
        with_meta(
            table_of(text(0)).drop_columns(["first_offset"]),
            pattern="gpt2",
            special_tokens=[],
            sources=["c.txt"],
        ),
        path,
    )
    with pytest.raises(CountsError, match=r"lacks the column.s. first_offset.*both or neither"):
        read_counts(path)


def test_a_partitioned_folder_whose_files_also_hold_the_partition_column_is_read(tmp_path):
    """polars' partition_by writes key=value folders and keeps the column in the files too."""
    data = text(6)
    (tmp_path / "c.txt").write_bytes(data)
    t = table_of(data)
    t = t.append_column("bucket", pa.array([i % 2 for i in range(t.num_rows)], pa.int64()))
    for b in (0, 1):
        (tmp_path / "wc" / f"bucket={b}").mkdir(parents=True)
        part = t.filter(pa.compute.equal(t["bucket"], b))
        meta = {"pattern": "gpt2", "special_tokens": [], "sources": ["c.txt"]} if b else {}
        pq.write_table(
            with_meta(part, **meta) if meta else part, tmp_path / "wc" / f"bucket={b}" / "0.parquet"
        )
    c = read_counts(tmp_path / "wc")
    assert c.meta.known and c.meta.pattern == GPT2_PATTERN  # (the metadata sits in a part in a subfolder)
    assert train_bpe_from_counts(c, 300) == train_bpe(tmp_path / "c.txt", 300, [], workers=1)


def test_a_folder_of_separate_counts_files_says_to_pass_them_one_by_one(tmp_path):
    (tmp_path / "runs").mkdir()
    for i in (0, 1):
        meta = {"pattern": "gpt2", "special_tokens": [], "sources": [f"c{i}.txt"]}
        pq.write_table(with_meta(table_of(text(i)), **meta), tmp_path / "runs" / f"c{i}.parquet")
    with pytest.raises(CountsError, match=r"counts of 2 separate runs.*own --counts"):
        read_counts(tmp_path / "runs")
    (tmp_path / "job").mkdir()  # one job's parts that list a token twice: the general message
    for i in (0, 1):
        pq.write_table(
            with_meta(table_of(text(i)), pattern="gpt2", special_tokens=[], sources=["c.txt"]),
            tmp_path / "job" / f"part-{i}.parquet",
        )
    with pytest.raises(CountsError, match="lists a token twice; sum the rows per token"):
        read_counts(tmp_path / "job")


def test_tokens_left_in_a_pandas_index_are_named_in_the_error(tmp_path):
    """pd.Series(Counter(words)).to_frame("count").to_parquet(...) keeps the tokens as the index."""
    t = table_of(text(0))
    t = pa.table({"count": t["count"], "__index_level_0__": t["token"]})
    pq.write_table(t, tmp_path / "wc.parquet")
    with pytest.raises(CountsError, match=r"pandas index: write df.reset_index\(names='token'\)"):
        read_counts(tmp_path / "wc.parquet")
