"""Evaluation figures, each checked against tiktoken / HF tokenizers and plain Python in the test."""

from __future__ import annotations

import base64
import csv
import hashlib
import json

import pytest

from core.errors import Cancelled, CorpusError, FormatError
from core.evaluation.evaluate import EvalText, count_documents, evaluate, sample_documents
from core.evaluation.known_encodings import load_eval_tokenizer
from core.formats import export_all
from core.tokenization.tokenizer import Tokenizer

from .tok_corpus import EOT, make_corpus, trained_spec

tiktoken = pytest.importorskip("tiktoken")
tokenizers = pytest.importorskip("tokenizers")

GPT2_PAT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def _ranks(path) -> dict[bytes, int]:
    """Read a .tiktoken file by hand (base64 token, rank)."""
    out = {}
    for line in path.read_text().splitlines():
        if line.strip():
            tok, rank = line.split()
            out[base64.b64decode(tok)] = int(rank)
    return out


def _pct(values: list[int], q: float) -> float:
    """Linear-interpolation percentile written out."""
    s = sorted(values)
    pos = (len(s) - 1) * q / 100
    lo = int(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    spec = trained_spec()
    folder = tmp_path_factory.mktemp("tok")
    export_all(folder, spec)
    ranks = _ranks(folder / "bpe.tiktoken")
    eot = max(i for i, b in spec.vocab.items() if b == EOT.encode())
    tk = tiktoken.Encoding("t", pat_str=GPT2_PAT, mergeable_ranks=ranks, special_tokens={EOT: eot})
    hf = tokenizers.Tokenizer.from_file(str(folder / "tokenizer.json"))
    return folder, tk, hf


TEXT = make_corpus(3000, seed=5) + "Ünïcödé 日本語 🙃" + EOT + EOT + "tail words"


def _check_against_tiktoken(r, text: str, tk, hf) -> None:
    ids = tk.encode(text, allowed_special="all")
    assert r.tokens == len(ids) == len(hf.encode(text).ids)
    assert r.bytes == len(text.encode("utf-8")) and r.chars == len(text)
    docs = [d for d in text.split(EOT) if d]
    doc_lens = [len(tk.encode(d)) for d in docs]
    assert r.documents == len(docs)
    assert list(r.doc_tokens) == doc_lens
    assert r.tokens_per_doc_mean == pytest.approx(sum(doc_lens) / len(doc_lens))
    assert r.tokens_per_doc_p50 == pytest.approx(_pct(doc_lens, 50))
    assert r.tokens_per_doc_p95 == pytest.approx(_pct(doc_lens, 95))
    assert r.bytes_per_token == pytest.approx(len(text.encode()) / len(ids))
    assert r.chars_per_token == pytest.approx(len(text) / len(ids))
    assert r.vocab_size == tk.n_vocab
    assert r.vocab_used == len(set(ids)) and r.never_used == tk.n_vocab - len(set(ids))
    one = [i for i in ids if i != tk.eot_token and len(tk.decode_single_token_bytes(i)) == 1]
    assert r.single_byte_share == pytest.approx(len(one) / len(ids))
    high = [i for i in one if tk.decode_single_token_bytes(i)[0] >= 0x80]
    assert r.byte_fallback_share == pytest.approx(len(high) / len(ids))
    longest = sorted(tk._mergeable_ranks.items(), key=lambda kv: (-len(kv[0]), kv[1]))[:20]
    assert [(t.id, t.n_bytes, t.count) for t in r.longest] == [(i, len(b), ids.count(i)) for b, i in longest]
    assert [t.text for t in r.longest] == [b.decode("utf-8", "backslashreplace") for b, _ in longest]
    assert r.mb_per_s > 0 and r.mb_per_s_one_process > 0
    assert r.pile_hours * 3600 * r.mb_per_s * 1e6 == pytest.approx(825e9)
    assert r.counts[ids[0]] == ids.count(ids[0])


@pytest.mark.parametrize("workers", [1, 2])
def test_every_figure_matches_tiktoken_and_hf(exported, tmp_path, workers):
    folder, tk, hf = exported
    f = tmp_path / "t.txt"
    f.write_bytes(TEXT.encode("utf-8"))
    tok = Tokenizer.from_spec(load_eval_tokenizer(folder))
    # small blocks and no single-process shortcut: the pool path, documents spanning blocks
    (r,) = evaluate(
        [("mine", tok)], [EvalText.from_file(f)], workers=workers, block_bytes=700, single_process_bytes=0
    )
    assert r.workers == workers and r.tokenizer == "mine" and r.file == str(f)
    _check_against_tiktoken(r, TEXT, tk, hf)


def test_two_tokenizers_two_texts_in_order(exported, tmp_path):
    folder, tk, hf = exported
    texts = [make_corpus(500, seed=1), "short" + EOT + "text"]
    files = []
    for n, t in enumerate(texts):
        files.append(tmp_path / f"{n}.txt")
        files[-1].write_text(t, encoding="utf-8", newline="")
    tok = Tokenizer.from_spec(load_eval_tokenizer(folder))
    bytes_tok = Tokenizer.from_spec(load_eval_tokenizer(folder).__class__.from_merges([], [EOT]))
    res = evaluate(
        [("a", tok), ("b", bytes_tok)],
        [EvalText.from_file(p) for p in files],
        workers=2,
        block_bytes=300,
        single_process_bytes=0,
    )
    assert [(r.tokenizer, r.file) for r in res] == [
        ("a", str(files[0])),
        ("b", str(files[0])),
        ("a", str(files[1])),
        ("b", str(files[1])),
    ]
    _check_against_tiktoken(res[0], texts[0], tk, hf)
    _check_against_tiktoken(res[2], texts[1], tk, hf)
    for r, t in ((res[1], texts[0]), (res[3], texts[1])):  # bytes only: one token per byte, EOT one token
        n_eot = t.count(EOT)
        assert r.tokens == len(t.encode()) - n_eot * (len(EOT) - 1)
        assert r.single_byte_share == pytest.approx((r.tokens - n_eot) / r.tokens)


def test_split_token_that_is_not_special_is_text(exported):
    folder, tk, _ = exported
    spec = load_eval_tokenizer(folder)
    no_special = Tokenizer(
        {i: b for i, b in spec.vocab.items() if b != EOT.encode()}, spec.merges, pattern=spec.pattern
    )
    text = "the cat<|sep|>sat on<|sep|><|sep|>the mat"
    (r,) = evaluate([("x", no_special)], [EvalText.from_bytes("t", text.encode())], split_on="<|sep|>")
    ids = tk.encode_ordinary(text)  # as tiktoken encodes it: the separator is ordinary text
    assert r.tokens == len(ids) and r.vocab_used == len(set(ids)) and r.vocab_size == len(no_special.vocab)
    assert r.documents == 3 and r.doc_tokens == ()
    assert r.tokens_per_doc_mean == pytest.approx(len(ids) / 3)
    assert r.tokens_per_doc_p50 is None and r.tokens_per_doc_p95 is None


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 64])
def test_count_documents_across_chunks(chunk):
    data = b"||a|||b||||c||d" + b"e" * 7 + b"||"
    want = len([p for p in data.split(b"||") if p])
    assert count_documents(EvalText.from_bytes("t", data), b"||", chunk_bytes=chunk) == want


