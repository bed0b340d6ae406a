"""The ``bpe-explorer`` command (and ``python -m bpe_gui``): the app, plus every core command.

``bpe-explorer`` or ``bpe-explorer CORPUS [--no-sample]`` opens the app; ``gui [CORPUS]`` does the
same; ``screenshot OUT.png ...`` renders it offscreen. ``train``, ``encode`` and the other core
commands are parsed by the same argparse tree (built by :func:`core.cli.build_parser`, to which
the two app commands are added here) and carried out by :func:`core.cli.run`. The core never
imports this package.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys

from core import cli as core_cli

APP_COMMANDS = ("gui", "screenshot")


def build_parser() -> argparse.ArgumentParser:
    """The whole ``bpe-explorer`` command tree: the core's commands plus ``gui`` and ``screenshot``."""
    parser = core_cli.build_parser("bpe-explorer")
    parser.description = (
        "Train, explore and export byte-level BPE tokenizers. Without a command (or with "
        "a corpus file), opens the app."
    )
    sub = core_cli.commands(parser)
    g = sub.add_parser("gui", help="open the desktop app (the default; 'bpe-explorer CORPUS' also works)")
    g.add_argument("corpus", nargs="?", help="a corpus file to load instead of the sample")
    g.add_argument("--no-sample", action="store_true", help="start without loading the sample corpus")
    g.add_argument("--lang", default=None, help="interface language: zh_CN or en (the CLI stays English)")
    sub.add_parser(
        "screenshot", help="render the app offscreen to a PNG (see 'screenshot --help')", add_help=False
    )
    return parser


def _take_lang(argv: list[str]) -> tuple[list[str], list[str]]:
    """Split ``--lang X`` / ``--lang=X`` (the app's language, allowed before or after ``gui``) from argv."""
    rest: list[str] = []
    lang: list[str] = []
    it = iter(argv)
    for a in it:
        if a == "--lang":
            lang = ["--lang", next(it, "")]
        elif a.startswith("--lang="):
            lang = ["--lang", a.split("=", 1)[1]]
        else:
            rest.append(a)
    return rest, lang


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] != "screenshot":
        argv, lang = _take_lang(argv)
    else:
        lang = []
    parser = build_parser()
    names = set(core_cli.commands(parser).choices)
    if argv and argv[0] == "screenshot":  # its own parser (bpe_gui.screenshot) takes the rest
        from bpe_gui.screenshot import main as screenshot_main

        return core_cli.guarded(lambda: screenshot_main(argv[1:]))
    if argv and (argv[0] in names or argv[0] in ("-h", "--help", "--version")):
        args = parser.parse_args(argv)
        if args.command != "gui":
            return core_cli.run(args)
        argv = ([args.corpus] if args.corpus else []) + (["--no-sample"] if args.no_sample else [])
        lang = ["--lang", args.lang] if args.lang else lang
    if argv and not argv[0].startswith("-") and not os.path.exists(argv[0]):
        near = difflib.get_close_matches(argv[0], sorted(names), n=1)
        if near:  # "bpe-explorer trian ...": a mistyped command, not a corpus file
            parser.error(f"unknown command {argv[0]!r}; did you mean {near[0]!r}?")
    # no command: the app, with its own arguments (a corpus file, --no-sample)
    from bpe_gui.app import main as app_main

    return app_main(argv + lang)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
