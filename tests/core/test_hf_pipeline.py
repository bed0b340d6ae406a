"""HF tokenizer.json pipelines: our ids equal HF ``tokenizers``' on synthetic files built with it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tokenizers import AddedToken, Regex, decoders, normalizers, pre_tokenizers, processors
from tokenizers import Tokenizer as HF
from tokenizers.models import BPE, Unigram, WordLevel, WordPiece
from tokenizers.trainers import BpeTrainer

from core import Tokenizer
from core.errors import FormatError, SpecialTokenError, TokenizerError
from core.formats import load_any, load_hf

CORPUS = [
    "The quick brown fox jumps over the lazy dog. Café résumé naïve été 1234567 (room #42)",
    "def main(argv):\n    return argv[0] if argv else None  # 3.14159\n",
    "我们今天去公园散步，天气很好。北京大学 東京 🙃👍🏽 ÀÉÎÕÜ Ελληνικά русский",
    "hello hello hello world world the the the and and of of 2024-05-17 1,000,000",
] * 20
TEXTS = [
    "",
    " ",
    "Hello world!",
    "(room #42) 1234567",
    "Cafe\u0301 re\u0301sume\u0301 \u00e9t\u00e9 \ufb01 \u2460",
    "  lead and trail  \n\n ",
    "我们今天去公园 🙃👍🏽 x",
    "def f(x):\n\treturn x**2\r\n",
    "THE Quick BROWN",
    "<s>hi</s> <s> a <mask> b  <mask>  c<mask>d [X] x[X]y ",
    "A\u00a0B\u2003C\u3000D",
    "x" * 120 + " ab" * 40,
    "ΟΔΟΣ ΣΑΣ. Σ",  # HF lowercases each character on its own: no word-final "ς"
]
QWEN_LIKE = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)


def trained(**model_kw) -> HF:
    """A small byte-level BPE trained with HF's own trainer."""
    tok = HF(BPE(**model_kw))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(
        CORPUS,
        BpeTrainer(vocab_size=600, show_progress=False, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()),
    )
    return tok


def ours_of(hf: HF, tmp_path: Path, name: str = "tokenizer.json") -> Tokenizer:
    path = tmp_path / name
    hf.save(str(path))
    return Tokenizer.from_spec(load_hf(path))


def assert_same(hf: HF, ours: Tokenizer, texts=TEXTS, round_trip: bool = True) -> None:
    for t in texts:
        for add in (True, False):
            assert ours.encode(t, add_special_tokens=add) == hf.encode(t, add_special_tokens=add).ids, (
                t,
                add,
            )
        ids = hf.encode(t, add_special_tokens=False).ids
        if round_trip and hf.decode(ids, skip_special_tokens=False) == t:
            assert ours.decode(ours.encode(t, add_special_tokens=False)) == t


@pytest.fixture(scope="module")
def base() -> HF:
    return trained()


def configured(base: HF, **parts) -> HF:
    hf = HF.from_str(base.to_str())
    for k, v in parts.items():
        setattr(hf, k, v)
    return hf


NORMALIZERS = {
    "nfc": normalizers.NFC(),
    "nfd": normalizers.NFD(),
    "nfkc": normalizers.NFKC(),
    "nfkd_lower": normalizers.Sequence([normalizers.NFKD(), normalizers.Lowercase()]),
    "replace_prepend_strip": normalizers.Sequence(
        [
            normalizers.Strip(),
            normalizers.Replace("  ", " "),
            normalizers.Replace(Regex(r"\d+"), "#"),
            normalizers.Prepend("\u2581"),
        ]
    ),
    "empty": normalizers.Sequence([]),
}


@pytest.mark.parametrize("name", sorted(NORMALIZERS))
def test_normalizers(base: HF, tmp_path: Path, name: str) -> None:
    hf = configured(base, normalizer=NORMALIZERS[name])
    assert_same(hf, ours_of(hf, tmp_path))


