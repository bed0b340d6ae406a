"""Export dialog: choose formats and a folder."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
)

from bpe_gui.model.files import FORMAT_LABELS
from bpe_gui.text import core as core_text


class ExportDialog(QDialog):
    def __init__(self, folder: str = "", parent=None, unavailable: dict[str, str] | None = None) -> None:
        """``unavailable``: formats that cannot hold the tokenizer at all, with the reason (shown
        unticked and off, the reason beside them: a SentencePiece model's GPT-2 and tiktoken files)."""
        super().__init__(parent)
        self.setWindowTitle(self.tr("Export tokenizer"))
        self.checks: dict[str, QCheckBox] = {}
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel(self.tr("<b>Formats</b>")))
        for key, label in FORMAT_LABELS.items():
            box = QCheckBox(QCoreApplication.translate("Files", label))
            why = (unavailable or {}).get(key)
            box.setChecked(why is None)
            box.setEnabled(why is None)
            box.toggled.connect(self._validate)
            self.checks[key] = box
            lay.addWidget(box)
            if why is not None:
                box.setToolTip(why)
                note = QLabel(why)
                note.setWordWrap(True)
                note.setStyleSheet("color: #667; margin-left: 22px")
                lay.addWidget(note)
        lay.addSpacing(8)
        lay.addWidget(
            QLabel(self.tr("<b>Folder</b> (created if needed; files there are replaced atomically)"))
        )
        row = QHBoxLayout()
        self.folder = QLineEdit(folder)
        self.folder.textChanged.connect(self._validate)
        browse = QPushButton(self.tr("Browse…"))
        browse.clicked.connect(self._browse)
        row.addWidget(self.folder, 1)
        row.addWidget(browse)
        lay.addLayout(row)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        self.resize(520, self.sizeHint().height())
        self._validate()

    def chosen_folder(self) -> Path:
        """The folder typed or picked: ``~`` expanded, and a relative path taken from the home
        folder (an app started from a menu has no meaningful working directory)."""
        p = Path(self.folder.text().strip()).expanduser()
        return p if p.is_absolute() else Path.home() / p

    def formats(self) -> list[str]:
        return [k for k, box in self.checks.items() if box.isChecked()]

    def _validate(self) -> None:
        ok = bool(self.formats()) and bool(self.folder.text().strip())
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(ok)

    def _browse(self) -> None:
        d = QFileDialog.getExistingDirectory(self, self.tr("Export to folder"), self.folder.text())
        if d:
            self.folder.setText(d)


def lossy_export_text(lost: dict[str, list[str]]) -> str:
    """The warning for formats that cannot hold part of the tokenizer (an imported pipeline, a pattern
    tiktoken reads otherwise, a special token that is not UTF-8): which, and what."""
    lines = [
        QCoreApplication.translate(
            "ExportDialog",
            "These formats cannot hold everything this tokenizer does, so the exported files would "
            "give different ids than it does:",
        )
    ]
    for fmt, what in lost.items():
        lines.append(
            f"\u2022 {QCoreApplication.translate('Files', FORMAT_LABELS.get(fmt, fmt))}: "
            f"{'; '.join(map(core_text.loss, what))}"
        )
    not_utf8 = any("whose bytes are not UTF-8" in x for what in lost.values() for x in what)
    if "hf" in lost or not_utf8:  # (a special token that is not UTF-8: only GPT-2 files and bpe.json hold it)
        lines.append(QCoreApplication.translate("ExportDialog", "The native bpe.json keeps all of it."))
    else:
        lines.append(
            QCoreApplication.translate(
                "ExportDialog", "Hugging Face tokenizer.json and the native bpe.json keep all of it."
            )
        )
    return "\n\n".join(lines)


def confirm_lossy_export(parent, lost: dict[str, list[str]]) -> bool:
    """Ask before writing formats that drop part of an imported pipeline; True to export anyway."""
    box = QMessageBox(
        QMessageBox.Icon.Warning,
        QCoreApplication.translate("ExportDialog", "Export loses part of the tokenizer"),
        lossy_export_text(lost),
        QMessageBox.StandardButton.Cancel,
        parent,
    )
    anyway = box.addButton(
        QCoreApplication.translate("ExportDialog", "Export anyway"), QMessageBox.ButtonRole.AcceptRole
    )
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is anyway


def confirm_replace(parent, folder: str, names: list[str]) -> bool:
    """Ask before an export replaces files in ``folder`` that no export of ours wrote (``names``:
    another tokenizer's files, or ours changed since); True to replace them."""
    box = QMessageBox(
        QMessageBox.Icon.Warning,
        QCoreApplication.translate("ExportDialog", "Replace files?"),
        QCoreApplication.translate(
            "ExportDialog",
            "The folder {0} already holds {1}, which BPE Explorer did not write there (another "
            "tokenizer's files, or changed since). Replace them?",
        ).format(folder, ", ".join(names)),
        QMessageBox.StandardButton.Cancel,
        parent,
    )
    replace = box.addButton(
        QCoreApplication.translate("ExportDialog", "Replace"), QMessageBox.ButtonRole.DestructiveRole
    )
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is replace
