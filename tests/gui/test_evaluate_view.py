"""The Evaluate view: tokenizers × texts in the worker thread, table, charts, merge tree, export, held-out."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from bpe_gui.jobs.evaluate import TokSource
from core.formats import export_all

from .gui_helpers import SMALL_TEXT

tiktoken = pytest.importorskip("tiktoken")
GPT2_PAT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
EOT = "<|endoftext|>"


def _tiktoken_of(c):
    """A tiktoken Encoding of the controller's current vocab (independent encoder)."""
    ix = c.index
    sids = {s: max(i for i, b in ix.vocab.items() if b == s.encode()) for s in ix.special_tokens}
    ranks = {b: i for i, b in ix.vocab.items() if i not in sids.values()}
    return tiktoken.Encoding("t", pat_str=GPT2_PAT, mergeable_ranks=ranks, special_tokens=sids)


def _step(qtbot, c, n):
    for _ in range(n):
        c.step(1)
    qtbot.waitUntil(lambda: not c.busy, timeout=30_000)


def test_evaluate_current_and_file_tokenizers(qtbot, loaded, tmp_path, small_corpus):
    c = loaded.controller
    _step(qtbot, c, 30)
    tk = _tiktoken_of(c)
    export_all(tmp_path / "tok", c.tokenizer())
    ev = loaded.evaluate
    ev.add_current()
    ev.add_tokenizer(TokSource("exported", "path", str(tmp_path / "tok")))
    ev.add_text(str(small_corpus))
    assert ev.run_button.isEnabled()
    with qtbot.waitSignal(ev.finished, timeout=60_000):
        qtbot.mouseClick(ev.run_button, qtbot_left())
    assert ev.last_error is None and ev.model.rowCount() == 2
    ids = tk.encode(SMALL_TEXT, allowed_special="all")
    docs = [d for d in SMALL_TEXT.split(EOT) if d]
    for row in range(2):
        r = ev.results[row]
        assert r.tokens == len(ids) and r.documents == len(docs)
        assert list(r.doc_tokens) == [len(tk.encode(d)) for d in docs]
        assert r.vocab_used == len(set(ids))
        shown = ev.model.data(ev.model.index(row, 4))
        assert shown == f"{len(ids):,}"
        assert ev.model.data(ev.model.index(row, 5)) == f"{len(SMALL_TEXT.encode()) / len(ids):.3f}"
    assert "30 merges" in ev.results[0].tokenizer and ev.results[1].tokenizer == "exported"
    # charts: one bar group per tokenizer, heights = bytes/token
    import pyqtgraph as pg

    bars = [i for i in ev.bpt_plot.getPlotItem().items if isinstance(i, pg.BarGraphItem)]
    assert [b.opts["height"][0] for b in bars] == pytest.approx([len(SMALL_TEXT.encode()) / len(ids)] * 2)
    # longest tokens and their merge tree
    assert ev.longest.count() == 20
    ev.longest.setCurrentRow(0)
    top = ev.tree.topLevelItem(0)
    longest = ev.results[0].longest[0]
    assert top.text(1) == str(longest.id)

    def leaves(item):
        if item.childCount() == 0:
            return [int(item.text(1))]
        return [x for k in range(item.childCount()) for x in leaves(item.child(k))]

    assert bytes(leaves(top)) == c.index.vocab[longest.id] and all(i < 256 for i in leaves(top))
    # the browser's lists: never used on the text (from this evaluation) and the longest tokens
    lists = loaded.browser.lists
    assert lists.unused.item(0).text().startswith(f"{tk.n_vocab - len(set(ids)):,} tokens never used on ")
    never = [i for i in sorted(c.index.vocab) if i not in set(ids)]
    shown = [lists.unused.item(k).data(Qt.ItemDataRole.UserRole) for k in range(1, lists.unused.count())]
    assert shown == [c.index.vocab[i] for i in never]
    by_len = sorted(
        (i for i, b in c.index.vocab.items() if b != EOT.encode()), key=lambda i: (-len(c.index.vocab[i]), i)
    )
    qtbot.waitUntil(
        lambda: lists.longest.item(0).data(Qt.ItemDataRole.UserRole) == c.index.vocab[by_len[0]],
        timeout=5_000,
    )  # refreshed after the merges changed (throttled)
    lists.longest.setCurrentRow(0)
    assert loaded.browser.tree.topLevelItem(0).text(1) == str(by_len[0])
    # exports
    ev.export(str(tmp_path / "r.json"), "json")
    ev.export(str(tmp_path / "r.csv"), "csv")
    data = json.loads((tmp_path / "r.json").read_text())
    assert [d["tokens"] for d in data] == [len(ids)] * 2
    assert (tmp_path / "r.csv").read_text().splitlines()[0].startswith("tokenizer,file,bytes")
    assert ev.save_chart(str(tmp_path / "c.png")) and not QImage(str(tmp_path / "c.png")).isNull()


