"""What an export would lose: GPT-2 files and tiktoken files hold a vocab, merges (GPT-2) and, beside
them, a pattern and special tokens; an imported HF ``tokenizer.json`` can need more (its pipeline:
:mod:`core.pipeline.hf`). ``tokenizer.json`` and the native ``bpe.json`` keep the pipeline.

tiktoken also reads a pattern differently: it drops the text no match of the pattern covers (BPE
Explorer and HF tokenizers make each such stretch a pre-token) and fails on a pattern that can match
the empty string, so a tiktoken file of a tokenizer with such a pattern is lossy too
(:func:`pattern_losses`; GPT-2's, cl100k's, o200k's … patterns match all text).

>>> pipe = {"normalizer": {"type": "NFC"}, "prefix_ids": [1], "suffix_ids": [], "ignore_merges": True}
>>> pipeline_losses(pipe)
['the normalizer (NFC)', 'the post-processor (it adds 1 token: id 1)']
>>> print(*tiktoken_pattern_losses(r"\\p{L}+"))
the text the pattern does not match (',', ' ', '!' …: tiktoken drops it, where BPE Explorer and HF tokenizers encode it)
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise
from typing import Any

from core.errors import FormatError
from core.formats.rank_order import rank_order_example
from core.formats.spec import TokenizerSpec
from core.pretokenization.pattern_probe import empty_match, shown_chars, uncovered_chars

#: formats that keep an imported pipeline
KEEPS_PIPELINE = ("hf", "native")


#: formats that hold a special token whose bytes are not UTF-8: GPT-2's vocab.json writes every token in
#: its byte-to-character alphabet, bpe.json is read only by us. A tokenizer.json is JSON text that other
#: tools read (HF ``tokenizers`` refuses the lone surrogates such a token would be), and tiktoken takes
#: special tokens as Python text that it encodes to UTF-8.
HOLDS_ANY_SPECIAL = ("gpt2", "native")


def non_utf8_specials(special_tokens: Iterable[str]) -> list[str]:
    """The special tokens whose bytes are not UTF-8 (kept as surrogate escapes, U+DC80–U+DCFF).

    >>> non_utf8_specials(["<s>", b"\\xed\\xa0\\x80".decode("utf-8", "surrogateescape")])
    ['\\udced\\udca0\\udc80']
    """
    out = []
    for s in special_tokens:
        try:
            s.encode("utf-8")
        except UnicodeEncodeError:
            out.append(s)
    return out


def special_shown(token: str) -> str:
    """A special token as its bytes (``b'\\xed\\xa0\\x80'``): its text cannot be shown."""
    return repr(token.encode("utf-8", "surrogateescape"))


def special_token_losses(spec: TokenizerSpec, fmt: str) -> list[str]:
    """What ``fmt`` loses of the special tokens of ``spec``: those whose bytes are not UTF-8, which a
    tokenizer.json and tiktoken cannot hold as special tokens (the export keeps them as ordinary tokens
    of the vocab at their ids, which no text those tools take holds)."""
    bad = non_utf8_specials(spec.special_tokens) if fmt not in HOLDS_ANY_SPECIAL else []
    if not bad:
        return []
    ids = spec.special_ids
    shown = ", ".join(f"{special_shown(s)} (id {ids[s]})" for s in bad[:3]) + (" …" if len(bad) > 3 else "")
    return [
        f"{len(bad)} special token(s) whose bytes are not UTF-8 ({shown}; only vocab.json + merges.txt "
        "and bpe.json hold them as special tokens)"
    ]


def export_losses(spec: TokenizerSpec, fmt: str) -> list[str]:
    """The parts of ``spec`` that format ``fmt`` cannot hold (empty when it holds everything that
    changes ids): special tokens that are not UTF-8 (:func:`special_token_losses`), an imported HF
    pipeline, and for tiktoken a pattern that does not match all text or can match the empty string
    (:func:`pattern_losses`) and a merge list that tiktoken's merging by rank does not follow
    (:func:`merge_order_losses`)."""
    lost = special_token_losses(spec, fmt) + special_prefix_losses(spec.special_tokens, fmt)
    pipe = (
        []
        if fmt in KEEPS_PIPELINE or not spec.pipeline
        else pipeline_losses(spec.pipeline, unbuilt=_unmade_tokens(spec))
    )
    lost += pipe
    if not any(x.startswith("the pre-tokenizer") for x in pipe):  # (else named with its pre-tokenizer)
        lost += pattern_losses(spec, fmt)
    return lost + merge_order_losses(spec, fmt)


def _prefix_pair(special_tokens: Iterable[str]) -> tuple[str, str] | None:
    """Two special tokens of which the first begins the second, if any (a token sorts just before
    those it begins)."""
    ordered = sorted(set(special_tokens))
    return next(((a, b) for a, b in pairwise(ordered) if b.startswith(a)), None)


def special_prefix_losses(special_tokens: Iterable[str], fmt: str) -> list[str]:
    """For tiktoken, special tokens of which one begins another (``<|a|>`` and ``<|a|><|a|>``):
    BPE Explorer and HF take the longest at each place, tiktoken the first of its alternation of
    them, whose order is that of a hash map (the shorter one may win, and not the same on every
    run).

    >>> special_prefix_losses(["<|a|>", "<|a|><|a|>"], "tiktoken")[0][:46]
    "special tokens of which one begins another ('<"
    >>> special_prefix_losses(["<|a|>", "<|a|><|a|>"], "hf"), special_prefix_losses(["<s>", "</s>"], "tiktoken")
    ([], [])
    """
    pair = _prefix_pair(special_tokens) if fmt == "tiktoken" else None
    if pair is None:
        return []
    a, b = pair
    return [
        f"special tokens of which one begins another ({a!r} begins {b!r}: tiktoken may take the shorter, "
        "where BPE Explorer and HF tokenizers take the longest)"
    ]


def merge_order_losses(spec: TokenizerSpec, fmt: str) -> list[str]:
    """For tiktoken, the order of the merge list when tiktoken's merging by token rank gives other ids
    (:func:`core.formats.rank_order.rank_order_example`; never for a tokenizer trained by BPE).

    >>> vocab = {**{i: bytes([i]) for i in range(256)}, 256: b"bc", 257: b"ab"}
    >>> spec = TokenizerSpec(vocab, ((b"a", b"b"), (b"b", b"c")))  # ab is merged first, bc has the lower id
    >>> print(*merge_order_losses(spec, "tiktoken"))
    the order of the merges (tiktoken merges by token rank and gives other ids: 'abc' → [97, 256], where BPE Explorer and HF tokenizers give [257, 99])
    """
    found = rank_order_example(spec) if fmt == "tiktoken" else None
    if found is None:
        return []
    return [
        f"the order of the merges (tiktoken merges by token rank and gives other ids: {_shown_text(found.text)} → "
        f"{_shown_ids(found.tiktoken)}, where BPE Explorer and HF tokenizers give {_shown_ids(found.ours)})"
    ]


def _shown_text(text: str, limit: int = 40) -> str:
    return repr(text) if len(text) <= limit else repr(text[: limit - 1]) + "…"


def _shown_ids(ids: tuple[int, ...], limit: int = 8) -> str:
    return "[" + ", ".join(map(str, ids[:limit])) + (", …]" if len(ids) > limit else "]")


def merge_order_error(spec: TokenizerSpec) -> FormatError | None:
    """The refusal of a tiktoken file whose merging by rank gives other ids (code
    ``export_merge_order``), None where it gives the same (:func:`merge_order_losses`)."""
    found = rank_order_example(spec)
    if found is None:
        return None
    text, theirs, ours = _shown_text(found.text), _shown_ids(found.tiktoken), _shown_ids(found.ours)
    return FormatError(
        "the tiktoken format cannot hold the order of this tokenizer's merges: tiktoken merges by token "
        "rank (the adjacent pair that makes the token of lowest id first), where BPE Explorer and HF "
        f"tokenizers apply the merge list in its order, and here the two give other ids ({text} → "
        f"{theirs} with tiktoken, {ours} here); export 'hf' or 'native' (they keep the merge list), or "
        "write the tiktoken file anyway (lossy=True in Python, --allow-lossy on the command line; the "
        "app asks)",
        code="export_merge_order",
        text=text,
        tiktoken=theirs,
        ours=ours,
    )


def pattern_losses(spec: TokenizerSpec, fmt: str) -> list[str]:
    """What a file of format ``fmt`` loses of the tokenizer's pattern: for tiktoken, the text the
    pattern does not match, or all of it when the pattern can match the empty string."""
    pattern = spec.pattern_regex
    return tiktoken_pattern_losses(pattern) if fmt == "tiktoken" and pattern is not None else []


def tiktoken_pattern_losses(pattern: str) -> list[str]:
    """What a tiktoken encoding with the regex ``pattern`` loses against BPE Explorer and HF
    tokenizers, found on a probe text (:mod:`core.pretokenization.pattern_probe`): tiktoken drops
    the text no match covers, and panics when a match is empty."""
    if empty_match(pattern) is not None:
        return ["a pattern that can match the empty string (tiktoken fails on it)"]
    gaps = uncovered_chars(pattern)
    if gaps:
        return [
            f"the text the pattern does not match ({shown_chars(gaps)}: tiktoken drops it, where BPE "
            "Explorer and HF tokenizers encode it)"
        ]
    return []


def _unmade_tokens(spec: TokenizerSpec) -> int:
    """How many ordinary multi-byte tokens no merge makes (only they encode differently with
    ``ignore_merges`` false, when the whole pre-token is such a token)."""
    ids = getattr(spec.merges, "ids", None)
    sids = set(spec.special_ids.values())
    if ids is not None and getattr(spec.merges, "vocab", None) is spec.vocab:
        made = set(ids[2])
        return sum(1 for i in spec.vocab.keys() - made - sids if len(spec.vocab[i]) > 1)
    made_tokens = {a + b for a, b in spec.merges}
    return sum(1 for i, t in spec.vocab.items() if len(t) > 1 and i not in sids and t not in made_tokens)


def check_lossless(spec: TokenizerSpec, formats: list[str]) -> None:
    """Refuse formats that would drop a special token that is not UTF-8, part of an imported
    pipeline, of the pattern or of the merge order (tiktoken), naming what and what to do."""
    bad = non_utf8_specials(spec.special_tokens)
    refused = [f for f in formats if f not in HOLDS_ANY_SPECIAL]
    if bad and refused:
        token = bad[0]
        raise FormatError(
            f"special token {special_shown(token)} (id {spec.special_ids[token]}) is not UTF-8: "
            f"{' and '.join(refused)} cannot hold it as a special token (a tokenizer.json and tiktoken's "
            "special tokens are text); export 'gpt2' or 'native' (they hold its bytes), or export anyway "
            "with it as an ordinary token of the vocab (lossy=True in Python, --allow-lossy on the "
            "command line; the app asks)",
            code="export_special_not_utf8",
            token=special_shown(token),
            id=spec.special_ids[token],
            formats=", ".join(refused),
        )
    prefix = special_prefix_error(spec.special_tokens) if "tiktoken" in formats else None
    if prefix is not None:
        raise prefix
    for fmt in formats:
        lost = export_losses(spec, fmt)
        if lost and lost == pattern_losses(spec, fmt):
            raise pattern_loss_error(spec.pattern_regex or "", fmt)
        order = merge_order_error(spec) if lost and fmt == "tiktoken" else None
        if order is not None and lost == merge_order_losses(spec, fmt):
            raise order  # (the merge order alone: said with what to do about it)
        if lost:
            raise FormatError(
                f"the {fmt} format cannot hold {'; '.join(lost)} of this imported tokenizer, so the exported "
                "files would give different ids; export 'hf' or 'native' (they keep all of it), or export anyway "
                "without them (lossy=True in Python, --allow-lossy on the command line; the app asks)",
                code="export_lossy",
                fmt=fmt,
                lost=lost,
            )


def special_prefix_error(special_tokens: Iterable[str]) -> FormatError | None:
    """The refusal of a tiktoken file for special tokens of which one begins another (code
    ``export_special_prefix``), None where there are none (:func:`special_prefix_losses`)."""
    pair = _prefix_pair(special_tokens)
    if pair is None:
        return None
    a, b = pair
    return FormatError(
        f"the tiktoken format cannot hold special tokens of which one begins another ({a!r} begins "
        f"{b!r}): tiktoken may take the shorter where BPE Explorer and HF tokenizers take the longest "
        "(which one depends on the order of a hash map); export 'hf' or 'native', or write the "
        "tiktoken file anyway (lossy=True in Python, --allow-lossy on the command line; the app asks)",
        code="export_special_prefix",
        first=a,
        second=b,
    )


def pattern_loss_error(pattern: str, fmt: str = "tiktoken") -> FormatError:
    """The refusal of a tiktoken file for a pattern that does not match all text (code
    ``export_pattern_gaps``) or can match the empty string (``export_pattern_empty``)."""
    shown = repr(pattern) if len(pattern) <= 60 else repr(pattern[:57]) + "…"
    rest = (
        f"export 'hf' or 'native' (they keep the pattern and give BPE Explorer's ids), or write the {fmt} "
        "file anyway (lossy=True in Python, --allow-lossy on the command line; the app asks)"
    )
    if empty_match(pattern) is not None:
        return FormatError(
            f"the {fmt} format cannot hold this tokenizer's pattern {shown}: it can match the empty "
            f"string, and tiktoken fails (a Rust panic) on text where it does; {rest}",
            code="export_pattern_empty",
            fmt=fmt,
            pattern=pattern,
        )
    chars = shown_chars(uncovered_chars(pattern))
    return FormatError(
        f"the {fmt} format cannot hold this tokenizer's pattern {shown}: it does not match all text "
        f"(no alternative matches {chars}), and tiktoken drops the text its pattern does not match, "
        "where BPE Explorer and HF tokenizers encode each such stretch as a pre-token, so the file "
        f"would lose that text; {rest}, or train with a pattern that matches all text (end it with "
        r"alternatives for the rest, as GPT-2's ' ?[^\s\p{L}\p{N}]+|\s+')",
        code="export_pattern_gaps",
        fmt=fmt,
        pattern=pattern,
        chars=chars,
    )


def pipeline_losses(pipeline: dict[str, Any] | None, unbuilt: int = 1) -> list[str]:
    """What a vocab + merges + pattern + special tokens format loses of a pipeline description;
    ``unbuilt`` is the number of tokens no merge makes (``ignore_merges`` matters only for them).
    Truncation and padding are not listed: they are reported at import and never applied."""
    if not pipeline:
        return []
    out: list[str] = []
    if pipeline.get("charbpe") is not None:
        out.append(
            "the SentencePiece-style char-level BPE model (pieces, scores, byte fallback: these formats "
            "hold byte-level BPE)"
        )
    norm = pipeline.get("normalizer")
    if isinstance(norm, dict) and not (norm.get("type") == "Sequence" and not norm.get("normalizers")):
        out.append(f"the normalizer ({_kinds(norm, 'normalizers')})")
    pre = pipeline.get("pre_tokenizer")
    if pre is not None and not _plain_pre_tokenizer(pre):
        out.append(
            f"the pre-tokenizer ({_kinds(pre, 'pretokenizers')}; only one regex is kept, as the pattern)"
        )
    added = [*(pipeline.get("prefix_ids") or ()), *(pipeline.get("suffix_ids") or ())]
    if added:
        out.append(
            f"the post-processor (it adds {len(added)} token{'s' if len(added) > 1 else ''}: "
            f"id{'s' if len(added) > 1 else ''} {', '.join(map(str, added))})"
        )
    if not pipeline.get("ignore_merges", True) and unbuilt:
        out.append(
            f"ignore_merges=false ({unbuilt} token(s) of the vocab are made by no merge: the original "
            "builds a pre-token equal to one of them by the merges, these formats take the whole token)"
        )
    flagged = [
        t.get("content")
        for t in pipeline.get("added_tokens") or []
        if isinstance(t, dict) and (t.get("lstrip") or t.get("rstrip") or t.get("single_word"))
    ]
    if flagged:
        shown = ", ".join(map(repr, flagged[:3])) + (" …" if len(flagged) > 3 else "")
        out.append(f"the lstrip/rstrip/single_word options of {len(flagged)} added token(s) ({shown})")
    return out


def _kinds(step: dict[str, Any], key: str) -> str:
    """``NFC`` or ``Sequence[Split, Split, ByteLevel]``."""
    kind = str(step.get("type"))
    subs = step.get(key) if kind == "Sequence" else None
    if not isinstance(subs, list):
        return kind
    return f"Sequence[{', '.join(_kinds(s, key) if isinstance(s, dict) else '?' for s in subs)}]"


def _plain_pre_tokenizer(pre: Any) -> bool:
    """One regex (Split isolated, or ByteLevel's own) then ByteLevel without a prefix space: what a
    pattern says."""
    steps = pre.get("pretokenizers", []) if isinstance(pre, dict) and pre.get("type") == "Sequence" else [pre]
    if not steps or not all(isinstance(s, dict) for s in steps):
        return False
    last = steps[-1]
    if last.get("type") != "ByteLevel" or last.get("add_prefix_space", True) or len(steps) > 2:
        return False
    if len(steps) == 1:
        return True
    split = steps[0]
    return (
        split.get("type") == "Split"
        and str(split.get("behavior")).lower() == "isolated"
        and not split.get("invert")
        and "Regex" in (split.get("pattern") or {})
        and not last.get("use_regex", True)
    )


def reading_notes(spec: TokenizerSpec, fmt: str, written: list[Any] | None = None) -> list[str]:
    """What a reader of format ``fmt`` must be told to get this tokenizer's ids back: GPT-2 and
    tiktoken files store no pattern (readers assume GPT-2's: HF ``ByteLevelBPETokenizer``, our
    import) and tiktoken files no special-token ids. Empty when nothing needs saying (the GPT-2
    pattern, or a tiktoken file that is a known encoding and so brings both)."""
    if fmt == "hf":
        return _left_out_settings(spec)
    if fmt not in ("gpt2", "tiktoken"):
        return []
    if fmt == "tiktoken" and written:
        from core.formats.known import known_encoding

        known = known_encoding(written[0])
        if (
            known is not None
            and known.pattern == spec.pattern_regex
            and known.special_ids == spec.special_ids
        ):
            return []
    name = spec.pattern_name
    shown = (
        "GPT-2's" if name == "gpt2" else (repr(name) if len(name) <= 12 else f"a custom regex ({name[:40]}…)")
    )
    out: list[str] = []
    if name != "gpt2":
        files = "GPT-2 files store" if fmt == "gpt2" else "tiktoken file stores"
        out.append(
            f"the {files} no pattern and readers assume GPT-2's; this tokenizer splits text "
            f"with {shown}: give it when reading (--pattern; the app asks for tiktoken files; HF: "
            "a Split pre-tokenizer) or the ids differ"
        )
    if fmt == "tiktoken" and spec.special_tokens and not spec.specials_in_text:
        out.append(
            "the tokenizer's special tokens are not looked for in text (as mistral-common's encode): "
            "with tiktoken, encode with allowed_special=set(), disallowed_special=() (encode_ordinary), "
            "not allowed_special='all'"
        )
    elif fmt == "tiktoken" and (texts := _text_specials(spec)):  # (not UTF-8: no reader takes them)
        ids = spec.special_ids
        first = ", ".join(f"'{s}={ids[s]}'" for s in texts[:2])
        out.append(
            f"the tiktoken file stores no special tokens: give them as TOKEN=ID when reading it "
            f"(--special-token {first}{' …' if len(texts) > 2 else ''})"
        )
    return out


def _text_specials(spec: TokenizerSpec) -> list[str]:
    """The special tokens of ``spec`` that are UTF-8 text."""
    bad = set(non_utf8_specials(spec.special_tokens))
    return [s for s in spec.special_tokens if s not in bad]


def _left_out_settings(spec: TokenizerSpec) -> list[str]:
    """The imported file's truncation and padding, which the ``tokenizer.json`` export leaves out (so
    that HF's ``encode`` gives every token of a text, as BPE Explorer does), and how to set them again."""
    conf = spec.pipeline if isinstance(spec.pipeline, dict) else {}
    out: list[str] = []
    trunc, pad = conf.get("truncation"), conf.get("padding")
    if trunc is not None:
        size = trunc.get("max_length") if isinstance(trunc, dict) else None
        out.append(
            f"the original tokenizer.json truncates to {size} tokens; the exported one does not (HF's "
            f"encode gives every token): set it again with enable_truncation(max_length={size}) if wanted"
        )
    if pad is not None:
        out.append(
            "the original tokenizer.json pads; the exported one does not: set it again with "
            "enable_padding(...) if wanted"
        )
    return out
