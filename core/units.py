"""Sizes and counts as people read them. Sizes in bytes: decimal units (1 kB = 1,000 bytes, 1 MB = 1,000,000), the
same in the app, the command line and the core's messages (a file of 8,000,000 bytes is "8.0 MB",
as file managers and disk makers say, not 7.6).

>>> size_text(223_874), size_text(8_000_000), size_text(999), size_text(1_500_000_000)
('223.9 kB', '8.0 MB', '999 B', '1.5 GB')

Counts: a message written with "(s)" after a count reads as English (:func:`plurals`):

>>> plurals("vocab_size must cover 256 bytes + 1 special token(s) = 257; 3 part(s)")
'vocab_size must cover 256 bytes + 1 special token = 257; 3 parts'
"""

from __future__ import annotations

import re

KILO = 1000
UNITS = ("B", "kB", "MB", "GB", "TB")


def size_text(n: int | float, digits: int = 1) -> str:
    """``n`` bytes in decimal units with ``digits`` decimals (whole bytes below 1 kB)."""
    size = float(n)
    for unit in UNITS:
        if abs(size) < KILO or unit == UNITS[-1]:
            return f"{int(size):,} {unit}" if unit == "B" else f"{size:,.{digits}f} {unit}"
        size /= KILO
    raise AssertionError("unreachable")  # pragma: no cover


# a count, then one to three words, the last of which carries "(s)"
_COUNTED = re.compile(r"(?<![\w.])(\d[\d,]*)((?:\s+[A-Za-z][\w-]*){1,3})\(s\)")


def plurals(text: str) -> str:
    """Each "(s)" that follows a count within three words becomes "" (the count is 1) or "s"; any
    other "(s)" (no count before it) is left as it is."""
    if "(s)" not in text:
        return text
    return _COUNTED.sub(lambda m: m[1] + m[2] + ("" if m[1] == "1" else "s"), text)
