"""The "What happened" panel: the selected merge told as a short story in plain words.

Built from a MergeRecord's fields (pair, count, ties, words_changed, occurrences_changed, deltas)
and a few changed words as examples. Terms link to the glossary (``glossary:<term>`` anchors).
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QLabel, QTextBrowser, QVBoxLayout, QWidget

from bpe_gui.dialogs.glossary import show_glossary
from bpe_gui.model.char_bytes import chars_holding, chars_of
from bpe_gui.model.formatting import token_label
from bpe_gui.text.story import code as _code
from bpe_gui.text.story import fill as _fill
from bpe_gui.text.story import num as _num
from bpe_gui.text.story import term as _term
from bpe_gui.text.story import why_text

EXAMPLES = 4
DELTAS_SHOWN = 6


translate = QCoreApplication.translate


def _times_in(pair, word: tuple) -> int:
    """How many times ``pair`` stands in ``word`` (a tuple of tokens), overlapping ones included."""
    return sum((word[i], word[i + 1]) == tuple(pair) for i in range(len(word) - 1))


def _example(pair, word: bytes, before: tuple, n: int) -> str:
    """A changed word with how often it occurs, and how often the pair stands in it when more than once."""
    text = f"<code>{escape(token_label(word))}</code> ×{_num(n)}"
    k = _times_in(pair, tuple(before)) if before else 0
    if k > 1:
        text += " " + _fill(translate("Story", "(the pair %1 times in it)"), k)
    return text


def _chars_line(token: bytes, examples: list | None) -> str:
    """The characters outside ASCII a token holds, over their bytes (我 = e6|88|91); for a token that
    is a piece of a character, the character it is a piece of (found in a changed word)."""
    if all(b < 0x80 for b in token):
        return ""
    try:
        whole = chars_of(token.decode("utf-8"))
    except UnicodeDecodeError:
        # the characters it is a piece of in every example word (one word named one character, as if
        # it were the only one: "交" for e4 ba, which in the sample corpus is mostly a piece of 了 and 人)
        holders = list(dict.fromkeys(h for w, *_ in examples or () for h in chars_holding(token, w)))
        if not holders:
            return escape(translate("Story", "This token is a piece of a character outside ASCII."))
        return escape(
            _fill(
                translate(
                    "Story", "This token is a piece of a character outside ASCII (in the examples below: %1)."
                ),
                ", ".join(holders),
            )
        )
    return escape(_fill(translate("Story", "In bytes: %1."), ", ".join(whole)))


def status_line(rec, tie_break: str) -> str:
    """One line for the status bar after a step."""
    a, b = rec.pair
    text = _fill(
        translate("Story", "Merge #%1: %2 + %3 → %4 (id %5), seen %6 time(s) in %7 distinct word(s)."),
        _num(rec.rank + 1),
        token_label(a),
        token_label(b),
        token_label(rec.token),
        rec.new_id,
        _num(rec.count),
        _num(rec.words_changed),
    )
    return _plurals(text, rec)


def _plurals(text: str, rec) -> str:
    """English plurals of the count and word numbers (a translation has its own wording)."""
    one = rec.count == 1
    return (
        text.replace("time(s)", "time" if one else "times")
        .replace("token(s)", "token" if one else "tokens")  # (tokens saved: one per occurrence)
        .replace("word(s)", "word" if rec.words_changed == 1 else "words")
        .replace("occurrence(s)", "occurrence" if rec.occurrences_changed == 1 else "occurrences")
    )


TIES_SHOWN = 5


def _hex(token: bytes) -> str:
    return f"<code>{token.hex(' ')}</code>"


def _tied_with(rec, tie_break: str) -> str:
    """The pairs tied with the winner, named, and (greatest-pair rule) the byte comparison that
    put the winner above the first of them: where a trainer's own tie-break goes wrong."""
    shown = ", ".join(f"{_code(p[0])} + {_code(p[1])}" for p in rec.ties[:TIES_SHOWN])
    if rec.n_ties > TIES_SHOWN:
        shown += " …"
    text = _fill(translate("Story", "Tied with it: %1."), shown)
    if tie_break != "lexicographic":
        return text
    (a, b), (c, d) = rec.pair, rec.ties[0]
    if a != c:
        why = translate("Story", "It comes before %1 because its first token is greater as bytes: %2 > %3.")
        text += " " + _fill(why, f"{_code(c)} + {_code(d)}", _hex(a), _hex(c))
        big, small = a, c
    else:
        why = translate(
            "Story",
            "It comes before %1: the first tokens are the same, so the second tokens decide, as bytes: "
            "%2 > %3.",
        )
        text += " " + _fill(why, f"{_code(c)} + {_code(d)}", _hex(b), _hex(d))
        big, small = b, d
    if big.startswith(small):
        text += " " + translate("Story", "(Where one starts with the other, the longer one is greater.)")
    return text


