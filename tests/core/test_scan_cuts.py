"""Valid cuts of byte ranges (core.pretokenization.scan.next_valid_cut) in text whose lines never start with a letter."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.pretokenization import scan
from core.pretokenization.patterns import LLAMA3_PATTERN, O200K_PATTERN
from core.pretokenization.pretokenize import count_pretokens, resolve_pattern
from core.pretokenization.scan import next_valid_cut

pytest.importorskip("distributed")  # the scale extra is part of the test extra
from core.scale.dask_scale import count_range, merge_ranges

EOT = "<|endoftext|>"
FRAGMENTS = [
    b'{"text": "',
    b'"}\n',
    b"The",
    b" cat",
    b"'s",
    b"A'",
    b"don't",
    b" 12",
    b"3",
    b"\r\n",
    b"\n",
    b"  ",
    b"<p>",
    b"</p>",
    b"\t",
    b"!",
    b"x.\nNext",
    "\u00e9t\u00e9".encode(),
    b"\xff",
    b"_",
    b"`",
    b"[a]",
    b"<|endoftext|>",
    b"<|endoftext",
    "\u0441\u043b\u043e\u0432\u043e".encode(),
    "\u4e2d\u6587\u3002".encode(),
    "e\u0301".encode(),
    "\u0301".encode(),
    "\u00a0".encode(),
    "\u3000".encode(),
    b"\xe4\xb8",
    b"\xc3",
    b"\x80",
    "\U0001f642".encode(),
    "\u1100\u1161".encode(),
    " \u0434\u0430,".encode(),
]


def jsonl(n: int, seed: int = 0) -> bytes:
    rng = random.Random(seed)
    words = ["the", "cat", "sat", "on", "a", "mat", "and", "ran"]
    return "".join(
        json.dumps({"text": " ".join(rng.choice(words) for _ in range(12))}) + "\n" for _ in range(n)
    ).encode()


def test_json_lines_have_valid_cuts_near_any_offset(tmp_path):
    """No line starts with a letter: the ends of words are where ranges are cut."""
    data = jsonl(2000)
    path = tmp_path / "c.jsonl"
    path.write_bytes(data)
    with open(path, "rb") as f:
        cuts = [next_valid_cut(f, p, len(data), (), True) for p in range(1, len(data), 997)]
    assert all(0 <= c - p <= 16 for c, p in zip(cuts, range(1, len(data), 997)))


@pytest.mark.parametrize(
    "text",
    [
        "\u0421\u043b\u043e\u0432\u043e \u0437\u0430 \u0441\u043b\u043e\u0432\u043e.\n",
        "\u4e2d\u6587\u7684\u53e5\u5b50\u3002\u8fd9\u662f\u7b2c\u4e8c\u53e5\uff0c\u5bf9\u5417\uff1f\n",
    ],
)
def test_russian_and_chinese_text_have_valid_cuts_near_any_offset(tmp_path, text):
    data = (text * 3000).encode()
    path = tmp_path / "c.txt"
    path.write_bytes(data)
    with open(path, "rb") as f:
        cuts = [next_valid_cut(f, p, len(data), (), True) for p in range(1, len(data), 997)]
    assert all(0 <= c - p <= 64 for c, p in zip(cuts, range(1, len(data), 997)))


@pytest.mark.parametrize("window", [1, 5, 64])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.sampled_from(FRAGMENTS), max_size=100).map(b"".join),
    st.integers(1, 30),
    st.sampled_from(["gpt2", "gpt4", O200K_PATTERN, LLAMA3_PATTERN, r"\p{L}+|\p{N}|[^\p{L}\p{N}]+"]),
    st.booleans(),
)
def test_ranges_of_json_and_markup_count_like_the_whole_file(
    tmp_path_factory, monkeypatch, window, data, step, pattern, eot
):
    """Any split counts like the whole file (small windows: characters and specials across their edges)."""
    monkeypatch.setattr(scan, "WINDOW", window)  # (the same value for every example)
    path = tmp_path_factory.mktemp("r") / "c.txt"
    path.write_bytes(data)
    specials = (EOT,) if eot else ()
    size = len(data)
    parts = [
        count_range(0, str(path), (s, min(s + step, size)), size, resolve_pattern(pattern), specials)
        for s in range(0, max(size, 1), step)
    ]
    want, _ = count_pretokens(data, list(specials), pattern, workers=1)
    got = merge_ranges(*parts).table
    assert dict(zip(got["token"].to_pylist(), got["count"].to_pylist())) == dict(want)


@pytest.mark.parametrize("pattern", [O200K_PATTERN, LLAMA3_PATTERN, r"\p{L}+|\p{N}|[^\p{L}\p{N}]+"])
def test_other_patterns_have_valid_cuts_near_any_offset(tmp_path, pattern):
    """Patterns other than GPT-2's and GPT-4's are cut where core.pretokenization.regex_cuts proves it (they were one
    range per file)."""
    data = jsonl(2000) + ("\u0421\u043b\u043e\u0432\u043e \u4e2d\u6587\u3002 " * 500).encode()
    path = tmp_path / "c.txt"
    path.write_bytes(data)
    rule = scan.range_rule(pattern)
    assert rule is not True and rule
    with open(path, "rb") as f:
        cuts = [next_valid_cut(f, p, len(data), (), rule) for p in range(1, len(data), 997)]
    assert all(0 <= c - p <= 16 for c, p in zip(cuts, range(1, len(data), 997)))
