"""The parts of a HuggingFace ``tokenizer.json`` pipeline around a byte-level BPE model.

Built from the file's JSON by :func:`build_pipeline`: the normalizer, the added tokens (special or
not, with ``lstrip``/``rstrip``/``single_word``/``normalized``), the pre-tokenizer and the
post-processor, with HF ``tokenizers``' semantics, so that :class:`core.Tokenizer` gives its ids:

1. added tokens that are not normalized are cut out of the raw text (leftmost, longest first);
2. each remaining piece is normalized, then the normalized added tokens are cut out of it;
3. each remaining piece is pre-tokenized; pieces no pattern matches are kept (never dropped);
4. each pre-token goes through the BPE model; the post-processor adds its tokens around the result.

>>> p = build_pipeline({"normalizer": {"type": "NFC"}, "pre_tokenizer": {"type": "ByteLevel",
...     "add_prefix_space": True, "use_regex": True}})
>>> p.pretokenize(p.normalize("e\\u0301t\\u00e9 42"))
[' été', ' 42']
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

import regex

from core.bpe.support import compile_alternation
from core.errors import FormatError
from core.pipeline.pretokenizers import Bad, compile_pattern, pattern_of, pre_steps, run_steps

# --------------------------------------------------------------------------- normalizers
# Characters HF ``tokenizers`` leaves alone when it normalizes, though Python's tables give them a
# combining class or a decomposition: its normalization tables are older than Unicode 10, so marks and
# compatibility characters added since (Unicode 10 to 15.1; found by comparing both on every code point)
# are plain starters there. Inside ``_unicode`` they stand in as private-use characters, which every
# normalization form leaves as they are and which block reordering and composition as a starter does.
_NEWER_THAN_HF = regex.compile(
    r"["
    r"\u07fd\u0898-\u089f\u08ca-\u08d3\u09fe\u0c3c\u0d3b-\u0d3c\u0eba\u1715\u1abf-\u1ace"
    r"\u1df6-\u1dfa\u32ff\ua7f2-\ua7f4\ua82c\uab69\U00010781-\U00010785\U00010787-\U000107b0"
    r"\U000107b2-\U000107ba\U00010d24-\U00010d27\U00010eab-\U00010eac\U00010f46-\U00010f50"
    r"\U00010f82-\U00010f85\U00011070\U0001133b\U0001145e\U00011839-\U0001183a\U00011938"
    r"\U0001193d-\U0001193e\U00011943\U000119e0\U00011a34\U00011a47\U00011a99\U00011d42"
    r"\U00011d44-\U00011d45\U00011d97\U00016ff0-\U00016ff1\U0001e130-\U0001e136\U0001e2ae"
    r"\U0001e2ec-\U0001e2ef\U0001f16c\U0001fbf0-\U0001fbf9\U00010efd-\U00010eff"
    r"\U00011f41-\U00011f42\U0001e030-\U0001e06d\U0001e08f\U0001e4ec-\U0001e4ef"
    r"]"
)
_STAND_INS = 0xF0000  # plane 15, private use


def _unicode(form: Literal["NFC", "NFD", "NFKC", "NFKD"]) -> Callable[[str], str]:
    def norm(s: str) -> str:
        if s.isascii() or unicodedata.is_normalized(form, s):
            return s  # the common case costs one scan
        newer = set(_NEWER_THAN_HF.findall(s))
        if not newer:
            return unicodedata.normalize(form, s)
        free = (chr(c) for c in range(_STAND_INS, 0x10FFFE) if chr(c) not in s)
        there = {ord(ch): stand for ch, stand in zip(sorted(newer), free)}
        back = {ord(stand): ch for ch, stand in zip(sorted(newer), there.values())}
        return unicodedata.normalize(form, s.translate(there)).translate(back)

    return norm


def _lowercase(s: str) -> str:
    """HF's Lowercase: each character on its own (Rust's ``char::to_lowercase``). Python's
    ``str.lower`` looks at the context of a capital sigma (word-final "Σ" gives "ς"); HF gives "σ"."""
    return s.replace("\u03a3", "\u03c3").lower() if "\u03a3" in s else s.lower()


def _normalizer(step: Any) -> Callable[[str], str] | None:
    if step is None:
        return None
    if not isinstance(step, dict):
        raise Bad(
            f"normalizer {step!r} is not an object", code="hf_normalizer_not_object", shown=repr(step)[:60]
        )
    kind = step.get("type")
    if kind in ("NFC", "NFD", "NFKC", "NFKD"):
        return _unicode(kind)
    if kind == "Lowercase":
        return _lowercase
    if kind == "Sequence":
        parts = [f for f in map(_normalizer, step.get("normalizers") or []) if f is not None]
        if not parts:
            return None
        if len(parts) == 1:
            return parts[0]

        def seq(s: str) -> str:
            for f in parts:
                s = f(s)
            return s

        return seq
    if kind == "Replace":
        pat, is_re = pattern_of(step, "Replace normalizer")
        content = step.get("content", "")
        if not isinstance(content, str):
            raise Bad(
                f"Replace normalizer content {content!r} is not a string",
                code="hf_field_not_string",
                field="Replace.content",
                shown=repr(content)[:60],
            )
        if is_re:
            rx = compile_pattern(pat, "Replace normalizer")
            return lambda s: rx.sub(lambda m: content, s)
        return lambda s: s.replace(pat, content) if pat else s
    if kind == "Prepend":
        pre = step.get("prepend", "")
        if not isinstance(pre, str):
            raise Bad(
                f"Prepend normalizer prepend {pre!r} is not a string",
                code="hf_field_not_string",
                field="Prepend.prepend",
                shown=repr(pre)[:60],
            )
        return lambda s: pre + s if s else s
    if kind == "Strip":
        left, right = bool(step.get("strip_left", True)), bool(step.get("strip_right", True))
        lre, rre = regex.compile(r"^\s+"), regex.compile(r"\s+$")

        def strip(s: str) -> str:
            if left:
                s = lre.sub("", s)
            if right:
                s = rre.sub("", s)
            return s

        return strip
    raise Bad(
        f"normalizer {kind!r} is not supported (supported: NFC, NFD, NFKC, NFKD, Lowercase, "
        "Replace, Prepend, Strip and a Sequence of them)",
        code="hf_normalizer_unsupported",
        kind=repr(kind),
    )


# --------------------------------------------------------------------------- added tokens
@dataclass(frozen=True)
class AddedToken:
    """An HF added token and its matching flags."""

    content: str
    id: int
    special: bool = True
    lstrip: bool = False
    rstrip: bool = False
    single_word: bool = False
    normalized: bool = False


_WORD_CHAR = regex.compile(r"\w")
_SPACE_AT_END = regex.compile(r"\s*$")
_SPACES = regex.compile(r"\s*")


class _Matcher:
    """Cuts added tokens out of a text (leftmost, then longest; HF's flags)."""

    def __init__(self, tokens: dict[str, AddedToken]) -> None:
        self.tokens = tokens
        self.rx = compile_alternation(tokens)
        self.plain = all(not (t.lstrip or t.rstrip or t.single_word) for t in tokens.values())

    def split(self, s: str) -> Iterator[tuple[str, int | None]]:
        if self.rx is None or not s:
            yield s, None
            return
        pos = 0
        for m in self.rx.finditer(s):
            start, stop = m.span()
            tok = self.tokens[m.group()]
            if not self.plain:
                if start < pos or (
                    tok.single_word
                    and (
                        (start > 0 and _WORD_CHAR.match(s, start - 1))
                        or (stop < len(s) and _WORD_CHAR.match(s, stop))
                    )
                ):
                    continue
                # both patterns match any text (maybe empty): neither search gives None
                if tok.lstrip and (before := _SPACE_AT_END.search(s, 0, start)) is not None:
                    start = max(before.start(), pos)
                if tok.rstrip and (after := _SPACES.match(s, stop)) is not None:
                    stop = after.end()
            if start > pos:
                yield s[pos:start], None
            yield s[start:stop], tok.id
            pos = stop
        if pos < len(s):
            yield s[pos:], None


# --------------------------------------------------------------------------- the pipeline
@dataclass(frozen=True)
class HFPipeline:
    """What a ``tokenizer.json`` adds around the BPE model (see the module docstring)."""

    normalizer: Callable[[str], str] | None
    raw_added: Any  # _Matcher of the added tokens that are not normalized
    norm_added: Any  # _Matcher of the normalized ones
    pretokenize: Callable[[str], list[str]]
    prefix_ids: tuple[int, ...] = ()  # what the post-processor puts before / after one sequence
    suffix_ids: tuple[int, ...] = ()
    ignore_merges: bool = False
    added_tokens: tuple[AddedToken, ...] = ()
    notes: tuple[str, ...] = field(default=())  # truncation/padding and the like, for the user
    #: the char-level BPE model (SentencePiece style, :mod:`core.charbpe`) that encodes the pre-tokens
    charbpe: Any = None
    #: ``pretokenize`` for the piece that starts the text (a Metaspace step's "first" prepend scheme)
    pretokenize_first: Callable[[str], list[str]] | None = None

    def normalize(self, s: str) -> str:
        return s if self.normalizer is None else self.normalizer(s)

    def pieces(self, text: str) -> Iterator[tuple[str, int | None]]:
        """(normalized text, None) and (added token text, id) pieces of ``text``, in order."""
        for raw, tid in self.raw_added.split(text):
            if tid is not None:
                yield raw, tid
            elif raw:
                yield from self.norm_added.split(self.normalize(raw))


def _post(step: Any, token_id: Callable[[str], int]) -> tuple[list[int], list[int]]:
    """(ids before, ids after) a single sequence for a post-processor."""
    if step is None:
        return [], []
    if not isinstance(step, dict):
        raise Bad(
            f"post-processor {step!r} is not an object", code="hf_post_not_object", shown=repr(step)[:60]
        )
    kind = step.get("type")
    if kind == "ByteLevel":
        return [], []  # only trims offsets
    if kind in ("RobertaProcessing", "BertProcessing"):
        try:
            cls_id, sep_id = int(step["cls"][1]), int(step["sep"][1])
        except (KeyError, TypeError, ValueError, IndexError):
            raise Bad(
                f"{kind} needs cls and sep as [token, id] pairs", code="hf_post_cls_sep", kind=kind
            ) from None
        return [cls_id], [sep_id]
    if kind == "TemplateProcessing":
        specials = step.get("special_tokens") or {}
        before: list[int] = []
        after: list[int] = []
        seen = False
        for item in step.get("single") or []:
            if not isinstance(item, dict):
                raise Bad(
                    f"TemplateProcessing item {item!r} is not an object",
                    code="hf_template_item",
                    shown=repr(item)[:60],
                )
            if "Sequence" in item:
                seen = True
            elif "SpecialToken" in item:
                name = item["SpecialToken"].get("id")
                entry = specials.get(name)
                ids = list(entry.get("ids") or []) if isinstance(entry, dict) else [token_id(name)]
                bad = [i for i in ids if type(i) is not int or not 0 <= i < 1 << 31]
                if bad:  # (Infinity, a string, a negative id …)
                    raise Bad(
                        f"TemplateProcessing special token {name!r} has the id {bad[0]!r}, not an id",
                        code="hf_template_id",
                        token=name,
                        shown=repr(bad[0])[:40],
                    )
                (after if seen else before).extend(ids)
            else:
                raise Bad(
                    f"TemplateProcessing item {item!r} is neither a SpecialToken nor a Sequence",
                    code="hf_template_item_kind",
                    shown=repr(item)[:60],
                )
        return before, after
    if kind == "Sequence":
        before, after = [], []
        for sub in step.get("processors") or []:
            b, a = _post(sub, token_id)
            before, after = b + before, after + a
        return before, after
    raise Bad(
        f"post-processor {kind!r} is not supported (supported: TemplateProcessing, ByteLevel, "
        "RobertaProcessing, BertProcessing, Sequence)",
        code="hf_post_unsupported",
        kind=repr(kind),
    )


def pipeline_config(
    data: dict[str, Any],
    model: dict[str, Any],
    path: object,
    token_id: Callable[[str], int],
    *,
    char_level: bool = False,
) -> dict[str, Any]:
    """The picklable description of a ``tokenizer.json`` pipeline (checked: unsupported parts raise
    :class:`FormatError` naming the file); :func:`build_pipeline` turns it into an :class:`HFPipeline`."""
    vocab = model.get("vocab")
    model_vocab: dict[str, Any] = vocab if isinstance(vocab, dict) else {}
    try:
        before, after = _post(data.get("post_processor"), token_id)
    except Bad as e:
        raise FormatError(
            f"{path}: {e}",
            code=e.code or "hf_pipeline_invalid",
            **{"file": str(path), "detail": str(e), **e.params},
        ) from None
    except (TypeError, ValueError, AttributeError, KeyError, IndexError) as e:
        raise FormatError(
            f"{path}: the post-processor is malformed ({type(e).__name__}: {e}); fix or remove it",
            code="hf_post_malformed",
            file=str(path),
            detail=f"{type(e).__name__}: {e}",
        ) from None
    conf = {
        "normalizer": data.get("normalizer"),
        "pre_tokenizer": data.get("pre_tokenizer"),
        # an added token whose text is a key of the model vocab takes that key's id (as in HF)
        "added_tokens": [
            {**t, "id": model_vocab[t["content"]]} if t.get("content") in model_vocab else dict(t)
            for t in data.get("added_tokens") or []
        ],
        "prefix_ids": before,
        "suffix_ids": after,
        "post_processor": data.get("post_processor"),
        "ignore_merges": bool(model.get("ignore_merges", False)),
        "truncation": data.get("truncation"),
        "padding": data.get("padding"),
    }
    try:
        build_pipeline(conf)
        pre = data.get("pre_tokenizer")
        if not char_level and not any(
            kind == "bytelevel" for kind, _ in (pre_steps(pre) if pre is not None else [])
        ):
            raise Bad(
                "the pre-tokenizer has no ByteLevel step, so HF looks up raw characters, not bytes, "
                "in the vocab (a char-level tokenizer); BPE Explorer opens byte-level BPE",
                code="hf_not_byte_level",
            )
    except Bad as e:
        raise FormatError(
            f"{path}: {e}",
            code=e.code or "hf_pipeline_invalid",
            **{"file": str(path), "detail": str(e), **e.params},
        ) from None
    except (TypeError, ValueError, AttributeError, KeyError, IndexError) as e:
        raise FormatError(
            f"{path}: the normalizer or pre-tokenizer is malformed ({type(e).__name__}: {e}); "
            "compare it with a file HF writes",
            code="hf_pipeline_malformed",
            file=str(path),
            detail=f"{type(e).__name__}: {e}",
        ) from None
    return conf


def build_pipeline(conf: dict[str, Any]) -> HFPipeline:
    """An :class:`HFPipeline` from :func:`pipeline_config`'s description (or a ``tokenizer.json``
    object with ``prefix_ids``/``suffix_ids`` in place of a post-processor).

    >>> build_pipeline({"pre_tokenizer": {"type": "Digits", "individual_digits": True}}).pretokenize("a12")
    ['a', '1', '2']
    """
    norm = _normalizer(conf.get("normalizer"))
    pre = conf.get("pre_tokenizer")
    steps = pre_steps(pre) if pre is not None else []
    charbpe = None
    if conf.get("charbpe") is not None:
        from core.bpe.charbpe import CharBPE

        charbpe = CharBPE(conf["charbpe"])
        if charbpe.mode == "sentencepiece":  # a .model: its own normalization, no pre-tokenizer
            from core.pipeline.sp_normalizer import Normalizer

            sp_norm = Normalizer.of(conf["charbpe"].get("normalizer") or {}, charbpe.user_defined)
            norm, steps = sp_norm.normalize, []
    first = any(kind == "metaspace" and f[1] == "first" for kind, f in steps)
    added = tuple(
        AddedToken(
            t["content"],
            t["id"],
            bool(t.get("special", False)),
            bool(t.get("lstrip")),
            bool(t.get("rstrip")),
            bool(t.get("single_word")),
            bool(t.get("normalized")),
        )
        for t in conf.get("added_tokens") or []
    )
    raw = {t.content: t for t in added if not t.normalized}
    normed: dict[str, AddedToken] = {}
    for t in added:
        if t.normalized:
            key = norm(t.content) if norm is not None else t.content
            if key:  # a token the normalizer empties can never match (HF skips it too)
                normed[key] = t
    notes = []
    trunc, pad = conf.get("truncation"), conf.get("padding")
    if trunc is not None:
        size = trunc.get("max_length") if isinstance(trunc, dict) else None
        notes.append(
            f"the file sets truncation (to {size} tokens); BPE Explorer shows every token, does not "
            "apply it and leaves it out of its tokenizer.json exports"
        )
    if pad is not None:
        notes.append(
            f"the file sets padding ({pad.get('strategy') if isinstance(pad, dict) else pad!r}); "
            "BPE Explorer does not apply it and leaves it out of its tokenizer.json exports"
        )
    return HFPipeline(
        norm,
        _Matcher(raw),
        _Matcher(normed),
        run_steps(steps),
        tuple(conf.get("prefix_ids") or ()),
        tuple(conf.get("suffix_ids") or ()),
        bool(conf.get("ignore_merges", False)),
        added,
        tuple(notes),
        charbpe,
        run_steps(steps, first=True) if first else None,
    )


def pipeline_notes(pipe: HFPipeline, vocab: dict[int, bytes]) -> tuple[str, ...]:
    """What the user should know about a loaded pipeline: truncation/padding it does not apply, and
    the tokens the post-processor adds (e.g. GLM-4's ``[gMASK] <sop>``)."""
    before, after = pipe.prefix_ids, pipe.suffix_ids
    if not before and not after:
        return pipe.notes

    def names(ids: tuple[int, ...]) -> str:
        return " ".join(vocab[i].decode("utf-8", "replace") if i in vocab else f"#{i}" for i in ids)

    where = " and ".join(
        x
        for x in (f"{names(before)} before" if before else "", f"{names(after)} after" if after else "")
        if x
    )
    return (
        *pipe.notes,
        f"the post-processor adds {where} the text (encode(text, add_special_tokens=False) leaves them out)",
    )
