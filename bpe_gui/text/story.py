"""The words of a merge's story: why a pair won, numbers, token code and glossary links as HTML."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QCoreApplication

from bpe_gui.model.formatting import token_label

translate = QCoreApplication.translate


def fill(template: str, *args) -> str:
    for i, a in enumerate(args, 1):
        template = template.replace(f"%{i}", str(a))
    return template


def code(token: bytes) -> str:
    return f"<code style='background:#eef1f7'>{escape(token_label(token))}</code>"


def term(term: str, label: str) -> str:
    return f"<a href='glossary:{term}'>{escape(label)}</a>"


def num(n: int) -> str:
    return f"{n:,}"


def why_text(rec, tie_break: str) -> str:
    """Why the pair won, in words (the tie rule named)."""
    if not rec.n_ties:
        return translate("Story", "No other pair was as frequent, so it was the clear winner.")
    rule = (
        translate(
            "Story",
            "the rule takes the lexicographically greatest pair compared as (bytes, bytes): the first "
            "tokens' bytes are compared first, the second tokens' only when the first are equal",
        )
        if tie_break == "lexicographic"
        else translate("Story", "the rule takes the pair that appears first in the text")
    )
    text = translate("Story", "%1 other pair(s) were just as frequent (a tie); %2.")
    if rec.n_ties == 1:  # English plurals (a translation has its own wording)
        text = text.replace("pair(s) were", "pair was")
    return fill(text.replace("pair(s)", "pairs"), num(rec.n_ties), rule)
