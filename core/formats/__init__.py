"""Import and export of tokenizers: GPT-2, HuggingFace, tiktoken and the native ``bpe.json``.

Each format is lossless for every token (bytes that are not valid UTF-8 included) and each file is
written atomically (temp file in the same folder, then ``os.replace``).

==========  ===============================  ==========================================
name        files                            read back with
==========  ===============================  ==========================================
gpt2        vocab.json + merges.txt          :func:`load_gpt2`, ``Tokenizer.from_files``
hf          tokenizer.json                   :func:`load_hf`, ``tokenizers.Tokenizer.from_file``
tiktoken    bpe.tiktoken                     :func:`load_tiktoken`, ``tiktoken.load.load_tiktoken_bpe``
native      bpe.json                         :func:`load_native` (keeps the training record)
==========  ===============================  ==========================================

>>> import tempfile
>>> from core.formats.spec import TokenizerSpec
>>> d = tempfile.mkdtemp()
>>> spec = TokenizerSpec.from_merges([(b"a", b"b")], ["<|endoftext|>"])
>>> sorted(p.name for ps in export_all(d, spec).values() for p in ps)
['bpe.json', 'bpe.tiktoken', 'merges.txt', 'tokenizer.json', 'vocab.json']
>>> load_any(d).merges
((b'a', b'b'),)
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from core.errors import BPEError, FormatError
from core.files import atomic_write, is_npy, packed_kind, read_text, staged_files, staged_writes, unreadable
from core.formats._io import load_json, parse_special_ids
from core.formats.export_record import RECORD_NAME, check_folder, record_text
from core.formats.gpt2 import MERGES_NAME, VOCAB_NAME, load_gpt2, save_gpt2, spec_from_gpt2
from core.formats.hf import HF_NAME, load_hf, save_hf, spec_from_hf
from core.formats.losses import check_lossless, export_losses
from core.formats.merge_list import is_merge_list, load_merge_list
from core.formats.native import FORMAT_ID, NATIVE_NAME, load_native, save_native, spec_from_native
from core.formats.sentencepiece import load_sentencepiece
from core.formats.spec import TokenizerSpec, as_spec
from core.formats.tekken import is_tekken, looks_like_sentencepiece, spec_from_tekken
from core.formats.tiktoken_bpe import TIKTOKEN_NAME, load_tiktoken, save_tiktoken, tiktoken_encoding
from core.pretokenization.patterns import resolve_pattern

FORMATS: tuple[str, ...] = ("gpt2", "hf", "tiktoken", "native")
FILE_NAMES: dict[str, tuple[str, ...]] = {
    "gpt2": (VOCAB_NAME, MERGES_NAME),
    "hf": (HF_NAME,),
    "tiktoken": (TIKTOKEN_NAME,),
    "native": (NATIVE_NAME,),
}

__all__ = [
    "FILE_NAMES",
    "FORMATS",
    "TokenizerSpec",
    "as_spec",
    "atomic_write",
    "check_replaceable",
    "detect_format",
    "export_all",
    "export_losses",
    "load_any",
    "load_gpt2",
    "load_hf",
    "load_native",
    "load_sentencepiece",
    "load_tiktoken",
    "parse_formats",
    "parse_special_ids",
    "save",
    "save_gpt2",
    "save_hf",
    "save_native",
    "save_tiktoken",
    "tiktoken_encoding",
]


def parse_formats(formats: str | Iterable[str]) -> list[str]:
    """``"gpt2,hf"`` or ``["gpt2", "hf"]`` → checked list; ``"all"`` means every format.

    >>> parse_formats("hf, native")
    ['hf', 'native']
    """
    names = [f.strip().lower() for f in (formats.split(",") if isinstance(formats, str) else formats)]
    names = [n for n in names if n]
    if names == ["all"]:
        return list(FORMATS)
    bad = [n for n in names if n not in FORMATS]
    if bad or not names:
        raise FormatError(
            f"unknown format(s) {', '.join(bad) or '(none given)'}; choose from "
            f"{','.join(FORMATS)} (comma-separated) or 'all'"
        )
    return list(dict.fromkeys(names))


def save(source: Any, path: str | os.PathLike, fmt: str, *, lossy: bool = False) -> list[Path]:
    """Write one format; ``path`` is a folder for gpt2, a file or folder for the others.

    A format that cannot hold part of an imported tokenizer's pipeline (:func:`export_losses`) is
    refused with a :class:`FormatError` naming what would be lost, unless ``lossy=True``.
    """
    if fmt not in FORMATS:
        raise FormatError(f"unknown format {fmt!r}; save() writes one of {', '.join(FORMATS)}")
    if not lossy:
        source = as_spec(source)
        check_lossless(source, [fmt])
    if fmt == "gpt2":
        return save_gpt2(source, path)
    if fmt == "hf":
        return [save_hf(source, path)]
    if fmt == "tiktoken":
        return [save_tiktoken(source, path)]
    return [save_native(source, path)]


def check_replaceable(directory: str | os.PathLike, formats: str | Iterable[str]) -> None:
    """Refuse (FormatError, code ``export_replaces``) an export of ``formats`` into ``directory`` that
    would replace files no export of ours wrote there (another tokenizer's ``vocab.json``, a file
    edited since); files of our own earlier exports are replaced without asking."""
    from core.formats.export_record import files_not_ours

    names = [n for fmt in parse_formats(formats) for n in FILE_NAMES[fmt]]
    others = files_not_ours(directory, names)
    if others:
        raise FormatError(
            f"folder {str(directory)!r} already holds {', '.join(others)}, which no export of bpe-explorer "
            "wrote there (another tokenizer's, or changed since): choose another folder, or replace "
            "them on purpose (--force on the command line)",
            code="export_replaces",
            folder=str(directory),
            files=", ".join(others),
        )


def export_all(
    directory: str | os.PathLike,
    source: Any,
    formats: str | Iterable[str] = FORMATS,
    *,
    lossy: bool = False,
    replace_others: bool = False,
) -> dict[str, list[Path]]:
    """Write the chosen formats into ``directory`` (created if needed); returns the files per format.

    Formats that would drop part of an imported pipeline are refused (nothing is written) unless
    ``lossy=True``; :func:`export_losses` says what each would lose. Files there that no export of
    ours wrote (another tokenizer's) are not replaced unless ``replace_others=True``
    (:func:`check_replaceable`).
    """
    names = parse_formats(formats)
    spec = as_spec(source)
    if not lossy:
        check_lossless(spec, names)
    d = Path(directory)
    if d.exists() and not d.is_dir():
        raise FormatError(
            f"{str(d)!r} is a file; export needs a folder", code="export_not_folder", path=str(d)
        )
    if not replace_others:
        check_replaceable(d, names)
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise FormatError(
            f"cannot create folder {str(d)!r}: {e.strerror or e}",
            code="folder_cannot_create",
            path=str(d),
            reason=str(e.strerror or e),
        ) from e
    # bpe.json last, then the record of this export (export_record: which files are the latest export's)
    with staged_writes():  # all files are written before any replaces its old version
        written = {
            name: save(spec, d, name, lossy=True) for name in sorted(names, key=lambda n: n == "native")
        }
        ours = {p for ps in written.values() for p in ps}
        files = [(path.name, tmp) for tmp, path in staged_files() if path in ours]
        atomic_write(d / RECORD_NAME, record_text(files, d))
    return written


#: the encoding names ``eval --tokenizer`` reads (:data:`core.evaluation.known_encodings.KNOWN`) and
#: the rank file of each: other commands name the file to give instead
ENCODING_NAMES = {
    "gpt2": "r50k_base",
    "r50k_base": "r50k_base",
    "p50k_base": "p50k_base",
    "cl100k_base": "cl100k_base",
    "o200k_base": "o200k_base",
}


def detect_format(path: str | os.PathLike) -> str:
    """The format of a file or folder: ``"gpt2"``, ``"hf"``, ``"tiktoken"``, ``"native"``, ``"tekken"``,
    ``"sentencepiece"`` (a ``.model`` protobuf) or ``"json"`` (a JSON file whose kind is decided by its
    structure once parsed).

    Formats are told apart by structure, never by a key that could also be a token (GPT-2's
    ``vocab.json`` holds the token ``"model"``).
    """
    p = Path(path)
    if p.is_dir():
        present = [
            (fmt, names)
            for fmt, names in (
                ("native", (NATIVE_NAME,)),
                ("hf", (HF_NAME,)),
                ("gpt2", (VOCAB_NAME, MERGES_NAME)),
                ("tiktoken", (TIKTOKEN_NAME,)),
            )
            if all((p / n).is_file() for n in names)
        ]
        if present:
            check_folder(p, present)  # the first format must not be older than the other files there
            return present[0][0]
        tekken = sorted(p.glob("tekken*.json"))
        if len(tekken) == 1:
            return "tekken"
        if (p / "tokenizer.model").is_file():
            return "sentencepiece"
        raise FormatError(
            f"folder {str(p)!r} holds no tokenizer files; expected one of {NATIVE_NAME}, "
            f"{HF_NAME}, {VOCAB_NAME} + {MERGES_NAME}, {TIKTOKEN_NAME}, a tekken*.json or a "
            "SentencePiece tokenizer.model",
            code="folder_no_tokenizer",
            path=str(p),
        )
    if not p.exists():
        if str(path) in ENCODING_NAMES:  # (eval takes them: the other commands said "check the path")
            raise FormatError(
                f"{str(p)!r} does not exist; the name of a known encoding is read only by "
                f"'bpe-explorer eval --tokenizer'; here give its file, e.g. path/to/"
                f"{ENCODING_NAMES[str(path)]}.tiktoken (tiktoken's copy, or "
                "https://openaipublic.blob.core.windows.net/encodings/)",
                code="tokenizer_encoding_name",
                path=str(p),
                file=f"{ENCODING_NAMES[str(path)]}.tiktoken",
            )
        raise FormatError(f"{str(p)!r} does not exist; check the path", code="file_missing", path=str(p))
    if not p.is_file():
        raise FormatError(
            f"{str(p)!r} is not a regular file (a FIFO or device?); give a tokenizer file",
            code="tokenizer_not_regular",
            path=str(p),
        )
    try:
        with p.open("rb") as f:
            head = f.read(4096)
    except OSError as e:
        raise unreadable(p, e) from e
    if not head:
        raise FormatError(
            f"{p}: the file is empty; it is not a tokenizer file", code="tokenizer_empty", name=p.name
        )
    packed = packed_kind(head)
    if packed is not None:
        kind, command = packed
        raise FormatError(
            f"{p.name} is {kind}-compressed; decompress it first ({command} {p.name}) and open the "
            "decompressed tokenizer file",
            code="tokenizer_compressed",
            name=p.name,
            kind=kind,
            command=command,
        )
    if is_npy(head):
        raise FormatError(
            f"{p.name} is a NumPy array (.npy, e.g. token ids written by encode), not a tokenizer file",
            code="tokenizer_npy",
            name=p.name,
        )
    if looks_like_sentencepiece(head):
        return "sentencepiece"
    if p.suffix == ".txt":
        if not looks_like_merges(head):
            raise plain_text_error(p)
        return "gpt2"
    if p.suffix == ".json" or head.lstrip()[:1] in (b"{", b"["):
        # our bpe.json starts with its format id (a string: no GPT-2 vocab has a string value)
        if re.match(rb'\s*\{\s*"format"\s*:\s*"' + re.escape(FORMAT_ID.encode()) + b'"', head):
            return "native"
        return "json"  # decided by structure once parsed
    if not _TIKTOKEN_LINE.match(head.split(b"\n", 1)[0]) and not _tiktoken_but_line_one(head):
        # (a .model that is no SentencePiece protobuf, a binary file, …: "line 1: not valid base64"
        # said what a tiktoken file is not, as if it were one)
        raise FormatError(
            f"{p.name} is not a tokenizer file BPE Explorer reads: not a SentencePiece model, not JSON, "
            "and not a tiktoken file (lines of 'base64-token rank'); give vocab.json + merges.txt, "
            "tokenizer.json, a .tiktoken file, a SentencePiece tokenizer.model or bpe.json",
            code="tokenizer_unknown",
            name=p.name,
        )
    return "tiktoken"


_TIKTOKEN_LINE = re.compile(rb"[A-Za-z0-9+/]+={0,2} [0-9]+\r?$")


def _tiktoken_but_line_one(head: bytes) -> bool:
    """A tiktoken file whose first line is damaged (``A!== 0``) and the next ones are whole: read
    as tiktoken, so that the error names the line ("line 1: … is not valid base64"), not "not a
    tokenizer file"."""
    lines = head.split(b"\n")[1:-1][:8]  # (the last may be cut short)
    return len(lines) >= 3 and all(_TIKTOKEN_LINE.match(line) for line in lines)


def plain_text_error(p: Path) -> FormatError:
    """The error for a text file given where a tokenizer or merges file is expected."""
    return FormatError(
        f"{p.name} is plain text, not a tokenizer file (a GPT-2 merges.txt holds two tokens a "
        "line); to train on it, open it as a corpus; to open a tokenizer, give its vocab.json, "
        "merges.txt, tokenizer.json, .tiktoken or bpe.json",
        code="tokenizer_plain_text",
        name=p.name,
    )


def looks_like_merges(head: bytes) -> bool:
    """Whether the start of a .txt file reads as a GPT-2 merges file.

    Each line holds two tokens separated by one space. Two-word lines of text (``hello world``) hold
    that shape too, so a file without the ``#version`` line of a saved merges file must also be
    built the way a merge list is: each merge joins two tokens that are single characters (the first
    merges of any list) or what an earlier merge of the list made (``Ġ t``, ``h e``, ``Ġt he``).

    >>> looks_like_merges(b"#version: 0.2\\n\\xc4\\xa0 t\\nh e\\n"), looks_like_merges(b"The quick brown fox.\\n")
    (True, False)
    >>> looks_like_merges(b"t h\\nth e\\n"), looks_like_merges(b"hello world\\nfoo bar\\n")
    (True, False)
    """
    lines = head.split(b"\n")
    if len(head) >= 4096:
        lines = lines[:-1]  # (the last line may be cut)
    lines = [ln.rstrip(b"\r") for ln in lines if ln.strip()]
    declared = bool(lines) and lines[0].startswith(b"#version")
    if lines and lines[0].startswith(b"#"):
        lines = lines[1:]
    if not lines:
        return True  # (an empty merge list: no merges, a valid file)
    pairs = [parts for parts in (ln.split(b" ") for ln in lines) if len(parts) == 2 and b"" not in parts]
    if len(pairs) < 0.9 * len(lines):
        return False
    if declared:
        return True
    return _builds_on_itself(pairs)


def _builds_on_itself(pairs: list[list[bytes]]) -> bool:
    """Whether (nearly) every merge of ``pairs`` joins single characters or tokens made by earlier
    merges: true of every merge list from its first line on; a text's words are not made that way."""
    made: set[bytes] = set()
    built = 0
    for a, b in pairs:
        if all(part in made or len(part.decode("utf-8", "surrogateescape")) == 1 for part in (a, b)):
            built += 1
        made.add(a + b)
    return built >= 0.9 * len(pairs)


def _partner_names(path: Path, own: str, partner: str, default: str) -> list[Path]:
    """Where the other file of a GPT-2 pair may be, in order: ``X_<partner>`` / ``X-<partner>`` for
    ``X_<own>`` / ``X-<own>``, then ``default`` beside ``path``."""
    stem = path.stem
    tried = [path.with_name(stem[: -len(own)] + partner) for sep in ("_", "-") if stem.endswith(sep + own)]
    tried.append(path.with_name(default))
    return tried


def _opens_an_object(path: Path) -> bool:
    """Whether the JSON file at ``path`` starts with ``{`` (a vocab.json does; a list does not)."""
    try:
        with open(path, "rb") as f:
            head = f.read(64).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError:
        return False
    return head.startswith(b"{")


def find_vocab_for(merges: Path) -> Path:
    """The vocab.json that belongs to a merges file: ``vocab.json`` beside it, ``X_vocab.json`` /
    ``X-vocab.json`` for ``X_merges.txt`` / ``X-merges.txt`` (CS336's ``gpt2_vocab.json``), or the
    single ``*.json`` beside it."""
    tried = _partner_names(merges, "merges", "vocab.json", VOCAB_NAME)
    found = next((c for c in tried if c.is_file()), None)
    if found is not None:
        return found
    # (a JSON list beside it, such as a merge list saved as JSON, is no vocab)
    jsons = [j for j in sorted(merges.parent.glob("*.json")) if _opens_an_object(j)]
    if len(jsons) == 1:
        return jsons[0]
    raise FormatError(
        f"{merges}: cannot find the vocab that goes with it; looked for "
        f"{', '.join(c.name for c in tried)} or a single *.json beside it"
        f"{' (found ' + str(len(jsons)) + ')' if jsons else ''}; give both files",
        code="gpt2_vocab_missing",
        name=merges.name,
        tried=", ".join(c.name for c in tried),
    )


def find_merges_for(vocab: Path) -> Path:
    """The merges.txt that belongs to a vocab.json (the mirror of :func:`find_vocab_for`)."""
    tried = _partner_names(vocab, "vocab", "merges.txt", MERGES_NAME)
    found = next((c for c in tried if c.is_file()), None)
    if found is not None:
        return found
    txts = sorted(vocab.parent.glob("*merges*.txt")) or sorted(vocab.parent.glob("*.txt"))
    if len(txts) == 1:
        return txts[0]
    raise FormatError(
        f"{vocab}: looks like a GPT-2 vocab.json but its merges file is missing; looked for "
        f"{', '.join(c.name for c in tried)} or a single *merges*.txt beside it; give both files",
        code="gpt2_merges_missing",
        name=vocab.name,
        tried=", ".join(c.name for c in tried),
    )


def load_any(
    path: str | os.PathLike,
    *,
    special_tokens: list[str] | dict[str, int] | None = None,
    pattern: str | None = None,
    merges: str | os.PathLike | None = None,
) -> TokenizerSpec:
    """Load a tokenizer from a file or folder, detecting the format by content.

    ``special_tokens`` (a list, or a dict of token → id for tiktoken files) and ``pattern`` are used
    by the formats that do not store them (GPT-2 files, tiktoken files; a known tiktoken file, e.g.
    cl100k_base, brings its own). ``merges`` names the merges file of a GPT-2 vocab.json (found
    beside it otherwise). The spec's ``notes`` say what was assumed or recognised.
    """
    from core.memory import paused_gc

    with paused_gc():  # hundreds of thousands of acyclic objects: collector passes would find nothing
        return _load_any(Path(path), special_tokens, pattern, merges)


def _load_any(
    p: Path,
    special_tokens: list[str] | dict[str, int] | None,
    pattern: str | None,
    merges: str | os.PathLike | None,
) -> TokenizerSpec:
    fmt = detect_format(p)
    if p.is_dir():
        if fmt == "tekken":
            p = sorted(p.glob("tekken*.json"))[0]
        elif fmt == "sentencepiece":
            p = p / "tokenizer.model"
        else:
            p = p / FILE_NAMES[fmt][0]
    if fmt == "sentencepiece":
        return _keeps_own(load_sentencepiece(p), p, special_tokens, pattern)
    if fmt == "native":
        return _keeps_own(load_native(p), p, special_tokens, pattern)
    if fmt == "hf":
        return _keeps_own(load_hf(p), p, special_tokens, pattern)
    if fmt == "tiktoken":
        if pattern is None and special_tokens is None:  # an export's bpe.json beside it has them
            from core.formats.companion import load_with_companion

            spec = load_with_companion(p)
            if spec is not None:
                return spec
        return load_tiktoken(p, pattern=pattern, special_tokens=special_tokens)
    specials = list(special_tokens) if isinstance(special_tokens, dict) else special_tokens
    pat = "gpt2" if pattern is None else pattern
    if fmt == "gpt2":
        if p.suffix == ".txt":
            return _gpt2(find_vocab_for(p), p, specials, pat, pattern)
        return _gpt2(p, Path(merges) if merges else find_merges_for(p), specials, pat, pattern)
    text = read_text(p, "tokenizer")
    data = load_json(p, text)
    if isinstance(data, dict) and data.get("format") == FORMAT_ID:
        return _keeps_own(spec_from_native(p, text, data), p, special_tokens, pattern)
    if isinstance(data, dict) and isinstance(data.get("model"), dict):
        return _keeps_own(spec_from_hf(p, text, data), p, special_tokens, pattern)
    if is_tekken(data):
        return _keeps_own(spec_from_tekken(p, data), p, special_tokens, pattern)
    if is_merge_list(data):  # {"merges": [...]}: a student's dump, a tokenizer.json's model cut out
        return load_merge_list(p, data, specials, pattern, text)
    if isinstance(data, dict) and all(isinstance(v, int) for v in list(data.values())[:1000]):
        return _gpt2(p, Path(merges) if merges else find_merges_for(p), specials, pat, pattern, (text, data))
    if isinstance(data, dict) and not _HF_SETTINGS.isdisjoint(data):
        raise _settings_error(p)
    if isinstance(data, dict) and data and all(k.isdigit() for k in list(data)[:1000]):
        from core.formats.gpt2 import read_vocab_json

        read_vocab_json(p, text, data)  # a vocab of id -> token (json.dump of train_bpe's): it says so
    raise FormatError(
        f"{p}: a JSON file of no known tokenizer kind (expected a HuggingFace tokenizer.json with a "
        "'model' object, a GPT-2 vocab.json of token -> id, a Mistral tekken file or our bpe.json)",
        code="tokenizer_unknown",
        name=p.name,
    )


#: keys of a HuggingFace model's settings files (tokenizer_config.json, special_tokens_map.json,
#: config.json), which sit beside its tokenizer.json and are picked for it by mistake
_HF_SETTINGS = frozenset(
    {"tokenizer_class", "added_tokens_decoder", "chat_template", "bos_token", "eos_token", "architectures"}
)


def _settings_error(p: Path) -> FormatError:
    beside = p.parent / "tokenizer.json"
    if beside.is_file():
        return FormatError(
            f"{p}: this is a HuggingFace settings file ({p.name}: the model's or tokenizer's "
            f"configuration), not the tokenizer itself; open the tokenizer.json beside it ({beside})",
            code="tokenizer_settings_beside",
            name=p.name,
            tokenizer=str(beside),
        )
    return FormatError(
        f"{p}: this is a HuggingFace settings file ({p.name}: the model's or tokenizer's "
        "configuration), not the tokenizer itself; open the model's tokenizer.json (or its vocab.json "
        "and merges.txt, or tokenizer.model) instead",
        code="tokenizer_settings",
        name=p.name,
    )


def _keeps_own(
    spec: TokenizerSpec, path: Path, special_tokens: list[str] | dict[str, int] | None, pattern: str | None
) -> TokenizerSpec:
    """A file that stores its pattern and special tokens: what the caller gives must agree with it
    (it is not applied; saying so beats ignoring it silently)."""
    if special_tokens is not None:
        given = dict(special_tokens) if isinstance(special_tokens, dict) else None
        if set(special_tokens) != set(spec.special_tokens) or (
            given is not None and given != {s: spec.special_ids[s] for s in given}
        ):
            raise FormatError(
                f"{path} stores its own special tokens ({', '.join(spec.special_tokens[:4]) or 'none'}"
                f"{' …' if len(spec.special_tokens) > 4 else ''}); the ones given differ and are "
                "not applied to this format: leave them out (they are for GPT-2 and tiktoken files)"
            )
    if pattern is not None and _regex_of(pattern) != _regex_of(spec.pattern):
        raise FormatError(
            f"{path} stores its own pattern; the pattern given differs and is not applied to "
            "this format: leave it out (it is for GPT-2 and tiktoken files)"
        )
    return spec


def _regex_of(pattern: Any) -> Any:
    try:
        return resolve_pattern(pattern)
    except BPEError:
        return pattern


def _gpt2(
    vocab: Path,
    merges: Path,
    specials: list[str] | None,
    pat: str,
    given: str | None,
    parsed: tuple[str, Any] | None = None,
) -> TokenizerSpec:
    if specials is None and given is None:  # an export's bpe.json (or tokenizer.json) beside them has both
        beside = _gpt2_with_companion(vocab, merges, parsed)
        if beside is not None:
            return beside
    if parsed is None:  # the vocab.json is not read yet
        spec = load_gpt2(vocab, merges, special_tokens=specials, pattern=pat)
    else:
        spec = spec_from_gpt2(vocab, merges, *parsed, specials, pat)
    notes = [f"GPT-2 files: vocab {vocab.name} + merges {merges.name}"]
    if given is None:
        notes.append("GPT-2 files store no pattern: GPT-2's pattern is assumed")
    if specials is None:
        notes.append(
            "special tokens were taken as the tokens no merge makes"
            + (
                f" ({', '.join(spec.special_tokens[:3])}{' …' if len(spec.special_tokens) > 3 else ''})"
                if spec.special_tokens
                else " (none)"
            )
        )
    return replace(spec, notes=tuple(notes))


def _gpt2_with_companion(vocab: Path, merges: Path, parsed: tuple[str, Any] | None) -> TokenizerSpec | None:
    """GPT-2 files read with the special tokens, pattern and tie rule of the ``bpe.json`` (or
    ``tokenizer.json``) an export wrote beside them, when it holds the same vocab and merges; else None."""
    from core.formats.companion import gpt2_companion, same_tokenizer

    found = gpt2_companion(vocab)
    if found is None:
        return None
    beside, other = found
    specials = list(other.special_tokens)
    try:
        if parsed is None:
            spec = load_gpt2(vocab, merges, special_tokens=specials, pattern=other.pattern)
        else:
            spec = spec_from_gpt2(vocab, merges, *parsed, specials, other.pattern)
    except BPEError:
        return None  # (read on their own, they say what is wrong)
    if not same_tokenizer(spec, other):
        return None
    notes = (
        f"GPT-2 files: vocab {vocab.name} + merges {merges.name}",
        f"pattern and special tokens read from {beside} beside it (the same tokens at the same ids)",
    )
    return replace(spec, tie_break=other.tie_break, notes=notes)
