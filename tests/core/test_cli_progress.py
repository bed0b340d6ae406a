"""The CLI's merge bar ends at the merges really made when the corpus runs out of pairs."""

from __future__ import annotations

import re

from core.cli import main


def test_merge_bar_ends_at_the_real_count_when_pairs_run_out(tmp_path, capsys):
    corpus = tmp_path / "tiny.txt"
    corpus.write_text("ab ab ab cd cd", encoding="utf-8")  # 4 merges are possible, 43 are asked for
    assert main(["train", str(corpus), "--vocab-size", "300", "--out", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err.replace("\r", "\n")
    last = [line for line in err.splitlines() if line.startswith("merge")][-1]
    assert re.search(r"100%.*\b4/4\b", last), last
