"""GPT-2 files: ``vocab.json`` (token string → id) and ``merges.txt`` (one ``a b`` merge per line).

Every token is written through GPT-2's ``bytes_to_unicode`` table (one printable character per byte),
so every token, valid UTF-8 or not, is kept exactly; special tokens too (printable ASCII ones such as
``<|endoftext|>`` look unchanged). ``merges.txt`` starts with ``#version: 0.2``; reading accepts it
or not. The files do not say which tokens are special: on reading, unless ``special_tokens`` is
given, the tokens that are neither single bytes nor made by a merge are taken as special tokens.

>>> import tempfile
>>> from core.formats.spec import TokenizerSpec
>>> d = tempfile.mkdtemp()
>>> _ = save_gpt2(TokenizerSpec.from_merges([(b"a", b"b")], ["<s>"]), d)
>>> spec = load_gpt2(d)
>>> tuple(spec.merges), spec.special_tokens
(((b'a', b'b'),), ('<s>',))
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import regex

from core.bpe.byte_level import BYTE_TO_CHAR, str_to_token, token_to_str
from core.bpe.ranks import IdMerges
from core.errors import FormatError
from core.files import atomic_write, read_text, staged_writes
from core.formats._fast import fast_vocab, merges_from_lines
from core.formats._io import (
    MAX_ID,
    NON_UTF8_BYTES,
    dump_mapping,
    line_of,
    lines_with,
    load_json,
    missing_bytes,
    missing_bytes_error,
)
from core.formats.spec import TokenizerSpec, as_spec

VOCAB_NAME = "vocab.json"
MERGES_NAME = "merges.txt"
MERGES_HEADER = "#version: 0.2"


def same_token_ids(vocab: dict[int, bytes]) -> tuple[int, int, bytes] | None:
    """The first two ids that hold the same token (which vocab.json, a map from token to id, cannot
    hold both of), or None."""
    seen: dict[bytes, int] = {}
    for i in sorted(vocab):
        first = seen.setdefault(vocab[i], i)
        if first != i:
            return first, i, vocab[i]
    return None


def save_gpt2(source: Any, folder: str | os.PathLike) -> list[Path]:
    """Write ``vocab.json`` and ``merges.txt`` into ``folder`` (each file atomically)."""
    spec = as_spec(source)
    folder = Path(folder)
    clash = same_token_ids(spec.vocab)
    if clash is not None:
        first, second, token = clash
        raise FormatError(
            f"ids {first} and {second} are the same token {token!r}; vocab.json "
            "can hold each token once (use the native bpe.json format)",
            code="export_same_token",
            first=first,
            second=second,
            shown=repr(token),
            fmt="vocab.json",
        )
    seen = {token_to_str(spec.vocab[i]): i for i in sorted(spec.vocab)}
    merges = "".join(f"{token_to_str(a)} {token_to_str(b)}\n" for a, b in spec.merges)
    with staged_writes():  # both files or neither: a vocab never meets another export's merges
        vocab_path = atomic_write(folder / VOCAB_NAME, dump_mapping(seen))
        merges_path = atomic_write(folder / MERGES_NAME, f"{MERGES_HEADER}\n{merges}")
    return [vocab_path, merges_path]


def _paths(vocab_path: str | os.PathLike, merges_path: str | os.PathLike | None) -> tuple[Path, Path]:
    p = Path(vocab_path)
    if merges_path is not None:
        return p, Path(merges_path)
    if p.is_dir():
        return p / VOCAB_NAME, p / MERGES_NAME
    return p, p.with_name(MERGES_NAME)


def load_gpt2(
    vocab_path: str | os.PathLike,
    merges_path: str | os.PathLike | None = None,
    *,
    special_tokens: list[str] | None = None,
    pattern: str | None = "gpt2",
) -> TokenizerSpec:
    """Read GPT-2 ``vocab.json`` + ``merges.txt`` (a folder holding both, or the two paths).

    ``special_tokens=None`` takes the tokens that are not single bytes and not made by a merge as
    special tokens; pass a list (``[]`` for none) to say which they are. Malformed files raise
    :class:`FormatError` naming the file and the line.
    """
    from core.memory import paused_gc

    vpath, mpath = _paths(vocab_path, merges_path)
    _refuse_pickle(vpath, VOCAB_NAME)
    _refuse_pickle(mpath, MERGES_NAME)
    text = read_text(vpath, "vocab")
    with paused_gc():  # hundreds of thousands of acyclic objects: collector passes would find nothing
        return spec_from_gpt2(vpath, mpath, text, load_json(vpath, text), special_tokens, pattern)


# how to get GPT-2 files from what train_bpe returns (said where another form of them is given)
_WRITE_GPT2 = (
    "pass the vocab dict and the merges list to Tokenizer(vocab, merges, special_tokens), or write "
    "GPT-2 files from them with core.export_all(folder, Tokenizer(vocab, merges, special_tokens), 'gpt2')"
)


def _refuse_pickle(path: Path, name: str) -> None:
    """A Python pickle (protocol 2 or later: the PROTO opcode 0x80 and the protocol number) given for a
    GPT-2 file, as a CS336 student may have saved train_bpe's vocab and merges: say so, and how to
    use it, rather than "line 1: not valid UTF-8 (byte 0x80)"."""
    try:
        with path.open("rb") as f:
            head = f.read(2)
    except OSError:
        return  # (reading it says what is wrong)
    if len(head) == 2 and head[0] == 0x80 and 2 <= head[1] <= 5:
        raise FormatError(
            f"{path} is a Python pickle, not a GPT-2 {name}: load it with pickle.load, then " + _WRITE_GPT2,
            code="gpt2_pickle",
            file=str(path),
            what=name,
        )


def spec_from_gpt2(
    vpath: Path, mpath: Path, text: str, data: Any, special_tokens: list[str] | None, pattern: str | None
) -> TokenizerSpec:
    """:func:`load_gpt2` once the vocab.json is read (``text``) and parsed (``data``)."""
    if special_tokens is not None:
        from core.pretokenization.pretokenize import check_special_tokens

        special_tokens = check_special_tokens(special_tokens)  # (strings, not empty, no lone surrogate)
    vocab, key_id = _read_vocab(vpath, text, data)
    if key_id is not None:  # every key of the vocab, in GPT-2 characters: look the 256 bytes up
        missing = [b for b in range(256) if BYTE_TO_CHAR[b] not in key_id and b not in NON_UTF8_BYTES]
    else:
        missing = missing_bytes(vocab.values())
    if missing:
        raise missing_bytes_error(vpath, missing)
    given = {t.encode("utf-8", "surrogateescape") for t in special_tokens or ()}
    merges: Sequence[tuple[bytes, bytes]] | None = None
    if key_id is not None:
        merges = _fast_merges_txt(mpath, key_id, vocab)
    if isinstance(merges, IdMerges):  # the tokens no merge makes, from the ids of the merges' results
        assert key_id is not None
        unmade_ids, last_made = _unmade(merges.ids[2], list(key_id.values()))
        unmade = [i for i in unmade_ids if len(vocab[i]) > 1 and vocab[i] not in given]
    else:
        merges = tuple(read_merges_txt(mpath, set(vocab.values()), vpath.name))
        made = {a + b for a, b in merges}
        unmade = [
            i for i in sorted(vocab) if len(vocab[i]) > 1 and vocab[i] not in made and vocab[i] not in given
        ]
        last_made = max((i for i, t in vocab.items() if t in made), default=-1)
    _check_belong_together(vpath, mpath, vocab, last_made, unmade, merges)
    if special_tokens is None:
        special_tokens = [vocab[i].decode("utf-8", "surrogateescape") for i in unmade]
    return TokenizerSpec(vocab, merges, tuple(special_tokens), pattern)


def _unmade(made: list[int], ids: list[int]) -> tuple[list[int], int]:
    """(the ids of ``ids`` not in ``made``, sorted; the highest of ``made``, -1 if none). ``ids`` are
    distinct; the merges' results are usually a run of them (found by comparing lists, not by a set)."""
    if made:
        try:
            at = ids.index(made[0])
        except ValueError:
            at = -1
        if at >= 0 and ids[at : at + len(made)] == made:
            return sorted(ids[:at] + ids[at + len(made) :]), max(made)
    made_set = set(made)
    return sorted(set(ids) - made_set), max(made_set, default=-1)


