"""Plain-Python helpers of the GUI: readable bytes, the vocab index, span colours, the Qt guard."""

from __future__ import annotations

import itertools
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bpe_gui import qtcompat
from bpe_gui.model.formatting import (
    human_bytes,
    parse_special_tokens,
    search_text,
    split_utf8,
    token_label,
)
from bpe_gui.model.state import VocabIndex
from bpe_gui.views.tokenize_view import span_colors
from core import Trainer


def test_token_label_whitespace_and_partial_utf8():
    assert token_label(b" the") == "·the"
    assert token_label(b"\n\t") == "↵→"
    assert token_label(b" x", markers=False) == " x"
    assert token_label("é".encode()[:1]) == "\\xc3"
    assert token_label("café".encode()) == "café"
    assert token_label(b"a\x00") == "a\\0"
    assert token_label(b"\xe2\x80") == "\\xe2\\x80"


@given(st.binary(max_size=40))
def test_split_utf8_is_lossless(data):
    runs = split_utf8(data)
    assert b"".join(r for _, r in runs) == data
    for ok, run in runs:
        if ok:
            run.decode("utf-8")


def test_search_text_matches_text_label_and_hex():
    s = search_text(b" the")
    assert " the" in s and "·the" in s and "20 74 68 65" in s


def test_special_tokens_line():
    assert parse_special_tokens(" <|endoftext|>\t[PAD]  ") == ["<|endoftext|>", "[PAD]"]
    assert parse_special_tokens('"<|end of turn|>" <s>') == ["<|end of turn|>", "<s>"]
    assert parse_special_tokens('say"what <a"b>') == ['say"what', '<a"b>']  # inner quotes are plain text
    assert parse_special_tokens("") == []
    with pytest.raises(ValueError, match="not closed"):
        parse_special_tokens('<s> "<|end of')


def test_human_bytes():
    assert human_bytes(10) == "10 B"
    # decimal units, labelled as such: 8,000,000 bytes said "7.6 MB", 223,874 "218.6 KB"
    assert human_bytes(1500) == "1.5 kB"
    assert human_bytes(8_000_000) == "8.0 MB"
    assert human_bytes(223_874) == "223.9 kB"
    assert human_bytes(40 * 1000 * 1000) == "40.0 MB"


@given(st.lists(st.integers(min_value=0, max_value=100_000), max_size=200))
def test_neighbouring_spans_never_share_a_colour(ids):
    colors = span_colors(ids)
    assert len(colors) == len(ids)
    assert all(a != b for a, b in itertools.pairwise(colors))


def test_vocab_index_follows_the_trainer():
    t = Trainer.from_text("low lower lowest newer newest " * 5, ["<|endoftext|>"])
    ix = VocabIndex.base(t.special_tokens)
    for r in t.steps(8):
        assert ix.append(r.pair, r.count) == r.new_id
    assert ix.vocab == t.vocab
    assert ix.is_special(256) and not ix.is_special(257)
    tok = t.records[-1].token
    tree = ix.tree(tok)
    assert tree[0] == tok

    def leaves(node):
        token, children = node
        return [token] if not children else [x for c in children for x in leaves(c)]

    assert b"".join(leaves(tree)) == tok and all(len(x) == 1 for x in leaves(tree))
    info = ix.pop()
    t.undo()
    assert info.rank == 7 and ix.vocab == t.vocab and ix.n_merges == 7


def test_vocab_index_with_foreign_ids():
    vocab = {i: bytes([i]) for i in range(256)}
    vocab[300] = b"ab"
    vocab[299] = b"<s>"
    ix = VocabIndex(vocab, [(b"a", b"b")], [7], ["<s>"])
    assert ix.merges[0].token_id == 300 and ix.merges[0].count == 7
    assert ix.id_at(len(ix) - 1) == 300 and ix.row_of_id(300) == len(ix) - 1
    assert ix.is_special(299) and ix.has_counts


_MORTAL_NONE = sys.version_info < (3, 12) and sys.implementation.name == "cpython"


