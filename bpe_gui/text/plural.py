"""Plural forms of translated strings with a count (``%n``).

Strings are written for Qt's numerus translation: ``tr("%n merge(s)", "", n)``. A translation
(e.g. Chinese) gives its own forms; without one, Qt leaves the English "(s)", which
:func:`plural` resolves, so English reads "1 merge" and "2 merges". Qt writes the count without
digit grouping; :func:`plural` groups it like the rest of the app ("1,000").

>>> plural("1 merge(s)", 1), plural("Did 3 of 1000 merge(s)", 1000)
('1 merge', 'Did 3 of 1,000 merges')
"""

from __future__ import annotations

import re


def plural(text: str, n: int) -> str:
    """Resolve the English "(s)" of an untranslated numerus string and group the count's digits."""
    if abs(n) >= 1000:
        text = re.sub(rf"(?<![\d,.]){n}(?![\d,.])", f"{n:,}", text, count=1)
    return text.replace("(s)", "" if n == 1 else "s")
