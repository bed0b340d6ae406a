"""The Chinese app says core's errors in Chinese where the user meets them: damaged files opened as a
user opens them (the same file, line and values as core's English), a damaged session, a format an
export leaves out, the training engine's death."""

from __future__ import annotations

import json
import re

import pytest

from bpe_gui.text import i18n
from bpe_gui.text.errors import error_text
from core.errors import BPEError
from core.units import plurals

from .gui_helpers import import_tokenizer
from .test_core_text import _in_chinese, _same_facts

tokenizers = pytest.importorskip("tokenizers")


@pytest.fixture
def chinese(qapp):
    assert i18n.install("zh_CN") == "zh_CN"
    yield
    i18n.install("en")


def _good(tmp_path):
    from core.formats import export_all
    from core.formats.spec import TokenizerSpec

    spec = TokenizerSpec.from_merges([(b" ", b"t"), (b"h", b"e"), (b" t", b"he")], ["<|endoftext|>"])
    good = tmp_path / "good"
    export_all(good, spec, ["gpt2", "tiktoken", "native", "hf"])
    return good


def _hf_with(good, **changes) -> str:
    data = json.loads((good / "tokenizer.json").read_text(encoding="utf-8"))
    data.update(changes)
    return json.dumps(data)


def _native_line(good, starts: str, old: str, new: str) -> str:
    """bpe.json with ``old`` replaced by ``new`` on the first line starting with ``starts``."""
    lines = (good / "bpe.json").read_text(encoding="utf-8").splitlines()
    i = next(k for k, line in enumerate(lines) if line.strip().startswith(starts))
    assert old in lines[i]
    lines[i] = lines[i].replace(old, new)
    return "\n".join(lines) + "\n"


