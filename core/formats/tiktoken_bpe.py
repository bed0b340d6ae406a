"""tiktoken ``bpe.tiktoken``: one ``base64(token) rank`` line per token, rank = our id.

Special tokens are not in the file (tiktoken passes them separately). Build the encoding with::

    import tiktoken
    from tiktoken.load import load_tiktoken_bpe
    enc = tiktoken.Encoding(
        name="my-bpe",
        pat_str=spec.pattern_regex,          # the regex of "gpt2"/"gpt4"; (?s:.+) for "none"
        mergeable_ranks=load_tiktoken_bpe("bpe.tiktoken"),
        special_tokens=spec.special_ids,     # e.g. {"<|endoftext|>": 256}
    )
    enc.encode(text, allowed_special="all")  # == core.Tokenizer(...).encode(text)

(:func:`tiktoken_encoding` does exactly this.) Note that ``load_tiktoken_bpe`` caches files by
path in ``$TIKTOKEN_CACHE_DIR`` (default: the temp folder); after re-exporting to the same path, set
``TIKTOKEN_CACHE_DIR=""`` or it returns the old content.

Reading rebuilds the merges: the tokens are taken in rank order and each one's merge is the last
merge BPE makes when encoding its bytes with the merges found so far.

>>> import tempfile, pathlib
>>> from core.spec import TokenizerSpec
>>> p = pathlib.Path(tempfile.mkdtemp()) / "bpe.tiktoken"
>>> _ = save_tiktoken(TokenizerSpec.from_merges([(b"a", b"b"), (b"ab", b"c")]), p)
>>> load_tiktoken(p).merges
((b'a', b'b'), (b'ab', b'c'))
"""
from __future__ import annotations

import base64
import binascii
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..bpe import bpe_merge
from ..errors import FormatError
from ..spec import TokenizerSpec, as_spec
from ._io import atomic_write, missing_bytes, missing_bytes_error, read_text
from .known import known_encoding

TIKTOKEN_NAME = "bpe.tiktoken"
NONE_PATTERN = r"(?s:.+)"  # pattern="none": the whole text between special tokens is one piece


def save_tiktoken(source: Any, path: str | os.PathLike) -> Path:
    """Write ``bpe.tiktoken`` (``path`` may be a folder) atomically; special tokens are left out."""
    spec = as_spec(source)
    path = Path(path)
    if path.is_dir():
        path = path / TIKTOKEN_NAME
    tokens = spec.ordinary_tokens()
    seen: dict[bytes, int] = {}
    lines = []
    for i in sorted(tokens):
        b = tokens[i]
        if b in seen:
            raise FormatError(f"ids {seen[b]} and {i} are the same token {b!r}; a tiktoken file can hold "
                              "each token once (use the native bpe.json format)")
        seen[b] = i
        lines.append(f"{base64.b64encode(b).decode('ascii')} {i}\n")
    return atomic_write(path, "".join(lines))


def load_tiktoken(path: str | os.PathLike, *, pattern: str | None = None,
                  special_tokens: Iterable[str] | dict[str, int] | None = None) -> TokenizerSpec:
    """Read a tiktoken file (``bpe.tiktoken``, ``cl100k_base.tiktoken``, Llama 3's ``tokenizer.model`` …).

    The file stores neither the pattern nor the special tokens. A known file (r50k, p50k, cl100k,
    o200k, Llama 3, Qwen: recognised by its SHA-256, see :mod:`core.formats.known`) brings its own;
    what you pass overrides them. ``special_tokens`` is a dict of token → id (what tiktoken takes),
    or a list whose tokens take the unused ids first (where our export left them), in order, then
    ids after the last rank. An unknown file without ``pattern`` is read with GPT-2's pattern, and the
    spec's ``notes`` say so.
    """
    path = Path(path)
    if path.is_dir():
        path = path / TIKTOKEN_NAME
    notes: list[str] = []
    known = known_encoding(path) if (pattern is None or special_tokens is None) and path.is_file() else None
    if known is not None:
        given = [w for w, v in (("pattern", pattern), ("special tokens", special_tokens)) if v is not None]
        notes.append(f"recognised as {known.name} ({known.about}); its pattern and special-token ids are applied"
                     + (f", except the {' and '.join(given)} you gave" if given else ""))
        pattern = known.pattern if pattern is None else pattern
        special_tokens = dict(known.special_ids) if special_tokens is None else special_tokens
    elif pattern is None:
        notes.append("a tiktoken file stores no pattern and no special tokens, and this one is not a known "
                     "encoding: GPT-2's pattern is assumed and no special token is known (give the pattern "
                     "and the special tokens as TOKEN=ID)")
        pattern = "gpt2"
    text = read_text(path, "tiktoken")
    vocab: dict[int, bytes] = {}
    line_of_id: dict[int, int] = {}
    line_of_token: dict[bytes, int] = {}
    for n, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 2:
            raise FormatError(f"{path}: line {n}: {line[:60]!r} has {len(parts)} part(s); each line must be "
                              "'<base64 token> <rank>'")
        try:
            token = base64.b64decode(parts[0], validate=True)
        except (binascii.Error, ValueError):
            raise FormatError(f"{path}: line {n}: {parts[0][:40]!r} is not valid base64") from None
        if not (parts[1].isascii() and parts[1].isdigit()) or len(parts[1]) > 10 or int(parts[1]) >= 1 << 31:
            raise FormatError(f"{path}: line {n}: rank {parts[1][:20]!r} is not an integer from 0 to 2^31-1")
        rank = int(parts[1])
        if not token:
            raise FormatError(f"{path}: line {n}: the token is empty; tokens need at least one byte")
        if rank in vocab:
            raise FormatError(f"{path}: line {n}: rank {rank} is already used on line {line_of_id[rank]}; "
                              "each rank must be unique")
        if token in line_of_token:
            raise FormatError(f"{path}: line {n}: token {token!r} is already listed on line "
                              f"{line_of_token[token]}; each token must be listed once")
        vocab[rank] = token
        line_of_id[rank] = n
        line_of_token[token] = n
    missing = missing_bytes(vocab.values())
    if missing:
        raise missing_bytes_error(path, missing)
    merges = recover_merges(vocab)
    specials = _place_specials(vocab, special_tokens)
    for s, i in specials.items():
        vocab[i] = s.encode("utf-8", "surrogateescape")
    return TokenizerSpec(vocab, tuple(merges), tuple(specials), pattern, notes=tuple(notes))


