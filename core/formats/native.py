"""Native ``bpe.json``: everything needed to reopen a run in the explorer, losslessly.

Layout (format version 1), one vocab entry or merge per line::

    {
     "format": "bpe-explorer",
     "version": 1,
     "token_encoding": "base64",
     "pattern": "gpt2",                 # "gpt2" / "gpt4" / "none" / a custom regex
     "pattern_regex": "'(?:[sdmt]|...", # the regex itself (null for "none"), for other tools
     "tie_break": "lexicographic",      # or "first", or null when unknown
     "special_tokens": [
      {"id": 256, "content": "<|endoftext|>"}
     ],
     "vocab": [
      [0, "AA=="],                      # [id, base64 of the token's bytes]
      ...
     ],
     "merges": [
      [97, 98],                         # [id of left part, id of right part], in rank order
      ...
     ],
     "training": {"corpus": "tiny.txt", "corpus_bytes": 1234, "pretokens": ..., "distinct_pretokens": ...,
                  "invalid_bytes": 0, "has_bom": false, "special_occurrences": 3,
                  "counts": [...], "n_ties": [...], "words_changed": [...], "occurrences_changed": [...]}
    }

Tokens are base64 so that every byte string, valid UTF-8 or not, is kept exactly. ``training`` is
null for a tokenizer that was not trained here; its per-merge lists have one entry per merge.
Version 2 adds ``"pipeline"``: the description of an imported HF ``tokenizer.json``'s pipeline
(normalizer, pre-tokenizer, added tokens, post-processor ids, ``ignore_merges``, as
:func:`core.pipeline.hf.pipeline_config` makes it), so the file gives the same ids as the original;
a file without it is written as version 1.

>>> import tempfile, pathlib
>>> from core.formats.spec import TokenizerSpec
>>> p = pathlib.Path(tempfile.mkdtemp()) / "bpe.json"
>>> spec = TokenizerSpec.from_merges([(b"\\xff", b"a")], ["<s>"], tie_break="first")
>>> _ = save_native(spec, p)
>>> load_native(p) == spec
True
"""

from __future__ import annotations

import base64
import binascii
import os
from pathlib import Path
from typing import Any

from core.errors import FormatError, PatternError
from core.files import atomic_write, read_text
from core.formats._io import (
    MAX_ID,
    check_token_text,
    dump_lines,
    lines_with,
    load_json,
    missing_bytes,
    missing_bytes_error,
)
from core.formats.spec import PER_MERGE_KEYS, TokenizerSpec, as_spec
from core.pretokenization.patterns import resolve_pattern

NATIVE_NAME = "bpe.json"
FORMAT_ID = "bpe-explorer"
VERSION = 2  # the newest version read and written (1 without a pipeline)


def native_json(spec: TokenizerSpec) -> str:
    """The text of a ``bpe.json`` for ``spec``."""
    lowest: dict[bytes, int] = {}
    for i in sorted(spec.vocab, reverse=True):
        lowest[spec.vocab[i]] = i
    merges = []
    for r, (a, b) in enumerate(spec.merges):
        if a not in lowest or b not in lowest:
            raise FormatError(
                f"merge {r} ({a!r}, {b!r}) uses a token that is not in the vocab; fix the "
                "tokenizer before saving",
                code="native_merge_unknown_token",
                rank=r,
                shown=f"({a!r}, {b!r})",
            )
        merges.append([lowest[a], lowest[b]])
    # version 2 adds "pipeline" (an imported tokenizer.json's normalizer, pre-tokenizer, post-processor …);
    # files without one stay version 1, which older versions of the program read
    head = {
        "format": FORMAT_ID,
        "version": 2 if spec.pipeline else 1,
        "token_encoding": "base64",
        "pattern": spec.pattern if spec.pattern is not None else "none",
        "pattern_regex": spec.pattern_regex,
        "tie_break": spec.tie_break,
    }
    lists = {
        "special_tokens": [{"id": i, "content": s} for s, i in spec.special_ids.items()],
        "vocab": ([i, base64.b64encode(spec.vocab[i]).decode("ascii")] for i in sorted(spec.vocab)),
        "merges": merges,
    }
    tail: dict[str, Any] = {"training": spec.training}
    if spec.pipeline:
        tail["pipeline"] = spec.pipeline
    return dump_lines(head, lists, tail)


