"""Details of the selected merge: pair, count, why it won, and the words it changed."""

from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QLabel, QTextBrowser, QVBoxLayout, QWidget

from bpe_gui.model.formatting import hex_html, token_label
from bpe_gui.views.story_view import why_text

EXAMPLES = 8


def _code(token: bytes) -> str:
    return f"<code style='background:#eef1f7'>{escape(token_label(token))}</code>"


def _word(tokens: tuple[bytes, ...]) -> str:
    return "<span style='color:#98a'>|</span>".join(escape(token_label(t)) for t in tokens)


class DetailsView(QWidget):
    def __init__(self, controller, parent=None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)
        self.browser.setObjectName("details")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addWidget(QLabel(self.tr("<b>Selected merge</b>")))
        lay.addWidget(self.browser)
        controller.merge_selected.connect(self.show_merge)
        controller.merges_reset.connect(self.clear)
        controller.merges_removed.connect(self._removed)
        controller.busy_changed.connect(self._busy_changed)
        self.clear()

    @property
    def rank(self) -> int | None:
        """The merge shown: the controller's selected one."""
        return self.controller.selected_merge

    def clear(self) -> None:
        self.browser.setHtml(
            self.tr(
                "<p style='color:#667'>Click a point of the timeline or a row of the merges "
                "list to see what that merge did.</p>"
            )
        )

    def _removed(self, _n: int) -> None:
        if self.rank is None:
            self.clear()
        elif not self.controller.busy:
            self.show_merge(self.rank)

    def _busy_changed(self, busy: str) -> None:
        if not busy and self.rank is not None:
            self.show_merge(self.rank)

    def show_merge(self, rank: int) -> None:
        c = self.controller
        ix = c.index
        if not 0 <= rank < ix.n_merges:
            return
        m = ix.merges[rank]
        rec = c.record(rank)
        a, b = m.pair
        html = [
            f"<p style='font-size:15pt'>{_code(a)} + {_code(b)} → {_code(m.token)}</p>",
            self.tr(
                "<p>merge <b>#{0}</b> · token id <b>{1}</b> · {2} bytes "
                "<span style='color:#667'>({3})</span></p>"
            ).format(rank + 1, m.token_id, len(m.token), hex_html(m.token)),
        ]
        if m.count:
            html.append(self.tr("<p>count when merged: <b>{0}</b></p>").format(f"{m.count:,}"))
        if rec is not None:
            html.append(self.tr("<p>why: {0}</p>").format(escape(why_text(rec, c.tie_break))))
            if rec.ties:
                shown = ", ".join(f"{_code(p[0])} + {_code(p[1])}" for p in rec.ties[:6])
                more = self.tr(" and {0} more").format(f"{rec.n_ties - 6:,}") if rec.n_ties > 6 else ""
                html.append(self.tr("<p style='color:#556'>tied with: {0}{1}</p>").format(shown, more))
            words = self.tr("distinct word") if rec.words_changed == 1 else self.tr("distinct words")
            times = self.tr("occurrence") if rec.occurrences_changed == 1 else self.tr("occurrences")
            html.append(
                self.tr("<p>changed <b>{0}</b> {1} (<b>{2}</b> {3})</p>").format(
                    f"{rec.words_changed:,}", words, f"{rec.occurrences_changed:,}", times
                )
            )
        examples = c.changed_words(rank, limit=EXAMPLES)
        if examples is None:
            html.append(self.tr("<p style='color:#667'><i>Examples appear when the run is over.</i></p>"))
        elif examples:
            rows = "".join(
                f"<tr><td align='right' style='color:#667'>{n:,}×&nbsp;</td>"
                f"<td><code>{_word(before)}</code> → <code>{_word(after)}</code></td></tr>"
                for _w, before, after, n in examples
            )
            html.append(
                self.tr("<p><b>Examples</b> (before → tokens now)</p>")
                + f"<table cellspacing='2'>{rows}</table>"
            )
        self.browser.setHtml("".join(html))
