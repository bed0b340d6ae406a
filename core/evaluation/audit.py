"""Audit a merge list: replay correct training on a corpus and find where a given list parts from it.

A CS336 student's ``train_bpe`` output, or another library's ``merges.txt``, is compared merge by
merge with what the byte-exact trainer (:class:`core.Trainer`) merges on the same corpus. At the
first merge that differs the audit reports both pairs, their true counts at that point, and why
the given list probably differs:

============================  =====================================================================
diagnosis                     meaning
============================  =====================================================================
``other_tie_rule``            equal counts, and the other tie rule (first seen / greatest) picks
                              the given pair
``smallest_of_tie``           equal counts, and the given pair is the smallest of the tied pairs
                              (``min`` where ``max`` belongs; ``detail["tied"]``: how many tie)
``gpt2_chars_order``          equal counts, and the given pair is the greatest compared as GPT-2's
                              printable characters (``Ġ`` for a space) instead of as bytes
``tie_broken_otherwise``      equal counts, but none of these picks the given pair
``specials_not_removed``      the given pair wins when the special tokens are left in the text
                              (pre-tokens then run across them)
``other_pretokenization``     the given pair wins under another pre-tokenization (``detail``
                              names it: ``gpt4``, ``none``, ``whitespace`` ...)
``pair_absent``               the given pair does not occur in the corpus at that point
``merged_from_the_right``     the given pair wins when runs of an equal-token merge (``a a a``) are
                              merged from the right (``a aa``), as a loop walking backwards does
``order_differs``             the given pair occurs, less often: the lists merge in another order
                              (``detail`` says where each pair comes in the other list)
``no_pairs_left``             the given list goes on after training has no pair left to merge
============================  =====================================================================

>>> r = audit_merges(b"aab aab ab", [(b"a", b"a")])
>>> r.first_divergence, r.expected, r.given_count, r.expected_count, r.diagnosis
(1, (b'a', b'b'), 2, 3, 'order_differs')
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from core.errors import BPEError, Cancelled, FormatError
from core.pretokenization.patterns import PATTERNS, resolve_pattern
from core.training.records import TIE_BREAKS, Pair

#: other pre-tokenizations tried when a pair does not fit the given one (name -> regex; None: no split)
WHITESPACE_PATTERN = r"\S+"  # text.split(): words between whitespace, the whitespace kept apart
ALTERNATIVE_PATTERNS: dict[str, str | None] = {
    "gpt2": PATTERNS["gpt2"],
    "gpt4": PATTERNS["gpt4"],
    "none": None,
    "whitespace": WHITESPACE_PATTERN,
}

#: ``progress(phase, done, total)`` as elsewhere: phases "pretokenize", "replay", "diagnose"
Progress = Callable[[str, int, int], "bool | None"]


@dataclass(frozen=True)
class AuditResult:
    """Where a merge list first parts from correct training, and why (all None when it never does)."""

    merges_given: int
    merges_checked: int  # how many given merges agree with training before the first divergence
    first_divergence: int | None = None  # merge number, from 1
    given: Pair | None = None
    expected: Pair | None = None
    given_count: int | None = None  # the true counts of both pairs at that point
    expected_count: int | None = None
    diagnosis: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def agrees(self) -> bool:
        return self.first_divergence is None

    def explanation(self) -> str:
        """One English sentence on the diagnosis (the app says it in its own language)."""
        d = self.detail
        code = self.diagnosis
        if code is None:
            return f"all {self.merges_given:,} merges agree with training on this corpus"
        if code == "other_tie_rule":
            return (
                f"equal counts ({self.given_count:,}); the given list broke the tie by the "
                f"{d['rule']!r} rule, training here by {d['trained_rule']!r}"
            )
        if code == "smallest_of_tie":
            return (
                f"equal counts ({self.given_count:,}) for {d['tied']:,} pairs; the given list took the "
                "smallest of them, training takes the greatest: ties were broken with min() instead of max()"
            )
        if code == "gpt2_chars_order":
            return (
                f"equal counts ({self.given_count:,}) for {d['tied']:,} pairs; the given list took the "
                "greatest as GPT-2 characters (str, 'Ġ' for a space), training takes the greatest as bytes: "
                "compare the pairs' bytes, not their printable strings"
            )
        if code == "tie_broken_otherwise":
            return f"equal counts ({self.given_count:,}); neither tie rule picks the given pair"
        if code == "specials_not_removed":
            return (
                f"the given pair is counted {d['count']:,} times when the special tokens are left in the "
                "text: the list was trained without removing them"
            )
        if code == "other_pretokenization":
            if d["pattern"] == "none":
                return (
                    f"the given pair is counted {d['count']:,} times when the text is not split into "
                    "pre-tokens: the list counted pairs across pre-token boundaries (split the text "
                    "with the pattern first, and count pairs only inside each pre-token)"
                )
            return (
                f"the given pair is counted {d['count']:,} times under the {d['pattern']!r} "
                "pre-tokenization: the list was trained with another pattern"
            )
        if code == "merged_from_the_right":
            x = bytes.fromhex(d["token"])
            return (
                f"the list merged {x!r} + {x!r} from the right in runs of three or more (such as "
                f"{bytes.fromhex(d['example'])!r}: {x!r} + {x * 2!r} where {x * 2!r} + {x!r} is right); "
                f"counted that way the given pair wins with {d['count']:,}: apply each merge left to right"
            )
        if code == "pair_absent":
            return "the given pair does not occur in the corpus at this point"
        if code == "no_pairs_left":
            return "the given list goes on after training has no pair left to merge"
        later = d.get("expected_in_given")
        made = d.get("given_in_training")
        parts = [f"the given pair occurs {self.given_count:,} times, fewer than {self.expected_count:,}"]
        parts.append(
            f"the correct pair comes at given merge {later:,}"
            if later
            else "the correct pair is not in the given list"
        )
        if made:
            parts.append(f"training makes the given pair at merge {made:,}")
        return "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """The JSON of ``audit --json``: ``first_divergence`` (null when none), ``given``, ``expected``
        (each two hex strings), ``given_count``, ``expected_count``, ``diagnosis``, plus
        ``explanation``, ``detail``, ``merges_given`` and ``merges_checked``."""

        def hexes(p: Pair | None) -> list[str] | None:
            return None if p is None else [p[0].hex(), p[1].hex()]

        return {
            "first_divergence": self.first_divergence,
            "given": hexes(self.given),
            "expected": hexes(self.expected),
            "given_count": self.given_count,
            "expected_count": self.expected_count,
            "diagnosis": self.diagnosis,
            "explanation": self.explanation(),
            "detail": self.detail,
            "merges_given": self.merges_given,
            "merges_checked": self.merges_checked,
        }


def _trainer(corpus, specials, pattern, tie_break, workers, progress):
    from core.training.trainer import Trainer

    if isinstance(corpus, bytes):
        return Trainer.from_text(corpus, specials, pattern=pattern, tie_break=tie_break, keep_history=False)
    return Trainer.from_file(
        corpus,
        specials,
        pattern=pattern,
        tie_break=tie_break,
        workers=workers,
        progress=progress,
        keep_history=False,
    )


def _replayed(trainer, prefix: Sequence[Pair], interrupt) -> bool:
    """Merge ``prefix`` in order; False when one of its pairs does not occur there."""
    for i, pair in enumerate(prefix):
        if trainer.pair_count(pair) <= 0:
            return False
        trainer.merge(pair)
        if i % 256 == 0 and interrupt():
            raise Cancelled("audit cancelled")
    return True


def audit_merges(
    corpus: str | os.PathLike | bytes,
    merges: Iterable[Pair],
    special_tokens: Iterable[str] | None = None,
    *,
    pattern: str | None = "gpt2",
    tie_break: str = "lexicographic",
    workers: int | None = None,
    progress: Progress | None = None,
) -> AuditResult:
    """Replay correct training on ``corpus`` (a file path, or the text itself as ``bytes``) and
    return where ``merges`` (pairs of bytes, in order) first differ from it, with a diagnosis."""
    if tie_break not in TIE_BREAKS:
        raise BPEError(f"tie_break must be 'lexicographic' or 'first', not {tie_break!r}")
    resolve_pattern(pattern)
    given = [(bytes(a), bytes(b)) for a, b in merges]
    specials = list(special_tokens or [])

    def interrupt() -> bool:
        return False

    def tick(phase: str, done: int, total: int) -> None:
        if progress is not None and progress(phase, done, total) is False:
            raise Cancelled("audit cancelled")

    def build(pat, specs):
        return _trainer(corpus, specs, pat, tie_break, workers, progress)

    trainer = build(pattern, specials)
    n = len(given)
    for i, pair in enumerate(given):
        if i % 64 == 0:
            tick("replay", i, n)
        best = trainer.next_pair()
        if best is not None and best[0] == pair:
            trainer.merge(pair)
            continue
        tick("diagnose", 0, 1)
        return _diagnose(trainer, given, i, best, build, pattern, specials, interrupt)
    tick("replay", n, n)
    return AuditResult(n, n)


def _diagnose(trainer, given, i, best, build, pattern, specials, interrupt) -> AuditResult:
    pair = given[i]
    given_count = trainer.pair_count(pair)
    base = {"merges_given": len(given), "merges_checked": i, "first_divergence": i + 1, "given": pair}
    if best is None:
        return AuditResult(**base, given_count=given_count, expected_count=0, diagnosis="no_pairs_left")
    expected, expected_count = best
    base |= {"expected": expected, "given_count": given_count, "expected_count": expected_count}
    trained_rule = trainer.tie_break
    if given_count == expected_count:
        tied_now = len(trainer.tied_pairs())
        rule, agreeing = _tie_rule_of(trainer, given, i)
        if rule in TIE_BREAKS:
            return AuditResult(
                **base,
                diagnosis="other_tie_rule",
                detail={"rule": rule, "trained_rule": trained_rule, "ties_agreeing": agreeing},
            )
        if rule == "smallest":
            return AuditResult(
                **base, diagnosis="smallest_of_tie", detail={"tied": tied_now, "ties_agreeing": agreeing}
            )
        if rule == "gpt2_chars":
            return AuditResult(
                **base, diagnosis="gpt2_chars_order", detail={"tied": tied_now, "ties_agreeing": agreeing}
            )
        return AuditResult(**base, diagnosis="tie_broken_otherwise", detail={"trained_rule": trained_rule})
    prefix = given[:i]
    if specials:
        count = _wins(build(pattern, []), prefix, pair, interrupt)
        if count:
            return AuditResult(**base, diagnosis="specials_not_removed", detail={"count": count})
    own = resolve_pattern(pattern)
    # several patterns may pick the given pair here (GPT-4's and none both join "。" and "\n"):
    # the one under which the most following merges of the list agree is named
    fits: list[tuple[int, int, str]] = []  # (merges agreeing from the divergence on, count, name)
    for name, regex_ in ALTERNATIVE_PATTERNS.items():
        if regex_ == own:
            continue
        other = build(regex_ if regex_ is not None else "none", specials)
        count = _wins(other, prefix, pair, interrupt)
        if count:
            fits.append((_agreeing(other, given, i, interrupt), count, name))
    if fits:
        agree, count, name = max(fits, key=lambda f: f[0])  # (the first listed among equals)
        return AuditResult(
            **base,
            diagnosis="other_pretokenization",
            detail={"pattern": name, "count": count, "agreeing": agree},
        )
    run = _right_to_left_wins(trainer, prefix, pair, expected)
    if run is not None:
        return AuditResult(**base, diagnosis="merged_from_the_right", detail=run)
    if given_count <= 0:
        return AuditResult(**base, diagnosis="pair_absent")
    # both occur; where does each come in the other list?
    later = next((k + 1 for k in range(i + 1, len(given)) if given[k] == expected), None)
    made = None
    for k in range(i, len(given) + 64):
        r = trainer.step()
        if r is None:
            break
        if r.pair == pair:
            made = k + 1
            break
    return AuditResult(
        **base, diagnosis="order_differs", detail={"expected_in_given": later, "given_in_training": made}
    )


def _merged_right_to_left(word: bytes, merges: Sequence[Pair], ranks: dict[Pair, int]) -> list[bytes]:
    """``word`` merged by ``merges`` in order, each merge applied from the right (``a a a`` → ``a aa``)."""
    seq = [bytes([x]) for x in word]
    while len(seq) > 1:
        best = min((ranks[p] for p in itertools.pairwise(seq) if p in ranks), default=None)
        if best is None:
            break
        a, b = merges[best]
        out: list[bytes] = []
        j = len(seq) - 1
        while j >= 0:
            if j > 0 and seq[j - 1] == a and seq[j] == b:
                out.append(a + b)
                j -= 2
            else:
                out.append(seq[j])
                j -= 1
        seq = out[::-1]
    return seq


def _right_to_left_wins(
    trainer, prefix: Sequence[Pair], pair: Pair, expected: Pair | None
) -> dict[str, Any] | None:
    """Where the list's merges include a pair of equal tokens (``a a``) and the corpus has runs of
    three or more of them (``a a a``): whether merging such runs from the right, as a hand-written
    merge loop that walks backwards does, makes the given pair the next merge. The detail names the
    equal-token pair, the given pair's count that way and a word with such a run; None otherwise."""
    selfs = [a for a, b in prefix if a == b]
    if not selfs:
        return None
    runs = re.compile(b"|".join(re.escape(x * 3) for x in dict.fromkeys(selfs)))
    hit = [(orig, toks, n) for orig, toks, n in trainer.words() if runs.search(orig)]
    if not hit:
        return None
    ranks: dict[Pair, int] = {}
    for r, p in enumerate(prefix):
        ranks.setdefault(p, r)
    counts = trainer.pair_counts()
    for orig, toks, n in hit:
        for p in itertools.pairwise(toks):
            counts[p] -= n
        seq = _merged_right_to_left(orig, prefix, ranks)
        for p in itertools.pairwise(seq):
            counts[p] = counts.get(p, 0) + n
    top = max(counts.values(), default=0)
    if top <= 0 or counts.get(pair, 0) != top:
        return None
    found = [x for x in dict.fromkeys(selfs) if any(x * 3 in orig for orig, _t, _n in hit)]
    near = [t for t in (*pair, *(expected or ())) if t]
    # the equal-token pair whose double stands in one of the two pairs, else the first one met
    x = next((x for x in found if any(x * 2 in t for t in near)), found[0])
    example = next(orig for orig, _t, _n in hit if x * 3 in orig)
    return {"token": x.hex(), "count": top, "example": example.hex()}


