"""Plural forms of translated strings with a count (``%n``).

Strings are written for Qt's numerus translation: ``tr("%n merge(s)", "", n)``. A translation
(e.g. Chinese) gives its own forms; without one, Qt leaves the English "(s)", which
:func:`plural` resolves, so English reads "1 merge" and "2 merges".

>>> plural("1 merge(s)", 1), plural("3 merge(s)", 3)
('1 merge', '3 merges')
"""
from __future__ import annotations


def plural(text: str, n: int) -> str:
    """Resolve the English "(s)" of an untranslated numerus string for the count ``n``."""
    return text.replace("(s)", "" if n == 1 else "s")