def _place_specials(vocab: dict[int, bytes], special_tokens: Iterable[str] | dict[str, int] | None
                    ) -> dict[str, int]:
    if special_tokens is None:
        return {}
    if isinstance(special_tokens, dict):
        for s, i in special_tokens.items():
            if i in vocab:
                raise FormatError(f"special token {s!r} is given id {i}, which the file already uses for "
                                  f"{vocab[i]!r}; choose an unused id")
        return dict(special_tokens)
    top = max(vocab, default=-1)
    free = (i for i in range(top + 1) if i not in vocab)
    out: dict[str, int] = {}
    for s in special_tokens:
        i = next(free, None)
        if i is None:
            top += 1
            i = top
        out[s] = i
    return out


def recover_merges(ranks: dict[int, bytes]) -> list[tuple[bytes, bytes]]:
    """The merge list implied by tokens ordered by rank (single bytes need no merge).

    Each multi-byte token is encoded with the merges recovered so far; its merge is the pair left
    at the end. If those merges leave more than two parts, parts are joined as tiktoken would
    (lowest-ranked concatenation first) until two are left. A token that cannot be made from two
    tokens of lower rank (e.g. a special token listed as a rank) is kept without a merge.

    >>> recover_merges({0: b"a", 1: b"b", 2: b"ab", 3: b"abb", 4: b"<|x|>"})
    [(b'a', b'b'), (b'ab', b'b')]
    """
    token_rank = {b: i for i, b in ranks.items()}
    pair_rank: dict[tuple[bytes, bytes], int] = {}
    merges: list[tuple[bytes, bytes]] = []
    for i in sorted(ranks):
        token = ranks[i]
        if len(token) == 1:
            continue
        parts = bpe_merge(token, pair_rank)
        while len(parts) > 2:
            best = min(range(len(parts) - 1), key=lambda k: token_rank.get(parts[k] + parts[k + 1], 1 << 62))
            r = token_rank.get(parts[best] + parts[best + 1])
            if r is None or r >= i:
                break
            parts[best:best + 2] = [parts[best] + parts[best + 1]]
        if len(parts) == 2:
            pair_rank.setdefault((parts[0], parts[1]), len(merges))
            merges.append((parts[0], parts[1]))
    return merges


def tiktoken_encoding(source: Any, name: str = "bpe-explorer", mergeable_ranks: dict[bytes, int] | None = None):
    """A ``tiktoken.Encoding`` equal to the tokenizer (needs the ``tiktoken`` package).

    ``mergeable_ranks`` defaults to the tokenizer's own; pass ``load_tiktoken_bpe(path)`` to use a file.
    """
    import tiktoken

    spec = as_spec(source)
    if mergeable_ranks is None:
        mergeable_ranks = {b: i for i, b in spec.ordinary_tokens().items()}
    pat = spec.pattern_regex
    return tiktoken.Encoding(name, pat_str=NONE_PATTERN if pat is None else pat,
                             mergeable_ranks=mergeable_ranks, special_tokens=spec.special_ids)
