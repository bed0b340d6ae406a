"""A light, calm look: Fusion style, a soft palette and a small stylesheet."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette

STYLESHEET = """
QMainWindow, QWidget#central { background: #f4f6fa; }
QGroupBox {
    background: #ffffff; border: 1px solid #dde2ec; border-radius: 8px;
    margin-top: 14px; padding: 10px 8px 8px 8px; font-weight: 600;
}
QGroupBox::title { subcontrol-origin: margin; left: 10px; padding: 0 4px; color: #2b3550; }
QGroupBox QLabel, QGroupBox QCheckBox { font-weight: normal; }
QFrame#card { background: #ffffff; border: 1px solid #dde2ec; border-radius: 8px; }
QPushButton {
    background: #ffffff; border: 1px solid #c9d0de; border-radius: 6px; padding: 5px 10px; color: #1f2a44;
}
QPushButton:hover { background: #eef3ff; border-color: #9db4e8; }
QPushButton:pressed { background: #dfe8fb; }
QPushButton:disabled { color: #a3aabb; background: #f3f4f7; border-color: #e0e3ea; }
QPushButton#primary { background: #3b6fd8; color: white; border-color: #2f5fc4; font-weight: 600; }
QPushButton#primary:hover { background: #3363c6; }
QPushButton#primary:disabled { background: #aabde6; border-color: #aabde6; }
QPushButton#accent { background: #1f9d6b; color: white; border-color: #1a8a5e; font-weight: 600; }
QPushButton#accent:hover { background: #1b8c5f; }
QPushButton#accent:disabled { background: #a6d8c3; border-color: #a6d8c3; }
QLineEdit, QPlainTextEdit, QTextEdit, QTextBrowser {
    background: #ffffff; border: 1px solid #cfd5e2; border-radius: 5px; padding: 3px 5px;
    selection-background-color: #b9cdf5; selection-color: #111;
}
QLineEdit:focus, QPlainTextEdit:focus { border-color: #3b6fd8; }
QTableView, QTreeWidget {
    background: #ffffff; border: 1px solid #dde2ec; border-radius: 6px;
    selection-background-color: #cddcfb; selection-color: #111; gridline-color: #eef0f5;
}
QHeaderView::section {
    background: #f0f2f7; border: none; border-bottom: 1px solid #dde2ec; padding: 4px 6px;
    color: #4a5470; font-weight: 600;
}
QTabWidget::pane { border: none; }
QTabBar::tab {
    background: #e9edf5; border: 1px solid #dde2ec; padding: 4px 14px; margin-right: 2px;
    border-top-left-radius: 6px; border-top-right-radius: 6px; color: #4a5470;
}
QTabBar::tab:selected { background: #ffffff; color: #1f2a44; font-weight: 600; }
QProgressBar {
    border: 1px solid #cfd5e2; border-radius: 5px; background: #ffffff; text-align: center; height: 18px;
}
QProgressBar::chunk { background: #a9c2f7; border-radius: 4px; }
QLabel#status { color: #3c4660; }
QLabel#notes { color: #8a5a00; }
QLabel#nextMerge { background: #fff8e1; border: 1px solid #f3dfa2; border-radius: 6px; padding: 6px; }
QLabel#hoverInfo { color: #2b3550; background: #eef2fb; border-radius: 5px; padding: 4px 6px; }
QLabel#tokenStats { color: #3c4660; }
QLabel#chartLegend { background: #ffffff; padding: 2px 6px; }
QSplitter::handle { background: #e3e7ef; }
QSplitter::handle:horizontal { width: 4px; }
QSplitter::handle:vertical { height: 4px; }
QStatusBar { background: #eaeef5; color: #3c4660; }
"""


DISABLED_TEXT = "#a3aabb"  # (what a disabled button shows, in the stylesheet)


def apply(app) -> None:
    """Apply the look to a QApplication (Fusion style, light palette, stylesheet)."""
    app.setStyle("Fusion")
    pal = QPalette()
    pal.setColor(QPalette.ColorRole.Window, QColor("#f4f6fa"))
    pal.setColor(QPalette.ColorRole.Base, QColor("#ffffff"))
    pal.setColor(QPalette.ColorRole.AlternateBase, QColor("#f6f8fc"))
    pal.setColor(QPalette.ColorRole.Text, QColor("#1b1f2a"))
    pal.setColor(QPalette.ColorRole.WindowText, QColor("#1b1f2a"))
    pal.setColor(QPalette.ColorRole.Button, QColor("#ffffff"))
    pal.setColor(QPalette.ColorRole.ButtonText, QColor("#1f2a44"))
    pal.setColor(QPalette.ColorRole.Highlight, QColor("#3b6fd8"))
    pal.setColor(QPalette.ColorRole.HighlightedText, QColor("#ffffff"))
    pal.setColor(QPalette.ColorRole.ToolTipBase, QColor("#ffffff"))
    pal.setColor(QPalette.ColorRole.ToolTipText, QColor("#1b1f2a"))
    # (a colour set without a group is set for every group, the disabled one too: a greyed-out
    # menu item or label would look as enabled as the rest, and a click on it do nothing)
    disabled = QPalette.ColorGroup.Disabled
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        pal.setColor(disabled, role, QColor(DISABLED_TEXT))
    pal.setColor(disabled, QPalette.ColorRole.Light, QColor("#ffffff"))  # (Fusion's etched shadow)
    app.setPalette(pal)
    app.setStyleSheet(STYLESHEET)
