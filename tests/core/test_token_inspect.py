"""``inspect``: dead and odd tokens, checked against the ``tokenizers`` package (what HF encodes each
token's text to) and against plain recounts."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from core.cli import main
from core.errors import Cancelled
from core.evaluation.inspect import inspect_tokenizer
from core.formats import export_all, load_any
from core.formats.spec import TokenizerSpec
from core.tokenization.tokenizer import Tokenizer
from core.training.trainer import Trainer

tokenizers = pytest.importorskip("tokenizers")

# Thai words (vowel marks are \p{M}: the GPT-2 pattern splits them off), words with an inner
# apostrophe (GPT-2 splits "'s" off), a compatibility ideograph, decomposed accents
TEXT = ("ที่ ได้ เป็น " * 6 + "it's ok it's " * 5 + "\uf900\uf900 " * 4 + "e\u0301e\u0301 " * 4) * 3
WORDS = r" ?\S+|\s+"  # the pattern tokens are learned with: whole words, marks and all


def trained(pattern_for_training: str = WORDS, n: int = 60) -> TokenizerSpec:
    t = Trainer.from_text(TEXT, pattern=pattern_for_training)
    t.steps(n)
    # the tokenizer splits with GPT-2's pattern: tokens learned across its boundaries are dead
    return TokenizerSpec.from_merges(t.merges, ["<|endoftext|>"], pattern="gpt2")


def hf_unreachable(path, vocab: dict[int, bytes], specials: set[int]) -> list[int]:
    """The oracle: ids whose text HF's tokenizer does not encode to that one id."""
    hf = tokenizers.Tokenizer.from_file(str(path))
    out = []
    for i, b in sorted(vocab.items()):
        if i in specials:
            continue
        try:
            text = b.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if hf.encode(text, add_special_tokens=False).ids != [i]:
            out.append(i)
    return out


def test_unreachable_text_equals_what_hf_encodes(tmp_path):
    spec = trained()
    export_all(tmp_path, spec, ["hf"])
    tok = Tokenizer.from_spec(load_any(tmp_path / "tokenizer.json"))
    r = inspect_tokenizer(tok)
    want = hf_unreachable(tmp_path / "tokenizer.json", tok.vocab, set(tok.special_ids.values()))
    assert r.unreachable_text == want
    texts = {tok.vocab[i].decode() for i in r.unreachable_text}
    assert "ที่" in texts and " ได้" in texts and "it's" in texts and " ok" not in texts
    assert r.specials == [256]


def test_a_normalizer_makes_tokens_unreachable(tmp_path):
    """A tokenizer.json with an NFC normalizer (as Qwen2.5's): a compatibility ideograph and a
    decomposed accent are tokens NFC text never reaches."""
    from tokenizers import decoders, models, normalizers, pre_tokenizers

    spec = trained(n=80)
    export_all(tmp_path, spec, ["hf"])
    data = json.loads((tmp_path / "tokenizer.json").read_text())
    assert data["normalizer"] is None
    data["normalizer"] = {"type": "NFC"}
    path = tmp_path / "nfc.json"
    path.write_text(json.dumps(data))
    hf = tokenizers.Tokenizer.from_file(str(path))  # (HF accepts the file)
    assert isinstance(hf.normalizer, normalizers.NFC)
    del models, pre_tokenizers, decoders
    tok = Tokenizer.from_spec(load_any(path))
    r = inspect_tokenizer(tok)
    assert r.unreachable_text == hf_unreachable(path, tok.vocab, set(tok.special_ids.values()))
    texts = {tok.vocab[i].decode() for i in r.unreachable_text}
    assert "\uf900" in texts and "e\u0301" in texts


