"""What core says in English (corpus notes, import notes, export losses) is shown in the app's language:
every text core really produces matches a template that gives it back word for word in English and
translated in Chinese; a text no template knows is shown as it is."""

from __future__ import annotations

import json
import re

import pytest

from bpe_gui.text import core as core_text
from bpe_gui.text import i18n
from bpe_gui.text.errors import error_text
from core.units import plurals

tokenizers = pytest.importorskip("tokenizers")


def _in_chinese(e: BaseException) -> str:
    """What the Chinese app shows for the error ``e`` (the app back in English after)."""
    try:
        i18n.install("zh_CN")
        return error_text(e)
    finally:
        i18n.install("en")


def _hf_file(tmp_path):
    """A tokenizer.json with a normalizer, two pre-tokenizer steps, a post-processor adding tokens
    before and after, truncation, padding and an added token with lstrip."""
    from tokenizers import AddedToken, Regex, decoders, normalizers, pre_tokenizers, processors
    from tokenizers.models import BPE
    from tokenizers.trainers import BpeTrainer

    hf = tokenizers.Tokenizer(BPE())
    hf.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(r"\d{1,3}"), "isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False),
        ]
    )
    hf.decoder = decoders.ByteLevel()
    hf.train_from_iterator(
        ["the cat sat on the mat 12345"] * 20,
        BpeTrainer(
            vocab_size=300,
            show_progress=False,
            special_tokens=["<s>", "</s>"],
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        ),
    )
    hf.normalizer = normalizers.Sequence([normalizers.NFC(), normalizers.Lowercase()])
    hf.add_special_tokens([AddedToken("<mask>", lstrip=True)])
    hf.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>",
        special_tokens=[("<s>", hf.token_to_id("<s>")), ("</s>", hf.token_to_id("</s>"))],
    )
    hf.enable_truncation(128)
    hf.enable_padding()
    path = tmp_path / "tokenizer.json"
    hf.save(str(path))
    return path


def _core_texts(tmp_path) -> tuple[list[str], list[str]]:
    """Notes and export losses exactly as core writes them, from real files."""
    from core.formats import export_all, export_losses, load_any
    from core.pretokenization.pretokenize import count_pretokens
    from core.tokenization.tokenizer import Tokenizer
    from core.training.trainer import Trainer

    _counts, stats = count_pretokens(b"\xef\xbb\xbfthe cat \xff\xfe sat", [], "gpt2", workers=1)
    notes = list(stats.notes)
    spec = load_any(_hf_file(tmp_path))
    notes += [*spec.notes, *Tokenizer.from_spec(spec).notes]
    losses = export_losses(spec, "gpt2")
    # a merge list out of id order: tiktoken, merging by rank, gives other ids
    from core.formats.spec import TokenizerSpec

    out_of_order = {**{i: bytes([i]) for i in range(256)}, 256: b"bc", 257: b"ab"}
    losses += export_losses(TokenizerSpec(out_of_order, ((b"a", b"b"), (b"b", b"c"))), "tiktoken")
    trained = Trainer.from_text("the cat sat on the mat " * 30, ["<|endoftext|>"])
    trained.steps(20)
    folder = tmp_path / "out"
    export_all(folder, trained, ["gpt2", "tiktoken"])
    notes += load_any(folder / "vocab.json", merges=folder / "merges.txt").notes
    notes += load_any(folder / "bpe.tiktoken").notes
    # all formats: the tiktoken file takes its pattern and special tokens from the bpe.json beside it
    both = tmp_path / "all"
    export_all(both, trained, ["tiktoken", "native"])
    notes += load_any(both / "bpe.tiktoken").notes
    # a placeholder rank with an empty token, as in Whisper's multilingual.tiktoken
    placeholder = tmp_path / "multilingual.tiktoken"
    lines = (folder / "bpe.tiktoken").read_text(encoding="ascii").splitlines()
    free_rank = max(int(line.split()[1]) for line in lines) + 1
    placeholder.write_text("\n".join([*lines, f"= {free_rank}"]) + "\n", encoding="ascii")
    notes += load_any(placeholder, pattern="gpt2", special_tokens={}).notes
    # a merge list without a model: alone (ids derived), with its vocab beside it, with its own vocab
    import json

    (tmp_path / "ml").mkdir()
    merges_json = tmp_path / "ml" / "merges.json"
    merges_json.write_text(json.dumps({"merges": ["h e", ["Ġ", "he"]]}), encoding="utf-8")
    notes += load_any(merges_json).notes
    vocab = json.loads((folder / "vocab.json").read_text(encoding="utf-8"))
    (tmp_path / "ml" / "vocab.json").write_text(json.dumps(vocab), encoding="utf-8")
    lines = (folder / "merges.txt").read_text(encoding="utf-8").splitlines()[1:]
    merges_json.write_text(json.dumps({"merges": lines}), encoding="utf-8")
    notes += load_any(merges_json).notes
    (tmp_path / "ml" / "vocab.json").unlink()
    merges_json.write_text(json.dumps({"vocab": vocab, "merges": lines}), encoding="utf-8")
    notes += load_any(merges_json).notes
    return notes, losses


