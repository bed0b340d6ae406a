"""encode_file_to_npy: same ids as encode, uint16/uint32, parallel, cancel, atomic output."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import core.tokenization.npy as npy
from core import Cancelled, Tokenizer
from core.formats.spec import TokenizerSpec

from .tok_corpus import EOT, make_corpus, trained_spec


def _corpus_file(folder: Path, n_words: int = 4000) -> tuple[Path, bytes]:
    raw = make_corpus(n_words, seed=7).encode("utf-8") + b"\n\xff\xfe invalid bytes kept\r\nLast line"
    path = folder / "corpus.txt"
    path.write_bytes(raw)
    return path, raw


def test_single_process_equals_encode(tmp_path: Path, tok: Tokenizer) -> None:
    src, raw = _corpus_file(tmp_path)
    r = npy.encode_file_to_npy(tok, src, tmp_path / "ids.npy", block_bytes=4096)
    ids = np.load(tmp_path / "ids.npy")
    assert ids.dtype == np.uint16 and r.dtype == "uint16"
    assert r.n_tokens == len(ids) and r.n_bytes == len(raw) and r.workers == 1
    assert ids.tolist() == tok.encode(raw.decode("utf-8", "surrogateescape"))
    assert tok.decode_bytes(ids) == raw


def test_parallel_equals_encode(tmp_path: Path, tok: Tokenizer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(npy, "SINGLE_PROCESS_BYTES", 0)
    src, raw = _corpus_file(tmp_path, 20000)
    seen: list[int] = []
    r = tok.encode_file(
        src,
        tmp_path / "ids.npy",
        workers=2,
        block_bytes=8192,
        progress=lambda phase, done, total: seen.append(done),
    )
    assert r.workers == 2
    ids = np.load(tmp_path / "ids.npy")
    assert ids.tolist() == tok.encode(raw.decode("utf-8", "surrogateescape"))
    assert seen == sorted(seen) and seen[-1] == len(raw) and len(seen) > 3


def test_uint32_when_ids_do_not_fit(tmp_path: Path) -> None:
    spec = TokenizerSpec.from_merges([(b"a", b"b")])
    vocab = dict(spec.vocab)
    vocab[70000] = EOT.encode()
    tok = Tokenizer(vocab, spec.merges, [EOT])
    (tmp_path / "in.txt").write_text(f"ab{EOT}ab", encoding="utf-8")
    r = npy.encode_file_to_npy(tok, tmp_path / "in.txt", tmp_path / "out.npy")
    ids = np.load(tmp_path / "out.npy")
    assert r.dtype == "uint32" and ids.dtype == np.uint32
    assert ids.tolist() == [256, 70000, 256]


def test_cancel_leaves_no_file(tmp_path: Path, tok: Tokenizer) -> None:
    src, _ = _corpus_file(tmp_path)
    out = tmp_path / "ids.npy"
    with pytest.raises(Cancelled):
        npy.encode_file_to_npy(tok, src, out, block_bytes=2048, progress=lambda *a: False)
    assert not out.exists()
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]


def test_empty_file(tmp_path: Path, tok: Tokenizer) -> None:
    (tmp_path / "empty.txt").write_bytes(b"")
    r = npy.encode_file_to_npy(tok, tmp_path / "empty.txt", tmp_path / "e.npy")
    assert r.n_tokens == 0 and np.load(tmp_path / "e.npy").shape == (0,)


def test_missing_input_is_a_clear_error(tmp_path: Path, tok: Tokenizer) -> None:
    from core import CorpusError, FormatError

    with pytest.raises(CorpusError, match="does not exist"):
        npy.encode_file_to_npy(tok, tmp_path / "nope.txt", tmp_path / "x.npy")
    (tmp_path / "in.txt").write_text("x", encoding="utf-8")
    with pytest.raises(FormatError, match="does not exist"):
        npy.encode_file_to_npy(tok, tmp_path / "in.txt", tmp_path / "no" / "x.npy")


_CHARS = st.sampled_from([*list("aZé日🙃'sl \n\r\t.,!1²"), "\nA", ".\nb", "x\ny", EOT, "<|", "|>"])


@given(st.lists(_CHARS, max_size=200).map("".join), st.integers(min_value=1, max_value=64))
def test_blocks_never_change_the_ids(text: str, block_bytes: int) -> None:
    """Cutting the file into blocks (tiny ones here) gives the ids of encoding it whole."""
    tok = Tokenizer.from_spec(trained_spec())
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "in.txt"
        src.write_bytes(text.encode("utf-8"))
        npy.encode_file_to_npy(tok, src, Path(d) / "out.npy", block_bytes=block_bytes)
        assert np.load(Path(d) / "out.npy").tolist() == tok.encode(text)
