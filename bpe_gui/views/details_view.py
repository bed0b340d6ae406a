"""Details of the selected merge: pair, count, why it won, and the words it changed."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QThread
from PySide6.QtWidgets import QLabel, QTextBrowser, QVBoxLayout, QWidget

from bpe_gui.jobs import worker
from bpe_gui.jobs.snippets import SnippetJob
from bpe_gui.model.formatting import hex_html, token_label
from bpe_gui.views.story_view import why_text

EXAMPLES = 8


def _code(token: bytes) -> str:
    return f"<code style='background:#eef1f7'>{escape(token_label(token))}</code>"


def _word(tokens: tuple[bytes, ...]) -> str:
    return "<span style='color:#98a'>|</span>".join(escape(token_label(t)) for t in tokens)


def _plain(b: bytes) -> str:
    """Snippet bytes as one line of text (line breaks shown as ⏎)."""
    return b.decode("utf-8", "replace").replace("\r", "").replace("\n", "⏎")


class DetailsView(QWidget):
    def __init__(self, controller, parent=None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)
        self.browser.setObjectName("details")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        self.title = QLabel(self.tr("<b>Selected merge</b>"))
        lay.addWidget(self.title)
        lay.addWidget(self.browser)
        controller.merge_selected.connect(self.show_merge)
        controller.merges_reset.connect(self.clear)
        controller.selection_cleared.connect(self.clear)
        controller.merges_removed.connect(self._removed)
        controller.busy_changed.connect(self._busy_changed)
        # corpus snippets of a merge's token, found on request (the link under the examples)
        self._snippets: dict[tuple[int, bytes], str] = {}
        self._snip_job: SnippetJob | None = None
        self._snip_thread: QThread | None = None
        self.browser.anchorClicked.connect(self._link)
        controller.merges_reset.connect(self._snippets.clear)
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
            f"<p style='font-size:13pt'>{_code(a)} + {_code(b)} → {_code(m.token)}</p>",
            self.tr(
                "<p>merge <b>#{0}</b> · token id <b>{1}</b> · {2} bytes "
                "<span style='color:#667'>({3})</span></p>"
            ).format(f"{rank + 1:,}", m.token_id, len(m.token), hex_html(m.token)),
        ]
        if m.count:
            html.append(self.tr("<p>count when merged: <b>{0}</b></p>").format(f"{m.count:,}"))
        if rec is not None and rec.count <= 0:
            # a tokenizer file with no counts (imported): nothing is known of why this pair came next
            rec = None
            html.append(
                self.tr(
                    "<p style='color:#667'>This file records no counts, so why this pair was merged at "
                    "this point is not known; train on a corpus to see the counts.</p>"
                )
            )
        if rec is not None:
            html.append(self.tr("<p>why: {0}</p>").format(escape(why_text(rec, c.tie_break))))
            if rec.ties:
                shown = ", ".join(f"{_code(p[0])} + {_code(p[1])}" for p in rec.ties[:6])
                more = self.tr(" and {0} more").format(f"{rec.n_ties - 6:,}") if rec.n_ties > 6 else ""
                html.append(self.tr("<p style='color:#556'>tied with: {0}{1}</p>").format(shown, more))
            # the words (distinct, and how often they occur) and the pair's places in them: "84 words
            # (84 occurrences)" under "count 123" read as a contradiction
            words = self.tr("distinct word") if rec.words_changed == 1 else self.tr("distinct words")
            times = self.tr("time") if rec.occurrences_changed == 1 else self.tr("times")
            line = self.tr("changed <b>{0}</b> {1}, which occur <b>{2}</b> {3} in the corpus").format(
                f"{rec.words_changed:,}", words, f"{rec.occurrences_changed:,}", times
            )
            if rec.count > rec.occurrences_changed > 0:
                line += self.tr("; some hold the pair more than once: <b>{0}</b> places in all").format(
                    f"{rec.count:,}"
                )
            html.append(f"<p>{line}</p>")
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
        html.append(self._snippet_html(rank, m.token))
        self.browser.setHtml("".join(html))

    # ------------------------------------------------------------------ where the token occurs
    def _snippet_html(self, rank: int, token: bytes) -> str:
        c = self.controller
        found = self._snippets.get((rank, token))
        if found is not None:
            return found
        if c.corpus_path is None or c.model.imported is not None:
            return ""
        if self._snip_job is not None and self._snip_job.rank == rank:
            return self.tr("<p style='color:#667'><i>Looking for it in the corpus …</i></p>")
        return self.tr("<p><a href='snippets'>Show where this token occurs in the corpus</a></p>")

    def _link(self, url) -> None:
        if url.toString() == "snippets":
            self.find_snippets()

    def find_snippets(self) -> bool:
        """Look for the selected merge's token in the corpus, in a worker (False when it cannot start)."""
        c = self.controller
        rank = self.rank
        if (
            rank is None
            or self._snip_job is not None
            or c.corpus_path is None
            or not 0 <= rank < c.index.n_merges
        ):
            return False
        tok = c.cached_tokenizer()
        args = None if tok is not None else c.tokenizer_args()[1:]
        self._snip_job = SnippetJob(tok, args, c.index.merges[rank].token, str(c.corpus_path), rank)
        self._snip_thread = worker.start(self._snip_job, self._snippets_found)
        self.show_merge(rank)
        return True

    def _snippets_found(self) -> None:
        job, thread = self._snip_job, self._snip_thread
        if job is None:
            return
        worker.join(thread)
        self._snip_job = self._snip_thread = None
        res = job.result
        if res.crash is not None:
            worker.report_crash(res.crash)
        token = job.token
        if res.error is not None:
            text = f"<p style='color:#a33'>{escape(res.error_message or '')}</p>"
        elif res.value is None:
            text = ""
        elif not res.value.snippets:
            text = self.tr(
                "<p style='color:#667'>The tokenizer does not make this token anywhere in the corpus.</p>"
            )
        else:
            rows = []
            for sn in res.value.snippets:
                where = (
                    self.tr("byte {0}").format(f"{sn.byte_offset:,}") if sn.byte_offset is not None else ""
                )
                rows.append(
                    f"<tr><td style='color:#667'>{escape(where)}&nbsp;</td><td><code>"
                    f"{escape(_plain(sn.before))}<b style='background:#ffe08a'>{escape(_plain(sn.token))}</b>"
                    f"{escape(_plain(sn.after))}</code></td></tr>"
                )
            text = self.tr("<p><b>Where it occurs</b> (the first places in the corpus)</p>") + (
                f"<table cellspacing='2'>{''.join(rows)}</table>"
            )
        if text:
            self._snippets[(job.rank, token)] = text
        if self.rank is not None and not self.controller.busy:
            self.show_merge(self.rank)
