"""SentencePiece BPE: ``.model`` files give ``sentencepiece``'s ids and decoded text, char-level BPE
``tokenizer.json`` files give HF ``tokenizers``' ids, and an opened model exports as a tokenizer.json
HF reads with the same ids. The real models are the ones mistral-common ships (Mistral 7B v0.1 to
v0.3 and the 2024-11 instruct tokenizer); the small ones are trained here with ``sentencepiece``."""

from __future__ import annotations

import io
import json
import re
from importlib import resources
from pathlib import Path

import pytest
import sentencepiece as spm
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer as HF
from tokenizers import decoders, models, normalizers, pre_tokenizers

from core import Tokenizer
from core.errors import FormatError
from core.formats import export_all, export_losses, load_any, save

MISTRAL_DATA = resources.files("mistral_common") / "data"
MODELS = sorted(p.name for p in MISTRAL_DATA.iterdir() if ".model." in p.name)

CURATED = [
    "Hello world",
    "Hello, world! How are you?",
    " leading space",
    "  two leading spaces",
    "trailing space ",
    "a  b   c    d     e",
    "line one\nline two\n\nline four",
    "\ttab\tseparated\t",
    "\r\n windows line",
    "1234567890 3.14159 2024-11-14",
    "中文文本测试，你好世界。",
    "日本語のテキスト、カタカナ",
    "emoji 🤖🎉👍🏽 and 👨‍👩‍👧",
    "outside the vocab: \u0378 \U000e0001 \U0010fffd ǅ",
    "<s> [INST] hi [/INST] </s> <unk>",
    "[REF] doc [/REF] x[REFERENCE_DOC_3]y [TOOL_CALLS]",
    "▁already a metaspace ▁▁",
    "ſ ﬁ Ⅻ ｆｕｌｌ ｗｉｄｔｈ",
    "def f(x):\n    return x ** 2  # comment",
    "",
    " ",
    "\n",
    "   ",
    "x",
]

# texts made of the characters that matter: spaces, ▁, newlines, tabs, digits, CJK, emoji, marks,
# characters no model knows, and the pieces of special and user-defined tokens
_ALPHABET = st.sampled_from(
    [
        *" \n\t\r▁aAbzZé0123456789中文字の🤖👍\u0301\u0378\U000e0001<>[]/_s",
        *("[REF]", "<s>", "[INST]", "  "),
        # what NFKC changes: full width, ligatures, circled digits, half-width kana, odd spaces, Kelvin
        *"ＡＢｱﬁ①\u00a0\u3000\u212a\u2126ǅ\u200b\ufeff",
        *("ＡＢ", "e\u0301"),
    ]
)
TEXTS = st.lists(_ALPHABET | st.characters(codec="utf-8"), max_size=40).map("".join)


def _model_path(name: str) -> Path:
    return Path(str(MISTRAL_DATA / name))


_LOADED: dict[str, tuple[Tokenizer, spm.SentencePieceProcessor]] = {}


def mistral(name: str) -> tuple[Tokenizer, spm.SentencePieceProcessor]:
    if name not in _LOADED:
        path = _model_path(name)
        _LOADED[name] = (
            Tokenizer.from_spec(load_any(path)),
            spm.SentencePieceProcessor(model_file=str(path)),
        )
    return _LOADED[name]


@pytest.mark.parametrize("name", MODELS)
def test_mistral_models_give_sentencepiece_ids_and_text(name: str) -> None:
    ours, ref = mistral(name)
    for text in CURATED:
        ids = ours.encode(text)
        assert ids == ref.encode(text), text
        assert ours.decode(ids) == ref.decode(ids), text
    # the ids above cover byte fallback, user-defined pieces and control pieces' text
    ids = ours.encode("".join(CURATED))
    assert any(3 <= i < 259 or ref.id_to_piece(i).startswith("<0x") for i in ids)


