"""A JSON file that holds a merge list but no ``model``: ``{"merges": [...]}``, optionally with a
``"vocab"`` beside the merges.

Such files come from a student's own dump of ``train_bpe``'s result, or from the ``model`` part of
a HuggingFace ``tokenizer.json`` cut out of it. Both shapes of merge HF writes are read: strings
``"a b"`` (tokens in GPT-2's byte characters, split at the one space) and pairs ``["a", "b"]``
(GPT-2's byte characters too, or, for a student's dump, one character a byte as ``latin-1``
writes them, or UTF-8 text: :func:`json_token_decoder`).

The ids come from a vocab when there is one: the file's own ``"vocab"`` (token → id in GPT-2
characters, as in a ``tokenizer.json``), else a ``vocab.json`` beside it (``X_vocab.json`` for
``X_merges.json``). Without one they are derived, as ``train_bpe`` lays them out: ids 0–255 the
bytes, then the special tokens, then one id per merge in order. That needs a merge list built on
itself (each merge joins bytes or tokens made by earlier merges, as every trained list is); one that
is not is refused, naming the merge and what would work.

>>> import json, tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "merges.json"
>>> _ = p.write_text(json.dumps({"merges": ["h e", "he l", ["Ġ", "hel"]]}))
>>> spec = load_merge_list(p, json.loads(p.read_text()))
>>> spec.merges, spec.vocab[258]
(((b'h', b'e'), (b'he', b'l'), (b' ', b'hel')), b' hel')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from core.bpe.byte_level import str_to_token, token_to_str
from core.errors import FormatError
from core.formats._io import missing_bytes, missing_bytes_error
from core.formats.spec import TokenizerSpec

Pair = tuple[bytes, bytes]


def is_merge_list(data: Any) -> bool:
    """Whether parsed JSON is a merge list without a model: an object with a ``"merges"`` list and no
    ``"model"`` (a tokenizer.json) or ``"format"`` (our bpe.json). A GPT-2 vocab.json that holds the
    token ``"merges"`` maps it to an int, not a list."""
    return (
        isinstance(data, dict)
        and isinstance(data.get("merges"), list)
        and "model" not in data
        and "format" not in data
    )


def json_token_decoder(strings: list[str]) -> Callable[[str], bytes]:
    """How the strings of a JSON merge list stand for bytes: each character one byte (``latin-1``, or
    GPT-2's table: they agree on the characters they share), else GPT-2's characters when every
    character is one of them, else the strings' UTF-8."""
    if all(ord(c) < 256 for s in strings for c in s):
        return lambda s: s.encode("latin-1")
    try:
        for s in strings:
            str_to_token(s)
    except KeyError:
        return lambda s: s.encode("utf-8", "surrogateescape")
    return str_to_token


def _shape_error(path: Path, n: int, item: Any) -> FormatError:
    shown = f"{item!r:.60}"
    return FormatError(
        f'{path}: merge {n} is {shown}, not two tokens; a merge is "a b" or ["a", "b"]',
        code="merge_list_shape",
        name=path.name,
        n=n,
        item=shown,
    )


def read_merges(path: Path, raw: list[Any], also: Sequence[str] = ()) -> list[Pair]:
    """The merges of a JSON list of ``"a b"`` strings and/or ``["a", "b"]`` pairs (numbered from 1 in
    errors); ``also``: the vocab's token strings written the same way as the pairs' (an id -> token
    vocab in the same file), read with them."""
    pairs = [m for m in raw if isinstance(m, list)]
    decode = json_token_decoder([s for m in pairs for s in m if isinstance(s, str)] + list(also))
    out: list[Pair] = []
    for n, m in enumerate(raw, start=1):
        if isinstance(m, str):
            parts = m.split(" ")
            if len(parts) != 2 or not all(parts):
                raise _shape_error(path, n, m)
            try:
                out.append((str_to_token(parts[0]), str_to_token(parts[1])))
            except KeyError as e:
                char = e.args[0]
                raise FormatError(
                    f"{path}: merge {n} {m!r} holds {char!r} (U+{ord(char):04X}), which is not a GPT-2 "
                    'byte character; in "a b" merges each token is written in GPT-2\'s byte characters '
                    "('Ġ' for a space): write the tokens that way, or as pairs of strings",
                    code="merge_list_not_byte_level",
                    name=path.name,
                    n=n,
                    text=char,
                    codepoint=f"U+{ord(char):04X}",
                ) from None
            continue
        if not (isinstance(m, list) and len(m) == 2 and all(isinstance(t, str) and t for t in m)):
            raise _shape_error(path, n, m)
        out.append((decode(m[0]), decode(m[1])))
    return out


def _vocab_beside(path: Path) -> tuple[Path | None, list[Path]]:
    """(the vocab.json that goes with a merges JSON file, or None; the names looked for):
    ``X_vocab.json`` / ``X-vocab.json`` for ``X_merges.json`` / ``X-merges.json``, then ``vocab.json``."""
    stem = path.stem
    tried = [
        path.with_name(stem[: -len("merges")] + "vocab.json")
        for sep in ("_", "-")
        if stem.endswith(sep + "merges")
    ]
    tried.append(path.with_name("vocab.json"))
    tried = [t for t in tried if t != path]
    return next((t for t in tried if t.is_file()), None), tried


def load_merge_list(
    path: Path,
    data: dict[str, Any],
    special_tokens: list[str] | None = None,
    pattern: str | None = None,
    text: str | None = None,
) -> TokenizerSpec:
    """A spec from a parsed ``{"merges": [...]}`` file (see the module docstring; ``text``: the
    file's text, where an error in its own vocab is found by line). ``special_tokens`` (None: the
    vocab's tokens no merge makes, or none without a vocab) and ``pattern`` (None: GPT-2's, said in
    a note) are what the file does not store."""
    from core.formats.gpt2 import _check_belong_together, read_vocab_json

    if special_tokens is not None:
        from core.pretokenization.pretokenize import check_special_tokens

        special_tokens = check_special_tokens(special_tokens)
    own: Any = data.get("vocab")
    by_id = _is_id_to_token(own)  # (a train_bpe dump: {"0": "\u0000", …, "256": "th"})
    strings = [v for v in own.values() if isinstance(v, str)] if by_id else []
    merges = read_merges(path, data["merges"], strings)
    pat = "gpt2" if pattern is None else pattern
    notes: list[str] = []
    beside, tried = (None, []) if own is not None else _vocab_beside(path)
    if own is not None or beside is not None:
        where = path if own is not None else beside
        assert where is not None
        if by_id:
            vocab = _id_to_token_vocab(path, own, data["merges"])
            notes.append(f"merges and vocab from {path.name}")
        elif own is not None:
            vocab = read_vocab_json(path, text if text is not None else path.read_text("utf-8"), own)
            notes.append(f"merges and vocab from {path.name}")
        else:
            vocab = read_vocab_json(where)
            notes.append(f"merges from {path.name}, ids from the vocab beside it ({where.name})")
        missing = missing_bytes(vocab.values())
        if missing:
            raise missing_bytes_error(where, missing)
        tokens = set(vocab.values())
        for n, (a, b) in enumerate(merges, start=1):
            for tok in (a, b, a + b):
                if tok not in tokens:
                    raise FormatError(
                        f"{path}: merge {n} ({token_to_str(a)} {token_to_str(b)}) needs the token "
                        f"{token_to_str(tok)!r}, which is not in {where.name}; the merges and the vocab do "
                        "not belong together",
                        code="merge_list_vocab_mismatch",
                        name=path.name,
                        vocab=where.name,
                        n=n,
                        token=token_to_str(tok),
                    )
        given = {s.encode("utf-8", "surrogateescape") for s in special_tokens or ()}
        made = {a + b for a, b in merges}
        unmade = [
            i for i in sorted(vocab) if len(vocab[i]) > 1 and vocab[i] not in made and vocab[i] not in given
        ]
        last_made = max((i for i, t in vocab.items() if t in made), default=-1)
        _check_belong_together(where, path, vocab, last_made, unmade, merges)
        if special_tokens is None:
            special_tokens = [vocab[i].decode("utf-8", "surrogateescape") for i in unmade]
            shown = ", ".join(special_tokens[:3]) + (" …" if len(special_tokens) > 3 else "")
            notes.append(f"special tokens were taken as the tokens no merge makes ({shown or 'none'})")
        spec = TokenizerSpec(vocab, tuple(merges), tuple(special_tokens), pat)
    else:
        built: set[bytes] = set()
        for n, (a, b) in enumerate(merges, start=1):
            for tok in (a, b):
                if len(tok) > 1 and tok not in built:
                    raise FormatError(
                        f"{path}: holds merges but no vocab, and merge {n} ({token_to_str(a)} "
                        f"{token_to_str(b)}) uses {token_to_str(tok)!r}, which is no byte and no earlier "
                        "merge makes, so the ids cannot be derived from the merges; put the vocab.json that "
                        f"goes with it beside it (looked for {', '.join(t.name for t in tried)}), add a "
                        '"vocab" object to the file, or open the whole tokenizer.json',
                        code="merge_list_needs_vocab",
                        name=path.name,
                        n=n,
                        token=token_to_str(tok),
                        tried=", ".join(t.name for t in tried),
                    )
            built.add(a + b)
        spec = TokenizerSpec.from_merges(merges, special_tokens or (), pattern=pat)
        notes.append(
            "the file holds merges but no vocab: ids are derived (0-255 the bytes, then the special "
            "tokens, then one per merge in order); to keep a model's own ids, put its vocab.json beside it"
        )
    if pattern is None:
        notes.append("the file stores no pattern: GPT-2's pattern is assumed")
    return replace(spec, notes=tuple(notes))


def _is_id_to_token(vocab: Any) -> bool:
    """A vocab of id -> token string (``train_bpe``'s dict dumped to JSON), not token -> id."""
    if not isinstance(vocab, dict) or not vocab:
        return False
    key, value = next(iter(vocab.items()))
    return key.isdigit() and isinstance(value, str)


def _id_to_token_vocab(path: Path, vocab: dict[str, Any], raw_merges: list[Any]) -> dict[int, bytes]:
    """An id -> token vocab, its strings read as the merge pairs' are (:func:`json_token_decoder`)."""
    strings = [v for v in vocab.values() if isinstance(v, str)]
    strings += [t for m in raw_merges if isinstance(m, list) for t in m if isinstance(t, str)]
    decode = json_token_decoder(strings)
    out: dict[int, bytes] = {}
    for key, value in vocab.items():
        if not (key.isdigit() and isinstance(value, str) and value):
            shown = f"{key!r}: {value!r}"[:60]
            raise FormatError(
                f'{path}: the "vocab" entry {shown} is not id -> token like its first entry; give every '
                "entry as id -> token, or every entry as token -> id",
                code="merge_list_vocab_entry",
                name=path.name,
                item=shown,
            )
        out[int(key)] = decode(value)
    return out
