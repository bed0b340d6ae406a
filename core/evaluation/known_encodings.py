"""Tokenizers for evaluation: a file or folder the app imports, or a known tiktoken encoding name.

A known name (``gpt2``, ``r50k_base``, ``p50k_base``, ``cl100k_base``, ``o200k_base``) is read
offline only: from tiktoken's download cache (``TIKTOKEN_CACHE_DIR``, ``DATA_GYM_CACHE_DIR`` or
``<tmp>/data-gym-cache``, one file per URL named by its SHA-1) or from a ``tiktoken_ext`` plugin
package that ships ``<name>.tiktoken``. A ``.tiktoken`` file whose name is a known encoding
(``cl100k_base.tiktoken``) gets that encoding's pattern and special tokens.

>>> KNOWN["cl100k_base"].special_tokens["<|endoftext|>"]
100257
>>> resolve_known("no-such-name") is None
True
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from core.errors import FormatError
from core.formats.known import KNOWN_BY_HASH
from core.formats.spec import TokenizerSpec
from core.pretokenization.patterns import pattern_name

_BLOB = "https://openaipublic.blob.core.windows.net/encodings/"


@dataclass(frozen=True)
class KnownEncoding:
    """Where a tiktoken encoding's ranks live, and what the rank file does not say."""

    name: str
    file: str  # the .tiktoken file name
    pattern: str  # "gpt2", "gpt4" or a regex
    special_tokens: dict[str, int]

    @property
    def url(self) -> str:
        return _BLOB + self.file


# the pattern and special-token ids come from the table every loader uses (core.formats.known);
# this one adds where each encoding's rank file lives
_BY_NAME = {e.name: e for e in KNOWN_BY_HASH.values()}


def _known(name: str, source: str) -> KnownEncoding:
    e = _BY_NAME[source]
    return KnownEncoding(name, f"{source}.tiktoken", pattern_name(e.pattern), dict(e.special_ids))


KNOWN: dict[str, KnownEncoding] = {
    "gpt2": _known("gpt2", "r50k_base"),  # the same ranks as r50k_base
    **{n: _known(n, n) for n in ("r50k_base", "p50k_base", "cl100k_base", "o200k_base")},
}


def tiktoken_cache_dir() -> Path | None:
    """The folder tiktoken caches downloads in (None when caching is switched off)."""
    for var in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"):
        if var in os.environ:
            return Path(os.environ[var]) if os.environ[var] else None
    return Path(tempfile.gettempdir()) / "data-gym-cache"


def _plugin_files(file: str) -> list[Path]:
    try:
        spec = importlib.util.find_spec("tiktoken_ext")
    except (ImportError, ValueError):
        return []
    roots = list(spec.submodule_search_locations or []) if spec else []
    found: list[Path] = []
    for root in roots:
        found += sorted(Path(root).rglob(file))
    return found


def resolve_known(name: str) -> Path | None:
    """The local rank file of a known encoding (None for an unknown name).

    Raises :class:`FormatError` saying how to provide the file when the name is known but no copy
    is available offline.
    """
    enc = KNOWN.get(name)
    if enc is None:
        return None
    cache = tiktoken_cache_dir()
    candidates = []
    if cache is not None:
        candidates.append(cache / hashlib.sha1(enc.url.encode()).hexdigest())
    candidates += _plugin_files(enc.file)
    for c in candidates:
        if c.is_file():
            return c
    where = f"tiktoken's cache {cache}" if cache is not None else "tiktoken's cache (switched off)"
    raise FormatError(
        f"encoding {name!r} is not available offline: no copy in {where} and no tiktoken_ext "
        f"plugin ships {enc.file}; download {enc.url} and pass the file "
        f"(--tokenizer path/to/{enc.file}), or set TIKTOKEN_CACHE_DIR to a folder holding "
        "tiktoken's cache",
        code="encoding_offline",
        name=name,
        url=enc.url,
    )


def load_eval_tokenizer(source: str | os.PathLike) -> TokenizerSpec:
    """A tokenizer for evaluation: a known encoding name, or any file/folder :func:`load_any` reads."""
    from core.formats import load_any, load_tiktoken

    text = str(source)
    path = Path(text)
    if not path.exists():
        known = resolve_known(text)
        if known is not None:
            enc = KNOWN[text]
            return load_tiktoken(known, pattern=enc.pattern, special_tokens=dict(enc.special_tokens))
        if text.lower() in KNOWN:
            raise FormatError(
                f"unknown tokenizer {text!r}; did you mean {text.lower()!r}?",
                code="eval_encoding_case",
                text=text,
                shown=repr(text.lower()),
            )
        raise FormatError(
            f"tokenizer {text!r} is neither a file or folder nor a known encoding; give a path "
            f"or one of {', '.join(KNOWN)}",
            code="eval_tokenizer_unknown",
            text=text,
            names=", ".join(KNOWN),
        )
    if path.is_file() and path.suffix == ".tiktoken" and path.stem in KNOWN:
        enc = KNOWN[path.stem]
        return load_tiktoken(path, pattern=enc.pattern, special_tokens=dict(enc.special_tokens))
    return load_any(path)
