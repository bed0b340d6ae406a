"""The vocab layout: ids 0–255 are the bytes, then the special tokens, then one id per merge.

>>> build_vocab([(b"a", b"b")], ["<s>"])[257]
b'ab'
"""

from __future__ import annotations

from collections.abc import Iterable

from core.errors import BPEError
from core.training.records import Pair
from core.training.token_codes import BYTE_TOKENS


def check_vocab_size(vocab_size: int, n_special: int) -> None:
    if not isinstance(vocab_size, int) or isinstance(vocab_size, bool):
        raise BPEError(f"vocab_size must be an integer, not {vocab_size!r}")
    need = 256 + n_special
    if vocab_size < need:
        raise BPEError(
            # (the plural written out: train_bpe's caller reads this message as it is)
            f"vocab_size {vocab_size} is smaller than 256 bytes + {n_special} special "
            f"token{'' if n_special == 1 else 's'} = {need}; choose vocab_size >= {need}",
            code="vocab_size_small",
            vocab_size=vocab_size,
            n_special=n_special,
            need=need,
        )


def build_vocab(merges: Iterable[Pair], special_tokens: Iterable[str] = ()) -> dict[int, bytes]:
    """Vocab from merges: ids 0–255 are bytes, then special tokens, then one id per merge."""
    vocab = {i: BYTE_TOKENS[i] for i in range(256)}
    for s in special_tokens:
        vocab[len(vocab)] = s.encode("utf-8", "surrogateescape")
    for a, b in merges:
        vocab[len(vocab)] = a + b
    return vocab
