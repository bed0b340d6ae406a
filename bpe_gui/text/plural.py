"""Plural forms of translated strings with a count (``%n``).

Strings are written for Qt's numerus translation: ``tr("%n merge(s)", "", n)``. A translation
(e.g. Chinese) gives its own forms; without one, Qt leaves the English "(s)", which
:func:`plural` resolves, so English reads "1 merge" and "2 merges". Qt writes the count without
digit grouping; :func:`plural` groups it like the rest of the app ("1,000").

>>> plural("1 merge(s)", 1), plural("Did 3 of 1000 merge(s)", 1000)
('1 merge', 'Did 3 of 1,000 merges')

A sentence filled with several counts (Learn's ``%1``, ``%2`` …) resolves each "(s)" by the count
just before it with :func:`plurals_by_count`:

>>> plurals_by_count("Done: 1 merge(s) and 0 special token(s); seen 2 time(s).")
'Done: 1 merge and 0 special tokens; seen 2 times.'
"""

from __future__ import annotations

import re

from core.units import plurals


def plural(text: str, n: int) -> str:
    """Resolve the English "(s)" of an untranslated numerus string and group the count's digits."""
    if abs(n) >= 1000:
        text = re.sub(rf"(?<![\d,.]){n}(?![\d,.])", f"{n:,}", text, count=1)
    return text.replace("(s)", "" if n == 1 else "s")


def plurals_by_count(text: str) -> str:
    """Each "(s)" that follows a count within three words becomes "" (the count is 1) or "s";
    a text without "(s)" (e.g. a translation) is returned as it is (:func:`core.units.plurals`)."""
    return plurals(text)
