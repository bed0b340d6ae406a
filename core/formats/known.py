"""Known tiktoken-format files, recognised by content hash: their pattern and special-token ids.

A ``.tiktoken`` file holds only ``base64(token) rank`` lines; the pre-tokenization regex and the
special tokens (with their ids, which are not "the next free id": cl100k's ``<|endoftext|>`` is
100257 and ``<|endofprompt|>`` 100276) live in the code of the library that ships the file. For the
files people have, we know them: the SHA-256 of the file's bytes names the encoding.

>>> KNOWN_BY_HASH["223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"].name
'cl100k_base'
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass

from core.pretokenization.patterns import (
    GPT2_PATTERN,
    GPT4_PATTERN,
    LLAMA3_PATTERN,
    O200K_PATTERN,
    QWEN35_PATTERN,
    QWEN_PATTERN,
)

ENDOFTEXT = "<|endoftext|>"


def _numbered(start: int, names: list[str]) -> dict[str, int]:
    return {n: start + i for i, n in enumerate(names)}


def _llama3_specials() -> dict[str, int]:
    named = {
        128000: "<|begin_of_text|>",
        128001: "<|end_of_text|>",
        128002: "<|reserved_special_token_0|>",
        128003: "<|reserved_special_token_1|>",
        128004: "<|finetune_right_pad_id|>",
        128005: "<|step_id|>",
        128006: "<|start_header_id|>",
        128007: "<|end_header_id|>",
        128008: "<|eom_id|>",
        128009: "<|eot_id|>",
        128010: "<|python_tag|>",
    }
    out = {name: i for i, name in named.items()}
    out.update({f"<|reserved_special_token_{i - 128011 + 2}|>": i for i in range(128011, 128256)})
    return out


_QWEN35_NAMES = [
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
    "<|object_ref_start|>",
    "<|object_ref_end|>",
    "<|box_start|>",
    "<|box_end|>",
    "<|quad_start|>",
    "<|quad_end|>",
    "<|vision_start|>",
    "<|vision_end|>",
    "<|vision_pad|>",
    "<|image_pad|>",
    "<|video_pad|>",
    "<tool_call>",
    "</tool_call>",
    "<|fim_prefix|>",
    "<|fim_middle|>",
    "<|fim_suffix|>",
    "<|fim_pad|>",
    "<|repo_name|>",
    "<|file_sep|>",
    "<tool_response>",
    "</tool_response>",
    "<think>",
    "</think>",
    "<|audio_start|>",
    "<|audio_end|>",
    "<tts_pad>",
    "<tts_text_bos>",
    "<tts_text_eod>",
    "<tts_text_bos_single>",
    "<|audio_pad|>",
]


@dataclass(frozen=True)
class KnownEncoding:
    """A tiktoken-format file we recognise: its name, pattern and special-token ids."""

    name: str
    pattern: str
    special_ids: dict[str, int]
    about: str


KNOWN_BY_HASH: dict[str, KnownEncoding] = {
    "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930": KnownEncoding(
        "r50k_base", GPT2_PATTERN, {ENDOFTEXT: 50256}, "GPT-2 / GPT-3 (OpenAI r50k_base)"
    ),
    "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069": KnownEncoding(
        "p50k_base", GPT2_PATTERN, {ENDOFTEXT: 50256}, "Codex / text-davinci (OpenAI p50k_base)"
    ),
    "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7": KnownEncoding(
        "cl100k_base",
        GPT4_PATTERN,
        {
            ENDOFTEXT: 100257,
            "<|fim_prefix|>": 100258,
            "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260,
            "<|endofprompt|>": 100276,
        },
        "GPT-4 / GPT-3.5 (OpenAI cl100k_base)",
    ),
    "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d": KnownEncoding(
        "o200k_base",
        O200K_PATTERN,
        {ENDOFTEXT: 199999, "<|endofprompt|>": 200018},
        "GPT-4o (OpenAI o200k_base)",
    ),
    "82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55": KnownEncoding(
        "llama3",
        LLAMA3_PATTERN,
        _llama3_specials(),
        "Llama 3 / 3.1 / 3.2 (Meta; special-token names as in Llama 3.1 and later)",
    ),
    "b2b1b8dfb5cc5f024bafc373121c6aba3f66f9a5a0269e243470a1de16a33186": KnownEncoding(
        "qwen",
        QWEN_PATTERN,
        _numbered(151643, [ENDOFTEXT, "<|im_start|>", "<|im_end|>"] + [f"<|extra_{i}|>" for i in range(205)]),
        "Qwen (1st generation, qwen.tiktoken)",
    ),
    "8dde380a6405e935f5de16a99eb61c824f3f814dd1ed298784c72babb7a03cdd": KnownEncoding(
        "qwen3.5", QWEN35_PATTERN, _numbered(248044, _QWEN35_NAMES), "Qwen 3.5 / 3.6 (qwen3_6.tiktoken)"
    ),
}


def file_sha256(path: str | os.PathLike) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def known_encoding(path: str | os.PathLike) -> KnownEncoding | None:
    """The known encoding whose file has exactly these bytes, else None."""
    return KNOWN_BY_HASH.get(file_sha256(path))
