"""Characters over their bytes, as the story, the Tokenize view and Learn name them."""

from __future__ import annotations

from bpe_gui.model.char_bytes import chars_of, over_bytes


def test_a_visible_character_is_shown_itself():
    assert over_bytes("我") == "我 = e6|88|91"
    assert over_bytes("€") == "€ = e2|82|ac"
    assert over_bytes("👍") == "👍 = f0|9f|91|8d"


def test_a_character_that_shows_as_nothing_is_named_by_its_code_point():
    # (a no-break space pasted from a web page read " = c2|a0" under the tokens: a blank before "=")
    assert over_bytes("\u00a0") == "U+00A0 = c2|a0"
    assert over_bytes("\u200d") == "U+200D = e2|80|8d"  # zero-width joiner (emoji sequences)
    assert over_bytes("\u0301") == "U+0301 = cc|81"  # a combining accent on its own
    assert over_bytes("\u2028") == "U+2028 = e2|80|a8"  # line separator
    assert over_bytes("\ufe0f") == "U+FE0F = ef|b8|8f"  # variation selector
    assert chars_of("prix\u00a0: 12\u00a0€") == ["U+00A0 = c2|a0", "€ = e2|82|ac"]