@pytest.mark.parametrize("name", ["tokenizer.model.v1", "mistral_instruct_tokenizer_241114.model.v7"])
@settings(max_examples=150, deadline=None)
@given(text=TEXTS)
def test_random_texts_give_sentencepiece_ids(name: str, text: str) -> None:
    ours, ref = mistral(name)
    ids = ours.encode(text)
    assert ids == ref.encode(text)
    assert ours.decode(ids) == ref.decode(ids)


@settings(max_examples=150, deadline=None)
@given(ids=st.lists(st.integers(0, 32767), max_size=12))
def test_any_ids_decode_as_sentencepiece_does(ids: list[int]) -> None:
    ours, ref = mistral("mistral_instruct_tokenizer_241114.model.v7")
    assert ours.decode(ids) == ref.decode(ids)


def test_what_a_model_file_holds() -> None:
    spec = load_any(_model_path("mistral_instruct_tokenizer_240323.model.v3"))
    ref = spm.SentencePieceProcessor(
        model_file=str(_model_path("mistral_instruct_tokenizer_240323.model.v3"))
    )
    assert len(spec.vocab) == ref.vocab_size()
    assert spec.vocab[ref.piece_to_id("<0x0A>")] == b"\n"
    assert spec.vocab[ref.piece_to_id("▁the")] == b" the"
    assert spec.special_tokens[:4] == ("<unk>", "<s>", "</s>", "[INST]")
    assert spec.special_ids["<s>"] == 1
    conf = spec.pipeline["charbpe"]
    assert conf["scores"][ref.piece_to_id("▁the")] == ref.get_score(ref.piece_to_id("▁the"))
    # merges in score order, each making a piece of the vocab from two earlier ones
    assert spec.merges[0] == (b" ", b"t")
    tokens = set(spec.vocab.values())
    assert all(a + b in tokens for a, b in spec.merges)
    assert "SentencePiece BPE model: 32,768 pieces (256 byte pieces" in spec.notes[0]  # (grouped digits)


def test_tokenizer_views_of_a_sentencepiece_model() -> None:
    ours, _ = mistral("tokenizer.model.v1")
    spans = ours.trace("Hi 中")
    assert b"".join(s.token for s in spans) == " Hi 中".encode()
    assert ours.decode_bytes(ours.encode("a\n")) == b" a\n"
    assert ours.merges[:2] and ours.token_rank(ours.encode("the")[0]) is not None


# --------------------------------------------------------------------------- small trained models
def _train(tmp_path: Path, **options) -> Path:
    corpus = [
        "the quick brown fox jumps over the lazy dog",
        "hello world, hello there; 12345 and 67890",
        "中文的句子在这里。再来一句中文。",
        "  spaced   out\ttext\nwith lines",
        "[SEP] user defined <ctl> control",
    ] * 20
    out = io.BytesIO()
    size = 150 + (256 if options.get("byte_fallback") else 0)
    args = {"model_type": "bpe", "vocab_size": size, "character_coverage": 1.0, "minloglevel": 2}
    args |= {"normalization_rule_name": "identity"} | options
    spm.SentencePieceTrainer.train(sentence_iterator=iter(corpus), model_writer=out, **args)
    path = tmp_path / "tokenizer.model"
    path.write_bytes(out.getvalue())
    return path


TRAINED = {
    "plain": {},
    "byte_fallback": {"byte_fallback": True, "character_coverage": 0.98},
    "user_control": {"user_defined_symbols": ["[SEP]", "hello w"], "control_symbols": ["<ctl>"]},
    "no_dummy_prefix": {"add_dummy_prefix": False, "byte_fallback": True},
    "extra_whitespace_removed": {"remove_extra_whitespaces": True, "split_digits": True},
    "whitespace_pieces": {"allow_whitespace_only_pieces": True, "remove_extra_whitespaces": False},
    # SentencePiece's default rule: NFKC and more, from the precompiled character map in the model
    "nmt_nfkc": {"normalization_rule_name": "nmt_nfkc", "byte_fallback": True},
    "nmt_nfkc_cf": {"normalization_rule_name": "nmt_nfkc_cf", "user_defined_symbols": ["ＡＢ", "[SEP]"]},
    "nmt_nfkc_kept_spaces": {"normalization_rule_name": "nmt_nfkc", "remove_extra_whitespaces": False},
    # as Gemma: no dummy prefix, spaces kept, digits split, whitespace runs as user-defined pieces
    "gemma_like": {
        "add_dummy_prefix": False,
        "remove_extra_whitespaces": False,
        "byte_fallback": True,
        "split_digits": True,
        "allow_whitespace_only_pieces": True,
        "user_defined_symbols": ["<start_of_turn>", "\t\t", "\n\n", "▁▁▁"],
    },
}
EXPORTABLE = ["plain", "byte_fallback", "user_control", "no_dummy_prefix", "whitespace_pieces", "gemma_like"]


