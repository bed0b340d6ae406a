"""What `count` says about inputs it cannot read as text: compressed files, NUL bytes."""

from __future__ import annotations

import bz2
import gzip
import lzma
import re

import pytest

from core.cli import main
from core.errors import CorpusError
from core.pretokenization.scan import check_text
from core.scale.counts import count_files

pytest.importorskip("pyarrow")
TEXT = b"the cat sat on the mat.\nThe dog ran.\n" * 200


@pytest.mark.parametrize(
    "kind,compress,cat",
    [
        ("gzip", gzip.compress, "zcat"),
        ("bzip2", bz2.compress, "bzcat"),
        ("xz", lzma.compress, "xzcat"),
    ],
)
def test_a_compressed_corpus_is_named_with_the_way_to_stream_it(tmp_path, capsys, kind, compress, cat):
    path = tmp_path / f"c.txt.{kind}"
    path.write_bytes(compress(TEXT))
    with pytest.raises(
        CorpusError, match=f"is {kind}-compressed.*{cat} {re.escape(str(path))} [|] bpe-explorer count -"
    ):
        count_files([path], workers=1)
    assert main(["count", str(path), "--out", str(tmp_path / "c.parquet")]) == 2
    assert f"is {kind}-compressed" in capsys.readouterr().err


def test_text_that_starts_like_a_magic_number_is_still_text():
    check_text(b"BZh is how a bzip2 file starts", "t.txt")
    check_text(b"PK is a name", "t.txt")


def test_count_takes_allow_nul_as_train_does(tmp_path, capsys):
    path = tmp_path / "nul.txt"
    path.write_bytes(b"some record\x00 with a NUL\n" * 2000 + TEXT)
    assert main(["count", str(path), "--out", str(tmp_path / "c.parquet"), "-q"]) == 2
    assert "--allow-nul" in capsys.readouterr().err
    assert main(["count", str(path), "--out", str(tmp_path / "c.parquet"), "-q", "--allow-nul"]) == 0
    c = count_files([path], workers=1, allow_nul=True)
    assert c.word_counts()[b"\x00"] == 2000


def test_a_dask_task_takes_allow_nul_too(tmp_path):
    pytest.importorskip("distributed")
    from core.pretokenization.pretokenize import resolve_pattern
    from core.scale.dask_scale import count_range

    path = tmp_path / "nul.txt"
    path.write_bytes(b"some record\x00 with a NUL\n" * 2000 + TEXT)
    size = path.stat().st_size
    with pytest.raises(CorpusError, match="--allow-nul"):
        count_range(0, str(path), (0, size), size, resolve_pattern("gpt2"), ())
    got = count_range(0, str(path), (0, size), size, resolve_pattern("gpt2"), (), allow_nul=True)
    assert got.n_bytes == size
