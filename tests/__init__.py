"""The test suite: tests/core (no Qt), tests/gui (pytest-qt, offscreen), tests/benchmarks (run by hand)."""
