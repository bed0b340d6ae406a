"""Where the app finds its assets (sample corpus, icon) in a wheel and in a source checkout.

Installed wheels map the top-level ``assets/`` folder to ``bpe_gui/assets`` (pyproject force-include);
a checkout keeps it next to the package.
"""

from __future__ import annotations

from pathlib import Path

SAMPLE_CORPUS = "sample_corpus.txt"
ICON = "icons/bpe_explorer.svg"


def asset_dirs() -> list[Path]:
    """Candidate asset folders, best first."""
    here = Path(__file__).resolve().parent
    return [here / "assets", here.parent / "assets"]


def asset_path(name: str) -> Path | None:
    """The first existing ``assets/<name>``, or None."""
    for d in asset_dirs():
        p = d / name
        if p.exists():
            return p
    return None


def sample_corpus() -> Path | None:
    """The bundled sample corpus (None when the installation has none)."""
    return asset_path(SAMPLE_CORPUS)


def icon_path() -> Path | None:
    return asset_path(ICON)
