"""The glossary: the terms of BPE in plain words, shown in a dialog (links ``glossary:<term>``)."""
from __future__ import annotations

from html import escape

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout


def _t(text: str) -> str:
    return QCoreApplication.translate("Glossary", text)


def terms() -> list[tuple[str, str, str]]:
    """(key, term, definition) in reading order, in the app's language."""
    return [
        ("bpe", _t("BPE (byte-pair encoding)"),
         _t("A way to build a tokenizer: start from single bytes and, again and again, join the pair of "
            "neighbouring tokens that occurs most often into a new token.")),
        ("token", _t("Token"), _t("A piece of text the model sees as one unit; each has a number, its id.")),
        ("vocab", _t("Vocabulary"),
         _t("All tokens with their ids: the 256 bytes, the special tokens, then one token per merge.")),
        ("pair", _t("Byte pair"),
         _t("Two tokens standing next to each other. Their count is how often they stand together.")),
        ("merge", _t("Merge"),
         _t("Joining the most frequent pair into a new token. The list of merges, in order, is what training learns.")),
        ("pretoken", _t("Pre-token"),
         _t("A piece of text cut out by the pre-tokenizer regex before training, such as a word with its "
            "leading space. Merges never cross from one pre-token to the next.")),
        ("special", _t("Special token"),
         _t("A marker such as <|endoftext|> that is never split or merged and has its own id.")),
        ("tie", _t("Tie rule"),
         _t("What decides when several pairs are equally frequent. CS336 takes the lexicographically "
            "greatest pair (compared byte by byte); the lecture code takes the pair seen first.")),
        ("incremental", _t("Incremental update"),
         _t("After a merge, only the words containing the pair are looked at again: their old pairs are "
            "subtracted and their new pairs added, instead of counting everything from scratch.")),
        ("rank", _t("Rank"),
         _t("The position of a merge in the merge list. Encoding applies merges lowest rank first.")),
        ("utf8", _t("UTF-8 bytes"),
         _t("Text is stored as bytes (0 to 255); an English letter is one byte, a Chinese character three.")),
    ]


def glossary_html() -> str:
    return "".join(f"<h3><a name='{k}'></a>{escape(term)}</h3><p>{escape(text)}</p>" for k, term, text in terms())


def show_glossary(parent, term: str | None = None) -> QDialog:
    """Open the glossary (non-modal), scrolled to ``term``."""
    dlg = QDialog(parent)
    dlg.setWindowTitle(_t("Glossary"))
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