@pytest.mark.parametrize("config", sorted(TRAINED))
@settings(max_examples=60, deadline=None)
@given(text=TEXTS)
def test_trained_models_give_sentencepiece_ids(tmp_path_factory, config: str, text: str) -> None:
    key = f"trained-{config}"
    if key not in _LOADED:
        path = _train(tmp_path_factory.mktemp(config), **TRAINED[config])
        _LOADED[key] = (Tokenizer.from_spec(load_any(path)), spm.SentencePieceProcessor(model_file=str(path)))
    ours, ref = _LOADED[key]
    for t in (text, text + " [SEP] hello world <ctl>", "  " + text):
        ids = ours.encode(t)
        assert ids == ref.encode(t), t
        assert ours.decode(ids) == ref.decode(ids), t


@pytest.mark.parametrize("config", EXPORTABLE)
@settings(max_examples=40, deadline=None)
@given(text=TEXTS)
def test_trained_models_export_to_a_tokenizer_json_with_the_same_ids(
    tmp_path_factory, config: str, text: str
) -> None:
    key = f"trained-export-{config}"
    if key not in _LOADED:
        folder = tmp_path_factory.mktemp(config)
        path = _train(folder, **(TRAINED[config] | {"remove_extra_whitespaces": False}))
        exported = save(load_any(path), folder / "tokenizer.json", "hf")[0]
        _LOADED[key] = (HF.from_file(str(exported)), spm.SentencePieceProcessor(model_file=str(path)))  # type: ignore[assignment]
    hf, ref = _LOADED[key]
    user = TRAINED[config].get("user_defined_symbols", [])
    for t in (text, text + " [SEP] hello world <ctl>", "  " + text + "<start_of_turn>"):
        if user and _names_a_control_piece(t, user):
            continue  # (the one difference charbpe_hf_json documents: HF finds the name in its vocab)
        assert hf.encode(t, add_special_tokens=False).ids == ref.encode(t), t  # type: ignore[attr-defined]


def _names_a_control_piece(text: str, user: list[str]) -> bool:
    """A stretch of ``text`` between user-defined pieces (or the whole of it) that is exactly the name
    of a control or byte piece, which a tokenizer.json with ignore_merges maps to that piece."""
    import re

    cut = "|".join(re.escape(u.replace("▁", " ")) for u in sorted(user, key=len, reverse=True))
    return any(
        re.fullmatch(r"<s>|</s>|<unk>|<0x[0-9A-F]{2}>", part)
        for part in re.split(cut, text.replace("▁", " "))
    )


def test_models_a_tokenizer_json_cannot_hold_are_refused_at_export(tmp_path: Path) -> None:
    path = _train(tmp_path, remove_extra_whitespaces=True)
    with pytest.raises(FormatError, match=r"removes extra spaces .*native bpe.json"):
        save(load_any(path), tmp_path / "out.json", "hf")
    path = _train(tmp_path, normalization_rule_name="nmt_nfkc", remove_extra_whitespaces=False)
    with pytest.raises(FormatError, match=r"precompiled character map \(rule 'nmt_nfkc'\).*native bpe.json"):
        save(load_any(path), tmp_path / "out.json", "hf")
    save(load_any(path), tmp_path / "bpe.json", "native")  # (the native format keeps it)
    assert Tokenizer.from_spec(load_any(tmp_path / "bpe.json")).encode(
        "ＡＢ ﬁ"
    ) == spm.SentencePieceProcessor(model_file=str(path)).encode("ＡＢ ﬁ")


