"""The parts of a HuggingFace ``tokenizer.json`` pipeline around a byte-level BPE model.

Built from the file's JSON by :func:`build_pipeline`: the normalizer, the added tokens (special or
not, with ``lstrip``/``rstrip``/``single_word``/``normalized``), the pre-tokenizer and the
post-processor, with HF ``tokenizers``' semantics, so that :class:`core.Tokenizer` gives its ids:

1. added tokens that are not normalized are cut out of the raw text (leftmost, longest first);
2. each remaining piece is normalized, then the normalized added tokens are cut out of it;
3. each remaining piece is pre-tokenized; pieces no pattern matches are kept (never dropped);
4. each pre-token goes through the BPE model; the post-processor adds its tokens around the result.

>>> p = build_pipeline({"normalizer": {"type": "NFC"}, "pre_tokenizer": {"type": "ByteLevel",
...     "add_prefix_space": True, "use_regex": True}})
>>> p.pretokenize(p.normalize("e\\u0301t\\u00e9 42"))
[' été', ' 42']
"""
from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import regex

from .ascii_pattern import ascii_twin
from .errors import FormatError
from .pretokenize import GPT2_PATTERN, GPT4_PATTERN
from .spec import str_to_token, token_to_str

Split = Callable[[str], list[str]]
_WS = regex.compile(r"\s+")


class _Bad(Exception):
    """A part of the pipeline this tokenizer cannot reproduce (turned into a FormatError by the loader)."""


# --------------------------------------------------------------------------- normalizers
def _unicode(form: str) -> Callable[[str], str]:
    def norm(s: str) -> str:
        if s.isascii() or unicodedata.is_normalized(form, s):
            return s  # the common case costs one scan
        return unicodedata.normalize(form, s)
    return norm


def _pattern_of(step: dict[str, Any], what: str) -> tuple[str, bool]:
    """(pattern, is_regex) of a Replace/Split step."""
    pat = step.get("pattern")
    if isinstance(pat, dict) and isinstance(pat.get("Regex"), str):
        return pat["Regex"], True
    if isinstance(pat, dict) and isinstance(pat.get("String"), str):
        return pat["String"], False
    raise _Bad(f"{what} has pattern {pat!r}; expected {{\"String\": ...}} or {{\"Regex\": ...}}")


def _compile(pat: str, what: str) -> regex.Pattern[str]:
    try:
        return regex.compile(pat)
    except regex.error as e:
        raise _Bad(f"{what} regex {pat!r} does not compile: {e}") from None


def _normalizer(step: Any) -> Callable[[str], str] | None:
    if step is None:
        return None
    if not isinstance(step, dict):
        raise _Bad(f"normalizer {step!r} is not an object")
    kind = step.get("type")
    if kind in ("NFC", "NFD", "NFKC", "NFKD"):
        return _unicode(kind)
    if kind == "Lowercase":
        return str.lower
    if kind == "Sequence":
        parts = [f for f in map(_normalizer, step.get("normalizers") or []) if f is not None]
        if not parts:
            return None
        if len(parts) == 1:
            return parts[0]

        def seq(s: str) -> str:
            for f in parts:
                s = f(s)
            return s
        return seq
    if kind == "Replace":
        pat, is_re = _pattern_of(step, "Replace normalizer")
        content = step.get("content", "")
        if not isinstance(content, str):
            raise _Bad(f"Replace normalizer content {content!r} is not a string")
        if is_re:
            rx = _compile(pat, "Replace normalizer")
            return lambda s: rx.sub(lambda m: content, s)
        return lambda s: s.replace(pat, content) if pat else s
    if kind == "Prepend":
        pre = step.get("prepend", "")
        return lambda s: pre + s if s else s
    if kind == "Strip":
        left, right = bool(step.get("strip_left", True)), bool(step.get("strip_right", True))
        lre, rre = regex.compile(r"^\s+"), regex.compile(r"\s+$")

        def strip(s: str) -> str:
            if left:
                s = lre.sub("", s)
            if right:
                s = rre.sub("", s)
            return s
        return strip
    raise _Bad(f"normalizer {kind!r} is not supported (supported: NFC, NFD, NFKC, NFKD, Lowercase, "
               "Replace, Prepend, Strip and a Sequence of them)")


# --------------------------------------------------------------------------- pre-tokenizers
_BEHAVIOURS = ("isolated", "removed", "mergedwithprevious", "mergedwithnext", "contiguous")


