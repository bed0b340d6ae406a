"""The timeline of a tokenizer file without counts: its upper plot (pair counts) said nothing and
stood empty; it now says why it is empty, in the plot, and the note goes once counts come."""

from __future__ import annotations

from .gui_helpers import import_tokenizer, load


def _note_shown_whole(tl) -> bool:
    vb = tl.count_plot.getViewBox()
    return tl.no_counts.isVisible() and vb.sceneBoundingRect().contains(tl.no_counts.sceneBoundingRect())


def test_an_imported_tokenizer_says_why_its_count_plot_is_empty(qtbot, window, tmp_path, small_corpus):
    from core.formats import export_all
    from core.formats.spec import TokenizerSpec

    export_all(tmp_path, TokenizerSpec.from_merges([(b"t", b"h"), (b"th", b"e"), (b" ", b"the")]), "gpt2")
    window.resize(1280, 720)
    c, tl = window.controller, window.timeline
    assert not tl.no_counts.isVisible()  # (nothing yet: the "no merges yet" hint speaks)
    import_tokenizer(qtbot, c, tmp_path / "vocab.json")
    qtbot.waitUntil(lambda: not c.busy and len(tl.counts) == 3)
    tl.redraw()
    assert tl.graphics.isVisible() and not tl.count_curve.getData()[0]  # no point to draw …
    assert "No pair counts for these merges" in tl.no_counts.textItem.toPlainText()
    assert _note_shown_whole(tl)  # … and the plot says why, inside it
    window.resize(1366, 768)
    qtbot.waitUntil(lambda: _note_shown_whole(tl))
    # a corpus trained: counts are drawn and the note goes
    load(qtbot, window, small_corpus)
    with qtbot.waitSignal(c.stepped, timeout=30_000):
        c.step(3)
    tl.redraw()
    assert len(tl.count_curve.getData()[0]) == 3 and not tl.no_counts.isVisible()


def test_the_pair_table_says_an_imported_tiktoken_file_has_no_corpus_as_for_other_formats(
    qtbot, window, tmp_path
):
    # (a tiktoken file's merges are rebuilt after it is shown: the pair table kept "No corpus is open"
    # where a tokenizer.json or vocab.json said "Imported tokenizer: no corpus, so no pair counts")
    from core.formats import export_all
    from core.formats.spec import TokenizerSpec

    export_all(
        tmp_path, TokenizerSpec.from_merges([(b"t", b"h"), (b"th", b"e"), (b" ", b"the")]), ["hf", "tiktoken"]
    )
    c, pairs = window.controller, window.pairs
    for name in ("tokenizer.json", "bpe.tiktoken"):
        import_tokenizer(
            qtbot, c, tmp_path / name, **({"pattern": "gpt2", "special_tokens": {}} if "tik" in name else {})
        )
        qtbot.waitUntil(lambda: not c.busy and c.index.n_merges == 3)
        assert "Imported tokenizer: no corpus" in pairs.next_label.text(), (name, pairs.next_label.text())
