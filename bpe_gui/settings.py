"""The app's settings: every value it keeps between starts, declared here with its type and default.

Settings are an ``.ini`` file in the user's configuration folder (``~/.config/bpe-explorer`` on Linux),
or the file named by the environment variable ``BPE_EXPLORER_SETTINGS`` (the tests set it, so that they
never touch a user's own settings). Read and write them only through :class:`Settings` and the keys
below: a value of the wrong type in the file (edited by hand, an older version) gives the default.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

from PySide6.QtCore import QByteArray, QSettings

SETTINGS_ENV = "BPE_EXPLORER_SETTINGS"  # path of an .ini file to use instead of the user's settings

T = TypeVar("T", str, int, bool, list)


#: the settings key of the left column's splitter sizes, kept only when the user sized it
LEFT_BY_USER = "left_by_user"


@dataclass(frozen=True)
class Key(Generic[T]):
    """One setting: its name in the file and its default (whose type is the setting's type)."""

    name: str
    default: T


LANGUAGE: Key[str] = Key("language", "")  # "" = the system locale's language
RECENT: Key[list] = Key("recent", [])  # recently opened corpora, newest first
VOCAB_SIZE: Key[int] = Key("vocab_size", 0)  # 0 = the training panel's own default
STEP_N: Key[int] = Key("step_n", 0)  # 0 = the training panel's own default
EXPORT_FOLDER: Key[str] = Key("export_folder", "")
CORPUS_FOLDER: Key[str] = Key("corpus_folder", "")
IMPORT_FOLDER: Key[str] = Key("import_folder", "")
SESSION_FOLDER: Key[str] = Key("session_folder", "")
ASK_DISCARD: Key[bool] = Key("ask_before_discarding", True)
ASK_REOPEN: Key[bool] = Key("offer_last_session", True)
LAST_SESSION: Key[str] = Key("last_session", "")
#: the training settings in effect when the app closed ("" = never saved): the special tokens as a JSON
#: list (an empty list is a choice too), the pattern ("gpt2", "gpt4", "none" or a regex) and the tie rule
SPECIAL_TOKENS: Key[str] = Key("special_tokens", "")
PATTERN: Key[str] = Key("pattern", "")
TIE_RULE: Key[str] = Key("tie_rule", "")

#: every declared key, by name
KEYS: dict[str, Key] = {
    k.name: k
    for k in (
        LANGUAGE,
        RECENT,
        VOCAB_SIZE,
        STEP_N,
        EXPORT_FOLDER,
        CORPUS_FOLDER,
        IMPORT_FOLDER,
        SESSION_FOLDER,
        ASK_DISCARD,
        ASK_REOPEN,
        LAST_SESSION,
        SPECIAL_TOKENS,
        PATTERN,
        TIE_RULE,
    )
}


def qsettings() -> QSettings:
    """The settings file in use: ``$BPE_EXPLORER_SETTINGS`` when set, else the user's."""
    path = os.environ.get(SETTINGS_ENV)
    if path:
        return QSettings(path, QSettings.Format.IniFormat)
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "bpe-explorer", "bpe-explorer")


def autosave_path() -> Path:
    """Where the session is kept when the window closes: beside the settings file (a custom one, or
    the user's). Not in the application's data folder, which Qt names after the running
    QApplication: a script that built the window under its own name kept the session in a folder
    of that name, and the settings the app shares then pointed the app at it."""
    custom = os.environ.get(SETTINGS_ENV)
    if custom:
        return Path(custom).with_name("last.bpe.json")
    return Path(qsettings().fileName()).with_name("last.bpe.json")


class Settings:
    """Typed access to the settings file: ``get(KEY)``, ``set(KEY, value)``, and the saved layout of the
    window's splitters."""

    def __init__(self, store: QSettings | None = None) -> None:
        self.store = store if store is not None else qsettings()

    def get(self, key: Key[T]) -> T:
        value = _typed(self.store.value(key.name, None), key.default)
        return cast(T, value)

    def set(self, key: Key[T], value: T) -> None:
        self.store.setValue(key.name, value)

    def splitter_state(self, name: str) -> QByteArray | None:
        value = self.store.value(f"splitter/{name}")
        return value if isinstance(value, QByteArray) else None

    def set_splitter_state(self, name: str, state: QByteArray) -> None:
        self.store.setValue(f"splitter/{name}", state)

    def remove_splitter_state(self, name: str) -> None:
        self.store.remove(f"splitter/{name}")

    def sync(self) -> None:
        self.store.sync()


def _typed(raw: Any, default: Any) -> Any:
    """``raw`` as read from the file, as the type of ``default``; ``default`` when it does not fit."""
    if raw is None:
        return default
    if isinstance(default, bool):  # (before int: a bool is an int)
        if isinstance(raw, bool):
            return raw
        text = str(raw).lower()
        return True if text in ("true", "1") else False if text in ("false", "0") else default
    if isinstance(default, int):
        try:
            return int(raw)
        except (TypeError, ValueError):
            return default
    if isinstance(default, list):
        if isinstance(raw, str):  # QSettings gives a list of one item as a string
            return [raw]
        if isinstance(raw, (list, tuple)):
            return [str(v) for v in raw]
        return default
    return str(raw)
