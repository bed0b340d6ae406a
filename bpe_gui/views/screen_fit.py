"""Keep windows and panels on the screen (a 1366×768 or 1280×720 laptop included).

* :func:`free_area` is the screen's free area (without task bars), the one place the screen is asked
  (tests replace it with a laptop's).
* :func:`fit_size` makes a wanted size small enough for that area, frame and title bar included.
* :func:`place_on_screen` sizes a top-level window to fit and moves it inside the free area.
* :class:`DockFit` keeps a dock from growing the main window: the dock takes a share of the window's
  height; where the window's views leave it too little (a laptop) it opens floated, as a window of
  its own on the screen (docked again by the user, its content scrolls); the window gets its size
  back when the dock closes.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget
from shiboken6 import isValid

FRAME_WIDTH = 16  # the window manager's frame, left and right
FRAME_HEIGHT = 48  # its title bar and bottom edge
SMALLEST = QSize(640, 400)


def free_area(widget: QWidget) -> QRect:
    """The free area (without task bars) of the screen ``widget`` is on."""
    screen = widget.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry()


def fit_size(widget: QWidget, width: int, height: int) -> QSize:
    """``width`` × ``height``, made smaller to fit the free area of ``widget``'s screen."""
    free = free_area(widget)
    width = min(width, free.width() - FRAME_WIDTH)
    height = min(height, free.height() - FRAME_HEIGHT)
    return QSize(max(width, SMALLEST.width()), max(height, SMALLEST.height()))


def place_on_screen(window: QWidget, width: int, height: int, over: QWidget | None = None) -> None:
    """Size the top-level ``window`` to fit the screen and move it inside it (centred on ``over``)."""
    size = fit_size(over or window, width, height)
    window.resize(size)
    free = free_area(over or window)
    centre = (over.frameGeometry() if over is not None else free).center()
    x = centre.x() - (size.width() + FRAME_WIDTH) // 2
    y = centre.y() - (size.height() + FRAME_HEIGHT) // 2
    x = max(free.left(), min(x, free.right() + 1 - size.width() - FRAME_WIDTH))
    y = max(free.top(), min(y, free.bottom() + 1 - size.height() - FRAME_HEIGHT))
    window.move(x, y)


class DockFit(QObject):
    """Opens ``dock`` inside ``window`` without growing it past the screen (see the module's notes)."""

    fitted = Signal()  # the dock was fitted in (docked) or placed on the screen (floated)

    SHARE = 0.5  # of the window's inner height a docked panel takes when it opens
    MIN_DOCKED = 260  # less room than this below the window's views (a laptop): the panel opens floated
    FLOAT_SIZE = (1100, 640)  # a floated panel's size, where the screen has room

    def __init__(self, window: QMainWindow, dock: QDockWidget) -> None:
        super().__init__(window)
        self.window, self.dock = window, dock
        self.size_before: QSize | None = None  # the window's size before the dock opened
        self.user_docked = False  # the user docked the floated panel: it stays docked, scrolling
        self._switching = False
        dock.visibilityChanged.connect(self._visibility_changed)
        dock.topLevelChanged.connect(self._floated)

    def _visibility_changed(self, visible: bool) -> None:
        if not (isValid(self.window) and isValid(self.dock)) or self.dock.isFloating() or self._switching:
            return  # (the window is being destroyed, or the dock floated: it hides on the way)
        if visible:
            if self.size_before is None:
                self.size_before = self.window.size()
            QTimer.singleShot(0, self, self.fit)
        elif self.size_before is not None and not self.window.isMinimized():
            before, self.size_before = self.size_before, None
            if self.window.size() != before and not self.window.isMaximized():
                self.window.resize(before)
            self.fitted.emit()

    def fit(self) -> None:
        """Keep the window on the screen and give the docked panel its share of the height."""
        win, dock = self.window, self.dock
        if not dock.isVisible() or dock.isFloating():
            return
        if not win.isMaximized() and not win.isFullScreen():
            limit = fit_size(win, win.width(), win.height())
            if win.width() > limit.width() or win.height() > limit.height():
                win.resize(limit)
        central = win.centralWidget()
        if central is None:
            return
        inner = central.height() + dock.height()
        room = inner - central.minimumSizeHint().height()
        if room < self.MIN_DOCKED and not self.user_docked:
            self._switching = True  # (the dock hides and shows again on the way: not a close)
            try:
                dock.setFloating(True)  # a window of its own, on the screen, instead of a sliver
            finally:
                self._switching = False
            return
        height = max(dock.minimumSizeHint().height(), min(int(inner * self.SHARE), room))
        win.resizeDocks([dock], [height], Qt.Orientation.Vertical)
        self.fitted.emit()

    def _floated(self, floating: bool) -> None:
        if floating:
            QTimer.singleShot(0, self, self._place_floating)
        else:
            self.user_docked = True
            if self.size_before is None:
                self.size_before = self.window.size()
            QTimer.singleShot(0, self, self.fit)

    def _place_floating(self) -> None:
        if self.dock.isFloating():
            place_on_screen(self.dock, *self.FLOAT_SIZE, over=self.window)
            if self.size_before is not None:  # the window's space for the dock is free again
                before, self.size_before = self.size_before, None
                self.window.resize(before)
            self.fitted.emit()
