"""Column headers and their tooltips of the merges and vocab lists (translated where shown)."""

from __future__ import annotations

from bpe_gui.model.marks import QT_TRANSLATE_NOOP

MERGES_HEADERS = (
    QT_TRANSLATE_NOOP("BrowserView", "Merge"),
    "ID",
    QT_TRANSLATE_NOOP("BrowserView", "Left"),
    QT_TRANSLATE_NOOP("BrowserView", "Right"),
    QT_TRANSLATE_NOOP("BrowserView", "Token"),
    QT_TRANSLATE_NOOP("BrowserView", "Count"),
)
MERGES_TIPS = (
    QT_TRANSLATE_NOOP(
        "BrowserView", "Merge number: #1 is the first merge; encoding applies merges in this order"
    ),
    QT_TRANSLATE_NOOP("BrowserView", "The id of the token this merge made"),
    QT_TRANSLATE_NOOP("BrowserView", "The left token of the merged pair"),
    QT_TRANSLATE_NOOP("BrowserView", "The right token of the merged pair"),
    QT_TRANSLATE_NOOP("BrowserView", "The new token: left and right joined"),
    QT_TRANSLATE_NOOP("BrowserView", "How often the pair occurred when it was merged"),
)
VOCAB_HEADERS = (
    "ID",
    QT_TRANSLATE_NOOP("BrowserView", "Token"),
    QT_TRANSLATE_NOOP("BrowserView", "Bytes"),
    QT_TRANSLATE_NOOP("BrowserView", "Len"),
    QT_TRANSLATE_NOOP("BrowserView", "Origin"),
)
VOCAB_TIPS = (
    QT_TRANSLATE_NOOP("BrowserView", "The token's id: the number the model sees"),
    QT_TRANSLATE_NOOP(
        "BrowserView",
        "The token as text (visible spaces; \\xNN for bytes that are not whole UTF-8 characters)",
    ),
    QT_TRANSLATE_NOOP("BrowserView", "The token's bytes in hexadecimal"),
    QT_TRANSLATE_NOOP("BrowserView", "Length in bytes"),
    QT_TRANSLATE_NOOP(
        "BrowserView",
        "Where the token comes from: one of the 256 bytes, a special token, or the merge that made it",
    ),
)
