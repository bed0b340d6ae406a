"""Argument types the commands share."""

from __future__ import annotations

import argparse


def workers(text: str) -> int:
    """``--workers N``: a number of processes, at least 1 (0 or -2 were taken as one process, unsaid).

    >>> workers("4")
    4
    """
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n} processes: give 1 or more (leave --workers out for all cores)")
    return n