def test_unigram_and_damaged_models_are_refused_by_name(tmp_path: Path) -> None:
    path = _train(tmp_path, model_type="unigram", vocab_size=110, hard_vocab_limit=False)
    with pytest.raises(
        FormatError, match=r"SentencePiece Unigram .*; BPE Explorer opens byte-level BPE .* SentencePiece BPE"
    ):
        load_any(path)
    good = _model_path("tokenizer.model.v1").read_bytes()
    path.write_bytes(good[:5000])
    with pytest.raises(FormatError, match=r"cannot be read .*damaged or truncated"):
        load_any(path)


def test_a_folder_with_tokenizer_model_opens(tmp_path: Path) -> None:
    (tmp_path / "tokenizer.model").write_bytes(_model_path("tokenizer.model.v1").read_bytes())
    assert load_any(tmp_path).vocab[1] == b"<s>"


# --------------------------------------------------------------------------- tokenizer.json
@pytest.mark.parametrize("name", ["tokenizer.model.v1", "mistral_instruct_tokenizer_241114.model.v7"])
def test_export_gives_a_tokenizer_json_hf_reads_with_the_same_ids(tmp_path: Path, name: str) -> None:
    """(v7 has user-defined pieces such as [REF]: kept whole, as sentencepiece does.)"""
    ours, ref = mistral(name)
    files = export_all(tmp_path, ours, "hf,native")
    hf = HF.from_file(str(files["hf"][0]))
    native = Tokenizer.from_spec(load_any(files["native"][0]))
    reloaded = Tokenizer.from_spec(load_any(files["hf"][0]))
    for text in CURATED:
        ids = ref.encode(text)
        assert hf.encode(text, add_special_tokens=False).ids == ids, text
        assert native.encode(text) == ids and reloaded.encode(text) == ids, text
        assert hf.decode(ids) == ref.decode(ids), text
    # byte-level formats cannot hold it: refused, naming why
    assert "SentencePiece-style char-level BPE model" in export_losses(ours.to_spec(), "gpt2")[0]
    with pytest.raises(FormatError, match="cannot hold the SentencePiece"):
        save(ours, tmp_path, "tiktoken")


@settings(max_examples=100, deadline=None)
@given(text=TEXTS)
def test_exported_tokenizer_json_matches_sentencepiece_on_random_texts(tmp_path_factory, text: str) -> None:
    key = "exported-v1"
    if key not in _LOADED:
        ours, ref = mistral("tokenizer.model.v1")
        path = save(ours, tmp_path_factory.mktemp("export") / "tokenizer.json", "hf")[0]
        _LOADED[key] = (HF.from_file(str(path)), ref)  # type: ignore[assignment]
    hf, ref = _LOADED[key]
    assert hf.encode(text, add_special_tokens=False).ids == ref.encode(text)  # type: ignore[attr-defined]


