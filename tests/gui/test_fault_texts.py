"""The new core errors that the app can show (issue 25) have Chinese texts."""

from __future__ import annotations

import gzip

import pytest

from bpe_gui.text import i18n
from bpe_gui.text.errors import error_text
from core.errors import CorpusError, SpecialTokenError
from core.pretokenization.pretokenize import check_special_tokens, count_pretokens
from core.pretokenization.read_watch import watch


def test_fault_errors_in_chinese(qapp, tmp_path):
    try:
        assert i18n.install("zh_CN") == "zh_CN"
        with pytest.raises(SpecialTokenError) as ei:
            check_special_tokens(["<\ud800>"])
        assert "孤立的代理码位" in error_text(ei.value)
        path = tmp_path / "c.txt.gz"
        path.write_bytes(gzip.compress(b"hello world " * 100))
        with pytest.raises(CorpusError) as ei2:
            count_pretokens(path, [], "gpt2")
        assert "gzip 压缩文件" in error_text(ei2.value)
        text = tmp_path / "t.txt"
        text.write_bytes(b"hello")
        w = watch(text)
        text.write_bytes(b"hello world")
        with pytest.raises(CorpusError) as ei3:
            w.check(5)
        shown = error_text(ei3.value)
        assert "在读取过程中发生了变化" in shown and "t.txt" in shown and "11" in shown
    finally:
        i18n.install("en")
