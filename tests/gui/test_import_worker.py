"""Import and Compare read the tokenizer file in a worker thread: the window stays live meanwhile."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtWidgets import QMessageBox

from .gui_helpers import import_tokenizer

pytest.importorskip("core.formats")


@pytest.fixture
def exported(tmp_path):
    """A native bpe.json and a tokenizer.json of a small tokenizer (5 merges)."""
    from core.formats import export_all
    from core.formats.spec import TokenizerSpec

    spec = TokenizerSpec.from_merges(
        [(b"t", b"h"), (b"th", b"e"), (b" ", b"c"), (b"a", b"t"), (b" c", b"at")]
    )
    export_all(tmp_path, spec, ["native", "hf"])
    return tmp_path


@pytest.fixture
def held(monkeypatch):
    """files.load_tokenizer blocks until ``release`` is set, and records the thread it ran in."""
    from bpe_gui.model import files

    real = files.load_tokenizer
    state = {"release": threading.Event(), "started": threading.Event(), "threads": []}

    def load(*args, **kwargs):
        state["threads"].append(threading.current_thread())
        state["started"].set()
        state["release"].wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(files, "load_tokenizer", load)
    yield state
    state["release"].set()


def test_import_reads_the_file_in_a_worker_while_the_window_stays_live(qtbot, window, exported, held):
    c = window.controller
    before = dict(c.index.vocab)
    assert c.import_tokenizer(exported / "bpe.json")
    # the call returned at once: nothing is shown yet, the app is busy and the actions wait
    assert c.busy == "import" and c.index.vocab == before
    assert not window.act_import.isEnabled() and not window.act_compare.isEnabled()
    assert window.act_cancel.isEnabled()
    assert window.training_panel.progress.maximum() == 0  # the busy bar runs
    assert held["started"].wait(10)
    ticks = []
    qtbot.waitUntil(lambda: ticks.append(1) or len(ticks) >= 3)  # the event loop turns meanwhile
    with qtbot.waitSignal(c.tokenizer_loaded, timeout=30_000) as blocker:
        held["release"].set()
    assert held["threads"] and held["threads"][0] is not threading.main_thread()
    loaded = blocker.args[0]
    assert loaded.purpose == "import" and loaded.name == "bpe.json"
    assert not c.busy and c.index.n_merges == 5 and c.source_name == "bpe.json"
    assert window.act_import.isEnabled() and "bpe.json" in window.windowTitle()


def test_cancelling_an_import_keeps_what_was_shown(qtbot, loaded, exported, held):
    c = loaded.controller
    c.step(3)
    vocab = dict(c.index.vocab)
    messages = []
    c.message.connect(messages.append)
    assert c.import_tokenizer(exported / "tokenizer.json")
    assert held["started"].wait(10)
    c.cancel()
    with qtbot.waitSignal(c.busy_changed, timeout=30_000, check_params_cb=lambda b: not b):
        held["release"].set()
    assert c.has_trainer and c.index.vocab == vocab and c.index.n_merges == 3
    assert "cancelled" in messages[-1] and "nothing changed" in messages[-1]
    assert loaded.act_step.isEnabled()


def test_comparison_is_read_in_a_worker_too(qtbot, loaded, exported, held):
    c = loaded.controller
    tv = loaded.tokenize
    assert loaded.compare_with(exported / "tokenizer.json")
    assert c.busy == "import" and not tv.secondary.isVisible()
    with qtbot.waitSignal(c.tokenizer_loaded, timeout=30_000) as blocker:
        held["release"].set()
    assert blocker.args[0].purpose == "compare"
    assert held["threads"][0] is not threading.main_thread()
    assert tv.secondary.isVisible() and c.has_trainer  # the trained tokenizer stays the primary one
    tv.set_text("the cat")
    assert tv.wait_idle()
    assert [s.id for s in tv.secondary.view.spans] == [257, 260]  # "the" and " cat": merges #2 and #5


def test_a_bad_comparison_file_is_an_error_and_changes_nothing(qtbot, loaded, tmp_path):
    c = loaded.controller
    bad = tmp_path / "tokenizer.json"
    bad.write_text('{"model": {"type": "BPE", "vocab": [1, 2]}}', encoding="utf-8")
    with qtbot.waitSignal(c.error, timeout=30_000) as blocker:
        assert loaded.compare_with(bad)
    assert "tokenizer.json" in blocker.args[0]
    qtbot.waitUntil(lambda: not c.busy)
    assert not loaded.tokenize.secondary.isVisible() and c.has_trainer
    for b in loaded.findChildren(QMessageBox):
        b.close()


def test_the_command_line_opens_a_tokenizer_file_by_importing_it(qtbot, exported):
    from bpe_gui import create_window

    w = create_window(exported / "bpe.json", load_sample=False)
    qtbot.addWidget(w)
    assert w.controller.busy == "import"
    with qtbot.waitSignal(w.controller.tokenizer_loaded, timeout=30_000):
        pass
    assert w.controller.index.n_merges == 5 and not w.controller.has_trainer


def test_import_helper_waits_for_the_tokenizer(qtbot, window, exported):
    loaded = import_tokenizer(qtbot, window.controller, exported / "tokenizer.json")
    assert loaded.name == "tokenizer.json" and window.controller.index.n_merges == 5


def test_worker_errors_travel_as_exception_objects(qtbot, window, tmp_path, monkeypatch):
    """A core error reaches the GUI thread as the exception (shown as its message); an unexpected one
    goes to sys.excepthook as itself, with the traceback it had in the worker."""
    import sys

    from bpe_gui.actions import files as file_actions
    from bpe_gui.model import files
    from core import BPEError

    c = window.controller
    jobs = []
    real_start = c._start

    def start(job, *args, **kwargs):
        jobs.append(job)
        return real_start(job, *args, **kwargs)

    monkeypatch.setattr(c, "_start", start)
    missing = tmp_path / "missing.json"
    with qtbot.waitSignal(c.error, timeout=30_000) as shown:
        assert c.import_tokenizer(missing)
    qtbot.waitUntil(lambda: not c.busy)
    assert isinstance(jobs[-1], file_actions.ImportJob)
    assert isinstance(jobs[-1].result.error, BPEError) and jobs[-1].result.crash is None
    assert shown.args[0] == jobs[-1].result.error_message and "missing.json" in shown.args[0]

    def broken(*_a, **_k):
        raise KeyError("a bug in a loader")

    monkeypatch.setattr(files, "load_tokenizer", broken)
    hooked = []
    monkeypatch.setattr(sys, "excepthook", lambda *info: hooked.append(info))
    with qtbot.waitSignal(c.busy_changed, timeout=30_000, check_params_cb=lambda b: not b):
        assert c.import_tokenizer(missing)
    ((exc_type, exc, tb),) = hooked
    assert exc_type is KeyError and exc is jobs[-1].result.crash and exc.args == ("a bug in a loader",)
    import traceback

    assert "broken" in "".join(traceback.format_tb(tb))  # the worker's own frames
    assert c.source_name == "" and not c.busy
    for b in window.findChildren(QMessageBox):
        b.close()


def test_the_longest_tokens_list_skips_specials_and_breaks_ties_by_id(qtbot, window, tmp_path):
    """The browser's "longest tokens" of an imported vocab: longest first, equal lengths by id, special
    tokens (here the longest entries of all) left out."""
    from bpe_gui.views import token_lists
    from core.formats import save_native
    from core.formats.spec import TokenizerSpec

    pairs = [(b"a", b"b"), (b"c", b"d"), (b"ab", b"cd"), (b"e", b"f"), (b"ef", b"ab"), (b"x", b"y")]
    specials = ["<|a very long special token|>", "<|another long one|>"]
    spec = TokenizerSpec.from_merges(pairs, special_tokens=specials)
    save_native(spec, tmp_path / "bpe.json")
    import_tokenizer(qtbot, window.controller, tmp_path / "bpe.json")
    vocab = window.controller.index.vocab
    lists = window.browser.lists
    lists.refresh_longest()
    shown = [lists.longest.item(k).data(0x0100) for k in range(lists.longest.count())]
    special_bytes = {s.encode() for s in specials}
    by_length_then_id = sorted((-len(t), i, t) for i, t in vocab.items() if t not in special_bytes)
    assert shown == [t for _n, _i, t in by_length_then_id][: token_lists.N_LONGEST]
    assert shown[:3] == [b"abcd", b"efab", b"ab"]
