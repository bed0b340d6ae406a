"""``train --extend``: a base tokenizer keeps every token and id, new merges are learned on the base's
tokens, and the exports load in ``tokenizers`` and ``tiktoken`` with our ids."""

from __future__ import annotations

import itertools
import json

import pytest
import regex

from core.cli import main
from core.errors import BPEError
from core.formats import export_all, load_any
from core.formats.spec import TokenizerSpec
from core.pretokenization.patterns import GPT2_PATTERN
from core.tokenization.extend import ExtendTrainer, extend_tokenizer
from core.tokenization.tokenizer import Tokenizer
from core.training.trainer import Trainer

tokenizers = pytest.importorskip("tokenizers")
tiktoken = pytest.importorskip("tiktoken")
from tiktoken.load import load_tiktoken_bpe  # noqa: E402

EOT = "<|endoftext|>"
BASE_TEXT = ("the cat sat on the mat. the dog ate the hat. " * 20 + EOT) * 3
# Chinese and code: what the base never saw
NEW_TEXT = (
    "def train(corpus):\n    return corpus.split()\n" * 15
    + f"{EOT}我们的模型在中文文本上训练。今天天气很好，我们去公园散步。{EOT}" * 12
    + "the cat and the dog train together. " * 5
)


@pytest.fixture()
def base_dir(tmp_path):
    t = Trainer.from_text(BASE_TEXT, [EOT])
    t.steps(40)
    from core.formats.spec import spec_from_trainer

    d = tmp_path / "base"
    export_all(d, spec_from_trainer(t), ["gpt2", "hf", "tiktoken", "native"])
    return d


@pytest.fixture()
def corpus(tmp_path):
    p = tmp_path / "new.txt"
    p.write_text(NEW_TEXT, encoding="utf-8")
    return p


def naive_continue(seqs: list[list[bytes]], n: int) -> list[tuple[bytes, bytes]]:
    """A slow reference: BPE on token sequences (one per pre-token occurrence), ties to the greatest."""
    merges = []
    for _ in range(n):
        counts: dict[tuple[bytes, bytes], int] = {}
        for s in seqs:
            for p in itertools.pairwise(s):
                counts[p] = counts.get(p, 0) + 1
        if not counts:
            break
        best = max(counts, key=lambda p: (counts[p], p))
        merges.append(best)
        for k, s in enumerate(seqs):
            out, j = [], 0
            while j < len(s):
                if j + 1 < len(s) and (s[j], s[j + 1]) == best:
                    out.append(s[j] + s[j + 1])
                    j += 2
                else:
                    out.append(s[j])
                    j += 1
            seqs[k] = out
    return merges


def test_new_merges_continue_bpe_on_the_base_tokens(base_dir, corpus):
    base = load_any(base_dir / "bpe.json")
    ext = extend_tokenizer(base, corpus, len(base.vocab) + 60)
    # the reference: pre-tokens by the regex, each encoded by tiktoken with the base's ranks
    enc = tiktoken.Encoding(
        "base",
        pat_str=GPT2_PATTERN,
        mergeable_ranks=load_tiktoken_bpe(str(base_dir / "bpe.tiktoken")),
        special_tokens={},
    )
    seqs = [
        [enc.decode_single_token_bytes(i) for i in enc.encode_ordinary(w)]
        for piece in NEW_TEXT.split(EOT)
        for w in regex.findall(GPT2_PATTERN, piece)
    ]
    assert list(ext.merges[len(base.merges) :]) == naive_continue(seqs, 60)
    # every base token keeps its id; new ids follow the base's last one
    assert all(ext.vocab[i] == b for i, b in base.vocab.items())
    assert sorted(set(ext.vocab) - set(base.vocab)) == list(range(max(base.vocab) + 1, max(base.vocab) + 61))
    assert tuple(ext.merges[: len(base.merges)]) == tuple(base.merges)
    assert ext.special_tokens == (EOT,) and ext.pattern == base.pattern


def test_a_bytes_only_base_trains_like_the_trainer(corpus):
    for rule in ("lexicographic", "first"):
        t = Trainer.from_file(corpus, [EOT], tie_break=rule)
        want = [r.pair for r in t.steps(80)]
        base = TokenizerSpec.from_merges([], [EOT])
        e = ExtendTrainer.from_files(base, [corpus], tie_break=rule)
        got = e.steps(80)
        assert [r.pair for r in got] == want
        assert [r.new_id for r in got] == list(range(257, 337))
        assert [r.count for r in got] == [r.count for r in t.records]