def test_no_split_token_is_one_document(exported):
    folder, tk, _ = exported
    tok = Tokenizer.from_spec(load_eval_tokenizer(folder))
    (r,) = evaluate([("x", tok)], [EvalText.from_bytes("t", TEXT.encode())], split_on=None)
    assert r.documents == 1 and r.doc_tokens == (len(tk.encode(TEXT, allowed_special="all")),)


def test_invalid_utf8_bytes_are_counted(exported):
    folder, _, _ = exported
    tok = Tokenizer.from_spec(load_eval_tokenizer(folder))
    data = b"caf\xc3\xa9 \xff\xfe ok"
    (r,) = evaluate([("x", tok)], [EvalText.from_bytes("t", data)])
    assert r.bytes == len(data) and r.chars == len("café") + 1 + 2 + 3
    assert r.byte_fallback_share > 0  # \xff and \xfe are single raw bytes


def test_sample_documents_is_reproducible(tmp_path):
    docs = [f"document number {i} " * (i % 7 + 1) for i in range(50)]
    f = tmp_path / "c.txt"
    f.write_text(EOT.join(docs), encoding="utf-8")
    a = sample_documents(f, 10, seed=3)
    assert a.data == sample_documents(f, 10, seed=3).data
    assert a.data != sample_documents(f, 10, seed=4).data
    picked = a.data.decode().split(EOT)
    assert len(picked) == 10 and set(picked) <= set(docs)
    assert [docs.index(d) for d in picked] == sorted(docs.index(d) for d in picked)
    assert sample_documents(f, 500).data == f.read_bytes()
    with pytest.raises(CorpusError, match="at least 1"):
        sample_documents(f, 0)


