"""Charts and merge trees of the Evaluate view (pyqtgraph; no state of their own)."""

from __future__ import annotations

import math
from html import escape
from pathlib import Path

import numpy as np
import pyqtgraph as pg

COLORS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c")


class CountAxis(pg.AxisItem):
    """An axis of counts that writes them out with thousands separators (10,500,000), not in
    pyqtgraph's scientific notation (1.05e+07), which a reader of token counts has to decode."""

    def tickStrings(self, values, scale, spacing):  # (pyqtgraph's name)
        if spacing * scale < 1 or max((abs(v * scale) for v in values), default=0) < 10_000:
            return super().tickStrings(values, scale, spacing)
        return [f"{round(v * scale):,}" for v in values]


def merge_tree(tok, token: bytes, depth: int = 64) -> tuple:
    """``(token, (left, right))`` down to single bytes, from a core Tokenizer's merges."""
    pair = tok.parts(tok.token_to_id(token)) if depth > 0 and len(token) > 1 else None
    if pair is None:
        return (token, ())
    return (token, (merge_tree(tok, pair[0], depth - 1), merge_tree(tok, pair[1], depth - 1)))


def short_name(label: str) -> str:
    """A file label for a chart axis: the file name, and the sample size of sampled documents.

    >>> short_name("/data/owt.txt [10 of 500 docs, seed 0]")
    'owt.txt (10 docs)'
    """
    base, _, rest = label.partition(" [")
    name = Path(base).name
    return f"{name} ({rest.split(' of ')[0]} docs)" if rest else name


def whole_step(most: int, ticks: int = 5) -> int:
    """A whole-number tick step for an axis of counts up to ``most`` (about ``ticks`` ticks).

    >>> whole_step(1), whole_step(3), whole_step(12), whole_step(1000)
    (1, 1, 5, 200)
    """
    raw = max(1, math.ceil(most / ticks))
    mag = 10 ** (len(str(raw)) - 1)
    for m in (1, 2, 5, 10):
        if raw <= m * mag:
            return m * mag
    return raw


def legend_html(names: list[str]) -> str:
    """The charts' legend, for a label above them (in the plot it covered the bars of a short chart):
    each tokenizer's colour, then its name; names never break inside, the line breaks between them.

    >>> legend_html(["a<b"])
    "<span style='color:#4c72b0'>■</span>&nbsp;a&lt;b"
    """
    items = []
    for k, name in enumerate(names):
        shown = escape(name).replace(" ", "&nbsp;")
        items.append(f"<span style='color:{COLORS[k % len(COLORS)]}'>■</span>&nbsp;{shown}")
    return " &nbsp; ".join(items)


def doc_bins(docs: list[int]) -> np.ndarray:
    """Bin edges shared by every tokenizer's histogram of tokens per document (each had its own: one
    document each, a whole file, made bins one token wide, invisible at 10,424,764 and 10,638,991 on an
    axis of 200,000 tokens, and the chart stood empty). A single value gets a bin 10% wide around it."""
    if not docs:
        return np.array([0.0, 1.0])
    lo, hi = float(min(docs)), float(max(docs))
    if lo == hi:
        half = max(0.5, 0.05 * lo)
        lo, hi = lo - half, hi + half
    return np.histogram_bin_edges(docs, bins=min(30, max(len(set(docs)), 1)), range=(lo, hi))


def draw_charts(bpt_plot, doc_plot, results: list) -> None:
    """Bars of bytes/token per tokenizer × text, and a histogram of tokens per document per tokenizer
    (in the colours of :func:`legend_html`; the legend is not drawn in the plots)."""
    bpt_plot.clear()
    doc_plot.clear()
    names = list(dict.fromkeys(r.tokenizer for r in results))
    files = list(dict.fromkeys(r.file for r in results))
    width = 0.8 / max(len(names), 1)
    most = 0  # the highest bar of the histogram (documents are counted in whole numbers)
    edges = doc_bins([d for r in results for d in r.doc_tokens])
    for k, name in enumerate(names):
        rows = [r for r in results if r.tokenizer == name]
        xs = [files.index(r.file) - 0.4 + width * (k + 0.5) for r in rows]
        bars = pg.BarGraphItem(
            x=xs, height=[r.bytes_per_token for r in rows], width=width * 0.9, brush=COLORS[k % len(COLORS)]
        )
        bpt_plot.addItem(bars)
        docs = [d for r in rows for d in r.doc_tokens]
        if docs:
            hist, _ = np.histogram(docs, bins=edges)
            most = max(most, int(hist.max()))
            doc_plot.plot(
                edges,
                hist,
                stepMode="center",
                fillLevel=0,
                fillOutline=True,
                brush=pg.mkBrush(COLORS[k % len(COLORS)] + "80"),
                name=name,
            )
    step = whole_step(most)
    doc_plot.getAxis("left").setTickSpacing(step, step)  # never "0.5 documents"
    bpt_plot.getAxis("bottom").setTicks([[(i, short_name(f)) for i, f in enumerate(files)]])
    top = max((r.bytes_per_token for r in results), default=1.0)
    bpt_plot.setYRange(0, top * 1.08, padding=0)