def save_native(source: Any, path: str | os.PathLike) -> Path:
    """Write ``bpe.json`` (``path`` may be a folder) atomically."""
    path = Path(path)
    if path.is_dir():
        path = path / NATIVE_NAME
    return atomic_write(path, native_json(as_spec(source)))


def load_native(path: str | os.PathLike) -> TokenizerSpec:
    """Read a native ``bpe.json``; malformed files raise :class:`FormatError` naming the line."""
    path = Path(path)
    if path.is_dir():
        path = path / NATIVE_NAME
    text = read_text(path, "bpe.json")
    return spec_from_native(path, text, load_json(path, text))


class _Lines:
    """Error locations: entry ``n`` of list ``key`` is on the line after ``"key": [`` plus n."""

    def __init__(self, path: Path, text: str) -> None:
        self.path, self.text = path, text

    def at(self, key: str, n: int) -> str:
        first = lines_with(self.text, f'"{key}": [')
        return f"{self.path}: line {first[0] + 1 + n}: " if first else f"{self.path}: {key} entry {n}: "

    def key(self, key: str) -> str:
        first = lines_with(self.text, f'"{key}":')
        return f"{self.path}: line {first[0]}: " if first else f"{self.path}: "

    def params_at(self, key: str, n: int) -> dict[str, Any]:
        """Where :meth:`at` is, for an error's params: the file and its line, or the list and index."""
        first = lines_with(self.text, f'"{key}": [')
        where = {"line": first[0] + 1 + n} if first else {"list_name": key, "index": n}
        return {"file": str(self.path), **where}

    def params_key(self, key: str) -> dict[str, Any]:
        """Where :meth:`key` is, for an error's params: the file and (when found) its line."""
        first = lines_with(self.text, f'"{key}":')
        return {"file": str(self.path), "line": first[0] if first else 0}


def spec_from_native(path: Path, text: str, data: Any) -> TokenizerSpec:
    """Build a spec from a parsed ``bpe.json``."""
    loc = _Lines(path, text)
    if not isinstance(data, dict) or data.get("format") != FORMAT_ID:
        raise FormatError(
            f'{path}: not a BPE Explorer file ("format" is not {FORMAT_ID!r})',
            code="native_not_ours",
            file=str(path),
        )
    version = data.get("version")
    if not isinstance(version, int) or version < 1:
        raise FormatError(
            f"{loc.key('version')}version {version!r} is not a positive integer",
            code="native_version_invalid",
            shown=repr(version)[:40],
            **loc.params_key("version"),
        )
    if version > VERSION:
        raise FormatError(
            f"{loc.key('version')}format version {version} is newer than this program "
            f"reads ({VERSION}); update BPE Explorer",
            code="native_newer",
            version=version,
            supported=VERSION,
            **loc.params_key("version"),
        )
    if data.get("token_encoding", "base64") != "base64":
        raise FormatError(
            f"{loc.key('token_encoding')}token_encoding must be 'base64'",
            code="native_token_encoding",
            **loc.params_key("token_encoding"),
        )
    pattern = data.get("pattern", "gpt2")
    if pattern is not None and not isinstance(pattern, str):
        raise FormatError(
            f"{loc.key('pattern')}\"pattern\" must be a string ('gpt2', 'gpt4', 'none' or a regex)",
            code="native_pattern_type",
            **loc.params_key("pattern"),
        )
    try:
        resolve_pattern(pattern)
    except PatternError as e:
        raise FormatError(
            f"{loc.key('pattern')}{e}",
            code="native_pattern_invalid",
            detail=str(e),
            **loc.params_key("pattern"),
        ) from e
    tie_break = data.get("tie_break")
    if tie_break not in (None, "lexicographic", "first"):
        raise FormatError(
            f"{loc.key('tie_break')}tie_break {tie_break!r} must be 'lexicographic', 'first' or null",
            code="native_tie_break",
            shown=repr(tie_break)[:40],
            **loc.params_key("tie_break"),
        )
    vocab = _vocab(loc, data.get("vocab"))
    pipeline = data.get("pipeline")
    char_level = isinstance(pipeline, dict) and pipeline.get("charbpe") is not None
    missing = missing_bytes(vocab.values())
    if missing and not char_level:  # (a SentencePiece model without byte fallback has no byte pieces)
        raise missing_bytes_error(path, missing)
    specials = _specials(loc, data.get("special_tokens") or [], vocab)
    merges = _merges(loc, data.get("merges") or [], vocab)
    training = data.get("training")
    if training is not None:
        _check_training(loc, training, len(merges))
    if pipeline is not None:
        _check_pipeline(loc, pipeline)
    return TokenizerSpec(
        vocab, tuple(merges), tuple(specials), pattern, tie_break, training, pipeline=pipeline
    )


