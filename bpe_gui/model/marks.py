"""A marker for strings translated where they are shown (Qt's ``lupdate`` finds them by this name).

Plain Python and typed (PySide6's own ``QT_TRANSLATE_NOOP`` is typed as returning ``object``).
"""

from __future__ import annotations


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:
    """``text`` itself; ``lupdate`` lists it for translation in ``context``."""
    return text
