"""Render the app offscreen to a PNG (README images): ``bpe-explorer screenshot OUT.png``.

The window (at least 1024×600) loads the corpus (default: the bundled sample) or reopens a saved
session, does N steps, tokenizes the given text, selects the last merge, and is grabbed into the
image (in the language given, else the system's).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from bpe_gui import resources

DEFAULT_TEXT = (
    "Byte-pair encoding merges the most frequent pair, again and again.\n"
    "Tokens: ' the', 'ing', 12345, naïve café.<|endoftext|>The end."
)


def _save_png(pixmap, out: Path) -> Path:
    """Encode ``pixmap`` as PNG in memory and write it atomically (a killed run leaves the old image)."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    from core.files import atomic_write

    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    ok = pixmap.save(buf, "PNG")
    buf.close()
    if not ok:
        raise RuntimeError(f"could not encode the screenshot for {out}")
    return atomic_write(out, bytes(data.data()))


def _wait(app, signals, timeout_s: float):
    """Run the event loop until one of ``signals`` fires; returns (index, args) or None on timeout."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    got: list = []

    def make(i):
        def fire(*args):
            if not got:
                got.append((i, args))
            loop.quit()

        return fire

    handlers = [make(i) for i in range(len(signals))]
    for s, h in zip(signals, handlers):
        s.connect(h)
    QTimer.singleShot(int(timeout_s * 1000), loop.quit)
    loop.exec()
    for s, h in zip(signals, handlers):
        s.disconnect(h)
    return got[0] if got else None


def render(
    out_png,
    corpus=None,
    steps: int = 0,
    text: str | None = None,
    size: tuple[int, int] = (1400, 900),
    timeout: float = 600.0,
    session=None,
    language: str | None = None,
) -> Path:
    """Render the window to ``out_png`` and return its path (raises RuntimeError on a core error)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import qInstallMessageHandler

    previous = qInstallMessageHandler(_without_offscreen_notes)
    try:
        return _render(out_png, corpus, steps, text, size, timeout, session, language)
    finally:
        qInstallMessageHandler(previous)


#: what the offscreen platform says about window-manager requests it has no use for (not a problem)
OFFSCREEN_NOTES = ("does not support propagateSizeHints", "does not support raise()")


def _without_offscreen_notes(_mode, _context, message: str) -> None:
    """Qt's messages on stderr, as Qt prints them, less the offscreen platform's notes."""
    if not any(note in message for note in OFFSCREEN_NOTES):
        sys.stderr.write(message + "\n")


def _render(out_png, corpus, steps, text, size, timeout, session, language) -> Path:
    from PySide6.QtWidgets import QApplication

    from bpe_gui.app import build_window

    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "bpe-explorer"])
    w = build_window(None, load_sample=False, language=language)
    c = w.controller
    errors: list[str] = []
    c.error.disconnect(w.show_error)  # no dialogs in a screenshot: errors are raised instead
    c.error.connect(errors.append)
    try:
        width, height = max(1024, size[0]), max(600, size[1])
        w.resize(width, height)
        w.show()
        if session is not None:
            if w.controller.open_session(str(session)) is None:
                raise RuntimeError(f"could not open the session {session}: {errors[0] if errors else ''}")
            if c.busy:  # replaying on its corpus (trained), or building its saved tokenizer (session_opened)
                _wait(app, [c.trained, c.session_opened, c.error], timeout)
            if errors:
                raise RuntimeError(errors[0])
        else:
            path = corpus if corpus is not None else resources.sample_corpus()
            if path is None:
                raise RuntimeError("no corpus given and no bundled sample corpus found; pass --corpus FILE")
            c.load_corpus(str(path))
            if _wait(app, [c.corpus_loaded, c.error], timeout) is None or errors or not c.has_trainer:
                raise RuntimeError(f"could not load {path}: {errors[0] if errors else 'timed out'}")
        if steps > 0:
            c.step(int(steps))
            if c.busy:
                _wait(app, [c.stepped, c.error], timeout)
            if errors:
                raise RuntimeError(errors[0])
            # (a target below the vocab the steps reached read "vocab 307 / 280": the target a
            # remembered setting, the steps given here)
            tp = w.training_panel
            tp.vocab_size.setValue(max(tp.vocab_size.value(), c.vocab_size))
        if text is not None or session is None:  # a session brings its own text
            w.tokenize.set_text(DEFAULT_TEXT if text is None else text)
        w.tokenize.wait_idle()
        if c.index.n_merges:
            c.select_merge(c.index.n_merges - 1)
        for _ in range(5):
            app.processEvents()
        w.timeline.redraw()
        app.processEvents()
        out = Path(out_png)
        if out.parent and not out.parent.exists():
            out.parent.mkdir(parents=True, exist_ok=True)
        return _save_png(w.grab(), out)
    finally:
        c.shutdown()
        w.close()
        w.deleteLater()
        app.processEvents()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        prog="bpe-explorer screenshot", description="Render the BPE Explorer window offscreen to a PNG."
    )
    p.add_argument("out", help="output PNG file")
    p.add_argument("--corpus", help="corpus file (default: the bundled sample corpus)")
    p.add_argument("--steps", type=int, default=0, help="merges to do before the screenshot")
    p.add_argument("--text", help="text to show in the tokenize view")
    p.add_argument("--size", default="1400x900", help="window size WxH (at least 1024x600)")
    p.add_argument("--session", help="reopen this saved session (File → Save session) instead of a corpus")
    from bpe_gui.app import _language

    p.add_argument(
        "--lang", default=None, type=_language, help="interface language: zh_CN or en (default: the system's)"
    )
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        p.error(f"--size must look like 1400x900, not {args.size!r}")
    if args.steps < 0:
        p.error("--steps must be >= 0")
    from bpe_gui.process import configure_process

    configure_process()  # an entry point, like bpe_gui.app.main
    try:
        out = render(
            args.out, args.corpus, args.steps, args.text, (w, h), session=args.session, language=args.lang
        )
    except RuntimeError as e:
        print(f"bpe-explorer screenshot: {e}", file=sys.stderr)
        return 1
    print(out)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