def _check_pipeline(loc: _Lines, pipeline: Any) -> None:
    from core.pipeline.hf import Bad, build_pipeline

    if not isinstance(pipeline, dict):
        raise FormatError(
            f'{loc.key("pipeline")}"pipeline" must be an object (an imported tokenizer.json\'s '
            "normalizer, pre-tokenizer and post-processor) or absent",
            code="native_pipeline_type",
            **loc.params_key("pipeline"),
        )
    try:
        build_pipeline(pipeline)
    except (Bad, TypeError, ValueError, AttributeError, KeyError, IndexError) as e:
        own = (
            e.params if isinstance(e, Bad) and e.code else {}
        )  # (the part at fault, said as for tokenizer.json)
        raise FormatError(
            f"{loc.key('pipeline')}the pipeline cannot be used ({type(e).__name__}: {e}); the file "
            "was edited by hand or is damaged",
            code=e.code if isinstance(e, Bad) and e.code else "native_pipeline_invalid",
            **{**loc.params_key("pipeline"), "detail": f"{type(e).__name__}: {e}", **own},
        ) from None


def _vocab(loc: _Lines, raw: Any) -> dict[int, bytes]:
    if not isinstance(raw, list):
        raise FormatError(
            f'{loc.key("vocab")}"vocab" must be a list of [id, base64] entries',
            code="native_list_type",
            field="vocab",
            **loc.params_key("vocab"),
        )
    vocab: dict[int, bytes] = {}
    for n, e in enumerate(raw):
        if not (
            isinstance(e, list)
            and len(e) == 2
            and isinstance(e[0], int)
            and not isinstance(e[0], bool)
            and 0 <= e[0] < MAX_ID
            and isinstance(e[1], str)
        ):
            raise FormatError(
                f"{loc.at('vocab', n)}{e!r} is not an [id, base64] entry (id from 0 to 2^31-1)",
                code="native_vocab_entry",
                shown=repr(e)[:60],
                **loc.params_at("vocab", n),
            )
        try:
            token = base64.b64decode(e[1], validate=True)
        except (binascii.Error, ValueError):
            raise FormatError(
                f"{loc.at('vocab', n)}{e[1]!r} is not valid base64",
                code="native_base64",
                shown=repr(e[1])[:40],
                **loc.params_at("vocab", n),
            ) from None
        if not token:
            raise FormatError(
                f"{loc.at('vocab', n)}token {e[0]} is empty; tokens need at least one byte",
                code="native_token_empty",
                id=e[0],
                **loc.params_at("vocab", n),
            )
        if e[0] in vocab:
            raise FormatError(
                f"{loc.at('vocab', n)}id {e[0]} is listed twice; each id must be listed once",
                code="native_id_repeated",
                id=e[0],
                **loc.params_at("vocab", n),
            )
        vocab[e[0]] = token
    return vocab


