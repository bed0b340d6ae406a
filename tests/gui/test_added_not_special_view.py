"""The app shows an imported tokenizer's added tokens that are not special (HF ``"special": false``,
as OLMo 1's runs of spaces) as added tokens, not as special ones: vocab list, counts, hover, status."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QTextCursor
from tokenizers import AddedToken, decoders, normalizers, pre_tokenizers
from tokenizers import Tokenizer as HF
from tokenizers.models import BPE
from tokenizers.trainers import BpeTrainer

from bpe_gui.text import i18n
from bpe_gui.views.token_spans import ADDED_BG, SPECIAL_BG

from .gui_helpers import import_tokenizer

PLAIN = ["   ", "|||EMAIL|||"]  # (three spaces: also made by a merge, as OLMo 1 has it)


@pytest.fixture
def olmo_like(tmp_path: Path) -> tuple[Path, HF]:
    tok = HF(BPE())
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(
        ["the cat sat on the mat.    indented    code    again |||EMAIL||| end"] * 30,
        BpeTrainer(
            vocab_size=320,
            show_progress=False,
            special_tokens=["<|endoftext|>"],
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        ),
    )
    tok.add_tokens([AddedToken(t, normalized=True, special=False) for t in PLAIN])
    path = tmp_path / "tokenizer.json"
    tok.save(str(path))
    return path, tok


def _origin(window, token_id: int) -> str:
    model = window.browser.vocab_model
    model.sync()
    return model.data(model.index(window.controller.index.row_of_id(token_id), 4))


def _background(view, k: int) -> str:
    """The background colour of the ``k``-th token drawn in a token view."""
    cursor = QTextCursor(view.document())
    cursor.setPosition(view.starts[k] + 1)  # (the format of the character before the position)
    return cursor.charFormat().background().color().name()


def test_added_tokens_are_shown_as_added(qtbot, window, olmo_like) -> None:
    path, hf = olmo_like
    c = window.controller
    import_tokenizer(qtbot, c, path)
    spaces, special = hf.token_to_id("   "), hf.token_to_id("<|endoftext|>")
    assert spaces >= 256 and special is not None
    assert _origin(window, spaces) == "added" and _origin(window, special) == "special"
    # the merged token with the same bytes as the added one is a merge's, not special (it was)
    merged = next(i for i, b in c.index.vocab.items() if b == b"   " and i != spaces)
    assert _origin(window, merged).startswith("merge #")
    assert "1 special · 2 added" in window.training_panel.vocab_label.text()
    assert "2 added tokens that are not special" in window.training_panel.imported_note.full_text()

    tv = window.tokenize
    tv.set_text("x   y<|endoftext|>")
    assert tv.wait_idle()
    spans = tv.primary.view.spans
    assert [s.id for s in spans] == hf.encode("x   y<|endoftext|>").ids
    added = next(s for s in spans if s.id == spaces)
    assert "added token, not special" in tv.primary.describe(added)
    # drawn apart from the special tokens too: not only the hover tells them apart
    assert _background(tv.primary.view, spans.index(added)) == ADDED_BG
    assert _background(tv.primary.view, [s.id for s in spans].index(special)) == SPECIAL_BG
    assert "special token (never merged)" in tv.primary.describe(next(s for s in spans if s.id == special))
    messages: list[str] = []
    c.message.connect(messages.append)
    tv._select_merge_of(added)
    assert messages[-1] == f"Token {spaces} is an added token (not special): no merge makes it."

    try:
        i18n.install("zh_CN")
        assert _origin(window, spaces) == "添加的词元" and _origin(window, special) == "特殊标记"
        window.training_panel.update_vocab_label()
        assert "1 个特殊标记 · 2 个添加的词元" in window.training_panel.vocab_label.text()
    finally:
        i18n.install("en")


def test_the_inspect_dialog_has_a_tab_for_them(qtbot, window, olmo_like) -> None:
    from bpe_gui.dialogs.inspect_dialog import open_inspect

    path, hf = olmo_like
    import_tokenizer(qtbot, window.controller, path)
    dlg = open_inspect(window)
    with qtbot.waitSignal(dlg.finished_inspect, timeout=60_000):
        assert dlg.run()
    k = list(dlg.tables).index("added")
    assert dlg.tabs.isTabVisible(k) and dlg.tabs.tabText(k) == "Added, not special (2)"
    table = dlg.tables["added"]
    assert sorted(int(table.item(r, 0).text()) for r in range(table.rowCount())) == sorted(
        hf.token_to_id(t) for t in PLAIN
    )
    assert [int(dlg.tables["specials"].item(0, 0).text())] == [hf.token_to_id("<|endoftext|>")]
    assert (
        "1 special" in dlg.summary.text()
        and "Also 2 added tokens that are not special." in dlg.summary.text()
    )
    dlg.close()
