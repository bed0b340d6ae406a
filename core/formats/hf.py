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

from regex import escape as regex_escape

from ..bpe import NEVER_IN_UTF8
from ..errors import FormatError
from ..hf_pipeline import AddedToken, Pipeline
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
    pipe = spec.pipeline
    normalizer: Any = None
    post: Any = None
    ignore_merges = True
    if pipe is not None:  # a tokenizer loaded from a tokenizer.json: its own pipeline goes back out
        pre = pipe.pre_tokenizer
        normalizer, post, ignore_merges = pipe.normalizer, pipe.post_processor, pipe.ignore_merges
        added = [t.to_json() for t in sorted(pipe.added_tokens, key=lambda t: t.id)]
    elif pat is None:
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
    lines += [f' "normalizer": {c(normalizer)},', f' "pre_tokenizer": {c(pre)},', f' "post_processor": {c(post)},',
              f' "decoder": {c(_decoder(sids))},', ' "model": {']
    model_head = {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "ignore_merges": ignore_merges}
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


_OTHER_MODELS = {
    "Unigram": "a Unigram (SentencePiece-style) tokenizer",
    "WordPiece": "a WordPiece (BERT-style) tokenizer",
    "WordLevel": "a word-level tokenizer",
}
_WHAT_WE_OPEN = ("BPE Explorer opens byte-level BPE tokenizers (GPT-2, GPT-4/tiktoken, Llama 3, Qwen, DeepSeek, "
                 "OLMo, Mistral tekken …)")


def _simple_pattern(data: dict) -> str | None:
    """The pattern of a file whose pipeline is exactly what we write (one regex Split, then ByteLevel
    without its regex, or ByteLevel with its regex; nothing else), else None."""
    post = data.get("post_processor")
    if data.get("normalizer") is not None or not (post is None or (isinstance(post, dict)
                                                                  and post.get("type") == "ByteLevel")):
        return None
    if data.get("truncation") is not None or data.get("padding") is not None:
        return None
    if not data["model"].get("ignore_merges", False):
        return None
    for t in data.get("added_tokens") or []:
        if not isinstance(t, dict) or t.get("lstrip") or t.get("rstrip") or t.get("single_word") \
                or t.get("normalized") or not t.get("special", True):
            return None
    pre = data.get("pre_tokenizer")
    steps = pre.get("pretokenizers") if isinstance(pre, dict) and pre.get("type") == "Sequence" else [pre]
    if not isinstance(steps, list) or not all(isinstance(x, dict) for x in steps):
        return None
    bl = steps[-1] if steps else None
    if not bl or bl.get("type") != "ByteLevel" or bl.get("add_prefix_space", True):
        return None
    if len(steps) == 1:
        return GPT2_PATTERN if bl.get("use_regex", True) else None
    sp = steps[0]
    if len(steps) != 2 or bl.get("use_regex", True) or sp.get("type") != "Split" or sp.get("invert") \
            or str(sp.get("behavior", "")).lower() != "isolated" or not isinstance((sp.get("pattern") or {}).get("Regex"), str):
        return None
    return sp["pattern"]["Regex"]


def _check_model(path: Path, model: Any) -> None:
    if not isinstance(model, dict):
        raise FormatError(f"{path}: 'model' is not an object; this is not a tokenizer.json")
    kind = model.get("type", "BPE")
    if kind in _OTHER_MODELS:
        raise FormatError(f"{path}: this is {_OTHER_MODELS[kind]}; {_WHAT_WE_OPEN}")
    if kind != "BPE":
        raise FormatError(f"{path}: model type {kind!r} is not supported; {_WHAT_WE_OPEN}")
    if model.get("byte_fallback"):
        raise FormatError(f"{path}: this is a character-level BPE with byte fallback (as in Llama 2, Mistral v1 "
                          f"or Gemma), not a byte-level BPE; {_WHAT_WE_OPEN}")
    for key in ("continuing_subword_prefix", "end_of_word_suffix"):
        if model.get(key):
            raise FormatError(f"{path}: the BPE model uses a {key.replace('_', ' ')} ({model[key]!r}), which "
                              f"byte-level BPE does not; {_WHAT_WE_OPEN}")


