"""A long pasted text in the tokenize view: only the shown tokens get a span (the others are counted)."""

from __future__ import annotations

import threading

from bpe_gui.views import token_spans as spans_module
from bpe_gui.views.tokenize_view import SYNC_CHARS
from core.tokenization import tokenizer as tokenizer_module


def test_a_long_text_builds_spans_only_for_the_tokens_shown(qtbot, trained, monkeypatch):
    """A 1 MB paste made the view build a span for each of its 346,394 tokens (0.8 s of the 1 s it
    took after every key and every step, the window frozen): the view shows 20,000 of them."""
    monkeypatch.setattr(spans_module, "MAX_RENDERED", 40)
    built: list[int] = []
    real = tokenizer_module.token_spans

    def counting(text, ids, vocab, special_ids):
        ids = list(ids)
        built.append(len(ids))
        return real(text, ids, vocab, special_ids)

    monkeypatch.setattr(tokenizer_module, "token_spans", counting)
    w = trained
    tv = w.tokenize
    text = "the quick brown fox jumps over the lazy dog; " * 300
    tv.set_text(text)
    qtbot.waitUntil(
        lambda: tv.idle and "more tokens not shown" in tv.primary.view.toPlainText(), timeout=30_000
    )
    n = len(w.controller.cached_tokenizer().encode(text, add_special_tokens=False))
    assert n > 1000
    assert built and max(built) <= 40
    assert len(tv.primary.view.spans) == 40
    assert f"<b>{n:,}</b> tokens" in tv.primary.stats.text()
    assert f"… {n - 40:,} more tokens not shown" in tv.primary.view.toPlainText()


def test_the_compared_tokenizer_traces_a_long_text_off_the_gui_thread(qtbot, trained, tmp_path):
    """GPT-2 beside a pasted megabyte was traced on the GUI thread after every key and step (0.4 s
    of a frozen window each time): a text too long for that goes to the tokenize job with it."""
    w = trained
    c = w.controller
    tv = w.tokenize
    c.export(tmp_path, ["gpt2"])
    with qtbot.waitSignal(c.tokenizer_loaded, timeout=30_000):
        assert w.compare_with(tmp_path / "vocab.json")
    qtbot.waitUntil(lambda: tv.secondary.tokenizer is not None)
    other = tv.secondary.tokenizer
    threads: list[threading.Thread] = []
    real = other.trace_head

    def recording(text, limit):
        threads.append(threading.current_thread())
        return real(text, limit)

    other.trace_head = recording
    text = "the quick brown fox jumps over the lazy dog; " * 200
    assert len(text) > SYNC_CHARS
    tv.set_text(text)
    n = len(other.encode(text, add_special_tokens=False))
    qtbot.waitUntil(lambda: tv.idle and f"<b>{n:,}</b> tokens" in tv.secondary.stats.text(), timeout=30_000)
    assert threads and threading.main_thread() not in threads
    tv.set_text("short")  # a short text is still traced at once, here
    assert threads[-1] is threading.main_thread()
    assert "<b>" in tv.secondary.stats.text()
