"""Can Qt open a window here? Checked before the QApplication exists (no Qt import), because Qt
itself aborts (SIGABRT) with a misleading "reinstalling the application may fix this" when there
is no display or when a system library of its xcb platform plugin is missing.

The libraries are those ``ldd`` lists for PySide6's ``Qt/plugins/platforms/libqxcb.so`` and the
Qt libraries it loads (QtGui, QtXcbQpa, QtDBus), less what every Debian/Ubuntu system has (libc,
libstdc++, zlib, ...), with the Debian/Ubuntu package that ships each one.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Mapping

#: soname -> Debian/Ubuntu package (also in the README's Quickstart)
XCB_LIBRARIES: dict[str, str] = {
    "libxcb.so.1": "libxcb1",
    "libX11.so.6": "libx11-6",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libdbus-1.so.3": "libdbus-1-3",
}
#: tests add libraries that do not exist here ("soname=package,..."), to see the message
EXTRA_ENV = "BPE_EXPLORER_EXTRA_XCB_LIBS"
_HEADLESS_PLATFORMS = {"offscreen", "minimal", "minimalegl", "vnc", "eglfs", "linuxfb", "vkkhrdisplay"}


def missing_libraries(libraries: Mapping[str, str]) -> dict[str, str]:
    """Those of ``libraries`` (soname -> package) that the dynamic loader cannot load."""
    missing = {}
    for soname, package in libraries.items():
        try:
            ctypes.CDLL(soname)
        except OSError:
            missing[soname] = package
    return missing


def x_display_reachable(display: str) -> bool | None:
    """Whether libxcb can connect to the X display (what Qt does first); None if libxcb is missing."""
    try:
        xcb = ctypes.CDLL("libxcb.so.1")
    except OSError:
        return None
    xcb.xcb_connect.restype = ctypes.c_void_p
    xcb.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    xcb.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
    xcb.xcb_disconnect.argtypes = [ctypes.c_void_p]
    conn = xcb.xcb_connect(display.encode(), None)
    try:
        return xcb.xcb_connection_has_error(conn) == 0
    finally:
        xcb.xcb_disconnect(conn)


def display_problem(env: Mapping[str, str] | None = None, platform: str | None = None) -> str | None:
    """One line saying why Qt cannot open a window, with the fix; None when it can (or cannot tell)."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    if not platform.startswith("linux"):
        return None
    qpa = env.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if qpa in _HEADLESS_PLATFORMS:
        return None
    has_x, has_wayland = bool(env.get("DISPLAY")), bool(env.get("WAYLAND_DISPLAY"))
    if not has_x and not has_wayland:
        return (
            "no display to open the app on (DISPLAY and WAYLAND_DISPLAY are not set); on a server use "
            "'bpe-explorer train', 'encode' or 'screenshot', or set DISPLAY (e.g. run it under xvfb-run)"
        )
    if qpa == "wayland" or (not qpa and has_wayland and not has_x):
        return None  # Qt's wayland plugin: its libraries are not the ones checked here
    libraries = dict(XCB_LIBRARIES)
    for item in env.get(EXTRA_ENV, "").split(","):
        if "=" in item:
            soname, package = item.split("=", 1)
            libraries[soname.strip()] = package.strip()
    missing = missing_libraries(libraries)
    if missing:
        return (
            f"Qt cannot open a window: system libraries are missing ({', '.join(missing)}); on "
            f"Debian/Ubuntu install them with: sudo apt install {' '.join(sorted(set(missing.values())))}"
        )
    if has_x and x_display_reachable(env["DISPLAY"]) is False:
        return (
            f"cannot connect to the X display {env['DISPLAY']!r} (DISPLAY); check that it runs and that "
            "you may use it (xauth), or use 'bpe-explorer train', 'encode' or 'screenshot'"
        )
    return None
