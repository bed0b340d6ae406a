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
        "pattern_can_match_empty": translate(
            "Errors",
            "The pre-tokenizer regex %(pattern)s can match the empty string, where Hugging Face "
            "tokenizers and tiktoken cut text otherwise (tiktoken fails), so the exported files would "
            "not give BPE Explorer's ids. Make every alternative match at least one character (+ instead "
            "of *, no ? after a whole alternative).",
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
            "%(file)s and %(merges_file)s: the vocab has %(count)s token(s) made by no merge, e.g. "
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
        # the errors met opening, training on, exporting and evaluating files, sessions and counts
        # (tests/gui/test_core_errors_zh.py walks core's raise sites for the codes the app can meet)
        "tokenizer_not_regular": translate(
            "Errors", "%(path)s is not a regular file (a FIFO or a device?). Choose a tokenizer file."
        ),
        "folder_no_tokenizer": translate(
            "Errors",
            "The folder %(path)s holds no tokenizer files. Choose a folder with bpe.json, tokenizer.json, "
            "vocab.json + merges.txt, bpe.tiktoken, a tekken*.json or a SentencePiece tokenizer.model.",
        ),
        "tokenizer_encoding_name": translate(
            "Errors",
            "%(path)s does not exist. The name of an encoding is read only when evaluating; here choose "
            "its file, e.g. %(file)s (tiktoken's copy, or "
            "https://openaipublic.blob.core.windows.net/encodings/).",
        ),
        "folder_mixed": translate(
            "Errors",
            "In the folder %(path)s, %(files)s is newer than %(chosen)s (written after it), so it may hold "
            "another tokenizer. Choose the file to open (e.g. %(example)s), or export all formats again.",
        ),
        "file_special_surrogate": translate(
            "Errors",
            "%(file)s%(where)s: the special token %(token)s contains a lone surrogate (%(codepoint)s), "
            "which is not valid Unicode. The file is damaged: fix or remove that token.",
        ),
        "gpt2_pickle": translate(
            "Errors",
            "%(file)s is a Python pickle, not a GPT-2 %(what)s. Load it with pickle.load, then pass the "
            "vocab and merges to Tokenizer(vocab, merges, special_tokens), or write GPT-2 files from them "
            "with core.export_all.",
        ),
        "gpt2_vocab_not_object": translate(
            "Errors",
            "%(file)s holds a %(kind)s, not a JSON object of token -> id: this is not a GPT-2 vocab.json.",
        ),
        "gpt2_vocab_ids_to_tokens": translate(
            "Errors",
            "%(file)s maps ids to tokens (%(shown)s …). A GPT-2 vocab.json maps each token, written in "
            "GPT-2's byte characters, to its id: pass the vocab and merges to Tokenizer(vocab, merges, "
            "special_tokens), or write GPT-2 files from them with core.export_all.",
        ),
        "hf_no_model": translate(
            "Errors", '%(file)s has no "model" object: it is not a HuggingFace tokenizer.json.'
        ),
        "hf_model_unknown": translate(
            "Errors",
            "%(file)s: the model type %(kind)s is unknown. BPE Explorer opens byte-level BPE and "
            "SentencePiece BPE tokenizers.",
        ),
        "hf_dropout": translate(
            "Errors", '%(file)s: BPE dropout %(shown)s makes encoding random. Set "dropout" to null.'
        ),
        "hf_added_not_list": translate(
            "Errors", "%(file)s: added_tokens is %(shown)s, not a list of tokens."
        ),
        "hf_added_invalid": translate(
            "Errors",
            "%(file)s: added token %(index)s is %(shown)s. It needs a non-empty string content and a "
            "non-negative integer id.",
        ),
        "hf_added_id_taken": translate(
            "Errors",
            "%(file)s: the added token %(token)s has id %(id)s, which the vocab gives to %(shown)s. The "
            "file is inconsistent.",
        ),
        "hf_vocab_missing": translate(
            "Errors", "%(file)s: model.vocab is missing or is not an object of token -> id."
        ),
        "hf_id_repeated": translate(
            "Errors",
            "%(file)s%(where)s: id %(id)s is used twice (again by %(key)s). Each id must name one token.",
        ),
        "hf_merges_not_list": translate("Errors", "%(file)s: model.merges is not a list."),
        "hf_pretokenizer_invalid": translate(
            "Errors", '%(file)s: %(key)s is %(shown)s, not a pre-tokenizer object with a "type".'
        ),
        "hf_pretokenizer_steps": translate(
            "Errors", "%(file)s: %(key)s is %(shown)s, not a list of pre-tokenizers."
        ),
        "hf_pretokenizer_pattern": translate(
            "Errors", '%(file)s: %(key)s is %(shown)s, not {"Regex": "..."} or {"String": "..."}.'
        ),
        "post_processor_token": translate(
            "Errors", "%(file)s: the post-processor uses %(token)s, which is not a token."
        ),
        "hf_normalizer_unsupported": translate(
            "Errors",
            "%(file)s: the normalizer %(kind)s is not supported (supported: NFC, NFD, NFKC, NFKD, "
            "Lowercase, Replace, Prepend, Strip and a Sequence of them).",
        ),
        "hf_pretokenizer_unsupported": translate(
            "Errors",
            "%(file)s: the pre-tokenizer %(kind)s is not supported (supported: Split, ByteLevel, "
            "Metaspace, Digits, Punctuation, Whitespace, WhitespaceSplit and a Sequence of them).",
        ),
        "hf_post_unsupported": translate(
            "Errors",
            "%(file)s: the post-processor %(kind)s is not supported (supported: TemplateProcessing, "
            "ByteLevel, RobertaProcessing, BertProcessing, Sequence).",
        ),
        "hf_not_byte_level": translate(
            "Errors",
            "%(file)s: the pre-tokenizer has no ByteLevel step, so HuggingFace looks up characters, not "
            "bytes, in the vocab (a character-level tokenizer). BPE Explorer opens byte-level BPE.",
        ),
        "hf_pipeline_invalid": translate(
            "Errors",
            "%(file)s: its normalizer, pre-tokenizer or post-processor cannot be used (%(detail)s). "
            "Compare it with a file HuggingFace writes.",
        ),
        "hf_post_malformed": translate(
            "Errors", "%(file)s: the post-processor is malformed (%(detail)s). Fix or remove it."
        ),
        "hf_pipeline_malformed": translate(
            "Errors",
            "%(file)s: the normalizer or pre-tokenizer is malformed (%(detail)s). Compare it with a file "
            "HuggingFace writes.",
        ),
        "hf_normalizer_not_object": translate(
            "Errors", "%(file)s: the normalizer %(shown)s is not an object."
        ),
        "hf_pretokenizer_not_object": translate(
            "Errors", "%(file)s: the pre-tokenizer %(shown)s is not an object."
        ),
        "hf_post_not_object": translate("Errors", "%(file)s: the post-processor %(shown)s is not an object."),
        "hf_field_not_string": translate("Errors", "%(file)s: %(field)s is %(shown)s, not a string."),
        "hf_post_cls_sep": translate(
            "Errors", "%(file)s: the %(kind)s post-processor needs cls and sep as [token, id] pairs."
        ),
        "hf_template_item": translate(
            "Errors", "%(file)s: the TemplateProcessing item %(shown)s is not an object."
        ),
        "hf_template_id": translate(
            "Errors",
            "%(file)s: the TemplateProcessing special token %(token)s has the id %(shown)s, which is not "
            "an id.",
        ),
        "hf_template_item_kind": translate(
            "Errors",
            "%(file)s: the TemplateProcessing item %(shown)s is neither a SpecialToken nor a Sequence.",
        ),
        "hf_pattern_form": translate(
            "Errors",
            '%(file)s: the %(step)s step has the pattern %(shown)s; expected {"String": ...} or '
            '{"Regex": ...}.',
        ),
        "hf_regex_invalid": translate(
            "Errors", "%(file)s: the regex %(pattern)s of the %(step)s step does not compile (%(detail)s)."
        ),
        "hf_split_behaviour": translate(
            "Errors", "%(file)s: the Split behaviour %(shown)s is unknown (expected one of %(names)s)."
        ),
        "hf_metaspace_replacement": translate(
            "Errors", "%(file)s: the Metaspace replacement %(shown)s is not one character."
        ),
        "hf_metaspace_scheme": translate(
            "Errors", "%(file)s: the Metaspace prepend_scheme %(shown)s is not always, first or never."
        ),
        "hf_decoder": translate("Errors", "%(file)s: the decoder cannot be used (%(detail)s)."),
        "sp_suffix": translate(
            "Errors",
            "%(file)s: this SentencePiece model puts '▁' after words (treat_whitespace_as_suffix), which "
            "BPE Explorer does not reproduce. It opens models with the usual '▁' prefix.",
        ),
        "sp_charsmap": translate(
            "Errors",
            "%(file)s: the precompiled character map cannot be read (%(detail)s). The file is damaged.",
        ),
        "sp_piece_type": translate(
            "Errors", "%(file)s: piece %(index)s (%(text)s) has the unknown type %(kind)s."
        ),
        "sp_byte_piece": translate(
            "Errors", "%(file)s: piece %(index)s is a byte piece named %(text)s, not <0xXX>."
        ),
        "sp_piece_empty": translate("Errors", "%(file)s: piece %(index)s is empty. The file is damaged."),
        "sp_piece_repeated": translate(
            "Errors", "%(file)s: the piece %(text)s is listed twice (ids %(first)s and %(second)s)."
        ),
        "sp_id_repeated": translate(
            "Errors", "%(file)s: id %(id)s is used twice (%(text)s and %(key)s). Each id names one token."
        ),
        "sp_unk_missing": translate("Errors", "%(file)s: the unk_token %(token)s is not in the vocab."),
        "sp_model_damaged": translate(
            "Errors",
            "%(file)s looks like a SentencePiece .model file but cannot be read (%(detail)s). The file is "
            "damaged or truncated: download it again.",
        ),
        "sp_model_empty": translate(
            "Errors", "%(file)s: a SentencePiece .model file without pieces. The file is damaged."
        ),
        "sp_export_charsmap": translate(
            "Errors",
            "This SentencePiece model normalizes text with a precompiled character map (rule %(rule)s), "
            "which BPE Explorer does not write to tokenizer.json. Export the native bpe.json instead.",
        ),
        "sp_export_whitespace": translate(
            "Errors",
            "This SentencePiece model removes extra spaces (remove_extra_whitespaces), which a "
            "tokenizer.json cannot do the same way. Export the native bpe.json instead.",
        ),
        "sp_export_unused": translate(
            "Errors",
            "This SentencePiece model has unused pieces (split back after merging), which HuggingFace's "
            "BPE cannot do. Export the native bpe.json instead.",
        ),
        "sp_export_stray": translate(
            "Errors",
            "%(count)s piece(s) of this model (e.g. %(shown)s) do not encode to themselves, so "
            "HuggingFace's BPE cannot keep its user-defined pieces whole without changing their ids. "
            "Export the native bpe.json instead.",
        ),
        "tekken_config": translate(
            "Errors",
            "%(file)s: the config needs a pattern and integer default_vocab_size and "
            "default_num_special_tokens (default_vocab_size larger than the number of special tokens).",
        ),
        "tekken_specials_many": translate(
            "Errors",
            "%(file)s: default_num_special_tokens is %(count)s; mistral-common files reserve about 1,000 "
            "and this reader takes at most %(most)s. The file is damaged.",
        ),
        "tekken_vocab_short": translate(
            "Errors",
            "%(file)s: the vocab lists %(count)s tokens, but default_vocab_size %(vocab_size)s - "
            "%(n_special)s special tokens needs %(need)s.",
        ),
        "tekken_rank_order": translate(
            "Errors", "%(file)s: vocab entry %(index)s has rank %(shown)s. Ranks must be 0, 1, 2 … in order."
        ),
        "tekken_entry": translate(
            "Errors", '%(file)s: vocab entry %(index)s is not {"rank", "token_bytes" (base64)}.'
        ),
        "tekken_token_empty": translate("Errors", "%(file)s: vocab entry %(index)s is an empty token."),
        "tekken_specials_list": translate(
            "Errors", '%(file)s: special_tokens is not a list of {"rank", "token_str"}.'
        ),
        "tekken_specials_count": translate(
            "Errors", "%(file)s: %(count)s special tokens (some repeated?) for %(n_special)s special ids."
        ),
        "tekken_pattern": translate(
            "Errors", "%(file)s: the pattern of this tekken file cannot be used (%(detail)s)."
        ),
        "tiktoken_known_special": translate(
            "Errors",
            "%(file)s: %(name)s has no special token %(token)s (it has %(shown)s …). Give new ones as "
            "TOKEN=ID.",
        ),
        "special_id_invalid": translate(
            "Errors",
            "The special token %(token)s is given the id %(shown)s. Ids are integers from 0 to 2^31-1.",
        ),
        "special_id_taken": translate(
            "Errors",
            "The special token %(token)s is given the id %(id)s, which the file already uses for "
            "%(shown)s. Choose an unused id.",
        ),
        "special_ids_mixed": translate(
            "Errors",
            "The special tokens %(shown)s have no id while others do. Give every one as TOKEN=ID (e.g. "
            "<|endoftext|>=100257), or none of them.",
        ),
        "special_ids_same": translate(
            "Errors", "Two special tokens are given the same id. Each needs its own."
        ),
        "native_not_ours": translate(
            "Errors", '%(file)s is not a BPE Explorer file (its "format" is not bpe-explorer).'
        ),
        "native_version_invalid": translate(
            "Errors", "%(file)s%(where)s: the version %(shown)s is not a positive integer."
        ),
        "native_newer": translate(
            "Errors",
            "%(file)s%(where)s: the format version %(version)s is newer than this BPE Explorer reads "
            "(%(supported)s). Update BPE Explorer to open it.",
        ),
        "native_token_encoding": translate("Errors", "%(file)s%(where)s: token_encoding must be 'base64'."),
        "native_pattern_type": translate(
            "Errors",
            "%(file)s%(where)s: \"pattern\" must be a string ('gpt2', 'gpt4', 'none' or a regular "
            "expression).",
        ),
        "native_pattern_invalid": translate(
            "Errors", "%(file)s%(where)s: the pattern cannot be used (%(detail)s)."
        ),
        "native_tie_break": translate(
            "Errors", "%(file)s%(where)s: tie_break %(shown)s must be 'lexicographic', 'first' or null."
        ),
        "native_pipeline_type": translate(
            "Errors",
            '%(file)s%(where)s: "pipeline" must be an object (an imported tokenizer.json\'s normalizer, '
            "pre-tokenizer and post-processor) or absent.",
        ),
        "native_pipeline_invalid": translate(
            "Errors",
            "%(file)s%(where)s: the pipeline cannot be used (%(detail)s). The file was edited by hand or "
            "is damaged.",
        ),
        "native_list_type": translate("Errors", '%(file)s%(where)s: "%(field)s" must be a list.'),
        "native_vocab_entry": translate(
            "Errors", "%(file)s%(where)s: %(shown)s is not an [id, base64] entry (id from 0 to 2^31-1)."
        ),
        "native_base64": translate("Errors", "%(file)s%(where)s: %(shown)s is not valid base64."),
        "native_token_empty": translate(
            "Errors", "%(file)s%(where)s: the token with id %(id)s is empty. Tokens need at least one byte."
        ),
        "native_id_repeated": translate(
            "Errors", "%(file)s%(where)s: id %(id)s is listed twice. Each id must be listed once."
        ),
        "native_special_entry": translate(
            "Errors", '%(file)s%(where)s: %(shown)s is not {"id": int, "content": str}.'
        ),
        "native_special_id": translate(
            "Errors",
            "%(file)s%(where)s: the special token %(token)s has id %(id)s, but the vocab gives that id to "
            "%(shown)s.",
        ),
        "native_special_repeated": translate(
            "Errors", "%(file)s%(where)s: the special token %(token)s is listed twice."
        ),
        "native_merge_entry": translate("Errors", "%(file)s%(where)s: %(shown)s is not an [id, id] pair."),
        "native_merge_id": translate(
            "Errors", "%(file)s%(where)s: merge %(n)s uses id %(id)s, which is not in the vocab."
        ),
        "native_merge_makes": translate(
            "Errors", "%(file)s%(where)s: merge %(n)s makes %(shown)s, which is not in the vocab."
        ),
        "native_training_type": translate(
            "Errors", '%(file)s%(where)s: "training" must be an object or null.'
        ),
        "native_training_list": translate(
            "Errors", "%(file)s%(where)s: %(field)s must be a list of integers."
        ),
        "native_training_length": translate(
            "Errors",
            "%(file)s%(where)s: %(field)s has %(count)s entries for %(n_merges)s merges. The training "
            "record does not belong to these merges.",
        ),
        "native_merge_unknown_token": translate(
            "Errors",
            "Merge %(rank)s %(shown)s uses a token that is not in the vocab. Fix the tokenizer before "
            "saving.",
        ),
        "training_record_mismatch": translate(
            "Errors",
            "The training record has %(count)s %(key)s for %(n_merges)s merges. The file is inconsistent: "
            "export it again.",
        ),
        "session_not_object": translate("Errors", '%(file)s: "session" must be an object.'),
        "session_version_invalid": translate(
            "Errors", "%(file)s: the session version %(shown)s is not a positive integer."
        ),
        "session_field_type": translate("Errors", "%(file)s: %(field)s has the wrong type (%(kind)s)."),
        "session_field_range": translate(
            "Errors", "%(file)s: %(field)s is %(value)s; it must be from %(low)s to 2^31-1."
        ),
        "session_corpus_unreadable": translate(
            "Errors", "Cannot read the corpus %(path)s to save the session: %(reason)s."
        ),
        "write_folder": translate("Errors", "%(path)s is a folder. Choose a file name to write to."),
        "folder_missing": translate("Errors", "The folder %(path)s does not exist. Create it first."),
        "write_failed": translate(
            "Errors",
            "Cannot write %(path)s: %(reason)s. Check the folder's permissions and free space (the "
            "previous file is unchanged).",
        ),
        "publish_failed": translate(
            "Errors", "Cannot write %(path)s: %(reason)s. The previous files are unchanged."
        ),
        "publish_failed_after": translate(
            "Errors",
            "Cannot write %(path)s: %(reason)s. %(done)s already replaced, the other files are unchanged: "
            "export again.",
        ),
        "export_not_folder": translate("Errors", "%(path)s is a file. Export needs a folder."),
        "folder_cannot_create": translate("Errors", "Cannot create the folder %(path)s: %(reason)s."),
        "export_same_token": translate(
            "Errors",
            "Ids %(first)s and %(second)s are the same token %(shown)s; %(fmt)s can hold each token once. "
            "Use the native bpe.json format.",
        ),
        "export_lossy": translate(
            "Errors",
            "The %(fmt)s format cannot hold %(lost)s of this imported tokenizer, so the exported files "
            "would give different ids. Export tokenizer.json or bpe.json (they keep all of it), or export "
            "anyway without them.",
        ),
        "export_pattern_gaps": translate(
            "Errors",
            "The %(fmt)s format cannot hold this tokenizer's pattern %(pattern)s: it does not match all "
            "text (no alternative matches %(chars)s), and tiktoken drops the text its pattern does not "
            "match, so the file would lose that text. Export tokenizer.json or bpe.json, or export anyway.",
        ),
        "export_pattern_empty": translate(
            "Errors",
            "The %(fmt)s format cannot hold this tokenizer's pattern %(pattern)s: it can match the empty "
            "string, and tiktoken fails on text where it does. Export tokenizer.json or bpe.json, or "
            "export anyway.",
        ),
        "export_special_prefix": translate(
            "Errors",
            "The tiktoken format cannot hold special tokens of which one begins another (%(first)s begins "
            "%(second)s): tiktoken may take the shorter where BPE Explorer and Hugging Face tokenizers "
            "take the longest. Export tokenizer.json or bpe.json, or export anyway.",
        ),
        "export_merge_order": translate(
            "Errors",
            "The tiktoken format cannot hold the order of this tokenizer's merges: tiktoken merges by token "
            "rank (the adjacent pair that makes the token of lowest id first), where BPE Explorer and "
            "Hugging Face tokenizers apply the merge list in its order, and here the two give other ids "
            "(%(text)s → %(tiktoken)s with tiktoken, %(ours)s here). Export tokenizer.json or bpe.json, or "
            "export anyway.",
        ),
        "export_special_not_utf8": translate(
            "Errors",
            "Special token %(token)s (id %(id)s) is not UTF-8: %(formats)s cannot hold it as a special "
            "token (a tokenizer.json and tiktoken's special tokens are text). Export GPT-2 files or "
            "bpe.json (they hold its bytes), or export anyway with it as an ordinary token of the vocab.",
        ),
        "corpus_not_regular": translate(
            "Errors",
            "%(path)s is not a regular file (a FIFO, socket or device?). Save the text to a file first.",
        ),
        "corpus_stream": translate(
            "Errors",
            "%(path)s is a FIFO, pipe or device, which can be read only once; the app needs a file it can "
            "read again. Save the text to a file first (the command line can stream it: bpe-explorer train "
            "FILE).",
        ),
        "count_piece_cut": translate(
            "Errors",
            "A counting process's temporary file %(path)s was cut short (is the disk full?). Free some space "
            "there, point TMPDIR at a folder with more room, or count in one process.",
        ),
        "count_no_room": translate(
            "Errors",
            "Counting in several processes needs room for temporary files in %(folder)s (%(reason)s). Free "
            "some space there, point TMPDIR at a folder with more room, or count in one process.",
        ),
        "count_open_files": translate(
            "Errors",
            "A counting process could not open a temporary file in %(folder)s (%(reason)s). Raise the "
            "limit on open files (ulimit -n), or count in one process.",
        ),
        "worker_died": translate("Errors", "A worker process ended unexpectedly (%(exit_reason)s)."),
        "child_start_failed": translate(
            "Errors",
            "Could not start a %(name)s process: %(reason)s (%(python)s). Check that this Python is "
            "installed and runnable, or use one process.",
        ),
        "child_start_exit": translate(
            "Errors",
            "Could not start a %(name)s process (%(exit_reason)s); its own error, if any, is printed in "
            "the terminal. Check that this Python can import the package (%(python)s), or use one process.",
        ),
        "engine_died": translate(
            "Errors",
            "The training engine stopped unexpectedly (%(exit_reason)s). The loaded corpus is gone: open "
            "it again.",
        ),
        "engine_not_started": translate("Errors", "The training engine could not start."),
        "engine_start_failed": translate("Errors", "The training engine could not start: %(cause)s"),
        "engine_stopped": translate(
            "Errors",
            "The training engine was stopped (SIGSTOP) for more than %(seconds)s s and has been ended. The "
            "loaded corpus is gone: open it again.",
        ),
        "engine_bad_reply": translate(
            "Errors",
            "The training engine sent an unreadable reply (%(detail)s). The loaded corpus is gone: open it "
            "again.",
        ),
        "counts_no_meta": translate(
            "Errors",
            "%(name)s has no 'bpe_explorer' metadata: give the pattern (and the special tokens, if any) it "
            "was counted with.",
        ),
        "counts_other_pattern": translate(
            "Errors",
            "The counts were made with the pattern '%(made)s', not '%(given)s'. Train with the counts' own "
            "pattern, or count again with this one.",
        ),
        "counts_other_specials": translate(
            "Errors",
            "The counts were made with the special tokens %(made)s, not %(given)s. Train with the counts' "
            "own special tokens, or count again with these.",
        ),
        "counts_no_first": translate(
            "Errors",
            "The counts have no first_file/first_offset columns, which the 'first' tie rule needs (each "
            "token's first occurrence). Train with the lexicographic tie rule, or write those columns.",
        ),
        "counts_columns": translate(
            "Errors",
            "%(name)s lacks the column(s) %(columns)s. A counts file has token (binary), count (int64), "
            "and first_file (int32), first_offset (int64) for the 'first' tie rule (both or neither).",
        ),
        "counts_types": translate(
            "Errors", "%(name)s: the column types do not fit the counts schema (%(detail)s)."
        ),
        "counts_rows": translate("Errors", "%(name)s: every row needs a token and a count of at least 1."),
        "counts_token_twice": translate(
            "Errors", "%(name)s lists a token twice. Sum the rows per token (group by token)."
        ),
        "counts_first_null": translate(
            "Errors",
            "%(name)s: first_file and first_offset need a value in every row (the file index and byte "
            "offset of the token's first occurrence).",
        ),
        "counts_first_negative": translate(
            "Errors", "%(name)s: first_file and first_offset must be at least 0."
        ),
        "counts_first_sources": translate(
            "Errors",
            "%(name)s: first_file goes up to %(highest)s but the metadata lists %(count)s source file(s). "
            "List every file in 'sources', in order.",
        ),
        "counts_missing": translate("Errors", "The counts file %(path)s does not exist. Check the path."),
        "counts_empty_folder": translate(
            "Errors",
            "%(path)s is a folder without data files. Choose a counts file made by 'count', or a folder of "
            "Parquet parts (as Spark or Dask write them).",
        ),
        "counts_unreadable": translate(
            "Errors", "%(name)s is not a readable Parquet counts file (%(detail)s)."
        ),
        "counts_several_runs": translate(
            "Errors",
            "%(name)s holds the counts of %(count)s separate runs (their part files carry different "
            "metadata). Open each file on its own, not the folder.",
        ),
        "counts_pyarrow": translate(
            "Errors", 'Counts files need pyarrow: pip install "bpe-explorer[scale]".'
        ),
        "counts_meta_kind": translate(
            "Errors", "%(name)s: the metadata 'bpe_explorer' is not a counts record."
        ),
        "counts_newer": translate(
            "Errors",
            "%(name)s is of counts format version %(version)s; this BPE Explorer reads up to "
            "%(supported)s. Update BPE Explorer to open it.",
        ),
        "counts_meta_unreadable": translate(
            "Errors",
            "%(name)s: the metadata 'bpe_explorer' cannot be read (%(detail)s). See the README's counts "
            "schema.",
        ),
        "counts_meta_no_pattern": translate(
            "Errors",
            "%(name)s: the metadata 'bpe_explorer' has no 'pattern'. Add the pattern the counts were made "
            'with ("gpt2", "gpt4", the regex, or null for no pre-tokenization).',
        ),
        "counts_meta_patterns": translate(
            "Errors",
            "%(name)s: the metadata 'bpe_explorer' has the pattern %(pattern)s but pattern_name %(shown)s. "
            "Make them agree.",
        ),
        "counts_not_int": translate("Errors", "A word count is %(shown)s. Counts must be positive integers."),
        "counts_not_positive": translate(
            "Errors", "A word count is %(shown)s. Counts must be positive integers."
        ),
        "counts_too_large": translate(
            "Errors",
            "The counts sum to %(total)s over words of up to %(longest)s bytes: a pair could be counted "
            "%(pairs)s times, more than this trainer sums exactly (2^62). These counts are damaged or too "
            "large.",
        ),
        "pair_absent": translate(
            "Errors", "The pair %(shown)s does not occur in the corpus now; it cannot be merged."
        ),
        "extend_char_level": translate(
            "Errors",
            "Extending a SentencePiece-style (character-level) BPE tokenizer is not supported. Extend a "
            "byte-level one (GPT-2, tokenizer.json, tiktoken, bpe.json).",
        ),
        "extend_vocab_small": translate(
            "Errors",
            "A vocab size of %(vocab_size)s is smaller than the base tokenizer's %(base)s tokens; an "
            "extension keeps them all. Choose a vocab size above %(base)s.",
        ),
        "extend_record_mismatch": translate(
            "Errors",
            "The training record says this tokenizer extends one of %(n_vocab)s tokens and %(n_merges)s "
            "merges, which does not fit its %(vocab)s tokens and %(merges)s merges. The file is "
            "inconsistent: export it again.",
        ),
        "token_id_unknown": translate(
            "Errors", "The id %(id)s is not in this vocabulary (ids %(lo)s..%(hi)s). Give an id it has."
        ),
        "token_unknown": translate(
            "Errors", "%(shown)s is not a token of this vocabulary. Give a token's text or its id."
        ),
        "token_unknown_parts": translate(
            "Errors",
            "%(shown)s is not a token of this vocabulary; this tokenizer cuts it into %(count)s tokens "
            "(%(parts)s). Trace one of them by its id or its text.",
        ),
        "text_surrogate": translate(
            "Errors",
            "The text contains a lone surrogate (%(codepoint)s at character %(index)s), which is not valid "
            "Unicode. Fix the text.",
        ),
        "eval_no_tokenizer": translate("Errors", "No tokenizer to evaluate. Add at least one."),
        "eval_no_text": translate("Errors", "No text to evaluate on. Add at least one file."),
        "eval_tokenizer_unknown": translate(
            "Errors",
            "The tokenizer %(text)s is neither a file or folder nor a known encoding. Give a path or one "
            "of %(names)s.",
        ),
        "eval_encoding_case": translate("Errors", "Unknown tokenizer %(text)s; did you mean %(shown)s?"),
        "sample_docs_few": translate("Errors", "Sampling %(n)s documents: sample at least 1 document."),
        "sample_docs_split": translate(
            "Errors",
            "Sampling documents needs a split token: documents are the pieces between its occurrences.",
        ),
        # (the app's own: more than one file picked, not a vocab.json + merges.txt pair)
        "pick_files": translate(
            "Errors",
            "Pick one tokenizer file or folder, or a GPT-2 vocab .json together with its merges .txt "
            "(picked: %(names)s).",
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
    """Where in its file an error is: ", line 12", ", merge 3" (a JSON list's index), ", vocab entry 3"
    (an entry of a named list, when core found no line for it) or nothing."""
    if params.get("line"):
        return translate("Errors", ", line %1").replace("%1", str(params["line"]))
    if "merge_index" in params:
        return translate("Errors", ", merge %1").replace("%1", str(params["merge_index"]))
    if "list_name" in params and "index" in params:
        where = translate("Errors", ", %1 entry %2")
        return where.replace("%1", str(params["list_name"])).replace("%2", str(params["index"]))
    return ""


def _signals() -> dict[str, str]:
    """What a signal that ended a process most likely means (``core.workers.exit_codes``)."""
    return {
        "SIGKILL": translate("Errors", "killed by SIGKILL: out of memory, or killed by hand?"),
        "SIGTERM": translate(
            "Errors", "ended by SIGTERM: asked to stop (by hand, or by the system shutting down)"
        ),
        "SIGINT": translate("Errors", "ended by SIGINT (Ctrl+C)"),
        "SIGHUP": translate("Errors", "ended by SIGHUP: its terminal closed"),
        "SIGSEGV": translate("Errors", "crashed (SIGSEGV: a fault in native code)"),
        "SIGBUS": translate("Errors", "crashed (SIGBUS: a file it had mapped shrank, or a memory fault)"),
        "SIGABRT": translate("Errors", "aborted (SIGABRT)"),
    }


def _exit_reason(code: object) -> str:
    """A process's exit code in words, as ``core.workers.exit_codes.exit_reason`` says it in English."""
    import signal

    if not isinstance(code, int):
        return translate("Errors", "exit code unknown")
    if code >= 0:
        return translate("Errors", "exit code %1").replace("%1", str(code))
    try:
        name = signal.Signals(-code).name
    except ValueError:
        return translate("Errors", "ended by signal %1").replace("%1", str(-code))
    return _signals().get(name) or translate("Errors", "ended by %1").replace("%1", name)


def _derived(params: dict) -> dict[str, str]:
    """Values a template shows that core gives in another form: the exit reason of an exit code, the
    error that caused this one (in the app's language too), what an export would lose."""
    out = {}
    if "exit_code" in params:
        out["exit_reason"] = _exit_reason(params["exit_code"])
    if isinstance(params.get("cause"), BaseException):
        out["cause"] = error_text(params["cause"])
    if isinstance(params.get("lost"), (list, tuple)):
        from bpe_gui.text.core import loss

        out["lost"] = translate("Errors", "; ").join(loss(x) for x in params["lost"])
    return out


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
                values.update(_derived(params))
                if "%(where)s" in template:  # a line core may not have found (", line 12" or nothing)
                    values["where"] = _where(params)
                return template % values
            except (KeyError, TypeError, ValueError):
                pass
    return plurals(str(e))  # (core's English: "1 special token(s)" read as "1 special token")
