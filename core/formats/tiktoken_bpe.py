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
    # == core.Tokenizer(...).encode(text):
    enc.encode(text, allowed_special=spec.specials_in_text, disallowed_special=())

(:func:`tiktoken_encoding` builds the same ``Encoding``.) ``spec.specials_in_text`` is every special
token of a tokenizer trained here (then ``allowed_special="all"`` is the same), and none for a
Mistral tekken file, whose control tokens mistral-common's ``encode`` reads as plain text. Note that ``load_tiktoken_bpe`` caches files by
path in ``$TIKTOKEN_CACHE_DIR`` (default: the temp folder); after re-exporting to the same path, set
``TIKTOKEN_CACHE_DIR=""`` or it returns the old content.

The file holds no merges: the tokenizer encodes by rank, as tiktoken does, and the spec's ``merges``
(a :class:`core.bpe.ranks.RankMerges`) are rebuilt only when something reads them: the tokens are
taken in rank order and each one's merge is the last merge BPE makes when encoding its bytes with the
merges found so far.

>>> import tempfile, pathlib
>>> from core.formats.spec import TokenizerSpec
>>> p = pathlib.Path(tempfile.mkdtemp()) / "bpe.tiktoken"
>>> _ = save_tiktoken(TokenizerSpec.from_merges([(b"a", b"b"), (b"ab", b"c")]), p)
>>> tuple(load_tiktoken(p).merges)
((b'a', b'b'), (b'ab', b'c'))
"""

from __future__ import annotations

import base64
import binascii
import os
import re
import sys
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import Any

from core.bpe.ranks import RankMerges
from core.errors import FormatError
from core.files import atomic_write, read_text
from core.formats._io import MAX_ID, missing_bytes, missing_bytes_error
from core.formats.known import known_encoding
from core.formats.spec import TokenizerSpec, as_spec

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
            raise FormatError(
                f"ids {seen[b]} and {i} are the same token {b!r}; a tiktoken file can hold "
                "each token once (use the native bpe.json format)",
                code="export_same_token",
                first=seen[b],
                second=i,
                shown=repr(b),
                fmt="tiktoken",
            )
        seen[b] = i
        lines.append(f"{base64.b64encode(b).decode('ascii')} {i}\n")
    return atomic_write(path, "".join(lines))


def load_tiktoken(
    path: str | os.PathLike,
    *,
    pattern: str | None = None,
    special_tokens: Iterable[str] | dict[str, int] | None = None,
) -> TokenizerSpec:
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
    say_given = False  # (an unknown file read with the special tokens given and GPT-2's pattern assumed)
    known = known_encoding(path) if (pattern is None or special_tokens is None) and path.is_file() else None
    if known is not None:
        given = [w for w, v in (("pattern", pattern), ("special tokens", special_tokens)) if v is not None]
        notes.append(
            f"recognised as {known.name} ({known.about}); its pattern and special-token ids are applied"
            + (f", except the {' and '.join(given)} you gave" if given else "")
        )
        pattern = known.pattern if pattern is None else pattern
        if special_tokens is not None and not isinstance(special_tokens, dict):  # names: the file's own ids
            unknown = [s for s in special_tokens if s not in known.special_ids]
            if unknown:
                raise FormatError(
                    f"{path}: {known.name} has no special token {unknown[0]!r} (it has "
                    f"{', '.join(list(known.special_ids)[:4])} …); give new ones as TOKEN=ID",
                    code="tiktoken_known_special",
                    file=str(path),
                    name=known.name,
                    token=unknown[0],
                    shown=", ".join(list(known.special_ids)[:4]),
                )
            special_tokens = {s: known.special_ids[s] for s in special_tokens}
        special_tokens = dict(known.special_ids) if special_tokens is None else special_tokens
    elif pattern is None:
        if special_tokens is None:
            notes.append(
                "a tiktoken file stores no pattern and no special tokens, and this one is not a known "
                "encoding: GPT-2's pattern is assumed and no special tokens are known (give the pattern "
                "and the special tokens as TOKEN=ID)"
            )
        else:  # (said once the special tokens given have their ids)
            say_given = True
        pattern = "gpt2"
    text = read_text(path, "tiktoken")
    vocab = _parse_fast(text)
    if vocab is None:
        empty: list[int] = []
        vocab = _parse(path, text, empty)
        if empty:
            notes.append(
                f"the file gives rank{'s' if len(empty) > 1 else ''} {', '.join(map(str, empty[:4]))} an "
                "empty token (a placeholder, as in Whisper's multilingual.tiktoken): left out; no text "
                "encodes to it"
            )
    missing = missing_bytes(vocab.values())
    if missing:
        raise missing_bytes_error(path, missing)
    merges = RankMerges([vocab[i] for i in sorted(vocab)])
    specials = _place_specials(vocab, special_tokens)
    for s, i in specials.items():
        vocab[i] = s.encode("utf-8", "surrogateescape")
    if say_given:
        shown = ", ".join(f"{s}={i}" for s, i in list(specials.items())[:3]) + (
            " …" if len(specials) > 3 else ""
        )
        notes.insert(
            0,
            "a tiktoken file stores no pattern, and this one is not a known encoding: GPT-2's pattern is "
            f"assumed (give the pattern if it is another); the special tokens are the ones given ({shown or 'none'})",
        )
    return TokenizerSpec(vocab, merges, tuple(specials), pattern, notes=tuple(notes))


# a file as tiktoken writes it: "<base64> <rank>" lines; anything else takes the careful path
_PLAIN_FILE = re.compile(r"(?:[A-Za-z0-9+/]+={0,2} [0-9]{1,10}\n)*(?:[A-Za-z0-9+/]+={0,2} [0-9]{1,10})?")
# what base64.b64decode(s, validate=True) does once the alphabet is checked (strict from Python 3.11)
if sys.version_info >= (3, 11):
    _B64 = partial(binascii.a2b_base64, strict_mode=True)
else:
    _B64 = binascii.a2b_base64


def _parse_fast(text: str) -> dict[int, bytes] | None:
    """rank -> token of a well-formed file, decoded at C speed; None when anything is off (then
    :func:`_parse` names the problem and its line)."""
    if _PLAIN_FILE.fullmatch(text) is None:
        return None
    fields = text.split()
    try:
        tokens = list(map(_B64, fields[0::2]))
    except (binascii.Error, ValueError):
        return None
    ranks = list(map(int, fields[1::2]))
    vocab = dict(zip(ranks, tokens))
    n = len(tokens)
    if len(vocab) != n or len(set(tokens)) != n or not all(tokens) or (ranks and max(ranks) >= 1 << 31):
        return None
    return vocab


def _parse(path: Path, text: str, empty: list[int] | None = None) -> dict[int, bytes]:
    """rank -> token, line by line, with an error naming the first bad line. An empty token (Whisper's
    multilingual.tiktoken has ``= 50256``, a placeholder no text encodes to) is left out and its rank
    appended to ``empty`` (refused when ``empty`` is None)."""
    vocab: dict[int, bytes] = {}
    line_of_id: dict[int, int] = {}
    line_of_token: dict[bytes, int] = {}
    for n, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 2:
            raise FormatError(
                f"{path}: line {n}: {line[:60]!r} has {len(parts)} part(s); each line must be "
                "'<base64 token> <rank>'",
                code="tiktoken_line_parts",
                file=str(path),
                line=n,
                text=line[:60],
                parts=len(parts),
            )
        try:
            token = b"" if parts[0] in ("=", "==") else base64.b64decode(parts[0], validate=True)
        except (binascii.Error, ValueError):
            raise FormatError(
                f"{path}: line {n}: {parts[0][:40]!r} is not valid base64",
                code="tiktoken_base64",
                file=str(path),
                line=n,
                text=parts[0][:40],
            ) from None
        if not (parts[1].isascii() and parts[1].isdigit()) or len(parts[1]) > 10 or int(parts[1]) >= 1 << 31:
            raise FormatError(
                f"{path}: line {n}: rank {parts[1][:20]!r} is not an integer from 0 to 2^31-1",
                code="tiktoken_rank_invalid",
                file=str(path),
                line=n,
                text=parts[1][:20],
            )
        rank = int(parts[1])
        if rank in vocab or rank in (empty or ()):
            raise FormatError(
                f"{path}: line {n}: rank {rank} is already used on line {line_of_id[rank]}; "
                "each rank must be unique",
                code="tiktoken_rank_repeated",
                file=str(path),
                line=n,
                rank=rank,
                first_line=line_of_id[rank],
            )
        if not token:
            if empty is None:
                raise FormatError(
                    f"{path}: line {n}: the token is empty; tokens need at least one byte",
                    code="tiktoken_token_empty",
                    file=str(path),
                    line=n,
                )
            empty.append(rank)
            line_of_id[rank] = n
            continue
        if token in line_of_token:
            raise FormatError(
                f"{path}: line {n}: token {token!r} is already listed on line "
                f"{line_of_token[token]}; each token must be listed once",
                code="tiktoken_token_repeated",
                file=str(path),
                line=n,
                shown=repr(token),
                first_line=line_of_token[token],
            )
        vocab[rank] = token
        line_of_id[rank] = n
        line_of_token[token] = n
    return vocab


def _place_specials(
    vocab: dict[int, bytes], special_tokens: Iterable[str] | dict[str, int] | None
) -> dict[str, int]:
    if special_tokens is None:
        return {}
    from core.pretokenization.pretokenize import check_special_tokens

    check_special_tokens(list(special_tokens))  # (strings, not empty, no lone surrogate)
    if isinstance(special_tokens, dict):
        for s, i in special_tokens.items():
            if type(i) is not int or not 0 <= i < MAX_ID:
                raise FormatError(
                    f"special token {s!r} is given id {i!r}; ids are integers from 0 to 2^31-1",
                    code="special_id_invalid",
                    token=s,
                    shown=repr(i)[:40],
                )
            if i in vocab:
                raise FormatError(
                    f"special token {s!r} is given id {i}, which the file already uses for "
                    f"{vocab[i]!r}; choose an unused id",
                    code="special_id_taken",
                    token=s,
                    id=i,
                    shown=repr(vocab[i]),
                )
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


def tiktoken_encoding(
    source: Any, name: str = "bpe-explorer", mergeable_ranks: dict[bytes, int] | None = None
):
    """A ``tiktoken.Encoding`` equal to the tokenizer (needs the ``tiktoken`` package).

    ``mergeable_ranks`` defaults to the tokenizer's own; pass ``load_tiktoken_bpe(path)`` to use a file.
    Encode with ``enc.encode(text, allowed_special=spec.specials_in_text, disallowed_special=())`` for
    the tokenizer's ids: a tekken file's control tokens are not looked for in text (all special
    tokens stay in the encoding, so that ``decode`` knows their ids). If one special token is a prefix of another, tiktoken picks between them in its hash-map order
    (not the longest, as we and HF do), so ids can differ on text where both match.
    """
    import tiktoken

    spec = as_spec(source)
    if mergeable_ranks is None:
        mergeable_ranks = {b: i for i, b in spec.ordinary_tokens().items()}
    pat = spec.pattern_regex
    return tiktoken.Encoding(
        name,
        pat_str=NONE_PATTERN if pat is None else pat,
        mergeable_ranks=mergeable_ranks,
        special_tokens=spec.special_ids,
    )
