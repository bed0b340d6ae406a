"""HF pre-tokenizers (Split with every behaviour, ByteLevel, Digits, Punctuation, Whitespace …) as
functions from a piece of text to its pre-tokens; see :mod:`core.pipeline.hf`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import regex

from core.bpe.byte_level import str_to_token, token_to_str
from core.pretokenization.ascii_pattern import ascii_twin
from core.pretokenization.patterns import GPT2_PATTERN, GPT4_PATTERN

Split = Callable[[str], list[str]]
_WS = regex.compile(r"\s+")


class Bad(Exception):
    """A part of the pipeline this tokenizer cannot reproduce (turned into a FormatError by the loader).

    ``code`` and ``params`` (optional) are passed on to that error (see :class:`core.errors.BPEError`).
    """

    def __init__(self, message: str, *, code: str = "", **params: Any) -> None:
        super().__init__(message)
        self.code, self.params = code, params


def pattern_of(step: dict[str, Any], what: str) -> tuple[str, bool]:
    """(pattern, is_regex) of a Replace/Split step."""
    pat = step.get("pattern")
    if isinstance(pat, dict) and isinstance(pat.get("Regex"), str):
        return pat["Regex"], True
    if isinstance(pat, dict) and isinstance(pat.get("String"), str):
        return pat["String"], False
    raise Bad(
        f'{what} has pattern {pat!r}; expected {{"String": ...}} or {{"Regex": ...}}',
        code="hf_pattern_form",
        step=what.split()[0],
        shown=repr(pat)[:60],
    )


def compile_pattern(pat: str, what: str) -> regex.Pattern[str]:
    try:
        return regex.compile(pat)
    except regex.error as e:
        raise Bad(
            f"{what} regex {pat!r} does not compile: {e}",
            code="hf_regex_invalid",
            step=what.split()[0],
            pattern=pat,
            detail=str(e),
        ) from None


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
        raise Bad(
            f"Split behaviour {behaviour!r} is unknown (expected one of {', '.join(_BEHAVIOURS)})",
            code="hf_split_behaviour",
            shown=repr(behaviour)[:40],
            names=", ".join(_BEHAVIOURS),
        )

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
        from core.pretokenization.splitting import make_splitter

        return make_splitter(pattern)  # these patterns match every character
    rx = compile_pattern(pattern, "Split pre-tokenizer")
    slow = split_by(rx, "isolated")
    if rx.groups:
        return slow
    findall = rx.findall
    twin = ascii_twin(pattern)
    ascii_findall = twin.findall if twin is not None else findall

    def split(s: str) -> list[str]:
        parts = ascii_findall(s) if s.isascii() else findall(s)
        if sum(map(len, parts)) == len(s):  # every character matched: the matches are the pieces
            return [p for p in parts if p] if "" in parts else parts
        return slow(s)

    return split


def _chars(test: str) -> regex.Pattern[str]:
    return regex.compile(test)


_PUNCT = _chars(r"[\p{P}!-/:-@\[-`{-~]")
# Rust's char::is_numeric: Nd, Nl, No
_DIGIT = _chars(r"\p{N}")


def pre_steps(step: Any) -> list[tuple[str, Any]]:
    """One pre-tokenizer as steps ``(kind, split)``; kind is "text", "bytelevel" or "prefix"."""
    if not isinstance(step, dict):
        raise Bad(
            f"pre-tokenizer {step!r} is not an object",
            code="hf_pretokenizer_not_object",
            shown=repr(step)[:60],
        )
    kind = step.get("type")
    if kind == "Sequence":
        return [s for sub in step.get("pretokenizers") or [] for s in pre_steps(sub)]
    if kind == "Split":
        pat, is_re = pattern_of(step, "Split pre-tokenizer")
        behaviour = str(step.get("behavior", "Isolated"))
        if is_re and behaviour.lower() == "isolated" and not step.get("invert"):
            return [("text", isolated(pat))]
        rx: regex.Pattern[str] | str = compile_pattern(pat, "Split pre-tokenizer") if is_re else pat
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
        rep = step.get("replacement", "\u2581")
        if not isinstance(rep, str) or len(rep) != 1:
            raise Bad(
                f"Metaspace replacement {rep!r} is not one character",
                code="hf_metaspace_replacement",
                shown=repr(rep)[:40],
            )
        scheme = step.get("prepend_scheme")
        if scheme is None:  # files older than tokenizers 0.19
            scheme = "always" if step.get("add_prefix_space", True) else "never"
        if scheme not in ("always", "first", "never"):
            raise Bad(
                f"Metaspace prepend_scheme {scheme!r} is not always, first or never",
                code="hf_metaspace_scheme",
                shown=repr(scheme)[:40],
            )
        return [("metaspace", (rep, scheme, bool(step.get("split", True))))]
    raise Bad(
        f"pre-tokenizer {kind!r} is not supported (supported: Split, ByteLevel, Metaspace, Digits, "
        "Punctuation, Whitespace, WhitespaceSplit and a Sequence of them)",
        code="hf_pretokenizer_unsupported",
        kind=repr(kind),
    )


def run_steps(steps: list[tuple[str, Any]], first: bool = False) -> Callable[[str], list[str]]:
    """One function applying the steps to a piece; pieces after a ByteLevel step are split in
    GPT-2 byte characters (as HF does) and handed back with ``surrogateescape`` for partial bytes.
    ``first``: the piece starts the text (a Metaspace step with ``prepend_scheme="first"`` adds its
    ``▁`` only there)."""
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
            elif kind == "metaspace":
                rep, scheme, split = f
                pieces = [p.replace(" ", rep) for p in pieces]
                pieces = [
                    rep + p
                    if p
                    and not p.startswith(rep)
                    and (scheme == "always" or (scheme == "first" and first and k == 0))
                    else p
                    for k, p in enumerate(pieces)
                ]
                if split:
                    cut = split_by(rep, "mergedwithnext")
                    pieces = [q for p in pieces for q in cut(p)]
            elif kind == "bytelevel":
                mapped = True
            elif mapped:
                out: list[str] = []
                for p in pieces:
                    out.extend(
                        str_to_token(q).decode("utf-8", "surrogateescape")
                        for q in f(token_to_str(p.encode("utf-8", "surrogateescape")))
                    )
                pieces = out
            else:
                pieces = [q for p in pieces for q in f(p)]
        return pieces

    return run