def _spans(rx: regex.Pattern[str] | str, s: str) -> list[tuple[int, int, bool]]:
    """HF's ``find_matches``: (start, end, is_match) pieces covering ``s``."""
    if not s:
        return [(0, 0, False)]
    if isinstance(rx, str):
        ms, pos = [], 0
        while rx and (i := s.find(rx, pos)) >= 0:
            ms.append((i, i + len(rx)))
            pos = i + len(rx)
    else:
        ms = [m.span() for m in rx.finditer(s)]
    out: list[tuple[int, int, bool]] = []
    prev = 0
    for a, b in ms:
        if prev != a:
            out.append((prev, a, False))
        out.append((a, b, True))
        prev = b
    if prev != len(s):
        out.append((prev, len(s), False))
    return out


def split_by(rx: regex.Pattern[str] | str, behaviour: str, invert: bool = False) -> Split:
    """HF's ``Split`` pre-tokenizer: ``rx`` is a compiled regex or a literal string.

    >>> split_by(regex.compile(r"\\d"), "mergedwithprevious")("a1b22")
    ['a1', 'b2', '2']
    """
    behaviour = behaviour.replace("_", "").lower()
    if behaviour not in _BEHAVIOURS:
        raise _Bad(f"Split behaviour {behaviour!r} is unknown (expected one of {', '.join(_BEHAVIOURS)})")

    def split(s: str) -> list[str]:
        sp = _spans(rx, s)
        if invert:
            sp = [(a, b, not m) for a, b, m in sp]
        acc: list[list[Any]] = []
        if behaviour == "isolated":
            acc = [[a, b, False] for a, b, _ in sp]
        elif behaviour == "removed":
            acc = [[a, b, m] for a, b, m in sp]
        elif behaviour == "contiguous":
            prev = False
            for a, b, m in sp:
                if m == prev and acc:
                    acc[-1][1] = b
                else:
                    acc.append([a, b, False])
                prev = m
        elif behaviour == "mergedwithprevious":
            prev = False
            for a, b, m in sp:
                if m and not prev and acc:
                    acc[-1][1] = b
                else:
                    acc.append([a, b, False])
                prev = m
        else:  # mergedwithnext
            prev = False
            for a, b, m in reversed(sp):
                if m and not prev and acc:
                    acc[-1][0] = a
                else:
                    acc.append([a, b, False])
                prev = m
            acc.reverse()
        return [s[a:b] for a, b, removed in acc if not removed and b > a]
    return split


def isolated(pattern: str) -> Split:
    """``split_by(regex, "isolated")`` made fast: the built-in patterns take their ASCII fast path, and
    when a pattern's matches cover the whole text (the usual case) ``findall`` gives the pieces.

    >>> isolated(r"[a-z]+")("ab, cd!")
    ['ab', ', ', 'cd', '!']
    """
    if pattern in (GPT2_PATTERN, GPT4_PATTERN):
        from .splitting import make_splitter

        return make_splitter(pattern)  # these patterns match every character
    rx = _compile(pattern, "Split pre-tokenizer")
    slow = split_by(rx, "isolated")
    if rx.groups:
        return slow
    findall = rx.findall
    twin = ascii_twin(pattern)
    ascii_findall = twin.findall if twin is not None else findall

    def split(s: str) -> list[str]:
        parts = ascii_findall(s) if s.isascii() else findall(s)
        if sum(map(len, parts)) == len(s):  # every character matched: the matches are the pieces
            return [p for p in parts if p]
        return slow(s)
    return split


def _chars(test: str) -> regex.Pattern[str]:
    return regex.compile(test)


_PUNCT = _chars(r"[\p{P}!-/:-@\[-`{-~]")
# Rust's char::is_numeric: Nd, Nl, No
_DIGIT = _chars(r"\p{N}")


def _pre_step(step: Any) -> list[tuple[str, Any]]:
    """One pre-tokenizer as steps ``(kind, split)``; kind is "text", "bytelevel" or "prefix"."""
    if not isinstance(step, dict):
        raise _Bad(f"pre-tokenizer {step!r} is not an object")
    kind = step.get("type")
    if kind == "Sequence":
        return [s for sub in step.get("pretokenizers") or [] for s in _pre_step(sub)]
    if kind == "Split":
        pat, is_re = _pattern_of(step, "Split pre-tokenizer")
        behaviour = str(step.get("behavior", "Isolated"))
        if is_re and behaviour.lower() == "isolated" and not step.get("invert"):
            return [("text", isolated(pat))]
        rx: regex.Pattern[str] | str = _compile(pat, "Split pre-tokenizer") if is_re else pat
        return [("text", split_by(rx, behaviour, bool(step.get("invert"))))]
    if kind == "ByteLevel":
        out: list[tuple[str, Any]] = []
        if step.get("add_prefix_space", True):
            out.append(("prefix", None))
        if step.get("use_regex", True):
            out.append(("text", isolated(GPT2_PATTERN)))
        out.append(("bytelevel", None))
        return out
    if kind == "Digits":
        return [("text", split_by(_DIGIT, "isolated" if step.get("individual_digits") else "contiguous"))]
    if kind == "Punctuation":
        return [("text", split_by(_PUNCT, str(step.get("behavior", "Isolated"))))]
    if kind == "Whitespace":
        return [("text", split_by(regex.compile(r"\w+|[^\w\s]+"), "removed", invert=True))]
    if kind == "WhitespaceSplit":
        return [("text", split_by(_WS, "removed"))]
    if kind == "Metaspace":
        raise _Bad("the Metaspace pre-tokenizer (SentencePiece's '▁' for spaces) belongs to char-level "
                   "tokenizers; BPE Explorer opens byte-level BPE (ByteLevel pre-tokenizer)")
    raise _Bad(f"pre-tokenizer {kind!r} is not supported (supported: Split, ByteLevel, Digits, "
               "Punctuation, Whitespace, WhitespaceSplit and a Sequence of them)")


