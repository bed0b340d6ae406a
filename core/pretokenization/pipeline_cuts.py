"""Where the text of an imported HF ``tokenizer.json`` pipeline may be cut into blocks that encode as
the whole text does (for :mod:`core.pretokenization.blocks`: ``encode`` to ``.npy``, ``eval``, Dask).

Read from the pipeline description alone (:func:`core.pipeline.hf.pipeline_config`), importing
nothing else of core (the block cutter sits below the loaders).

>>> block_cuts({"normalizer": {"type": "NFC"}, "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False}}).mode
'normalized'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

_CHAR_LOCAL = ("NFC", "NFD", "NFKC", "NFKD", "Lowercase")


def _normalizer_kinds(step: Any) -> list[str]:
    if not isinstance(step, dict):
        return []
    if step.get("type") == "Sequence":
        return [k for sub in step.get("normalizers") or [] for k in _normalizer_kinds(sub)]
    return [str(step.get("type"))]


def _pre_kinds(step: Any) -> list[str]:
    """The pre-tokenizer as steps: "text" (a split of the text), "prefix" (ByteLevel's prefix space),
    "bytelevel" (the byte mapping), as :func:`core.pipeline.pretokenizers.pre_steps` runs them."""
    if not isinstance(step, dict):
        return []
    kind = step.get("type")
    if kind == "Sequence":
        return [k for sub in step.get("pretokenizers") or [] for k in _pre_kinds(sub)]
    if kind == "ByteLevel":
        return (
            (["prefix"] if step.get("add_prefix_space", True) else [])
            + (["text"] if step.get("use_regex", True) else [])
            + ["bytelevel"]
        )
    return ["text"]


def _first_split(step: Any) -> str | None:
    """The regex of the pre-tokenizer's first step when that step splits the text into the pieces
    ``regex.findall`` gives plus the stretches between them (a ``Split`` with a regex, behaviour
    "Isolated", not inverted, or "Removed", inverted: the matches only; ``"gpt2"`` for ``ByteLevel``
    with ``use_regex`` and no prefix space),
    else None. The steps after it see one piece at a time, so a cut that splits this step's pieces
    exactly is exact for the whole pre-tokenizer."""
    if not isinstance(step, dict):
        return None
    kind = step.get("type")
    if kind == "Sequence":
        subs = step.get("pretokenizers") or []
        return _first_split(subs[0]) if subs else None
    if kind == "ByteLevel":
        return "gpt2" if step.get("use_regex", True) and not step.get("add_prefix_space", True) else None
    behavior = str(step.get("behavior", "Isolated")).lower()
    # "Removed" with invert keeps the matches and drops the stretches between them (GPT-4o's and
    # MiniMax's files): a cut that leaves matches and stretches as they are leaves the matches too
    if kind == "Split" and (
        (behavior == "isolated" and not step.get("invert")) or (behavior == "removed" and step.get("invert"))
    ):
        pattern = step.get("pattern")
        if isinstance(pattern, dict) and isinstance(pattern.get("Regex"), str):
            return pattern["Regex"]
    return None


@dataclass(frozen=True)
class BlockCuts:
    """Where a corpus may be cut into blocks that this pipeline encodes as it encodes the whole.

    ``mode``: "pattern" (the pattern's safe cuts, as for our own tokenizers), "normalized" (those
    cuts, but never before a character that Unicode normalization may join to the one before it),
    "specials" (only before added tokens: HF normalizes and pre-tokenizes the pieces between added
    tokens one by one, so a cut there is exact for any normalizer or prefix space) or "whole" (no
    cut: a ``single_word`` token depends on both of its neighbours). ``cut_tokens`` are the added
    tokens a cut may go before; before an ``lstrip`` token the cut goes before the whitespace it eats.
    ``split``: the regex whose cuts apply (the pre-tokenizer's first split, see :func:`_first_split`);
    ``normalizers``: the kinds of normalization the text goes through.
    """

    mode: Literal["pattern", "normalized", "specials", "whole"]
    cut_tokens: frozenset[str] = frozenset()
    lstrip_tokens: frozenset[str] = frozenset()
    split: str | None = None
    normalizers: tuple[str, ...] = ()


def block_cuts(conf: dict[str, Any]) -> BlockCuts:
    """The :class:`BlockCuts` of a pipeline description."""
    added = conf.get("added_tokens") or []
    if any(t.get("single_word") for t in added):
        return BlockCuts("whole")
    kinds = _normalizer_kinds(conf.get("normalizer"))
    steps = _pre_kinds(conf.get("pre_tokenizer"))
    split = _first_split(conf.get("pre_tokenizer"))
    mode: Literal["pattern", "normalized", "specials"] = "pattern"
    if kinds:
        mode = "normalized" if all(k in _CHAR_LOCAL for k in kinds) else "specials"
    # a prefix space, several splits of which the first is not one whose cuts are known, a split of
    # the byte-mapped text, or whitespace that an added token strips: only the pieces between added tokens
    if (
        "prefix" in steps
        or (steps.count("text") > 1 and split is None)
        or ("text" in steps and "bytelevel" in steps and steps.index("text") > steps.index("bytelevel"))
        or any(t.get("lstrip") or t.get("rstrip") for t in added)
    ):
        mode = "specials"
    # a normalized token is matched in normalized text: a cut before its raw text is exact only
    # where nothing is normalized
    cut = frozenset(t["content"] for t in added if not (t.get("normalized") and kinds))
    return BlockCuts(
        mode,
        cut,
        frozenset(t["content"] for t in added if t.get("lstrip") and t["content"] in cut),
        split,
        tuple(kinds),
    )