def _specials(loc: _Lines, raw: Any, vocab: dict[int, bytes]) -> list[str]:
    if not isinstance(raw, list):
        raise FormatError(
            f'{loc.key("special_tokens")}"special_tokens" must be a list',
            code="native_list_type",
            field="special_tokens",
            **loc.params_key("special_tokens"),
        )
    out = []
    for n, e in enumerate(raw):
        if not (isinstance(e, dict) and isinstance(e.get("content"), str) and isinstance(e.get("id"), int)):
            raise FormatError(
                f'{loc.at("special_tokens", n)}{e!r} is not {{"id": int, "content": str}}',
                code="native_special_entry",
                shown=repr(e)[:60],
                **loc.params_at("special_tokens", n),
            )
        check_token_text(loc.at("special_tokens", n), e["content"], **loc.params_at("special_tokens", n))
        if vocab.get(e["id"]) != e["content"].encode("utf-8", "surrogateescape"):
            raise FormatError(
                f"{loc.at('special_tokens', n)}special token {e['content']!r} has id {e['id']}, "
                f"but the vocab gives that id to {vocab.get(e['id'])!r}",
                code="native_special_id",
                token=e["content"],
                id=e["id"],
                shown=repr(vocab.get(e["id"])),
                **loc.params_at("special_tokens", n),
            )
        if e["content"] in out:
            raise FormatError(
                f"{loc.at('special_tokens', n)}special token {e['content']!r} is listed twice",
                code="native_special_repeated",
                token=e["content"],
                **loc.params_at("special_tokens", n),
            )
        out.append(e["content"])
    return out


def _merges(loc: _Lines, raw: Any, vocab: dict[int, bytes]) -> list[tuple[bytes, bytes]]:
    if not isinstance(raw, list):
        raise FormatError(
            f'{loc.key("merges")}"merges" must be a list of [id, id] pairs',
            code="native_list_type",
            field="merges",
            **loc.params_key("merges"),
        )
    tokens = set(vocab.values())
    out = []
    for n, e in enumerate(raw):
        if not (isinstance(e, list) and len(e) == 2 and all(isinstance(x, int) for x in e)):
            raise FormatError(
                f"{loc.at('merges', n)}{e!r} is not an [id, id] pair",
                code="native_merge_entry",
                shown=repr(e)[:60],
                **loc.params_at("merges", n),
            )
        for x in e:
            if x not in vocab:
                raise FormatError(
                    f"{loc.at('merges', n)}merge {n} uses id {x}, which is not in the vocab",
                    code="native_merge_id",
                    n=n,
                    id=x,
                    **loc.params_at("merges", n),
                )
        a, b = vocab[e[0]], vocab[e[1]]
        if a + b not in tokens:
            raise FormatError(
                f"{loc.at('merges', n)}merge {n} makes {a + b!r}, which is not in the vocab",
                code="native_merge_makes",
                n=n,
                shown=repr(a + b),
                **loc.params_at("merges", n),
            )
        out.append((a, b))
    return out


def _check_training(loc: _Lines, training: Any, n_merges: int) -> None:
    if not isinstance(training, dict):
        raise FormatError(
            f'{loc.key("training")}"training" must be an object or null',
            code="native_training_type",
            **loc.params_key("training"),
        )
    for k in PER_MERGE_KEYS:
        v = training.get(k)
        if v is None:
            continue
        if not isinstance(v, list) or not all(isinstance(x, int) for x in v):
            raise FormatError(
                f"{loc.key('training')}training.{k} must be a list of integers",
                code="native_training_list",
                field=f"training.{k}",
                **loc.params_key("training"),
            )
        if len(v) != n_merges:
            raise FormatError(
                f"{loc.key('training')}training.{k} has {len(v)} entries for {n_merges} merges; "
                "the record does not belong to these merges",
                code="native_training_length",
                field=f"training.{k}",
                count=len(v),
                n_merges=n_merges,
                **loc.params_key("training"),
            )
