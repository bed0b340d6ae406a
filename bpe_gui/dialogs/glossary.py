"""The glossary: the terms of BPE in plain words, shown in a dialog (links ``glossary:<term>``)."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout

translate = QCoreApplication.translate


def terms() -> list[tuple[str, str, str]]:
    """(key, term, definition) in reading order, in the app's language."""
    return [
        (
            "bpe",
            translate("Glossary", "BPE (byte-pair encoding)"),
            translate(
                "Glossary",
                "A way to build a tokenizer: start from single bytes and, again and again, join the pair of "
                "neighbouring tokens that occurs most often into a new token.",
            ),
        ),
        (
            "token",
            translate("Glossary", "Token"),
            translate("Glossary", "A piece of text the model sees as one unit; each has a number, its id."),
        ),
        (
            "vocab",
            translate("Glossary", "Vocabulary"),
            translate(
                "Glossary",
                "All tokens with their ids: the 256 bytes, the special tokens, then one token per merge.",
            ),
        ),
        (
            "pair",
            translate("Glossary", "Byte pair"),
            translate(
                "Glossary",
                "Two tokens standing next to each other. Their count is how often they stand together.",
            ),
        ),
        (
            "merge",
            translate("Glossary", "Merge"),
            translate(
                "Glossary",
                "Joining the most frequent pair into a new token. The list of merges, in order, is what training learns.",
            ),
        ),
        (
            "pretoken",
            translate("Glossary", "Pre-token"),
            translate(
                "Glossary",
                "A piece of text cut out by the pre-tokenizer regex before training, such as a word with its "
                "leading space. Merges never cross from one pre-token to the next.",
            ),
        ),
        (
            "special",
            translate("Glossary", "Special token"),
            translate(
                "Glossary", "A marker such as <|endoftext|> that is never split or merged and has its own id."
            ),
        ),
        (
            "tie",
            translate("Glossary", "Tie rule"),
            translate(
                "Glossary",
                "What decides when several pairs are equally frequent. CS336 takes the lexicographically "
                "greatest pair (compared byte by byte); the lecture code takes the pair seen first.",
            ),
        ),
        (
            "incremental",
            translate("Glossary", "Incremental update"),
            translate(
                "Glossary",
                "After a merge, only the words containing the pair are looked at again: their old pairs are "
                "subtracted and their new pairs added, instead of counting everything from scratch.",
            ),
        ),
        (
            "rank",
            translate("Glossary", "Rank"),
            translate(
                "Glossary",
                "The position of a merge in the merge list. Encoding applies merges lowest rank first.",
            ),
        ),
        (
            "utf8",
            translate("Glossary", "UTF-8 bytes"),
            translate(
                "Glossary",
                "Text is stored as bytes (0 to 255); an English letter is one byte, a Chinese character three.",
            ),
        ),
    ]


def glossary_html() -> str:
    return "".join(
        f"<h3><a name='{k}'></a>{escape(term)}</h3><p>{escape(text)}</p>" for k, term, text in terms()
    )


def show_glossary(parent, term: str | None = None) -> QDialog:
    """Open the glossary (non-modal), scrolled to ``term``."""
    dlg = QDialog(parent)
    dlg.setWindowTitle(translate("Glossary", "Glossary"))
    view = QTextBrowser(dlg)
    view.setHtml(glossary_html())
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dlg)
    buttons.rejected.connect(dlg.close)
    lay = QVBoxLayout(dlg)
    lay.addWidget(view)
    lay.addWidget(buttons)
    dlg.resize(560, 520)
    dlg.show()
    if term:
        view.scrollToAnchor(term)
    dlg.setObjectName("glossary")
    return dlg
