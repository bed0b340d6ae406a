"""The pieces of the fast readers: the proof that a JSON text repeats no key, the GPT-2 characters of
all keys turned into bytes at once, and a merges text checked and read as one text."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.bpe.byte_level import BYTE_TO_CHAR, token_to_str
from core.bpe.ranks import IdMerges
from core.errors import FormatError
from core.formats import load_gpt2, load_json
from core.formats._fast import gpt2_token_bytes, merges_from_lines
from core.formats._json_keys import no_repeated_keys
from core.formats.spec import TokenizerSpec

# keys from a small alphabet (repeats are likely), with colons, quotes and characters JSON escapes
KEYS = st.text(
    alphabet=st.sampled_from(["a", "b", ":", '"', "\\", " ", "\n", "Ġ", "\u003a", "\x01"]), max_size=3
)
SCALARS = st.one_of(st.integers(-5, 300), st.none(), st.booleans(), st.floats(allow_nan=False), KEYS)


def _members(children):
    return st.lists(st.tuples(KEYS, children), max_size=5)


# a JSON value as written: objects are lists of (key, value) members, so a key may be written twice
VALUES = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=5), _members(children).map(lambda m: ("object", m))
    ),
    max_leaves=25,
)


def _write(value, ascii_only: bool, escape_colons: bool) -> str:
    if isinstance(value, tuple) and value and value[0] == "object":
        return (
            "{"
            + ", ".join(
                f"{_write(k, ascii_only, escape_colons)}: {_write(v, ascii_only, escape_colons)}"
                for k, v in value[1]
            )
            + "}"
        )
    if isinstance(value, list):
        return "[" + ",".join(_write(v, ascii_only, escape_colons) for v in value) + "]"
    text = json.dumps(value, ensure_ascii=ascii_only)
    return text.replace(":", "\\u003a") if escape_colons and isinstance(value, str) else text


def _repeats(value) -> bool:
    if isinstance(value, tuple) and value and value[0] == "object":
        keys = [k for k, _ in value[1]]
        return len(set(keys)) != len(keys) or any(_repeats(v) for _, v in value[1])
    return isinstance(value, list) and any(_repeats(v) for v in value)


@given(VALUES, st.booleans(), st.booleans())
def test_a_repeated_key_is_never_proved_absent_and_load_json_names_it(value, ascii_only, escape_colons):
    text = _write(value, ascii_only, escape_colons)
    proved = no_repeated_keys(text, json.loads(text))
    if _repeats(value):
        assert not proved
        with pytest.raises(FormatError, match="appears twice"):
            load_json("x.json", text)
    else:
        assert proved or escape_colons  # only an escaped colon (or a repeat) keeps the proof from holding
        assert load_json("x.json", text) == json.loads(text)


def test_repeats_are_found_in_a_vocab_with_colons_and_deep_inside() -> None:
    vocab = {f"k{i}": i for i in range(300)} | {":": 300, "a:b": 301, '"': 302}
    text = json.dumps(vocab)
    assert no_repeated_keys(text, json.loads(text))
    twice = text[:-1] + ', "a:b": 303}'  # the repeat's colon would be missing if only members were counted
    with pytest.raises(FormatError, match="the key 'a:b' appears twice"):
        load_json("vocab.json", twice)
    nested = json.dumps({"model": {"vocab": vocab, "merges": [["a", "b"]]}})
    inner = nested.replace('"k3": 3', '"k3": 3, "k3": 4')
    with pytest.raises(FormatError, match="the key 'k3' appears twice"):
        load_json("tokenizer.json", inner)


def test_gpt2_token_bytes_reads_every_byte_and_refuses_other_characters() -> None:
    keys = [BYTE_TO_CHAR[b] for b in range(256)] + ["", "ĠtheĊ", token_to_str(b"\xff\x00 ab")]
    assert gpt2_token_bytes(keys) == [bytes([b]) for b in range(256)] + [b"", b" the\n", b"\xff\x00 ab"]
    assert gpt2_token_bytes([]) == []
    for bad in ("a\nb", "a b", "\u0144", "€", "\ud800", "\U0001f600"):
        assert gpt2_token_bytes(["ab", bad, "c"]) is None, bad


@pytest.fixture(scope="module")
def small() -> tuple[dict[str, int], dict[int, bytes]]:
    spec = TokenizerSpec.from_merges([(b"a", b"b"), (b"ab", b"c"), (b" ", b"abc"), (b"c", b"c")], [])
    return {token_to_str(t): i for i, t in spec.vocab.items()}, dict(spec.vocab)


def test_merge_lines_give_the_ids_of_parts_and_results(small) -> None:
    key_id, vocab = small
    merges = merges_from_lines("a b\nab c\nĠ abc\nc c", 4, key_id, vocab, keep_last=False)
    assert isinstance(merges, IdMerges)
    assert merges.ids == ([97, 256, 32, 99], [98, 99, 257, 99], [256, 257, 258, 259])
    assert list(merges) == [(b"a", b"b"), (b"ab", b"c"), (b" ", b"abc"), (b"c", b"c")]
    # results not listed one after another in the vocab: found by lookups, the same ids
    moved = dict(sorted(key_id.items(), key=lambda kv: -kv[1]))
    assert merges_from_lines("a b\nab c\nĠ abc\nc c", 4, moved, vocab).ids == merges.ids
    assert merges_from_lines("", 0, key_id, vocab).ids == ([], [], [])


@pytest.mark.parametrize(
    "lines",
    [
        "a b\nab  c",
        "a b\nabc",
        "a b\n ab c",
        "a b\nab c ",
        "a b\nab c\n",
        "a b\n\nab c",
        "a b ab c\n",
        "a b\nab x",
        "a b\nb a",
        "a b\nab c\na b",
        "a b c\ncc",  # two spaces and none: every part and every line's result is a token, paired wrongly
    ],
)
def test_merge_lines_that_are_off_are_left_to_the_careful_reader(small, lines: str) -> None:
    key_id, vocab = small
    assert merges_from_lines(lines, 2, key_id, vocab, keep_last=False) is None


@pytest.mark.parametrize(
    "body, match",
    [
        ("a b\nab  c\n", r"line 3: 'ab  c' has 2 part"),
        ("a b\n ab c\n", r"line 3: ' ab c' has 2 part"),
        ("a b\nab c \n", r"line 3: 'ab c ' has 2 part"),
        ("a b\nabc\n", r"line 3: 'abc' has 1 part"),
    ],
)
def test_a_merges_txt_with_odd_spaces_is_named_by_line(tmp_path, body: str, match: str) -> None:
    spec = TokenizerSpec.from_merges([(b"a", b"b"), (b"ab", b"c")], [])
    vocab = {token_to_str(t): i for i, t in spec.vocab.items()}
    (tmp_path / "vocab.json").write_text(json.dumps(vocab), encoding="utf-8")
    (tmp_path / "merges.txt").write_text("#version: 0.2\n" + body, encoding="utf-8")
    with pytest.raises(FormatError, match=match):
        load_gpt2(tmp_path)
    (tmp_path / "merges.txt").write_text("#version: 0.2\na b\nab c\n", encoding="utf-8")
    assert isinstance(load_gpt2(tmp_path).merges, IdMerges)
