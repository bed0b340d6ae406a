"""Learn mode: three BPE algorithms walked through line by line, with the values of their variables.

Each walk-through is our own short rendering of an algorithm (``CODE``, shown in the app) and a
function that runs it on a small text and records a :class:`Frame` for every line it executes: the
line, the variables at that moment, and what happened (an event key with its parameters, which the
app turns into a sentence in its language). The results match the real trainer and tokenizer
(tests check them against :class:`core.training.trainer.Trainer` and :class:`core.tokenization.tokenizer.Tokenizer`).

>>> from core.learn import lecture
>>> lecture.walk("aaabdaaabac", 3).indices
[258, 100, 258, 97, 99]
"""

from __future__ import annotations

from core.learn.frame import Frame, Walk, show

__all__ = ["Frame", "Walk", "show"]
