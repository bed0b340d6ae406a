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


def test_byte_bars_count_in_decimal_units_as_the_app_does(capsys):
    """A bar's "MB" is 1,000,000 bytes (it divided by 1024 and still said kB/MB)."""
    from core.cli.progress import make_bar

    for tty in (True, False):  # tqdm's bar on a terminal, lines in a log
        bar = make_bar("encode", "B", True, 8_000_000, tty=tty)
        bar.update(8_000_000)
        bar.close()
        err = capsys.readouterr().err.replace("\r", "\n")
        assert "8.00M/8.00M" in err, err


def test_a_log_gets_a_few_whole_lines_not_a_redrawn_bar(tmp_path, capsys):
    # (stderr to a file: tqdm's bar, redrawn five times a second, wrote thousands of \r-separated
    # updates into the log; a log gets a line per tenth of each phase)
    corpus = tmp_path / "c.txt"
    corpus.write_text("".join(f"w{i} x{i % 97} y{i % 89} " for i in range(20_000)), encoding="utf-8")
    assert main(["train", str(corpus), "--vocab-size", "600", "--out", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert "\r" not in err
    merge_lines = [line for line in err.splitlines() if line.startswith("merge:")]
    assert 2 <= len(merge_lines) <= 12, merge_lines
    assert re.match(r"merge: 100% 344/344 merges \[\d\d:\d\d:\d\d\]$", merge_lines[-1]), merge_lines
    assert [line for line in err.splitlines() if line.startswith("pre-tokenize:")][-1].startswith(
        "pre-tokenize: 100%"
    )