@settings(max_examples=100, deadline=None)
@given(text=TEXTS)
@example(text="[REF][INST]")  # (found by CI: the stretch "[INST]" between [REF] and [/REF])
@example(text="[INST] x")
def test_exported_user_defined_pieces_match_sentencepiece(tmp_path_factory, text: str) -> None:
    key = "exported-v7"
    if key not in _LOADED:
        ours, ref = mistral("mistral_instruct_tokenizer_241114.model.v7")
        path = save(ours, tmp_path_factory.mktemp("export7") / "tokenizer.json", "hf")[0]
        _LOADED[key] = (HF.from_file(str(path)), ref)  # type: ignore[assignment]
    hf, ref = _LOADED[key]
    # (the one text the export cannot match: a stretch between user-defined pieces that is exactly the
    # name of a control or byte piece, e.g. "[REF]<s>[/REF]": HF's ignore_merges finds that name)
    reserved = {ref.id_to_piece(i) for i in range(ref.vocab_size()) if ref.is_control(i) or ref.is_byte(i)}
    # the pieces matched in text ([REF], [/REF] …; a control piece such as [INST] is not: it is text)
    matched = sorted(
        (
            ref.id_to_piece(i)
            for i in range(ref.vocab_size())
            if not ref.is_control(i) and re.fullmatch(r"\[[^\[\]]*\]", ref.id_to_piece(i))
        ),
        key=len,
        reverse=True,
    )
    between = re.compile("|".join(map(re.escape, matched)))
    assume(text not in reserved and text.rstrip(" ") not in reserved)
    for t in (text, f"[REF]{text}[/REF]", f"{text} [REFERENCE_DOC_2] x"):
        # (the text itself may hold [REF] or [INST]: the stretches between matched pieces are checked
        # too; "[REF][REF][INST][/REF]" has the stretch "[INST]", a control piece's name)
        if any(part.rstrip(" ") in reserved for part in between.split(t)):
            continue
        assert hf.encode(t, add_special_tokens=False).ids == ref.encode(t), t  # type: ignore[attr-defined]