def _tie_pickers(trainer) -> dict[str, Callable[[list[Pair]], Pair]]:
    """The ways a trainer may break a tie, by name (the tie rules, and two of students' mistakes)."""
    from core.bpe.byte_level import token_to_str

    def first(_tied: list[Pair]) -> Pair:
        rule = trainer.tie_break
        trainer.tie_break = "first"
        try:
            return trainer.next_pair()[0]
        finally:
            trainer.tie_break = rule

    return {
        "first": first,
        "smallest": min,  # min() where max() belongs
        # the greatest as GPT-2's characters ("Ġc" > "th": Ġ is U+0120, the space byte 0x20)
        "gpt2_chars": lambda tied: max(tied, key=lambda p: (token_to_str(p[0]), token_to_str(p[1]))),
        "lexicographic": max,
    }


def _tie_rule_of(trainer, given: Sequence[Pair], i: int) -> tuple[str | None, int]:
    """Which other way of breaking ties makes the list's merge ``i`` (a tie training broke the
    other way), and how many of the list's ties from there on it agrees with. Where several fit
    this tie, the list's later ties decide (the first of :func:`_tie_pickers` among equals);
    (None, 0) when none fits. Merges ``trainer`` on along the list."""
    pickers = {k: f for k, f in _tie_pickers(trainer).items() if k != trainer.tie_break}
    alive = [k for k, f in pickers.items() if f(trainer.tied_pairs()) == given[i]]
    if not alive:
        return None, 0
    agreeing = 1
    for k in range(i + 1, len(given)):
        trainer.merge(given[k - 1])
        best = trainer.next_pair()
        if best is None or len(alive) == 1 or trainer.pair_count(given[k]) != best[1]:
            break
        tied = trainer.tied_pairs()
        if len(tied) < 2:
            continue
        still = [r for r in alive if pickers[r](tied) == given[k]]
        if not still:
            break
        alive = still
        agreeing += 1
    return alive[0], agreeing