def test_every_text_core_writes_has_a_template_that_gives_it_back_in_english(qapp, tmp_path):
    i18n.install("en")
    notes, losses = _core_texts(tmp_path)
    assert len(notes) >= 9 and len(losses) >= 4  # BOM, invalid bytes, truncation, padding, post-processor, …
    for text, table in [*((n, core_text._NOTES) for n in notes), *((x, core_text._LOSSES) for x in losses)]:
        assert any(p.fullmatch(text.rstrip(".")) for p, _make in table), text
        # (as core says it, with an English "(s)" after a count resolved: "1 added token")
        assert (core_text.note(text) if table is core_text._NOTES else core_text.loss(text)) == plurals(text)


def test_the_chinese_app_shows_them_in_chinese_with_their_values(qapp, tmp_path):
    notes, losses = _core_texts(tmp_path)
    try:
        assert i18n.install("zh_CN") == "zh_CN"
        for text, shown in [
            *((n, core_text.note(n)) for n in notes),
            *((x, core_text.loss(x)) for x in losses),
        ]:
            assert shown != text and re.search(r"[\u4e00-\u9fff]", shown), (text, shown)
            for number in re.findall(r"\d{2,}", text):  # the values are kept (counts, sizes)
                assert number in shown, (text, shown)
    finally:
        i18n.install("en")


def test_an_unknown_text_is_shown_as_it_is(qapp):
    assert (
        core_text.note("something core says that no template knows")
        == "something core says that no template knows"
    )
    assert core_text.loss("the frobnicator") == "the frobnicator"


def test_the_corpus_panel_and_the_export_warning_show_core_texts_in_chinese(qapp, window, tmp_path):
    from bpe_gui.dialogs.export_dialog import lossy_export_text
    from core.pretokenization.pretokenize import count_pretokens

    _counts, stats = count_pretokens(b"the cat \xff sat", [], "gpt2", workers=1)
    try:
        i18n.install("zh_CN")
        window.corpus_panel.show_stats(stats)
        assert "1 个无效的 UTF-8 字节已逐字节原样保留" in window.corpus_panel.notes.text()
        assert "规范化器（NFC）" in lossy_export_text({"gpt2": ["the normalizer (NFC)"]})
    finally:
        i18n.install("en")


def test_a_tokenizer_of_another_kind_is_refused_in_chinese(qapp, tmp_path):
    from tokenizers.models import Unigram

    from core.errors import FormatError
    from core.formats import load_any

    path = tmp_path / "unigram.json"
    tokenizers.Tokenizer(Unigram([("<unk>", 0.0), ("a", -1.0), ("b", -2.0)], 0)).save(str(path))
    with pytest.raises(FormatError) as refused:
        load_any(path)
    assert "this is a Unigram" in str(refused.value)
    shown = _in_chinese(refused.value)
    assert shown.startswith("'unigram.json' 是 Unigram") or shown.startswith("unigram.json 是 Unigram"), shown
    assert "字节级 BPE" in shown and "SentencePiece BPE" in shown  # what is opened instead


