"""SentencePiece BPE: ``.model`` files (Llama 1/2, Mistral 7B v0.1–v0.3, Gemma, Yi …) and HF
``tokenizer.json`` files with a char-level BPE model (``byte_fallback``, ``▁`` for spaces).

Both open as a :class:`TokenizerSpec` whose ``vocab`` holds the bytes each piece stands for (``▁`` a
space, ``<0xE4>`` the byte 0xE4, control pieces such as ``<s>`` their text, as special tokens) and
whose ``pipeline`` carries the model itself under ``"charbpe"`` (:mod:`core.charbpe` encodes with it:
ids equal ``sentencepiece``'s ``encode(text)`` for a ``.model``, HF's for a ``tokenizer.json``).
``merges`` lists, for the merges list and timeline, one pair per merged piece in score order (the
split whose later part came first), or a tokenizer.json's own merges.

Control pieces are not looked for in the text of a ``.model`` (``sentencepiece`` encodes ``<s>`` as
``<``, ``s``, ``>``); user-defined pieces are. A tokenizer.json matches its added tokens, as HF does.
Unigram models (T5, ALBERT, XLNet …) are refused by name.
"""

from __future__ import annotations

import base64
import json
import os
import re
from pathlib import Path
from typing import Any

from core.bpe.charbpe import SPACE, CharBPE, check_decoder, parse_byte_piece, piece_bytes
from core.errors import FormatError
from core.files import atomic_write, unreadable
from core.formats._io import compact
from core.formats.sp_proto import (
    BYTE,
    CONTROL,
    MODEL_TYPES,
    NORMAL,
    UNKNOWN,
    UNUSED,
    USER_DEFINED,
    read_model,
)
from core.formats.spec import TokenizerSpec

SUPPORTED = (
    "BPE Explorer opens byte-level BPE (GPT-2, Llama 3, Qwen, DeepSeek, OLMo …) and SentencePiece BPE "
    "(a .model of type BPE, or a tokenizer.json with a BPE model using byte_fallback/'▁': Llama 2, "
    "Mistral 7B, Gemma, Yi …)"
)


NO_BYTE_FALLBACK = "the model has no byte fallback: a character outside the vocab becomes <unk>"


def _kind_error(path: Path, kind: str) -> FormatError:
    return FormatError(
        f"{path}: this is a {kind} tokenizer; {SUPPORTED}", code="tokenizer_kind", name=path.name, kind=kind
    )