def _run_steps(steps: list[tuple[str, Any]]) -> Callable[[str], list[str]]:
    """One function applying the steps to a piece; pieces after a ByteLevel step are split in
    GPT-2 byte characters (as HF does) and handed back with ``surrogateescape`` for partial bytes."""
    if steps and steps[-1][0] == "bytelevel":
        text_steps = [f for kind, f in steps[:-1] if kind == "text"]
        if len(text_steps) == len(steps) - 1 <= 1:  # the common case: one split, then the byte mapping
            return text_steps[0] if text_steps else (lambda s: [s] if s else [])
    def run(s: str) -> list[str]:
        pieces = [s]
        mapped = False
        for kind, f in steps:
            if kind == "prefix":
                pieces = [p if p.startswith(" ") else " " + p for p in pieces]
            elif kind == "bytelevel":
                mapped = True
            elif mapped:
                out: list[str] = []
                for p in pieces:
                    for q in f(token_to_str(p.encode("utf-8", "surrogateescape"))):
                        out.append(str_to_token(q).decode("utf-8", "surrogateescape"))
                pieces = out
            else:
                pieces = [q for p in pieces for q in f(p)]
        return pieces
    return run


# --------------------------------------------------------------------------- added tokens
@dataclass(frozen=True)
class AddedToken:
    """An HF added token and its matching flags."""

    content: str
    id: int
    special: bool = True
    lstrip: bool = False
    rstrip: bool = False
    single_word: bool = False
    normalized: bool = False


_WORD_CHAR = regex.compile(r"\w")
_SPACE_AT_END = regex.compile(r"\s*$")
_SPACES = regex.compile(r"\s*")


class _Matcher:
    """Cuts added tokens out of a text (leftmost, then longest; HF's flags)."""

    def __init__(self, tokens: dict[str, AddedToken]) -> None:
        self.tokens = tokens
        order = sorted(tokens, key=len, reverse=True)
        self.rx = regex.compile("|".join(map(regex.escape, order))) if order else None
        self.plain = all(not (t.lstrip or t.rstrip or t.single_word) for t in tokens.values())

    def split(self, s: str) -> Iterator[tuple[str, int | None]]:
        if self.rx is None or not s:
            yield s, None
            return
        pos = 0
        for m in self.rx.finditer(s):
            start, stop = m.span()
            tok = self.tokens[m.group()]
            if not self.plain:
                if start < pos or tok.single_word and ((start > 0 and _WORD_CHAR.match(s, start - 1))
                                                       or (stop < len(s) and _WORD_CHAR.match(s, stop))):
                    continue
                if tok.lstrip:
                    start = max(_SPACE_AT_END.search(s, 0, start).start(), pos)  # type: ignore[union-attr]
                if tok.rstrip:
                    stop = _SPACES.match(s, stop).end()  # type: ignore[union-attr]
            if start > pos:
                yield s[pos:start], None
            yield s[start:stop], tok.id
            pos = stop
        if pos < len(s):
            yield s[pos:], None


# --------------------------------------------------------------------------- the pipeline
@dataclass(frozen=True)
class HFPipeline:
    """What a ``tokenizer.json`` adds around the BPE model (see the module docstring)."""

    normalizer: Callable[[str], str] | None
    raw_added: Any  # _Matcher of the added tokens that are not normalized
    norm_added: Any  # _Matcher of the normalized ones
    pretokenize: Callable[[str], list[str]]
    prefix_ids: tuple[int, ...] = ()  # what the post-processor puts before / after one sequence
    suffix_ids: tuple[int, ...] = ()
    ignore_merges: bool = False
    added_tokens: tuple[AddedToken, ...] = ()
    notes: tuple[str, ...] = field(default=())  # truncation/padding and the like, for the user

    def normalize(self, s: str) -> str:
        return s if self.normalizer is None else self.normalizer(s)

    def pieces(self, text: str) -> Iterator[tuple[str, int | None]]:
        """(normalized text, None) and (added token text, id) pieces of ``text``, in order."""
        for raw, tid in self.raw_added.split(text):
            if tid is not None:
                yield raw, tid
            elif raw:
                yield from self.norm_added.split(self.normalize(raw))


