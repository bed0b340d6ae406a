"""The app's languages: Qt translators loaded from compiled ``.qm`` files shipped in ``assets/i18n``.

The language is, in order: the one asked for (``--lang``, ``create_window(language=...)``), the one
chosen in View → Language (remembered in QSettings), or the system locale's (Chinese locales get
Simplified Chinese, all others English). Source strings are English, so English needs no file.

Maintainers refresh the translations with ``python -m bpe_gui.text.i18n update``: pyside6-lupdate
collects the strings of bpe_gui into ``assets/i18n/bpe_explorer_zh_CN.ts`` (edit the translations
there, e.g. with pyside6-linguist), then pyside6-lrelease compiles the ``.qm`` and the ``.ts``
content hash is written beside it (a test checks that the ``.qm`` is current and complete).
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

from bpe_gui import resources
from bpe_gui.settings import LANGUAGE, Settings

LANGUAGES: dict[str, str] = {"en": "English", "zh_CN": "简体中文"}
DOMAIN = "bpe_explorer"
_installed: list = []  # the translators installed in the running app (kept alive here)


def normalize(language: str | None) -> str | None:
    """``"zh_CN"``, ``"zh-CN"``, ``"zh"`` → ``"zh_CN"``; ``"en_US"`` → ``"en"``; None stays None.

    >>> normalize("zh-Hans-CN"), normalize("en_GB"), normalize(None)
    ('zh_CN', 'en', None)
    """
    if not language:
        return None
    low = language.replace("-", "_").lower()
    if low.startswith("zh"):
        return "zh_CN"
    if low.startswith("en") or low in ("c", "posix"):
        return "en"
    raise ValueError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")


def qm_path(language: str) -> Path | None:
    """The compiled translation of ``language`` (None for English or when it is not installed)."""
    if language == "en":
        return None
    return resources.asset_path(f"i18n/{DOMAIN}_{language}.qm")


def ts_path(language: str = "zh_CN") -> Path:
    """Where the source translation lives in a checkout (``assets/i18n``)."""
    return Path(__file__).resolve().parents[2] / "assets" / "i18n" / f"{DOMAIN}_{language}.ts"


def _settings() -> Settings:
    return Settings()


def chosen_language(requested: str | None = None, settings=None) -> str:
    """The language to use: requested, else remembered in the app's settings, else the system locale's."""
    if requested:
        return normalize(requested) or "en"
    from PySide6.QtCore import QLocale

    saved = (settings or _settings()).get(LANGUAGE)
    if saved:
        try:
            return normalize(str(saved)) or "en"
        except ValueError:
            pass
    return normalize(QLocale.system().name()) or "en"


def remember(language: str, settings: Settings | None = None) -> None:
    """Store the language chosen in View → Language (used from the next start)."""
    (settings or _settings()).set(LANGUAGE, normalize(language) or "en")


def install(language: str | None = None) -> str:
    """Install the translators of ``language`` (see :func:`chosen_language`) in the QApplication.

    Replaces those installed before; returns the language now in use.
    """
    from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        raise RuntimeError("create the QApplication before installing its translators")
    lang = chosen_language(language)
    for t in _installed:
        app.removeTranslator(t)
    _installed.clear()
    if lang != "en":
        qt = QTranslator(app)  # Qt's own strings (standard buttons, file dialogs, key names)
        if qt.load(
            QLocale(lang), "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        ):
            app.installTranslator(qt)
            _installed.append(qt)
        # ours last: the translator installed last is asked first, so our file also fills the few
        # Qt strings that Qt's file leaves in English (bpe_gui.qt_strings)
        ours = QTranslator(app)
        path = qm_path(lang)
        if path is not None and ours.load(str(path)):
            app.installTranslator(ours)
            _installed.append(ours)
    app.setProperty("bpe_explorer_language", lang)
    return lang


def current_language() -> str:
    """The language installed by :func:`install` (English before)."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    lang = app.property("bpe_explorer_language") if app is not None else None
    return str(lang) if lang else "en"


def ts_hash(ts: Path) -> str:
    """SHA-256 of a ``.ts`` file's bytes (recorded beside the ``.qm`` built from it)."""
    return hashlib.sha256(ts.read_bytes()).hexdigest()


def _tool(name: str) -> str:
    exe = Path(sys.executable).with_name(name)
    return str(exe) if exe.exists() else name


def update(language: str = "zh_CN", *, extract: bool = True) -> Path:
    """Refresh the ``.ts`` from the sources (``extract``), compile the ``.qm``, record the hash."""
    ts = ts_path(language)
    pkg = Path(__file__).resolve().parents[1]  # the whole bpe_gui package
    if extract:
        sources = sorted(str(p) for p in pkg.rglob("*.py"))
        subprocess.run([_tool("pyside6-lupdate"), *sources, "-no-obsolete", "-ts", str(ts)], check=True)
    qm = ts.with_suffix(".qm")
    subprocess.run(
        [_tool("pyside6-lrelease"), str(ts), "-qm", str(qm)], check=True, stdout=subprocess.DEVNULL
    )
    ts.with_suffix(".sha256").write_text(ts_hash(ts) + "\n", encoding="ascii")
    return qm


def _main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("update", "release"):
        print(
            "usage: python -m bpe_gui.text.i18n update|release   (update: lupdate + lrelease; release: lrelease)"
        )
        return 2
    for lang in LANGUAGES:
        if lang != "en":
            print(update(lang, extract=argv[0] == "update"))
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))


_loaded: dict[str, object] = {}  # translators loaded (not installed) to say one thing in another language


def translate_in(language: str, context: str, text: str) -> str:
    """``text`` of ``context`` in ``language``, whatever language the app runs in (English: ``text``).

    For what must be read before the app speaks the chosen language (the notice of a language change).
    """
    from PySide6.QtCore import QTranslator

    lang = normalize(language) or "en"
    if lang == "en":
        return text
    if lang not in _loaded:
        translator = QTranslator()
        path = qm_path(lang)
        _loaded[lang] = translator if path is not None and translator.load(str(path)) else None
    loaded = _loaded[lang]
    return (loaded.translate(context, text) or text) if isinstance(loaded, QTranslator) else text