# --------------------------------------------------------------------------- .model files
def load_sentencepiece(path: str | os.PathLike) -> TokenizerSpec:
    """Read a SentencePiece ``.model`` file of type BPE."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise unreadable(p, e) from e
    return spec_from_sentencepiece(p, data)


def spec_from_sentencepiece(path: Path, data: bytes) -> TokenizerSpec:
    m = read_model(path, data)
    kind = MODEL_TYPES.get(m.model_type, f"type {m.model_type}")
    if kind != "BPE":
        raise _kind_error(path, f"SentencePiece {kind} (model_type {kind})")
    if m.treat_whitespace_as_suffix:
        raise FormatError(
            f"{path}: this SentencePiece model puts '▁' after words (treat_whitespace_as_suffix), "
            "which BPE Explorer does not reproduce; it opens models with the usual '▁' prefix",
            code="sp_suffix",
            file=str(path),
        )
    if m.precompiled_charsmap:
        from core.pipeline.sp_normalizer import CharsMapError, parse_charsmap

        try:
            parse_charsmap(m.precompiled_charsmap)
        except CharsMapError as e:
            raise FormatError(
                f"{path}: {e}; the file is damaged", code="sp_charsmap", file=str(path), detail=str(e)
            ) from None
    pieces = [x.piece for x in m.pieces]
    types = [x.type for x in m.pieces]
    for i, x in enumerate(m.pieces):
        if x.type not in (NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE):
            raise FormatError(
                f"{path}: piece {i} ({x.piece!r}) has the unknown type {x.type}",
                code="sp_piece_type",
                file=str(path),
                index=i,
                text=x.piece,
                kind=x.type,
            )
        if x.type == BYTE and parse_byte_piece(x.piece) is None:
            raise FormatError(
                f"{path}: piece {i} is a byte piece named {x.piece!r}, not <0xXX>",
                code="sp_byte_piece",
                file=str(path),
                index=i,
                text=x.piece,
            )
        if not x.piece:
            raise FormatError(
                f"{path}: piece {i} is empty; the file is damaged",
                code="sp_piece_empty",
                file=str(path),
                index=i,
            )
    seen: dict[str, int] = {}
    for i, p in enumerate(pieces):
        if p in seen:
            raise FormatError(
                f"{path}: the piece {p!r} is listed twice (ids {seen[p]} and {i})",
                code="sp_piece_repeated",
                file=str(path),
                text=p,
                first=seen[p],
                second=i,
            )
        seen[p] = i
    conf = {
        "mode": "sentencepiece",
        "pieces": pieces,
        "types": types,
        "scores": [x.score for x in m.pieces],
        "byte_fallback": m.byte_fallback,
        "unk_id": next((i for i, t in enumerate(types) if t == UNKNOWN), None),
        "unk_surface": m.unk_surface,
        "normalizer": {
            "add_dummy_prefix": m.add_dummy_prefix,
            "remove_extra_whitespaces": m.remove_extra_whitespaces,
            "escape_whitespaces": m.escape_whitespaces,
            "rule": m.normalizer_name,
            "charsmap": base64.b64encode(m.precompiled_charsmap).decode("ascii"),
        },
    }
    specials = tuple(p for p, t in zip(pieces, types) if t in (CONTROL, UNKNOWN))
    vocab = {i: piece_bytes(p, t) for i, (p, t) in enumerate(zip(pieces, types))}
    pipeline: dict[str, Any] = {
        "normalizer": None,
        "pre_tokenizer": None,
        "added_tokens": [],
        "charbpe": conf,
    }
    notes = [
        f"SentencePiece BPE model: {len(pieces):,} pieces ({types.count(BYTE):,} byte pieces, "
        f"{types.count(USER_DEFINED):,} user-defined); ids are sentencepiece's encode(text) without <s>: "
        "control pieces (<s>, </s> …) are not looked for in text"
    ]
    if not m.byte_fallback:
        notes.append(NO_BYTE_FALLBACK)
    if m.precompiled_charsmap:
        notes.append(f"text is normalized by the model's rule {m.normalizer_name!r}, as sentencepiece does")
    return TokenizerSpec(
        vocab, tuple(_score_merges(conf)), specials, "none", pipeline=pipeline, notes=tuple(notes)
    )


def _score_merges(conf: dict[str, Any]) -> list[tuple[bytes, bytes]]:
    """One merge per merged piece, highest score first: the split of the piece into two pieces (or
    characters) whose later-made part came first, the leftmost such split on a tie; pieces without a
    split into earlier parts are left out (no merge made them)."""
    pieces, types, scores = conf["pieces"], conf["types"], conf["scores"]
    index = {p: i for i, (p, t) in enumerate(zip(pieces, types)) if t in (NORMAL, USER_DEFINED, UNUSED)}
    inf = float("inf")

    def score(part: str) -> float | None:
        i = index.get(part)
        if i is None:
            return None
        return inf if len(part) == 1 else scores[i]

    order = sorted(
        (i for i, (p, t) in enumerate(zip(pieces, types)) if t == NORMAL and len(p) > 1),
        key=lambda i: (-scores[i], i),
    )
    out = []
    for i in order:
        p, best, pair = pieces[i], None, None
        for k in range(1, len(p)):
            a, b = score(p[:k]), score(p[k:])
            if a is None or b is None:
                continue
            low = min(a, b)
            if low > scores[i] and (best is None or low > best):
                best, pair = low, (p[:k], p[k:])
        if pair is not None:
            out.append((piece_bytes(pair[0]), piece_bytes(pair[1])))
    return out


# --------------------------------------------------------------------------- tokenizer.json
def is_char_bpe(data: dict[str, Any], model: dict[str, Any]) -> bool:
    """A tokenizer.json whose BPE model works on characters (SentencePiece style)."""
    if model.get("byte_fallback"):
        return True

    def has(step: Any, kind: str) -> bool:
        if not isinstance(step, dict):
            return False
        if step.get("type") == kind:
            return True
        subs = step.get("pretokenizers") or step.get("normalizers") or step.get("decoders") or []
        return any(has(s, kind) for s in subs) if isinstance(subs, list) else False

    pre, norm = data.get("pre_tokenizer"), data.get("normalizer")
    if has(pre, "ByteLevel") or has(data.get("decoder"), "ByteLevel"):
        return False
    return has(pre, "Metaspace") or (has(norm, "Replace") and SPACE in json.dumps(norm, ensure_ascii=False))


def spec_from_hf_charbpe(path: Path, text: str, data: dict[str, Any], model: dict[str, Any]) -> TokenizerSpec:
    """A spec from a tokenizer.json with a char-level BPE model (Llama 2 / Mistral as the Hub serves
    them, with or without ``legacy``)."""
    from core.pipeline.hf import pipeline_config

    if model.get("continuing_subword_prefix") or model.get("end_of_word_suffix"):
        raise _kind_error(path, "subword-prefix/suffix BPE (continuing_subword_prefix/end_of_word_suffix)")
    if model.get("dropout"):
        raise FormatError(
            f"{path}: BPE dropout {model['dropout']!r} makes encoding random; set it to null",
            code="hf_dropout",
            file=str(path),
            shown=repr(model["dropout"]),
        )
    raw_vocab = model.get("vocab")
    if not isinstance(raw_vocab, dict) or not all(
        isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in raw_vocab.values()
    ):
        raise FormatError(
            f"{path}: model.vocab is missing or not an object of token -> non-negative id",
            code="hf_vocab_missing",
            file=str(path),
        )
    added: dict[str, int] = {}
    for n, t in enumerate(data.get("added_tokens") or []):
        if (
            not isinstance(t, dict)
            or not isinstance(t.get("content"), str)
            or not isinstance(t.get("id"), int)
        ):
            raise FormatError(
                f"{path}: added token {n} is {t!r}; it needs a string content and an int id",
                code="hf_added_invalid",
                file=str(path),
                index=n,
                shown=repr(t)[:80],
            )
        added[t["content"]] = t["id"]
    size = max([*raw_vocab.values(), *added.values()], default=-1) + 1
    pieces: list[str | None] = [None] * size
    for p, i in raw_vocab.items():
        if pieces[i] is not None:
            raise FormatError(
                f"{path}: id {i} is used twice ({pieces[i]!r} and {p!r}); each id names one token",
                code="sp_id_repeated",
                file=str(path),
                id=i,
                text=pieces[i],
                key=p,
            )
        pieces[i] = p
    for p, i in added.items():
        if pieces[i] is None:
            pieces[i] = p
    merges: list[list[int]] = []
    for n, m in enumerate(model.get("merges") or []):
        parts = m.split(" ") if isinstance(m, str) else m
        if not isinstance(parts, list) or len(parts) != 2 or not all(isinstance(x, str) for x in parts):
            raise FormatError(
                f'{path}: merge {n} is {m!r}, not two tokens ("a b" or ["a", "b"])',
                code="hf_merge_parts",
                file=str(path),
                shown=repr(m),
                merge_index=n,
            )
        a, b = parts
        for tok in (a, b, a + b):
            if tok not in raw_vocab:
                raise FormatError(
                    f"{path}: merge {n} ({m!r}) needs the token {tok!r}, which is not in the vocab",
                    code="hf_merge_token_missing",
                    file=str(path),
                    shown=repr(m),
                    token=tok,
                    merge_index=n,
                )
        merges.append([raw_vocab[a], raw_vocab[b]])
    unk = model.get("unk_token")
    if unk is not None and unk not in raw_vocab:
        raise FormatError(
            f"{path}: the unk_token {unk!r} is not in the vocab",
            code="sp_unk_missing",
            file=str(path),
            token=unk,
        )
    decoder = data.get("decoder")
    try:
        check_decoder(decoder)
    except ValueError as e:
        raise FormatError(f"{path}: {e}", code="hf_decoder", file=str(path), detail=str(e)) from None
    conf = {
        "mode": "hf",
        "pieces": pieces,
        "merges": merges,
        "byte_fallback": bool(model.get("byte_fallback")),
        "unk_id": raw_vocab[unk] if unk is not None else None,
        "fuse_unk": bool(model.get("fuse_unk")),
        "ignore_merges": bool(model.get("ignore_merges", False)),
        "decoder": decoder,
        # added tokens that the model's vocab does not list (written back outside it)
        "added_only": sorted(i for p, i in added.items() if p not in raw_vocab),
    }

    def token_id(name: str) -> int:
        if name in added:
            return added[name]
        if name in raw_vocab:
            return raw_vocab[name]
        raise FormatError(
            f"{path}: the post-processor uses {name!r}, which is not a token",
            code="post_processor_token",
            file=str(path),
            token=name,
        )

    pipeline = pipeline_config(data, model, path, token_id, char_level=True)
    pipeline["charbpe"] = conf
    CharBPE(conf)
    vocab: dict[int, bytes] = {}
    for i, p in enumerate(pieces):
        if p is None:
            continue
        b = parse_byte_piece(p)
        vocab[i] = bytes([b]) if b is not None and p not in added else piece_bytes(p)
    seen_pairs = set()
    pairs = []
    for a, b in merges:
        pair = (vocab[a], vocab[b])
        if pair not in seen_pairs:
            seen_pairs.add(pair)
            pairs.append(pair)
    notes = [f"char-level BPE tokenizer.json (SentencePiece style): {len(raw_vocab)} tokens"]
    if not conf["byte_fallback"]:
        notes.append(NO_BYTE_FALLBACK)
    return TokenizerSpec(vocab, tuple(pairs), tuple(added), "none", pipeline=pipeline, notes=tuple(notes))


# --------------------------------------------------------------------------- export
def charbpe_hf_json(spec: TokenizerSpec) -> str:
    """A tokenizer.json for a spec opened from a ``.model`` (HF loads it with the same ids as
    ``sentencepiece``), or the pipeline of an opened char-level tokenizer.json written back.

    The ``.model`` is written as the Hub's "legacy" Llama files are (a ``Prepend("▁")`` and
    ``Replace(" ", "▁")`` normalizer, a BPE model with ``byte_fallback``, every split of each piece
    as a merge ranked by the piece's score) but with control pieces such as ``<s>`` left out of the
    added tokens, as sentencepiece never finds them in text. A model with user-defined pieces gets a
    ``Split`` pre-tokenizer that isolates them and ``ignore_merges`` so each maps to its id; then the
    one text whose ids differ is a stretch between user-defined pieces that is exactly the name of a
    control or byte piece (``[REF]<s>``: HF finds the name ``<s>`` in the vocab). Models that remove
    extra whitespace or have unused pieces are refused (HF has no such steps).
    """
    pipe = spec.pipeline or {}
    conf = pipe["charbpe"]
    if conf["mode"] == "hf":
        return _hf_back(spec, pipe, conf)
    return _sp_to_hf(spec, conf)


def _sp_to_hf(spec: TokenizerSpec, conf: dict[str, Any]) -> str:
    pieces, types, scores = conf["pieces"], conf["types"], conf["scores"]
    norm = conf.get("normalizer") or {}
    if norm.get("charsmap"):
        raise FormatError(
            f"this SentencePiece model normalizes text with a precompiled character map (rule "
            f"{norm.get('rule') or '?'!r}), which BPE Explorer does not write to tokenizer.json; export "
            "the native bpe.json instead",
            code="sp_export_charsmap",
            rule=norm.get("rule") or "?",
        )
    if norm.get("remove_extra_whitespaces"):
        raise FormatError(
            "this SentencePiece model removes extra spaces (remove_extra_whitespaces), which a "
            "tokenizer.json cannot do the same way; export the native bpe.json instead",
            code="sp_export_whitespace",
        )
    if any(t == UNUSED for t in types):
        raise FormatError(
            "this SentencePiece model has unused pieces (split back after merging), which HF's BPE "
            "cannot do; export the native bpe.json instead",
            code="sp_export_unused",
        )
    vocab = {p: i for i, p in enumerate(pieces)}
    mergeable = {p: i for i, (p, t) in enumerate(zip(pieces, types)) if t in (NORMAL, USER_DEFINED)}
    # HF merges: every split of a piece into two pieces, ranked by the piece's score (then id), as
    # sentencepiece merges the pair whose result scores highest; splits of one piece keep the order
    # of their left part's length
    ranked = []
    for p, i in mergeable.items():
        if len(p) < 2 or types[i] != NORMAL:
            continue
        for k in range(1, len(p)):
            a, b = p[:k], p[k:]
            if a in mergeable and b in mergeable:
                ranked.append((-scores[i], i, k, a, b))
    ranked.sort()
    unk = next((p for p, t in zip(pieces, types) if t == UNKNOWN), None)
    # control pieces are not added tokens: sentencepiece never finds <s> in text. User-defined pieces
    # are cut out of the normalized text by a Split pre-tokenizer (sentencepiece keeps them whole and
    # merges nothing across them) and, being whole words, map to their ids with ignore_merges; that
    # changes no other word only if every piece encodes to itself, which is checked
    user = [p for p, t in zip(pieces, types) if t == USER_DEFINED]
    pre: dict[str, Any] | None = None
    if user:
        bpe = CharBPE(conf)
        stray = [
            p for i, (p, t) in enumerate(zip(pieces, types)) if t == NORMAL and bpe._encode_part(p) != (i,)
        ]
        if stray:
            raise FormatError(
                f"{len(stray)} piece(s) of this model (e.g. {stray[0]!r}) do not encode to themselves, "
                "so HF's BPE cannot keep its user-defined pieces whole without changing their ids; "
                "export the native bpe.json instead",
                code="sp_export_stray",
                count=len(stray),
                shown=repr(stray[0]),
            )
        alternatives = "|".join(re.escape(p) for p in sorted(user, key=len, reverse=True))
        pre = {"type": "Split", "pattern": {"Regex": alternatives}, "behavior": "Isolated", "invert": False}
    normalizer: list[dict[str, Any]] = []
    if norm.get("add_dummy_prefix", True):
        normalizer.append({"type": "Prepend", "prepend": SPACE})
    if norm.get("escape_whitespaces", True):
        normalizer.append({"type": "Replace", "pattern": {"String": " "}, "content": SPACE})
    decoders: list[dict[str, Any]] = [
        {"type": "Replace", "pattern": {"String": SPACE}, "content": " "},
        {"type": "ByteFallback"},
        {"type": "Fuse"},
    ]
    if norm.get("add_dummy_prefix", True):
        decoders.append({"type": "Strip", "content": " ", "start": 1, "stop": 0})
    c = compact
    lines = [
        "{",
        ' "version": "1.0",',
        ' "truncation": null,',
        ' "padding": null,',
        ' "added_tokens": [],',
        f' "normalizer": {c({"type": "Sequence", "normalizers": normalizer}) if normalizer else "null"},',
        f' "pre_tokenizer": {c(pre)},',
        ' "post_processor": null,',
        f' "decoder": {c({"type": "Sequence", "decoders": decoders})},',
        ' "model": {',
        '  "type": "BPE", "dropout": null, "unk_token": ' + c(unk) + ', "continuing_subword_prefix": null,',
        '  "end_of_word_suffix": null, "fuse_unk": true, "byte_fallback": '
        + c(bool(conf.get("byte_fallback")))
        + f', "ignore_merges": {c(bool(user))},',
        '  "vocab": {',
        ",\n".join(f"   {c(p)}: {i}" for p, i in vocab.items()),
        "  },",
        '  "merges": [',
        ",\n".join(f"   {c([a, b])}" for _, _, _, a, b in ranked),
        "  ]",
        " }",
        "}",
    ]
    return "\n".join(lines) + "\n"


def _hf_back(spec: TokenizerSpec, pipe: dict[str, Any], conf: dict[str, Any]) -> str:
    pieces = conf["pieces"]
    outside = set(conf.get("added_only") or ())
    vocab = {p: i for i, p in enumerate(pieces) if p is not None and i not in outside}
    unk_id = conf.get("unk_id")
    data = {
        "version": "1.0",
        "truncation": pipe.get("truncation"),
        "padding": pipe.get("padding"),
        "added_tokens": pipe.get("added_tokens") or [],
        "normalizer": pipe.get("normalizer"),
        "pre_tokenizer": pipe.get("pre_tokenizer"),
        "post_processor": pipe.get("post_processor"),
        "decoder": conf.get("decoder"),
        "model": {
            "type": "BPE",
            "dropout": None,
            "unk_token": pieces[unk_id] if unk_id is not None else None,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": bool(conf.get("fuse_unk")),
            "byte_fallback": bool(conf.get("byte_fallback")),
            "ignore_merges": bool(conf.get("ignore_merges")),
            "vocab": vocab,
            "merges": [[pieces[a], pieces[b]] for a, b in conf.get("merges") or []],
        },
    }
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def save_charbpe_hf(spec: TokenizerSpec, path: str | os.PathLike) -> Path:
    p = Path(path)
    if p.is_dir():
        p = p / "tokenizer.json"
    return atomic_write(p, charbpe_hf_json(spec))
