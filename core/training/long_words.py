"""Merging inside very long words, at a cost proportional to what a merge changes.

With ``pattern="none"`` a whole document is one word, and a 20 MB line of ``x`` is one word under
any pattern. Rewriting or recounting such a word at every merge costs its length per merge. A
:class:`LongWord` instead keeps the word as a doubly linked list of tokens over NumPy arrays (node
``k`` starts at token ``k`` of the word as it was first seen, and keeps its number while tokens
are merged into it) and, for every pair of token codes, the nodes where that pair starts. Those
position lists are lazy: a merge appends the positions of the pairs it makes and never removes
the ones it breaks, so a list may hold stale or repeated nodes, which are checked and dropped when
the list is read. A merge then reads one list and touches only its sites and their neighbours.

Node numbers follow the order of the tokens in the word, so sorting the sites of a pair gives the
left-to-right order in which overlapping sites (``a a a``) are merged, as ``str.replace`` does.

>>> w = LongWord("abab")
>>> m = w.plan(ord("a"), ord("b"), ord("Z"))
>>> m.sites.tolist(), sorted(m.deltas.items())
([0, 2], [((90, 90), 1), ((97, 98), -2), ((98, 97), -1)])
>>> u = w.apply(m); w.codes()
'ZZ'
>>> w.undo(u); w.codes()
'abab'
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

END = -1  # no neighbour (in ``nxt`` / ``prv``)
DEAD = -1  # the token code of a node merged into its left neighbour
CODE_BITS = 21  # token codes are below 0x110000 (they are characters)
POSITION_CHUNK = 1 << 20  # positions of a long word sorted at a time when its pair lists are built
Key = int  # a pair of token codes as one int: left << CODE_BITS | right


def pair_key(a: int, b: int) -> Key:
    return a << CODE_BITS | b


@dataclass(frozen=True)
class LongMerge:
    """What merging a pair in a long word changes (computed before anything is changed)."""

    a: int
    b: int
    ab: int
    sites: np.ndarray  # nodes whose token becomes ``ab``, left to right
    absorbed: np.ndarray  # the node right of each site, merged into it
    nexts: np.ndarray  # the node after each absorbed one (END at the end of the word)
    new_positions: dict[Key, np.ndarray]  # nodes where the pairs the merge makes start
    # pair-count changes of one occurrence of the word, the merged pair's own loss included
    deltas: dict[tuple[int, int], int]


@dataclass(frozen=True)
class LongUndo:
    """What :meth:`LongWord.undo` needs to take a merge back exactly (kept in the undo history:
    only the sites, 8 bytes per site)."""

    a: int
    b: int
    sites: np.ndarray
    absorbed: np.ndarray
    list_sizes: tuple[tuple[Key, int], ...]  # position lists' lengths before the merge appended


def _grouped(codes: np.ndarray, nodes: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """``nodes`` grouped by their ``codes``: [(code, nodes with that code, in order)]."""
    if not codes.size:
        return []
    order = np.argsort(codes, kind="stable")
    sc, sn = codes[order], nodes[order]
    edges = np.ones(sc.size + 1, dtype=bool)
    edges[1:-1] = sc[1:] != sc[:-1]
    bounds = np.flatnonzero(edges).tolist()
    return [(int(sc[lo]), sn[lo:hi]) for lo, hi in itertools.pairwise(bounds)]


def _counted(codes: np.ndarray) -> list[tuple[int, int]]:
    """(code, how often it occurs) for each distinct code."""
    if not codes.size:
        return []
    s = np.sort(codes)
    edges = np.ones(s.size + 1, dtype=bool)
    edges[1:-1] = s[1:] != s[:-1]
    bounds = np.flatnonzero(edges)
    return list(zip(s[bounds[:-1]].tolist(), np.diff(bounds).tolist()))


def _sorted_distinct(a: np.ndarray) -> np.ndarray:
    """The distinct values of ``a``, sorted (``np.unique`` hashes on NumPy 2.4: many times slower)."""
    if a.size < 2 or (a[1:] > a[:-1]).all():  # a list built once, or one chunk: already in order
        return a
    s = np.sort(a)
    keep = np.ones(s.size, dtype=bool)
    keep[1:] = s[1:] != s[:-1]
    return s[keep]


class LongWord:
    """One long word as a linked list of tokens with lazy per-pair position lists."""

    def __init__(self, codes: str) -> None:
        try:  # the word as first seen: one byte per token (a quarter of the memory of UTF-32)
            tok = np.frombuffer(codes.encode("latin-1"), dtype=np.uint8).astype(np.int32)
        except UnicodeEncodeError:
            tok = np.frombuffer(codes.encode("utf-32-le"), dtype=np.uint32).astype(np.int32)
        n = tok.size
        self.tok = tok  # token code of each node (DEAD once merged into its left neighbour)
        self.nxt = np.arange(1, n + 1, dtype=np.int32)
        self.prv = np.arange(-1, n - 1, dtype=np.int32)
        if n:
            self.nxt[-1] = END
        # pair key -> arrays of nodes where the pair starts (or started: stale entries are allowed)
        self.positions: dict[Key, list[np.ndarray]] = {}
        if n < 2:
            return
        small = int(tok.max()) < 256
        # a chunk of the word at a time: the sort's temporaries (8 bytes a position) stay those of
        # one chunk, not of the whole word (a 20 MB line took 160 MB more)
        for start in range(0, n - 1, POSITION_CHUNK):
            stop = min(n - 1, start + POSITION_CHUNK)
            left, right = tok[start:stop], tok[start + 1 : stop + 1]
            keys: np.ndarray
            if small:
                keys = left.astype(np.uint16)
                keys <<= 8
                keys |= right.astype(np.uint16)
            else:
                keys = (left.astype(np.int64) << CODE_BITS) | right
            # node k starts the pair at position k: sorting the positions by key groups the nodes
            order = np.argsort(keys, kind="stable").astype(np.int32)
            sk = keys[order]
            del keys
            order += start
            edges = np.ones(sk.size + 1, dtype=bool)
            edges[1:-1] = sk[1:] != sk[:-1]
            bounds = np.flatnonzero(edges).tolist()
            for lo, hi in itertools.pairwise(bounds):
                k = int(sk[lo])
                key = pair_key(k >> 8, k & 255) if small else k
                listed = self.positions.get(key)
                if listed is None:
                    self.positions[key] = [order[lo:hi]]
                else:
                    listed.append(order[lo:hi])

    def codes(self) -> str:
        """The word's current tokens, one character per token."""
        return _text(self.tok)

    def codes_before(self, undos: list[LongUndo]) -> str:
        """The tokens before the given merges (the latest first), without changing this word."""
        tok = self.tok.copy()
        for u in undos:
            tok[u.sites] = u.a
            tok[u.absorbed] = u.b
        return _text(tok)

    def _sites(self, a: int, b: int) -> tuple[np.ndarray, np.ndarray]:
        """The nodes where (a, b) starts now, sorted and distinct, with their right neighbours."""
        listed = self.positions.get(pair_key(a, b))
        if not listed:
            empty = np.empty(0, dtype=np.int32)
            return empty, empty
        nodes = listed[0] if len(listed) == 1 else np.concatenate(listed)
        tok, nxt = self.tok, self.nxt
        # (one temporary array at a time where it can be: on a 20 MB line each is 80 MB)
        nodes = nodes[tok[nodes] == a]
        right = nxt[nodes]
        ok = right != END
        right = right[ok]
        nodes = nodes[ok]
        ok = tok[right] == b
        del right
        nodes = _sorted_distinct(nodes[ok])
        del ok
        return nodes, nxt[nodes]

    def first_site(self, a: int, b: int) -> int:
        """The node where (a, b) first occurs now (-1 if it does not)."""
        nodes, _ = self._sites(a, b)
        return int(nodes[0]) if nodes.size else -1

    def plan(self, a: int, b: int, ab: int) -> LongMerge | None:
        """What merging (a, b) into ``ab`` changes, left to right; None when the pair is absent."""
        sites, absorbed = self._sites(a, b)
        if not sites.size:
            return None
        if a == b and sites.size > 1:
            # overlapping sites ("a a a"): in each chain of sites where one's right node starts the
            # next, keep every other one, from the left
            chained = _shifted_right(absorbed[:-1] == sites[1:])
            k = np.arange(sites.size, dtype=np.int32)
            run_first = np.where(chained, 0, k)
            del chained
            np.maximum.accumulate(run_first, out=run_first)
            k -= run_first
            del run_first
            keep = k % 2 == 0
            del k
            sites = sites[keep]
            absorbed = absorbed[keep]
            del keep
        tok = self.tok
        nexts = self.nxt[absorbed]
        lefts = self.prv[sites]
        adj_next = nexts[:-1] == sites[1:]  # the next site starts right after (absorbed[k] = lefts[k+1])
        adj_prev = _shifted_right(adj_next)  # the previous site ends right before
        adj_next = np.append(adj_next, False)
        has_right = nexts != END
        has_left = (lefts != END) & ~adj_prev
        new_right = has_right & ~adj_next
        x = tok[lefts[has_left]]
        y_all = tok[nexts[has_right]]
        y_new = tok[nexts[new_right]]
        deltas: dict[tuple[int, int], int] = {(a, b): -int(sites.size)}

        def add(pair: tuple[int, int], d: int) -> None:
            deltas[pair] = deltas.get(pair, 0) + d

        for code, n in _counted(y_all):
            add((b, code), -n)  # (b, y) is lost
        for code, n in _counted(x):
            add((code, a), -n)  # (x, a) is lost
            add((code, ab), n)  # (x, ab) is made
        for code, n in _counted(y_new):
            add((ab, code), n)  # (ab, y) is made
        n_adj = int(adj_prev.sum())
        if n_adj:
            add((ab, ab), n_adj)  # two adjacent sites make (ab, ab)
        new_positions: dict[Key, np.ndarray] = {}
        for code, nodes in _grouped(x, lefts[has_left]):
            new_positions[pair_key(code, ab)] = nodes
        for code, nodes in _grouped(y_new, sites[new_right]):
            key = pair_key(ab, code)
            old = new_positions.get(key)  # ab may be an existing token: (x, ab) can meet (ab, y)
            new_positions[key] = nodes if old is None else np.concatenate((old, nodes))
        if n_adj:
            key = pair_key(ab, ab)
            nodes = sites[:-1][adj_prev[1:]]  # (ab, ab) starts at the left one of two adjacent sites
            old = new_positions.get(key)
            new_positions[key] = nodes if old is None else np.concatenate((old, nodes))
        return LongMerge(
            a, b, ab, sites, absorbed, nexts, new_positions, {p: d for p, d in deltas.items() if d}
        )

    def apply(self, m: LongMerge, keep_undo: bool = True) -> LongUndo:
        """Make the merge ``m`` (from :meth:`plan` on the current state)."""
        tok, nxt, prv = self.tok, self.nxt, self.prv
        tok[m.sites] = m.ab
        tok[m.absorbed] = DEAD
        nxt[m.sites] = m.nexts
        has = m.nexts != END
        prv[m.nexts[has]] = m.sites[has]
        sizes = []
        positions = self.positions
        for key, nodes in m.new_positions.items():
            listed = positions.setdefault(key, [])
            sizes.append((key, len(listed)))
            listed.append(nodes)
        if not keep_undo:  # the merged pair is gone for good: free its list
            positions.pop(pair_key(m.a, m.b), None)
        return LongUndo(m.a, m.b, m.sites, m.absorbed, tuple(sizes))

    def undo(self, u: LongUndo) -> None:
        """Take back the last merge applied (merges are undone last-in first-out)."""
        tok, nxt, prv = self.tok, self.nxt, self.prv
        nexts = nxt[u.absorbed]  # an absorbed node keeps its links: its old right neighbour
        tok[u.sites] = u.a
        tok[u.absorbed] = u.b
        nxt[u.sites] = u.absorbed
        has = nexts != END
        prv[nexts[has]] = u.absorbed[has]
        positions = self.positions
        for key, size in u.list_sizes:
            if size:
                del positions[key][size:]
            else:
                del positions[key]


def _shifted_right(flags: np.ndarray) -> np.ndarray:
    """``[False, *flags]``."""
    out = np.zeros(flags.size + 1, dtype=bool)
    out[1:] = flags
    return out


def _text(tok: np.ndarray) -> str:
    return tok[tok != DEAD].astype(np.uint32).tobytes().decode("utf-32-le")