PRE = {
    "qwen_split": pre_tokenizers.Sequence(
        [pre_tokenizers.Split(Regex(QWEN_LIKE), "isolated"), pre_tokenizers.ByteLevel(False, use_regex=False)]
    ),
    "deepseek_like": pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(r"\p{N}{1,3}"), "isolated"),
            pre_tokenizers.Split(Regex(r"[一-龥\u3040-ゟ゠-ヿ]+"), "isolated"),
            pre_tokenizers.Split(Regex(r"[a-zA-Z]+| ?[^\s\p{L}\p{N}]+"), "isolated"),
            pre_tokenizers.ByteLevel(False, use_regex=False),
        ]
    ),
    "digits_prefix": pre_tokenizers.Sequence(
        [pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.ByteLevel(add_prefix_space=True)]
    ),
    "digits_contiguous": pre_tokenizers.Sequence(
        [pre_tokenizers.Digits(individual_digits=False), pre_tokenizers.ByteLevel(False)]
    ),
    "punctuation": pre_tokenizers.Sequence([pre_tokenizers.Punctuation(), pre_tokenizers.ByteLevel(False)]),
    "whitespace_split": pre_tokenizers.Sequence(
        [pre_tokenizers.WhitespaceSplit(), pre_tokenizers.ByteLevel(False)]
    ),
    "whitespace": pre_tokenizers.Sequence([pre_tokenizers.Whitespace(), pre_tokenizers.ByteLevel(False)]),
    "after_bytelevel": pre_tokenizers.Sequence(
        [pre_tokenizers.ByteLevel(False), pre_tokenizers.Split("Ġ", "merged_with_next")]
    ),
}
for _b in ("isolated", "removed", "merged_with_previous", "merged_with_next", "contiguous"):
    for _inv in (False, True):
        PRE[f"split_{_b}_{_inv}"] = pre_tokenizers.Sequence(
            [pre_tokenizers.Split(Regex(r"\s+|\d"), _b, invert=_inv), pre_tokenizers.ByteLevel(False)]
        )
    PRE[f"split_string_{_b}"] = pre_tokenizers.Sequence(
        [pre_tokenizers.Split(" ", _b), pre_tokenizers.ByteLevel(False, use_regex=False)]
    )


@pytest.mark.parametrize("name", sorted(PRE))
def test_pre_tokenizers(base: HF, tmp_path: Path, name: str) -> None:
    hf = configured(base, pre_tokenizer=PRE[name])
    lossless = not any(k in name for k in ("removed", "whitespace", "prefix"))
    assert_same(hf, ours_of(hf, tmp_path), round_trip=lossless)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=40))
def test_any_text_qwen_style(qwen_pair, text: str) -> None:
    hf, ours = qwen_pair
    assert ours.encode(text) == hf.encode(text).ids
    assert ours.decode(ours.encode(text)) == __import__("unicodedata").normalize("NFC", text)


@pytest.fixture(scope="module")
def qwen_pair(base: HF, tmp_path_factory) -> tuple[HF, Tokenizer]:
    hf = configured(base, normalizer=normalizers.NFC(), pre_tokenizer=PRE["deepseek_like"])
    hf.add_special_tokens(["<|endoftext|>", "<|im_start|>"])
    return hf, ours_of(hf, tmp_path_factory.mktemp("q"))


def test_no_text_is_lost_deepseek_style(qwen_pair) -> None:
    hf, ours = qwen_pair
    ids = ours.encode("(room #42) 1234567")
    assert ids == hf.encode("(room #42) 1234567").ids
    assert ours.decode(ids) == "(room #42) 1234567"


def post_processor(name: str, x: int, bos: int, eos: int):
    if name == "template":
        return processors.TemplateProcessing(
            single="[X] <s> $A </s>", special_tokens=[("[X]", x), ("<s>", bos), ("</s>", eos)]
        )
    if name == "roberta":
        return processors.RobertaProcessing(("</s>", eos), ("<s>", bos))
    if name == "bert":
        return processors.BertProcessing(("</s>", eos), ("<s>", bos))
    if name == "bytelevel":
        return processors.ByteLevel(trim_offsets=True)
    return processors.Sequence(
        [
            processors.ByteLevel(trim_offsets=False),
            processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", eos)]),
        ]
    )


