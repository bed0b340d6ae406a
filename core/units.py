"""Sizes in bytes as people read them: decimal units (1 kB = 1,000 bytes, 1 MB = 1,000,000), the
same in the app, the command line and the core's messages (a file of 8,000,000 bytes is "8.0 MB",
as file managers and disk makers say, not 7.6).

>>> size_text(223_874), size_text(8_000_000), size_text(999), size_text(1_500_000_000)
('223.9 kB', '8.0 MB', '999 B', '1.5 GB')
"""

from __future__ import annotations

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