@pytest.mark.parametrize("workers", [1, 2])
def test_cancel(exported, workers):
    folder, _, _ = exported
    tok = Tokenizer.from_spec(load_eval_tokenizer(folder))
    seen = []

    def progress(phase, done, total):
        seen.append((phase, done, total))
        return False

    with pytest.raises(Cancelled):
        evaluate(
            [("x", tok)],
            [EvalText.from_bytes("t", TEXT.encode())],
            workers=workers,
            block_bytes=500,
            single_process_bytes=0,
            progress=progress,
        )
    assert seen and seen[0][0] == "evaluate" and seen[0][2] == len(TEXT.encode())


def test_known_encoding_from_tiktoken_cache(tmp_path, monkeypatch):
    spec = trained_spec()
    ranks = "".join(f"{base64.b64encode(b).decode()} {i}\n" for i, b in spec.ordinary_tokens().items())
    url = "https://openaipublic.blob.core.windows.net/encodings/r50k_base.tiktoken"
    (tmp_path / hashlib.sha1(url.encode()).hexdigest()).write_text(ranks)
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    got = load_eval_tokenizer("r50k_base")
    assert got.special_ids == {EOT: 50256} and got.pattern == "gpt2"
    assert got.ordinary_tokens() == spec.ordinary_tokens()
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "empty"))
    with pytest.raises(FormatError, match=r"cl100k_base.tiktoken.*--tokenizer"):
        load_eval_tokenizer("cl100k_base")
    named = tmp_path / "cl100k_base.tiktoken"
    named.write_text(ranks)
    got = load_eval_tokenizer(named)
    assert got.pattern == "gpt4" and got.special_ids[EOT] == 100257
    with pytest.raises(FormatError, match="neither a file or folder nor a known encoding"):
        load_eval_tokenizer("nonsense-name")


# ---------------------------------------------------------------- the command
def test_cli_json_csv_and_table(exported, tmp_path, capsys):
    from core.cli import main

    folder, tk, _hf = exported
    f = tmp_path / "t.txt"
    f.write_bytes(TEXT.encode())
    out_json, out_csv = tmp_path / "r.json", tmp_path / "r.csv"
    rc = main(
        [
            "eval",
            "--tokenizer",
            str(folder),
            "--tokenizer",
            str(folder / "bpe.json"),
            str(f),
            "--json",
            str(out_json),
            "--csv",
            str(out_csv),
            "-q",
            "--workers",
            "1",
        ]
    )
    assert rc == 0
    stdout = capsys.readouterr().out
    assert "B/tok" in stdout and "longest tokens of" in stdout
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert len(data) == 2
    n = len(tk.encode(TEXT, allowed_special="all"))
    for d in data:
        assert d["tokens"] == n and d["bytes"] == len(TEXT.encode()) and d["chars"] == len(TEXT)
        assert d["documents"] == len([x for x in TEXT.split(EOT) if x])
        assert d["bytes_per_token"] == pytest.approx(len(TEXT.encode()) / n)
        assert d["vocab_used"] == len(set(tk.encode(TEXT, allowed_special="all")))
        assert len(d["longest"]) == 20 and d["mb_per_s"] > 0 and d["file"] == str(f)
    rows = list(csv.DictReader(out_csv.read_text(encoding="utf-8").splitlines()))
    assert [r["tokenizer"] for r in rows] == [str(folder), str(folder / "bpe.json")]
    assert int(rows[0]["tokens"]) == n


def test_cli_sample_docs(exported, tmp_path, capsys):
    from core.cli import main

    folder, tk, _ = exported
    docs = [f"doc {i} " + "word " * i for i in range(30)]
    f = tmp_path / "c.txt"
    f.write_text(EOT.join(docs), encoding="utf-8")
    out = tmp_path / "r.json"
    assert (
        main(
            [
                "eval",
                "--tokenizer",
                str(folder),
                str(f),
                "--sample-docs",
                "5",
                "--seed",
                "7",
                "--json",
                str(out),
                "-q",
            ]
        )
        == 0
    )
    (d,) = json.loads(out.read_text(encoding="utf-8"))
    assert d["documents"] == 5 and "5 of 30 docs, seed 7" in d["file"]
    text = sample_documents(f, 5, 7).data.decode()
    assert d["tokens"] == len(tk.encode(text, allowed_special="all"))


