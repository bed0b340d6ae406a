"""File → Extend this tokenizer: the app's tokenizer keeps its ids, new merges are learned on a
corpus in a worker, the files are written, and Open shows the extended tokenizer."""

from __future__ import annotations

from bpe_gui.dialogs.extend_dialog import ExtendDialog, open_extend
from core.formats import load_any
from core.tokenization.extend import extend_tokenizer
from core.tokenization.tokenizer import Tokenizer

from .gui_helpers import answer_next_dialog

OTHER = "def train(corpus):\n    return corpus.split()\n" * 30 + "我们的模型在中文文本上训练。" * 20


def test_extend_the_trained_tokenizer(qtbot, trained, tmp_path):
    w = trained
    c = w.controller
    base = c.tokenizer()
    corpus = tmp_path / "other.txt"
    corpus.write_text(OTHER, encoding="utf-8")
    w.act_extend.trigger()
    dlg = w.findChild(ExtendDialog)
    assert not dlg.run_button.isEnabled()
    dlg.set_corpus(str(corpus))
    dlg.set_out(str(tmp_path / "ext"))
    size = len(base.vocab) + 40
    dlg.vocab_size.setValue(size)
    with qtbot.waitSignal(dlg.finished_extend, timeout=60_000):
        assert dlg.run()
    assert dlg.last_error is None and dlg.outcome is not None
    before, after, merges, vocab_size, paths, skipped = dlg.outcome
    assert (merges, vocab_size, skipped) == (40, size, [])
    assert sorted(p.rsplit("/", 1)[-1] for p in paths) == [
        "bpe.json",
        "bpe.tiktoken",
        "merges.txt",
        "tokenizer.json",
        "vocab.json",
    ]
    got = load_any(tmp_path / "ext" / "bpe.json")
    want = extend_tokenizer(base, corpus, size)
    assert dict(got.vocab) == dict(want.vocab) and list(got.merges) == list(want.merges)
    assert all(got.vocab[i] == b for i, b in base.vocab.items())
    ext = Tokenizer.from_spec(got)
    assert len(ext.encode(OTHER)) == after < before == len(base.encode(OTHER))
    assert f"{after:,} with the extension" in dlg.summary.text()
    seen: list = []
    answer_next_dialog("Discard merges", seen=seen)  # the trained merges are not thrown away unasked
    with qtbot.waitSignal(c.tokenizer_loaded, timeout=30_000):
        assert dlg.open_result()
    assert seen  # (the question was asked)
    qtbot.waitUntil(lambda: not c.busy, timeout=30_000)
    assert c.index.n_merges == len(got.merges) and c.model.imported is not None
    assert c.index.merges[-1].count > 0  # the new merges keep their counts (bpe.json's record)
    dlg.close()


def test_cancel_writes_nothing(qtbot, trained, tmp_path):
    corpus = tmp_path / "big.txt"
    corpus.write_text(OTHER * 400, encoding="utf-8")
    dlg = open_extend(trained)
    dlg.set_corpus(str(corpus))
    dlg.set_out(str(tmp_path / "ext"))
    dlg.vocab_size.setValue(len(trained.controller.index.vocab) + 5000)
    with qtbot.waitSignal(dlg.finished_extend, timeout=60_000):
        assert dlg.run()
        dlg.cancel()
    assert dlg.outcome is None and not (tmp_path / "ext").exists()
    assert dlg.summary.text() == "Cancelled; nothing was written."
    dlg.close()


def test_extend_asks_before_replacing_another_tokenizers_files(qtbot, trained, tmp_path):
    """The outside tester's Extend replaced a folder's five files of another tokenizer silently."""
    w = trained
    corpus = tmp_path / "other.txt"
    corpus.write_text(OTHER, encoding="utf-8")
    out = tmp_path / "victim"
    out.mkdir()
    (out / "tokenizer.json").write_text("{}", encoding="utf-8")
    dlg = open_extend(w)
    dlg.set_corpus(str(corpus))
    dlg.set_out(str(out))
    dlg.vocab_size.setValue(len(w.controller.index.vocab) + 10)
    seen: list[str] = []
    answer_next_dialog("Cancel", seen=seen)
    assert not dlg.run() and not dlg.running
    assert "already holds tokenizer.json" in seen[0]
    assert (out / "tokenizer.json").read_text(encoding="utf-8") == "{}"
    answer_next_dialog("Replace")
    with qtbot.waitSignal(dlg.finished_extend, timeout=60_000):
        assert dlg.run()
    assert dlg.last_error is None and (out / "tokenizer.json").read_text(encoding="utf-8") != "{}"
    dlg.close()
