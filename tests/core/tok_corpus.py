"""Test data for the tokenizer and format tests: corpora generated here, tokenizers trained on them.

Nothing is read from outside the test suite.
"""

from __future__ import annotations

import random
from functools import cache

from core import Trainer
from core.formats.spec import TokenizerSpec, spec_from_trainer
from core.tokenization.tokenizer import Tokenizer

EOT = "<|endoftext|>"
WORDS = (
    "the",
    "cat",
    "sat",
    "on",
    "mat",
    "dog",
    "don't",
    "we'll",
    "they're",
    "it's",
    "running",
    "quickly",
    "héllo",
    "naïve",
    "straße",
    "Ünïcödé",
    "日本語",
    "中文",
    "テキスト",
    "한국어",
    "Привет",
    "мир",
    "🙃",
    "👍🏽",
    "🇫🇷",
    "2024",
    "3.14",
    "1,000",
    "x_y",
    "a-b",
    "(paren)",
    "#tag",
    "@user",
    "e.g.",
    "…",
    "—",
)
SEPARATORS = (" ", " ", " ", "  ", "   ", "\n", "\n\n", "\t", " \n ", "\r\n", ", ", ". ", "! ", "? ", "")

#: Texts for encode comparisons: ASCII, CJK, emoji, whitespace runs, digits, special tokens.
VARIED_TEXTS = (
    "",
    "Hello, world! The cat sat on the mat.",
    "don't we'll they're it's I'M YOU'LL",
    "日本語のテキストと中文，还有한국어。",
    "emoji 🙃👍🏽🇫🇷 and ZWJ 👨‍👩‍👧 family",
    "spaces    between\t\ttabs  \n\n\n   and trailing   ",
    "numbers 1234567890 3.14159 1,000,000 ²³ ½ Ⅻ",
    f"first doc{EOT}second doc{EOT}{EOT}third",
    "mixed: naïve café straße Ünïcödé — “quotes” … done",
    "\r\nwindows\r\nlines\r\n",
    "a" * 500 + " " + "b" * 3 + " " * 300 + "end",
    "x",
    " ",
    "\n",
)


def make_corpus(n_words: int = 6000, seed: int = 0, eot_every: int = 97) -> str:
    """A deterministic pseudo-random text mixing scripts, digits, whitespace and special tokens."""
    rng = random.Random(seed)
    out = []
    for i in range(n_words):
        out.append(rng.choice(WORDS))
        out.append(rng.choice(SEPARATORS))
        if eot_every and i % eot_every == eot_every - 1:
            out.append(EOT)
    return "".join(out)


@cache
def trained_spec(
    pattern: str | None = "gpt2",
    specials: tuple[str, ...] = (EOT,),
    vocab_size: int = 700,
    tie_break: str = "lexicographic",
    seed: int = 0,
    invalid_bytes: bool = False,
    n_words: int = 6000,
) -> TokenizerSpec:
    """Train a small tokenizer on a generated corpus (cached per arguments)."""
    text = make_corpus(n_words, seed=seed)
    data: str | bytes = text
    if invalid_bytes:
        raw = text.encode("utf-8")
        # invalid UTF-8 runs that are frequent enough to be merged into tokens
        data = raw + b" \xff\xfe\xff\xfe \x80\x81 \xc3\xc3 \xff\xfe" * 50 + raw[:2000]
    trainer = Trainer.from_text(data, list(specials), pattern=pattern, tie_break=tie_break)
    trainer.run(vocab_size)
    return spec_from_trainer(trainer, corpus_name=f"generated-{seed}")


def trained_tokenizer(**kw) -> Tokenizer:
    return Tokenizer.from_spec(trained_spec(**kw))