def story_html(rec, tie_break: str, examples: list | None) -> str:
    """The story of one merge as HTML (``examples``: (word, before, after, count) tuples or None)."""
    a, b = rec.pair
    pair = f"{_code(a)} + {_code(b)}"
    out = [f"<p style='font-size:13pt'>{pair} → {_code(rec.token)}</p>"]
    chars = _chars_line(rec.token, examples)
    if chars:
        out.append(f"<p>{chars}</p>")
    new_token = (
        "<p>"
        + _fill(
            translate(
                "Story",
                "<b>The new token.</b> %1 joins the %2 with id <b>%3</b>; from now on the "
                "two parts are written as one token wherever they meet.",
            ),
            _code(rec.token),
            _term("vocab", translate("Story", "vocabulary")),
            rec.new_id,
        )
        + "</p>"
    )
    if not rec.count:  # an imported file's merge: no counts, no words, no reason recorded
        out.append(
            "<p>"
            + _fill(
                translate(
                    "Story",
                    "This is merge #%1 of an imported tokenizer. Its file lists the "
                    "merges in order but not how often each pair occurred in the text it "
                    "was trained on, so there are no counts, changed words or reasons to "
                    "show; train on a corpus (or open a bpe.json with its training record) "
                    "to see them.",
                ),
                _num(rec.rank + 1),
            )
            + "</p>"
        )
        out.append(new_token)
        return "".join(out)
    out.append(
        "<p>"
        + _fill(
            _plurals(
                translate(
                    "Story",
                    "<b>The pair.</b> The two tokens %1 stood side by side %2 time(s) in the corpus, in %3 "
                    "distinct word(s) (%4).",
                ),
                rec,
            ),
            pair,
            f"<b>{_num(rec.count)}</b>",
            f"<b>{_num(rec.words_changed)}</b>",
            _term("pretoken", translate("Story", "pre-tokens")),
        )
        + "</p>"
    )
    if examples:
        words = ", ".join(_example(rec.pair, w, before, n) for w, before, _af, n in examples[:EXAMPLES])
        out.append(
            "<p>"
            + _fill(
                translate("Story", "For example (word ×how often it occurs): %1."),
                words,
            )
            + "</p>"
        )
    out.append(
        "<p>"
        + _fill(
            translate("Story", "<b>Why it won.</b> It was the most frequent %1. %2"),
            _term("pair", translate("Story", "byte pair")),
            escape(why_text(rec, tie_break)),
        )
    )
    if rec.ties:
        out.append(" " + _tied_with(rec, tie_break))
    if rec.n_ties:
        out.append(" " + _term("tie", translate("Story", "What is a tie rule?")))
    out.append("</p>")
    out.append(new_token)
    down = [(p, d) for p, d in rec.deltas if d < 0 and p != rec.pair]
    up = [(p, d) for p, d in rec.deltas if d > 0]
    out.append(
        "<p>"
        + _fill(
            _plurals(
                translate(
                    "Story",
                    "<b>What changed.</b> %1 distinct word(s) changed, which occur %2 time(s) in the "
                    "corpus. Only these words were touched: that is the %3.",
                ).replace("time(s)", "time" if rec.occurrences_changed == 1 else "times"),
                rec,
            ),
            _num(rec.words_changed),
            _num(rec.occurrences_changed),
            _term("incremental", translate("Story", "incremental update")),
        )
        + "</p>"
    )
    if rec.count > rec.occurrences_changed > 0:
        out.append(
            "<p>"
            + _fill(
                translate(
                    "Story",
                    "The pair stood %1 time(s) but the words holding it occur %2 time(s): some words "
                    "hold the pair more than once (the pair count counts each place, the word count "
                    "each word).",
                ),
                _num(rec.count),
                _num(rec.occurrences_changed),
            )
            .replace("time(s)", "times", 1)  # (English plurals: the pair count is above 1 here)
            .replace("time(s)", "time" if rec.occurrences_changed == 1 else "times")
            + "</p>"
        )
    if down:
        items = ", ".join(f"{_code(p[0])} + {_code(p[1])} −{_num(-d)}" for p, d in down[:DELTAS_SHOWN])
        out.append(
            "<p>"
            + _fill(
                translate("Story", "Pair counts that went down (their neighbour was merged away): %1."), items
            )
            + "</p>"
        )
    if up:
        items = ", ".join(f"{_code(p[0])} + {_code(p[1])} +{_num(d)}" for p, d in up[:DELTAS_SHOWN])
        out.append(
            "<p>"
            + _fill(translate("Story", "New pairs that appeared with the new token: %1."), items)
            + "</p>"
        )
    if not rec.deltas:
        out.append(
            "<p style='color:#667'>"
            + translate(
                "Story",
                "(Pair count changes are not known for this merge: Step keeps them, one whole training "
                "run does not.)",
            )
            + "</p>"
        )
    out.append(
        "<p>"
        + _fill(
            _plurals(
                translate(
                    "Story",
                    "<b>Compression.</b> Each merged occurrence saves one token: the corpus "
                    "becomes up to %1 token(s) shorter, and the %2 grows by one.",
                ),
                rec,
            ),
            _num(rec.count),
            _term("vocab", translate("Story", "vocabulary")),
        )
        + "</p>"
    )
    return "".join(out)