POST = ["template", "roberta", "bert", "bytelevel", "sequence"]


@pytest.mark.parametrize("name", sorted(POST))
def test_post_processors(base: HF, tmp_path: Path, name: str) -> None:
    hf = configured(base)
    hf.add_special_tokens(["[X]", "<s>", "</s>"])
    hf.post_processor = post_processor(name, *map(hf.token_to_id, ["[X]", "<s>", "</s>"]))
    ours = ours_of(hf, tmp_path)
    assert_same(hf, ours)
    before, after = ours.post_processor_ids
    assert list(before) + ours.encode("ab", add_special_tokens=False) + list(after) == hf.encode("ab").ids
    if before or after:
        want = {"template": "[X] <s> before and </s> after", "sequence": "</s> after"}.get(
            name, "<s> before and </s> after"
        )
        assert ours.notes[-1].startswith(f"the post-processor adds {want} the text")
        assert [s.id for s in ours.trace("ab c")] == ours.encode("ab c", add_special_tokens=False)


@pytest.fixture(scope="module")
def flags_pair(base: HF, tmp_path_factory) -> tuple[HF, Tokenizer]:
    hf = configured(base, normalizer=normalizers.Lowercase())
    hf.add_special_tokens([AddedToken("<mask>", lstrip=True, rstrip=True), "<s>", "</s>"])
    hf.add_tokens(
        [
            AddedToken("[X]", single_word=True, normalized=False),
            AddedToken("BROWN", normalized=True),
            AddedToken("hi", normalized=False),
            AddedToken("<m", rstrip=True, normalized=False),
        ]
    )
    return hf, ours_of(hf, tmp_path_factory.mktemp("flags"))


def test_added_token_flags(flags_pair) -> None:
    hf, ours = flags_pair
    assert_same(hf, ours, round_trip=False)


@given(
    st.lists(
        st.sampled_from(
            [
                "<mask>",
                "<m",
                " ",
                "  ",
                "\n",
                "[X]",
                "x",
                "_",
                "BROWN",
                "brown",
                "hi",
                "é",
                "1",
                "<s>",
                "</s>",
                "\t",
            ]
        ),
        max_size=12,
    ).map("".join)
)
def test_added_token_flags_any_mix(flags_pair, text: str) -> None:
    hf, ours = flags_pair
    assert ours.encode(text) == hf.encode(text).ids


def test_ignore_merges_both_ways(tmp_path: Path) -> None:
    byte_chars = pre_tokenizers.ByteLevel.alphabet()
    vocab = {c: i for i, c in enumerate(sorted(byte_chars))}
    vocab.update({"ab": 256, "abc": 257})  # "abc" is in the vocab, but no merge makes it
    for flag in (False, True):
        hf = HF(BPE(vocab=dict(vocab), merges=[("a", "b")], ignore_merges=flag))
        hf.pre_tokenizer = pre_tokenizers.ByteLevel(False)
        ours = ours_of(hf, tmp_path, f"t{flag}.json")
        assert ours.encode("abc") == hf.encode("abc").ids == ([257] if flag else [256, vocab["c"]])


def test_vocab_without_non_utf8_bytes(base: HF, tmp_path: Path) -> None:
    data = json.loads(base.to_str())
    from core.bpe.byte_level import BYTE_TO_CHAR

    for b in (0xC0, 0xC1, *range(0xF5, 0x100)):
        del data["model"]["vocab"][BYTE_TO_CHAR[b]]
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    hf = HF.from_file(str(path))
    ours = Tokenizer.from_spec(load_hf(path))
    assert_same(hf, ours)
    with pytest.raises(TokenizerError, match=r"byte 0xff .*at 2"):
        ours.encode("ab\udcff")  # only text carrying such a byte (surrogateescape) needs it
    del data["model"]["vocab"]["a"]
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError, match="0x61"):
        load_hf(path)