def _agreeing(trainer, given: Sequence[Pair], i: int, interrupt) -> int:
    """How many merges of ``given`` from ``i`` on ``trainer`` (which has merged those before ``i``)
    would make in the same order (a tie taken either way counts as agreeing)."""
    n = 0
    for k in range(i, len(given)):
        best = trainer.next_pair()
        if best is None or trainer.pair_count(given[k]) != best[1]:
            break
        trainer.merge(given[k])
        n += 1
        if n % 256 == 0 and interrupt():
            raise Cancelled("audit cancelled")
    return n


def _wins(trainer, prefix: Sequence[Pair], pair: Pair, interrupt) -> int:
    """The count of ``pair`` where another way of counting makes it the next merge (0 where it
    does not: the prefix does not replay there, or another pair has a higher count)."""
    if not _replayed(trainer, prefix, interrupt):
        return 0
    best = trainer.next_pair()
    if best is None:
        return 0
    count = trainer.pair_count(pair)
    return count if count > 0 and count == best[1] else 0


# --------------------------------------------------------------------------- reading a merge list
def read_merge_list(path: str | os.PathLike, vocab: str | os.PathLike | None = None) -> list[Pair]:
    """The merges of a file: a GPT-2 ``merges.txt`` (alone, or with its ``vocab``), a ``train_bpe``
    result saved with pickle or as a JSON list of pairs (:mod:`core.evaluation.student_merges`), or
    any tokenizer file the app opens (tokenizer.json, tiktoken, bpe.json)."""
    from core.evaluation.student_merges import read_student_merges
    from core.formats import load_any

    p = Path(path)
    if vocab is not None:
        from core.formats.gpt2 import load_gpt2

        return list(load_gpt2(vocab, p).merges)
    if p.is_file() and p.suffix == ".txt":
        return _merges_txt(p)
    saved = read_student_merges(p)
    if saved is not None:
        return saved
    return list(load_any(p).merges)