class StoryView(QWidget):
    """Shows the story of the selected merge; links open the glossary."""

    def __init__(self, controller, parent=None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)
        self.browser.setObjectName("story")
        # paragraphs a third of a line apart, not a whole line: a merge's nine paragraphs lost ~100 px
        # to their margins in a pane ~150 px tall on a laptop
        self.browser.document().setDefaultStyleSheet("p { margin-top: 0px; margin-bottom: 5px; }")
        self.browser.anchorClicked.connect(self._link)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        self.title = QLabel("<b>" + self.tr("What happened") + "</b>")
        lay.addWidget(self.title)
        lay.addWidget(self.browser)
        controller.merge_selected.connect(self.show_merge)
        controller.stepped.connect(self._show_latest)
        controller.trained.connect(self._after_run)
        controller.merges_removed.connect(self._after_removal)
        controller.selection_cleared.connect(lambda: self._after_removal(0))
        controller.merges_reset.connect(self.clear)
        self.clear()

    def clear(self) -> None:
        self.browser.setHtml(
            "<p style='color:#667'>"
            + self.tr("Do a step or select a merge: this panel tells what it did, in plain words.")
            + "</p>"
        )

    def show_merge(self, rank: int) -> None:
        c = self.controller
        rec = c.record_with_deltas(rank)
        if rec is None:
            self.browser.setHtml(
                "<p style='color:#667'>"
                + self.tr("This merge was imported: only training records how and why a merge happened.")
                + "</p>"
            )
            return
        self.browser.setHtml(story_html(rec, c.tie_break, c.changed_words(rank, limit=EXAMPLES)))

    def _show_latest(self, records) -> None:
        """After a step: the story of the latest merge (until another one is selected)."""
        if records:
            self.show_merge(records[-1].rank)

    def _after_run(self, summary) -> None:
        """After Train (finished or cancelled): the story of the latest merge when the run made any
        (it stayed on the merge shown before the run, long gone from the end of the list)."""
        left = self.controller.index.n_merges
        if summary.n_merges and left:
            self.show_merge(left - 1)

    def _after_removal(self, _n: int) -> None:
        """After an undo, a rewind or Back to now: the story of the merge that is now the latest (none
        left: the hint)."""
        left = self.controller.index.n_merges
        if left:
            self.show_merge(left - 1)
        else:
            self.clear()

    def _link(self, url) -> None:
        s = url.toString()
        if s.startswith("glossary:"):
            show_glossary(self, s.split(":", 1)[1])
