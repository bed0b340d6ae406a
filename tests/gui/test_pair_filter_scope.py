"""The pair filter says that it searches the table's top pairs, not every pair of the corpus."""

from __future__ import annotations

from bpe_gui.views.pairs_view import PairsView


def test_the_filter_says_how_many_of_the_top_pairs_match(qtbot, loaded):
    """On a 107 MB corpus, "th" in the filter left 5 rows: they read as the pairs holding "th", where
    the filter had searched only the 100 pairs of the table (of about a million)."""
    view = loaded.findChild(PairsView)
    rows = len(view.model.rows)
    assert rows > 10
    assert "top 100" in view.filter.placeholderText()
    view.filter.setText("e")
    matching = view.proxy.rowCount()
    assert 0 < matching < rows
    assert f"matching: {matching} of the top {rows}" in view.title.text()
    assert "not every pair" in view.title.toolTip()
    view.filter.setText("")
    # (the filter's note goes; a title cut short in a narrow pane has its whole text as its tooltip)
    assert "top 100, live" in view.title.text() and "not every pair" not in view.title.toolTip()