def _post(step: Any, token_id: Callable[[str], int]) -> tuple[list[int], list[int]]:
    """(ids before, ids after) a single sequence for a post-processor."""
    if step is None:
        return [], []
    if not isinstance(step, dict):
        raise _Bad(f"post-processor {step!r} is not an object")
    kind = step.get("type")
    if kind == "ByteLevel":
        return [], []  # only trims offsets
    if kind in ("RobertaProcessing", "BertProcessing"):
        try:
            cls_id, sep_id = int(step["cls"][1]), int(step["sep"][1])
        except (KeyError, TypeError, ValueError, IndexError):
            raise _Bad(f"{kind} needs cls and sep as [token, id] pairs") from None
        return [cls_id], [sep_id]
    if kind == "TemplateProcessing":
        specials = step.get("special_tokens") or {}
        before: list[int] = []
        after: list[int] = []
        seen = False
        for item in step.get("single") or []:
            if not isinstance(item, dict):
                raise _Bad(f"TemplateProcessing item {item!r} is not an object")
            if "Sequence" in item:
                seen = True
            elif "SpecialToken" in item:
                name = item["SpecialToken"].get("id")
                entry = specials.get(name)
                ids = list(entry.get("ids") or []) if isinstance(entry, dict) else [token_id(name)]
                (after if seen else before).extend(int(i) for i in ids)
            else:
                raise _Bad(f"TemplateProcessing item {item!r} is neither a SpecialToken nor a Sequence")
        return before, after
    if kind == "Sequence":
        before, after = [], []
        for sub in step.get("processors") or []:
            b, a = _post(sub, token_id)
            before, after = b + before, after + a
        return before, after
    raise _Bad(f"post-processor {kind!r} is not supported (supported: TemplateProcessing, ByteLevel, "
               "RobertaProcessing, BertProcessing, Sequence)")


def pipeline_config(data: dict[str, Any], model: dict[str, Any], path: object,
                    token_id: Callable[[str], int]) -> dict[str, Any]:
    """The picklable description of a ``tokenizer.json`` pipeline (checked: unsupported parts raise
    :class:`FormatError` naming the file); :func:`build_pipeline` turns it into an :class:`HFPipeline`."""
    try:
        before, after = _post(data.get("post_processor"), token_id)
    except _Bad as e:
        raise FormatError(f"{path}: {e}") from None
    conf = {"normalizer": data.get("normalizer"), "pre_tokenizer": data.get("pre_tokenizer"),
            "added_tokens": [dict(t) for t in data.get("added_tokens") or []],
            "prefix_ids": before, "suffix_ids": after,
            "ignore_merges": bool(model.get("ignore_merges", False)),
            "truncation": data.get("truncation"), "padding": data.get("padding")}
    try:
        build_pipeline(conf)
    except _Bad as e:
        raise FormatError(f"{path}: {e}") from None
    return conf


def build_pipeline(conf: dict[str, Any]) -> HFPipeline:
    """An :class:`HFPipeline` from :func:`pipeline_config`'s description (or a ``tokenizer.json``
    object with ``prefix_ids``/``suffix_ids`` in place of a post-processor).

    >>> build_pipeline({"pre_tokenizer": {"type": "Digits", "individual_digits": True}}).pretokenize("a12")
    ['a', '1', '2']
    """
    norm = _normalizer(conf.get("normalizer"))
    pre = conf.get("pre_tokenizer")
    steps = _pre_step(pre) if pre is not None else []
    added = tuple(AddedToken(t["content"], t["id"], bool(t.get("special", False)), bool(t.get("lstrip")),
                             bool(t.get("rstrip")), bool(t.get("single_word")), bool(t.get("normalized")))
                  for t in conf.get("added_tokens") or [])
    raw = {t.content: t for t in added if not t.normalized}
    normed: dict[str, AddedToken] = {}
    for t in added:
        if t.normalized:
            normed[norm(t.content) if norm is not None else t.content] = t
    notes = []
    for key in ("truncation", "padding"):
        if conf.get(key) is not None:
            notes.append(f"the file sets {key} ({conf[key]!r}); BPE Explorer reports it but does not apply "
                         f"it (ids are those of encode() without {key})")
    return HFPipeline(norm, _Matcher(raw), _Matcher(normed), _run_steps(steps),
                      tuple(conf.get("prefix_ids") or ()), tuple(conf.get("suffix_ids") or ()),
                      bool(conf.get("ignore_merges", False)), added, tuple(notes))