def test_stepping_and_undo_on_new_merges(base_dir):
    base = load_any(base_dir / "bpe.json")
    e = ExtendTrainer.from_texts(base, [NEW_TEXT])
    first = e.steps(10)
    words = e.words()
    more = e.steps(5)
    e.undo_to(10)
    assert e.words() == words and e.vocab_size == len(base.vocab) + 10
    again = e.steps(5)
    assert [r.pair for r in again] == [r.pair for r in more] and [r.new_id for r in again] == [
        r.new_id for r in more
    ]
    e.undo_to(0)
    assert [r.pair for r in e.steps(10)] == [r.pair for r in first]


def test_exports_give_our_ids_in_tokenizers_and_tiktoken(base_dir, corpus, tmp_path):
    out = tmp_path / "ext"
    rc = main(
        [
            "train",
            str(corpus),
            "--extend",
            str(base_dir / "bpe.json"),
            "--vocab-size",
            str(257 + 40 + 50),
            "--out",
            str(out),
            "-q",
        ]
    )
    assert rc == 0
    ours = Tokenizer.from_spec(load_any(out / "bpe.json"))
    assert len(ours.vocab) == 347
    texts = [NEW_TEXT, BASE_TEXT, "def cat(dog):\n    return 我们 + 天气 # the hat"]
    hf = tokenizers.Tokenizer.from_file(str(out / "tokenizer.json"))
    enc = tiktoken.Encoding(
        "ext",
        pat_str=GPT2_PATTERN,
        mergeable_ranks=load_tiktoken_bpe(str(out / "bpe.tiktoken")),
        special_tokens=dict(ours.special_ids),
    )
    for text in texts:
        ids = ours.encode(text)
        assert hf.encode(text).ids == ids
        assert enc.encode(text, allowed_special="all") == ids
    for name in ("tokenizer.json", "vocab.json", "bpe.tiktoken"):
        again = Tokenizer.from_spec(load_any(out / name, special_tokens=[EOT]))
        assert again.encode(NEW_TEXT) == ours.encode(NEW_TEXT)
    # fewer tokens than the base on the new corpus
    base = Tokenizer.from_spec(load_any(base_dir))
    assert len(ours.encode(NEW_TEXT)) < len(base.encode(NEW_TEXT))


def test_a_merge_that_makes_an_existing_token(tmp_path, capsys):
    # "abc" is a token no merge order reaches: " abc" encodes as " ", "ab", "c"
    spec = TokenizerSpec.from_merges([(b"a", b"b"), (b"c", b"d"), (b"b", b"c"), (b"a", b"bc")])
    export_all(tmp_path / "base", spec, ["native"])
    abc = next(i for i, b in spec.vocab.items() if b == b"abc")
    e = ExtendTrainer.from_texts(spec, ["abc abc abc"])
    r = e.step()
    assert r is not None and r.pair == (b"ab", b"c") and r.new_id == abc
    assert e.vocab_size == len(spec.vocab) and e.reused == [0]
    corpus = tmp_path / "c.txt"
    corpus.write_text("abc abc abc", encoding="utf-8")
    out = tmp_path / "ext"
    rc = main(
        [
            "train",
            str(corpus),
            "--extend",
            str(tmp_path / "base"),
            "--vocab-size",
            "262",
            "--out",
            str(out),
            "-q",
        ]
    )
    assert rc == 0
    assert "no tiktoken file" in capsys.readouterr().err
    assert not (out / "bpe.tiktoken").exists()
    ours = Tokenizer.from_spec(load_any(out / "bpe.json"))
    hf = tokenizers.Tokenizer.from_file(str(out / "tokenizer.json"))
    for text in (" abc", " abcd abc", "abc", "xabc"):
        assert hf.encode(text).ids == ours.encode(text)
    assert ours.encode("xabc") == [ord("x"), abc]  # the new merge (ab, c) makes the old token
    assert ours.encode(" abc") == [260] and ours.vocab[260] == b" abc"


def test_a_base_with_a_normalizer_keeps_it(base_dir, corpus, tmp_path):
    data = json.loads((base_dir / "tokenizer.json").read_text())
    data["normalizer"] = {"type": "NFC"}
    nfc = tmp_path / "nfc.json"
    nfc.write_text(json.dumps(data))
    text = NEW_TEXT + "cafe\u0301 cafe\u0301 cafe\u0301 "
    corpus.write_text(text, encoding="utf-8")
    out = tmp_path / "ext"
    rc = main(["train", str(corpus), "--extend", str(nfc), "--vocab-size", "330", "--out", str(out), "-q"])
    assert rc == 0
    hf = tokenizers.Tokenizer.from_file(str(out / "tokenizer.json"))
    ours = Tokenizer.from_spec(load_any(out / "tokenizer.json"))
    assert hf.encode(text).ids == ours.encode(text)
    assert json.loads((out / "tokenizer.json").read_text())["normalizer"] == {"type": "NFC"}
    # the words were counted after the normalizer: composed, as the base encodes them
    words = {w for w, _, _ in ExtendTrainer.from_texts(load_any(nfc), [text]).words()}
    assert " café".encode() in words and " cafe\u0301".encode() not in words


