"""Benchmarks against peer libraries (run by hand: python tests/benchmarks/run_all.py)."""
