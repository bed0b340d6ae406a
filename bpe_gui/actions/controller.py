"""The controller: owns the core Trainer, exposes slots and signals; the views observe it.

What is on show (settings, merge records, the views' index, caches) is plain data in a
:class:`bpe_gui.model.session.SessionModel`; the controller drives it and emits the signals. Its
actions are grouped by job: training (:mod:`bpe_gui.actions.training`), files
(:mod:`bpe_gui.actions.files`) and sessions (:mod:`bpe_gui.actions.session`); the engine requests
waited for on the GUI thread are :meth:`Controller._call_blocking` and :meth:`Controller._ask_blocking`.

The core Trainer lives in an engine process (:mod:`core.engine.client`), so the GUI process never runs
a merge loop. Step, undo and the views' queries (top pairs, changed words) are quick requests
made from the GUI thread; loading a corpus and full runs are long requests made from a worker
thread (:mod:`bpe_gui.jobs.worker`), which relays progress, merge records and pair snapshots. While a
long request runs the controller asks the engine nothing: the views read :attr:`index` (plain
data kept in step by merge records) and the pair snapshots of the run.

Automation contract::

    c.load_corpus(path)   # async → corpus_loaded(stats)
    c.step(n=1)           # → stepped(records)
    c.undo()              # → undone(record or None)
    c.train(vocab_size)   # async → progress(done, total) …, trained(summary)
    c.cancel()
    c.import_tokenizer(path)  # async → tokenizer_loaded(LoadedTokenizer)
    c.continue_training(path) # async → corpus_loaded(stats): the tokenizer on show extended on a corpus
"""

from __future__ import annotations

from bpe_gui.actions.base import Busy, Options, RunSummary
from bpe_gui.actions.extend import ExtendActions
from bpe_gui.actions.files import FileActions
from bpe_gui.actions.session import SessionActions
from bpe_gui.actions.training import TrainActions

__all__ = ["Busy", "Controller", "Options", "RunSummary"]


class Controller(TrainActions, SessionActions, FileActions, ExtendActions):
    """The app's controller: every action on one :class:`~bpe_gui.actions.base.ControllerBase`."""