def qtbot_left():
    return Qt.MouseButton.LeftButton


def test_cancel_stops_the_evaluation(qtbot, loaded, tmp_path):
    big = tmp_path / "big.txt"
    big.write_text(SMALL_TEXT * 400, encoding="utf-8")
    ev = loaded.evaluate
    ev.add_current()
    ev.add_text(str(big))
    clicked = []

    def click_cancel(phase, done, total):
        if phase == "load" and not clicked:
            clicked.append(done)
            qtbot.mouseClick(ev.cancel_button, qtbot_left())

    ev.progress.connect(click_cancel)
    with qtbot.waitSignal(ev.finished, timeout=60_000):
        ev.run()
    assert clicked and ev.bar.format() == "Cancelled" and ev.results == []
    assert ev.run_button.isEnabled() and not ev.cancel_button.isEnabled()


def test_unavailable_encoding_is_reported_when_it_is_added(
    qtbot, loaded, small_corpus, tmp_path, monkeypatch
):
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "empty"))
    ev = loaded.evaluate
    assert not ev.add_tokenizer(TokSource("gpt2", "known", "gpt2"))
    assert ev.toks == [] and ev.tok_list.count() == 0
    assert ev.notice.isVisibleTo(ev)
    assert (
        "gpt2" in ev.notice.text()
        and "r50k_base.tiktoken" in ev.notice.text()
        and "Add file" in ev.notice.text()
    )
    assert ev.add_text(str(small_corpus))
    assert not ev.notice.isVisibleTo(ev) and not ev.run_button.isEnabled()


def test_held_out_compression_follows_steps(qtbot, loaded, small_corpus):
    c = loaded.controller
    ev = loaded.evaluate
    held = "the cat sat on the mat and the dog ran to the barn. " * 20
    ev.set_held_out(held)
    for n in (5, 15):
        with qtbot.waitSignal(ev.held_out_updated, timeout=30_000):
            _step(qtbot, c, n - c.index.n_merges)
        qtbot.waitUntil(lambda: ev.held_out and ev.held_out[-1][0] == c.index.n_merges, timeout=30_000)
        want = len(held.encode()) / len(_tiktoken_of(c).encode(held))
        assert ev.held_out[-1][1] == pytest.approx(want)
    assert [p[0] for p in ev.held_out] == sorted(p[0] for p in ev.held_out)


def test_menu_shows_the_dock(qtbot, window):
    acts = [
        a
        for m in window.menuBar().actions()
        for a in (m.menu().actions() if m.menu() else [])
        if a is window.evaluate_dock.toggleViewAction()
    ]
    assert acts and not window.evaluate_dock.isVisible()
    acts[0].trigger()
    assert window.evaluate_dock.isVisible()


def test_results_table_gives_no_speed_for_a_text_too_small_to_time(qapp):
    from types import SimpleNamespace

    from bpe_gui.jobs.evaluate import COLUMNS, ResultsModel

    m = ResultsModel()
    row = {key: 1.0 for key, _, _ in COLUMNS} | {"tokenizer": "t", "file": "f"}
    m.set_rows([SimpleNamespace(**row, timed=False), SimpleNamespace(**row, timed=True)])
    col = [key for key, _, _ in COLUMNS].index("pile_hours")
    small, big = m.index(0, col), m.index(1, col)
    assert m.data(small) == "–" and "too small to time" in m.data(small, Qt.ItemDataRole.ToolTipRole)
    assert m.data(big) == "1.0" and m.data(big, Qt.ItemDataRole.ToolTipRole) is None


