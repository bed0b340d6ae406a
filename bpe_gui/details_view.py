"""Details of the selected merge: pair, count, why it won, and the words it changed."""
from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QLabel, QTextBrowser, QVBoxLayout, QWidget

from .formatting import hex_html, token_label

EXAMPLES = 8


def _code(token: bytes) -> str:
    return f"<code style='background:#eef1f7'>{escape(token_label(token))}</code>"


def _word(tokens: tuple[bytes, ...]) -> str:
    return "<span style='color:#98a'>|</span>".join(escape(token_label(t)) for t in tokens)


class DetailsView(QWidget):
    def __init__(self, controller, parent=None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.rank: int | None = None
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)
        self.browser.setObjectName("details")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addWidget(QLabel("<b>Selected merge</b>"))
        lay.addWidget(self.browser)
        controller.merge_selected.connect(self.show_merge)
        controller.merges_reset.connect(self.clear)
        controller.merges_removed.connect(self._removed)
        controller.busy_changed.connect(self._busy_changed)
        self.clear()

    def clear(self) -> None:
        self.rank = None
        self.browser.setHtml("<p style='color:#667'>Click a point of the timeline or a row of the merges "
                             "list to see what that merge did.</p>")

    def _removed(self, _n: int) -> None:
        if self.rank is not None and self.rank >= self.controller.index.n_merges:
            self.clear()

    def _busy_changed(self, busy: str) -> None:
        if not busy and self.rank is not None:
            self.show_merge(self.rank)

    def show_merge(self, rank: int) -> None:
        c = self.controller
        ix = c.index
        if not 0 <= rank < ix.n_merges:
            return
        self.rank = rank
        m = ix.merges[rank]
        rec = c.record(rank)
        a, b = m.pair
        html = [f"<p style='font-size:15pt'>{_code(a)} + {_code(b)} → {_code(m.token)}</p>",
                f"<p>merge <b>#{rank + 1}</b> · token id <b>{m.token_id}</b> · {len(m.token)} bytes "
                f"<span style='color:#667'>({hex_html(m.token)})</span></p>"]
        if m.count:
            html.append(f"<p>count when merged: <b>{m.count:,}</b></p>")
        if rec is not None:
            html.append(f"<p>why: {escape(rec.why(c.tie_break))}</p>")
            if rec.ties:
                shown = ", ".join(f"{_code(p[0])} + {_code(p[1])}" for p in rec.ties[:6])
                more = f" and {rec.n_ties - 6:,} more" if rec.n_ties > 6 else ""
                html.append(f"<p style='color:#556'>tied with: {shown}{more}</p>")
            words = "distinct word" if rec.words_changed == 1 else "distinct words"
            times = "occurrence" if rec.occurrences_changed == 1 else "occurrences"
            html.append(f"<p>changed <b>{rec.words_changed:,}</b> {words} "
                        f"(<b>{rec.occurrences_changed:,}</b> {times})</p>")
        examples = c.changed_words(rank, limit=EXAMPLES)
        if examples is None:
            html.append("<p style='color:#667'><i>Examples appear when the run is over.</i></p>")
        elif examples:
            rows = "".join(
                f"<tr><td align='right' style='color:#667'>{n:,}×&nbsp;</td>"
                f"<td><code>{_word(before)}</code> → <code>{_word(after)}</code></td></tr>"
                for _w, before, after, n in examples)
            html.append(f"<p><b>Examples</b> (before → tokens now)</p><table cellspacing='2'>{rows}</table>")
        self.browser.setHtml("".join(html))
