"""A SentencePiece model in the app: imported, its vocab with pieces (▁, <0xE4>) and scores, the
tokenize view marking byte-fallback tokens, Compare and Evaluate (ids checked against sentencepiece).
The model is one mistral-common ships (the test extra depends on it)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest
import sentencepiece as spm
from PySide6.QtCore import Qt

from bpe_gui.jobs.evaluate import TokSource
from bpe_gui.views.browser_models import TOOLTIP

from .gui_helpers import import_tokenizer

MODEL = Path(str(resources.files("mistral_common") / "data" / "tokenizer.model.v1"))
DISPLAY = int(Qt.ItemDataRole.DisplayRole)
TEXT = "Hello world, 你好世界! 🤖 emoji\n  spaced\tdone"


@pytest.fixture(scope="module")
def ref() -> spm.SentencePieceProcessor:
    return spm.SentencePieceProcessor(model_file=str(MODEL))


def _cell(model, row: int, col: int, role: int = DISPLAY):
    return model.data(model.index(row, col), role)


def test_imported_model_shows_pieces_scores_and_byte_fallback(qtbot, window, ref) -> None:
    c = window.controller
    loaded = import_tokenizer(qtbot, c, MODEL)
    assert loaded.tokenizer.encode(TEXT) == ref.encode(TEXT)
    b = window.browser
    b.vocab_model.sync()
    ix = c.index
    vm = b.vocab_model
    newline = ref.piece_to_id("<0x0A>")
    the = ref.piece_to_id("▁the")
    row = ix.row_of_id(newline)
    assert _cell(vm, row, 1) == "<0x0A>"  # a byte piece by its name (hex), not the byte itself
    assert _cell(vm, row, 4) == "byte fallback"
    assert "0x0A" in _cell(vm, row, 1, TOOLTIP)
    row = ix.row_of_id(the)
    assert _cell(vm, row, 1) == "▁the"
    assert _cell(vm, row, 5) == f"{ref.get_score(the):g}"
    assert _cell(vm, row, 4).startswith("merge #")
    assert not b.vocab_table.isColumnHidden(5)  # the Score column
    assert _cell(vm, ix.row_of_id(1), 4) == "special"  # <s>
    # the merge list comes from the pieces, in score order: the first makes "▁t"
    assert c.index.merges[0].pair == (b" ", b"t")


def test_score_column_is_hidden_for_byte_level_tokenizers(trained) -> None:
    assert trained.browser.vocab_table.isColumnHidden(5)


def test_tokenize_view_marks_byte_fallback_tokens(qtbot, window, ref) -> None:
    c = window.controller
    import_tokenizer(qtbot, c, MODEL)
    tv = window.tokenize
    tv.set_text(TEXT)
    assert tv.wait_idle()
    view = tv.primary.view
    assert [s.id for s in view.spans] == ref.encode(TEXT)
    shown = view.toPlainText()
    assert "<0xF0><0x9F><0xA4><0x96>" in shown.replace("\u2060", "").replace("\u200b", "")  # 🤖
    fallback = next(s for s in view.spans if s.id == ref.piece_to_id("<0xF0>"))
    assert "byte fallback" in tv.primary.describe(fallback)
    word = next(s for s in view.spans if s.id == ref.piece_to_id("▁world"))
    hover = tv.primary.describe(word)
    assert "▁world" in hover and f"score {ref.get_score(word.id):g}" in hover


def test_compare_takes_a_sentencepiece_model(qtbot, trained, ref) -> None:
    c = trained.controller
    tv = trained.tokenize
    with qtbot.waitSignal(c.tokenizer_loaded, timeout=60_000):
        assert trained.compare_with(MODEL)
    tv.set_text(TEXT)
    assert tv.wait_idle()
    assert tv.secondary.isVisible()
    assert [s.id for s in tv.secondary.view.spans] == ref.encode(TEXT)
    assert tv.primary.view.spans  # the trained byte-level tokenizer beside it
    tv.close_compare.click()


def test_evaluate_takes_a_sentencepiece_model(qtbot, loaded, tmp_path, ref) -> None:
    text = tmp_path / "text.txt"
    text.write_text(TEXT, encoding="utf-8")
    ev = loaded.evaluate
    ev.add_current()
    ev.add_tokenizer(TokSource("mistral", "path", str(MODEL)))
    ev.add_text(str(text))
    with qtbot.waitSignal(ev.finished, timeout=120_000):
        ev.run_button.click()
    assert ev.last_error is None and ev.model.rowCount() == 2
    r = ev.results[1]
    assert r.tokenizer == "mistral" and r.tokens == len(ref.encode(TEXT))
    assert r.byte_fallback_share > 0  # the emoji's four byte pieces


def test_a_session_with_a_sentencepiece_model_reopens(qtbot, window, tmp_path, ref) -> None:
    c = window.controller
    import_tokenizer(qtbot, c, MODEL)
    path = window.save_session(str(tmp_path / "sp.bpe.json"))
    assert path is not None
    with qtbot.waitSignal(c.session_opened, timeout=60_000):
        assert window.open_session(str(path))
    tok = c.tokenizer()
    assert tok.encode(TEXT) == ref.encode(TEXT)
    assert tok.decode(ref.encode(TEXT)) == ref.decode(ref.encode(TEXT))
    assert c.index.char_model is not None  # the vocab shows pieces and scores again


def test_a_char_level_tokenizer_json_shows_its_pieces(qtbot, window, tmp_path, ref) -> None:
    """The tokenizer.json export of the model, opened: pieces by name, no Score column (a
    tokenizer.json ranks merges, it has no scores), HF's ids."""
    from tokenizers import Tokenizer as HF

    from core.formats import load_any, save

    path = save(load_any(MODEL), tmp_path / "tokenizer.json", "hf")[0]
    c = window.controller
    loaded = import_tokenizer(qtbot, c, path)
    assert loaded.tokenizer.encode(TEXT) == HF.from_file(str(path)).encode(TEXT).ids == ref.encode(TEXT)
    b = window.browser
    b.vocab_model.sync()
    row = c.index.row_of_id(ref.piece_to_id("<0xE4>"))
    assert _cell(b.vocab_model, row, 1) == "<0xE4>" and _cell(b.vocab_model, row, 4) == "byte fallback"
    assert b.vocab_table.isColumnHidden(5)