@pytest.mark.parametrize(
    "args, message",
    [
        (["--tokenizer", "no-such-tokenizer", "{f}"], "neither a file or folder nor a known encoding"),
        (["--tokenizer", "{tok}", "{f}.missing"], "does not exist"),
        (["--tokenizer", "{tok}", "{f}", "--sample-docs", "0"], "at least 1 document"),
    ],
)
def test_cli_user_errors(exported, tmp_path, capsys, args, message):
    from core.cli import main

    f = tmp_path / "t.txt"
    f.write_text("hello")
    argv = ["eval", *(a.format(f=f, tok=exported[0]) for a in args), "-q"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("bpe-explorer: error: ") and message in err[0]


def test_ids_above_65535_in_the_pool():
    vocab = {i: bytes([i]) for i in range(256)} | {70_000: EOT.encode()}
    tok = Tokenizer(vocab, [], [EOT])
    text = ("ab" + EOT) * 300 + "c"
    (r,) = evaluate(
        [("big", tok)],
        [EvalText.from_bytes("t", text.encode())],
        workers=2,
        block_bytes=200,
        single_process_bytes=0,
    )
    assert r.tokens == 2 * 300 + 300 + 1 and r.documents == 301
    assert r.counts[70_000] == 300 and r.vocab_used == 4 and r.vocab_size == 257


@pytest.mark.parametrize("workers", [1, 2])
def test_custom_pattern_text_is_cut_into_blocks_and_counted_exactly(workers):
    from collections import Counter

    from core.evaluation.evaluate import _blocks
    from core.formats.spec import TokenizerSpec
    from core.training.trainer import Trainer

    pattern = r"\s+(?!\S)|\s+|[A-Za-z]+|[0-9]{1,2}|[^\sA-Za-z0-9]+"
    text = "".join(f"word{i % 37}  and {i}, again;\n" for i in range(200))  # no special token anywhere
    trainer = Trainer.from_text(text, [], pattern=pattern)
    trainer.run(300)
    tok = Tokenizer.from_spec(TokenizerSpec.from_merges(trainer.merges, [], pattern=pattern))
    t = EvalText.from_bytes("t", text.encode())
    blocks = list(_blocks(t, tok, 64))
    assert len(blocks) > 20 and b"".join(blocks) == text.encode()  # cut by the pattern, not at specials only
    (r,) = evaluate([("custom", tok)], [t], workers=workers, block_bytes=64, single_process_bytes=0)
    ids = tok.encode(text)
    assert r.tokens == len(ids)
    assert {i: int(n) for i, n in enumerate(r.counts) if n} == dict(Counter(ids))


def test_a_text_too_small_to_time_gives_no_pile_estimate(exported, tmp_path, capsys, monkeypatch):
    """A 1.6 KB text said 59, 88 and 78 days for the Pile on three runs: start-up costs, not speed."""
    import core.evaluation.evaluate as ev
    from core.cli import main
    from core.cli.eval import table

    folder, _tk, _hf = exported
    tok = Tokenizer.from_spec(load_eval_tokenizer(folder))
    small = TEXT.encode()[:1600]
    (r,) = evaluate([("x", tok)], [EvalText.from_bytes("t", small)])
    assert len(small) < ev.MIN_TIMED_BYTES and r.timed is False
    text = " ".join(table([r]).split())  # (the notes are wrapped to the terminal's width)
    assert (
        "sample too small" in text
        and "too short to time" in text
        and "days" not in text
        and " h (" not in text
    )
    f = tmp_path / "small.txt"
    f.write_bytes(small)
    assert main(["eval", "--tokenizer", str(folder), str(f), "-q", "--workers", "1"]) == 0
    assert "too short to time" in " ".join(capsys.readouterr().out.split())
    # above the floor the estimate is given
    monkeypatch.setattr(ev, "MIN_TIMED_BYTES", 1000)
    (r,) = evaluate([("x", tok)], [EvalText.from_bytes("t", small)])
    assert r.timed and r.pile_hours > 0 and "too small" not in table([r])
