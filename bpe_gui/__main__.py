"""``python -m bpe_gui [CORPUS]`` starts the desktop app."""
from __future__ import annotations

import sys

from bpe_gui.app import main

if __name__ == "__main__":
    sys.exit(main())