@pytest.mark.parametrize(
    "data", ['{"not": "a tokenizer"}', "[1, 2, 3]", '{"model_type": "gpt2", "n_layer": 12}']
)
def test_a_json_file_of_no_known_kind_is_refused_in_chinese(qapp, tmp_path, data):
    # (a config.json picked by mistake: the app showed core's English sentence in the Chinese dialog)
    from core.errors import FormatError
    from core.formats import load_any

    path = tmp_path / "config.json"
    path.write_text(data, encoding="utf-8")
    with pytest.raises(FormatError, match="no known tokenizer kind") as refused:
        load_any(path)
    shown = _in_chinese(refused.value)
    assert "config.json" in shown and "不是 BPE Explorer 能读取的分词器文件" in shown, shown
    assert "tokenizer.json" in shown and "bpe.json" in shown  # what to choose instead


def _refused_in_chinese(picked) -> str:
    from bpe_gui.model.files import load_tokenizer
    from bpe_gui.text.errors import error_text
    from core.errors import FormatError

    with pytest.raises(FormatError) as refused:
        load_tokenizer(picked)
    try:
        i18n.install("zh_CN")
        return error_text(refused.value)
    finally:
        i18n.install("en")


def test_half_a_gpt2_pair_or_an_empty_file_is_refused_in_chinese(qapp, tmp_path):
    # (a vocab.json downloaded without its merges.txt, or the other way round, and an empty file:
    # the Chinese app showed core's English sentence)
    from core.formats import export_all
    from core.formats.spec import TokenizerSpec

    spec = TokenizerSpec.from_merges([(b" ", b"t"), (b"h", b"e"), (b" t", b"he")])
    export_all(tmp_path / "full", spec, "gpt2")
    (tmp_path / "vocab_only").mkdir()
    (tmp_path / "vocab_only" / "vocab.json").write_bytes((tmp_path / "full" / "vocab.json").read_bytes())
    (tmp_path / "merges_only").mkdir()
    (tmp_path / "merges_only" / "merges.txt").write_bytes((tmp_path / "full" / "merges.txt").read_bytes())
    (tmp_path / "empty.json").write_bytes(b"")

    shown = _refused_in_chinese([tmp_path / "vocab_only" / "vocab.json"])
    assert shown.startswith("vocab.json 看起来是 GPT-2 的 vocab.json") and "merges.txt" in shown, shown
    assert "请同时选择 vocab.json 和 merges.txt 两个文件" in shown
    shown = _refused_in_chinese([tmp_path / "merges_only" / "merges.txt"])
    assert "merges.txt" in shown and "配套的词表" in shown and "vocab.json" in shown, shown
    assert "请同时选择 vocab.json 和 merges.txt 两个文件" in shown
    assert _refused_in_chinese([tmp_path / "empty.json"]) == "empty.json 是空文件，不是分词器文件。"


def test_one_invalid_byte_is_said_in_the_singular(qapp):
    """ "1 invalid UTF-8 bytes kept byte-exactly" (core's note, the CLI and the app)."""
    from core.pretokenization.pretokenize import count_pretokens

    i18n.install("en")
    _counts, stats = count_pretokens(b"the cat \xff sat", [], "gpt2", workers=1)
    assert "1 invalid UTF-8 byte kept byte-exactly" in stats.notes
    assert (
        core_text.note("1 invalid UTF-8 byte kept byte-exactly") == "1 invalid UTF-8 byte kept byte-exactly"
    )
    assert core_text.note("1,234 invalid UTF-8 bytes kept byte-exactly") == (
        "1,234 invalid UTF-8 bytes kept byte-exactly"
    )


def test_core_english_is_shown_with_its_plurals_resolved(qapp):
    """Core writes "(s)" after a count; the English app reads "1 part", "3 bytes"."""
    from core.errors import BPEError

    i18n.install("en")
    assert (
        error_text(BPEError("the file has 1 part(s); 3 byte(s) left")) == "the file has 1 part; 3 bytes left"
    )
    assert (
        core_text.note("4 token(s) of something no template knows")
        == "4 tokens of something no template knows"
    )


