"""``bpe-explorer eval``'s table: 100 columns, whitespace as the app shows it, no Pile estimate from a
sample too small to time (issue 28)."""

from __future__ import annotations

import json

import pytest

from core import Trainer
from core.cli import main
from core.cli.eval import WIDTH, shown
from core.formats import export_all

TEXT = "the cat sat on the mat.\n\nthe dog sat on the log.\n\n" * 40


@pytest.fixture
def tok(tmp_path):
    corpus = tmp_path / "train.txt"
    corpus.write_text(TEXT, encoding="utf-8")
    t = Trainer.from_file(corpus, ["<|endoftext|>"])
    t.run(300)
    folder = tmp_path / ("a_tokenizer_folder_with_a_rather_long_name_" * 2)
    export_all(folder, t, ["native"])
    return folder


def test_the_table_fits_100_columns_and_shows_whitespace_with_markers(tok, tmp_path, capsys):
    text = tmp_path / ("a_text_file_whose_name_alone_is_longer_than_a_column_" * 2 + ".txt")
    text.write_text(TEXT, encoding="utf-8")
    out = tmp_path / "r.json"
    assert main(["eval", "--tokenizer", str(tok), str(text), "--json", str(out), "-q", "--workers", "1"]) == 0
    stdout = capsys.readouterr().out
    lines = stdout.splitlines()
    assert all(len(line) <= WIDTH for line in lines), [len(line) for line in lines]
    longest = stdout.split("longest tokens of")[1]
    assert "·the" in longest and "' the'" not in longest, longest
    assert "sample too small" in stdout and "days" not in stdout  # a 2 kB text is no base for the Pile
    record = json.loads(out.read_text(encoding="utf-8"))[0]  # --json keeps every figure
    assert {"documents", "tokens_per_doc_p95", "single_byte_share", "pile_hours"} <= record.keys()


def test_markers():
    assert shown(" a\tb\r\n") == "·a→b⇤↵"
    assert shown("x\x1b") == "x\\x1b"


def test_sampled_files_keep_their_names_in_the_table(tok, tmp_path, capsys):
    # --sample-docs names a text "FILE [N of M docs, seed S]"; cut to the column from its start,
    # every sampled file read "…cs, seed 0]" and the rows of two files could not be told apart
    files = []
    for name in ("alpha.txt", "beta.txt"):
        f = tmp_path / name
        f.write_text("<|endoftext|>".join([TEXT[:200]] * 5), encoding="utf-8")
        files.append(str(f))
    argv = ["eval", "--tokenizer", str(tok), *files, "--sample-docs", "2", "-q", "--workers", "1"]
    assert main(argv) == 0
    stdout = capsys.readouterr().out
    rows = stdout.splitlines()[1:3]
    assert rows[0].split()[1] == "alpha.txt" and rows[1].split()[1] == "beta.txt", rows
    assert "alpha.txt 2 of 5 docs (seed 0); beta.txt 2 of 5 docs (seed 0)" in " ".join(stdout.split())
    assert all(len(line) <= WIDTH for line in stdout.splitlines())
