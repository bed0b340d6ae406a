"""Safe block cuts for a custom pre-tokenization regex, proved from the pattern's structure.

A cut at ``c`` (``X = text[c-1]``, ``Y = text[c]``) is safe when pre-tokenizing ``text[:c]`` and
``text[c:]`` separately gives exactly the pieces of the whole text (matches, plus the stretches no
match covers, :func:`core.pretokenization.splitting.split_keeping_gaps`). For a pattern that reads nothing before
the position where a match attempt starts (no look-behind, ``\\b``, ``^``, ``\\A``, ``\\G``, back
reference, ``$``/``\\Z``, reverse or verbose mode: such patterns get no cut here), it is safe when

(a) every atom the engine could test at position ``c`` after having consumed ``X`` rejects ``Y``.
    These atoms are the Glushkov *follow* set of the atoms that accept ``X``, where a look-ahead
    ``(?=B)``/``(?!B)`` is a zero-width step whose first atoms follow what precedes it (its body's
    last atoms are followed by nothing: matching resumes where the look-ahead began). Then every
    test at ``c`` fails on ``Y`` exactly as it fails at the end of ``text[:c]``, so every attempt
    that starts before ``c`` ends the same way in both texts and no match crosses ``c``; and
(b) ``X`` alone is matched non-emptily (``X`` is then never in an uncovered stretch: position
    ``c-1`` is either inside an earlier match or an attempt starts there, and by (a) that attempt
    behaves as it does on the one-character text ``X``). So a match ends at ``c``, and the scan
    of ``text[c:]`` starts where the scan of the whole text resumes.

The test is over-cautious (backtracking, possessive and atomic groups only ever make fewer tests);
a pattern the parser here does not know gets no cut (sound: blocks are then cut only before
special tokens). The regex module's partial matching cannot be used instead: it reports a match
as complete when a longer one is possible (``regex.search("[a-z]+", "ab", partial=True)`` is a
complete match ``ab``), so it does not say whether more text could change the result.

>>> cuts = RegexCuts.for_pattern(r"[a-z]+|\\s+|[^a-z\\s]+")
>>> cuts.last_cut("ab cd", 0, 5)  # between "b" and " "
2
>>> RegexCuts.for_pattern(r"(?<=a)b|.") is None  # look-behind: no cut
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import regex

_OK_FLAGS = set("imsau")  # (m only changes ^ and $, which get no cut anyway)
_CLASS_ESC = set("dDwWsS")
_LITERAL_ESC = set("nrtfva")
_PAIR_CACHE = 200_000  # character pairs remembered (about 30 MB at most)


class _Unsupported(Exception):
    """A construct whose effect on cuts is not modelled: the pattern gets no cut."""


@dataclass
class _Parser:
    src: str
    flags: str = ""  # global inline flags
    atoms: list[str] = field(default_factory=list)  # each atom's regex, with its flags
    i: int = 0

    def parse(self):
        node = self.alt(self.flags)
        if self.i != len(self.src):
            raise _Unsupported("unbalanced ')'")
        return node

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.src[j] if j < len(self.src) else ""

    def alt(self, flags: str):
        branches = [self.seq(flags)]
        while self.peek() == "|":
            self.i += 1
            branches.append(self.seq(flags))
        return ("alt", branches)

    def seq(self, flags: str):
        items = []
        while self.i < len(self.src) and self.peek() not in "|)":
            node = self.element(flags)
            if node is None:
                continue
            items.append(self.quantified(node))
        return ("seq", items)

    def atom(self, text: str, flags: str):
        on = "".join(sorted(set(flags)))  # the flags in effect here (global ones included)
        self.atoms.append(f"(?{on}:{text})" if on else text)
        return ("atom", len(self.atoms) - 1)

    def quantified(self, node):
        c = self.peek()
        if c in ("*", "+", "?"):
            self.i += 1
            lo, hi = {"*": (0, None), "+": (1, None), "?": (0, 1)}[c]
        elif c == "{":
            m = regex.match(r"\{(\d*)(?:(,)(\d*))?\}", self.src[self.i :])
            if m is None or (m.group(1) == "" and not m.group(3)):
                raise _Unsupported("'{' that is not a repeat count")
            self.i += m.end()
            lo = int(m.group(1) or 0)
            hi = lo if m.group(2) is None else (int(m.group(3)) if m.group(3) else None)
        else:
            return node
        if self.peek() in ("?", "+"):  # lazy or possessive: the same tests, in another order
            self.i += 1
        if self.peek() in ("*", "+", "?", "{"):
            raise _Unsupported("repeated quantifier")
        return ("rep", node, lo, hi)

    def element(self, flags: str):
        c = self.src[self.i]
        if c == "(":
            return self.group(flags)
        if c == "[":
            return self.char_class(flags)
        if c == "\\":
            return self.escape(flags)
        if c in "^$":
            raise _Unsupported("anchor")
        if c in "*+?{":
            raise _Unsupported("quantifier without an operand")
        self.i += 1
        return self.atom("." if c == "." else regex.escape(c), flags)

    def group(self, flags: str):
        s = self.src
        self.i += 1
        kind = "group"
        if self.peek() == "?":
            rest = s[self.i + 1 :]
            if rest.startswith((":", ">", "|")):
                self.i += 2
            elif rest.startswith(("=", "!")):
                self.i += 2
                kind = "look"
            elif rest.startswith("#"):
                end = s.find(")", self.i)
                if end < 0:
                    raise _Unsupported("unterminated comment")
                self.i = end + 1
                return None
            elif (named := regex.match(r"P?<[A-Za-z_]\w*>", rest)) is not None:
                self.i += 1 + named.end()
            else:
                m = regex.match(r"([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])", rest)
                if m is None:
                    raise _Unsupported("group kind")  # look-behind, conditionals, back references
                on, off = m.group(1), m.group(2) or ""
                if not set(on + off) <= _OK_FLAGS:
                    raise _Unsupported("flag")
                self.i += 1 + m.end()
                if m.group(3) == ")":  # global flags (the regex module applies them to the whole pattern)
                    if off:
                        raise _Unsupported("flags turned off globally")
                    self.flags += on  # (a second parse starts with them: see for_pattern)
                    return None
                flags = "".join(sorted((set(flags) | set(on)) - set(off)))
        node = self.alt(flags)
        if self.peek() != ")":
            raise _Unsupported("missing ')'")
        self.i += 1
        return ("look", node) if kind == "look" else node

    def char_class(self, flags: str):
        s, j = self.src, self.i + 1
        if j < len(s) and s[j] == "^":
            j += 1
        if j < len(s) and s[j] == "]":
            j += 1
        while j < len(s) and s[j] != "]":
            if s[j] == "[":
                raise _Unsupported("nested set or POSIX class")
            j += 2 if s[j] == "\\" else 1
        if j >= len(s):
            raise _Unsupported("unterminated set")
        text = s[self.i : j + 1]
        self.i = j + 1
        return self.atom(text, flags)

    def escape(self, flags: str):
        s = self.src
        c = self.peek(1)
        m: int | regex.Match[str] | None = None
        if c in _CLASS_ESC or c in _LITERAL_ESC:
            m = 2
        elif c in "pP":
            m = regex.match(r"\\[pP](?:\{[^}]*\}|\w)", s[self.i :])
        elif c == "N":
            m = regex.match(r"\\N\{[^}]*\}", s[self.i :])
        elif c == "x":
            m = regex.match(r"\\x(?:[0-9a-fA-F]{2}|\{[0-9a-fA-F]+\})", s[self.i :])
        elif c == "u":
            m = regex.match(r"\\u[0-9a-fA-F]{4}", s[self.i :])
        elif c == "U":
            m = regex.match(r"\\U[0-9a-fA-F]{8}", s[self.i :])
        elif c == "0":
            m = regex.match(r"\\0[0-7]{0,2}", s[self.i :])
        elif c and not c.isalnum():
            m = 2
        if m is None:
            raise _Unsupported(f"escape \\{c}")  # \b \B \A \Z \z \G \K \X, back references, ...
        end = m if isinstance(m, int) else m.end()
        text = s[self.i : self.i + end]
        self.i += end
        return self.atom(text, flags)


def _glushkov(node, follow: dict[int, set[int]]) -> tuple[bool, set[int], set[int]]:
    """(nullable, first atoms, last atoms) of ``node``; fills ``follow`` (atom -> atoms tested next)."""
    kind = node[0]
    if kind == "atom":
        follow.setdefault(node[1], set())
        return False, {node[1]}, {node[1]}
    if kind == "alt":
        parts = [_glushkov(b, follow) for b in node[1]]
        return (
            any(p[0] for p in parts),
            set().union(*(p[1] for p in parts)),
            set().union(*(p[2] for p in parts)),
        )
    if kind == "seq":
        nullable = True
        first: set[int] = set()
        last: set[int] = set()
        for item in node[1]:
            n, f, la = _glushkov(item, follow)
            for a in last:
                follow[a] |= f
            if nullable:
                first |= f
            last = la | last if n else la
            nullable = nullable and n
        return nullable, first, last
    if kind == "rep":
        n, f, la = _glushkov(node[1], follow)
        if node[3] is None or node[3] >= 2:
            for a in la:
                follow[a] |= f
        return n or node[2] == 0, f, la
    # a look-ahead: zero-width; its first atoms are tested where it stands, nothing follows its body
    _, f, _ = _glushkov(node[1], follow)
    return True, f, set()


class RegexCuts:
    """The safe cuts of one custom pattern (see the module doc); ``None`` from :meth:`for_pattern`
    when the pattern uses a construct that is not modelled."""

    def __init__(self, pattern: str, atoms: list[str], follow: dict[int, set[int]]) -> None:
        self.pattern = pattern
        self._compiled = regex.compile(pattern)
        self._atoms = [regex.compile(a) for a in atoms]
        self._follow = follow
        self._accepts: dict[str, frozenset[int]] = {}
        self._after: dict[str, tuple[list[regex.Pattern[str]], bool]] = {}
        self._safe: dict[tuple[str, str], bool] = {}

    @staticmethod
    @lru_cache(maxsize=64)
    def for_pattern(pattern: str) -> RegexCuts | None:
        try:
            regex.compile(pattern)
            p = _Parser(pattern)
            tree = p.parse()
            if p.flags:  # global flags apply to the atoms before them too: parse again knowing them
                p = _Parser(pattern, flags="".join(sorted(set(p.flags))))
                tree = p.parse()
            follow: dict[int, set[int]] = {}
            _glushkov(tree, follow)
        except (_Unsupported, regex.error, RecursionError):
            return None
        return RegexCuts(pattern, p.atoms, follow)

    def _accepting(self, ch: str) -> frozenset[int]:
        got = self._accepts.get(ch)
        if got is None:
            got = self._accepts[ch] = frozenset(i for i, a in enumerate(self._atoms) if a.fullmatch(ch))
        return got

    def _after_char(self, x: str) -> tuple[list[regex.Pattern[str]], bool]:
        """The atoms that may be tested right after ``x`` was consumed, and whether ``x`` alone is
        matched non-emptily (condition (b))."""
        got = self._after.get(x)
        if got is None:
            nxt: set[int] = set()
            for a in self._accepting(x):
                nxt |= self._follow.get(a, set())
            covered = any(m.end() > m.start() for m in self._compiled.finditer(x))
            got = self._after[x] = ([self._atoms[i] for i in sorted(nxt)], covered)
        return got

    def safe(self, x: str, y: str) -> bool:
        """Is a cut between the characters ``x`` and ``y`` safe (conditions (a) and (b))?"""
        key = (x, y)
        ok = self._safe.get(key)
        if ok is None:
            nxt, covered = self._after_char(x)
            ok = covered and not any(a.fullmatch(y) for a in nxt)
            if len(self._safe) > _PAIR_CACHE:  # (a long stretch without a cut in CJK text: many pairs)
                self._safe.clear()
            self._safe[key] = ok
        return ok

    def allows(self, text: str, i: int) -> bool:
        """Is a cut before ``text[i]`` safe (``0 < i < len(text)``)?"""
        return self.safe(text[i - 1], text[i])

    def last_cut(self, text: str, lo: int, hi: int) -> int:
        """The last safe cut ``c`` with ``lo < c < hi`` (both characters inside ``text[lo:hi]``), or -1."""
        safe = self.safe
        for c in range(hi - 1, lo, -1):
            if safe(text[c - 1], text[c]):
                return c
        return -1
