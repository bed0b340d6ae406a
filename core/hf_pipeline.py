"""The HuggingFace ``tokenizers`` pipeline around a byte-level BPE model, rebuilt in plain Python.

A ``tokenizer.json`` says more than the vocab and merges: how added tokens are found (with their
``lstrip``/``rstrip``/``single_word``/``normalized`` flags), how the text is normalized (NFC …),
how it is split (several ``Split`` regexes, ``Digits``, ``ByteLevel`` …), whether a pre-token that
is a whole vocab entry skips the merges (``ignore_merges``), and which tokens the post-processor adds
(``<s>``, ``[gMASK]<sop>`` …). :class:`Pipeline` keeps those parts of the file as checked data and
:class:`HFEncoder` applies them in HF's order, so that ids equal ``tokenizers``' ids:

1. added tokens that are not ``normalized`` are found in the raw text;
2. the pieces between them are normalized, and ``normalized`` added tokens are found in them;
3. the remaining pieces are pre-tokenized (no text is ever dropped unless a step says ``Removed``);
4. each pre-token is encoded by the BPE model;
5. with ``add_special_tokens``, the post-processor adds its tokens around the ids.

Everything a file may contain that would change ids and that is not implemented here is refused with
a :class:`core.errors.FormatError` naming it, at load time (never silently different ids).

>>> p = Pipeline.from_json({"type": "NFC"}, {"type": "ByteLevel", "add_prefix_space": True,
...                         "use_regex": True}, None, (), ignore_merges=False)
>>> p.pre_tokenize("Hi there")
[' Hi', ' there']
"""
from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import regex

from .errors import FormatError
from .pretokenize import GPT2_PATTERN
from .spec import BYTE_TO_CHAR, CHAR_TO_BYTE

_WS = regex.compile(r"\s+")  # Rust's char::is_whitespace is Unicode White_Space, as \s here
_PUNCT = r"[\p{P}!-/:-@\[-`{-~]"  # Rust: is_ascii_punctuation() || Unicode punctuation
_WORD_CHAR = regex.compile(r"[\p{Alphabetic}\p{Nd}\p{Nl}\p{No}_]")


def _word_char(c: str) -> bool:
    return bool(_WORD_CHAR.match(c))


# ---------------------------------------------------------------------------------------- normalizers
def _regex_of(pattern: Any, where: str) -> regex.Pattern[str]:
    """A compiled regex from HF's ``{"String": s}`` or ``{"Regex": r}``."""
    if isinstance(pattern, dict) and isinstance(pattern.get("String"), str):
        return regex.compile(regex.escape(pattern["String"]))
    if isinstance(pattern, dict) and isinstance(pattern.get("Regex"), str):
        try:
            return regex.compile(pattern["Regex"])
        except regex.error as e:
            raise FormatError(f"{where}: the regex {pattern['Regex']!r} does not compile here ({e})") from None
    raise FormatError(f"{where}: pattern {pattern!r} is neither {{\"String\": …}} nor {{\"Regex\": …}}")


def _normalizer(cfg: Any, where: str) -> Callable[[str], str] | None:
    """A function for a ``normalizer`` entry (None when it does nothing)."""
    if cfg is None:
        return None
    if not isinstance(cfg, dict):
        raise FormatError(f"{where}: normalizer {cfg!r} is not an object")
    kind = cfg.get("type")
    if kind in ("NFC", "NFD", "NFKC", "NFKD"):
        form = kind

        def unicode_form(s: str) -> str:
            return s if s.isascii() or unicodedata.is_normalized(form, s) else unicodedata.normalize(form, s)
        return unicode_form
    if kind == "Lowercase":
        return str.lower
    if kind == "Replace":
        rx = _regex_of(cfg.get("pattern"), where)
        content = cfg.get("content")
        if not isinstance(content, str):
            raise FormatError(f"{where}: Replace normalizer without a string 'content'")
        return lambda s: rx.sub(lambda _m: content, s)
    if kind == "Prepend":
        pre = cfg.get("prepend")
        if not isinstance(pre, str):
            raise FormatError(f"{where}: Prepend normalizer without a string 'prepend'")
        return lambda s: pre + s if s else s
    if kind == "Strip":
        left, right = bool(cfg.get("strip_left", True)), bool(cfg.get("strip_right", True))
        return lambda s: _strip(s, left, right)
    if kind == "Sequence":
        steps = [f for c in cfg.get("normalizers") or [] if (f := _normalizer(c, where)) is not None]
        if not steps:
            return None

        def sequence(s: str) -> str:
            for f in steps:
                s = f(s)
            return s
        return sequence
    raise FormatError(f"{where}: normalizer {kind!r} is not supported (supported: NFC, NFD, NFKC, NFKD, "
                      "Lowercase, Replace, Prepend, Strip and Sequence of them)")