def _read_vocab(path: Path, text: str, data: Any) -> tuple[dict[int, bytes], dict[str, int] | None]:
    """(id -> bytes, token string -> id when read by the fast path)."""
    if isinstance(data, dict) and "" not in data:
        fast = fast_vocab(data, {})
        if fast is not None and max(fast[0], default=0) < MAX_ID:
            return fast
    return read_vocab_json(path, text, data), None


def _fast_merges_txt(path: Path, key_id: dict[str, int], vocab: dict[int, bytes]) -> IdMerges | None:
    """The merges of a plain merges.txt (``#version`` line, then ``a b`` lines, ``\n`` line ends), else None."""
    text = read_text(path, "merges")
    if text.startswith("#version"):
        text = text[text.index("\n") + 1 :] if "\n" in text else ""
    if text.endswith("\n"):
        text = text[:-1]
    return merges_from_lines(text, text.count("\n") + 1 if text else 0, key_id, vocab, keep_last=False)


MAX_PLAIN_ADDED = 64
_LOOKS_ADDED = regex.compile(r"(?s)^\s*(<.*>|\[.*\]|\|.*\|)\s*$")


def _check_belong_together(
    vpath: Path,
    mpath: Path,
    vocab: dict[int, bytes],
    last_made: int,
    unmade: list[int],
    merges: Sequence[tuple[bytes, bytes]] = (),
) -> None:
    """Refuse a vocab and a merges file that do not belong together.

    Every token of a BPE vocab is a byte or made by a merge; only added tokens (special tokens) may
    lack one, and they show it: markup such as ``<|endoftext|>`` / ``[PAD]``, a few tokens after all
    the merged ones, or a few tokens right after the 256 bytes that no merge uses (where our exports
    and ``train_bpe`` put special tokens of any text, ``EOS`` or ``the``). Anything else means a
    truncated or foreign merges file (a GPT-2 vocab with half its merges.txt would otherwise load
    with 20,000 "special tokens").
    """
    if not unmade:
        return
    odd = [i for i in unmade if not _LOOKS_ADDED.match(vocab[i].decode("utf-8", "replace"))]
    # a few plain-looking added tokens after all merged ones, or before them all, are fine
    if not odd or (len(odd) <= MAX_PLAIN_ADDED and (odd[0] > last_made or _after_bytes(vocab, odd, merges))):
        return
    shown = ", ".join(f"{token_to_str(vocab[i])!r} (id {i})" for i in odd[:3])
    raise FormatError(
        f"{vpath} and {mpath}: the vocab has {len(odd)} token(s) made by no merge, e.g. "
        f"{shown}; the two files do not belong together (a truncated or different merges "
        "file?). Only added tokens such as <|endoftext|> may lack a merge",
        code="gpt2_not_together",
        file=str(vpath),
        merges_file=str(mpath),
        count=len(odd),
        shown=shown,
    )


