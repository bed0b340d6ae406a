"""tokenizer.json files with normalizers, several pre-tokenizers, added-token flags and post-processors:
our ids must equal HuggingFace ``tokenizers``' ids (built in the test with that library)."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import AddedToken, Regex, decoders, models, normalizers, pre_tokenizers, processors, trainers
from tokenizers import Tokenizer as HFTokenizer

from core import Tokenizer
from core.errors import FormatError, TokenizerError
from core.formats import load_any

CORPUS = ["The café's 12 naïve cats (room #42) sat; 1234567 dogs didn't!", "中文分词 你好，世界 世界世界",
          "emoji 👍 👍🏽 ok", "CamelCase and_snake x=1+2*3", "Ὀδυσσεύς ΣΟΦΙΑ σοφία", "  spaces\n\n\ttabs\r\n"] * 20
TEXTS = ["Hello café naïve!", "cafe\u0301 e\u0301", "(room #42) 1234567", "中文 世界世界", "ΣΟΦΙΑ Σ", "x=1+2*3",
         "  two  spaces\n\nnl", "", " ", "<s>hi</s>", "a <mask> b", "x<mask>y", " <mask> ", "CamelCase", "1,234.5"]
PATTERN = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"


def _hf(tmp_path, *, normalizer=None, pre=None, post=None, added=(), specials=(), ignore_merges=False,
        vocab_size=400, name="tokenizer.json"):
    tok = HFTokenizer(models.BPE(ignore_merges=ignore_merges))
    tok.pre_tokenizer = pre or pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=list(specials), show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(CORPUS, trainer)
    if normalizer is not None:
        tok.normalizer = normalizer
    if post is not None:
        tok.post_processor = post
    if added:
        tok.add_tokens(list(added))
    path = tmp_path / name
    tok.save(str(path))
    return tok, path


def _same(hf, path, texts=TEXTS):
    ours = Tokenizer.from_spec(load_any(path))
    for t in texts:
        for add in (True, False):
            assert ours.encode(t, add_special_tokens=add) == hf.encode(t, add_special_tokens=add).ids, (t, add)
    return ours


@pytest.mark.parametrize("norm", [normalizers.NFC(), normalizers.NFD(), normalizers.NFKC(), normalizers.NFKD(),
                                  normalizers.Lowercase(), normalizers.Strip(),
                                  normalizers.Replace("a", "@"), normalizers.Replace(Regex(r"\d+"), "#"),
                                  normalizers.Prepend("▁"),
                                  normalizers.Sequence([normalizers.NFKC(), normalizers.Lowercase()]),
                                  normalizers.Sequence([])])
def test_normalizers(tmp_path, norm):
    hf, path = _hf(tmp_path, normalizer=norm)
    _same(hf, path, TEXTS + ["ﬁ ① ２３ Å Å"])


@pytest.mark.parametrize("behavior", ["removed", "isolated", "merged_with_previous", "merged_with_next",
                                      "contiguous"])
@pytest.mark.parametrize("invert", [False, True])
def test_split_behaviours_keep_what_hf_keeps(tmp_path, behavior, invert):
    pre = pre_tokenizers.Sequence([pre_tokenizers.Split(Regex(r"\p{N}+|[(#)]"), behavior, invert=invert),
                                   pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    hf, path = _hf(tmp_path, pre=pre)
    _same(hf, path, TEXTS + ["((##))12 34", "#"])


def test_several_splits_lose_no_text(tmp_path):
    """DeepSeek-V3 style: three Splits; text no regex matches stays (the old loader dropped '42')."""
    pre = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(r"\p{N}{1,3}"), "isolated"),
        pre_tokenizers.Split(Regex(r"[一-龥\u3040-ゟ゠-ヿ]+"), "isolated"),
        pre_tokenizers.Split(Regex(r"[\r\n]+|\s?[A-Za-z\p{L}]+|[^\s\p{L}\p{N}]+| +"), "isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    hf, path = _hf(tmp_path, pre=pre)
    ours = _same(hf, path)
    text = "(room #42) 1234567"
    assert ours.decode(ours.encode(text)) == text


@pytest.mark.parametrize("pre", [
    pre_tokenizers.Sequence([pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.ByteLevel()]),
    pre_tokenizers.Sequence([pre_tokenizers.Digits(individual_digits=False),
                             pre_tokenizers.ByteLevel(add_prefix_space=False)]),
    pre_tokenizers.Sequence([pre_tokenizers.Punctuation(), pre_tokenizers.ByteLevel(use_regex=False)]),
    pre_tokenizers.Sequence([pre_tokenizers.Whitespace(), pre_tokenizers.ByteLevel(use_regex=False)]),
    pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(), pre_tokenizers.ByteLevel(use_regex=False)]),
    pre_tokenizers.ByteLevel(add_prefix_space=True),
])
def test_other_pre_tokenizers(tmp_path, pre):
    hf, path = _hf(tmp_path, pre=pre)
    _same(hf, path)


def test_post_processors_and_added_token_flags(tmp_path):
    post = processors.TemplateProcessing(single="[gMASK] <sop> $A </s>", special_tokens=[
        ("[gMASK]", 0), ("<sop>", 1), ("</s>", 2)])
    added = [AddedToken("<mask>", lstrip=True, rstrip=True, special=True),
             AddedToken("mask", single_word=True, special=False),
             AddedToken("CASE", normalized=True, special=False)]
    hf, path = _hf(tmp_path, post=post, specials=["[gMASK]", "<sop>", "</s>"], added=added,
                   normalizer=normalizers.Lowercase())
    ours = _same(hf, path, TEXTS + ["mask masks unmask mask.", "case CASE Case"])
    assert ours.pipeline.added_ids == ((0, 1), (2,))


@pytest.mark.parametrize("post", [processors.RobertaProcessing(("</s>", 2), ("<s>", 0)),
                                  processors.BertProcessing(("</s>", 2), ("<s>", 0)),
                                  processors.ByteLevel(trim_offsets=True),
                                  processors.Sequence([processors.ByteLevel(),
                                                       processors.TemplateProcessing(
                                                           single="<s> $A", special_tokens=[("<s>", 0)])])])
def test_more_post_processors(tmp_path, post):
    hf, path = _hf(tmp_path, post=post, specials=["<s>", "<pad>", "</s>"])
    _same(hf, path)


def test_ignore_merges_both_ways(tmp_path):
    """A vocab token the merges cannot build: with ignore_merges=False it is not used for a whole word."""
    for flag in (False, True):
        hf, path = _hf(tmp_path, ignore_merges=flag, name=f"t{flag}.json")
        data = json.loads(path.read_text(encoding="utf-8"))
        vocab = data["model"]["vocab"]
        vocab["Ġzqx"] = len(vocab)  # reachable only by whole-word lookup
        path.write_text(json.dumps(data), encoding="utf-8")
        hf = HFTokenizer.from_file(str(path))
        ours = _same(hf, path, ["a zqx b", " zqx", "zqx"])
        assert (len(ours.encode(" zqx")) == 1) is flag


def test_vocab_without_bytes_never_in_utf8(tmp_path):
    """GPT-NeoX / OLMo 1 lack 0xC0, 0xC1, 0xF5..0xFF: they load; only text that needs one is refused."""
    hf, path = _hf(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    from core.spec import token_to_str
    gone = {token_to_str(bytes([b])) for b in [0xC0, 0xC1, *range(0xF5, 0x100)]}
    data["model"]["vocab"] = {k: v for k, v in data["model"]["vocab"].items() if k not in gone}
    path.write_text(json.dumps(data), encoding="utf-8")
    hf = HFTokenizer.from_file(str(path))
    ours = _same(hf, path)
    with pytest.raises(TokenizerError, match="0xff"):
        ours.encode("ok \udcff")


@pytest.mark.parametrize("model, kind", [
    (models.Unigram([("a", -1.0), ("<unk>", -2.0)], 1), "Unigram"),
    (models.WordPiece({"a": 0, "[UNK]": 1}, unk_token="[UNK]"), "WordPiece"),
    (models.BPE({"a": 0, "<0x00>": 1}, [], byte_fallback=True), "byte fallback"),
])
def test_other_models_refused_by_name(tmp_path, model, kind):
    tok = HFTokenizer(model)
    path = tmp_path / "tokenizer.json"
    tok.save(str(path))
    with pytest.raises(FormatError, match=kind) as e:
        load_any(path)
    assert "byte-level BPE" in str(e.value)


def test_truncation_is_reported_not_applied(tmp_path):
    hf, path = _hf(tmp_path)
    hf.enable_truncation(3)
    hf.save(str(path))
    ours = Tokenizer.from_spec(load_any(path))
    assert any("truncation" in n for n in ours.pipeline.notes)
    assert len(ours.encode("many words in this text here")) > 3


def test_export_keeps_the_pipeline(tmp_path):
    hf, path = _hf(tmp_path, normalizer=normalizers.NFKC(), post=processors.TemplateProcessing(
        single="<s> $A", special_tokens=[("<s>", 0)]), specials=["<s>"])
    from core.formats import save_hf
    out = save_hf(load_any(path), tmp_path / "out")
    again = HFTokenizer.from_file(str(out))
    for t in TEXTS:
        assert again.encode(t).ids == hf.encode(t).ids


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_random_text_nfc_qwen_style(tmp_path_factory, text):
    path = tmp_path_factory.getbasetemp() / "qwen_style.json"
    if not path.exists():
        pre = pre_tokenizers.Sequence([pre_tokenizers.Split(Regex(PATTERN), "isolated"),
                                       pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
        _hf(path.parent, pre=pre, normalizer=normalizers.NFC(), name=path.name)
    hf = HFTokenizer.from_file(str(path))
    ours = Tokenizer.from_spec(load_any(path))
    assert ours.encode(text) == hf.encode(text).ids
    assert ours.decode(ours.encode(text)) == hf.decode(hf.encode(text).ids)