def _strip(s: str, left: bool, right: bool) -> str:
    a, b = 0, len(s)
    while left and a < b and s[a].isspace():
        a += 1
    while right and b > a and s[b - 1].isspace():
        b -= 1
    return s[a:b]


# ------------------------------------------------------------------------------------ pre-tokenizers
_BEHAVIOURS = ("removed", "isolated", "merged_with_previous", "merged_with_next", "contiguous")


def split_pieces(text: str, rx: regex.Pattern[str], behaviour: str, invert: bool = False) -> list[str]:
    """HF's ``split`` of one string by a pattern: every character ends up in a piece unless the
    behaviour is ``removed``; empty pieces are dropped.

    >>> split_pieces("a1b22", regex.compile(r"\\d+"), "isolated")
    ['a', '1', 'b', '22']
    >>> split_pieces("a1b22", regex.compile(r"\\d"), "merged_with_previous")
    ['a1', 'b2', '2']
    """
    spans: list[tuple[int, int, bool]] = []  # (start, end, is_delimiter) covering the whole text
    prev = 0
    for m in rx.finditer(text):
        s, e = m.span()
        if s > prev:
            spans.append((prev, s, invert))
        spans.append((s, e, not invert))
        prev = e
    if prev < len(text):
        spans.append((prev, len(text), invert))
    out: list[str] = []
    if behaviour == "isolated":
        out = [text[s:e] for s, e, _ in spans]
    elif behaviour == "removed":
        out = [text[s:e] for s, e, d in spans if not d]
    elif behaviour == "contiguous":  # neighbouring spans of the same kind become one piece
        last: bool | None = None
        for s, e, d in spans:
            if d == last and out:
                out[-1] += text[s:e]
            else:
                out.append(text[s:e])
            last = d
    elif behaviour == "merged_with_previous":
        cur = ""
        for s, e, d in spans:
            cur += text[s:e]
            if d:
                out.append(cur)
                cur = ""
        out.append(cur)
    elif behaviour == "merged_with_next":
        cur = ""
        for s, e, d in spans:
            if d and cur:
                out.append(cur)
                cur = ""
            cur += text[s:e]
        out.append(cur)
    else:  # pragma: no cover - checked when the pipeline is built
        raise ValueError(behaviour)
    return [p for p in out if p]


def _to_byte_chars(s: str) -> str:
    return "".join(BYTE_TO_CHAR[b] for b in s.encode("utf-8", "surrogateescape"))


def _behaviour(cfg: dict, where: str, default: str = "isolated") -> str:
    raw = cfg.get("behavior", default)
    b = {"mergedwithprevious": "merged_with_previous", "mergedwithnext": "merged_with_next"}.get(
        str(raw).lower(), str(raw).lower())
    if b not in _BEHAVIOURS:
        raise FormatError(f"{where}: split behavior {raw!r} is unknown (expected one of {', '.join(_BEHAVIOURS)})")
    return b


# A pre-tokenizer step maps a list of (piece, mapped) to a new list; ``mapped`` is True once
# ByteLevel has turned a piece into its GPT-2 byte characters.
Step = Callable[[list[str], bool], tuple[list[str], bool]]


def _each(fn: Callable[[str], list[str]]) -> Step:
    return lambda pieces, mapped: ([q for p in pieces for q in fn(p)], mapped)