def _after_bytes(vocab: dict[int, bytes], odd: list[int], merges: Sequence[tuple[bytes, bytes]]) -> bool:
    """Whether the tokens ``odd`` (ids, sorted) are added tokens in our layout: ids 256, 257, … right
    after the 256 single bytes, and no merge uses one of them (a merges file that lost its first
    lines leaves the first merged tokens unmade, and later merges use them)."""
    if odd != list(range(256, 256 + len(odd))) or any(len(vocab.get(b, b"")) != 1 for b in range(256)):
        return False
    if isinstance(merges, IdMerges):
        ids = set(odd)
        return ids.isdisjoint(merges.ids[0]) and ids.isdisjoint(merges.ids[1])
    tokens = {vocab[i] for i in odd}
    return not any(a in tokens or b in tokens for a, b in merges)


def read_vocab_json(path: Path, text: str | None = None, data: Any = None) -> dict[int, bytes]:
    """Read a GPT-2 ``vocab.json`` into id → bytes (``text`` and parsed ``data`` if already read)."""
    if text is None:
        text = read_text(path, "vocab")
        data = load_json(path, text)
    if not isinstance(data, dict):
        raise FormatError(
            f"{path}: expected a JSON object of token -> id, found {type(data).__name__}; "
            "this is not a GPT-2 vocab.json",
            code="gpt2_vocab_not_object",
            file=str(path),
            kind=type(data).__name__,
        )
    first = next(iter(data.items()), None)
    if first is not None and first[0].isdigit() and isinstance(first[1], str):
        raise FormatError(
            f"{path}: maps ids to tokens ({first[0]!r}: {first[1]!r} …); a GPT-2 vocab.json maps each "
            "token, written in GPT-2's byte-to-character alphabet, to its id; " + _WRITE_GPT2,
            code="gpt2_vocab_ids_to_tokens",
            file=str(path),
            shown=f"{first[0]!r}: {first[1]!r}",
        )
    vocab: dict[int, bytes] = {}
    keys: dict[int, str] = {}
    for key, i in data.items():
        where = _Where(text, key)
        if not isinstance(i, int) or isinstance(i, bool) or i < 0 or i >= MAX_ID:
            raise FormatError(
                f"{path}: {where}the id of {key!r} is {i!r}; ids must be integers from 0 to 2^31-1",
                code="vocab_id_invalid",
                file=str(path),
                line=where.number(),
                key=key,
                shown=repr(i),
            )
        if key == "":
            raise FormatError(
                f"{path}: {where}a token is the empty string; tokens need at least one byte",
                code="vocab_token_empty",
                file=str(path),
                line=where.number(),
            )
        try:
            token = str_to_token(key)
        except KeyError as e:
            raise FormatError(
                f"{path}: {where}token {key!r} contains {e.args[0]!r} (U+{ord(e.args[0]):04X}), "
                "which is not a GPT-2 byte character; this is not a byte-level BPE vocab",
                code="vocab_not_byte_level",
                file=str(path),
                line=where.number(),
                key=key,
                text=e.args[0],
                codepoint=f"U+{ord(e.args[0]):04X}",
            ) from None
        if i in vocab:
            raise FormatError(
                f"{path}: {where}id {i} is used by both {keys[i]!r} and {key!r}; each id must name one token",
                code="vocab_id_repeated",
                file=str(path),
                line=where.number(),
                id=i,
                text=keys[i],
                key=key,
            )
        vocab[i] = token
        keys[i] = key
    return vocab


