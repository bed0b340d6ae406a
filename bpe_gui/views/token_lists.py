"""Two lists for the vocab browser: the longest tokens of the current vocab, and the tokens never used
on the last evaluated text (filled by the Evaluate view). Clicking a token selects the merge that made
it (its tree for a byte)."""

from __future__ import annotations

import itertools

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QVBoxLayout

from bpe_gui.model.formatting import token_label

N_LONGEST = 50
MAX_UNUSED_SHOWN = 2000
REFRESH_MS = 300  # the longest list follows the merges, throttled


class TokenLists(QObject):
    def __init__(self, controller, choose, parent=None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.longest = QListWidget()
        self.unused = QListWidget()
        # the hint wraps in the list's width (as a list item it ran off the edge: "…to list the t")
        self.unused_hint = QLabel(
            self.tr(
                "Evaluate the current tokenizer on a text (Evaluate menu) to list the "
                "tokens it never used there"
            )
        )
        self.unused_hint.setWordWrap(True)
        self.unused_hint.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.unused_hint.setContentsMargins(4, 4, 4, 4)
        hint_lay = QVBoxLayout(self.unused.viewport())
        hint_lay.setContentsMargins(0, 0, 0, 0)
        hint_lay.addWidget(self.unused_hint)
        for w in (self.longest, self.unused):
            w.currentItemChanged.connect(lambda cur, _prev: self._clicked(cur, choose))
        self._timer = QTimer(self, singleShot=True, interval=REFRESH_MS)
        self._timer.timeout.connect(self.refresh_longest)
        for sig in (controller.merges_appended, controller.merges_removed):
            sig.connect(lambda _n: self._timer.start())
        controller.merges_reset.connect(self.refresh_longest)
        self.refresh_longest()

    def _clicked(self, item, choose) -> None:
        if item is not None and item.data(Qt.ItemDataRole.UserRole) is not None:
            choose(item.data(Qt.ItemDataRole.UserRole))

    @staticmethod
    def _item(token: bytes, text: str) -> QListWidgetItem:
        item = QListWidgetItem(text)
        item.setData(Qt.ItemDataRole.UserRole, token)
        return item

    def refresh_longest(self) -> None:
        ix = self.controller.index
        vocab, special = ix.vocab, ix.special_ids
        # longest first, then lowest id; only the tokens at least as long as the N-th longest are
        # sorted, found without a Python call per token (a large vocab would be slow to sort whole)
        lengths = list(map(len, vocab.values()))
        k = N_LONGEST + len(special)
        cut = sorted(lengths)[-k] if len(lengths) > k else 0
        candidates = itertools.compress(vocab, map(cut.__le__, lengths))
        ids = sorted((i for i in candidates if i not in special), key=lambda i: (-len(vocab[i]), i))
        self.longest.clear()
        for i in ids[:N_LONGEST]:
            tok = ix.vocab[i]
            self.longest.addItem(
                self._item(
                    tok,
                    self.tr("{label}  ({n} bytes, id {id})").format(
                        label=token_label(tok), n=f"{len(tok):,}", id=i
                    ),
                )
            )

    def set_unused(self, file: str, vocab: dict, counts) -> None:
        """List the tokens of ``vocab`` (id → bytes) whose ``counts[id]`` is 0 on ``file``."""
        never = [i for i in sorted(vocab) if counts[i] == 0]
        self.unused.clear()
        self.unused_hint.hide()
        head = QListWidgetItem(
            self.tr("{n} tokens never used on {file}").format(n=f"{len(never):,}", file=file)
        )
        self.unused.addItem(head)
        for i in never[:MAX_UNUSED_SHOWN]:
            self.unused.addItem(self._item(vocab[i], f"{token_label(vocab[i])}  (id {i})"))
        if len(never) > MAX_UNUSED_SHOWN:
            self.unused.addItem(self.tr("… and {n} more").format(n=f"{len(never) - MAX_UNUSED_SHOWN:,}"))