def _pre_steps(cfg: Any, where: str) -> list[Step]:
    if cfg is None:
        return []
    if not isinstance(cfg, dict):
        raise FormatError(f"{where}: pre_tokenizer {cfg!r} is not an object")
    kind = cfg.get("type")
    if kind == "Sequence":
        return [s for c in cfg.get("pretokenizers") or [] for s in _pre_steps(c, where)]
    if kind == "Split":
        rx = _regex_of(cfg.get("pattern"), where)
        b = _behaviour(cfg, where)
        inv = bool(cfg.get("invert", False))
        return [_each(lambda p: split_pieces(p, rx, b, inv))]
    if kind == "ByteLevel":
        prefix = bool(cfg.get("add_prefix_space", True))
        rx = regex.compile(GPT2_PATTERN) if cfg.get("use_regex", True) else None

        def byte_level(pieces: list[str], mapped: bool) -> tuple[list[str], bool]:
            if mapped:
                raise FormatError(f"{where}: two ByteLevel steps in one pipeline are not supported")
            out: list[str] = []
            for p in pieces:
                if prefix and not p.startswith(" "):
                    p = " " + p
                out += split_pieces(p, rx, "isolated") if rx is not None else [p]
            return [_to_byte_chars(p) for p in out], True
        return [byte_level]
    if kind == "Digits":
        rx = regex.compile(r"\p{N}")
        b = "isolated" if cfg.get("individual_digits", False) else "contiguous"
        return [_each(lambda p: split_pieces(p, rx, b))]
    if kind == "Punctuation":
        rx = regex.compile(_PUNCT)
        b = _behaviour(cfg, where)
        return [_each(lambda p: split_pieces(p, rx, b))]
    if kind == "Whitespace":
        rx = regex.compile(r"\w+|[^\w\s]+")
        return [_each(lambda p: split_pieces(p, rx, "removed", invert=True))]
    if kind == "WhitespaceSplit":
        return [_each(lambda p: split_pieces(p, _WS, "removed"))]
    raise FormatError(f"{where}: pre-tokenizer {kind!r} is not supported by a byte-level BPE here (supported: "
                      "Split, ByteLevel, Digits, Punctuation, Whitespace, WhitespaceSplit and Sequence of them)")


