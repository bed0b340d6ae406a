"""The app's language for what core says in English: notes about a corpus or a loaded tokenizer, and
what an export would lose.

core stays English (the command line and the Python API speak it); the app shows these texts in
its own language. Each known text is matched by a pattern and rebuilt from a translated template
with its values; a text that matches none (a new note, a message from a library) is shown as it
is, in English, rather than not at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication

from bpe_gui.text.plural import plural
from core.units import plurals


def _invalid_bytes(m: re.Match[str]) -> str:
    n = int(m[1].replace(",", ""))
    return plural(
        QCoreApplication.translate("CoreText", "%n invalid UTF-8 byte(s) kept byte-exactly", None, n), n
    )


# (pattern of core's English text, the translated text from the match); the templates are literal
# translate() calls so that lupdate finds them
_NOTES: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (
        re.compile(r"starts with a UTF-8 byte-order mark \(kept as the bytes EF BB BF\)"),
        lambda m: QCoreApplication.translate(
            "CoreText", "starts with a UTF-8 byte-order mark (kept as the bytes EF BB BF)"
        ),
    ),
    (
        re.compile(r"([\d,]+) invalid UTF-8 bytes? kept byte-exactly"),
        _invalid_bytes,
    ),
    (
        re.compile(r"GPT-2 files: vocab (.+) \+ merges (.+)"),
        lambda m: QCoreApplication.translate("CoreText", "GPT-2 files: vocab {0} + merges {1}").format(
            m[1], m[2]
        ),
    ),
    (
        re.compile(
            r"the file holds merges but no vocab: ids are derived \(0-255 the bytes, then the special tokens, "
            r"then one per merge in order\); to keep a model's own ids, put its vocab.json beside it"
        ),
        lambda m: QCoreApplication.translate(
            "CoreText",
            "the file holds merges but no vocab: ids are derived (0-255 the bytes, then the special tokens, "
            "then one per merge in order); to keep a model's own ids, put its vocab.json beside it",
        ),
    ),
    (
        re.compile(r"merges from (.+), ids from the vocab beside it \((.+)\)"),
        lambda m: QCoreApplication.translate(
            "CoreText", "merges from {0}, ids from the vocab beside it ({1})"
        ).format(m[1], m[2]),
    ),
    (
        re.compile(r"merges and vocab from (.+)"),
        lambda m: QCoreApplication.translate("CoreText", "merges and vocab from {0}").format(m[1]),
    ),
    (
        re.compile(r"the file stores no pattern: GPT-2's pattern is assumed"),
        lambda m: QCoreApplication.translate(
            "CoreText", "the file stores no pattern: GPT-2's pattern is assumed"
        ),
    ),
    (
        re.compile(r"GPT-2 files store no pattern: GPT-2's pattern is assumed"),
        lambda m: QCoreApplication.translate(
            "CoreText", "GPT-2 files store no pattern: GPT-2's pattern is assumed"
        ),
    ),
    (
        re.compile(r"special tokens were taken as the tokens no merge makes \(none\)"),
        lambda m: QCoreApplication.translate(
            "CoreText", "special tokens were taken as the tokens no merge makes (there are none)"
        ),
    ),
    (
        re.compile(r"special tokens were taken as the tokens no merge makes \((.+)\)"),
        lambda m: QCoreApplication.translate(
            "CoreText", "special tokens were taken as the tokens no merge makes ({0})"
        ).format(m[1]),
    ),
    (
        re.compile(
            r"recognised as (.+?) \((.+)\); its pattern and special-token ids are applied, except the (.+) you "
            r"gave"
        ),
        lambda m: QCoreApplication.translate(
            "CoreText",
            "recognised as {0} ({1}); its pattern and special-token ids are applied, except the {2} you gave",
        ).format(m[1], m[2], m[3]),
    ),
    (
        re.compile(r"recognised as (.+?) \((.+)\); its pattern and special-token ids are applied"),
        lambda m: QCoreApplication.translate(
            "CoreText", "recognised as {0} ({1}); its pattern and special-token ids are applied"
        ).format(m[1], m[2]),
    ),
    (
        re.compile(
            r"a tiktoken file stores no pattern and no special tokens, and this one is not a known encoding.*"
        ),
        lambda m: QCoreApplication.translate(
            "CoreText",
            "a tiktoken file stores no pattern and no special tokens, and this one is not a known "
            "encoding: GPT-2's pattern is assumed and no special tokens are known (give the pattern and the special "
            "tokens as TOKEN=ID)",
        ),
    ),
    (
        re.compile(
            r"a tiktoken file stores no pattern, and this one is not a known encoding: GPT-2's pattern is "
            r"assumed \(give the pattern if it is another\); the special tokens are the ones given \((.*)\)"
        ),
        lambda m: QCoreApplication.translate(
            "CoreText",
            "a tiktoken file stores no pattern, and this one is not a known encoding: GPT-2's pattern is "
            "assumed (give the pattern if it is another); the special tokens are the ones given ({0})",
        ).format(m[1]),
    ),
    (
        re.compile(
            r"pattern and special tokens read from (.+) beside it \(the same tokens at the same ids\)"
        ),
        lambda m: QCoreApplication.translate(
            "CoreText", "pattern and special tokens read from {0} beside it (the same tokens at the same ids)"
        ).format(m[1]),
    ),
    (
        re.compile(
            r"the file gives rank (\d+) an empty token \(a placeholder, as in Whisper's multilingual\.tiktoken\): "
            r"left out; no text encodes to it"
        ),
        lambda m: QCoreApplication.translate(
            "CoreText",
            "the file gives rank {0} an empty token (a placeholder, as in Whisper's multilingual.tiktoken): "
            "left out; no text encodes to it",
        ).format(m[1]),
    ),
    (
        re.compile(
            r"the file gives ranks (.+) an empty token \(a placeholder, as in Whisper's multilingual\.tiktoken\): "
            r"left out; no text encodes to it"
        ),
        lambda m: QCoreApplication.translate(
            "CoreText",
            "the file gives ranks {0} an empty token (a placeholder, as in Whisper's multilingual.tiktoken): "
            "left out; no text encodes to it",
        ).format(m[1]),
    ),
    (
        re.compile(
            r"Mistral tekken file \(version (.+?)\): (\d+) special ids first, then (\d+) ranks; special tokens "
            r"are not looked for in text \(as mistral-common's encode\)"
        ),
        lambda m: QCoreApplication.translate(
            "CoreText",
            "Mistral tekken file (version {0}): {1} special ids first, then {2} ranks; special tokens are "
            "not looked for in text (as mistral-common's encode)",
        ).format(m[1], m[2], m[3]),
    ),
    (
        re.compile(
            r"SentencePiece BPE model: ([\d,]+) pieces \(([\d,]+) byte pieces, ([\d,]+) user-defined\); ids are "
            r"sentencepiece's encode\(text\) without <s>: control pieces \(<s>, </s> …\) are not looked for "
            r"in text"
        ),
        lambda m: QCoreApplication.translate(
            "CoreText",
            "SentencePiece BPE model: {0} pieces ({1} byte pieces, {2} user-defined); ids are "
            "sentencepiece's encode(text) without <s>: control pieces (<s>, </s> …) are not looked for in text",
        ).format(m[1], m[2], m[3]),
    ),
    (
        re.compile(r"the model has no byte fallback: a character outside the vocab becomes <unk>"),
        lambda m: QCoreApplication.translate(
            "CoreText", "the model has no byte fallback: a character outside the vocab becomes <unk>"
        ),
    ),
    (
        re.compile(r"text is normalized by the model's rule (.+), as sentencepiece does"),
        lambda m: QCoreApplication.translate(
            "CoreText", "text is normalized by the model's rule {0}, as sentencepiece does"
        ).format(m[1]),
    ),
    (
        re.compile(r"char-level BPE tokenizer.json \(SentencePiece style\): (\d+) tokens"),
        lambda m: QCoreApplication.translate(
            "CoreText", "char-level BPE tokenizer.json (SentencePiece style): {0} tokens"
        ).format(m[1]),
    ),
    (
        re.compile(
            r"the file sets truncation \(to (.+?) tokens\); BPE Explorer shows every token, does not apply "
            r"it and leaves it out of its tokenizer.json exports"
        ),
        lambda m: QCoreApplication.translate(
            "CoreText",
            "the file sets truncation (to {0} tokens); BPE Explorer shows every token, does not apply it "
            "and leaves it out of its tokenizer.json exports",
        ).format(m[1]),
    ),
    (
        re.compile(
            r"the file sets padding \((.+)\); BPE Explorer does not apply it and leaves it out of its "
            r"tokenizer.json exports"
        ),
        lambda m: QCoreApplication.translate(
            "CoreText",
            "the file sets padding ({0}); BPE Explorer does not apply it and leaves it out of its "
            "tokenizer.json exports",
        ).format(m[1]),
    ),
    (
        re.compile(
            r"the post-processor adds (.+) the text \(encode\(text, add_special_tokens=False\) leaves them "
            r"out\)"
        ),
        lambda m: QCoreApplication.translate(
            "CoreText",
            "the post-processor adds {0} the text (encode(text, add_special_tokens=False) leaves them out)",
        ).format(_before_after(m[1])),
    ),
]

# what an export loses (core.formats.losses)
_LOSSES: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (
        re.compile(
            r"the SentencePiece-style char-level BPE model \(pieces, scores, byte fallback: these formats hold byte-level BPE\)"
        ),
        lambda m: QCoreApplication.translate(
            "CoreText",
            "the SentencePiece-style char-level BPE model (pieces, scores, byte fallback: these formats "
            "hold byte-level BPE)",
        ),
    ),
    (
        re.compile(r"the pattern \((.+); readers assume GPT-2's\)"),
        lambda m: QCoreApplication.translate("CoreText", "the pattern ({0}; readers assume GPT-2's)").format(
            m[1]
        ),
    ),
    (
        re.compile(
            r"the text the pattern does not match \((.+): tiktoken drops it, where BPE Explorer and HF "
            r"tokenizers encode it\)"
        ),
        lambda m: QCoreApplication.translate(
            "CoreText",
            "the text the pattern does not match ({0}: tiktoken drops it, where BPE Explorer and "
            "Hugging Face tokenizers encode it)",
        ).format(m[1]),
    ),
    (
        re.compile(r"a pattern that can match the empty string \(tiktoken fails on it\)"),
        lambda m: QCoreApplication.translate(
            "CoreText", "a pattern that can match the empty string (tiktoken fails on it)"
        ),
    ),
    (
        re.compile(
            r"special tokens of which one begins another \((.+) begins (.+): tiktoken may take the "
            r"shorter, where BPE Explorer and HF tokenizers take the longest\)"
        ),
        lambda m: QCoreApplication.translate(
            "CoreText",
            "special tokens of which one begins another ({0} begins {1}: tiktoken may take the shorter, "
            "where BPE Explorer and Hugging Face tokenizers take the longest)",
        ).format(m[1], m[2]),
    ),
    (
        re.compile(
            r"the order of the merges \(tiktoken merges by token rank and gives other ids: (.+) → "
            r"(\[[0-9, …]*\]), where BPE Explorer and HF tokenizers give (\[[0-9, …]*\])\)"
        ),
        lambda m: QCoreApplication.translate(
            "CoreText",
            "the order of the merges (tiktoken merges by token rank and gives other ids: {0} → {1}, where "
            "BPE Explorer and HF tokenizers give {2})",
        ).format(m[1], m[2], m[3]),
    ),
    (
        re.compile(r"the normalizer \((.+)\)"),
        lambda m: QCoreApplication.translate("CoreText", "the normalizer ({0})").format(m[1]),
    ),
    (
        re.compile(r"the pre-tokenizer \((.+); only one regex is kept, as the pattern\)"),
        lambda m: QCoreApplication.translate(
            "CoreText", "the pre-tokenizer ({0}; only one regex is kept, as the pattern)"
        ).format(m[1]),
    ),
    (
        re.compile(r"the post-processor \(it adds 1 token: id (.+)\)"),
        lambda m: QCoreApplication.translate(
            "CoreText", "the post-processor (it adds 1 token: id {0})"
        ).format(m[1]),
    ),
    (
        re.compile(r"the post-processor \(it adds (\d+) tokens: ids (.+)\)"),
        lambda m: QCoreApplication.translate(
            "CoreText", "the post-processor (it adds {0} tokens: ids {1})"
        ).format(m[1], m[2]),
    ),
    (
        re.compile(r"ignore_merges=false \((\d+) token\(s\) of the vocab are made by no merge.*\)"),
        lambda m: QCoreApplication.translate(
            "CoreText",
            "ignore_merges=false ({0} token(s) of the vocab are made by no merge: the original builds a "
            "pre-token equal to one of them by the merges, these formats take the whole token)",
        ).format(m[1]),
    ),
    (
        re.compile(
            r"(\d+) special token\(s\) whose bytes are not UTF-8 \((.+); only vocab\.json \+ merges\.txt "
            r"and bpe\.json hold them as special tokens\)"
        ),
        lambda m: QCoreApplication.translate(
            "CoreText",
            "{0} special token(s) whose bytes are not UTF-8 ({1}; only vocab.json + merges.txt and bpe.json "
            "hold them as special tokens)",
        ).format(m[1], m[2]),
    ),
    (
        re.compile(r"the lstrip/rstrip/single_word options of (\d+) added token\(s\) \((.+)\)"),
        lambda m: QCoreApplication.translate(
            "CoreText", "the lstrip/rstrip/single_word options of {0} added token(s) ({1})"
        ).format(m[1], m[2]),
    ),
]


def _before_after(text: str) -> str:
    """ "[gMASK] <sop> before and </s> after" in the app's language."""
    m = re.fullmatch(r"(?:(.+?) before)?(?: and )?(?:(.+) after)?", text)
    if m is None or not (m[1] or m[2]):
        return text
    parts = []
    if m[1]:
        parts.append(QCoreApplication.translate("CoreText", "{0} before").format(m[1]))
    if m[2]:
        parts.append(QCoreApplication.translate("CoreText", "{0} after").format(m[2]))
    return QCoreApplication.translate("CoreText", " and ").join(parts)


def _translated(text: str, table) -> str:
    body = text.rstrip(".")
    for pattern, make in table:
        m = pattern.fullmatch(body) or pattern.fullmatch(body[:1].lower() + body[1:])
        if m is not None:
            return plurals(make(m))
    return plurals(text)


def note(text: str) -> str:
    """One note of core's about a corpus or a loaded tokenizer, in the app's language."""
    return _translated(text, _NOTES)


def loss(text: str) -> str:
    """One item of what an export would lose (core.formats.export_losses), in the app's language."""
    return _translated(text, _LOSSES)


def sentence(text: str) -> str:
    """A note as a sentence: capitalised (where the language has case) and ending with a full stop."""
    if not text:
        return text
    end = QCoreApplication.translate("CoreText", ".")  # the language's full stop
    return text[0].upper() + text[1:] + ("" if text.endswith((".", "。", end)) else end)