def test_bad_requests(base_dir, corpus, capsys, tmp_path):
    base = load_any(base_dir)
    out = str(tmp_path / "out")
    with pytest.raises(BPEError, match="smaller than the base"):
        extend_tokenizer(base, corpus, 100)
    size = str(len(base.vocab))
    assert (
        main(["train", str(corpus), "--extend", str(base_dir), "--vocab-size", size, "--out", out, "-q"]) == 2
    )
    assert "not above the base" in capsys.readouterr().err
    assert (
        main(
            ["train", "--counts", "c.parquet", "--extend", str(base_dir), "--vocab-size", "400", "--out", out]
        )
        == 2
    )
    assert "--counts" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()  # refused before anything was written


def test_doctests():
    import doctest

    import core.tokenization.extend

    assert doctest.testmod(core.tokenization.extend).failed == 0


def test_batched_merges_give_the_same_training(base_dir):
    """Merges of many words at once (the batch kernel, over token codes above 255) equal word by word."""
    from core.tokenization.extend import base_words

    base = Tokenizer.from_spec(load_any(base_dir / "bpe.json"))
    words, stats = base_words(base, [NEW_TEXT])
    one = ExtendTrainer(base, words, stats=stats)
    batch = ExtendTrainer(base, words, stats=stats, batch_min_words=1)
    a, b = one.steps(60), batch.steps(60)
    assert [(r.pair, r.new_id, r.count) for r in a] == [(r.pair, r.new_id, r.count) for r in b]
    assert one.words() == batch.words()
    batch.undo_to(0)
    assert [r.pair for r in batch.steps(60)] == [r.pair for r in a]


def test_a_sentencepiece_base_is_refused_by_name(tmp_path):
    from importlib import resources

    from core.errors import BPEError
    from core.formats import load_any
    from core.tokenization.extend import ExtendTrainer

    data = resources.files("mistral_common") / "data"
    name = next(p.name for p in data.iterdir() if p.name.endswith(".model.v1"))
    with resources.as_file(data / name) as path:
        spec = load_any(path)
    corpus = tmp_path / "c.txt"
    corpus.write_text("我们今天学习字节对编码。\n" * 50, encoding="utf-8")
    with pytest.raises(BPEError, match="SentencePiece-style"):
        ExtendTrainer.from_files(spec, [corpus])


def test_step_n_of_an_extension_makes_n_merges_when_one_remakes_a_token():
    """Step N in the background ran to 'vocab size + N': a merge that remakes an existing token adds
    none, so it made more than N merges; max_merges stops at N."""
    spec = TokenizerSpec.from_merges([(b"a", b"b"), (b"c", b"d"), (b"b", b"c"), (b"a", b"bc")])
    text = ["abc abc abc abc abc xyxy zz"]
    e = ExtendTrainer.from_texts(spec, text)
    made = e.run(e.vocab_size + 2, max_merges=2)
    assert len(made) == 2 and e.reused == [0] and e.vocab_size == len(spec.vocab) + 1
    plain = ExtendTrainer.from_texts(spec, text)
    assert len(plain.run(plain.vocab_size + 2)) == 3  # (without the cap: one merge more)


def test_extend_names_the_rows_an_embedding_needs_when_ids_have_gaps(tmp_path, capsys):
    """cl100k extended to 100,500 tokens has ids up to 100,515 (gaps at 100256 and 100261-100275)."""
    vocab = {i: bytes([i]) for i in range(256)} | {300: b"<|endoftext|>"}
    spec = TokenizerSpec(vocab, (), ["<|endoftext|>"], "gpt2")
    export_all(tmp_path / "base", spec, ["native"])
    corpus = tmp_path / "c.txt"
    corpus.write_text("abab abab abc abc " * 20, encoding="utf-8")
    argv = ["train", str(corpus), "--extend", str(tmp_path / "base" / "bpe.json"), "--vocab-size", "260"]
    assert main([*argv, "--out", str(tmp_path / "ext"), "-q"]) == 0
    err = capsys.readouterr().err
    assert "an embedding table needs 304 rows, not 260" in err, err
