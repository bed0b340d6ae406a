"""The chunk path's probe runs on part of a block (core.pretokenization.path_probe): the pieces,
cut at valid cuts and counted apart (chunks, plain, plain), give the block's counts, in first-seen
order, with the same first offsets and statistics; the probe is taken on the second block a
process counts, and both rates are recorded."""

from __future__ import annotations

import random

import pytest

import core.pretokenization.pretokenize as pretokenize
import core.pretokenization.scan as scan
from core.formats.known import O200K_PATTERN
from core.pretokenization.path_probe import MIN_PROBE_BYTES, probe_cuts
from core.pretokenization.patterns import GPT2_PATTERN, GPT4_PATTERN
from core.pretokenization.space_chunks import PathChooser

from .test_sharded_count import EOT, corpus


def block(seed: int, n: int) -> bytes:
    return corpus(seed, n)


@pytest.mark.parametrize("pattern", [GPT2_PATTERN, GPT4_PATTERN, O200K_PATTERN])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_probed_block_counts_as_the_plain_path(pattern, seed):
    data = block(seed, 40000)
    specials = (EOT,)
    cuts = probe_cuts(data, pattern, specials)
    assert cuts is not None
    a, b = cuts
    assert 0 < a < b <= len(data)
    assert (
        abs(a - len(data) // 3) < 1000 and abs((b - a) - a) < 1000
    )  # two stretches of a third (a small block)
    probed = pretokenize._count_chunk_probed(data, pattern, specials, a, b)
    plain = pretokenize._count_chunk_plain(data, pattern, specials)
    assert list(probed.counts.items()) == list(plain.counts.items())
    assert (probed.n_bytes, probed.invalid_bytes, probed.n_special) == (
        plain.n_bytes,
        plain.invalid_bytes,
        plain.n_special,
    )
    base = random.Random(seed).randrange(1 << 30)
    got = scan._count_block_probed(data, base, pattern, specials, a, b)
    want = scan._count_block_plain(data, base, pattern, specials)
    assert (got.tokens, got.counts, got.offsets) == (want.tokens, want.counts, want.offsets)
    assert (got.n_bytes, got.invalid_bytes, got.n_special) == (
        want.n_bytes,
        want.invalid_bytes,
        want.n_special,
    )


def test_a_cut_never_splits_a_special_token_or_a_character():
    unit = "日本語<|endoftext|>" + EOT + "é "
    data = (unit * 6000).encode()
    a, b = probe_cuts(data, GPT2_PATTERN, (EOT,))
    for q in (a, b):
        assert data[q:].startswith(EOT.encode()) or data[q : q + 1] in (b"\xe6", b" ")
        assert not any(
            s < q < s + len(EOT) for s in range(q - len(EOT), q) if data[s:].startswith(EOT.encode())
        )
    data = b"x" * (4 * MIN_PROBE_BYTES)  # one word: no cut at all
    assert probe_cuts(data, GPT2_PATTERN, ()) is None
    assert probe_cuts(b"a b " * 100, GPT2_PATTERN, ()) is None  # small: probed whole


def test_the_second_block_is_probed_on_a_part(monkeypatch):
    monkeypatch.setattr(pretokenize, "_CHOOSER", PathChooser())
    monkeypatch.setattr(pretokenize, "COUNT_BY_CHUNKS", None)
    seen: list[int] = []
    chunks = pretokenize._count_chunk_by_chunks

    def spy(data, pattern, specials):
        seen.append(len(data))
        return chunks(data, pattern, specials)

    monkeypatch.setattr(pretokenize, "_count_chunk_by_chunks", spy)
    data = block(5, 40000)
    one = pretokenize._count_chunk(data, GPT2_PATTERN, (EOT,))  # plain first
    assert seen == []
    two = pretokenize._count_chunk(data, GPT2_PATTERN, (EOT,))  # the probe: chunks on a third (a small block)
    assert len(seen) == 1 and seen[0] < len(data) // 2
    assert set(pretokenize._CHOOSER.rate) == {True, False}
    assert list(two.counts.items()) == list(one.counts.items())