def test_truncation_and_padding_are_reported(base: HF, tmp_path: Path) -> None:
    hf = configured(base)
    hf.enable_truncation(8)
    hf.enable_padding(length=16)
    ours = ours_of(hf, tmp_path)
    assert [n.split(" (")[0] for n in ours.notes] == ["the file sets truncation", "the file sets padding"]
    assert len(ours.encode("the quick brown fox jumps over the lazy dog again")) > 8  # not applied


def test_an_export_does_not_carry_the_files_truncation(base: HF, tmp_path: Path) -> None:
    """A GPT-2 tokenizer.json saved with truncation to 50 tokens (as some are): the exported
    tokenizer.json gives HF's encode every token of a 200-token text, and the export says what it left
    out and how to set it again."""
    from core.formats import export_all
    from core.formats.losses import reading_notes

    hf = HF.from_str(base.to_str())
    hf.enable_truncation(50)
    hf.enable_padding(length=64)
    src = tmp_path / "src" / "tokenizer.json"
    src.parent.mkdir()
    hf.save(str(src))
    text = " ".join(f"w{i % 10}x{i}" for i in range(80))
    full = HF.from_file(str(src))
    full.no_truncation()
    full.no_padding()
    want = full.encode(text, add_special_tokens=False).ids
    assert len(want) >= 200 and len(hf.encode(text).ids) == 64  # (cut to 50, padded to 64)
    spec = load_any(src)
    assert any("leaves it out of its tokenizer.json exports" in n for n in Tokenizer.from_spec(spec).notes)
    written = export_all(tmp_path / "out", spec, ["hf", "native"])
    out = HF.from_file(str(written["hf"][0]))
    assert out.truncation is None and out.padding is None
    assert out.encode(text, add_special_tokens=False).ids == want
    notes = reading_notes(spec, "hf", written["hf"])
    assert any("enable_truncation(max_length=50)" in n for n in notes) and any("pads" in n for n in notes)
    # (the native file keeps the original as it was: reopened, it still says so and exports the same)
    again = load_any(written["native"][0])
    assert HF.from_file(str(export_all(tmp_path / "again", again, ["hf"])["hf"][0])).truncation is None


@pytest.mark.parametrize("kind", ["Unigram", "WordPiece", "WordLevel", "char-level"])
def test_other_kinds_are_refused(tmp_path: Path, kind: str) -> None:
    """(SentencePiece-style BPE, with byte_fallback or a Metaspace pre-tokenizer, opens: see
    test_sentencepiece.py; a char-level BPE with neither is still refused.)"""
    if kind == "Unigram":
        hf = HF(Unigram([("<unk>", 0.0), ("a", -1.0)], 0))
    elif kind == "WordPiece":
        hf = HF(WordPiece({"[UNK]": 0, "a": 1}, unk_token="[UNK]"))
    elif kind == "WordLevel":
        hf = HF(WordLevel({"[UNK]": 0, "a": 1}, unk_token="[UNK]"))
    else:
        hf = HF(BPE({"<unk>": 0, "a": 1, "b": 2}, [], unk_token="<unk>"))
        hf.pre_tokenizer = pre_tokenizers.Whitespace()
    path = tmp_path / "tokenizer.json"
    hf.save(str(path))
    name = {"char-level": r"char-level BPE tokenizer \(no ByteLevel"}.get(kind, kind)
    with pytest.raises(FormatError, match=rf"this is a .*{name}.*BPE Explorer opens byte-level BPE"):
        load_any(path)


def test_our_own_patterns_never_drop_text() -> None:
    from core.formats.spec import TokenizerSpec

    for pat in (r"[a-z]+", r"x*", r"\d"):
        tok = Tokenizer.from_spec(TokenizerSpec.from_merges([(b"a", b"b")], pattern=pat))
        for t in ("ab, cd! 12", "xxayxx", "(room #42) 1234567"):
            assert tok.decode(tok.encode(t)) == t
        assert [w for w, _ in tok.pretokenize("ab, cd!")] == (
            ["ab", ", ", "cd", "!"] if pat == "[a-z]+" else ["ab, cd!"]
        )


