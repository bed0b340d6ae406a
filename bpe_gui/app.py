"""Application entry point: ``main(argv)`` starts the GUI; ``build_window`` makes the main window."""

from __future__ import annotations

import argparse
import sys
import traceback

from bpe_gui import resources


def build_window(corpus=None, *, load_sample: bool = True, language: str | None = None):
    """The main window with the app's look; opens ``corpus`` or (later) the bundled sample.

    ``corpus`` is opened as a dropped file is: a session file is reopened, a tokenizer file imported
    (in the background), anything else read as a corpus.

    ``language`` ("zh_CN", "en"; default: the remembered choice or the system locale) is installed first.
    """
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from bpe_gui.text import i18n
    from bpe_gui.views import theme
    from bpe_gui.window.main_window import MainWindow

    app = QApplication.instance()
    if app is None:
        raise RuntimeError("create a QApplication before calling create_window()")
    if not app.property("bpe_explorer_theme"):
        theme.apply(app)
        app.setProperty("bpe_explorer_theme", True)
    if language is not None or not app.property("bpe_explorer_language"):
        i18n.install(language)
    w = MainWindow()
    if corpus is not None:
        w.open_path(str(corpus))
    elif load_sample:
        QTimer.singleShot(0, w, lambda: _load_sample_if_idle(w))
    return w


def _load_sample_if_idle(w) -> None:
    c = w.controller
    if not c.busy and not c.has_trainer and not c.index.n_merges and w.offer_last_session():
        return  # the last session is being reopened
    sample = resources.sample_corpus()
    if sample is not None and not c.busy and not c.has_trainer and not c.index.n_merges:
        c.load_corpus(str(sample))


def _excepthook(exc_type, exc, tb) -> None:
    """Unexpected errors: print the traceback and show it in a dialog; the app keeps running."""
    text = "".join(traceback.format_exception(exc_type, exc, tb))
    sys.stderr.write(text)
    try:
        from PySide6.QtWidgets import QApplication, QMessageBox

        if QApplication.instance() is not None:
            from PySide6.QtCore import QCoreApplication

            box = QMessageBox(
                QMessageBox.Icon.Critical,
                QCoreApplication.translate("App", "BPE Explorer: unexpected error"),
                f"{exc_type.__name__}: {exc}\n\n"
                + QCoreApplication.translate("App", "Please report this with the details below."),
            )
            box.setDetailedText(text)
            box.exec()
    except Exception:
        pass


def _language(value: str) -> str:
    from bpe_gui.text.i18n import normalize

    try:
        return normalize(value) or "en"
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def parse_args(argv):
    from core.cli import version

    p = argparse.ArgumentParser(prog="bpe-explorer", description="BPE Explorer desktop app")
    p.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    p.add_argument(
        "corpus",
        nargs="?",
        help="corpus text file to open, or a tokenizer or session file (default: the bundled sample)",
    )
    p.add_argument("--no-sample", action="store_true", help="start without loading the sample corpus")
    p.add_argument(
        "--quit-after", type=float, default=None, metavar="SECONDS", help=argparse.SUPPRESS
    )  # for smoke tests: quit this long after the corpus is loaded
    p.add_argument(
        "--lang",
        default=None,
        metavar="LANG",
        type=_language,
        help="interface language: zh_CN or en (default: View > Language, else the system's)",
    )
    return p.parse_args(argv)


def main(argv=None) -> int:
    """Start the GUI; returns the exit code."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from bpe_gui.display import display_problem

    problem = display_problem()
    if problem is not None and "PySide6.QtWidgets" not in sys.modules:  # checked before Qt can abort
        print(f"bpe-explorer: error: {problem}", file=sys.stderr)
        return 2
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from bpe_gui.jobs import worker
    from bpe_gui.process import configure_process

    configure_process()  # the process-wide settings are made here, not on import
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("BPE Explorer")
    app.setOrganizationName("bpe-explorer")
    icon = resources.icon_path()
    if icon is not None:
        QApplication.setWindowIcon(QIcon(str(icon)))
    sys.excepthook = _excepthook
    w = build_window(args.corpus, load_sample=not args.no_sample, language=args.lang)
    app.aboutToQuit.connect(w.controller.shutdown)
    if args.quit_after is not None:
        delay = int(args.quit_after * 1000)

        def quit_soon(*_a) -> None:
            QTimer.singleShot(delay, w.close)

        w.controller.corpus_loaded.connect(quit_soon)
        w.controller.tokenizer_loaded.connect(quit_soon)

        def fail(message: str) -> None:
            sys.stderr.write(f"error: {message}\n")
            quit_soon()

        w.controller.error.connect(fail)
        if args.no_sample and args.corpus is None:
            quit_soon()
    w.show()
    rc = app.exec()
    worker.stop_all()
    return rc


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
