"""Inputs that crashed with a traceback (issue 25): each now gives one of the project's errors."""

from __future__ import annotations

import base64
import json
import sys
import time

import pytest

from core import Tokenizer, train_bpe
from core.errors import BPEError, FormatError, SpecialTokenError
from core.formats import export_all, load_any, load_gpt2, load_tiktoken
from core.formats.session import load_session, save_session
from core.formats.spec import TokenizerSpec
from core.scale.counts import count_files
from core.scale.counts_schema import FORMAT, CountsError, CountsMeta
from core.training.trainer import Trainer
from core.workers.procs import Child, ChildError

LONE = "<\ud800>"
SPEC = TokenizerSpec.from_merges([(b"a", b"b")], ["<|e|>"])


@pytest.fixture()
def corpus(tmp_path):
    p = tmp_path / "c.txt"
    p.write_text("ab ab abc " * 20, encoding="utf-8")
    return p


@pytest.fixture()
def exported(tmp_path):
    d = tmp_path / "tok"
    export_all(d, SPEC)
    return d


@pytest.mark.parametrize(
    "entry",
    [
        pytest.param(lambda c, d: train_bpe(c, 300, [LONE]), id="train_bpe"),
        pytest.param(lambda c, d: Trainer({b"ab": 2}, [LONE]), id="Trainer"),
        pytest.param(lambda c, d: TokenizerSpec.from_merges([], [LONE]), id="TokenizerSpec.from_merges"),
        pytest.param(lambda c, d: Tokenizer({i: bytes([i]) for i in range(256)}, [], [LONE]), id="Tokenizer"),
        pytest.param(lambda c, d: count_files([c], [LONE]), id="count_files"),
        pytest.param(lambda c, d: load_gpt2(d / "vocab.json", special_tokens=[LONE]), id="load_gpt2"),
        pytest.param(
            lambda c, d: load_tiktoken(d / "bpe.tiktoken", special_tokens={LONE: 900}), id="load_tiktoken"
        ),
        pytest.param(lambda c, d: load_any(d / "vocab.json", special_tokens=[LONE]), id="load_any"),
    ],
)
def test_a_special_token_with_a_lone_surrogate_is_refused_at_every_entry(entry, corpus, exported):
    with pytest.raises(SpecialTokenError, match=r"lone surrogate \(U\+D800\)"):
        entry(corpus, exported)


def test_surrogateescape_bytes_stay_allowed_as_special_tokens():
    spec = TokenizerSpec.from_merges([], ["<\udcff>"])  # the byte 0xFF, kept by surrogateescape
    assert spec.vocab[256] == b"<\xff>"


def _rewrite(path, change):
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")  # (json.dumps writes \ud800 and Infinity)
    return path


def _set_special(data, value):
    data["special_tokens"][0]["content"] = value


@pytest.mark.parametrize(
    "name, change, message",
    [
        ("bpe.json", lambda d: _set_special(d, "\ud800"), "lone surrogate"),
        ("tokenizer.json", lambda d: d["added_tokens"][0].update(content="\ud800"), "lone surrogate"),
        (
            "tokenizer.json",
            lambda d: d.update(pre_tokenizer={"type": "Sequence", "pretokenizers": 5}),
            "not a list",
        ),
        (
            "tokenizer.json",
            lambda d: d.update(pre_tokenizer={"type": "Split", "pattern": 5, "behavior": "Isolated"}),
            "pre_tokenizer.pattern is 5",
        ),
        (
            "tokenizer.json",
            lambda d: d.update(pre_tokenizer={"type": "Split", "pattern": {"Regex": []}}),
            "pre_tokenizer.pattern",
        ),
    ],
)
def test_damaged_files_give_a_format_error(exported, name, change, message):
    with pytest.raises(FormatError, match=message):
        load_any(_rewrite(exported / name, change))


def _tekken(tmp_path, **config):
    vocab = [
        {"rank": i, "token_bytes": base64.b64encode(bytes([i])).decode(), "token_str": None}
        for i in range(256)
    ]
    cfg = {"pattern": r"\w+|\s+", "default_vocab_size": 259, "default_num_special_tokens": 3, "version": "v7"}
    cfg.update(config)
    data = {
        "config": cfg,
        "vocab": vocab,
        "special_tokens": [{"rank": 0, "token_str": "<unk>"}, {"rank": 1, "token_str": "<s>"}],
    }
    path = tmp_path / "tekken.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_tekken_file_reads(tmp_path):
    spec = load_any(_tekken(tmp_path))
    assert spec.special_tokens[:2] == ("<unk>", "<s>") and len(spec.vocab) == 259


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d["special_tokens"][1].update(rank="1"), "special_tokens is not a list"),
        (lambda d: d["special_tokens"][1].update(token_str="\ud800"), "lone surrogate"),
        (lambda d: d["config"].update(default_num_special_tokens=float("inf")), "config needs integer"),
        (lambda d: d["config"].update(default_vocab_size=float("inf")), "config needs integer"),
        (lambda d: d["config"].update(default_num_special_tokens=True), "config needs integer"),
    ],
)
def test_damaged_tekken_files(tmp_path, change, message):
    with pytest.raises(FormatError, match=message):
        load_any(_rewrite(_tekken(tmp_path), change))


@pytest.mark.parametrize("n", [10**6, 10**8])
def test_absurd_tekken_special_counts_are_refused_at_once(tmp_path, n):
    path = _tekken(tmp_path, default_vocab_size=n + 256, default_num_special_tokens=n)
    t0 = time.process_time()
    with pytest.raises(FormatError, match="default_num_special_tokens is"):
        load_any(path)
    assert time.process_time() - t0 < 5  # (it allocated gigabytes for 10^8 before; a generous bound)


@pytest.mark.parametrize("key", ["version", "size_bytes", "invalid_bytes", "special_occurrences", "chunks"])
def test_counts_metadata_with_infinity(key):
    meta = {"format": FORMAT, "version": 1, "pattern": "gpt2", "special_tokens": [], key: float("inf")}
    with pytest.raises(CountsError, match="unreadable 'bpe_explorer' metadata"):
        CountsMeta.from_json(json.dumps(meta).encode(), "c.parquet")


@pytest.mark.parametrize("key, value", [("vocab_target", 2**31), ("vocab_target", 0), ("step_n", 2**40)])
def test_session_values_beyond_what_the_app_holds(tmp_path, key, value):
    path = save_session(tmp_path / "s.bpe.json", SPEC, vocab_target=300, step_n=10)
    _rewrite(path, lambda d: d["session"].update({key: value}))
    with pytest.raises(FormatError, match=f"session.{key} is {value}"):
        load_session(path)


def test_a_session_with_a_lone_surrogate_special(tmp_path):
    path = save_session(tmp_path / "s.bpe.json", SPEC, vocab_target=300)
    with pytest.raises(FormatError, match="lone surrogate"):
        load_session(_rewrite(path, lambda d: _set_special(d, "\ud800")))


@pytest.mark.parametrize("exe", ["", "/nonexistent/python3", "/etc/hostname"])
def test_no_usable_python_to_start_a_child(monkeypatch, exe):
    monkeypatch.setattr(sys, "executable", exe)
    with pytest.raises(ChildError, match="could not start a bpe-child process"):
        Child(print)


def test_errors_are_bpe_errors():
    assert issubclass(ChildError, BPEError) and issubclass(CountsError, BPEError)
