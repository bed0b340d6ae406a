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
            "Errors",
            "%(name)s looks like a binary file, not text (%(nul)s NUL bytes in its first %(size)s bytes). "
            "Choose a UTF-8 text file.",
        ),
        "corpus_all_nul": translate(
            "Errors",
            "%(name)s holds only NUL bytes (its first %(size)s bytes are all 0), not text. "
            "Choose a UTF-8 text file.",
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
        "merges_pickle_object": translate(
            "Errors",
            "%(name)s: the pickle holds a %(what)s object. Only lists, tuples, dicts and bytes are read "
            "(nothing in the file is run): save the merges as a list of (bytes, bytes) pairs.",
        ),
        "merges_pickle_bad": translate(
            "Errors",
            "%(name)s is not a readable pickle (%(why)s). Save the merges with pickle.dump(merges, f) in "
            "a file opened with 'wb'.",
        ),
        "merges_not_a_list": translate(
            "Errors",
            "%(name)s holds a %(kind)s, not a merge list. Save the list of (bytes, bytes) pairs that "
            "train_bpe returns (or its (vocab, merges) tuple).",
        ),
        "merges_not_pairs": translate(
            "Errors", "%(name)s: merge %(n)s is %(item)s, not a pair of two tokens."
        ),
        "merges_json_not_strings": translate(
            "Errors", "%(name)s: merge %(n)s is %(item)s; a JSON merge list holds pairs of strings."
        ),
        "merges_not_bytes": translate(
            "Errors",
            "%(name)s: merge %(n)s is %(item)s, not a pair of bytes. train_bpe's merges are (bytes, bytes) "
            "pairs: save them before turning them into strings.",
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
            "Errors",
            "%(name)s does not look like UTF-8 text (%(invalid)s of its first %(size)s bytes are not "
            "valid UTF-8). Choose a UTF-8 text file.",
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
        # opening a tokenizer: a damaged or hand-edited file (file, line and value as core names them)
        "file_missing": translate("Errors", "The file %(path)s does not exist. Check the path."),
        "file_folder": translate("Errors", "%(path)s is a folder. Choose a file."),
        "file_unreadable": translate(
            "Errors", "Cannot read the file %(path)s: %(reason)s. Check its permissions."
        ),
        "file_not_utf8": translate(
            "Errors",
            "%(file)s, line %(line)s: not valid UTF-8 (byte %(byte)s). Tokenizer files are UTF-8 text.",
        ),
        "json_invalid": translate(
            "Errors",
            "%(file)s, line %(line)s: not valid JSON (%(detail)s). The file is truncated or was edited "
            "by hand; download or export it again.",
        ),
        "json_too_deep": translate(
            "Errors",
            "%(file)s: the JSON is nested too deeply to read. No tokenizer file is nested that deep: the "
            "file is damaged or not a tokenizer.",
        ),
        "json_key_repeated_lines": translate(
            "Errors",
            "%(file)s, lines %(line)s and %(line2)s: the key %(key)s appears twice. Each token must be "
            "listed once.",
        ),
        "json_key_repeated": translate(
            "Errors", "%(file)s: the key %(key)s appears twice. Each token must be listed once."
        ),
        "merges_line_parts": translate(
            "Errors",
            "%(file)s, line %(line)s: %(text)s has %(parts)s part(s). Each line of merges.txt must be "
            "two tokens separated by one space.",
        ),
        "merges_raw_space": translate(
            "Errors",
            "%(file)s, line %(line)s: %(text)s is not two tokens separated by one space. In a merges.txt a "
            "space inside a token is written with GPT-2's byte characters ('Ġ t' for b' ' + b't'): write "
            "each token with token_to_str, or save the merges with pickle.",
        ),
        "merges_line_literals": translate(
            "Errors", "%(file)s, line %(line)s: %(text)s is not two bytes literals such as b' ' b't'."
        ),
        "merges_not_byte_level": translate(
            "Errors",
            "%(file)s, line %(line)s: %(text)s (%(codepoint)s) is not a GPT-2 byte character: this is "
            "not a byte-level merges file.",
        ),
        "merges_uses_missing": translate(
            "Errors",
            "%(file)s, line %(line)s: the merge %(merge)s uses the token %(token)s, which is not in "
            "%(vocab)s. The two files do not belong together.",
        ),
        "merges_makes_missing": translate(
            "Errors",
            "%(file)s, line %(line)s: the merge %(merge)s makes the token %(token)s, which is not in "
            "%(vocab)s. The two files do not belong together.",
        ),
        "merge_list_shape": translate(
            "Errors", '%(name)s: merge %(n)s is %(item)s, not two tokens; a merge is "a b" or ["a", "b"].'
        ),
        "merge_list_not_byte_level": translate(
            "Errors",
            '%(name)s: merge %(n)s holds %(text)s (%(codepoint)s), which is not a GPT-2 byte character. In "a b" '
            "merges each token is written in GPT-2's byte characters ('Ġ' for a space): write the tokens "
            "that way, or as pairs of strings.",
        ),
        "merge_list_vocab_mismatch": translate(
            "Errors",
            "%(name)s: merge %(n)s needs the token %(token)s, which is not in %(vocab)s; the merges and "
            "the vocab do not belong together.",
        ),
        "merge_list_vocab_entry": translate(
            "Errors",
            '%(name)s: the "vocab" entry %(item)s is not id -> token like its first entry. Give every '
            "entry as id -> token, or every entry as token -> id.",
        ),
        "merge_list_needs_vocab": translate(
            "Errors",
            "%(name)s holds merges but no vocab, and merge %(n)s uses %(token)s, which is no byte and no "
            "earlier merge makes, so the ids cannot be derived from the merges. Put the vocab.json that "
            'goes with it beside it (looked for %(tried)s), add a "vocab" object to the file, or open the '
            "whole tokenizer.json.",
        ),
        "gpt2_not_together": translate(
            "Errors",
            "%(file)s and %(merges_file)s: %(count)s token(s) of the vocab are made by no merge, e.g. "
            "%(shown)s. The two files do not belong together (a truncated or different merges file?); "
            "only added tokens such as <|endoftext|> may lack a merge.",
        ),
        "vocab_bytes_missing": translate(
            "Errors",
            "%(file)s: no single-byte token for %(count)s byte(s) (%(shown)s). A byte-level BPE vocab "
            "has all 256 bytes (all but the 13 that never occur in UTF-8): this is not a complete "
            "byte-level tokenizer file.",
        ),
        "vocab_not_byte_level": translate(
            "Errors",
            "%(file)s%(where)s: the token %(key)s contains %(text)s (%(codepoint)s), which is not a "
            "GPT-2 byte character: this is not a byte-level BPE vocab.",
        ),
        "vocab_id_repeated": translate(
            "Errors",
            "%(file)s%(where)s: id %(id)s is used by both %(text)s and %(key)s. Each id must name one token.",
        ),
        "vocab_id_invalid": translate(
            "Errors",
            "%(file)s%(where)s: the id of %(key)s is %(shown)s. Ids must be integers from 0 to 2^31-1.",
        ),
        "vocab_token_empty": translate(
            "Errors", "%(file)s%(where)s: a token is the empty string. Tokens need at least one byte."
        ),
        "tiktoken_line_parts": translate(
            "Errors",
            "%(file)s, line %(line)s: %(text)s has %(parts)s part(s). Each line of a tiktoken file must "
            "be a base64 token and its rank.",
        ),
        "tiktoken_base64": translate(
            "Errors", "%(file)s, line %(line)s: %(text)s is not valid base64. The file is damaged."
        ),
        "tiktoken_rank_invalid": translate(
            "Errors",
            "%(file)s, line %(line)s: the rank %(text)s is not an integer from 0 to 2^31-1.",
        ),
        "tiktoken_rank_repeated": translate(
            "Errors",
            "%(file)s, line %(line)s: rank %(rank)s is already used on line %(first_line)s. Each rank "
            "must be unique.",
        ),
        "tiktoken_token_repeated": translate(
            "Errors",
            "%(file)s, line %(line)s: the token %(shown)s is already listed on line %(first_line)s. "
            "Each token must be listed once.",
        ),
        "session_newer": translate(
            "Errors",
            "%(file)s: the session is of version %(version)s, newer than this BPE Explorer reads "
            "(%(supported)s). Update BPE Explorer to open it.",
        ),
        "hf_merge_parts": translate(
            "Errors",
            '%(file)s%(where)s: %(shown)s is not two tokens. A merge is "a b" or ["a", "b"].',
        ),
        "hf_merge_not_byte_level": translate(
            "Errors",
            "%(file)s%(where)s: %(text)s is not a GPT-2 byte character: this is not a byte-level BPE "
            "tokenizer.json.",
        ),
        "hf_merge_token_missing": translate(
            "Errors",
            "%(file)s%(where)s: the merge %(shown)s needs the token %(token)s, which is not in the vocab.",
        ),
        "tiktoken_token_empty": translate(
            "Errors", "%(file)s, line %(line)s: the token is empty. Tokens need at least one byte."
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


#: params shown in quotes, as core's English message shows them (repr)
QUOTED = ("pattern", "token", "path", "text", "key", "merge")


def _where(params: dict) -> str:
    """Where in its file an error is: ", line 12", ", merge 3" (a JSON list's index) or nothing."""
    if params.get("line"):
        return translate("Errors", ", line %1").replace("%1", str(params["line"]))
    if "merge_index" in params:
        return translate("Errors", ", merge %1").replace("%1", str(params["merge_index"]))
    return ""


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
                values = {k: (repr(v) if k in QUOTED else v) for k, v in params.items()}
                if "%(where)s" in template:  # a line core may not have found (", line 12" or nothing)
                    values["where"] = _where(params)
                return template % values
            except (KeyError, TypeError, ValueError):
                pass
    return plurals(str(e))  # (core's English: "1 special token(s)" read as "1 special token")
