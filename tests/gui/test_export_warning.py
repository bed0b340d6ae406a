"""Exporting an imported tokenizer whose HF pipeline GPT-2/tiktoken files cannot hold: the app warns,
naming what would be lost, and writes only when the user says so."""

from __future__ import annotations

import pytest

from .gui_helpers import answer_next_dialog

tokenizers = pytest.importorskip("tokenizers")


@pytest.fixture
def imported(qtbot, window, tmp_path):
    from tokenizers import decoders, normalizers, pre_tokenizers
    from tokenizers.models import BPE
    from tokenizers.trainers import BpeTrainer

    hf = tokenizers.Tokenizer(BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.decoder = decoders.ByteLevel()
    hf.train_from_iterator(
        ["Café résumé naïve, the cat sat on the mat"] * 20,
        BpeTrainer(vocab_size=300, show_progress=False, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()),
    )
    hf.normalizer = normalizers.NFC()
    path = tmp_path / "in" / "tokenizer.json"
    path.parent.mkdir()
    hf.save(str(path))
    with qtbot.waitSignal(window.controller.merges_reset):
        assert window.controller.import_tokenizer(path)
    return window


def test_the_controller_names_the_losses_and_refuses_without_consent(imported, tmp_path):
    from bpe_gui.dialogs.export_dialog import lossy_export_text

    c = imported.controller
    lost = c.export_losses(["gpt2", "hf", "tiktoken", "native"])
    assert list(lost) == ["gpt2", "tiktoken"] and lost["gpt2"] == ["the normalizer (NFC)"]
    text = lossy_export_text(lost)
    assert "GPT-2 files (vocab.json + merges.txt): the normalizer (NFC)" in text
    assert "tiktoken (bpe.tiktoken): the normalizer (NFC)" in text
    errors: list[str] = []
    c.error.connect(errors.append)
    assert c.export(tmp_path / "out", ["gpt2"]) is None
    assert "cannot hold the normalizer (NFC)" in errors[-1] and not (tmp_path / "out" / "vocab.json").exists()
    assert [p.name for p in c.export(tmp_path / "out", ["gpt2"], lossy=True)] == ["vocab.json", "merges.txt"]


@pytest.mark.parametrize("answer", ["Export anyway", "Cancel"])
def test_the_export_action_asks_first(imported, tmp_path, monkeypatch, answer):
    from bpe_gui.window import files as window_module

    folder = tmp_path / "exported"
    monkeypatch.setattr(window_module.ExportDialog, "exec", lambda self: 1)
    monkeypatch.setattr(window_module.ExportDialog, "chosen_folder", lambda self: folder)
    seen: list[str] = []
    answer_next_dialog(answer, seen=seen)
    assert imported.export_dialog() is (answer == "Export anyway")
    assert "cannot hold everything this tokenizer does" in seen[0] and "normalizer (NFC)" in seen[0]
    names = sorted(p.name for p in folder.iterdir()) if folder.exists() else []
    want = [
        ".bpe-explorer-export.json",
        "bpe.json",
        "bpe.tiktoken",
        "merges.txt",
        "tokenizer.json",
        "vocab.json",
    ]
    assert names == (want if answer == "Export anyway" else [])


def test_a_trained_tokenizer_exports_without_asking(qtbot, loaded, tmp_path):
    c = loaded.controller
    with qtbot.waitSignal(c.trained, timeout=60_000):
        c.train(300)
    assert c.export_losses(["gpt2", "tiktoken"]) == {}


def test_a_pattern_the_files_cannot_store_is_named_before_export(qtbot, window, tmp_path):
    """cl100k exported to GPT-2 files said only 'Exported 5 files': read back, they split text with
    GPT-2's pattern, so the ids differ. The pattern is named among what those formats lose."""
    from bpe_gui.dialogs.export_dialog import lossy_export_text
    from core import Tokenizer
    from core.formats import export_all

    from .gui_helpers import import_tokenizer

    t = Tokenizer({i: bytes([i]) for i in range(256)} | {256: b"ab"}, [(b"a", b"b")], [], pattern="gpt4")
    export_all(tmp_path / "in", t, "native")
    c = window.controller
    import_tokenizer(qtbot, c, tmp_path / "in" / "bpe.json")
    lost = c.export_losses(["gpt2", "hf", "tiktoken", "native"])
    assert lost == {f: ["the pattern (gpt4; readers assume GPT-2's)"] for f in ("gpt2", "tiktoken")}
    assert "GPT-2 files (vocab.json + merges.txt): the pattern (gpt4; readers assume GPT-2's)" in (
        lossy_export_text(lost)
    )
    assert c.export_losses(["hf", "native"]) == {}


def test_a_gpt2_pattern_session_exports_without_a_question(trained):
    assert trained.controller.export_losses(["gpt2", "hf", "tiktoken", "native"]) == {}


def test_an_imported_pipelines_own_pattern_is_named_before_export(qtbot, window, tmp_path):
    """A tokenizer.json with a pipeline (Qwen2.5, Llama 3, DeepSeek: a Split regex, then ByteLevel; a
    tekken file likewise) exported to GPT-2 or tiktoken files: the normalizer was named, the pattern
    was not (the files were written without a word and, read back, split text with GPT-2's pattern)."""
    from tokenizers import Regex, normalizers, pre_tokenizers

    from core import Tokenizer
    from core.formats import load_any

    from .gui_helpers import import_tokenizer

    byte_chars = sorted(pre_tokenizers.ByteLevel.alphabet())
    hf = tokenizers.Tokenizer(tokenizers.models.BPE(dict(zip(byte_chars, range(256))), []))
    qwen_like = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
    hf.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(qwen_like), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    path = tmp_path / "plain" / "tokenizer.json"
    path.parent.mkdir()
    hf.save(str(path))
    assert Tokenizer.from_spec(load_any(path)).pattern_regex == qwen_like
    c = window.controller
    import_tokenizer(qtbot, c, path)
    pattern = f"the pattern ({qwen_like[:40]}…; readers assume GPT-2's)"
    assert c.export_losses(["gpt2", "hf", "tiktoken", "native"]) == {"gpt2": [pattern], "tiktoken": [pattern]}
    hf.normalizer = normalizers.NFC()
    nfc = tmp_path / "nfc" / "tokenizer.json"
    nfc.parent.mkdir()
    hf.save(str(nfc))
    import_tokenizer(qtbot, c, nfc)
    both = ["the normalizer (NFC)", pattern]
    assert c.export_losses(["gpt2", "hf", "tiktoken", "native"]) == {"gpt2": both, "tiktoken": both}
    assert c.export_losses(["hf", "native"]) == {}


def test_a_special_token_that_is_not_utf8_is_named_before_export_in_english_and_chinese(qapp):
    """A trained tokenizer with a byte-exact special token of a non-UTF-8 corpus: tokenizer.json and
    tiktoken cannot hold it as a special token (HF could not even read the file written)."""
    from bpe_gui.dialogs.export_dialog import lossy_export_text
    from bpe_gui.model.files import export_losses
    from bpe_gui.text import i18n
    from core import Tokenizer

    special = b"\xed\xa0\x80".decode("utf-8", "surrogateescape")
    t = Tokenizer({i: bytes([i]) for i in range(256)} | {256: b"\xed\xa0\x80"}, [], [special])
    lost = export_losses(t, ["gpt2", "hf", "tiktoken", "native"])
    assert list(lost) == ["hf", "tiktoken"]
    assert lost["hf"] == [
        r"1 special token(s) whose bytes are not UTF-8 (b'\xed\xa0\x80' (id 256); only vocab.json + "
        "merges.txt and bpe.json hold them as special tokens)"
    ]
    text = lossy_export_text(lost)
    assert r"1 special token whose bytes are not UTF-8 (b'\xed\xa0\x80' (id 256)" in text
    assert text.endswith("The native bpe.json keeps all of it.")
    # tiktoken alone chosen: tokenizer.json is not said to keep it (it cannot either)
    only = lossy_export_text(export_losses(t, ["tiktoken"]))
    assert only.endswith("The native bpe.json keeps all of it.") and "tokenizer.json and" not in only
    try:
        i18n.install("zh_CN")
        text = lossy_export_text(lost)
        assert r"1 个字节不是 UTF-8 的特殊标记（b'\xed\xa0\x80' (id 256)；只有 vocab.json" in text
        assert text.endswith("原生 bpe.json 会完整保留这些内容。")
    finally:
        i18n.install("en")


def test_the_merge_order_check_is_made_by_the_import_not_by_the_export_dialog(
    qtbot, window, tmp_path, monkeypatch
):
    """Whether tiktoken would follow a tokenizer.json's merge list takes about a second for 150k
    tokens: it ran on the GUI thread when the Export dialog asked for the losses. The import's job
    makes it; the dialog finds it kept."""
    from core.formats import export_all, rank_order
    from core.formats.spec import TokenizerSpec

    from .gui_helpers import import_tokenizer

    spec = TokenizerSpec.from_merges([(b"a", b"b"), (b"ab", b"c"), (b"x", b"y")], ["<|endoftext|>"])
    export_all(tmp_path, spec, ["hf"])
    import_tokenizer(qtbot, window.controller, str(tmp_path / "tokenizer.json"))
    qtbot.waitUntil(lambda: not window.controller.busy)
    calls = []
    real = rank_order._find_example
    monkeypatch.setattr(rank_order, "_find_example", lambda s: calls.append(s) or real(s))
    assert "tiktoken" not in window.controller.export_losses(["gpt2", "hf", "tiktoken", "native"])
    assert calls == []  # (found kept: checked by the import)