def test_qt_guard_is_active_exactly_where_this_pyside_drops_references():
    """With the installed PySide: the guard is on if and only if a void call or an emit loses a
    reference (PySide6 6.12.0 on Python < 3.12), and then None and True can no longer reach zero."""
    lost = qtcompat.leaks()
    needed = _MORTAL_NONE and any(n > 0 for n in lost.values())
    assert qtcompat.install() is needed
    if needed:
        assert sys.getrefcount(None) > qtcompat.PIN // 2 and sys.getrefcount(True) > qtcompat.PIN // 2
    else:
        assert sys.getrefcount(None) < qtcompat.PIN // 2  # nothing was pinned


@pytest.mark.skipif(not _MORTAL_NONE, reason="None and True are immortal from Python 3.12 on: nothing to pin")
@pytest.mark.parametrize("lost", [0, 3])
def test_qt_guard_pins_none_true_and_false_only_when_references_are_lost(monkeypatch, lost):
    """Both branches of the guard, whatever PySide is installed (its measurement is replaced)."""
    monkeypatch.setattr(qtcompat, "_done", False)
    monkeypatch.setattr(qtcompat, "leaks", lambda: {"None": lost, "True": 0})
    before = {obj: sys.getrefcount(obj) for obj in (None, True, False)}
    active = qtcompat.install()
    added = {obj: sys.getrefcount(obj) - n for obj, n in before.items()}
    if active:  # take the pin back: the rest of the session sees the real PySide's state
        for obj in before:
            qtcompat._add_refs(obj, -qtcompat.PIN)
    assert active is (lost > 0)
    for obj, n in added.items():  # pinned: what Python 3.12 does (effectively immortal)
        assert abs(n - (qtcompat.PIN if lost else 0)) < 10_000, obj


def test_timeline_ticks_and_binning():
    import numpy as np

    from bpe_gui.views.timeline_view import count_label, decade_ticks, length_ticks

    major, minor = decade_ticks(1.95, 4.05)
    assert [label for _, label in major] == ["100", "1k", "10k"]
    assert all(label == "" for _, label in minor) and len(minor) == 17  # 9·10¹ … 9·10³
    assert count_label(3_000_000) == "3M"
    lengths = np.array([2, 3, 2, 5] * 10_000)
    xs, ys = length_ticks(lengths, max_columns=100)
    assert len(xs) == len(ys) and len(xs) <= 2 * 100 * 4  # bounded by columns × distinct lengths
    assert set(np.round((ys[0::2] + ys[1::2]) / 2).astype(int)) == {2, 3, 5}


def test_summaries_say_what_happened():
    from bpe_gui.text.summary import summarize_run

    assert summarize_run(0, 257, 1000, 0, 1, False, 0.0).message.startswith("No merges")
    assert summarize_run(0, 900, 500, 643, 1, False, 0.0).message.startswith("Nothing to do")
    assert summarize_run(5, 262, 1000, 5, 1, True, 0.0).message.startswith("Cancelled after 5 merges")
    assert "no pair is left" in summarize_run(5, 262, 1000, 5, 1, False, 0.0).message


def test_import_bpe_gui_does_not_load_qt():
    import subprocess
    import sys

    code = "import sys, bpe_gui; assert 'PySide6' not in sys.modules, sorted(sys.modules)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr


def test_a_lost_reference_is_told_from_another_threads_noise():
    """The bug loses one reference a call in every round; a drop in one round only (another thread
    letting go of the object meanwhile) is not taken for it."""
    obj = object()
    keep = [obj] * 200  # (references enough that the drops below never free it)
    calls = iter(range(10**6))

    def leaking() -> None:
        next(calls)
        qtcompat._add_refs(obj, -1)

    assert qtcompat._refcount_lost(leaking, obj, n=16) == (16, 48)
    qtcompat._add_refs(obj, 48)

    def noisy() -> None:  # 20 references dropped at once in the first round only
        if next(calls) == 10**5:
            qtcompat._add_refs(obj, -20)

    calls = iter(range(10**5, 10**6))
    assert qtcompat._refcount_lost(noisy, obj, n=16) == (0, 20)
    qtcompat._add_refs(obj, 20)
    assert len(keep) == 200