def test_decode_refuses_non_integer_ids_and_surrogate_specials() -> None:
    from core.formats.spec import TokenizerSpec

    tok = Tokenizer.from_spec(TokenizerSpec.from_merges([]))
    for bad in ([1.0], [True], [97, 2.0]):
        with pytest.raises(TokenizerError, match="not an int"):
            tok.decode(bad)
    assert tok.decode([97]) == "a"
    with pytest.raises(
        SpecialTokenError, match="lone surrogate"
    ):  # (checked with the other special-token rules)
        Tokenizer({i: bytes([i]) for i in range(256)}, [], ["<\ud800>"])


@given(
    st.lists(st.text("ab<|>é", min_size=1, max_size=5), min_size=1, max_size=8, unique=True),
    st.text("ab<|>é x", max_size=30),
)
def test_special_token_trie_matches_like_a_longest_first_alternation(tokens: list[str], text: str) -> None:
    import regex

    from core.bpe.support import compile_alternation

    flat = regex.compile("|".join(map(regex.escape, sorted(tokens, key=len, reverse=True))))
    trie = compile_alternation(tokens)
    assert [m.span() for m in trie.finditer(text)] == [m.span() for m in flat.finditer(text)]


ASCII_PATTERNS = [
    QWEN_LIKE,
    r"\p{N}{1,3}",
    r"[a-zA-Z]+| ?[^\s\p{L}\p{N}]+",
    r"\w+|[^\w\s]+",
    r"\s+(?!\S)|\S",
    r"[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t)?|\P{L}",
]


@given(st.sampled_from(ASCII_PATTERNS), st.text(st.characters(max_codepoint=127), max_size=40))
def test_ascii_twin_splits_ascii_text_like_the_pattern(pattern: str, text: str) -> None:
    import regex

    from core.pretokenization.ascii_pattern import ascii_twin

    twin = ascii_twin(pattern)
    assert twin is not None
    assert twin.findall(text) == regex.findall(pattern, text)


def test_many_special_tokens(tmp_path: Path) -> None:
    specials = [f"<|special_{i}|>" for i in range(3000)]
    tok = Tokenizer({i: bytes([i]) for i in range(256)}, [], specials)
    ids = tok.encode("a<|special_2999|><|special_29|>9|>")
    assert ids == [97, tok.special_ids["<|special_2999|>"], tok.special_ids["<|special_29|>"], 57, 124, 62]


def test_exported_tokenizer_json_keeps_the_imported_pipeline(qwen_pair, tmp_path: Path) -> None:
    from core.formats import save_hf

    hf, _ours = qwen_pair
    hf2 = HF.from_str(hf.to_str())
    hf2.post_processor = processors.TemplateProcessing(
        single="<|im_start|> $A", special_tokens=[("<|im_start|>", hf2.token_to_id("<|im_start|>"))]
    )
    ours2 = ours_of(hf2, tmp_path, "in.json")
    out = save_hf(ours2, tmp_path / "out.json")
    again = HF.from_file(str(out))
    back = Tokenizer.from_spec(load_hf(out))
    for t in TEXTS:
        want = hf2.encode(t).ids
        assert again.encode(t).ids == want and back.encode(t) == want, t


def test_encode_iterable_with_a_pipeline(qwen_pair) -> None:
    hf, ours = qwen_pair
    text = "".join(TEXTS) * 3
    pieces = [text[i : i + 7] for i in range(0, len(text), 7)]
    assert list(ours.encode_iterable(pieces)) == hf.encode(text, add_special_tokens=False).ids


def test_pipeline_without_byte_level_is_refused(base: HF, tmp_path: Path) -> None:
    hf = configured(base, pre_tokenizer=pre_tokenizers.Digits(), normalizer=normalizers.NFC())
    path = tmp_path / "tokenizer.json"
    hf.save(str(path))
    with pytest.raises(FormatError, match=r"no ByteLevel step.*BPE Explorer opens byte-level BPE"):
        load_hf(path)


