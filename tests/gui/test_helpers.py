"""Plain-Python helpers of the GUI: readable bytes, the vocab index, span colours, the Qt guard."""
from __future__ import annotations

import itertools
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bpe_gui import qtcompat
from bpe_gui.formatting import (
    human_bytes,
    parse_special_tokens,
    search_text,
    split_utf8,
    token_label,
)
from bpe_gui.state import VocabIndex
from bpe_gui.tokenize_view import span_colors
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
    assert human_bytes(1536) == "1.5 KB"
    assert human_bytes(40 * 1024 * 1024) == "40.0 MB"


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


def test_qt_guard_leaves_no_leak():
    qtcompat.install()
    if sys.version_info < (3, 12):
        from PySide6.QtCore import QObject

        o = QObject()
        before = sys.getrefcount(None)
        for _ in range(100):
            o.setObjectName("x")
        assert sys.getrefcount(None) > 1000  # never near zero, whatever PySide does
        assert abs(sys.getrefcount(None) - before) <= 100


def test_timeline_ticks_and_binning():
    import numpy as np

    from bpe_gui.timeline_view import count_label, decade_ticks, length_ticks

    major, minor = decade_ticks(1.95, 4.05)
    assert [label for _, label in major] == ["100", "1k", "10k"]
    assert all(label == "" for _, label in minor) and len(minor) == 17  # 9·10¹ … 9·10³
    assert count_label(3_000_000) == "3M"
    lengths = np.array([2, 3, 2, 5] * 10_000)
    xs, ys = length_ticks(lengths, max_columns=100)
    assert len(xs) == len(ys) and len(xs) <= 2 * 100 * 4  # bounded by columns × distinct lengths
    assert set(np.round((ys[0::2] + ys[1::2]) / 2).astype(int)) == {2, 3, 5}


def test_summaries_say_what_happened():
    from bpe_gui.session import summarize_run

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
