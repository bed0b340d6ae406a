"""Qt's own strings that the Qt translations shipped with PySide6 leave in English or word oddly,
translated in the app's own file, and the plain name of a menu action (its mnemonic taken out).

Qt 6's file dialog says "&Look in:" and "Files of &type:", but ``qtbase_zh_CN.qm`` only has the
older "Look in:" and "Files of type:", so they stayed English. The arrow keys read "右方向" ("right
direction") there; the shortcut table says "→ 右方向键" instead. :func:`bpe_gui.i18n.install` installs
the app's translator after Qt's, so these entries win.
"""

from __future__ import annotations

import re

from bpe_gui.model.marks import QT_TRANSLATE_NOOP

#: (context, source) pairs lupdate collects into the app's .ts (looked up by Qt itself at run time)
QT_STRINGS = (
    QT_TRANSLATE_NOOP("QFileDialog", "&Look in:"),
    QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"),
    QT_TRANSLATE_NOOP("QShortcut", "Right"),
    QT_TRANSLATE_NOOP("QShortcut", "Left"),
    QT_TRANSLATE_NOOP("QShortcut", "Up"),
    QT_TRANSLATE_NOOP("QShortcut", "Down"),
)

_MNEMONIC = re.compile(r"\s*\(&[^)]\)")  # a Chinese menu text's "(&S)"


def plain_action_text(text: str) -> str:
    """A menu action's text without its mnemonic: ``"&Save session…"`` → ``"Save session"``,
    ``"保存会话(&S)…"`` → ``"保存会话"``.

    >>> plain_action_text("保存会话(&S)…"), plain_action_text("R&eset (0 merges)")
    ('保存会话', 'Reset (0 merges)')
    """
    return _MNEMONIC.sub("", text).replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…").strip()