def test_unreachable_by_merges_partial_and_longest():
    # "abc" is made by (a, bc), but (a, b) comes first and takes its bytes apart
    merges = [(b"a", b"b"), (b"b", b"c"), (b"a", b"bc"), (b"\xe4", b"\xb8"), (b"\xe4\xb8", b"\xad")]
    tok = Tokenizer.from_spec(TokenizerSpec.from_merges(merges, ["<s>"]))
    r = inspect_tokenizer(tok, longest=2)
    by_bytes = {b: i for i, b in tok.vocab.items()}
    assert r.unreachable_merges == [by_bytes[b"abc"]]
    assert r.unreachable_text == []  # "abc" as a whole word is looked up (tiktoken's rule)
    partial = [i for i, b in tok.vocab.items() if i != by_bytes[b"<s>"] and not _utf8(b)]
    assert r.partial_utf8 == partial and by_bytes[b"\xe4\xb8"] in partial
    assert by_bytes["中".encode()] not in partial
    assert (
        r.longest == [by_bytes[b"abc"], by_bytes["中".encode()]] and r.longest_bytes == 3
    )  # ties: lower id first
    assert r.never_used is None


def _utf8(b: bytes) -> bool:
    try:
        b.decode()
    except UnicodeDecodeError:
        return False
    return True


def test_never_used_and_least_used_per_file(tmp_path):
    tok = Tokenizer.from_spec(trained(pattern_for_training="gpt2", n=40))
    a = tmp_path / "a.txt"
    b = tmp_path / "b.txt"
    a.write_text("ที่ ได้ ok ok it's\n" * 3, encoding="utf-8")
    b.write_text("เป็น xyz\n", encoding="utf-8")
    r = inspect_tokenizer(tok, [a, b], least_used=3)
    ca = Counter(tok.encode(a.read_text(encoding="utf-8")))
    cb = Counter(tok.encode(b.read_text(encoding="utf-8")))
    ordinary = [i for i in sorted(tok.vocab) if not tok.is_special(i)]
    assert r.never_used == [i for i in ordinary if not ca[i] and not cb[i]]
    fa, fb = r.files
    assert (fa.name, fa.n_tokens, fb.n_tokens) == ("a.txt", ca.total(), cb.total())
    assert fa.never_used == sum(1 for i in ordinary if not ca[i])
    assert list(fa.least_used) == sorted(ca.items(), key=lambda x: (x[1], x[0]))[:3]
    assert r.summary().endswith(f"{len(r.never_used):,} never used in 2 files")


def test_cancel():
    tok = Tokenizer.from_spec(trained())
    with pytest.raises(Cancelled):
        inspect_tokenizer(tok, progress=lambda phase, done, total: False)


def test_cli_summary_and_json(tmp_path, capsys):
    export_all(tmp_path / "tok", trained(), ["hf"])
    corpus = tmp_path / "c.txt"
    corpus.write_text("ok it's\n", encoding="utf-8")
    out = tmp_path / "r.json"
    rc = main(["inspect", str(tmp_path / "tok"), "--corpus", str(corpus), "--json", str(out), "-q"])
    assert rc == 0
    stdout = capsys.readouterr().out
    data = json.loads(out.read_text())
    assert {"unreachable_text", "unreachable_merges", "partial_utf8", "never_used"} <= set(data)
    tok = Tokenizer.from_spec(load_any(tmp_path / "tok"))
    r = inspect_tokenizer(tok, [corpus])
    assert data["unreachable_text"] == r.unreachable_text and data["never_used"] == r.never_used
    assert f"{len(r.unreachable_text):,} unreachable from their text" in stdout.splitlines()[0]
    assert "ที่" in stdout  # tokens are shown as text where they are whole UTF-8


def test_cli_missing_corpus_is_one_line_error(tmp_path, capsys):
    export_all(tmp_path / "tok", trained(), ["hf"])
    assert main(["inspect", str(tmp_path / "tok"), "--corpus", str(tmp_path / "nope.txt"), "-q"]) == 2
    assert "nope.txt" in capsys.readouterr().err


def test_doctests():
    import doctest

    import core.evaluation.inspect

    assert doctest.testmod(core.evaluation.inspect).failed == 0


