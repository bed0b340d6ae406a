"""Tests of the Qt-free core (no Qt is imported here)."""