def test_documents_histogram_counts_in_whole_documents(qtbot):
    from types import SimpleNamespace

    import pyqtgraph as pg

    from bpe_gui.views.evaluate_charts import draw_charts

    bpt, docs = pg.PlotWidget(), pg.PlotWidget()
    qtbot.addWidget(bpt)
    qtbot.addWidget(docs)
    row = SimpleNamespace(tokenizer="t", file="f", bytes_per_token=3.0, doc_tokens=(3, 4, 5))
    draw_charts(bpt, docs, [row])  # every bar is 1 document high
    levels = docs.getAxis("left").tickValues(0, 1.2, 300)
    values = [v for _spacing, vs in levels for v in vs]
    assert values and all(float(v).is_integer() for v in values), values


def test_evaluate_dock_on_a_1280x720_screen_leaves_the_timeline_readable(qtbot, window, small_corpus):
    # (docked below the views, the plots may go down to the compact height, two plots still readable)
    from bpe_gui.views.timeline_view import GRAPH_COMPACT_HEIGHT as MIN_PLOT_HEIGHT

    from .gui_helpers import load

    load(qtbot, window, small_corpus)
    with qtbot.waitSignal(window.controller.stepped):
        window.controller.step(5)
    window.evaluate_dock.show()
    window.setMaximumSize(1280, 720)
    window.resize(1280, 720)
    qtbot.waitUntil(window.timeline.graphics.isVisible)  # the timeline draws after a short delay
    assert window.height() <= 720  # the dock scrolls rather than growing the window past the screen
    assert window.timeline.graphics.height() >= MIN_PLOT_HEIGHT


def test_a_tokenizer_file_is_named_with_its_folder(qtbot, trained, tmp_path, monkeypatch):
    """Two 'vocab.json' entries could not be told apart: the folder is in the name, the path in the
    tooltip."""
    from bpe_gui.views import evaluate_view

    trained.controller.export(tmp_path / "mine", ["gpt2"])
    path = str(tmp_path / "mine" / "vocab.json")
    monkeypatch.setattr(evaluate_view.QFileDialog, "getOpenFileName", lambda *a, **k: (path, ""))
    view = evaluate_view.EvaluateView(trained.controller)
    qtbot.addWidget(view)
    view._add_tok_dialog()
    item = view.tok_list.item(view.tok_list.count() - 1)
    assert item.text() == "mine/vocab.json" and item.toolTip() == path


def test_the_held_out_chart_follows_one_run(qtbot, loaded, tmp_path):
    """It drew an imported GPT-2 at 50,000 merges and cl100k at 100,000 as one training line."""
    from .gui_helpers import import_tokenizer

    c = loaded.controller
    ev = loaded.evaluate
    held = "the cat sat on the mat and the dog ran to the barn. " * 20
    ev.set_held_out(held)
    with qtbot.waitSignal(ev.held_out_updated, timeout=30_000):
        _step(qtbot, c, 5)
    assert ev.held_out
    c.export(tmp_path, ["gpt2"])
    import_tokenizer(qtbot, c, tmp_path / "vocab.json")
    qtbot.waitUntil(lambda: not c.busy)
    assert ev.held_out == []  # another tokenizer: the line starts again …
    ev.measure_held_out()
    assert ev._ho_job is None and ev.held_out == []  # … and an import is not a training run


