"""HuggingFace ``tokenizer.json``: the whole pipeline, so ``tokenizers.Tokenizer.from_file`` gives our ids.

Written pipeline: no normalizer; pre-tokenizer ``Sequence[Split(our pattern, Isolated), ByteLevel(
use_regex=false, add_prefix_space=false)]`` (just ``ByteLevel`` for ``pattern="none"``); model ``BPE``
with the GPT-2 byte-mapped vocab and ``"a b"`` merges and ``ignore_merges=true`` (a pre-token that is
a whole token maps to it, as in tiktoken and :class:`core.Tokenizer`); special tokens as added tokens
(``special=true``, not normalized, no stripping), also listed in the model vocab under their text so
that they keep their ids; a ``ByteLevel`` decoder (preceded by ``Replace`` steps for special tokens
that are not printable ASCII, so that they decode to their text).

>>> import tempfile, pathlib
>>> from core.spec import TokenizerSpec
>>> p = pathlib.Path(tempfile.mkdtemp()) / "tokenizer.json"
>>> _ = save_hf(TokenizerSpec.from_merges([(b" ", b"a")], ["<s>"]), p)
>>> load_hf(p).merges
((b' ', b'a'),)
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..errors import FormatError
from ..pretokenize import GPT2_PATTERN, GPT4_PATTERN
from ..spec import TokenizerSpec, str_to_token, token_to_str
from ._io import (
    atomic_write,
    compact,
    dump_mapping,
    line_of,
    load_json,
    missing_bytes,
    missing_bytes_error,
    read_text,
)

HF_NAME = "tokenizer.json"
_BYTE_LEVEL = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}


def hf_json(spec: TokenizerSpec) -> str:
    """The text of a ``tokenizer.json`` for ``spec``."""
    sids = spec.special_ids
    by_id = {i: s for s, i in sids.items()}
    vocab: dict[str, int] = {}
    owner: dict[str, int] = {}
    for i in sorted(spec.vocab):
        key = by_id[i] if i in by_id else token_to_str(spec.vocab[i])
        if key in vocab:
            raise FormatError(f"ids {owner[key]} and {i} both become {key!r} in tokenizer.json; it can hold "
                              "each token once (use the native bpe.json format)")
        vocab[key] = i
        owner[key] = i
    added = [{"id": i, "content": s, "single_word": False, "lstrip": False, "rstrip": False,
              "normalized": False, "special": True} for s, i in sorted(sids.items(), key=lambda x: x[1])]
    pat = spec.pattern_regex
    if pat is None:
        pre: dict[str, Any] = dict(_BYTE_LEVEL)
    else:
        pre = {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": pat}, "behavior": "Isolated", "invert": False},
            dict(_BYTE_LEVEL)]}
    c = compact
    lines = ["{", ' "version": "1.0",', ' "truncation": null,', ' "padding": null,']
    if added:
        lines += [' "added_tokens": [', ",\n".join(f"  {c(a)}" for a in added), " ],"]
    else:
        lines.append(' "added_tokens": [],')
    lines += [' "normalizer": null,', f' "pre_tokenizer": {c(pre)},', ' "post_processor": null,',
              f' "decoder": {c(_decoder(sids))},', ' "model": {']
    model_head = {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "ignore_merges": True}
    lines += [f"  {c(k)}: {c(v)}," for k, v in model_head.items()]
    lines.append('  "vocab": ' + dump_mapping(vocab).rstrip("\n").replace("\n", "\n  ") + ",")
    merges = ",\n".join(f"   {c(token_to_str(a) + ' ' + token_to_str(b))}" for a, b in spec.merges)
    lines.append(f'  "merges": [\n{merges}\n  ]' if merges else '  "merges": []')
    lines += [" }", "}"]
    return "\n".join(lines) + "\n"


def _decoder(special_ids: dict[str, int]) -> dict[str, Any]:
    """ByteLevel, after Replace steps that turn each special token whose text is not its GPT-2 string
    (e.g. ``<|é|>``) into that string, since ``tokenizers`` passes added tokens through the decoder."""
    fix = [{"type": "Replace", "pattern": {"String": s}, "content": token_to_str(s.encode("utf-8", "surrogateescape"))}
           for s in special_ids if token_to_str(s.encode("utf-8", "surrogateescape")) != s]
    return {"type": "Sequence", "decoders": [*fix, dict(_BYTE_LEVEL)]} if fix else dict(_BYTE_LEVEL)


def save_hf(source: Any, path: str | os.PathLike) -> Path:
    """Write a HuggingFace ``tokenizer.json`` (``path`` may be a folder) atomically."""
    from . import as_spec

    path = Path(path)
    if path.is_dir():
        path = path / HF_NAME
    return atomic_write(path, hf_json(as_spec(source)))


def load_hf(path: str | os.PathLike) -> TokenizerSpec:
    """Read a byte-level BPE ``tokenizer.json`` (ours, or e.g. HuggingFace's GPT-2)."""
    path = Path(path)
    if path.is_dir():
        path = path / HF_NAME
    text = read_text(path, "tokenizer.json")
    return spec_from_hf(path, text, load_json(path, text))


def _pattern(path: Path, pre: Any) -> tuple[str | None, bool]:
    """(pattern, byte_level) from the pre-tokenizer."""
    steps = pre.get("pretokenizers", []) if isinstance(pre, dict) and pre.get("type") == "Sequence" else [pre]
    pattern: str | None = None
    byte_level = False
    for st in steps:
        if not isinstance(st, dict):
            continue
        kind = st.get("type")
        if kind == "Split":
            pat = st.get("pattern") or {}
            if "Regex" in pat:
                pattern = pat["Regex"]
            elif "String" in pat:
                raise FormatError(f"{path}: the Split pre-tokenizer splits on a fixed string; only regex "
                                  "splits are supported")
        elif kind == "ByteLevel":
            byte_level = True
            if st.get("add_prefix_space"):
                raise FormatError(f"{path}: the ByteLevel pre-tokenizer adds a prefix space, which this "
                                  "tokenizer does not do; set add_prefix_space to false")
            if st.get("use_regex", True):
                pattern = GPT2_PATTERN
        elif kind is not None:
            raise FormatError(f"{path}: pre-tokenizer {kind!r} is not supported (only Split + ByteLevel)")
    names = {GPT2_PATTERN: "gpt2", GPT4_PATTERN: "gpt4"}
    return (names.get(pattern, pattern) if pattern is not None else "none"), byte_level


def spec_from_hf(path: Path, text: str, data: Any) -> TokenizerSpec:
    """Build a spec from a parsed ``tokenizer.json``."""
    model = data.get("model") if isinstance(data, dict) else None
    if not isinstance(model, dict) or model.get("type", "BPE") != "BPE":
        raise FormatError(f"{path}: not a BPE tokenizer.json (model type "
                          f"{model.get('type') if isinstance(model, dict) else None!r}); only BPE is supported")
    if data.get("normalizer") is not None:
        raise FormatError(f"{path}: has a normalizer, which this tokenizer does not apply; remove it or "
                          "use a tokenizer without one")
    pattern, byte_level = _pattern(path, data.get("pre_tokenizer"))
    decoder = data.get("decoder")
    if not byte_level and not (isinstance(decoder, dict) and decoder.get("type") == "ByteLevel"):
        raise FormatError(f"{path}: not a byte-level tokenizer (no ByteLevel pre-tokenizer or decoder); "
                          "only byte-level BPE can be loaded")
    specials: dict[str, int] = {}
    for n, t in enumerate(data.get("added_tokens") or []):
        if not isinstance(t, dict) or not isinstance(t.get("content"), str) or not isinstance(t.get("id"), int):
            raise FormatError(f"{path}: added token {n} is {t!r}; it needs a string content and an int id")
        specials[t["content"]] = t["id"]
    raw_vocab = model.get("vocab")
    if not isinstance(raw_vocab, dict):
        raise FormatError(f"{path}: model.vocab is missing or not an object of token -> id")
    vocab: dict[int, bytes] = {}
    for key, i in raw_vocab.items():
        where = line_of(text, json.dumps(key, ensure_ascii=False) + ":") if not isinstance(i, int) else ""
        if not isinstance(i, int) or isinstance(i, bool) or i < 0:
            raise FormatError(f"{path}: {where}the id of {key!r} is {i!r}; ids must be non-negative integers")
        if i in vocab:
            raise FormatError(f"{path}: {line_of(text, json.dumps(key, ensure_ascii=False) + ':')}id {i} is "
                              f"used twice (again by {key!r}); each id must name one token")
        if key in specials:
            vocab[i] = key.encode("utf-8", "surrogateescape")
            continue
        try:
            vocab[i] = str_to_token(key)
        except KeyError as e:
            raise FormatError(f"{path}: {line_of(text, json.dumps(key, ensure_ascii=False) + ':')}token "
                              f"{key!r} contains {e.args[0]!r}, which is not a GPT-2 byte character; "
                              "this is not a byte-level vocab") from None
    for s, i in specials.items():
        b = s.encode("utf-8", "surrogateescape")
        if vocab.setdefault(i, b) != b:
            raise FormatError(f"{path}: added token {s!r} has id {i}, which the vocab gives to "
                              f"{vocab[i]!r}; the file is inconsistent")
    missing = missing_bytes(vocab.values())
    if missing:
        raise missing_bytes_error(path, missing)
    merges = _merges(path, text, model.get("merges") or [], set(vocab.values()))
    return TokenizerSpec(vocab, tuple(merges), tuple(specials), pattern)


class _MergeWhere:
    """``"line N: "`` of a merge, found only when an error message needs it."""

    def __init__(self, text: str, merge: Any, n: int) -> None:
        self.text, self.merge, self.n = text, merge, n

    def __str__(self) -> str:
        needle = json.dumps(self.merge, ensure_ascii=False)
        return line_of(self.text, needle) or line_of(self.text, json.dumps(self.merge)) or f"merge {self.n}: "


def _merges(path: Path, text: str, raw: Any, tokens: set[bytes]) -> list[tuple[bytes, bytes]]:
    if not isinstance(raw, list):
        raise FormatError(f"{path}: model.merges is not a list")
    out = []
    for n, m in enumerate(raw):
        parts = m.split(" ") if isinstance(m, str) else m
        where = _MergeWhere(text, m, n)
        if not isinstance(parts, list) or len(parts) != 2 or not all(isinstance(p, str) and p for p in parts):
            raise FormatError(f"{path}: {where}{m!r} is not two tokens; a merge is \"a b\" or [\"a\", \"b\"]")
        try:
            a, b = str_to_token(parts[0]), str_to_token(parts[1])
        except KeyError as e:
            raise FormatError(f"{path}: {where}{e.args[0]!r} is not a GPT-2 byte character") from None
        for tok in (a, b, a + b):
            if tok not in tokens:
                raise FormatError(f"{path}: {where}the merge {m!r} needs the token {token_to_str(tok)!r}, "
                                  "which is not in the vocab")
        out.append((a, b))
    return out
