"""The command line of the core: ``train``, ``encode``, ``count``, ``eval`` and ``convert``.

``main`` parses and runs one command; ``build_parser``, ``commands`` and ``run`` let the app's
``bpe-explorer`` command add its own commands to the same tree (``bpe_gui/cli.py``).
"""

from core.cli.main import build_parser, commands, guarded, main, run, version

__all__ = ["build_parser", "commands", "guarded", "main", "run", "version"]
