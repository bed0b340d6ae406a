"""A disabled menu item, label or button text looks disabled (the theme's palette)."""

from __future__ import annotations

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from bpe_gui.views import theme


def test_disabled_text_is_greyed_in_every_role_a_menu_or_label_draws_with(qapp):
    old_palette, old_sheet = QApplication.palette(), qapp.styleSheet()
    try:
        theme.apply(qapp)
        pal = QApplication.palette()
        for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
            active = pal.color(QPalette.ColorGroup.Active, role)
            disabled = pal.color(QPalette.ColorGroup.Disabled, role)
            assert disabled != active, role
            assert disabled.lightness() > active.lightness() + 80, role  # clearly paler on the light theme
    finally:
        qapp.setPalette(old_palette)
        qapp.setStyleSheet(old_sheet)
