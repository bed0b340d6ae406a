"""Trace a token home: the merge that made it, the pair's count at that merge, how it was built,
and a few places in a corpus where the token occurs.

The count comes from the training record a native ``bpe.json`` keeps (per merge: its count); other
formats do not store it (``count`` is None then). Snippets are found by reading the corpus once, in
pieces of whole lines, and stops as soon as enough are found: a piece that does not contain the
token's bytes is skipped without encoding it; one that does is encoded and every place where the
encoding has the token becomes a snippet (a piece is encoded alone: at its first and last
pre-token the encoding of the whole text may differ, where whitespace runs across the cut).

>>> from core.formats.spec import TokenizerSpec
>>> from core.tokenization.tokenizer import Tokenizer
>>> tok = Tokenizer.from_spec(TokenizerSpec.from_merges([(b"a", b"b"), (b"ab", b"c")]))
>>> h = token_home(tok, b"abc")
>>> h.id, h.merge, h.pair, [(s.merge, s.pair) for s in h.built]
(257, 2, (b'ab', b'c'), [(1, (b'a', b'b')), (2, (b'ab', b'c'))])
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import BPEError, Cancelled, CorpusError, TokenizerError
from core.tokenization.tokenizer import Tokenizer

Pair = tuple[bytes, bytes]
Progress = Callable[[str, int, int], "bool | None"]
CONTEXT_BYTES = 40


@dataclass(frozen=True)
class BuildStep:
    merge: int  # merge number, from 1
    pair: Pair


@dataclass(frozen=True)
class Snippet:
    file: str
    byte_offset: int | None  # where the token starts in the file (None where a normalizer changed the text)
    before: bytes
    token: bytes
    after: bytes

    def marked(self, left: str = "[", right: str = "]") -> str:
        """The snippet as text with the token between ``left`` and ``right``."""

        def text(b: bytes) -> str:
            return b.decode("utf-8", "replace").replace("\n", "⏎")

        return f"{text(self.before)}{left}{text(self.token)}{right}{text(self.after)}"


@dataclass(frozen=True)
class TokenHome:
    id: int
    token: bytes
    is_special: bool
    merge: int | None  # the merge that made it, from 1 (None: a byte, a special or an unmade token)
    pair: Pair | None
    count: int | None  # the pair's count at that merge, when the file keeps a training record
    built: tuple[BuildStep, ...] = ()  # every merge that builds it, in merge order
    snippets: tuple[Snippet, ...] = field(default=())
    #: an added token the tokenizer.json marks "special": false (is_special is True for it too: whole
    #: in text, never merged)
    is_plain_added: bool = False

    def describe(self) -> str:
        """One English line on where the token comes from."""
        t = f"token {self.id} {shown(self.token)} ({len(self.token)} byte{'s' if len(self.token) != 1 else ''})"
        if self.is_plain_added:
            return f'{t}: an added token, not special ("special": false; not made by a merge)'
        if self.is_special:
            return f"{t}: a special token (added, not made by a merge)"
        if self.merge is None:
            return (
                f"{t}: a single byte" if len(self.token) == 1 else f"{t}: in the vocab, but no merge makes it"
            )
        count = f", counted {self.count:,} times at that merge" if self.count is not None else ""
        assert self.pair is not None
        return f"{t}: made by merge {self.merge:,} of {shown(self.pair[0])} + {shown(self.pair[1])}{count}"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "token": self.token.hex(),
            "is_special": self.is_special,
            "is_added_not_special": self.is_plain_added,
            "merge": self.merge,
            "pair": None if self.pair is None else [self.pair[0].hex(), self.pair[1].hex()],
            "count": self.count,
            "built": [{"merge": s.merge, "pair": [s.pair[0].hex(), s.pair[1].hex()]} for s in self.built],
            "snippets": [
                {
                    "file": s.file,
                    "byte_offset": s.byte_offset,
                    "before": s.before.hex(),
                    "token": s.token.hex(),
                    "after": s.after.hex(),
                    "text": s.marked(),
                }
                for s in self.snippets
            ],
        }


def shown(b: bytes) -> str:
    """A token as its text (quoted) where it is whole UTF-8, else as bytes."""
    try:
        return repr(b.decode("utf-8"))
    except UnicodeDecodeError:
        return repr(b)


def resolve_token(tok: Tokenizer, token: int | bytes | str) -> int:
    """The id of a token given as an id, its bytes or its text (a special token's text too)."""
    if isinstance(token, int):
        if token not in tok.vocab:
            raise TokenizerError(
                f"id {token} is not in this vocabulary (ids {min(tok.vocab)}..{max(tok.vocab)}); give a token id it has",
                code="token_id_unknown",
                id=token,
                hi=max(tok.vocab),
                lo=min(tok.vocab),
            )
        return token
    try:
        return tok.token_to_id(token)
    except TokenizerError:
        raise _not_a_token(tok, token) from None


def _not_a_token(tok: Tokenizer, token: bytes | str) -> TokenizerError:
    """The error for a text that is no token: with the tokens the tokenizer cuts it into, any of
    which can be traced (it said only "b'zzz' is not a token of this vocabulary")."""
    text = token if isinstance(token, str) else bytes(token).decode("utf-8", "surrogateescape")
    b = text.encode("utf-8", "surrogateescape")
    try:
        ids = tok.encode(text, add_special_tokens=False)
    except BPEError:
        ids = []
    if not ids:
        return TokenizerError(
            f"{shown(b)} is not a token of this vocabulary; give a token's text or its id",
            code="token_unknown",
            shown=shown(b),
        )
    parts = ", ".join(f"{i} {shown(tok.vocab[i])}" for i in ids[:8]) + (" …" if len(ids) > 8 else "")
    return TokenizerError(
        f"{shown(b)} is not a token of this vocabulary; this tokenizer cuts it into {len(ids)} "
        f"tokens ({parts}): trace one of them by its id or its text",
        code="token_unknown_parts",
        shown=shown(b),
        count=len(ids),
        parts=parts,
    )


def token_home(
    tok: Tokenizer,
    token: int | bytes | str,
    corpus: Iterable[str | os.PathLike] = (),
    *,
    snippets: int = 3,
    context: int = CONTEXT_BYTES,
    progress: Progress | None = None,
) -> TokenHome:
    """Where ``token`` (an id, its bytes or its text) comes from, with up to ``snippets`` places in
    the ``corpus`` files where the tokenizer's encoding has it. ``progress("search", done, total)``
    follows the reading (bytes); returning False raises :class:`core.Cancelled`."""
    tid = resolve_token(tok, token)
    b = tok.vocab[tid]
    special = tok.is_special(tid)
    rank = None if special else tok.token_rank(tid)
    pair = None if rank is None else tok.merges[rank]
    count = None
    counts = (tok.training or {}).get("counts") if rank is not None else None
    if counts and rank is not None and rank < len(counts) and counts[rank]:
        count = int(counts[rank])
    built = (
        tuple(BuildStep(r + 1, tok.merges[r]) for r in sorted(_ranks_building(tok, tid)))
        if rank is not None
        else ()
    )
    found: list[Snippet] = []
    if snippets > 0:
        for path in corpus:
            found.extend(_search(tok, tid, path, snippets - len(found), context, progress))
            if len(found) >= snippets:
                break
    return TokenHome(
        tid,
        b,
        special,
        None if rank is None else rank + 1,
        pair,
        count,
        built,
        tuple(found),
        tok.is_plain_added(tid),
    )


def _id_of(tok: Tokenizer, token: bytes) -> int | None:
    try:
        return tok.token_to_id(token)
    except TokenizerError:
        return None


def _ranks_building(tok: Tokenizer, tid: int) -> set[int]:
    """The ranks of every merge in the tree that builds token ``tid``."""
    out: set[int] = set()
    todo = [tid]
    while todo:
        i = todo.pop()
        r = tok.token_rank(i)
        if r is None or r in out:
            continue
        out.add(r)
        a, c = tok.merges[r]
        todo.extend(x for x in (_id_of(tok, a), _id_of(tok, c)) if x is not None)
    return out


def _whole_start(b: bytes) -> bytes:
    """``b`` from its first whole UTF-8 character (a context cut inside a character shows no "�")."""
    i = 0
    while i < min(len(b), 3) and b[i] & 0xC0 == 0x80:
        i += 1
    return b[i:]


def _whole_end(b: bytes) -> bytes:
    """``b`` up to its last whole UTF-8 character (bytes that are not UTF-8 at all are kept)."""
    for cut in range(min(len(b), 3) + 1):
        try:
            (b[: len(b) - cut] if cut else b).decode("utf-8")
        except UnicodeDecodeError:
            continue
        return b[: len(b) - cut] if cut else b
    return b


def _search(
    tok: Tokenizer, tid: int, path: str | os.PathLike, k: int, context: int, progress: Progress | None
) -> list[Snippet]:
    p = Path(path)
    if not p.is_file():
        from core.files import text_file_problem

        problem = text_file_problem(p, "corpus file")
        if problem is not None:
            raise problem
        raise CorpusError(
            f"corpus file {str(p)!r} does not exist or is not a file; check the path",
            code="corpus_not_regular",
            path=str(p),
        )
    total = p.stat().st_size
    needle = tok.vocab[tid]
    out: list[Snippet] = []
    base = 0
    with open(p, "rb") as f:
        while len(out) < k:
            lines = f.readlines(1 << 20)
            if not lines:
                break
            data = b"".join(lines)
            if needle in data:
                spans = tok.trace(data.decode("utf-8", "surrogateescape"))
                # (a normalizer may have changed the text: the tokens then spell the normalized text)
                spelled = b"".join(s.token for s in spans)
                exact = spelled == data
                for s in spans:
                    if s.id == tid:
                        lo, hi = s.byte_start, s.byte_end
                        out.append(
                            Snippet(
                                p.name,
                                base + lo if exact else None,
                                _whole_start(spelled[max(0, lo - context) : lo]),
                                spelled[lo:hi],
                                _whole_end(spelled[hi : hi + context]),
                            )
                        )
                        if len(out) >= k:
                            break
            base += len(data)
            if progress is not None and progress("search", base, total) is False:
                raise Cancelled("search cancelled")
    return out