def test_the_progress_bar_says_what_is_missing_before_a_run(qtbot, loaded, small_corpus):
    """Evaluate was greyed out with nothing saying why: the bar under it (empty until a run) now
    says what to add, that Evaluate runs the lists, and after a run its outcome until they change."""
    c = loaded.controller
    _step(qtbot, c, 5)
    ev = loaded.evaluate
    assert not ev.run_button.isEnabled()
    assert ev.bar.text() == "Add tokenizers and texts, then press Evaluate"
    ev.add_current()
    assert ev.bar.text() == "Add a text to evaluate on: Add text…"
    ev.clear()
    ev.add_text(str(small_corpus))
    assert ev.bar.text() == "Add a tokenizer with one of the three buttons above"
    ev.add_current()
    assert ev.run_button.isEnabled() and ev.bar.text() == "Press Evaluate to compare them on these texts"
    with qtbot.waitSignal(ev.finished, timeout=60_000):
        ev.run()
    assert ev.bar.text() == "Done"
    ev.add_text(str(small_corpus))  # (a list changed since the run: "Done" is not about it)
    assert ev.bar.text() == "Press Evaluate to compare them on these texts"


def test_the_chart_legend_covers_no_bar(qtbot, window):
    """The bytes/token chart's legend sat in the plot's top right corner, over the bars of a short
    (docked) chart: it stands above the charts now, each name in its tokenizer's colour."""
    from types import SimpleNamespace

    import pyqtgraph as pg

    from bpe_gui.views.evaluate_charts import COLORS

    ev = window.evaluate
    window.evaluate_dock.show()
    qtbot.waitUntil(ev.isVisible)
    names = [f"tokenizer {k} @ {k * 1000:,} merges" for k in range(3)]
    ev.results = [
        SimpleNamespace(tokenizer=n, file=f"/texts/t{j}.txt", bytes_per_token=2.0 + k + j, doc_tokens=(3, 4))
        for k, n in enumerate(names)
        for j in range(2)
    ]
    ev._draw_charts()
    ev.bpt_plot.setFixedHeight(170)  # (a docked panel on a laptop)
    qtbot.waitUntil(lambda: ev.bpt_plot.height() == 170)
    ev.bpt_plot.getPlotItem().vb.updateMatrix()
    bars = [i for i in ev.bpt_plot.getPlotItem().items if isinstance(i, pg.BarGraphItem)]
    assert len(bars) == 3
    top = max(max(b.opts["height"]) for b in bars)
    assert ev.bpt_plot.getPlotItem().vb.viewRange()[1][1] >= top  # every bar whole
    in_plot = [i for i in ev.bpt_plot.scene().items() if isinstance(i, pg.LegendItem) and i.isVisible()]
    for legend in in_plot:
        for bar in bars:
            assert not legend.sceneBoundingRect().intersects(bar.sceneBoundingRect()), (
                "the legend covers bars"
            )
    # the legend: every name in its bars' colour, outside the plots
    shown = ev.legend.text()
    assert ev.legend.isVisibleTo(ev)
    for k, name in enumerate(names):
        assert f"color:{COLORS[k]}" in shown and name.replace(" ", "&nbsp;") in shown
    legend_rect = ev.legend.rect().translated(ev.legend.mapToGlobal(ev.legend.rect().topLeft()))
    plot_rect = ev.bpt_plot.rect().translated(ev.bpt_plot.mapToGlobal(ev.bpt_plot.rect().topLeft()))
    assert not legend_rect.intersects(plot_rect)


