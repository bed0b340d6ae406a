"""Fuzzed tokenizer, session and counts-metadata files: every loader raises only the project's errors.

Each file is mutated value by value (every key, the first and last item of each list: replaced by a
wrong type, Infinity, a lone surrogate, a huge number … or deleted) and byte by byte (truncated,
junk inserted); loading must succeed or raise a :class:`BPEError` (no TypeError, OverflowError,
UnicodeEncodeError, MemoryError …).
"""

from __future__ import annotations

import base64
import copy
import json
import random
import shutil

import pytest

from core.errors import BPEError
from core.formats import export_all, load_any
from core.formats.session import load_session, save_session
from core.formats.spec import TokenizerSpec
from core.scale.counts_schema import FORMAT, CountsMeta

SPEC = TokenizerSpec.from_merges([(b"a", b"b"), (b"ab", b"c"), (b"\xff", b"\xfe")], ["<|e|>"])
BAD = [
    5,
    "1",
    -1,
    1.5,
    float("inf"),
    float("nan"),
    10**30,
    2**31,
    None,
    True,
    [],
    {},
    "\ud800",
    "",
    [5],
    {"a": 1},
]
DELETE = object()


def _paths(x, p=()):
    yield p
    if isinstance(x, dict):
        keys = list(x)
        for k in keys if len(keys) <= 20 else [*keys[:2], keys[-1]]:  # (a vocab: its first and last tokens)
            yield from _paths(x[k], (*p, k))
    elif isinstance(x, list):
        for i in sorted({0, len(x) - 1} & set(range(len(x)))):
            yield from _paths(x[i], (*p, i))


def _mutated(data, path, value):
    out = copy.deepcopy(data)
    if not path:
        return value
    parent = out
    for k in path[:-1]:
        parent = parent[k]
    if value is DELETE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return out


def _tekken():
    vocab = [
        {"rank": i, "token_bytes": base64.b64encode(bytes([i])).decode(), "token_str": None}
        for i in range(256)
    ]
    return {
        "config": {
            "pattern": r"\w+|\s+",
            "default_vocab_size": 259,
            "default_num_special_tokens": 3,
            "version": "v7",
        },
        "vocab": vocab,
        "special_tokens": [{"rank": 0, "token_str": "<unk>"}, {"rank": 1, "token_str": "<s>"}],
    }


def _only_our_errors(load, path, text):
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
    try:
        load(path)
    except BPEError:
        pass
    except Exception as e:  # (the point of the test)
        pytest.fail(f"{type(e).__name__}: {e} (file: {path.read_bytes()[:300]!r})")


def _cases(data):
    for p in _paths(data):
        for v in [*BAD, DELETE] if p else BAD:
            yield p, v


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("src")
    export_all(d, SPEC)
    corpus = d / "c.txt"
    corpus.write_text("abc", encoding="utf-8")
    save_session(d / "s.bpe.json", SPEC, corpus_path=corpus, vocab_target=300, step_n=2, text="hi")
    return d


@pytest.mark.parametrize(
    "name", ["bpe.json", "tokenizer.json", "vocab.json", "tekken.json", "s.bpe.json", "meta"]
)
def test_json_values_mutated(files, tmp_path, name):
    if name == "tekken.json":
        data = _tekken()
    elif name == "meta":
        data = {
            "format": FORMAT,
            "version": 1,
            "pattern": "gpt2",
            "special_tokens": ["<|e|>"],
            "sources": ["a"],
        }
        data.update(tool="t", size_bytes=5, invalid_bytes=0, special_occurrences=0, chunks=1)
    else:
        data = json.loads((files / name).read_text(encoding="utf-8"))
    if name == "vocab.json":
        shutil.copy(files / "merges.txt", tmp_path / "merges.txt")
    load = {
        "s.bpe.json": load_session,
        "meta": lambda p: CountsMeta.from_json(p.read_bytes(), p.name),
    }.get(name, load_any)
    path = tmp_path / (name if name != "meta" else "meta.json")
    n = 0
    for p, v in _cases(data):
        try:
            text = json.dumps(_mutated(data, p, v))
        except (TypeError, KeyError, IndexError):
            continue
        _only_our_errors(load, path, text)
        n += 1
    assert n > 50


def _rich_hf(files):
    """Our tokenizer.json with a whole pipeline: normalizers, pre-tokenizers, a template post-processor."""
    data = json.loads((files / "tokenizer.json").read_text(encoding="utf-8"))
    data["normalizer"] = {
        "type": "Sequence",
        "normalizers": [
            {"type": "NFC"},
            {"type": "Replace", "pattern": {"String": "x"}, "content": "y"},
            {"type": "Strip", "strip_left": True, "strip_right": False},
            {"type": "Prepend", "prepend": "_"},
        ],
    }
    data["pre_tokenizer"] = {
        "type": "Sequence",
        "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": "\\s+"}, "behavior": "Isolated", "invert": False},
            {"type": "Digits", "individual_digits": True},
            {"type": "Punctuation", "behavior": "Isolated"},
            {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False},
        ],
    }
    data["post_processor"] = {
        "type": "TemplateProcessing",
        "single": [{"SpecialToken": {"id": "<|e|>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
        "pair": [{"Sequence": {"id": "A", "type_id": 0}}],
        "special_tokens": {"<|e|>": {"id": "<|e|>", "ids": [256], "tokens": ["<|e|>"]}},
    }
    data["truncation"] = {"max_length": 5, "strategy": "LongestFirst", "stride": 0, "direction": "Right"}
    return data


def test_a_whole_hf_pipeline_mutated(files, tmp_path):
    from core.tokenization.tokenizer import Tokenizer

    data = _rich_hf(files)
    path = tmp_path / "tokenizer.json"

    def load_and_encode(p):
        Tokenizer.from_spec(load_any(p)).encode("hello 12 x! <|e|>")

    n = 0
    for p, v in _cases({k: v for k, v in data.items() if k != "model"}):
        if not p:
            continue
        _only_our_errors(load_and_encode, path, json.dumps(_mutated(data, p, v)))
        n += 1
    assert n > 500


@pytest.mark.parametrize("name", ["bpe.json", "tokenizer.json", "vocab.json", "merges.txt", "bpe.tiktoken"])
def test_bytes_mutated(files, tmp_path, name):
    rng = random.Random(name)
    for other in files.iterdir():
        if other.name in ("vocab.json", "merges.txt"):
            shutil.copy(other, tmp_path / other.name)
    data = (files / name).read_bytes()
    junk = [
        b"",
        b"\x00",
        b"\xff",
        b"\xed\xa0\x80",
        b"-1",
        b"9" * 30,
        b"\n",
        b"=",
        b'"',
        b"\\",
        b"[",
        b"{",
        b"1e999",
    ]
    junk += [b"NaN", b"Infinity", b"\\ud800", b"\\udc80"]
    target = tmp_path / name
    load = load_any if name not in ("merges.txt",) else (lambda p: load_any(p.with_name("vocab.json")))
    for _ in range(150):
        m = bytearray(data)
        pos = rng.randrange(len(m) + 1)
        kind = rng.randrange(3)
        if kind == 0:
            m = m[:pos]
        elif kind == 1:
            m[pos : pos + rng.randint(1, 3)] = rng.choice(junk)
        else:
            m[pos:pos] = rng.choice(junk)
        _only_our_errors(load, target, bytes(m))
