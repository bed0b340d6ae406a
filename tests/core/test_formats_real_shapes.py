"""Tokenizer files shaped like the ones people have: GPT-2 vocabs holding the token "model", CS336's
``gpt2_vocab.json`` + ``gpt2_merges.txt`` names, known tiktoken files, Mistral tekken JSON, and
SentencePiece models that must be refused by name. All inputs are built here."""

from __future__ import annotations

import base64
import hashlib
import json
import re

import pytest
import tiktoken

from core import Tokenizer
from core.bpe.byte_level import token_to_str
from core.errors import FormatError
from core.formats import find_vocab_for, load_any, save_gpt2, save_tiktoken
from core.formats import known as known_mod
from core.formats.spec import TokenizerSpec

MERGES = [
    (b"m", b"o"),
    (b"mo", b"d"),
    (b"e", b"l"),
    (b"mod", b"el"),
    (b" ", b"t"),
    (b"h", b"e"),
    (b" t", b"he"),
]
TEXTS = ["model the models", "the model<|endoftext|>x", "", "élan 12", "<|a|><|a|>x"]


def _gpt2_files(tmp_path, prefix=""):
    spec = TokenizerSpec.from_merges(MERGES, ["<|endoftext|>"])
    save_gpt2(spec, tmp_path)
    if prefix:
        (tmp_path / "vocab.json").rename(tmp_path / f"{prefix}vocab.json")
        (tmp_path / "merges.txt").rename(tmp_path / f"{prefix}merges.txt")
    return spec


def test_a_gpt2_vocab_holding_the_token_model_is_not_taken_for_tokenizer_json(tmp_path):
    spec = _gpt2_files(tmp_path)
    data = json.loads((tmp_path / "vocab.json").read_text(encoding="utf-8"))
    assert "model" in data  # the token "model", as in the real GPT-2 vocab (id 19849)
    loaded = load_any(tmp_path / "vocab.json")
    assert loaded.merges == spec.merges and loaded.special_tokens == ("<|endoftext|>",)
    assert any("pattern is assumed" in n for n in loaded.notes)


@pytest.mark.parametrize("prefix", ["gpt2_", "gpt2-"])
def test_merges_file_finds_its_vocab_by_cs336_names(tmp_path, prefix):
    spec = _gpt2_files(tmp_path, prefix)
    (tmp_path / "other.json").write_text("{}", encoding="utf-8")  # not picked: the names say which
    for start in (f"{prefix}merges.txt", f"{prefix}vocab.json"):
        assert load_any(tmp_path / start).merges == spec.merges


def test_merges_file_with_single_json_beside_it_and_a_clear_error_otherwise(tmp_path):
    _gpt2_files(tmp_path)
    (tmp_path / "vocab.json").rename(tmp_path / "enc.json")
    (tmp_path / "merges.txt").rename(tmp_path / "bpe.txt")
    assert find_vocab_for(tmp_path / "bpe.txt").name == "enc.json"
    (tmp_path / "second.json").write_text("{}", encoding="utf-8")
    with pytest.raises(FormatError, match=r"looked for vocab.json or a single \*.json"):
        load_any(tmp_path / "bpe.txt")


def _tiktoken_file(tmp_path):
    spec = TokenizerSpec.from_merges(MERGES, [])
    path = save_tiktoken(spec, tmp_path / "enc.tiktoken")
    return spec, path


def test_known_tiktoken_file_brings_its_pattern_and_special_ids(tmp_path, monkeypatch):
    spec, path = _tiktoken_file(tmp_path)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    specials = {"<|endoftext|>": 300, "<|endofprompt|>": 310}  # not the next free ids
    monkeypatch.setitem(
        known_mod.KNOWN_BY_HASH,
        digest,
        known_mod.KnownEncoding("toy", r"\p{L}+|\s+|[^\s\p{L}]+", specials, "a toy encoding"),
    )
    loaded = load_any(path)
    assert loaded.special_ids == specials and "recognised as toy" in loaded.notes[0]
    enc = tiktoken.Encoding(
        "toy",
        pat_str=r"\p{L}+|\s+|[^\s\p{L}]+",
        mergeable_ranks={b: i for i, b in spec.vocab.items()},
        special_tokens=specials,
    )
    tok = Tokenizer.from_spec(loaded)
    for t in [*TEXTS, "<|endofprompt|>a b"]:
        assert tok.encode(t) == enc.encode(t, allowed_special="all")
    # what the user gives wins over the known values
    mine = load_any(path, special_tokens={"<|x|>": 400})
    assert mine.special_ids == {"<|x|>": 400}


