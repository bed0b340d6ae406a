"""Mistral "tekken" tokenizer files (``tekken_*.json`` of mistral-common: Mistral NeMo, Pixtral …).

The file is tiktoken-like ranks in JSON: ``config`` (``pattern``, ``default_vocab_size``,
``default_num_special_tokens``, ``version``), ``vocab`` (``{"rank", "token_bytes" (base64),
"token_str"}`` in rank order) and, from version 7 on, ``special_tokens`` (``{"rank", "token_str"}``).
mistral-common gives the special tokens the first ``default_num_special_tokens`` ids (named ones
first, the rest ``<SPECIAL_n>``), keeps the first ``default_vocab_size - default_num_special_tokens``
ranks, and shifts every rank by the number of special tokens. Special tokens are never found in
text: ``Tekkenizer.encode(s, bos=False, eos=False)`` encodes their text like any other, so our ids
equal that call's (add ``<s>``, id 1, yourself where mistral-common's ``bos=True`` would).
"""

from __future__ import annotations

import base64
import binascii
from pathlib import Path
from typing import Any

from core.bpe.ranks import RankMerges
from core.errors import FormatError
from core.formats._io import check_token_text, missing_bytes, missing_bytes_error
from core.formats.spec import TokenizerSpec
from core.pipeline.hf import build_pipeline

# the special tokens of files older than version 7, which do not list them (mistral-common's defaults)
LEGACY_SPECIALS = (
    "<unk>",
    "<s>",
    "</s>",
    "[INST]",
    "[/INST]",
    "[AVAILABLE_TOOLS]",
    "[/AVAILABLE_TOOLS]",
    "[TOOL_RESULTS]",
    "[/TOOL_RESULTS]",
    "[TOOL_CALLS]",
    "[IMG]",
    "<pad>",
    "[IMG_BREAK]",
    "[IMG_END]",
    "[PREFIX]",
    "[MIDDLE]",
    "[SUFFIX]",
    "[SYSTEM_PROMPT]",
    "[/SYSTEM_PROMPT]",
    "[TOOL_CONTENT]",
)


#: at most this many special ids (mistral-common reserves 1,000; 10^8 would need gigabytes)
MAX_SPECIALS = 1 << 16


