"""Exporting an imported HF pipeline: bpe.json keeps it (same ids as HF), GPT-2 and tiktoken files are
refused with the parts they would lose named, unless the caller accepts the loss."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tokenizers import AddedToken, Regex, decoders, normalizers, pre_tokenizers, processors
from tokenizers import Tokenizer as HF
from tokenizers.models import BPE
from tokenizers.trainers import BpeTrainer

from core import Tokenizer
from core.errors import FormatError
from core.formats import export_all, export_losses, load_any, load_native, save

from .tok_corpus import trained_spec

CORPUS = [
    "The quick brown fox. Café résumé naïve 1234567 (room #42)",
    "我们今天去公园 🙃 hello hello world",
] * 30
TEXTS = ["", "Hello world!", "Cafe\u0301 re\u0301sume\u0301", "(room #42) 1234567", "我们 🙃 <mask>  x <s>"]


def _hf(ignore_merges: bool = False) -> HF:
    hf = HF(BPE(ignore_merges=ignore_merges))
    hf.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(r"\p{N}{1,3}"), "isolated"),
            pre_tokenizers.Split(Regex(r"[^\s\p{L}\p{N}]+"), "merged_with_next"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True),
        ]
    )
    hf.decoder = decoders.ByteLevel()
    hf.train_from_iterator(
        CORPUS,
        BpeTrainer(vocab_size=400, show_progress=False, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()),
    )
    hf.normalizer = normalizers.NFC()
    hf.add_special_tokens([AddedToken("<mask>", lstrip=True), "<s>", "</s>"])
    hf.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>",
        special_tokens=[("<s>", hf.token_to_id("<s>")), ("</s>", hf.token_to_id("</s>"))],
    )
    return hf


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> tuple[HF, Path]:
    hf = _hf()
    path = tmp_path_factory.mktemp("hf") / "tokenizer.json"
    hf.save(str(path))
    return hf, path


def test_losses_name_each_part(imported) -> None:
    _, path = imported
    spec = load_any(path)
    for fmt in ("gpt2", "tiktoken"):
        lost = " | ".join(export_losses(spec, fmt))
        assert "the normalizer (NFC)" in lost
        assert "the pre-tokenizer (Sequence[Split, Split, ByteLevel]" in lost
        assert "the post-processor (it adds 2 tokens" in lost
        assert "lstrip/rstrip/single_word options of 1 added token(s) ('<mask>')" in lost
    assert export_losses(spec, "hf") == [] and export_losses(spec, "native") == []
    assert export_losses(trained_spec(), "gpt2") == []  # our own tokenizers lose nothing


def test_lossy_formats_are_refused_unless_accepted(imported, tmp_path: Path) -> None:
    _, path = imported
    tok = Tokenizer.from_spec(load_any(path))
    with pytest.raises(
        FormatError, match=r"the gpt2 format cannot hold the normalizer \(NFC\);.*export 'hf' or 'native'"
    ):
        export_all(tmp_path / "out", tok, "gpt2,native")
    assert not (tmp_path / "out" / "bpe.json").exists()  # nothing is written
    with pytest.raises(FormatError, match="the tiktoken format cannot hold"):
        save(tok, tmp_path, "tiktoken")
    written = export_all(tmp_path / "out", tok, "gpt2,tiktoken", lossy=True)
    assert sorted(p.name for ps in written.values() for p in ps) == [
        "bpe.tiktoken",
        "merges.txt",
        "vocab.json",
    ]


def test_native_keeps_the_pipeline(imported, tmp_path: Path) -> None:
    hf, path = imported
    export_all(tmp_path, Tokenizer.from_spec(load_any(path)), "native,hf")
    data = json.loads((tmp_path / "bpe.json").read_text(encoding="utf-8"))
    assert data["version"] == 2 and data["pipeline"]["normalizer"] == {"type": "NFC"}
    for name in ("bpe.json", "tokenizer.json"):
        again = Tokenizer.from_spec(load_any(tmp_path / name))
        for text in TEXTS:
            for add in (True, False):
                assert (
                    again.encode(text, add_special_tokens=add) == hf.encode(text, add_special_tokens=add).ids
                )
    assert Tokenizer.from_spec(load_any(tmp_path / "bpe.json")).post_processor_ids == (
        (hf.token_to_id("<s>"),),
        (hf.token_to_id("</s>"),),
    )


def test_a_file_without_pipeline_stays_version_1(tmp_path: Path) -> None:
    export_all(tmp_path, trained_spec(), "native")
    data = json.loads((tmp_path / "bpe.json").read_text(encoding="utf-8"))
    assert data["version"] == 1 and "pipeline" not in data
    assert load_native(tmp_path).pipeline is None


def test_a_damaged_pipeline_is_named(imported, tmp_path: Path) -> None:
    _, path = imported
    export_all(tmp_path, load_any(path), "native")
    native = tmp_path / "bpe.json"
    text = native.read_text(encoding="utf-8")
    native.write_text(text.replace('{"type": "NFC"}', '{"type": "NoSuchNormalizer"}'), encoding="utf-8")
    with pytest.raises(FormatError, match=r"bpe.json: line \d+: the pipeline cannot be used"):
        load_native(native)
    native.write_text(
        text.replace('"pipeline": {', '"pipeline": [{', 1).replace("}\n}\n", "}]\n}\n"), encoding="utf-8"
    )
    with pytest.raises(FormatError, match='"pipeline" must be an object'):
        load_native(native)


def test_ignore_merges_is_lost_only_where_it_matters(tmp_path: Path) -> None:
    hf = _hf(ignore_merges=False)
    hf.normalizer = None
    hf.post_processor = None
    path = tmp_path / "tokenizer.json"
    hf.save(str(path))
    spec = load_any(path)
    assert not any("ignore_merges" in x for x in export_losses(spec, "tiktoken"))  # every token is merged
    data = json.loads(path.read_text(encoding="utf-8"))
    top = max([*data["model"]["vocab"].values(), *(t["id"] for t in data["added_tokens"])])
    data["model"]["vocab"]["Ġquickbrown"] = top + 1  # no merge makes it
    path.write_text(json.dumps(data), encoding="utf-8")
    lost = export_losses(load_any(path), "tiktoken")
    assert any(
        x.startswith("ignore_merges=false (1 token(s) of the vocab are made by no merge") for x in lost
    )


def test_cli_convert_refuses_then_writes_with_allow_lossy(imported, tmp_path: Path, capsys) -> None:
    from core.cli import main

    _, path = imported
    out = tmp_path / "out"
    assert main(["convert", str(path), "--out", str(out), "--format", "tiktoken,native"]) == 2
    err = capsys.readouterr().err
    assert "the tiktoken format cannot hold the normalizer (NFC)" in err and "--allow-lossy" in err
    assert not out.exists() or not any(out.iterdir())
    assert (
        main(["convert", str(path), "--out", str(out), "--format", "tiktoken,native", "--allow-lossy"]) == 0
    )
    captured = capsys.readouterr()
    assert "warning: the tiktoken files lack the normalizer (NFC)" in captured.err
    assert sorted(p.name for p in out.iterdir()) == [".bpe-explorer-export.json", "bpe.json", "bpe.tiktoken"]
    assert main(["convert", str(out / "bpe.json"), "--out", str(tmp_path / "again"), "--format", "hf"]) == 0
    assert capsys.readouterr().err == ""  # bpe.json kept the pipeline: hf holds all of it


def test_cli_convert_says_what_gpt2_and_tiktoken_readers_must_be_given(tmp_path: Path, capsys) -> None:
    """GPT-2 and tiktoken files hold no pattern (readers assume GPT-2's) and tiktoken files no special
    tokens: convert says what to give when reading them, and reading them so gives the same ids."""
    from core.cli import main
    from core.formats.spec import TokenizerSpec

    spec = TokenizerSpec.from_merges([(b"3", b"4"), (b" ", b"a")], ["<|eot|>"], pattern="gpt4")
    save(spec, tmp_path / "src.json", "native")
    out = tmp_path / "out"
    assert main(["convert", str(tmp_path / "src.json"), "--out", str(out), "--format", "gpt2,tiktoken"]) == 0
    err = capsys.readouterr().err
    assert (
        "the GPT-2 files store no pattern and readers assume GPT-2's; this tokenizer splits text with 'gpt4'"
        in err
    )
    assert "the tiktoken file stores no pattern" in err
    eot = spec.special_ids["<|eot|>"]
    assert (
        f"the tiktoken file stores no special tokens: give them as TOKEN=ID when reading it "
        f"(--special-token '<|eot|>={eot}')" in err
    )
    text = "1334 a<|eot|>"  # gpt4: "133" "4"; gpt2: "1334" (the merge 3+4 applies)
    want = Tokenizer.from_spec(spec).encode(text)
    assert (
        Tokenizer.from_spec(
            load_any(out / "bpe.tiktoken", pattern="gpt4", special_tokens={"<|eot|>": eot})
        ).encode(text)
        == want
    )
    assert (
        Tokenizer.from_spec(load_any(out / "vocab.json", pattern="gpt4", special_tokens=["<|eot|>"])).encode(
            text
        )
        == want
    )
    assert Tokenizer.from_spec(load_any(out / "vocab.json")).encode(text) != want  # what the note warns of
    save(
        TokenizerSpec.from_merges([(b"a", b"b")]), tmp_path / "plain.json", "native"
    )  # GPT-2's pattern: nothing to say
    assert (
        main(["convert", str(tmp_path / "plain.json"), "--out", str(tmp_path / "o2"), "--format", "gpt2"])
        == 0
    )
    assert "note" not in capsys.readouterr().err


def test_cli_train_and_extend_say_what_gpt2_and_tiktoken_readers_must_be_given(
    tmp_path: Path, capsys
) -> None:
    """train (and train --extend) wrote GPT-2 files of a --pattern gpt4 tokenizer without a word, and
    HF, transformers' GPT2Tokenizer and Tokenizer.from_files read them back with GPT-2's pattern:
    other ids. They now say what convert says."""
    from core.cli import main
    from core.formats.spec import TokenizerSpec

    corpus = tmp_path / "c.txt"
    corpus.write_text("1334 abc 1334 abc 9876 abab\n" * 50, encoding="utf-8")
    out = tmp_path / "out"
    argv = ["train", str(corpus), "--vocab-size", "270", "--pattern", "gpt4", "--special-token", "<|eot|>"]
    assert main([*argv, "--out", str(out), "-q", "--workers", "1"]) == 0
    err = capsys.readouterr().err
    assert (
        "the GPT-2 files store no pattern and readers assume GPT-2's; this tokenizer splits text with 'gpt4'"
        in err
    )
    assert "the tiktoken file stores no special tokens: give them as TOKEN=ID when reading it " in err
    assert "(--special-token '<|eot|>=256')" in err
    # the GPT-2 pattern and no special tokens: nothing a reader must be told
    assert main(["train", str(corpus), "--vocab-size", "270", "--out", str(tmp_path / "o2"), "-q"]) == 0
    assert "note" not in capsys.readouterr().err

    base = tmp_path / "base.json"
    save(TokenizerSpec.from_merges([(b"3", b"4")], pattern="gpt4"), base, "native")
    ext = ["train", str(corpus), "--extend", str(base), "--vocab-size", "262", "--out", str(tmp_path / "x")]
    assert main([*ext, "--format", "gpt2", "-q"]) == 0
    assert "the GPT-2 files store no pattern and readers assume GPT-2's" in capsys.readouterr().err
