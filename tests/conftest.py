"""Settings for the whole suite.

One knob for the property tests (as tiktoken's ``TIKTOKEN_MAX_EXAMPLES``): ``BPE_MAX_EXAMPLES``
(default 150) examples per Hypothesis test, e.g. ``BPE_MAX_EXAMPLES=1000 pytest`` for a long
search, ``BPE_MAX_EXAMPLES=10 pytest`` for a quick run. No deadline: a shared CI machine can make
any one example slow, and timing is the benchmarks' job.
"""

from __future__ import annotations

import os
import tempfile

import pytest
from hypothesis import settings

# No test touches the user's own settings, whatever it opens (a window, the app in a subprocess): the
# app reads this file instead (bpe_gui/settings.py), set before any test runs and again for each test.
os.environ["BPE_EXPLORER_SETTINGS"] = os.path.join(
    tempfile.mkdtemp(prefix="bpe-explorer-settings-"), "settings.ini"
)

MAX_EXAMPLES_VAR = "BPE_MAX_EXAMPLES"


def _max_examples() -> int:
    raw = os.environ.get(MAX_EXAMPLES_VAR, "150")
    try:
        n = int(raw)
    except ValueError:
        raise ValueError(f"{MAX_EXAMPLES_VAR}={raw!r}: give a whole number of examples, e.g. 150") from None
    if n < 1:
        raise ValueError(f"{MAX_EXAMPLES_VAR}={raw!r}: give at least 1 example")
    return n


settings.register_profile("bpe-explorer", max_examples=_max_examples(), deadline=None)
settings.load_profile("bpe-explorer")


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("BPE_EXPLORER_SETTINGS", str(tmp_path / "settings.ini"))


def pytest_report_header() -> str:
    return f"hypothesis: {settings.default.max_examples} examples per test (set {MAX_EXAMPLES_VAR} to change)"