def test_unknown_tiktoken_file_says_what_it_assumed_and_takes_token_ids(tmp_path):
    _, path = _tiktoken_file(tmp_path)
    loaded = load_any(path)
    assert loaded.pattern == "gpt2" and "not a known encoding" in loaded.notes[0]
    given = load_any(path, special_tokens={"<|endoftext|>": 1000}, pattern="gpt4")
    assert given.special_ids == {"<|endoftext|>": 1000} and given.pattern == "gpt4"
    with pytest.raises(FormatError, match="already uses"):
        load_any(path, special_tokens={"<|endoftext|>": 65})


def test_tiktoken_rank_that_is_a_unicode_digit_is_a_clear_error(tmp_path):
    path = tmp_path / "bad.tiktoken"
    path.write_text(
        "".join(f"{base64.b64encode(bytes([i])).decode()} {i}\n" for i in range(256)) + "YWI= ²\n",
        encoding="utf-8",
    )
    with pytest.raises(FormatError, match="line 257: rank '²'"):
        load_any(path)


def _tekken(tmp_path, *, specials=None, n_special=5, extra_ranks=2):
    spec = TokenizerSpec.from_merges(MERGES, [])
    ranks = [spec.vocab[i] for i in sorted(spec.vocab)]
    ranks += [b"zz" + bytes([i]) for i in range(extra_ranks)]  # cut off by default_vocab_size
    pattern = r"[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
    data = {
        "config": {
            "pattern": pattern,
            "num_vocab_tokens": len(ranks),
            "default_vocab_size": len(ranks) - extra_ranks + n_special,
            "default_num_special_tokens": n_special,
            "version": "v7",
        },
        "vocab": [
            {"rank": r, "token_bytes": base64.b64encode(b).decode(), "token_str": token_to_str(b)}
            for r, b in enumerate(ranks)
        ],
    }
    if specials is not None:
        data["special_tokens"] = [
            {"rank": i, "token_str": s, "is_control": True} for i, s in enumerate(specials)
        ]
    path = tmp_path / "tekken_toy.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return spec, path, pattern


def test_tekken_ids_are_ranks_after_the_special_ids(tmp_path):
    spec, path, pattern = _tekken(tmp_path, specials=["<unk>", "<s>", "</s>"])
    loaded = load_any(path)
    assert loaded.vocab[1] == b"<s>" and loaded.vocab[4] == b"<SPECIAL_4>"
    enc = tiktoken.Encoding(
        "t", pat_str=pattern, mergeable_ranks={b: i for i, b in spec.vocab.items()}, special_tokens={}
    )
    tok = Tokenizer.from_spec(loaded)
    for t in [*TEXTS, "<s>model</s>"]:  # special tokens' text is ordinary text, as in mistral-common
        assert tok.encode(t) == [i + 5 for i in enc.encode(t)]
    assert load_any(tmp_path).merges == loaded.merges  # a folder with one tekken*.json


def test_old_tekken_without_special_tokens_uses_the_legacy_names(tmp_path):
    _, path, _ = _tekken(tmp_path, n_special=25)
    loaded = load_any(path)
    assert loaded.vocab[3] == b"[INST]" and loaded.vocab[20] == b"<SPECIAL_20>"


@pytest.mark.parametrize(
    ("head", "message"),
    [
        # pieces with a 1-byte length and no trainer spec: protobuf's default model type, Unigram
        (
            b"\x0a\x0c\x0a\x05<unk>\x15\x00\x00\x00\x00\x18\x02",
            r"this is a SentencePiece Unigram .*byte-level BPE.*SentencePiece BPE",
        ),
        # 2-byte length, then zeros: not a readable protobuf
        (
            b"\x0a\x81\x01\x0a\x03<s>\x15\x00\x00\x00\x00\x18\x03" + b"\x00" * 120,
            r"SentencePiece .model file but cannot be read .*damaged",
        ),
    ],
)
def test_sentencepiece_models_that_are_not_bpe_are_refused_by_name(tmp_path, head, message):
    """(BPE models open: see test_sentencepiece.py.)"""
    path = tmp_path / "tokenizer.model"
    path.write_bytes(head)
    with pytest.raises(FormatError, match=message):
        load_any(path)


