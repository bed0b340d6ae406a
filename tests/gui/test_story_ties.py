"""The story of a merge that won a tie names the tied pairs and the byte comparison that decided
it (where a student's own tie-break goes wrong), in English and Chinese."""

from __future__ import annotations

from bpe_gui.text import i18n
from bpe_gui.views.story_view import story_html
from core import Trainer


def _html_text(html: str) -> str:
    from PySide6.QtGui import QTextDocument

    doc = QTextDocument()
    doc.setHtml(html)
    return doc.toPlainText()


def test_the_tied_pairs_and_the_deciding_bytes_are_named(qapp):
    i18n.install("en")
    # " a"+"nd" against " "+"d": the first tokens differ, and " " (20) starts " a" (20 61)
    t = Trainer.from_text(b" and d and d")
    for pair in [(b" ", b"a"), (b"n", b"d")]:
        t.merge(pair)
    rec = t.step()
    assert rec.pair == (b" a", b"nd") and rec.ties == ((b" ", b"d"),)
    text = _html_text(story_html(rec, "lexicographic", None))
    assert "Tied with it: · + d." in text
    assert "its first token is greater as bytes: 20 61 > 20" in text
    assert "the longer one is greater" in text
    # same first token: the second tokens decide
    t = Trainer.from_text(b"ab ac")
    rec = t.step()
    assert rec.pair[0] == rec.ties[0][0]
    text = _html_text(story_html(rec, "lexicographic", None))
    assert f"the second tokens decide, as bytes: {rec.pair[1].hex()} > {rec.ties[0][1].hex()}" in text
    assert "longer one" not in text
    # the first-seen rule has no byte comparison to show
    assert "as bytes" not in _html_text(story_html(rec, "first", None))
    try:
        i18n.install("zh_CN")
        text = _html_text(story_html(rec, "lexicographic", None))
        assert "与之并列" in text and "由第二个词元按字节比较决定" in text
    finally:
        i18n.install("en")