# ---------------------------------------------------------------------------------- post-processors
def _post(cfg: Any, where: str, token_id: Callable[[str], int | None]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(ids before, ids after) the sequence that the post-processor adds to a single text."""
    if cfg is None:
        return (), ()
    if not isinstance(cfg, dict):
        raise FormatError(f"{where}: post_processor {cfg!r} is not an object")
    kind = cfg.get("type")
    if kind == "ByteLevel":  # offsets only
        return (), ()
    if kind == "Sequence":
        before: tuple[int, ...] = ()
        after: tuple[int, ...] = ()
        for c in cfg.get("processors") or []:
            b, a = _post(c, where, token_id)
            before, after = b + before, after + a
        return before, after
    if kind in ("RobertaProcessing", "BertProcessing"):
        try:
            cls_id, sep_id = int(cfg["cls"][1]), int(cfg["sep"][1])
        except (KeyError, IndexError, TypeError, ValueError):
            raise FormatError(f"{where}: {kind} needs 'cls' and 'sep' as [token, id]") from None
        return (cls_id,), (sep_id,)
    if kind == "TemplateProcessing":
        specials = cfg.get("special_tokens") or {}
        before_l: list[int] = []
        after_l: list[int] = []
        seen_seq = False
        for item in cfg.get("single") or []:
            if not isinstance(item, dict):
                raise FormatError(f"{where}: template item {item!r} is not an object")
            if "Sequence" in item:
                seen_seq = True
                continue
            name = (item.get("SpecialToken") or {}).get("id")
            entry = specials.get(name) if isinstance(specials, dict) else None
            if not isinstance(entry, dict) or not isinstance(entry.get("ids"), list):
                raise FormatError(f"{where}: template token {name!r} is not in its special_tokens")
            (after_l if seen_seq else before_l).extend(int(i) for i in entry["ids"])
        return tuple(before_l), tuple(after_l)
    raise FormatError(f"{where}: post-processor {kind!r} is not supported (supported: TemplateProcessing, "
                      "ByteLevel, RobertaProcessing, BertProcessing, Sequence)")


# --------------------------------------------------------------------------------------- the pipeline
@dataclass(frozen=True)
class AddedToken:
    """An entry of ``added_tokens`` with the flags that change how it is found."""

    content: str
    id: int
    special: bool = True
    lstrip: bool = False
    rstrip: bool = False
    single_word: bool = False
    normalized: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "content": self.content, "single_word": self.single_word, "lstrip": self.lstrip,
                "rstrip": self.rstrip, "normalized": self.normalized, "special": self.special}


@dataclass(frozen=True)
class Pipeline:
    """The parts of a ``tokenizer.json`` around the BPE model, as loaded (JSON kept for export)."""

    normalizer: Any = None
    pre_tokenizer: Any = None
    post_processor: Any = None
    added_tokens: tuple[AddedToken, ...] = ()
    ignore_merges: bool = False
    notes: tuple[str, ...] = ()  # what the file sets that we report rather than apply (truncation …)
    _compiled: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_json(cls, normalizer: Any, pre_tokenizer: Any, post_processor: Any,
                  added_tokens: tuple[AddedToken, ...], *, ignore_merges: bool, where: str = "tokenizer.json",
                  notes: tuple[str, ...] = ()) -> Pipeline:
        p = cls(normalizer, pre_tokenizer, post_processor, tuple(added_tokens), ignore_merges, notes)
        p.compile(where)  # refuse what we cannot do now, at load time
        return p

    def compile(self, where: str = "tokenizer.json") -> dict:
        c = self._compiled
        if not c:
            c["normalize"] = _normalizer(self.normalizer, where)
            c["steps"] = _pre_steps(self.pre_tokenizer, where)
            ids = {t.content: t.id for t in self.added_tokens}
            c["post"] = _post(self.post_processor, where, ids.get)
        return c

    @property
    def byte_level(self) -> bool:
        """True when the pre-tokenizer maps text to GPT-2 byte characters (a byte-level BPE)."""
        return _has_byte_level(self.pre_tokenizer)

    def normalize(self, text: str) -> str:
        f = self.compile()["normalize"]
        return text if f is None else f(text)

    def pre_tokenize(self, text: str) -> list[str]:
        """The pre-tokens of an already normalized piece of text, as text (byte characters unmapped)."""
        return [_unmap(p) if mapped else p for p, mapped in self._pre_tokenize(text)]

    def pre_tokenize_bytes(self, text: str) -> list[bytes]:
        """The pre-tokens as the bytes the BPE model starts from."""
        return [bytes(CHAR_TO_BYTE[c] for c in p) if mapped else p.encode("utf-8", "surrogateescape")
                for p, mapped in self._pre_tokenize(text)]

    def _pre_tokenize(self, text: str) -> list[tuple[str, bool]]:
        pieces, mapped = ([text] if text else []), False
        for step in self.compile()["steps"]:
            pieces, mapped = step(pieces, mapped)
        return [(p, mapped) for p in pieces]

    @property
    def added_ids(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The ids the post-processor puts before and after a single text."""
        return self.compile()["post"]


def _unmap(p: str) -> str:
    return bytes(CHAR_TO_BYTE[c] for c in p).decode("utf-8", "surrogateescape")


def _has_byte_level(cfg: Any) -> bool:
    if not isinstance(cfg, dict):
        return False
    if cfg.get("type") == "ByteLevel":
        return True
    return cfg.get("type") == "Sequence" and any(_has_byte_level(c) for c in cfg.get("pretokenizers") or [])


class AddedTokenSplitter:
    """Finds added tokens in text as HF's added vocabulary does (leftmost-longest, then the flags)."""

    def __init__(self, tokens: list[AddedToken], normalize: Callable[[str], str] | None) -> None:
        self.by_text: dict[str, AddedToken] = {}
        for t in tokens:
            key = normalize(t.content) if (t.normalized and normalize is not None) else t.content
            self.by_text.setdefault(key, t)
        order = sorted(self.by_text, key=len, reverse=True)
        self.rx = regex.compile("|".join(regex.escape(s) for s in order)) if order else None

    def split(self, text: str) -> list[tuple[str, int | None]]:
        """(piece, None) for text and (text, id) for each added token found."""
        if self.rx is None or not text:
            return [(text, None)] if text else []
        out: list[tuple[str, int | None]] = []
        done = 0
        for m in self.rx.finditer(text):
            start, stop = m.span()
            tok = self.by_text[m.group()]
            if tok.single_word and ((start > 0 and _word_char(text[start - 1]))
                                    or (stop < len(text) and _word_char(text[stop]))):
                continue
            if tok.lstrip:
                while start > done and text[start - 1].isspace():
                    start -= 1
            if tok.rstrip:
                while stop < len(text) and text[stop].isspace():
                    stop += 1
            if start > done:
                out.append((text[done:start], None))
            out.append((text[start:stop], tok.id))
            done = max(done, stop)
        if done < len(text):
            out.append((text[done:], None))
        return out
