"""``python -m bpe_gui [CORPUS | COMMAND ...]``: the same as the ``bpe-explorer`` command."""

from __future__ import annotations

import sys

from bpe_gui.cli import main

if __name__ == "__main__":
    sys.exit(main())