def test_empty_and_non_regular_files(tmp_path):
    (tmp_path / "empty.json").write_bytes(b"")
    with pytest.raises(FormatError, match="empty"):
        load_any(tmp_path / "empty.json")
    (tmp_path / "list.json").write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(FormatError, match="no known tokenizer kind"):
        load_any(tmp_path / "list.json")


def test_a_truncated_merges_file_does_not_belong_to_its_vocab(tmp_path):
    """A GPT-2 vocab with half its merges.txt once loaded with every unmade token as a "special token"."""
    words = [bytes([c]) * 2 for c in range(97, 123)] + [
        bytes([c, d]) for c in range(97, 110) for d in range(65, 90)
    ]
    merges = [(w[:1], w[1:]) for w in words]
    save_gpt2(TokenizerSpec.from_merges(merges, ["<|endoftext|>"]), tmp_path)
    lines = (tmp_path / "merges.txt").read_text(encoding="utf-8").split("\n")
    (tmp_path / "merges.txt").write_text("\n".join(lines[: len(lines) // 2]), encoding="utf-8")
    with pytest.raises(FormatError, match=r"made by no merge.*do not belong together"):
        load_any(tmp_path / "vocab.json")


def test_added_tokens_that_look_like_markup_may_lack_a_merge(tmp_path):
    spec = TokenizerSpec.from_merges(MERGES, ["<|endoftext|>"])
    vocab = dict(spec.vocab)
    vocab[max(vocab) + 1] = b"[PAD]"
    save_gpt2(TokenizerSpec(vocab, spec.merges, ("<|endoftext|>", "[PAD]")), tmp_path)
    assert load_any(tmp_path / "vocab.json").special_tokens == ("<|endoftext|>", "[PAD]")


def test_special_token_names_for_a_known_tiktoken_file_take_its_own_ids(tmp_path, monkeypatch):
    _, path = _tiktoken_file(tmp_path)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    specials = {"<|endoftext|>": 300, "<|endofprompt|>": 310}
    monkeypatch.setitem(
        known_mod.KNOWN_BY_HASH,
        digest,
        known_mod.KnownEncoding("toy", r"\p{L}+|\s+|[^\s\p{L}]+", specials, "a toy encoding"),
    )
    assert load_any(path, special_tokens=["<|endofprompt|>"]).special_ids == {"<|endofprompt|>": 310}
    with pytest.raises(FormatError, match=re.escape("has no special token '<|nope|>'")):
        load_any(path, special_tokens=["<|nope|>"])


def test_a_stale_bpe_json_does_not_win_over_newer_files_in_its_folder(tmp_path):
    import os

    from core.formats import export_all

    old = TokenizerSpec.from_merges(MERGES[:2], ["<|endoftext|>"])
    new = TokenizerSpec.from_merges(MERGES, ["<|endoftext|>"])
    export_all(tmp_path, old)
    (tmp_path / "bpe.json").touch()
    assert load_any(tmp_path).merges == old.merges
    save_gpt2(new, tmp_path)  # a later export of one format only
    t = (tmp_path / "bpe.json").stat().st_mtime
    os.utime(tmp_path / "vocab.json", (t + 60, t + 60))
    with pytest.raises(FormatError, match=re.escape("vocab.json, merges.txt are newer than bpe.json")):
        load_any(tmp_path)
    assert load_any(tmp_path / "vocab.json").merges == new.merges


def test_special_tokens_or_pattern_given_for_a_file_that_stores_them_must_agree(tmp_path):
    from core.formats import save_native

    path = save_native(TokenizerSpec.from_merges(MERGES, ["<|endoftext|>"]), tmp_path / "bpe.json")
    assert load_any(path, special_tokens=["<|endoftext|>"], pattern="gpt2").merges == tuple(MERGES)
    with pytest.raises(FormatError, match="stores its own special tokens"):
        load_any(path, special_tokens=["<|other|>"])
    with pytest.raises(FormatError, match="stores its own pattern"):
        load_any(path, pattern="gpt4")


@pytest.mark.parametrize(("where", "message"), [("vocab_id", r"2\^31-1"), ("pattern", r"must be a string")])
def test_bpe_json_with_ids_too_large_or_a_pattern_of_the_wrong_type(tmp_path, where, message):
    from core.formats import save_native

    path = save_native(TokenizerSpec.from_merges(MERGES, []), tmp_path / "bpe.json")
    data = json.loads(path.read_text())
    if where == "vocab_id":
        data["vocab"][0][0] = 1 << 32
    else:
        data["pattern"] = ["gpt2"]
    path.write_text(json.dumps(data))
    with pytest.raises(FormatError, match=message) as e:
        load_any(path)
    assert "bpe.json" in str(e.value)


def test_cli_encode_takes_special_token_ids_for_a_tiktoken_file(tmp_path, capsys):
    from core.cli import main

    _, path = _tiktoken_file(tmp_path)
    text = tmp_path / "t.txt"
    text.write_text("model<|endoftext|>the", encoding="utf-8")
    out = tmp_path / "ids.npy"
    assert (
        main(
            [
                "encode",
                "--tokenizer",
                str(path),
                "--special-token",
                "<|endoftext|>=999",
                str(text),
                "--out",
                str(out),
                "-q",
            ]
        )
        == 0
    )
    import numpy as np

    ids = np.load(out).tolist()
    assert 999 in ids and ids.index(999) == len(Tokenizer.from_spec(load_any(path)).encode("model"))
    assert "not a known encoding" in capsys.readouterr().err
    assert (
        main(
            [
                "encode",
                "--tokenizer",
                str(path),
                "--special-token",
                "<|endoftext|>=999",
                "--special-token",
                "<x>",
                str(text),
                "--out",
                str(out),
                "-q",
            ]
        )
        == 2
    )
    assert "TOKEN=ID" in capsys.readouterr().err


def test_cli_checks_out_before_the_run(tmp_path, capsys):
    from core.cli import main

    corpus = tmp_path / "c.txt"
    corpus.write_text("ab ab", encoding="utf-8")
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    assert main(["train", str(corpus), "--vocab-size", "260", "--out", str(tmp_path / "afile"), "-q"]) == 2
    assert "is a file" in capsys.readouterr().err
    _, path = _tiktoken_file(tmp_path)
    assert main(["encode", "--tokenizer", str(path), str(corpus), "--out", str(tmp_path), "-q"]) == 2
    assert "is a folder" in capsys.readouterr().err


def test_tiktoken_file_with_an_empty_placeholder_token(tmp_path) -> None:
    """Whisper's multilingual.tiktoken gives its last rank an empty token (the line ``= 50256``):
    tiktoken reads it, and so do we (the rank left out, with a note); ids equal tiktoken's."""
    from tiktoken.load import load_tiktoken_bpe

    ranks = [bytes([b]) for b in range(256)] + [b"ab", b" c", b"abab"]
    lines = [f"{base64.b64encode(t).decode()} {i}" for i, t in enumerate(ranks)] + [f"= {len(ranks)}"]
    path = tmp_path / "multilingual.tiktoken"
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
    eot = len(ranks) + 1
    spec = load_any(path, pattern="gpt2", special_tokens={"<|endoftext|>": eot})
    assert spec.notes == (
        f"the file gives rank {len(ranks)} an empty token (a placeholder, as in Whisper's "
        "multilingual.tiktoken): left out; no text encodes to it",
    )
    ours = Tokenizer.from_spec(spec)
    ref = tiktoken.Encoding(
        name="w",
        pat_str=spec.pattern_regex,
        mergeable_ranks=load_tiktoken_bpe(str(path)),
        special_tokens={"<|endoftext|>": eot},
    )
    for text in ("abab c ab", "x<|endoftext|>abab", "", "ééé 12"):
        assert ours.encode(text) == ref.encode(text, allowed_special="all")
        assert ours.decode(ours.encode(text)) == text


def test_the_documented_tiktoken_recipe_gives_mistral_commons_ids_for_tekken(tmp_path):
    """docs/formats.md's recipe on the tiktoken export of a tekken file: mistral-common reads the text
    of control tokens (<s>, [INST]) as plain text; ``allowed_special="all"`` gave their ids instead."""
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer
    from tiktoken.load import load_tiktoken_bpe

    from core.formats import export_all
    from core.formats.losses import reading_notes

    _, path, _ = _tekken(tmp_path, specials=["<unk>", "<s>", "</s>", "[INST]", "[/INST]"])
    theirs = Tekkenizer.from_file(str(path))
    written = export_all(tmp_path / "out", load_any(path), ["tiktoken", "native"])
    spec = load_any(tmp_path / "out" / "bpe.json")  # (the recipe, as docs/formats.md gives it)
    enc = tiktoken.Encoding(
        name="mine",
        pat_str=spec.pattern_regex,
        mergeable_ranks=load_tiktoken_bpe(str(written["tiktoken"][0])),
        special_tokens=spec.special_ids,
    )
    texts = [*TEXTS, "[INST] the cat [/INST]", "<s>model</s>", "a<unk>b", "<SPECIAL_4>"]
    for t in texts:
        want = theirs.encode(t, bos=False, eos=False)
        assert enc.encode(t, allowed_special=spec.specials_in_text, disallowed_special=()) == want, t
        assert Tokenizer.from_spec(spec).encode(t) == want, t
    assert spec.specials_in_text == frozenset()
    assert enc.decode([3]) == "[INST]"  # (the special ids stay known to decode)
    notes = reading_notes(spec, "tiktoken", written["tiktoken"])
    assert any("allowed_special=set(), disallowed_special=()" in n for n in notes), notes


def test_a_tiktoken_export_read_with_its_bpe_json_keeps_which_special_tokens_text_holds(tmp_path):
    """The tiktoken file of a tekken export, opened again (the app and load_any take its pattern and
    special tokens from the bpe.json beside it): control tokens' text ([INST], <s>) was found in text
    as their ids, where mistral-common and the export's own recipe read it as plain text; and an added
    token that is not special came back special. Neither holds now; the normalizer, which the
    tiktoken file cannot hold, stays out."""
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer

    from core.formats import export_all

    _, path, _ = _tekken(tmp_path, specials=["<unk>", "<s>", "</s>", "[INST]", "[/INST]"])
    theirs = Tekkenizer.from_file(str(path))
    export_all(tmp_path / "out", load_any(path), ["tiktoken", "native"])
    again = load_any(tmp_path / "out" / "bpe.tiktoken")
    assert any("bpe.json beside it" in n for n in again.notes)
    assert again.specials_in_text == frozenset()
    tok = Tokenizer.from_spec(again)
    for t in [*TEXTS, "[INST] the cat [/INST]", "<s>model</s>", "a<unk>b"]:
        assert tok.encode(t) == theirs.encode(t, bos=False, eos=False), t

    # a tokenizer.json with NFC and an added token marked "special": false (as OLMo 1's)
    hf = {
        "version": "1.0",
        "added_tokens": [
            {
                "id": 0,
                "content": "|||IP|||",
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": True,
                "special": False,
            },
            {
                "id": 300,
                "content": "<|endoftext|>",
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "special": True,
            },
        ],
        "normalizer": {"type": "NFC"},
        "pre_tokenizer": {
            "type": "ByteLevel",
            "add_prefix_space": False,
            "trim_offsets": True,
            "use_regex": True,
        },
        "post_processor": None,
        "decoder": {"type": "ByteLevel"},
        "model": {"type": "BPE", "vocab": {}, "merges": []},
    }
    from core.bpe.byte_level import token_to_str

    vocab = {token_to_str(bytes([i])): i + 1 for i in range(256)}
    vocab["|||IP|||"], vocab["<|endoftext|>"] = 0, 300
    merges = [("a", "b"), ("ab", "c")]
    for n, (a, b) in enumerate(merges):
        vocab[a + b] = 257 + n
    hf["model"]["vocab"], hf["model"]["merges"] = vocab, [f"{a} {b}" for a, b in merges]
    (tmp_path / "hf").mkdir()
    (tmp_path / "hf" / "tokenizer.json").write_text(json.dumps(hf), encoding="utf-8")
    original = load_any(tmp_path / "hf" / "tokenizer.json")
    export_all(tmp_path / "out2", original, ["tiktoken", "native"], lossy=True)
    again = load_any(tmp_path / "out2" / "bpe.tiktoken")
    assert again.added_not_special == original.added_not_special == frozenset({"|||IP|||"})
    assert again.specials_in_text == original.specials_in_text
    tok, orig = Tokenizer.from_spec(again), Tokenizer.from_spec(original)
    for t in ["abc |||IP||| x<|endoftext|>abcab", "café"]:  # (NFC text: the same ids)
        assert tok.encode(t) == orig.encode(t), t
    nfd = "cafe\u0301"  # the tiktoken file has no normalizer: NFD text is not composed
    assert tok.decode(tok.encode(nfd)) == nfd and orig.decode(orig.encode(nfd)) == "café"