def test_an_added_token_makes_an_ordinary_one_unreachable(tmp_path):
    """GPT-NeoX/OLMo add whitespace runs as (non-special) added tokens: the ordinary token with the
    same text is never made, in HF as here."""
    t = Trainer.from_text("a  b  c  d  e  f  " * 20, pattern=WORDS)
    t.steps(10)
    spec = TokenizerSpec.from_merges(t.merges, pattern="gpt2")
    export_all(tmp_path, spec, ["hf"])
    data = json.loads((tmp_path / "tokenizer.json").read_text())
    new_id = max(spec.vocab) + 1
    data["added_tokens"].append(
        {
            "id": new_id,
            "content": "  ",
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": True,
            "special": False,
        }
    )
    path = tmp_path / "added.json"
    path.write_text(json.dumps(data))
    tok = Tokenizer.from_spec(load_any(path))
    r = inspect_tokenizer(tok)
    assert r.unreachable_text == hf_unreachable(path, tok.vocab, set(tok.special_ids.values()))
    ordinary = next(i for i, b in spec.vocab.items() if b == b"  ")
    assert ordinary in r.unreachable_text


def test_a_sentencepiece_model_is_inspected_by_its_own_merges():
    """A SentencePiece BPE model builds its pieces from characters (▁ for a space), not from bytes:
    its merges reach every normal piece, and a word piece is reached from its text at a text's start."""
    from importlib import resources

    from core.formats import load_any
    from core.tokenization.tokenizer import Tokenizer

    data = resources.files("mistral_common") / "data"
    name = next(p.name for p in data.iterdir() if p.name.endswith(".model.v1"))
    with resources.as_file(data / name) as path:
        tok = Tokenizer.from_spec(load_any(path))
    r = inspect_tokenizer(tok)
    model = tok.char_model
    # sentencepiece itself rebuilds each normal piece from its characters (the merges alone)
    import sentencepiece as spm

    with resources.as_file(data / name) as path:
        ref = spm.SentencePieceProcessor(model_file=str(path))
    for i in r.unreachable_merges:
        assert model.kind(i) == "normal"
        piece = model.piece(i)
        assert ref.encode(piece.replace("▁", " ").lstrip(" "), out_type=int) != [i]
    the = tok.token_to_id(b" the")
    assert the not in r.unreachable_merges and the not in r.unreachable_text
    # a word's inside ("ing") is reached only within a word: only word-initial pieces and byte pieces
    # are listed, and sentencepiece uses none of them for its own text, alone, at a text's start or
    # after a word
    for i in r.unreachable_text:
        piece = model.piece(i)
        text = tok.vocab[i].decode("utf-8")
        assert model.kind(i) == "byte" or piece.startswith("▁")
        for context in (text, text.lstrip(" "), "a" + text, "a" + text + "a", text + "a"):
            assert i not in ref.encode(context, out_type=int), (piece, context)
    assert len(r.unreachable_text) < 200  # (16,108 of its 32,000 pieces were listed before)


def test_sentencepiece_pieces_for_spaces_are_reachable_and_dead_byte_pieces_are_listed():
    """▁ stands for a space: ▁ alone (an extra space, ``a `` gives ``▁a ▁``) and ▁-pieces after a word
    are reached (▁ was listed as unreachable); a byte piece is dead where its character has a piece of
    its own (``<0x41>``: ``A`` is a piece), and reached where it has none (``<0x0A>``: a newline)."""
    from importlib import resources

    import sentencepiece as spm

    from core.formats import load_any
    from core.tokenization.tokenizer import Tokenizer

    data = resources.files("mistral_common") / "data"
    name = next(p.name for p in data.iterdir() if p.name.endswith(".model.v1"))
    with resources.as_file(data / name) as path:
        tok = Tokenizer.from_spec(load_any(path))
        ref = spm.SentencePieceProcessor(model_file=str(path))
    r = inspect_tokenizer(tok)
    space = ref.piece_to_id("▁")
    assert ref.encode("a ", out_type=int)[-1] == space  # (sentencepiece does use it)
    assert space not in r.unreachable_text
    a_byte, newline_byte = ref.piece_to_id("<0x41>"), ref.piece_to_id("<0x0A>")
    assert a_byte not in ref.encode("A A", out_type=int) and a_byte in r.unreachable_text
    assert newline_byte in ref.encode("a\nb", out_type=int) and newline_byte not in r.unreachable_text
    dead_bytes = {i for i in range(len(tok.vocab)) if tok.char_model.kind(i) == "byte"} - set(r.partial_utf8)
    dead_bytes = {i for i in dead_bytes if i not in ref.encode(tok.vocab[i].decode(), out_type=int)}
    assert set(r.unreachable_text) == dead_bytes  # (no word piece of this model is dead)
