"""The mouse wheel over a spin box or combo box in a scrolling panel scrolls the panel; it changes the
setting only once the input has focus (three notches over Vocab size turned 1,000 into 1,768)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QWidget


def _wheel(widget: QWidget, notches: int = -3) -> None:
    pos = QPointF(widget.rect().center())
    event = QWheelEvent(
        pos,
        QPointF(widget.mapToGlobal(pos.toPoint())),
        QPoint(0, 0),
        QPoint(0, 120 * notches),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(widget, event)


def test_the_wheel_scrolls_the_left_column_over_its_settings(qtbot, window):
    window.resize(1280, 500)  # short: the left column scrolls
    qtbot.waitUntil(lambda: window.left_scroll.verticalScrollBar().maximum() > 0)
    panel = window.training_panel
    bar = window.left_scroll.verticalScrollBar()
    bar.setValue(bar.maximum())
    for box in (panel.vocab_size, panel.step_n, panel.pattern, panel.tie):
        assert box.focusPolicy() == Qt.FocusPolicy.StrongFocus, box  # the wheel does not focus it
        before = box.value() if hasattr(box, "value") else box.currentIndex()
        at = bar.value()
        _wheel(box, +3)  # scrolling up over it
        after = box.value() if hasattr(box, "value") else box.currentIndex()
        assert after == before, box
        assert bar.value() < at, box  # the column scrolled instead
        bar.setValue(bar.maximum())
    # once it has focus (a click or Tab), the wheel changes the setting as before
    panel.vocab_size.setFocus()
    qtbot.waitUntil(panel.vocab_size.hasFocus)
    before = panel.vocab_size.value()
    _wheel(panel.vocab_size, +1)
    assert panel.vocab_size.value() != before


def test_the_wheel_scrolls_the_evaluate_body_over_its_settings(qtbot, window):
    from PySide6.QtWidgets import QAbstractSpinBox, QComboBox

    ev = window.evaluate
    inputs = ev.body_scroll.widget().findChildren(QAbstractSpinBox) + ev.body_scroll.widget().findChildren(
        QComboBox
    )
    assert inputs
    for box in inputs:
        assert box.focusPolicy() == Qt.FocusPolicy.StrongFocus, box
    sample = ev.sample
    before = sample.value()
    _wheel(sample, -3)
    assert sample.value() == before