def test_hover_names_the_tokens_own_characters_despite_the_prefix_space(qtbot, window, ref) -> None:
    """SentencePiece puts "▁" before the text, so the spans' offsets are one character on: the hover
    named the next character (世 for 你, the emoji's neighbour for its byte-fallback pieces)."""
    c = window.controller
    import_tokenizer(qtbot, c, MODEL)
    tv = window.tokenize
    tv.set_text(TEXT)
    assert tv.wait_idle()
    pane, spans = tv.primary, tv.primary.view.spans
    for s in spans:
        if s.is_special or len(s.token) < 2 or not s.complete_utf8:
            continue
        chars = s.token.decode("utf-8").replace(" ", "")
        hover = pane.describe(s)
        for ch in chars:
            if ord(ch) > 127:
                assert ch in hover, (s.token, hover)
    robot = next(s for s in spans if s.id == ref.piece_to_id("<0xF0>"))
    assert "🤖" in pane.describe(robot)
    assert "🤖" in pane.split_chars.text()


def test_the_merge_tree_ends_in_character_pieces_not_byte_fallback(qtbot, window, ref) -> None:
    """▁the was shown built from ids 35 and 119 (the byte pieces <0x20>, <0x74>, "byte") instead of
    the character pieces ▁ and t that the merges join."""
    c = window.controller
    import_tokenizer(qtbot, c, MODEL)
    b = window.browser
    b.show_tree(b" the")
    leaves = []

    def walk(item) -> None:
        if item.childCount() == 0:
            leaves.append((item.text(1), item.text(2)))
        for k in range(item.childCount()):
            walk(item.child(k))

    walk(b.tree.topLevelItem(0))
    want = [str(ref.piece_to_id(p)) for p in ("▁", "t", "h", "e")]
    assert [tid for tid, _ in leaves] == want
    assert {origin for _, origin in leaves} == {"character"}
    assert c.index.token_ids[b" "] == ref.piece_to_id("▁")


def test_clicking_a_character_piece_says_what_it_is(qtbot, window, ref) -> None:
    """Clicking 你 said 'made by no merge (a byte or a special token)'."""
    c = window.controller
    import_tokenizer(qtbot, c, MODEL)
    tv = window.tokenize
    tv.set_text("你")
    assert tv.wait_idle()
    spans = tv.primary.view.spans
    i = next(k for k, s in enumerate(spans) if s.token == "你".encode())
    messages: list[str] = []
    c.message.connect(messages.append)
    tv._token_clicked(i)
    assert messages and "character piece" in messages[-1] and f"{spans[i].id:,}" in messages[-1]


@pytest.mark.parametrize(
    ("language", "said", "not_said"),
    [
        ("en", "pattern None (whole text)", "pattern none"),
        ("zh_CN", "模式 不预分词（整段文本）", "模式 none"),
    ],
)
def test_the_imported_note_names_the_pattern_as_the_pattern_box_does(qtbot, language, said, not_said) -> None:
    """A SentencePiece model has no pre-tokenizer: the training panel's note said "pattern none" (in the
    Chinese app too: "模式 none"), a built-in one "pattern gpt2", where the Pattern box beside it says
    "None (whole text)" and "GPT-2"."""
    from .gui_helpers import shown_window

    with shown_window(qtbot, language) as w:
        import_tokenizer(qtbot, w.controller, MODEL)
        note = w.training_panel.imported_note.full_text()
        assert said in note and not_said not in note, note
