"""Byte ranges of ``encode --engine dask`` for tokenizers with an imported HF pipeline: the shards of
any split equal the single-machine ids (a prefix space, stripping added tokens, single-word tokens
and normalizers change where a range may start)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("distributed")  # the scale extra is part of the test extra
from tokenizers import AddedToken, normalizers, pre_tokenizers

from core.pretokenization.scan import next_valid_cut
from core.scale.dask_scale import encode_cuts, encode_range

from .test_hf_pipeline import configured, ours_of, trained

LINES = [
    "The cat sat.\n",
    "A dog ran away.\n",
    "  <mask> hid\n",
    "x<mask>y\n",
    "<|endoftext|>Once\n",
    "\n",
    "Caf\u00e9 de\u0301ja\u0300.\n",
    "\u0421\u043b\u043e\u0432\u043e, \u0434\u0430.\n",
    "\u4e2d\u6587\u3002\u597d\n",
    "\u1100\u1161\u11a8 \u3131\u314f \uff76\uff9e!\n",
    "\u0391\u0301\u0392\u0342 \u00bd\u00b2\n",
]
CASES = {
    "plain": ({}, AddedToken("<mask>", normalized=False)),
    "prefix_space": (
        {"pre_tokenizer": pre_tokenizers.ByteLevel(add_prefix_space=True)},
        AddedToken("<mask>", normalized=False),
    ),
    "lstrip": ({}, AddedToken("<mask>", lstrip=True, normalized=False)),
    "single_word": ({}, AddedToken("<mask>", single_word=True, normalized=False)),
    "nfc": ({"normalizer": normalizers.NFC()}, AddedToken("<mask>", normalized=False)),
    "nfkc": ({"normalizer": normalizers.NFKC()}, AddedToken("<mask>", normalized=False)),
}


@pytest.fixture(scope="module")
def base():
    return trained()


def text(n: int = 300) -> str:
    rng = np.random.default_rng(3)
    return "".join(LINES[i] for i in rng.integers(0, len(LINES), n))


@pytest.mark.parametrize("case", sorted(CASES))
def test_shards_of_any_split_equal_the_whole_text_ids(base, tmp_path: Path, case: str) -> None:
    parts, token = CASES[case]
    hf = configured(base, **parts)
    hf.add_special_tokens([token, "<|endoftext|>"])
    ours = ours_of(hf, tmp_path)
    data = text().encode()
    path = tmp_path / "c.txt"
    path.write_bytes(data)
    want = hf.encode(data.decode(), add_special_tokens=False).ids
    spec = ours.to_spec()
    for step in (7, 37, 200, 1000):
        got: list[int] = []
        for i, s in enumerate(range(0, len(data), step)):
            out = tmp_path / f"s{i}.npy"
            encode_range(
                f"{case}-{step}",
                spec,
                str(path),
                (s, min(s + step, len(data))),
                len(data),
                str(out),
                "uint16",
            )
            got += np.load(out).tolist()
        assert got == want, (case, step)


def test_a_prefix_space_pipeline_cuts_only_before_added_tokens(base, tmp_path: Path) -> None:
    hf = configured(base, pre_tokenizer=pre_tokenizers.ByteLevel(add_prefix_space=True))
    hf.add_special_tokens(["<|endoftext|>"])
    assert encode_cuts(ours_of(hf, tmp_path)) == (False, frozenset({"<|endoftext|>"}))
    hf = configured(base)
    hf.add_special_tokens([AddedToken("<mask>", single_word=True, normalized=False)])
    assert encode_cuts(ours_of(hf, tmp_path)) is None  # whole files only


def test_next_valid_cut_goes_only_before_the_special_tokens_it_is_given(tmp_path: Path) -> None:
    data = b"ab<m>cd<|e|>ef"
    path = tmp_path / "c.txt"
    path.write_bytes(data)
    with open(path, "rb") as f:
        assert next_valid_cut(f, 1, len(data), ("<m>", "<|e|>"), False) == 2
        assert next_valid_cut(f, 1, len(data), ("<m>", "<|e|>"), False, {"<|e|>"}) == 7
        assert next_valid_cut(f, 3, len(data), ("<m>", "<|e|>"), False, set()) == len(data)


def test_cluster_inputs_are_absolute_and_streams_are_refused(tmp_path: Path, monkeypatch) -> None:
    """A worker of a remote cluster has its own working folder, and cannot read our standard input."""
    from core.errors import CorpusError
    from core.pretokenization.scan import cluster_inputs

    (tmp_path / "a.txt").write_text("x")
    monkeypatch.chdir(tmp_path)
    assert cluster_inputs(["a.txt", "*.txt"]) == [str(tmp_path / "a.txt")] * 2
    with pytest.raises(CorpusError, match=r"standard input is a stream.*--engine local"):
        cluster_inputs(["-"])


def test_dask_count_and_encode_refuse_standard_input_before_starting_a_cluster(base, tmp_path: Path) -> None:
    from core.errors import CorpusError
    from core.scale.dask_scale import count_dask, encode_dask

    with pytest.raises(CorpusError, match="standard input is a stream"):
        count_dask(["-"], client=object())
    with pytest.raises(CorpusError, match="standard input is a stream"):
        encode_dask(ours_of(configured(base), tmp_path), ["-"], tmp_path / "shards", client=object())
    assert not (tmp_path / "shards").exists()


def test_encode_dask_refuses_a_npy_file_name_for_its_folder(tmp_path: Path) -> None:
    from core import Tokenizer
    from core.errors import BPEError
    from core.formats.spec import TokenizerSpec
    from core.scale.dask_scale import encode_dask

    (tmp_path / "c.txt").write_text("the cat\n")
    tok = Tokenizer.from_spec(TokenizerSpec.from_merges([(b"t", b"h")]))
    with pytest.raises(BPEError, match=r"give a folder name, not the file name 'ids\.npy'"):
        encode_dask(tok, [str(tmp_path / "c.txt")], tmp_path / "ids.npy", workers=1)
    assert not (tmp_path / "ids.npy").exists()
