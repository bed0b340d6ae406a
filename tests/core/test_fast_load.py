"""The fast readers of vocab.json + merges.txt and tokenizer.json (merges as ids) give what the careful,
line-by-line readers give, and the ids of the reference."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest
from tokenizers import Tokenizer as HF

from core import Tokenizer
from core.bpe.ranks import IdMerges
from core.formats import export_all, load_any, load_gpt2, load_hf

from .tok_corpus import EOT, VARIED_TEXTS, trained_spec

CASES = {"gpt2": {"specials": (EOT, "<|pad|>")}, "invalid-bytes": {"invalid_bytes": True}}


@pytest.fixture(scope="module", params=list(CASES))
def exported(request, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("fast")
    export_all(folder, trained_spec(**CASES[request.param]), "gpt2,hf")
    return folder


def _same(a, b) -> None:
    assert a.vocab == b.vocab and list(a.merges) == list(b.merges) and a.special_tokens == b.special_tokens


def test_gpt2_fast_and_careful_readers_agree(exported: Path, tmp_path: Path) -> None:
    fast = load_gpt2(exported)
    assert isinstance(fast.merges, IdMerges) and not fast.merges.built
    merges = (exported / "merges.txt").read_text(encoding="utf-8")
    for name, text in {
        "crlf": merges.replace("\n", "\r\n"),
        "blank line": merges.replace("\n", "\n\n", 3),
        "no header": merges.split("\n", 1)[1],
    }.items():
        (tmp_path / "merges.txt").write_text(text, encoding="utf-8", newline="")
        (tmp_path / "vocab.json").write_bytes((exported / "vocab.json").read_bytes())
        other = load_gpt2(tmp_path)
        _same(other, fast)
        assert isinstance(other.merges, IdMerges) == (name == "no header"), name
    lines = merges.split("\n")
    (tmp_path / "merges.txt").write_text("\n".join([*lines[:5], lines[3], *lines[5:]]), encoding="utf-8")
    repeated = load_gpt2(tmp_path)  # a repeated merge: the careful reader keeps it where it is
    assert list(repeated.merges) == [*fast.merges[:4], fast.merges[2], *fast.merges[4:]]
    ours, again = Tokenizer.from_spec(repeated), Tokenizer.from_spec(fast)
    for text in VARIED_TEXTS:
        assert ours.encode(text) == again.encode(text)


def test_hf_merge_lists_and_strings_agree_with_tokenizers(exported: Path, tmp_path: Path) -> None:
    data = json.loads((exported / "tokenizer.json").read_text(encoding="utf-8"))
    strings = load_hf(exported / "tokenizer.json")
    assert isinstance(strings.merges, IdMerges)
    data["model"]["merges"] = [m.split(" ") for m in data["model"]["merges"]]
    data["model"]["merges"].insert(2, data["model"]["merges"][7])  # a repeat: HF keeps the last place
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    lists = load_hf(path)
    assert isinstance(lists.merges, IdMerges)
    _same(lists, strings)
    ours, hf = Tokenizer.from_spec(lists), HF.from_file(str(path))
    for text in VARIED_TEXTS:
        assert ours.encode(text) == hf.encode(text).ids
    back = pickle.loads(pickle.dumps(lists))  # specs go to worker processes
    assert list(back.merges) == list(lists.merges) and Tokenizer.from_spec(back).encode(
        "the cat"
    ) == ours.encode("the cat")


def test_a_merge_that_makes_a_special_token_stays_on_the_fast_path(exported: Path, tmp_path: Path) -> None:
    data = json.loads((exported / "tokenizer.json").read_text(encoding="utf-8"))
    vocab = data["model"]["vocab"]
    top = max([*vocab.values(), *(t["id"] for t in data["added_tokens"])])
    vocab.update({"<u": top + 1, "<unk>": top + 2})  # like Qwen3: "<unk" + ">" is also an added token
    data["model"]["merges"] += ["< u", "<u n", "<un k", "<unk >"]
    vocab.update({"<un": top + 3, "<unk": top + 4})
    data["added_tokens"].append(
        {
            "id": top + 2,
            "content": "<unk>",
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": False,
            "special": True,
        }
    )
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    spec = load_any(path)
    assert isinstance(spec.merges, IdMerges) and spec.merges[-1] == (b"<unk", b">")
    ours, hf = Tokenizer.from_spec(spec), HF.from_file(str(path))
    for text in ("<unk>", "a <unk> b <un <unk", *VARIED_TEXTS):
        for add in (True, False):
            assert ours.encode(text, add_special_tokens=add) == hf.encode(text, add_special_tokens=add).ids


@pytest.mark.parametrize("order", ["by id", "bytes last", "reversed", "shuffled"])
def test_merge_results_found_whatever_order_the_vocab_lists_them_in(
    exported: Path, tmp_path: Path, order: str
) -> None:
    # the vocab's keys in another order (same ids): the results' ids come from the lookups, not their places
    import random

    vocab = json.loads((exported / "vocab.json").read_text(encoding="utf-8"))
    items = list(vocab.items())
    if order == "bytes last":  # the results still listed one after another, from another place
        items = items[256:] + items[:256]
    elif order == "reversed":
        items.reverse()
    elif order == "shuffled":
        random.Random(7).shuffle(items)
    (tmp_path / "vocab.json").write_text(json.dumps(dict(items)), encoding="utf-8")
    (tmp_path / "merges.txt").write_bytes((exported / "merges.txt").read_bytes())
    fast = load_gpt2(tmp_path)
    assert isinstance(fast.merges, IdMerges)
    want = load_gpt2(exported)
    _same(fast, want)
    inverse = {b: i for i, b in want.vocab.items()}
    assert fast.merges.ids[2] == [inverse[a + b] for a, b in want.merges]
    text = " ".join(VARIED_TEXTS)
    assert Tokenizer.from_spec(fast).encode(text) == Tokenizer.from_spec(want).encode(text)