def _hub_style(tmp_path: Path, legacy: bool) -> tuple[Path, HF]:
    """Mistral v0.1's tokenizer.json as the Hub serves Llama 2 / Mistral: the exported vocab and
    merges with <unk>, <s>, </s> as special added tokens, legacy (Prepend + Replace normalizer) or
    not (Metaspace pre-tokenizer, prepend_scheme "first")."""
    ours, _ = mistral("tokenizer.model.v1")
    path = save(ours, tmp_path / "exported.json", "hf")[0]
    data = json.loads(path.read_text(encoding="utf-8"))
    data["added_tokens"] = [
        {
            "id": i,
            "content": c,
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": False,
            "special": True,
        }
        for i, c in [(0, "<unk>"), (1, "<s>"), (2, "</s>")]
    ]
    data["post_processor"] = {
        "type": "TemplateProcessing",
        "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
        "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
        "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}},
    }
    if not legacy:
        meta = {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": False}
        data["normalizer"] = None
        data["pre_tokenizer"] = meta
        data["decoder"] = meta
    out = tmp_path / f"tokenizer-{'legacy' if legacy else 'metaspace'}.json"
    out.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return out, HF.from_file(str(out))


@pytest.mark.parametrize("legacy", [True, False])
def test_hub_style_tokenizer_json_gives_hf_ids(tmp_path: Path, legacy: bool) -> None:
    path, hf = _hub_style(tmp_path, legacy)
    ours = Tokenizer.from_spec(load_any(path))
    for text in [*CURATED, "<s>Hello</s> world", "x<s> y", "<unk><unk>"]:
        want = hf.encode(text).ids
        assert ours.encode(text) == want, text
        assert ours.encode(text, add_special_tokens=False) == hf.encode(text, add_special_tokens=False).ids
        assert ours.decode(want) == hf.decode(want, skip_special_tokens=False), text
    assert ours.post_processor_ids == ((1,), ())
    # written back, HF reads it with the same ids
    again = HF.from_file(str(save(ours, tmp_path / "again.json", "hf")[0]))
    for text in [*CURATED, "<s>Hello</s> world"]:
        assert again.encode(text).ids == hf.encode(text).ids, text


@pytest.mark.parametrize("legacy", [True, False])
@settings(max_examples=80, deadline=None)
@given(text=TEXTS)
def test_hub_style_tokenizer_json_on_random_texts(tmp_path_factory, legacy: bool, text: str) -> None:
    key = f"hub-{legacy}"
    if key not in _LOADED:
        path, hf = _hub_style(tmp_path_factory.mktemp("hub"), legacy)
        _LOADED[key] = (Tokenizer.from_spec(load_any(path)), hf)  # type: ignore[assignment]
    ours, hf = _LOADED[key]
    want = hf.encode(text, add_special_tokens=False).ids  # type: ignore[attr-defined]
    assert ours.encode(text, add_special_tokens=False) == want
    assert ours.decode(want) == hf.decode(want, skip_special_tokens=False)  # type: ignore[attr-defined]


@pytest.mark.parametrize("legacy", [True, False])
@settings(max_examples=80, deadline=None)
@given(
    ids=st.lists(
        st.sampled_from([0, 1, 2, 3, 13, 16, 243, 162, 167, 153, 28705, 28747, 22557, 1526]), max_size=10
    )
)
def test_hub_style_decode_of_any_ids(tmp_path_factory, legacy: bool, ids: list[int]) -> None:
    """Control tokens, lone and broken byte pieces, "▁" pieces anywhere: HF's decoder chain."""
    key = f"hub-{legacy}"
    if key not in _LOADED:
        path, hf = _hub_style(tmp_path_factory.mktemp("hub"), legacy)
        _LOADED[key] = (Tokenizer.from_spec(load_any(path)), hf)  # type: ignore[assignment]
    ours, hf = _LOADED[key]
    assert ours.decode(ids) == hf.decode(ids, skip_special_tokens=False)  # type: ignore[attr-defined]


def _small_hf(byte_fallback: bool, fuse_unk: bool, split: bool, scheme: str) -> HF:
    vocab = {"<unk>": 0, "▁": 1, "a": 2, "b": 3, "c": 4, "▁a": 5, "ab": 6, "▁ab": 7, "bc": 8, "abc": 9}
    merges = [("▁", "a"), ("a", "b"), ("▁a", "b"), ("b", "c"), ("a", "bc")]
    if byte_fallback:
        vocab |= {f"<0x{b:02X}>": 10 + b for b in range(256)}
    hf = HF(models.BPE(vocab, merges, unk_token="<unk>", byte_fallback=byte_fallback, fuse_unk=fuse_unk))
    hf.pre_tokenizer = pre_tokenizers.Metaspace(prepend_scheme=scheme, split=split)
    hf.decoder = decoders.Sequence(
        [decoders.Metaspace(prepend_scheme=scheme, split=split), decoders.ByteFallback()]
    )
    hf.normalizer = normalizers.Sequence([])
    return hf


@pytest.mark.parametrize(
    ("byte_fallback", "fuse_unk", "split", "scheme"),
    [(True, False, True, "always"), (False, True, False, "first"), (False, False, True, "never")],
)
@settings(max_examples=80, deadline=None)
@given(text=st.lists(st.sampled_from(list(" abcé中🤖\n")), max_size=60).map("".join))
def test_small_char_bpe_tokenizer_json(
    tmp_path_factory, byte_fallback: bool, fuse_unk: bool, split: bool, scheme: str, text: str
) -> None:
    key = f"small-{byte_fallback}-{fuse_unk}-{split}-{scheme}"
    if key not in _LOADED:
        hf = _small_hf(byte_fallback, fuse_unk, split, scheme)
        path = tmp_path_factory.mktemp("small") / "tokenizer.json"
        hf.save(str(path))
        _LOADED[key] = (Tokenizer.from_spec(load_any(path)), hf)  # type: ignore[assignment]
    ours, hf = _LOADED[key]
    want = hf.encode(text).ids  # type: ignore[attr-defined]
    assert ours.encode(text) == want
    assert ours.decode(want) == hf.decode(want, skip_special_tokens=False)  # type: ignore[attr-defined]


def test_char_bpe_tokenizer_json_round_trips_through_export(tmp_path: Path) -> None:
    hf = _small_hf(True, False, True, "always")
    src = tmp_path / "src.json"
    hf.save(str(src))
    spec = load_any(src)
    out = save(spec, tmp_path / "out", "hf")[0] if (tmp_path / "out").mkdir() is None else None
    assert out is not None
    again = HF.from_file(str(out))
    for text in ["abc ab  a", "é中 bc", ""]:
        assert again.encode(text).ids == hf.encode(text).ids


@pytest.mark.parametrize("kind", ["model", "legacy", "metaspace"])
def test_npy_encoding_in_small_blocks_equals_the_whole(tmp_path: Path, kind: str) -> None:
    """A file encoded block by block (blocks of 4 KB here) gives the ids of the whole text: a cut
    must not add a "▁" (sentencepiece puts one before the whole text only)."""
    import random

    import numpy as np

    from core.tokenization.npy import encode_file_to_npy

    rng = random.Random(3)
    words = ["hello", "world", "中文", "🤖", "a", "  ", "\n", "<s>", "[INST]", "x</s>"]
    text = " ".join(rng.choice(words) for _ in range(6000))
    src = tmp_path / "t.txt"
    src.write_text(text, encoding="utf-8")
    if kind == "model":
        ours, ref = mistral("tokenizer.model.v1")
        want = ref.encode(text)
    else:
        path, hf = _hub_style(tmp_path, kind == "legacy")
        ours = Tokenizer.from_spec(load_any(path))
        want = hf.encode(text, add_special_tokens=False).ids
    encode_file_to_npy(ours, src, tmp_path / "ids.npy", block_bytes=4096, workers=1)
    assert np.load(tmp_path / "ids.npy").tolist() == want


def test_lone_surrogates_are_refused_clearly() -> None:
    from core.errors import TokenizerError

    ours, _ = mistral("tokenizer.model.v1")
    with pytest.raises(TokenizerError, match="lone surrogate"):
        ours.encode("a\ud800b")


def test_evaluate_counts_byte_pieces_as_byte_fallback() -> None:
    """For a SentencePiece model the fallback share is its byte pieces (<0x09> and <0x0A> as well as
    the bytes of an emoji), not the single bytes >= 0x80 of byte-level BPE."""
    from core.evaluation.evaluate import EvalText, evaluate

    ours, ref = mistral("tokenizer.model.v1")
    text = "tab\there 🤖\nnext line"
    (r,) = evaluate([("mistral", ours)], [EvalText.from_bytes("t", text.encode())], split_on=None, workers=1)
    ids = ref.encode(text)
    assert r.tokens == len(ids)
    assert r.byte_fallback_share == pytest.approx(sum(ref.is_byte(i) for i in ids) / len(ids))
    assert sum(ref.is_byte(i) for i in ids) == 6  # \t, \n and the emoji's four bytes


def test_streaming_gives_the_ids_of_the_whole_text() -> None:
    ours, ref = mistral("tokenizer.model.v1")
    ours.stream_min_chars = 8  # (gather little before trying to cut)
    try:
        text = "".join(CURATED) * 3
        pieces = [text[i : i + 7] for i in range(0, len(text), 7)]
        assert list(ours.encode_iterable(pieces)) == ref.encode(text)
    finally:
        del ours.stream_min_chars


@pytest.mark.parametrize("config", ["mistral", "plain", "nmt_nfkc"])
def test_long_runs_without_spaces(tmp_path: Path, config: str) -> None:
    """Long stretches without "▁" (Chinese, unknown characters in a row, digits) are cut between
    characters that no piece joins: the ids stay sentencepiece's, runs of <unk> stay one."""
    import random

    if config == "mistral":
        ours, ref = mistral("tokenizer.model.v1")
    else:
        path = _train(tmp_path, **TRAINED[config])
        ours, ref = Tokenizer.from_spec(load_any(path)), spm.SentencePieceProcessor(model_file=str(path))
    rng = random.Random(4)
    chars = [*"中文的句子在这里。再来一句", *"0123456789", "\u0378", "\U000e0001", "ǅ", "🤖", "ﬁ", "ａ"]
    for _ in range(20):
        text = "".join(rng.choice(chars) for _ in range(rng.randint(30, 400)))
        ids = ours.encode(text)
        assert ids == ref.encode(text), text
        assert ours.decode(ids) == ref.decode(ids)