class _Where:
    """Formats as ``"line N: "`` for a vocab.json key, computed only when an error message needs it."""

    def __init__(self, text: str, key: str) -> None:
        self.text, self.key = text, key

    def __str__(self) -> str:
        return line_of(self.text, json.dumps(self.key, ensure_ascii=False) + ":")

    def number(self) -> int:
        """The line's number (0 when the key is not found as written: escaped, say)."""
        return next(iter(lines_with(self.text, json.dumps(self.key, ensure_ascii=False) + ":")), 0)


def read_merges_txt(
    path: Path, tokens: set[bytes], vocab_name: str = VOCAB_NAME
) -> list[tuple[bytes, bytes]]:
    """Read ``merges.txt``; every part and every result must be a token of the vocab."""
    text = read_text(path, "merges")
    merges: list[tuple[bytes, bytes]] = []
    for n, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        if not line.strip() or (n == 1 and line.startswith("#version")):
            continue
        parts = line.split(" ")
        if len(parts) != 2 or not all(parts):
            raise FormatError(
                f"{path}: line {n}: {line!r} has {len([p for p in parts if p])} part(s); "
                "each merge line must be two tokens separated by one space",
                code="merges_line_parts",
                file=str(path),
                line=n,
                text=line,
                parts=len([p for p in parts if p]),
            )
        try:
            a, b = str_to_token(parts[0]), str_to_token(parts[1])
        except KeyError as e:
            raise FormatError(
                f"{path}: line {n}: {e.args[0]!r} (U+{ord(e.args[0]):04X}) is not a GPT-2 byte "
                "character; this is not a byte-level merges file",
                code="merges_not_byte_level",
                file=str(path),
                line=n,
                text=e.args[0],
                codepoint=f"U+{ord(e.args[0]):04X}",
            ) from None
        for tok, what in ((a, "uses"), (b, "uses"), (a + b, "makes")):
            if tok not in tokens:
                raise FormatError(
                    f"{path}: line {n}: the merge {line!r} {what} the token "
                    f"{token_to_str(tok)!r} which is not in {vocab_name}; the two files do "
                    "not belong together",
                    code=f"merges_{what}_missing",
                    file=str(path),
                    line=n,
                    merge=line,
                    token=token_to_str(tok),
                    vocab=vocab_name,
                )
        merges.append((a, b))
    return merges
