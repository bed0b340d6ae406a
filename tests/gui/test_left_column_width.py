"""The left column widens with what its panels show: a large corpus's numbers were cut off."""

from __future__ import annotations

from types import SimpleNamespace


def test_a_large_corpus_numbers_are_not_cut_off_on_the_right(qtbot, window):
    """After a 107 MB corpus, the corpus panel showed "Pre-tokens 18,723,1" and the training panel
    "≈ 786 M": the column was as wide as its panels were with "–" in every value, and its content,
    now wider, ran under the right edge (no horizontal scroll bar)."""
    w = window
    stats = SimpleNamespace(
        name="big_0.1gb_seed0.txt",
        size_bytes=106_856_649,
        pretokens=18_723_195,
        distinct_pretokens=992_350,
        invalid_bytes=0,
        special_occurrences=3_212,
        notes=[],
    )
    w.corpus_panel.show_stats(stats)
    scroll = w.left_scroll
    content = scroll.widget()
    value = w.corpus_panel.values["Pre-tokens"]
    # the layout has run: the value has its width, or the content grew past the column
    qtbot.waitUntil(
        lambda: value.width() >= value.sizeHint().width() or content.width() > scroll.viewport().width()
    )
    assert content.width() <= scroll.viewport().width()
    right = value.mapTo(scroll.viewport(), value.rect().topRight()).x()
    assert value.width() >= value.sizeHint().width()
    assert right <= scroll.viewport().width()
