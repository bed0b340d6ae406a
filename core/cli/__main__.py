"""``python -m core.cli``: the core's commands without the app."""

import sys

from core.cli.main import main

sys.exit(main())
