"""In the tokenized text, an added token that is not special (HF ``"special": false``) is drawn apart
from the special tokens: both are whole and never merged, but only special ones are dropped by a
decoder that skips special tokens, so a user must be able to tell them apart at a glance."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QTextCursor
from tokenizers import AddedToken, decoders, pre_tokenizers
from tokenizers import Tokenizer as HF
from tokenizers.models import BPE
from tokenizers.trainers import BpeTrainer

from bpe_gui.views.token_spans import ADDED_BG, SPECIAL_BG, SPECIAL_BG_2, TokenPane
from core import Tokenizer
from core.formats import load_any


def _tokenizer(tmp_path: Path) -> Tokenizer:
    hf = HF(BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.decoder = decoders.ByteLevel()
    trainer = BpeTrainer(
        vocab_size=300,
        show_progress=False,
        special_tokens=["<|endoftext|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    hf.train_from_iterator(["the cat sat on the mat |||EMAIL||| end"] * 20, trainer)
    hf.add_tokens([AddedToken("|||EMAIL|||", normalized=False, special=False)])
    hf.save(str(tmp_path / "tokenizer.json"))
    return Tokenizer.from_spec(load_any(tmp_path / "tokenizer.json"))


def _background(pane: TokenPane, k: int) -> str:
    cursor = QTextCursor(pane.view.document())
    cursor.setPosition(pane.view.starts[k] + 1)  # (the format of the character after the position)
    return cursor.charFormat().background().color().name()


def test_added_tokens_are_drawn_apart_from_special_ones(qtbot, tmp_path):
    pane = TokenPane("t")
    qtbot.addWidget(pane)
    pane.tokenizer = tok = _tokenizer(tmp_path)
    pane.tokenize_text("x |||EMAIL||| y<|endoftext|><|endoftext|>", False)
    kinds = {}
    for k, span in enumerate(pane.view.spans):
        if span.is_special:
            kinds.setdefault("added" if tok.is_plain_added(span.id) else "special", []).append(
                _background(pane, k)
            )
    assert kinds["added"] == [ADDED_BG]
    # (two special tokens in a row alternate, so the boundary shows)
    assert kinds["special"] == [SPECIAL_BG, SPECIAL_BG_2]
    added = next(s for s in pane.view.spans if s.is_special and tok.is_plain_added(s.id))
    assert "added token, not special" in pane.describe(added)
