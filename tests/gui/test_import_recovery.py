"""A tiktoken import is shown as soon as it is read; its merge list (rebuilt from the ranks) follows in
batches from the worker, as a training run's merges do, and Cancel keeps the merges shown so far."""

from __future__ import annotations

import threading

import pytest

from .gui_helpers import SMALL_TEXT, import_tokenizer

BATCH = 7


@pytest.fixture
def ranks_file(tmp_path):
    """(a .tiktoken file of a tokenizer trained here, the merges it was trained with)."""
    from core import train_bpe
    from core.formats import save_tiktoken
    from core.formats.spec import TokenizerSpec

    corpus = tmp_path / "corpus.txt"
    corpus.write_text(SMALL_TEXT, encoding="utf-8")
    _, merges = train_bpe(corpus, 300, [])
    path = save_tiktoken(TokenizerSpec.from_merges(merges), tmp_path / "mine.tiktoken")
    return path, merges


@pytest.fixture
def small_batches(monkeypatch):
    from bpe_gui.actions import files as file_actions

    monkeypatch.setattr(file_actions, "RECOVER_BATCH", BATCH)


def test_a_tiktoken_import_is_shown_before_its_merges_which_follow_in_batches(
    qtbot, window, ranks_file, small_batches
):
    path, merges = ranks_file
    c = window.controller
    seen = []  # (what happened, merges shown then, busy)
    c.merges_reset.connect(lambda: seen.append(("shown", c.index.n_merges, c.busy)))
    c.merges_appended.connect(lambda n: seen.append(("batch", n, c.busy)))
    messages = []
    c.message.connect(messages.append)
    loaded = import_tokenizer(qtbot, c, path)
    assert seen[0] == ("shown", 0, "import")  # shown while the import runs, before any merge
    batches = [n for what, n, _ in seen[1:] if what == "batch"]
    assert sum(batches) == len(merges) and max(batches) == BATCH and len(batches) > 3
    assert all(busy == "import" for what, _, busy in seen[1:])  # they come while the import runs
    assert [m.pair for m in c.index.merges] == merges  # the merges it was trained with
    assert [m.token_id for m in c.index.merges] == list(range(256, 256 + len(merges)))
    assert [r.pair for r in c.records] == merges and len(loaded.records) == len(merges)
    assert (
        c.model.imported.merges_built and c.model.imported.merges == merges
    )  # handed over, not rebuilt again
    assert not c.busy and f"{len(merges):,} merges" in messages[-1]
    assert c.index.parts(merges[-1][0] + merges[-1][1]) == merges[-1]
    note = window.training_panel.imported_note  # what the import uses, though it came without merges
    assert not note.isHidden() and "Imported tokenizer (mine.tiktoken)" in note.text()


def test_cancel_while_merges_are_recovered_keeps_the_first_batch_and_the_tokenizer(
    qtbot, window, ranks_file, small_batches, monkeypatch
):
    from bpe_gui.actions import files as file_actions
    from core.bpe.recovery import iter_recovered_merges

    path, merges = ranks_file
    go = threading.Event()

    def held(tokens):  # the first batch, then wait for the test (the worker stops there)
        for n, item in enumerate(iter_recovered_merges(tokens)):
            if n == BATCH:
                go.wait(30)
            yield item

    monkeypatch.setattr(file_actions, "iter_recovered_merges", held)
    c = window.controller
    messages = []
    c.message.connect(messages.append)
    with qtbot.waitSignal(c.merges_appended, timeout=30_000):
        assert c.import_tokenizer(path)
    assert c.busy == "import" and c.index.n_merges == BATCH and c.source_name == "mine.tiktoken"
    tok = c.cached_tokenizer()
    ids = tok.encode("the cat sat on the mat.")
    assert len(ids) < len("the cat sat on the mat.")  # it encodes (by rank) while the merges come
    window.tokenize.input.setPlainText("the cat")
    window.tokenize.refresh()  # what its timer does after typing
    pane = window.tokenize.primary
    assert pane.tokenizer is tok
    hover = pane.describe(next(s for s in pane.view.spans if len(s.token) > 1))
    assert "not recovered" in hover and not tok.merges_built  # hovering does not rebuild them here
    c.cancel()
    with qtbot.waitSignal(c.busy_changed, timeout=30_000, check_params_cb=lambda b: not b):
        go.set()
    assert c.index.n_merges == BATCH and [m.pair for m in c.index.merges] == merges[:BATCH]
    assert c.model.imported is tok and c.source_name == "mine.tiktoken"
    assert "stopped" in messages[-1] and f"first {BATCH}" in messages[-1]
    assert window.act_import.isEnabled()


def test_a_tiktoken_file_to_compare_with_has_its_merges_rebuilt_in_the_worker(qtbot, window, ranks_file):
    path, merges = ranks_file
    c = window.controller
    with qtbot.waitSignal(c.tokenizer_loaded, timeout=30_000) as blocker:
        assert window.compare_with(path)
    loaded = blocker.args[0]
    assert loaded.purpose == "compare" and loaded.records == []  # no merge list is shown for it
    tok = loaded.tokenizer
    assert tok.merges_built and tok.merges == merges  # its hover reads them: not rebuilt on the GUI thread
    assert c.index.n_merges == 0  # what is on show did not change


def test_the_tokenize_title_counts_the_merges_as_they_arrive(qtbot, window, ranks_file, small_batches):
    """The tokens of an import are its whole tokenizer's from the start; the pane's title followed its
    merges only when the tokens were redone (cl100k: "40,000 merges" for seconds after 100,000)."""
    import re

    path, merges = ranks_file
    c, title = window.controller, window.tokenize.primary.title
    window.tokenize.set_text("the cat sat")
    seen = []

    def shown() -> int:
        return int(re.search(r"— ([\d,]+) merge", title.text()).group(1).replace(",", ""))

    c.merges_appended.connect(lambda _n: seen.append((shown(), c.index.n_merges)))
    import_tokenizer(qtbot, c, path)
    assert len(seen) > 3 and all(a == b for a, b in seen), seen
    qtbot.waitUntil(lambda: not c.busy)
    assert shown() == len(merges)
