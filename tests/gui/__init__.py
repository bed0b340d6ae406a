"""Tests of the Qt app (pytest-qt, offscreen)."""