def test_an_opened_tokenizer_is_evaluated_with_its_own_pattern_and_normalizer(
    qtbot, window, tmp_path, small_corpus
):
    """Evaluate's "current" tokenizer for an opened tokenizer.json (GPT-4's pattern, an NFC normalizer)
    was rebuilt from its merges with the training panel's pattern (GPT-2) and no normalizer: other token
    counts than the file's, with nothing said. It is now the opened tokenizer itself."""
    from tokenizers import Tokenizer as HF

    from core import Tokenizer, Trainer
    from core.formats import load_any

    from .gui_helpers import import_tokenizer

    t = Trainer.from_file(small_corpus, [EOT], pattern="gpt4")
    t.run(337)
    export_all(tmp_path / "tok", t, ["hf"])
    path = tmp_path / "tok" / "tokenizer.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["normalizer"] = {"type": "NFC"}
    path.write_text(json.dumps(data), encoding="utf-8")
    text = tmp_path / "eval.txt"
    sample = "The cat sat.\nThe dog sat.\n12345 678 cafe\u0301 CAFE\u0301's\n" * 30
    text.write_text(sample, encoding="utf-8")
    want = len(HF.from_file(str(path)).encode(sample).ids)
    assert want == len(Tokenizer.from_spec(load_any(path)).encode(sample))
    as_before = Tokenizer(t.vocab, t.merges, [EOT], pattern="gpt2")  # what "current" used to be
    assert len(as_before.encode(sample)) != want  # (the text tells the two apart)
    c = window.controller
    import_tokenizer(qtbot, c, str(path))
    assert window.training_panel.pattern.currentData() == "gpt2"  # (the panel: for the next corpus)
    ev = window.evaluate
    ev.add_current()
    ev.add_text(str(text))
    with qtbot.waitSignal(ev.finished, timeout=60_000):
        ev.run()
    assert ev.last_error is None
    assert [r.tokens for r in ev.results] == [want]
    assert ev.results[0].bytes_per_token == pytest.approx(len(sample.encode()) / want)


def test_one_document_per_tokenizer_gives_bars_that_can_be_seen(qtbot):
    """A 15 MB Chinese file (one document) with ours and GPT-2: each histogram had bins one token wide,
    at 10,424,764 and 10,638,991 tokens, on an axis 200,000 tokens wide: the chart stood empty."""
    from types import SimpleNamespace

    import pyqtgraph as pg

    from bpe_gui.views.evaluate_charts import draw_charts

    bpt, docs = pg.PlotWidget(), pg.PlotWidget()
    qtbot.addWidget(bpt)
    qtbot.addWidget(docs)
    rows = [
        SimpleNamespace(tokenizer="ours", file="zh", bytes_per_token=1.45, doc_tokens=(10_424_764,)),
        SimpleNamespace(tokenizer="gpt2", file="zh", bytes_per_token=1.42, doc_tokens=(10_638_991,)),
    ]
    draw_charts(bpt, docs, rows)
    curves = docs.getPlotItem().listDataItems()
    assert len(curves) == 2
    span = 10_638_991 - 10_424_764
    for curve in curves:
        xs, ys = curve.getData()
        filled = [(a, b) for a, b, h in zip(xs[:-1], xs[1:], ys, strict=False) if h > 0]
        assert filled and all(b - a >= span / 30 for a, b in filled)
    one = [SimpleNamespace(tokenizer="ours", file="zh", bytes_per_token=1.45, doc_tokens=(10_424_764,))]
    draw_charts(bpt, docs, one)
    xs, ys = docs.getPlotItem().listDataItems()[0].getData()
    assert xs[-1] - xs[0] >= 0.05 * 10_424_764


def test_token_counts_on_the_histogram_axis_are_written_out(qtbot, loaded):
    """The tokens-per-document axis of a 15 MB document read "1.05e+07": its ticks are written with
    thousands separators, as the table writes the same counts; small counts keep their usual ticks."""
    from types import SimpleNamespace

    from bpe_gui.views.evaluate_charts import draw_charts

    ev = loaded.evaluate
    rows = [
        SimpleNamespace(tokenizer="ours", file="zh", bytes_per_token=1.45, doc_tokens=(10_424_764,)),
        SimpleNamespace(tokenizer="gpt2", file="zh", bytes_per_token=1.42, doc_tokens=(10_638_991,)),
    ]
    draw_charts(ev.bpt_plot, ev.doc_plot, rows)
    axis = ev.doc_plot.getPlotItem().getAxis("bottom")
    levels = axis.tickValues(10_400_000, 10_700_000, 300)  # (the range the two bars span)
    spacing, ticks = levels[0]
    shown = axis.tickStrings(ticks, 1.0, spacing)
    assert shown and not any("e+" in t for t in shown), shown
    assert all(t.replace(",", "").isdigit() and "," in t for t in shown), shown
    assert axis.tickStrings([0.5, 1.0, 1.5], 1.0, 0.5) == ["0.5", "1.0", "1.5"]