def _added_tokens(path: Path, raw: Any) -> list[AddedToken]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise FormatError(f"{path}: added_tokens is not a list")
    out = []
    for n, t in enumerate(raw):
        if not isinstance(t, dict) or not isinstance(t.get("content"), str) or not t["content"] \
                or not isinstance(t.get("id"), int) or isinstance(t.get("id"), bool) or t["id"] < 0:
            raise FormatError(f"{path}: added token {n} is {compact(t)[:80]}; it needs a non-empty string "
                              "content and a non-negative int id")
        flags = {k: t.get(k, d) for k, d in (("special", True), ("lstrip", False), ("rstrip", False),
                                               ("single_word", False), ("normalized", False))}
        if not all(isinstance(v, bool) for v in flags.values()):
            raise FormatError(f"{path}: added token {t['content']!r} has flags that are not true/false")
        out.append(AddedToken(t["content"], t["id"], **flags))
    return out


def _notes(data: dict) -> tuple[str, ...]:
    notes = []
    tr = data.get("truncation")
    if isinstance(tr, dict):
        notes.append(f"the file sets truncation (max_length {tr.get('max_length')}, {tr.get('direction', 'Right')}); "
                     "it is not applied here: encodings keep every token")
    pad = data.get("padding")
    if isinstance(pad, dict):
        notes.append("the file sets padding; it is not applied here: encodings are not padded")
    drop = (data.get("model") or {}).get("dropout")
    if drop:
        notes.append(f"the BPE model sets dropout {drop}; it is not applied here (dropout makes ids random)")
    return tuple(notes)


def spec_from_hf(path: Path, text: str, data: Any) -> TokenizerSpec:
    """Build a spec from a parsed ``tokenizer.json``."""
    if not isinstance(data, dict) or "model" not in data:
        raise FormatError(f"{path}: not a tokenizer.json (no 'model' object)")
    model = data["model"]
    _check_model(path, model)
    added = _added_tokens(path, data.get("added_tokens"))
    specials = {t.content: t.id for t in added}
    simple = _simple_pattern(data)
    pipeline: Pipeline | None = None
    if simple is None:
        pipeline = Pipeline.from_json(data.get("normalizer"), data.get("pre_tokenizer"), data.get("post_processor"),
                                      tuple(added), ignore_merges=bool(model.get("ignore_merges", False)),
                                      where=str(path), notes=_notes(data))
        if not pipeline.byte_level:
            raise FormatError(f"{path}: not a byte-level tokenizer (its pre-tokenizer has no ByteLevel step); "
                              f"{_WHAT_WE_OPEN}")
        pattern = _display_pattern(data.get("pre_tokenizer"))
    else:
        pattern = simple
    pattern = {GPT2_PATTERN: "gpt2", GPT4_PATTERN: "gpt4"}.get(pattern, pattern) if pattern else "none"
    raw_vocab = model.get("vocab")
    if not isinstance(raw_vocab, dict):
        raise FormatError(f"{path}: model.vocab is missing or not an object of token -> id")
    vocab: dict[int, bytes] = {}
    for key, i in raw_vocab.items():
        if not isinstance(i, int) or isinstance(i, bool) or i < 0 or i >= 1 << 31:
            where = line_of(text, json.dumps(key, ensure_ascii=False) + ":")
            raise FormatError(f"{path}: {where}the id of {key!r} is {i!r}; ids must be integers from 0 to 2^31-1")
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
                              f"this is not a byte-level vocab. {_WHAT_WE_OPEN}") from None
    for s, i in specials.items():
        b = s.encode("utf-8", "surrogateescape")
        if vocab.setdefault(i, b) != b:
            raise FormatError(f"{path}: added token {s!r} has id {i}, which the vocab gives to "
                              f"{vocab[i]!r}; the file is inconsistent")
    missing = [b for b in missing_bytes(vocab.values()) if b not in NEVER_IN_UTF8]
    if missing:
        raise missing_bytes_error(path, missing)
    merges = _merges(path, text, model.get("merges") or [], set(vocab.values()))
    return TokenizerSpec(vocab, tuple(merges), tuple(specials), pattern, pipeline=pipeline)


def _display_pattern(pre: Any) -> str | None:
    """The regex a pipeline splits with first (what the app shows as its pattern)."""
    if not isinstance(pre, dict):
        return None
    if pre.get("type") == "Split":
        p = pre.get("pattern") or {}
        return p.get("Regex") if isinstance(p.get("Regex"), str) else regex_escape(p.get("String") or "")
    if pre.get("type") == "ByteLevel":
        return GPT2_PATTERN if pre.get("use_regex", True) else None
    if pre.get("type") == "Sequence":
        for c in pre.get("pretokenizers") or []:
            r = _display_pattern(c)
            if r:
                return r
    return None


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