def _merges_txt(p: Path) -> list[Pair]:
    from core.bpe.byte_level import str_to_token
    from core.files import read_text
    from core.formats import looks_like_merges, plain_text_error

    out: list[Pair] = []
    text = read_text(p, "merges")
    first = next((x.strip() for x in text.split("\n") if x.strip() and not x.startswith("#version")), "")
    if first.startswith(("b'", 'b"', "(b'", '(b"')):
        return _literal_merges(p, text)
    for n, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        if not line.strip() or line.startswith("#version"):
            continue
        parts = line.split(" ")
        if len(parts) != 2 or not all(parts):
            if len(parts) > 2:  # a token with a space in it, written as it is
                raise FormatError(
                    f"{p}: line {n}: {line!r} is not two tokens separated by one space; in a merges.txt a "
                    "space inside a token is written with GPT-2's byte characters ('Ġ t' for b' ' + b't'): "
                    "write each token with token_to_str, or save the merges with pickle",
                    code="merges_raw_space",
                    file=p.name,
                    line=n,
                    text=line,
                )
            raise FormatError(
                f"{p}: line {n}: {line!r} is not two tokens separated by one space",
                code="merges_line_parts",
                file=p.name,
                line=n,
                text=line,
                parts=len([x for x in parts if x]),
            )
        try:
            out.append((str_to_token(parts[0]), str_to_token(parts[1])))
        except KeyError as e:
            raise FormatError(
                f"{p}: line {n}: {e.args[0]!r} is not a GPT-2 byte character; give a byte-level merges.txt",
                code="merges_not_byte_level",
                file=str(p),
                line=n,
                text=e.args[0],
                codepoint=f"U+{ord(e.args[0]):04X}",
            ) from None
    # lines of two words ("hello world") have a merge's shape; a merge list is also built on itself
    if not looks_like_merges(text.encode("utf-8", "surrogateescape")[:4096]):
        raise plain_text_error(p)
    return out


