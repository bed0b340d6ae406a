"""HuggingFace ``tokenizer.json``: the whole pipeline, so ``tokenizers.Tokenizer.from_file`` gives our ids.

Written pipeline: no normalizer; pre-tokenizer ``Sequence[Split(our pattern, Isolated), ByteLevel(
use_regex=false, add_prefix_space=false)]`` (just ``ByteLevel`` for ``pattern="none"``); model ``BPE``
with the GPT-2 byte-mapped vocab and ``"a b"`` merges and ``ignore_merges=true`` (a pre-token that is
a whole token maps to it, as in tiktoken and :class:`core.Tokenizer`); special tokens as added tokens
(``special=true``, not normalized, no stripping), also listed in the model vocab under their text so
that they keep their ids; a ``ByteLevel`` decoder (preceded by ``Replace`` steps for special tokens
that are not printable ASCII, so that they decode to their text). A special token whose bytes are not
UTF-8 cannot be JSON text for HF: it is written as an ordinary token of the vocab, at its id, and
:func:`core.formats.losses.export_losses` names the loss.

>>> import tempfile, pathlib
>>> from core.formats.spec import TokenizerSpec
>>> p = pathlib.Path(tempfile.mkdtemp()) / "tokenizer.json"
>>> _ = save_hf(TokenizerSpec.from_merges([(b" ", b"a")], ["<s>"]), p)
>>> tuple(load_hf(p).merges)
((b' ', b'a'),)
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from core.bpe.byte_level import str_to_token, token_to_str
from core.bpe.ranks import IdMerges
from core.errors import FormatError
from core.files import atomic_write, read_text
from core.formats._fast import fast_merges, fast_vocab
from core.formats._io import (
    check_token_text,
    compact,
    dump_mapping,
    line_no,
    line_of,
    lines_with,
    load_json,
    missing_bytes,
    missing_bytes_error,
)
from core.formats.losses import non_utf8_specials
from core.formats.spec import TokenizerSpec, as_spec
from core.pretokenization.patterns import GPT2_PATTERN, GPT4_PATTERN

HF_NAME = "tokenizer.json"
_BYTE_LEVEL = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}


def hf_json(spec: TokenizerSpec) -> str:
    """The text of a ``tokenizer.json`` for ``spec``."""
    if isinstance(spec.pipeline, dict) and spec.pipeline.get("charbpe") is not None:
        from core.formats.sentencepiece import charbpe_hf_json

        return charbpe_hf_json(spec)
    # a special token whose bytes are not UTF-8 cannot be JSON text for HF (a lone surrogate): it is
    # written as an ordinary token of the vocab, at its id (core.formats.losses names the loss)
    not_text = set(non_utf8_specials(spec.special_tokens))
    sids = {s: i for s, i in spec.special_ids.items() if s not in not_text}
    by_id = {i: s for s, i in sids.items()}
    vocab: dict[str, int] = {}
    owner: dict[str, int] = {}
    for i in sorted(spec.vocab):
        key = by_id[i] if i in by_id else token_to_str(spec.vocab[i])
        if key in vocab:
            raise FormatError(
                f"ids {owner[key]} and {i} both become {key!r} in tokenizer.json; it can hold "
                "each token once (use the native bpe.json format)",
                code="export_same_token",
                first=owner[key],
                second=i,
                shown=repr(key),
                fmt="tokenizer.json",
            )
        vocab[key] = i
        owner[key] = i
    added = [
        {
            "id": i,
            "content": s,
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": False,
            "special": True,
        }
        for s, i in sorted(sids.items(), key=lambda x: x[1])
    ]
    pat = spec.pattern_regex
    if pat is None:
        pre: dict[str, Any] | None = dict(_BYTE_LEVEL)
    else:
        pre = {
            "type": "Sequence",
            "pretokenizers": [
                {"type": "Split", "pattern": {"Regex": pat}, "behavior": "Isolated", "invert": False},
                dict(_BYTE_LEVEL),
            ],
        }
    conf = spec.pipeline or {}  # an imported file's own pipeline is written back as it was
    if conf:
        added, pre = list(conf.get("added_tokens") or []), conf.get("pre_tokenizer")
        added = [a for a in added if not isinstance(a, dict) or a.get("content") not in not_text]
    c = compact
    # an imported file's truncation and padding are left out: they are settings of how its owner fed
    # a model (GPT-2 files with max_length 50), not of the tokenizer, and would make HF's encode cut
    # or pad every text of the export without a word (BPE Explorer never applies them; see
    # core.formats.losses.reading_notes, which says so on export)
    lines = [
        "{",
        ' "version": "1.0",',
        ' "truncation": null,',
        ' "padding": null,',
    ]
    if added:
        lines += [' "added_tokens": [', ",\n".join(f"  {c(a)}" for a in added), " ],"]
    else:
        lines.append(' "added_tokens": [],')
    lines += [
        f' "normalizer": {c(conf.get("normalizer"))},',
        f' "pre_tokenizer": {c(pre)},',
        f' "post_processor": {c(conf.get("post_processor"))},',
        f' "decoder": {c(_decoder(sids))},',
        ' "model": {',
    ]
    model_head = {
        "type": "BPE",
        "dropout": None,
        "unk_token": None,
        "continuing_subword_prefix": None,
        "end_of_word_suffix": None,
        "fuse_unk": False,
        "byte_fallback": False,
        "ignore_merges": bool(conf.get("ignore_merges", True)),
    }
    lines += [f"  {c(k)}: {c(v)}," for k, v in model_head.items()]
    lines.append('  "vocab": ' + dump_mapping(vocab).rstrip("\n").replace("\n", "\n  ") + ",")
    merges = ",\n".join(f"   {c(token_to_str(a) + ' ' + token_to_str(b))}" for a, b in spec.merges)
    lines.append(f'  "merges": [\n{merges}\n  ]' if merges else '  "merges": []')
    lines += [" }", "}"]
    return "\n".join(lines) + "\n"


def _decoder(special_ids: dict[str, int]) -> dict[str, Any]:
    """ByteLevel, after Replace steps that turn each special token whose text is not its GPT-2 string
    (e.g. ``<|é|>``) into that string, since ``tokenizers`` passes added tokens through the decoder."""
    fix = [
        {
            "type": "Replace",
            "pattern": {"String": s},
            "content": token_to_str(s.encode("utf-8", "surrogateescape")),
        }
        for s in special_ids
        if token_to_str(s.encode("utf-8", "surrogateescape")) != s
    ]
    return {"type": "Sequence", "decoders": [*fix, dict(_BYTE_LEVEL)]} if fix else dict(_BYTE_LEVEL)


def save_hf(source: Any, path: str | os.PathLike) -> Path:
    """Write a HuggingFace ``tokenizer.json`` (``path`` may be a folder) atomically."""
    path = Path(path)
    if path.is_dir():
        path = path / HF_NAME
    return atomic_write(path, hf_json(as_spec(source)))


def load_hf(path: str | os.PathLike) -> TokenizerSpec:
    """Read a byte-level BPE ``tokenizer.json`` (ours, or e.g. HuggingFace's GPT-2)."""
    path = Path(path)
    if path.is_dir():
        path = path / HF_NAME
    from core.memory import paused_gc

    text = read_text(path, "tokenizer.json")
    with paused_gc():  # hundreds of thousands of acyclic objects: collector passes find nothing
        return spec_from_hf(path, text, load_json(path, text))


_SUPPORTED = (
    "BPE Explorer opens byte-level BPE (GPT-2, Llama 3, Qwen, DeepSeek, OLMo, GPT-NeoX style: "
    "a ByteLevel pre-tokenizer and a vocab of GPT-2 byte characters) and SentencePiece-style BPE "
    "(byte_fallback, a Metaspace pre-tokenizer or a '▁' Replace normalizer: Llama 2, Mistral, Gemma)"
)


def _kind_error(path: Path, kind: str, why: str = "") -> FormatError:
    return FormatError(
        f"{path}: this is a {kind} tokenizer{why}; {_SUPPORTED}",
        code="tokenizer_kind",
        name=path.name,
        kind=kind,
    )


def _check_pre_tokenizer(path: Path, pre: Any, where: str = "pre_tokenizer") -> None:
    """The shape of a pre-tokenizer: an object (or null) with a string type; a Sequence's
    ``pretokenizers`` a list of them; a Split's ``pattern`` an object holding a string Regex or String."""
    if pre is None:
        return
    if not isinstance(pre, dict) or not isinstance(pre.get("type"), str):
        raise FormatError(
            f'{path}: {where} is {_short(pre)}, not a pre-tokenizer object with a "type"',
            code="hf_pretokenizer_invalid",
            file=str(path),
            key=where,
            shown=_short(pre),
        )
    if pre["type"] == "Sequence":
        steps = pre.get("pretokenizers")
        if not isinstance(steps, list):
            raise FormatError(
                f"{path}: {where}.pretokenizers is {_short(steps)}, not a list of pre-tokenizers",
                code="hf_pretokenizer_steps",
                file=str(path),
                key=f"{where}.pretokenizers",
                shown=_short(steps),
            )
        for i, step in enumerate(steps):
            _check_pre_tokenizer(path, step, f"{where}.pretokenizers[{i}]")
    elif pre["type"] == "Split":
        pat = pre.get("pattern")
        if not (
            isinstance(pat, dict)
            and len(pat) == 1
            and next(iter(pat)) in ("Regex", "String")
            and isinstance(next(iter(pat.values())), str)
        ):
            raise FormatError(
                f'{path}: {where}.pattern is {_short(pat)}, not {{"Regex": "..."}} or {{"String": "..."}}',
                code="hf_pretokenizer_pattern",
                file=str(path),
                key=f"{where}.pattern",
                shown=_short(pat),
            )


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _pattern(pre: Any) -> tuple[str | None, bool]:
    """(pattern, byte_level) for the simple pre-tokenizers (one Split/ByteLevel regex), else the
    pipeline does the pre-tokenization and the pattern is the last regex (for display only)."""
    steps = pre.get("pretokenizers", []) if isinstance(pre, dict) and pre.get("type") == "Sequence" else [pre]
    pattern: str | None = None
    byte_level = False
    for st in steps:
        if not isinstance(st, dict):
            continue
        kind = st.get("type")
        if kind == "Split" and isinstance(st.get("pattern"), dict) and "Regex" in st["pattern"]:
            pattern = st["pattern"]["Regex"]
        elif kind == "ByteLevel":
            byte_level = True
            if st.get("use_regex", True):
                pattern = GPT2_PATTERN
    names = {GPT2_PATTERN: "gpt2", GPT4_PATTERN: "gpt4"}
    return (names.get(pattern, pattern) if pattern is not None else "none"), byte_level


def _is_simple(data: dict[str, Any]) -> bool:
    """True when the file is exactly what our own pattern + special tokens do (no pipeline needed)."""
    pre = data.get("pre_tokenizer")
    steps = pre.get("pretokenizers", []) if isinstance(pre, dict) and pre.get("type") == "Sequence" else [pre]
    bl = [s for s in steps if isinstance(s, dict) and s.get("type") == "ByteLevel"]
    splits = [s for s in steps if isinstance(s, dict) and s.get("type") == "Split"]
    if len(bl) != 1 or steps[-1] is not bl[0] or bl[0].get("add_prefix_space", True) or len(steps) > 2:
        return False
    if splits and (
        len(splits) != 1
        or str(splits[0].get("behavior")).lower() != "isolated"
        or splits[0].get("invert")
        or "Regex" not in (splits[0].get("pattern") or {})
        or bl[0].get("use_regex", True)
    ):
        return False
    post = data.get("post_processor")
    if data.get("normalizer") is not None or not (
        post is None or (isinstance(post, dict) and post.get("type") == "ByteLevel")
    ):
        return False
    model = data["model"]
    if not model.get("ignore_merges", False):
        return False
    # (an added token that is not special needs the pipeline too: it keeps the flag for the views
    # and for the export, which writes the special tokens of a file without one as special)
    return all(
        isinstance(t, dict)
        and not (t.get("lstrip") or t.get("rstrip") or t.get("single_word") or t.get("normalized"))
        and t.get("special", False)
        for t in data.get("added_tokens") or []
    )


def _check_model(path: Path, data: Any) -> dict[str, Any]:
    model = data.get("model") if isinstance(data, dict) else None
    if not isinstance(model, dict):
        raise FormatError(
            f'{path}: no "model" object; not a HuggingFace tokenizer.json', code="hf_no_model", file=str(path)
        )
    kind = model.get("type")
    if kind is None:  # older files leave out the type: guess it from the keys, as HF does
        kind = (
            "BPE"
            if "merges" in model
            else "Unigram"
            if isinstance(model.get("vocab"), list)
            else "WordPiece"
            if "max_input_chars_per_word" in model
            else "WordLevel"
        )
    if kind in ("Unigram", "WordPiece", "WordLevel"):
        raise _kind_error(path, f"{kind} (model type {kind!r})")
    if kind != "BPE":
        raise FormatError(
            f"{path}: model type {kind!r} is unknown; {_SUPPORTED}",
            code="hf_model_unknown",
            file=str(path),
            kind=repr(kind),
        )
    if model.get("continuing_subword_prefix") or model.get("end_of_word_suffix"):
        raise _kind_error(path, "subword-prefix/suffix BPE (continuing_subword_prefix/end_of_word_suffix)")
    if model.get("dropout"):
        raise FormatError(
            f"{path}: BPE dropout {model['dropout']!r} makes encoding random; set it to null",
            code="hf_dropout",
            file=str(path),
            shown=repr(model["dropout"]),
        )
    return model


def spec_from_hf(path: Path, text: str, data: Any) -> TokenizerSpec:
    """Build a spec from a parsed ``tokenizer.json`` (its pipeline goes in ``spec.pipeline``)."""
    from core.formats.sentencepiece import is_char_bpe, spec_from_hf_charbpe
    from core.pipeline.hf import pipeline_config

    model = _check_model(path, data)
    if is_char_bpe(data, model):
        return spec_from_hf_charbpe(path, text, data, model)
    _check_pre_tokenizer(path, data.get("pre_tokenizer"))
    pattern, byte_level = _pattern(data.get("pre_tokenizer"))
    decoder = data.get("decoder")
    if not byte_level and not (isinstance(decoder, dict) and decoder.get("type") == "ByteLevel"):
        raise _kind_error(path, "char-level BPE", " (no ByteLevel pre-tokenizer or decoder)")
    specials: dict[str, int] = {}
    if not isinstance(data.get("added_tokens") or [], list):
        raise FormatError(
            f"{path}: added_tokens is {data['added_tokens']!r}, not a list of tokens",
            code="hf_added_not_list",
            file=str(path),
            shown=repr(data["added_tokens"])[:80],
        )
    for n, t in enumerate(data.get("added_tokens") or []):
        if (
            not isinstance(t, dict)
            or not isinstance(t.get("content"), str)
            or not isinstance(t.get("id"), int)
            or isinstance(t.get("id"), bool)
            or t["id"] < 0
            or not t["content"]
        ):
            raise FormatError(
                f"{path}: added token {n} is {t!r}; it needs a non-empty string content and a "
                "non-negative int id",
                code="hf_added_invalid",
                file=str(path),
                index=n,
                shown=repr(t)[:80],
            )
        specials[
            check_token_text(
                f"{path}: added token {n}: ", t["content"], file=str(path), list_name="added_tokens", index=n
            )
        ] = t["id"]
    raw_vocab = model.get("vocab")
    if not isinstance(raw_vocab, dict):
        raise FormatError(
            f"{path}: model.vocab is missing or not an object of token -> id",
            code="hf_vocab_missing",
            file=str(path),
        )
    fast = fast_vocab(raw_vocab, specials)
    vocab, key_id = fast if fast is not None else ({}, {})
    for key, i in raw_vocab.items() if fast is None else ():  # the careful pass: names what is wrong
        where = line_of(text, json.dumps(key, ensure_ascii=False) + ":") if not isinstance(i, int) else ""
        if not isinstance(i, int) or isinstance(i, bool) or i < 0:
            raise FormatError(
                f"{path}: {where}the id of {key!r} is {i!r}; ids must be non-negative integers",
                code="vocab_id_invalid",
                file=str(path),
                key=key,
                shown=repr(i)[:40],
                line=line_no(text, json.dumps(key, ensure_ascii=False) + ":"),
            )
        if i in vocab:
            raise FormatError(
                f"{path}: {line_of(text, json.dumps(key, ensure_ascii=False) + ':')}id {i} is "
                f"used twice (again by {key!r}); each id must name one token",
                code="hf_id_repeated",
                file=str(path),
                id=i,
                key=key,
                line=line_no(text, json.dumps(key, ensure_ascii=False) + ":"),
            )
        if key in specials:
            vocab[i] = key.encode("utf-8", "surrogateescape")
            continue
        try:
            vocab[i] = str_to_token(key)
            key_id[key] = i
        except KeyError as e:
            if "\u2581" in key:
                raise _kind_error(path, "char-level BPE (SentencePiece style, '\u2581' for spaces)") from None
            raise FormatError(
                f"{path}: {line_of(text, json.dumps(key, ensure_ascii=False) + ':')}token "
                f"{key!r} contains {e.args[0]!r}, which is not a GPT-2 byte character; "
                "this is not a byte-level vocab",
                code="vocab_not_byte_level",
                file=str(path),
                key=key,
                text=e.args[0],
                codepoint=f"U+{ord(e.args[0]):04X}",
                line=line_no(text, json.dumps(key, ensure_ascii=False) + ":"),
            ) from None
    for s, i in specials.items():
        b = s.encode("utf-8", "surrogateescape")
        if vocab.setdefault(i, b) != b:
            raise FormatError(
                f"{path}: added token {s!r} has id {i}, which the vocab gives to "
                f"{vocab[i]!r}; the file is inconsistent",
                code="hf_added_id_taken",
                file=str(path),
                token=s,
                id=i,
                shown=repr(vocab[i]),
            )
    missing = missing_bytes(vocab.values())  # (the 13 bytes that never occur in UTF-8 may be missing)
    if missing:
        raise missing_bytes_error(path, missing)
    merges: Sequence[tuple[bytes, bytes]] | None = fast_merges(model.get("merges") or [], key_id, vocab)
    if merges is None:  # something is off: the careful pass names it
        merges = _merges(path, text, model.get("merges") or [], set(vocab.values()))
        if len(set(merges)) != len(merges):  # HF keeps the last of a repeated merge (a map by pair)
            last = {m: r for r, m in enumerate(merges)}
            merges = [m for r, m in enumerate(merges) if last[m] == r]
    pipeline = None
    if not _is_simple(data):

        def token_id(name: str) -> int:
            if name in specials:
                return specials[name]
            if name in raw_vocab:
                return raw_vocab[name]
            raise FormatError(
                f"{path}: the post-processor uses {name!r}, which is not a token",
                code="post_processor_token",
                file=str(path),
                token=name,
            )

        pipeline = pipeline_config(data, model, path, token_id)
    merges = merges if isinstance(merges, IdMerges) else tuple(merges)
    return TokenizerSpec(vocab, merges, tuple(specials), pattern, pipeline=pipeline)


class _MergeWhere:
    """``"line N: "`` of a merge, found only when an error message needs it."""

    def __init__(self, text: str, merge: Any, n: int) -> None:
        self.text, self.merge, self.n = text, merge, n

    def __str__(self) -> str:
        needle = json.dumps(self.merge, ensure_ascii=False)
        return line_of(self.text, needle) or line_of(self.text, json.dumps(self.merge)) or f"merge {self.n}: "

    def params(self) -> dict[str, int]:
        """Where it is, for an error's params: its line, or (when not found) its index in the list."""
        for needle in (json.dumps(self.merge, ensure_ascii=False), json.dumps(self.merge)):
            lines = lines_with(self.text, needle)
            if lines:
                return {"line": lines[0]}
        return {"merge_index": self.n}


def _merges(path: Path, text: str, raw: Any, tokens: set[bytes]) -> list[tuple[bytes, bytes]]:
    if not isinstance(raw, list):
        raise FormatError(f"{path}: model.merges is not a list", code="hf_merges_not_list", file=str(path))
    out = []
    for n, m in enumerate(raw):
        parts = m.split(" ") if isinstance(m, str) else m
        where = _MergeWhere(text, m, n)
        if not isinstance(parts, list) or len(parts) != 2 or not all(isinstance(p, str) and p for p in parts):
            raise FormatError(
                f'{path}: {where}{m!r} is not two tokens; a merge is "a b" or ["a", "b"]',
                code="hf_merge_parts",
                file=str(path),
                shown=repr(m),
                **where.params(),
            )
        try:
            a, b = str_to_token(parts[0]), str_to_token(parts[1])
        except KeyError as e:
            raise FormatError(
                f"{path}: {where}{e.args[0]!r} is not a GPT-2 byte character",
                code="hf_merge_not_byte_level",
                file=str(path),
                text=e.args[0],
                **where.params(),
            ) from None
        for tok in (a, b, a + b):
            if tok not in tokens:
                raise FormatError(
                    f"{path}: {where}the merge {m!r} needs the token {token_to_str(tok)!r}, "
                    "which is not in the vocab",
                    code="hf_merge_token_missing",
                    file=str(path),
                    shown=repr(m),
                    token=token_to_str(tok),
                    **where.params(),
                )
        out.append((a, b))
    return out
