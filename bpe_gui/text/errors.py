"""Core errors in the app's language: each error code of ``core.errors`` has a translated sentence.

In English the core's own message is shown (it names the problem and the fix); errors without a
code (or with one not listed here) are shown with their English message in every language.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from core.errors import BPEError
from core.units import plurals

translate = QCoreApplication.translate


def _templates() -> dict[str, str]:
    return {
        "corpus_encoding": translate(
            "Errors",
            "%(name)s looks like %(kind)s text. Convert it to UTF-8 first "
            "(for example with iconv) and open it again.",
        ),
        "corpus_binary": translate(
            "Errors", "%(name)s looks like a binary file, not text. Choose a UTF-8 text file."
        ),
        "corpus_compressed": translate(
            "Errors",
            "%(name)s is a %(kind)s-compressed file. Decompress it first (for example: %(command)s "
            "%(name)s) and open the decompressed file.",
        ),
        "corpus_npy": translate(
            "Errors",
            "%(name)s is a NumPy array (.npy, such as token ids), not text. Choose a UTF-8 text file.",
        ),
        "encoding_offline": translate(
            "Errors",
            "The encoding %(name)s is not available offline: tiktoken's cache has no copy of it. "
            "Download %(url)s and open that file instead.",
        ),
        "tokenizer_compressed": translate(
            "Errors",
            "%(name)s is a %(kind)s-compressed file. Decompress it first (for example: %(command)s "
            "%(name)s) and open the tokenizer file inside.",
        ),
        "export_replaces": translate(
            "Errors",
            "The folder %(folder)s already holds %(files)s, which BPE Explorer did not write there "
            "(another tokenizer's files, or changed since). Choose another folder, or replace them.",
        ),
        "tokenizer_plain_text": translate(
            "Errors",
            "%(name)s is plain text, not a tokenizer file. To train on it, open it as a corpus; to open a "
            "tokenizer, choose its vocab.json, merges.txt, tokenizer.json, .tiktoken or bpe.json.",
        ),
        "tokenizer_unknown": translate(
            "Errors",
            "%(name)s is not a tokenizer file BPE Explorer reads. Choose a vocab.json + merges.txt, "
            "tokenizer.json, .tiktoken, SentencePiece tokenizer.model or bpe.json file.",
        ),
        "tokenizer_empty": translate("Errors", "%(name)s is empty: it is not a tokenizer file."),
        "gpt2_merges_missing": translate(
            "Errors",
            "%(name)s looks like a GPT-2 vocab.json, but its merges file is not beside it (looked for "
            "%(tried)s or a single *merges*.txt). Choose both files: vocab.json and merges.txt.",
        ),
        "gpt2_vocab_missing": translate(
            "Errors",
            "The vocab that goes with %(name)s is not beside it (looked for %(tried)s or a single "
            "*.json). Choose both files: vocab.json and merges.txt.",
        ),
        "tokenizer_npy": translate(
            "Errors", "%(name)s is a NumPy array (.npy, such as token ids), not a tokenizer file."
        ),
        "corpus_not_utf8": translate(
            "Errors", "%(name)s does not look like UTF-8 text. Choose a UTF-8 text file."
        ),
        "corpus_missing": translate("Errors", "The corpus file %(path)s does not exist. Check the path."),
        "corpus_folder": translate("Errors", "%(path)s is a folder. Choose a text file."),
        "corpus_unreadable": translate("Errors", "Cannot read the corpus file %(path)s: %(reason)s"),
        "pattern_empty": translate(
            "Errors", "The pattern must be gpt2, gpt4, none or a non-empty regular expression."
        ),
        "pattern_invalid": translate(
            "Errors",
            "The pre-tokenizer regex %(pattern)s is not valid (%(detail)s). Fix it or "
            "choose gpt2, gpt4 or none.",
        ),
        "pattern_matches_empty": translate(
            "Errors", "The pre-tokenizer regex %(pattern)s only matches the empty string."
        ),
        "corpus_changed": translate(
            "Errors",
            "%(name)s changed while it was read (%(before)s bytes when reading started, %(now)s bytes "
            "now). Open it again once nothing writes to it, or copy it first.",
        ),
        "special_surrogate": translate(
            "Errors",
            "The special token %(token)s contains a lone surrogate, which is not valid Unicode. Fix the token.",
        ),
        "special_empty": translate("Errors", "A special token is empty. Remove it from the list."),
        "special_duplicate": translate(
            "Errors", "The special token %(token)s is listed twice. List each special token once."
        ),
        "tokenizer_kind": translate(
            "Errors",
            "%(name)s is a %(kind)s tokenizer. BPE Explorer opens byte-level BPE tokenizers "
            "(GPT-2, GPT-4/tiktoken, Llama 3, Qwen, DeepSeek, OLMo, Mistral tekken …) and "
            "SentencePiece BPE (Llama 2, Mistral 7B, Gemma …).",
        ),
        "tokenizer_settings_beside": translate(
            "Errors",
            "%(name)s is a HuggingFace settings file (the model's or tokenizer's configuration), not the "
            "tokenizer itself. Open the tokenizer.json beside it: %(tokenizer)s",
        ),
        "tokenizer_settings": translate(
            "Errors",
            "%(name)s is a HuggingFace settings file (the model's or tokenizer's configuration), not the "
            "tokenizer itself. Open the model's tokenizer.json (or its vocab.json and merges.txt, or "
            "tokenizer.model) instead.",
        ),
        "byte_not_in_vocab": translate(
            "Errors",
            "%(file)s: the byte 0x%(byte)02x at offset %(offset)s is not valid UTF-8, and %(tokenizer)s "
            "has no token for it (its vocab leaves out the bytes that never occur in UTF-8, as GPT-NeoX "
            "and OLMo 1 do). Remove or replace such bytes first (for example with iconv -c), or use a "
            "tokenizer that has all 256 bytes.",
        ),
        "vocab_size_small": translate(
            "Errors",
            "A vocab size of %(vocab_size)s is too small: it needs at least 256 "
            "bytes + %(n_special)s special token(s) = %(need)s. Choose %(need)s or more.",
        ),
    }


def _roles() -> dict[str, str]:
    """The words core puts in a message for a tokenizer it has no name for (``byte_not_in_vocab``)."""
    return {
        "the tokenizer": translate("Errors", "the tokenizer"),
        "the base tokenizer": translate("Errors", "the base tokenizer"),
        "tokenizer A": translate("Errors", "tokenizer A"),
        "tokenizer B": translate("Errors", "tokenizer B"),
    }


def error_text(e: BaseException) -> str:
    """The message of ``e`` in the app's language (in English, and without a code: the core's message)."""
    from bpe_gui.text.i18n import current_language

    if isinstance(e, BPEError) and e.code and current_language() != "en":
        template = _templates().get(e.code)
        if template is not None:
            params = dict(e.params)
            if isinstance(params.get("tokenizer"), str):
                params["tokenizer"] = _roles().get(params["tokenizer"], params["tokenizer"])
            try:
                return template % {
                    k: (repr(v) if k in ("pattern", "token", "path") else v) for k, v in params.items()
                }
            except (KeyError, TypeError, ValueError):
                pass
    return plurals(str(e))  # (core's English: "1 special token(s)" read as "1 special token")