def _count(value: Any) -> int:
    """A count from the config: an int (or a whole float, as some writers give); not a bool, not infinite."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(value)
    if isinstance(value, float) and not value.is_integer():
        raise ValueError(value)
    return int(value)


def is_tekken(data: Any) -> bool:
    return (
        isinstance(data, dict)
        and isinstance(data.get("config"), dict)
        and isinstance(data.get("vocab"), list)
        and "pattern" in data["config"]
    )


def spec_from_tekken(path: Path, data: dict) -> TokenizerSpec:
    """A spec from a parsed tekken JSON (see the module doc for the id layout)."""
    cfg = data["config"]
    pattern = cfg.get("pattern")
    try:
        n_special = _count(cfg["default_num_special_tokens"])
        vocab_size = _count(cfg["default_vocab_size"])
    except (KeyError, TypeError, ValueError, OverflowError):
        raise FormatError(
            f"{path}: config needs integer default_vocab_size and default_num_special_tokens",
            code="tekken_config",
            file=str(path),
        ) from None
    if not isinstance(pattern, str) or n_special < 0 or vocab_size <= n_special:
        raise FormatError(
            f"{path}: config has no usable pattern / vocab size ({vocab_size}, {n_special} special)",
            code="tekken_config",
            file=str(path),
        )
    if n_special > MAX_SPECIALS:
        raise FormatError(
            f"{path}: default_num_special_tokens is {n_special:,}; mistral-common files reserve about 1,000 "
            f"and this reader takes at most {MAX_SPECIALS:,}: the file is damaged",
            code="tekken_specials_many",
            file=str(path),
            count=n_special,
            most=MAX_SPECIALS,
        )
    inner = vocab_size - n_special
    raw = data["vocab"]
    if len(raw) < inner:
        raise FormatError(
            f"{path}: the vocab lists {len(raw)} tokens but default_vocab_size {vocab_size} - "
            f"{n_special} special tokens needs {inner}",
            code="tekken_vocab_short",
            file=str(path),
            count=len(raw),
            vocab_size=vocab_size,
            n_special=n_special,
            need=inner,
        )
    ranks: dict[int, bytes] = {}
    for r, entry in enumerate(raw[:inner]):
        try:
            if entry["rank"] != r:
                raise FormatError(
                    f"{path}: vocab entry {r} has rank {entry['rank']!r}; ranks must be 0, 1, 2 … in order",
                    code="tekken_rank_order",
                    file=str(path),
                    index=r,
                    shown=repr(entry["rank"])[:40],
                )
            tok = base64.b64decode(entry["token_bytes"], validate=True)
        except (KeyError, TypeError, binascii.Error, ValueError):
            raise FormatError(
                f'{path}: vocab entry {r} is not {{"rank", "token_bytes" (base64)}}',
                code="tekken_entry",
                file=str(path),
                index=r,
            ) from None
        if not tok:
            raise FormatError(
                f"{path}: vocab entry {r} is an empty token",
                code="tekken_token_empty",
                file=str(path),
                index=r,
            )
        ranks[r] = tok
    missing = missing_bytes(ranks.values())
    if missing:
        raise missing_bytes_error(path, missing)
    listed = data.get("special_tokens")
    names: list[str]
    if listed is None:
        names = list(LEGACY_SPECIALS)
    elif isinstance(listed, list) and all(
        isinstance(t, dict)
        and isinstance(t.get("token_str"), str)
        and type(t.get("rank", 0)) is int  # (a rank "1" cannot be ordered among ints)
        for t in listed
    ):
        by_rank = sorted(listed, key=lambda t: t.get("rank", 0))
        names = [t["token_str"] for t in by_rank]
    else:
        raise FormatError(
            f'{path}: special_tokens is not a list of {{"rank", "token_str"}}',
            code="tekken_specials_list",
            file=str(path),
        )
    if len(names) > n_special or len(set(names)) != len(names):
        raise FormatError(
            f"{path}: {len(names)} special tokens (some repeated?) for {n_special} special ids",
            code="tekken_specials_count",
            file=str(path),
            count=len(names),
            n_special=n_special,
        )
    for name in names:
        check_token_text(f"{path}: special_tokens: ", name, file=str(path))
    names += [f"<SPECIAL_{i}>" for i in range(len(names), n_special)]
    vocab = {i: s.encode("utf-8", "surrogateescape") for i, s in enumerate(names)}
    vocab.update({r + n_special: b for r, b in ranks.items()})
    merges = RankMerges([ranks[r] for r in range(inner)])  # rebuilt when read; encoding goes by rank
    pre = {
        "type": "Sequence",
        "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False},
            {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False},
        ],
    }
    pipeline: dict[str, Any] = {
        "normalizer": None,
        "pre_tokenizer": pre,
        "added_tokens": [],
        "ignore_merges": True,
    }
    try:
        build_pipeline(pipeline)
    except Exception as e:  # the pattern does not compile here
        raise FormatError(
            f"{path}: the pattern of this tekken file cannot be used: {e}",
            code="tekken_pattern",
            file=str(path),
            detail=str(e),
        ) from None
    version = cfg.get("version", "?")
    note = (
        f"Mistral tekken file (version {version}): {n_special} special ids first, then {inner} ranks; "
        "special tokens are not looked for in text (as mistral-common's encode)"
    )
    return TokenizerSpec(vocab, merges, tuple(names), pattern, pipeline=pipeline, notes=(note,))


def looks_like_sentencepiece(head: bytes) -> bool:
    """A SentencePiece ``.model`` (a protobuf ModelProto): field 1 (pieces) as length-delimited
    messages whose first field is the piece string. Text files never start with byte 0x0A."""
    return len(head) > 4 and head[0] == 0x0A and (head[2] == 0x0A or head[3] == 0x0A)