#: a Python bytes literal as repr() writes one (b'…' or b"…")
_BYTES_LITERAL = re.compile(r"b'(?:[^'\\]|\\.)*'" + r'|b"(?:[^"\\]|\\.)*"')


def _literal_merges(p: Path, text: str) -> list[Pair]:
    """Merges written one a line as Python bytes literals, as printing them gives: ``b' ' b't'`` or
    ``(b' ', b't')`` (read as literals only: nothing is run)."""
    import ast

    out: list[Pair] = []
    for n, line in enumerate(text.split("\n"), start=1):
        if not line.strip() or line.startswith("#version"):
            continue
        found = _BYTES_LITERAL.findall(line)
        if len(found) != 2:
            raise FormatError(
                f"{p}: line {n}: {line.strip()!r} is not two bytes literals such as b' ' b't'",
                code="merges_line_literals",
                file=p.name,
                line=n,
                text=line.strip(),
            )
        a, b = (ast.literal_eval(x) for x in found)
        out.append((a, b))
    return out


def load_tokenizer_or_merges(
    path: str | os.PathLike,
    *,
    special_tokens: list[str] | dict[str, int] | None = None,
    pattern: str | None = None,
):
    """A :class:`~core.formats.spec.TokenizerSpec` for ``compare``, ``trace`` and ``inspect``: any
    tokenizer file the app opens (:func:`core.formats.load_any`, given ``special_tokens`` and
    ``pattern``), or a bare merge list (a ``train_bpe`` pickle or JSON list, or a merges.txt with no
    vocab.json beside it) made into a tokenizer: ids 0–255 the bytes, then the special tokens, then
    the merges in order."""
    from core.evaluation.student_merges import read_student_merges
    from core.formats import load_any
    from core.formats.spec import TokenizerSpec

    p = Path(path)

    def bare(merges: list[Pair]):
        specials: list[str] = []
        if isinstance(special_tokens, dict):  # TOKEN=ID: in the order of their ids
            specials = [t for t, _id in sorted(special_tokens.items(), key=lambda kv: kv[1])]
        elif special_tokens:
            specials = list(special_tokens)
        spec = TokenizerSpec.from_merges(merges, specials, pattern="gpt2" if pattern is None else pattern)
        what = "then the special tokens, " if specials else ""
        note = f"a bare merge list: ids 0-255 are the bytes, {what}then its merges in order"
        return replace(spec, notes=(note,))

    # (a JSON object {"merges": [...]} is load_any's: with the vocab in it or beside it, its ids)
    merges = None if _json_object(p) else read_student_merges(p)
    if merges is not None:
        return bare(merges)
    try:
        return load_any(p, special_tokens=special_tokens, pattern=pattern)
    except FormatError as e:
        if e.code != "gpt2_vocab_missing" or p.suffix != ".txt":
            raise
        return bare(read_merge_list(p))


def _json_object(p: Path) -> bool:
    """A ``.json`` file that holds an object (not a list): a tokenizer file or a merge list with keys."""
    if p.suffix.lower() != ".json" or not p.is_file():
        return False
    try:
        with open(p, "rb") as f:
            head = f.read(64).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError:
        return False
    return head.startswith(b"{")
