"""Issue 13 §2: first start (no display, missing Qt libraries: one line, status 2), --version,
``bpe-explorer CORPUS``, ``python -m bpe_gui`` with the same arguments, and the core never
importing the app (issue 14, layering)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from bpe_gui import cli
from bpe_gui.display import XCB_LIBRARIES, display_problem, missing_libraries

REPO = Path(__file__).resolve().parents[2]
VERSION = version("bpe-explorer")


def _run(args: list[str], tmp_path, **env_changes) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["PYTHONPATH"] = str(REPO)
    env["BPE_EXPLORER_SETTINGS"] = str(tmp_path / "settings.ini")
    env.update(env_changes)
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120
    )


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11/Wayland checks are Linux only")
def test_no_display_is_one_line_and_status_2(tmp_path):
    r = _run(["-m", "bpe_gui"], tmp_path)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert "no display" in r.stderr and "DISPLAY" in r.stderr and "'bpe-explorer train'" in r.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11 libraries are Linux only")
def test_missing_xcb_libraries_are_named_with_their_packages(tmp_path):
    r = _run(
        ["-m", "bpe_gui", "some_corpus.txt"],
        tmp_path,
        DISPLAY=":4242",
        BPE_EXPLORER_EXTRA_XCB_LIBS="libbpe-missing-test.so.9=libbpe-missing-test9",
    )
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert "libbpe-missing-test.so.9" in r.stderr and "sudo apt install libbpe-missing-test9" in r.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11 is Linux only")
def test_an_unreachable_x_display_is_one_line_and_status_2(tmp_path):
    r = _run(["-m", "bpe_gui"], tmp_path, DISPLAY=":4243")
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert "cannot connect to the X display ':4243'" in r.stderr


def test_display_problem_rules():
    linux = "linux"
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}, linux) is None
    assert display_problem({}, "win32") is None
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}, linux) is None
    assert "no display" in display_problem({}, linux)
    assert "no display" in display_problem({"QT_QPA_PLATFORM": "xcb"}, linux)
    assert missing_libraries(
        {"libbpe-nope.so.1": "pkg-nope", "libc.so.6": "libc6"}
        if sys.platform.startswith("linux")
        else {"libbpe-nope.so.1": "pkg-nope"}
    ) == {"libbpe-nope.so.1": "pkg-nope"}
    assert {
        "libxcb-cursor0",
        "libxcb-icccm4",
        "libxcb-keysyms1",
        "libxkbcommon-x11-0",
        "libegl1",
        "libxkbcommon0",
        "libfontconfig1",
        "libdbus-1-3",
    } <= set(XCB_LIBRARIES.values())


def test_the_install_guide_lists_every_package():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "docs/user-guide.md#installing-on-linux" in readme  # the front page links to the list
    guide = (REPO / "docs" / "user-guide.md").read_text(encoding="utf-8")
    section = guide[guide.index("## Installing on Linux") :]
    section = section[: section.index("\n## ", 1)]
    for package in XCB_LIBRARIES.values():
        assert package in section, package


def test_version_everywhere(tmp_path):
    for args in (["-m", "bpe_gui", "--version"], ["-m", "bpe_gui.cli", "--version"]):
        r = _run(args, tmp_path)
        assert r.returncode == 0 and r.stdout.strip() == f"bpe-explorer {VERSION}", r.stderr


def test_corpus_argument_opens_the_app_with_it(monkeypatch, tmp_path):
    seen = []
    monkeypatch.setattr("bpe_gui.app.main", lambda argv: seen.append(argv) or 0)
    assert cli.main(["corpus.txt"]) == 0
    assert cli.main(["gui", "corpus.txt", "--no-sample"]) == 0
    assert cli.main([]) == 0
    assert cli.main(["--no-sample"]) == 0
    assert seen == [["corpus.txt"], ["corpus.txt", "--no-sample"], [], ["--no-sample"]]
    with pytest.raises(SystemExit) as info:  # a mistyped command is not taken for a corpus file
        cli.main(["trian", "corpus.txt"])
    assert info.value.code == 2 and len(seen) == 4


def test_python_m_bpe_gui_opens_a_corpus_and_runs_core_commands(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("the cat sat on the mat\n" * 200, encoding="utf-8")
    r = _run(["-m", "bpe_gui", str(corpus), "--quit-after", "0.1"], tmp_path, QT_QPA_PLATFORM="offscreen")
    assert r.returncode == 0 and "error" not in r.stderr, r.stderr
    r = _run(
        ["-m", "bpe_gui", "train", str(corpus), "--vocab-size", "260", "--out", str(tmp_path / "o"), "-q"],
        tmp_path,
    )
    assert r.returncode == 0 and (tmp_path / "o" / "merges.txt").exists(), r.stderr
    r = _run(["-m", "bpe_gui", "train", str(corpus), "--vocab-size", "5", "--out", "o"], tmp_path)
    assert r.returncode == 2 and "smaller than 256" in r.stderr


def test_about_box_shows_the_version(monkeypatch, window):
    from PySide6.QtWidgets import QMessageBox

    shown = []
    monkeypatch.setattr(QMessageBox, "about", lambda parent, title, text: shown.append(text))
    window._about()
    assert VERSION in shown[0]


def test_core_never_imports_the_app():
    for path in (REPO / "core").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else ([node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            )
            assert not any(n.split(".")[0] in ("bpe_gui", "PySide6", "pyqtgraph") for n in names), path