CASES = {
    # a BERT tokenizer.json's normalizer, a pre-tokenizer and post-processor HF has but we do not
    "hf_normalizer_unsupported": lambda g: {
        "tokenizer.json": _hf_with(g, normalizer={"type": "BertNormalizer", "lowercase": True})
    },
    "hf_pretokenizer_unsupported": lambda g: {
        "tokenizer.json": _hf_with(g, pre_tokenizer={"type": "UnicodeScripts"})
    },
    "hf_post_unsupported": lambda g: {"tokenizer.json": _hf_with(g, post_processor={"type": "Frobnicate"})},
    "hf_not_byte_level": lambda g: {"tokenizer.json": _hf_with(g, pre_tokenizer={"type": "Whitespace"})},
    "hf_dropout": lambda g: {
        "tokenizer.json": (g / "tokenizer.json").read_text().replace('"dropout": null', '"dropout": 0.1', 1)
    },
    # bpe.json edited by hand: a bad base64 token, an id twice, a newer version, a merge of unknown ids
    "native_base64": lambda g: {"bpe.json": _native_line(g, "[97,", '"YQ=="', '"!!a"')},
    "native_id_repeated": lambda g: {"bpe.json": _native_line(g, "[98,", "[98,", "[97,")},
    "native_newer": lambda g: {
        "bpe.json": (g / "bpe.json").read_text().replace('"version": 1', '"version": 9', 1)
    },
    "native_merge_id": lambda g: {"bpe.json": _native_line(g, "[32, 116]", "[32, 116]", "[32, 99999]")},
    # train_bpe's vocab saved with json.dump (ids as keys): it was "a JSON file of no known kind"
    "gpt2_vocab_ids_to_tokens": lambda g: {"vocab.json": json.dumps({"0": "a", "1": "b", "256": "ab"})},
    # a folder holding no tokenizer file at all
    "folder_no_tokenizer": lambda g: {"notes.md": "my notes"},
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_a_damaged_file_opened_in_the_chinese_app_is_refused_in_chinese(qtbot, window, tmp_path, code):
    folder = tmp_path / code
    folder.mkdir()
    for name, text in CASES[code](_good(tmp_path)).items():
        (folder / name).write_text(text, encoding="utf-8")
    picked = folder if code == "folder_no_tokenizer" else folder / next(iter(CASES[code](_good(tmp_path))))
    from bpe_gui.model.files import load_tokenizer

    with pytest.raises(BPEError) as refused:
        load_tokenizer([picked])
    english = str(refused.value)
    assert refused.value.code == code, english
    shown = _in_chinese(refused.value)
    assert str(picked) in shown, shown
    _same_facts(english, shown, str(refused.value.params.get("detail", "")))
    for line in re.findall(r"line (\d+)", english):  # the line core names
        assert f"第 {line} 行" in shown, shown

    # and in the app: the dialog's text (the controller's error signal) is that Chinese text
    c = window.controller
    errors: list[str] = []
    c.error.connect(errors.append)
    try:
        i18n.install("zh_CN")
        with qtbot.waitSignal(c.error, timeout=30_000):
            c.import_tokenizer(str(picked))
    finally:
        i18n.install("en")
    assert errors[-1] == shown


def test_a_damaged_session_is_refused_in_chinese(qtbot, window, tmp_path):
    # (open_session showed core's English sentence in the Chinese app, even for a newer version)
    from core.formats.session import save_session
    from core.formats.spec import TokenizerSpec

    path = save_session(tmp_path / "s.bpe.json", TokenizerSpec.from_merges([(b"a", b"b")]))
    data = json.loads(path.read_text(encoding="utf-8"))
    errors: list[str] = []
    window.controller.error.connect(errors.append)
    for change, words in [
        ({"vocab_target": "500"}, ["session.vocab_target", "类型不对", "str"]),
        ({"version": 97}, ["97", "升级"]),
        ({"step_n": 0}, ["session.step_n", "0", "2^31-1"]),
    ]:
        path.write_text(json.dumps({**data, "session": {**data["session"], **change}}), encoding="utf-8")
        try:
            i18n.install("zh_CN")
            assert window.open_session(str(path)) is False
        finally:
            i18n.install("en")
        shown = errors[-1]
        assert shown.startswith(f"{path}：") and all(w in shown for w in words), shown
        assert not re.search(r"[A-Za-z]+ [a-z]+ [a-z]+", shown), shown  # no English sentence left


def test_a_format_the_export_leaves_out_is_named_in_chinese(qtbot, window, tmp_path):
    """A single-byte special token ('|') cannot be keyed by its text in vocab.json / tokenizer.json: those
    formats are left out and the reason was core's English after the Chinese sentence."""
    from core.formats import export_all
    from core.formats.spec import TokenizerSpec

    export_all(tmp_path / "src", TokenizerSpec.from_merges([(b"h", b"e")], ["|"]), "native")
    c = window.controller
    import_tokenizer(qtbot, c, str(tmp_path / "src" / "bpe.json"))
    errors: list[str] = []
    c.error.connect(errors.append)
    try:
        i18n.install("zh_CN")
        written = c.export(str(tmp_path / "out"), ["gpt2", "native"])
    finally:
        i18n.install("en")
    assert written and (tmp_path / "out" / "bpe.json").exists()
    why = errors[-1].split("\n", 1)[1]
    assert why.startswith("• gpt2: ID ") and "是同一个词元 b'|'" in why and "vocab.json" in why, why


@pytest.mark.parametrize(
    "exit_code, words",
    [(-9, ["SIGKILL", "内存不足"]), (-15, ["SIGTERM"]), (3, ["退出码 3"]), (None, ["退出码未知"])],
)
def test_the_engines_death_is_said_in_chinese(qapp, chinese, exit_code, words):
    from bpe_gui.jobs.worker import JobResult
    from core.engine.client import EngineDied

    died = EngineDied("the training engine stopped unexpectedly", code="engine_died", exit_code=exit_code)
    shown = JobResult(error=died).error_message
    assert shown is not None and shown.startswith("训练引擎意外停止（"), shown
    assert all(w in shown for w in words) and "请重新打开" in shown, shown


def test_an_error_inside_another_is_said_in_chinese_too(qapp):
    """The engine could not start because its process could not: both in Chinese."""
    from core.engine.client import EngineDied
    from core.workers.procs import ChildError

    cause = ChildError(
        "x", code="child_start_exit", name="bpe-engine", exit_code=1, python="/usr/bin/python3"
    )
    shown = _in_chinese(EngineDied("y", code="engine_start_failed", cause=cause))
    assert shown.startswith("训练引擎无法启动：无法启动 bpe-engine 进程（退出码 1）"), shown
    assert error_text(EngineDied("y", code="engine_start_failed", cause=cause)) == plurals("y")


def test_a_counts_file_opens_in_the_app_and_a_damaged_one_is_refused_in_chinese(qtbot, window, tmp_path):
    """File → Open corpus offers "Counts files (*.parquet)", but the quick look at the file's start took
    the Parquet file for a binary one and refused every counts file."""
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    from core.scale.counts import count_files
    from core.scale.counts_io import write_counts

    corpus = tmp_path / "c.txt"
    corpus.write_text("the cat sat on the mat " * 20, encoding="utf-8")
    good = write_counts(count_files([corpus], ["<|endoftext|>"], workers=1), tmp_path / "counts.parquet")
    c = window.controller
    with qtbot.waitSignal(c.corpus_loaded, timeout=60_000):
        assert window.load_corpus_confirmed(str(good))
    assert c.model.has_trainer

    bad = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"token": [b"the", b" cat"], "cnt": [3, 4]}), bad)
    errors: list[str] = []
    c.error.connect(errors.append)
    try:
        i18n.install("zh_CN")
        with qtbot.waitSignal(c.error, timeout=60_000):
            window.load_corpus_confirmed(str(bad))
    finally:
        i18n.install("en")
    assert errors[-1].startswith(f"{bad} 缺少列 count"), errors[-1]
    assert "first_file" in errors[-1] and "计数文件" in errors[-1]


def test_a_pipeline_part_of_a_bpe_json_is_named_in_chinese(qapp, tmp_path):
    """An imported tokenizer.json's pipeline kept in bpe.json, edited to a normalizer we do not reproduce:
    named as for tokenizer.json (it was a Chinese sentence around core's English detail)."""
    from core.errors import FormatError
    from core.formats import load_any

    data = json.loads((_good(tmp_path) / "bpe.json").read_text(encoding="utf-8"))
    data["pipeline"] = {"normalizer": {"type": "BertNormalizer", "lowercase": True}}
    path = tmp_path / "bpe.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError, match="BertNormalizer") as refused:
        load_any(path)
    assert refused.value.code == "hf_normalizer_unsupported"
    shown = _in_chinese(refused.value)
    assert shown.startswith(f"{path}：不支持规范化器 'BertNormalizer'（支持：NFC、"), shown