@pytest.mark.parametrize(
    "key, value",
    [
        ("normalizer", {"type": "Sequence", "normalizers": 5}),
        ("normalizer", {"type": "Prepend", "prepend": 3}),
        ("normalizer", {"type": "Replace", "pattern": {"Regex": "("}, "content": ""}),
        ("pre_tokenizer", {"type": "Split", "pattern": {"Regex": "a"}, "behavior": "sideways"}),
        ("pre_tokenizer", {"type": "Sequence", "pretokenizers": [{"type": "ByteLevel"}, None]}),
        (
            "post_processor",
            {
                "type": "TemplateProcessing",
                "single": [{"SpecialToken": {"id": "x"}}],
                "special_tokens": {"x": {"ids": ["a"]}},
            },
        ),
        ("post_processor", {"type": "RobertaProcessing", "cls": 5}),
        ("added_tokens", 1.5),
    ],
)
def test_malformed_pipeline_parts_are_format_errors(base: HF, tmp_path: Path, key: str, value) -> None:
    data = json.loads(base.to_str())
    data[key] = value
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError, match=re.escape("tokenizer.json: ")):
        load_hf(path)


def test_a_repeated_merge_ranks_where_hf_ranks_it(tmp_path: Path) -> None:
    alphabet = sorted(pre_tokenizers.ByteLevel.alphabet())
    vocab = {c: i for i, c in enumerate(alphabet)} | {"ab": 256, "bc": 257, "abc": 258}
    hf = HF(BPE(vocab=vocab, merges=[("a", "b"), ("b", "c"), ("ab", "c")]))
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(False)
    data = json.loads(hf.to_str())
    data["model"]["merges"] = [["b", "c"], ["a", "b"], ["ab", "c"], ["b", "c"]]
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    hf = HF.from_file(str(path))
    ours = Tokenizer.from_spec(load_hf(path))
    for t in ("abc", "bcab", "abcbc"):
        assert ours.encode(t) == hf.encode(t).ids


@pytest.mark.parametrize("special", [True, False])
def test_added_token_that_is_a_model_token_takes_the_model_id(tmp_path: Path, special: bool) -> None:
    alphabet = sorted(pre_tokenizers.ByteLevel.alphabet())
    hf = HF(BPE(vocab={c: i for i, c in enumerate(alphabet)} | {"ab": 256}, merges=[("a", "b")]))
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(False)
    data = json.loads(hf.to_str())
    data["added_tokens"] = [
        {
            "id": 300,
            "content": "ab",
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": False,
            "special": special,
        }
    ]
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    hf = HF.from_file(str(path))
    assert (
        Tokenizer.from_spec(load_hf(path)).encode("xab ab") == hf.encode("xab ab").ids == [87, 256, 220, 256]
    )


# marks and compatibility characters old and new (HF's normalization tables predate Unicode 10), Hangul
# jamo, letters that compose, a private-use character like the stand-ins
_NORM_ALPHABET = (
    "a",
    "e",
    "\r",
    "\u0301",
    "\u0316",
    "\u0334",
    "\u302e",
    "\U0001e2ef",
    "\u07fd",
    "\u0898",
    "\u1df6",
    "\u32ff",
    "\ua7f2",
    "\U00011938",
    "\u1100",
    "\u1161",
    "\u11a8",
    "\uff76",
    "\uff9e",
    "\U000f0000",
    "\u00e9",
    "\ufb01",
)


@given(st.lists(st.sampled_from(_NORM_ALPHABET), max_size=10).map("".join))
def test_unicode_normalizers_use_hf_tables(text: str) -> None:
    from core.pipeline.hf import _normalizer

    for form in ("NFC", "NFD", "NFKC", "NFKD"):
        ours = _normalizer({"type": form})
        assert ours is not None
        assert ours(text) == getattr(normalizers, form)().normalize_str(text), (form, text)