def _broken_files(tmp_path):
    """(what, picked files) for the damaged tokenizer files a user most often opens, made from a real
    export: a merges.txt line that is not two tokens, a merge whose token the vocab lacks, a truncated
    vocab.json / tokenizer.json / bpe.json, a key listed twice, bad base64 and a rank used twice in a
    tiktoken file, a file that is not UTF-8, a vocab with an id given twice or bytes missing."""
    from core.formats import export_all
    from core.formats.spec import TokenizerSpec

    spec = TokenizerSpec.from_merges([(b" ", b"t"), (b"h", b"e"), (b" t", b"he")], ["<|endoftext|>"])
    good = tmp_path / "good"
    export_all(good, spec, ["gpt2", "tiktoken", "native", "hf"])
    vocab, merges = (good / "vocab.json").read_text(), (good / "merges.txt").read_text()
    hf = (good / "tokenizer.json").read_text()
    first_merge = json.loads(hf)["model"]["merges"][0]
    written = json.dumps(first_merge, ensure_ascii=False)
    assert written in hf
    tiktoken, native = (good / "bpe.tiktoken").read_text(), (good / "bpe.json").read_text()
    cases = {
        "merges_line_parts": {"vocab.json": vocab, "merges.txt": merges + "a b c\n"},
        "merges_makes_missing": {"vocab.json": vocab, "merges.txt": merges + "Ġ x\n"},
        "merges_not_byte_level": {"vocab.json": vocab, "merges.txt": merges + "a 一\n"},
        "json_invalid": {"vocab.json": vocab[: len(vocab) // 2], "merges.txt": merges},
        "json_key_repeated_lines": {"vocab.json": vocab.replace("{", '{"a": 97, ', 1), "merges.txt": merges},
        "vocab_id_repeated": {"vocab.json": vocab.replace("{", '{"zz": 0, ', 1), "merges.txt": merges},
        "vocab_bytes_missing": {"vocab.json": '{"a": 0, "b": 1}', "merges.txt": "#version: 0.2\n"},
        "file_not_utf8": {"vocab.json": b'{"a": 1, "\xff": 2}', "merges.txt": merges},
        "tiktoken_base64": {"x.tiktoken": tiktoken + "!!!! 999\n"},
        "tiktoken_rank_repeated": {"x.tiktoken": tiktoken + "YQ== 0\n"},
        "tiktoken_token_repeated": {"x.tiktoken": tiktoken + "IA== 999\n"},
        "tiktoken_line_parts": {"x.tiktoken": tiktoken + "YQ==\n"},
        "tiktoken_rank_invalid": {"x.tiktoken": tiktoken + "YQ== -1\n"},
        "vocab_token_empty": {"vocab.json": vocab.replace("{", '{"": 9999, ', 1), "merges.txt": merges},
        "vocab_id_invalid": {"vocab.json": vocab.replace("{", '{"zz": -1, ', 1), "merges.txt": merges},
        "vocab_not_byte_level": {"vocab.json": vocab.replace("{", '{"一": 9999, ', 1), "merges.txt": merges},
        "gpt2_not_together": {  # a merges.txt that lost its first merge: the vocab's " t" made by none
            "vocab.json": vocab,
            "merges.txt": "\n".join(merges.splitlines()[0::2]) + "\n",
        },
        "hf_merge_parts": {"tokenizer.json": hf.replace(written, '"a b c"', 1)},
        "hf_merge_token_missing": {"tokenizer.json": hf.replace(written, '"Ġ x"', 1)},
        "hf_merge_not_byte_level": {"tokenizer.json": hf.replace(written, '"a 一"', 1)},
    }
    out = [(code, tmp_path / code, files) for code, files in cases.items()]
    out.append(
        ("json_invalid", tmp_path / "hf", {"tokenizer.json": '{"model": {"type": "BPE", "vocab": {"a": 1,'})
    )
    out.append(("json_invalid", tmp_path / "native", {"bpe.json": native[:300]}))
    for _code, folder, files in out:
        folder.mkdir()
        for name, data in files.items():
            (folder / name).write_bytes(data if isinstance(data, bytes) else data.encode())
    return [(code, folder / next(iter(files))) for code, folder, files in out]


def _same_facts(english: str, shown: str, detail: str = "") -> None:
    """The Chinese text names the same file, lines, counts and values as core's English one, in
    Chinese sentences (no three English words in a row, once values, paths and Python's own
    ``detail`` are left out)."""
    assert re.search(r"[\u4e00-\u9fff]", shown) and shown != english, (english, shown)
    words = re.sub(r"'[^']*'|\S*/\S+|\([^)]*\)", " ", shown.replace(detail, "") if detail else shown)
    assert not re.search(r"[A-Za-z]+ [a-z]+ [a-z]+", words), shown
    for number in re.findall(r"\d+", english):
        assert number in shown, (number, english, shown)
    for quoted in re.findall(r"'[^']+'", english.split(";")[0]):  # (the values, not the fix's wording)
        assert quoted in shown, (quoted, english, shown)


def test_a_damaged_tokenizer_file_is_refused_in_chinese_with_its_file_line_and_value(qapp, tmp_path):
    # (the Chinese app showed these in core's English: a broken merges.txt line, a token missing from
    # the vocab, a truncated JSON file, bad base64 …, the errors a user meets most when opening files)
    from bpe_gui.model.files import load_tokenizer
    from core.errors import FormatError

    for code, picked in _broken_files(tmp_path):
        with pytest.raises(FormatError) as refused:
            load_tokenizer([picked])
        english = str(refused.value)
        assert refused.value.code == code, english
        assert error_text(refused.value) == plurals(english)  # the English app: core's message
        shown = _in_chinese(refused.value)
        assert str(picked.parent) in shown, shown
        for path in re.findall(r"/\S+\.(?:json|txt|tiktoken)", english):  # the file at fault
            assert path in shown, (path, shown)
        _same_facts(english, shown, refused.value.params.get("detail", ""))


@pytest.mark.parametrize(
    "head, code",
    [
        ("hello world, 你好".encode("utf-16-le") * 40, "corpus_encoding"),
        ("hello world".encode("utf-32-le") * 40, "corpus_encoding"),
        (b"\x00" * 300, "corpus_all_nul"),
        (b"\x7fELF" + bytes(range(256)) * 4, "corpus_binary"),
        (bytes(range(128, 256)) * 4, "corpus_not_utf8"),
    ],
)
def test_a_corpus_that_is_not_utf8_text_is_refused_in_chinese_with_its_counts(qapp, head, code):
    from core.errors import CorpusError
    from core.pretokenization.pretokenize import sniff_encoding

    with pytest.raises(CorpusError) as refused:
        sniff_encoding(head, "corpus.bin")
    assert refused.value.code == code, str(refused.value)
    shown = _in_chinese(refused.value)
    assert "corpus.bin" in shown
    _same_facts(str(refused.value).split(";")[0], shown)  # (the English fix names command-line options)


def test_where_in_the_file_is_said_in_chinese_by_line_or_by_merge(qapp):
    """A tokenizer.json written on one line (no line to name) is placed by the merge's index, as core does."""
    from core.errors import FormatError

    by_line = FormatError("x", code="hf_merge_parts", file="t.json", shown="'a b c'", line=12)
    by_index = FormatError("x", code="hf_merge_parts", file="t.json", shown="'a b c'", merge_index=3)
    try:
        i18n.install("zh_CN")
        assert error_text(by_line).startswith("t.json 第 12 行：'a b c' 不是两个词元")
        assert error_text(by_index).startswith("t.json 第 3 个合并（从 0 数起）：'a b c'")
    finally:
        i18n.install("en")


def test_a_session_from_a_newer_version_is_refused_in_chinese(qapp, tmp_path):
    from core.errors import FormatError
    from core.formats.session import load_session, save_session
    from core.formats.spec import TokenizerSpec

    path = save_session(tmp_path / "s.bpe.json", TokenizerSpec.from_merges([(b"a", b"b")]))
    data = json.loads(path.read_text(encoding="utf-8"))
    data["session"]["version"] = 97
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError, match="newer") as refused:
        load_session(path)
    shown = _in_chinese(refused.value)
    assert str(path) in shown and "97" in shown and "升级" in shown, shown
    _same_facts(str(refused.value), shown)


def test_a_byte_the_tokenizer_lacks_is_said_in_chinese_with_the_file_and_offset(qapp, tmp_path):
    """Evaluate with an OLMo-like vocab (no token for 0xff) on a file holding 0xff: the dialog says the
    file, the byte, its offset and the tokenizer, in the app's language."""
    from core import Tokenizer
    from core.errors import TokenizerError
    from core.evaluation.evaluate import EvalText, evaluate
    from core.formats.spec import TokenizerSpec

    base = TokenizerSpec.from_merges([(b"t", b"h")])
    holed = Tokenizer({i: b for i, b in base.vocab.items() if b != b"\xff"}, base.merges)
    text = tmp_path / "dict.txt"
    text.write_bytes(b"the cat sat\n" * 10 + b"odd \xff end\n")
    with pytest.raises(TokenizerError) as refused:
        evaluate([("olmo-like", holed)], [EvalText.from_file(text)], workers=1)
    assert str(refused.value).startswith(
        f"{text}: the byte 0xff at offset 124 is not valid UTF-8, and olmo-like"
    )
    shown = _in_chinese(refused.value)
    assert shown.startswith(
        f"{text}：偏移 124 处的字节 0xff 不是有效的 UTF-8，而 olmo-like 没有对应它的词元"
    ), shown
    assert "iconv -c" in shown and "256" in shown


def test_a_settings_file_picked_for_the_tokenizer_is_named_in_chinese(qapp, tmp_path):
    import json

    from core.errors import FormatError
    from core.formats import load_any

    path = tmp_path / "tokenizer_config.json"
    path.write_text(
        json.dumps({"tokenizer_class": "LlamaTokenizerFast", "chat_template": "…"}), encoding="utf-8"
    )
    (tmp_path / "tokenizer.json").write_text("{}", encoding="utf-8")
    with pytest.raises(FormatError) as refused:
        load_any(path)
    shown = _in_chinese(refused.value)
    assert shown == (
        f"tokenizer_config.json 是 HuggingFace 的设置文件（模型或分词器的配置），不是分词器本身。"
        f"请打开它旁边的 tokenizer.json：{tmp_path / 'tokenizer.json'}"
    )


def test_a_tokenizer_named_by_its_role_is_named_in_chinese(qapp, tmp_path):
    """The byte error from extending (no file name for the tokenizer: "the base tokenizer") read
    "而 the base tokenizer 没有…" in the Chinese app."""
    from core import Tokenizer
    from core.errors import TokenizerError
    from core.formats.spec import TokenizerSpec
    from core.tokenization.extend import ExtendTrainer

    base = TokenizerSpec.from_merges([(b"t", b"h")])
    holed = Tokenizer({i: b for i, b in base.vocab.items() if b != b"\xff"}, base.merges)
    text = tmp_path / "dict.txt"
    text.write_bytes(b"odd \xff end\n")
    with pytest.raises(TokenizerError) as refused:
        ExtendTrainer.from_files(holed, [text], workers=1)
    shown = _in_chinese(refused.value)
    assert "而 基础分词器 没有对应它的词元" in shown and "the base tokenizer" not in shown, shown


@pytest.mark.parametrize(
    ("merges", "shown_part"),
    [
        (["h e", "Ġ he", "l lo"], "vocab.json"),
        (["h e l"], '"a b"'),
        (["中 文"], "GPT-2"),
    ],
)
def test_a_merge_list_that_cannot_be_read_is_refused_in_chinese(qapp, tmp_path, merges, shown_part):
    import json

    path = tmp_path / "merges.json"
    path.write_text(json.dumps({"merges": merges}), encoding="utf-8")
    shown = _refused_in_chinese(path)
    assert "merges.json" in shown and shown_part in shown and re.search(r"[\u4e00-\u9fff]{4}", shown), shown
