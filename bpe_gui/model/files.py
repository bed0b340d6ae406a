"""Tokenizer files for the GUI: export the session, import or compare a tokenizer (no Qt here)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from bpe_gui.model.marks import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from core.errors import BPEError

FORMAT_LABELS = {
    "gpt2": QT_TRANSLATE_NOOP("Files", "GPT-2 files (vocab.json + merges.txt)"),
    "hf": QT_TRANSLATE_NOOP("Files", "Hugging Face tokenizer.json"),
    "tiktoken": QT_TRANSLATE_NOOP("Files", "tiktoken (bpe.tiktoken)"),
    "native": QT_TRANSLATE_NOOP("Files", "Native bpe.json (keeps the merge timeline)"),
}
OPEN_FILTER = QT_TRANSLATE_NOOP(
    "Files", "Tokenizer files (*.json *.tiktoken *.model *.model.* *.txt);;All files (*)"
)


def export_tokenizer(
    source,
    folder: str | os.PathLike,
    formats: list[str],
    *,
    lossy: bool = False,
    replace_others: bool = False,
) -> tuple[list[Path], dict[str, BPEError]]:
    """Write ``formats`` of ``source`` (a Trainer or Tokenizer) into ``folder``: (the files written,
    {format: why} for the formats that cannot hold this tokenizer at all, which are left out).

    A format that cannot hold part of an imported pipeline is refused unless ``lossy`` (the user
    confirmed :func:`export_losses`); files there that no export of ours wrote are kept unless
    ``replace_others`` (the user confirmed :func:`files_not_ours`)."""
    from core.formats.partial_export import export_what_fits

    written, failed = export_what_fits(folder, source, formats, lossy=lossy, replace_others=replace_others)
    return [p for paths in written.values() for p in paths], failed


def files_not_ours(folder: str | os.PathLike, formats: list[str]) -> list[str]:
    """The files an export of ``formats`` would replace in ``folder`` that no export of ours wrote."""
    from core.formats import FILE_NAMES
    from core.formats.export_record import files_not_ours as not_ours

    return not_ours(folder, [n for fmt in formats for n in FILE_NAMES[fmt]])


def export_losses(source, formats: list[str]) -> dict[str, list[str]]:
    """For each chosen format, what it cannot hold of ``source`` (an imported tokenizer's pipeline;
    for tiktoken, the text a pattern does not match, which tiktoken drops; a special token that is
    not UTF-8; the pattern, which GPT-2 and tiktoken files do not store, when it is not GPT-2's and
    the file is not a known encoding's, which readers recognise)."""
    from core.formats import export_losses as losses
    from core.formats.spec import as_spec

    if source is None:
        return {}
    spec = as_spec(source)
    # (an imported pipeline; for tiktoken, a pattern that does not match all text, trained or
    # imported; a special token that is not UTF-8)
    out = {fmt: lost for fmt in formats if (lost := losses(spec, fmt))}
    if getattr(source, "char_model", None) is not None:
        return out  # (a char-level model fits neither: named above)
    name = spec.pattern_name
    for fmt in ("gpt2", "tiktoken"):
        if fmt not in formats:
            continue
        lost = out.setdefault(fmt, [])
        if any(x.startswith("the pre-tokenizer") for x in lost):
            pass  # (a pipeline's pre-tokenizer of several steps: named above, its regex with it)
        elif fmt == "tiktoken" and _known_encoding(spec):
            pass  # (the file is that encoding's: readers recognise it, pattern and special ids)
        elif name != "gpt2":  # readers of these files assume GPT-2's pattern (cl100k was read wrong)
            lost.append(
                f"the pattern ({name if len(name) <= 12 else name[:40] + '…'}; readers assume GPT-2's)"
            )
        if not lost:
            del out[fmt]
    return {fmt: out[fmt] for fmt in formats if fmt in out}  # (in the dialog's order)


def _known_encoding(spec) -> bool:
    """Whether ``spec`` is a known tiktoken encoding, whose file readers recognise (pattern, special
    ids and all)."""
    from core.formats.known import KNOWN_BY_HASH

    return any(
        k.pattern == spec.pattern_regex and k.special_ids == spec.special_ids for k in KNOWN_BY_HASH.values()
    )


def load_tokenizer(
    path: str | os.PathLike | list | tuple,
    *,
    special_tokens: dict[str, int] | None = None,
    pattern: str | None = None,
    merges_later: bool = False,
):
    """Load any supported tokenizer file (or folder): returns (Tokenizer, MergeRecords, name, note).

    ``merges_later``: when the file stores ranks, not merges (tiktoken, tekken), the merge list is
    not rebuilt here and the records are None (:func:`merges_to_recover` gives them).

    ``path`` may be two files picked together: a GPT-2 vocab and its merges file (any names).
    The records carry the merge counts when the file has a training record (native format);
    otherwise their counts are 0. ``note`` says what the loader recognised or assumed ("" when
    nothing): the spec's and the tokenizer's notes, one per line (the app shows them in its language).
    """
    from core.errors import FormatError
    from core.formats import load_any
    from core.formats.spec import records_from_spec
    from core.tokenization.tokenizer import Tokenizer

    merges = None
    if isinstance(path, (list, tuple)):
        picked = [Path(x) for x in path]
        if len(picked) == 1:
            path = picked[0]
        else:
            txt = [x for x in picked if x.suffix == ".txt"]
            rest = [x for x in picked if x.suffix != ".txt"]
            if len(picked) != 2 or len(txt) != 1:
                raise FormatError(
                    "pick one tokenizer file or folder, or a GPT-2 vocab .json together with its "
                    f"merges .txt (got {', '.join(x.name for x in picked)})",
                    code="pick_files",
                    names=", ".join(x.name for x in picked),
                )
            path, merges = rest[0], txt[0]
    spec = load_any(path, merges=merges, special_tokens=special_tokens, pattern=pattern)
    tokenizer = Tokenizer.from_spec(spec)
    records = None if merges_later and merges_to_recover(tokenizer) is not None else records_from_spec(spec)
    p = Path(path)
    name = p.name if p.is_dir() or p.name not in ("vocab.json", "merges.txt") else f"{p.parent.name}/{p.name}"
    notes = [*spec.notes, *tokenizer.notes]
    note = "\n".join(n for n in dict.fromkeys(notes) if n)  # one per line, in core's English
    return tokenizer, records, name, note


def warm_export_checks(tokenizer) -> None:
    """Run, off the GUI thread (an import's job), the check the Export dialog makes later: whether
    tiktoken would follow the merge list (about a second for 150k tokens, kept by the tokenizer's
    content: :func:`core.formats.rank_order.rank_order_example`)."""
    from core.errors import BPEError
    from core.formats.rank_order import rank_order_example

    try:
        rank_order_example(tokenizer.to_spec())
    except (BPEError, ValueError):  # (the dialog checks again, and says what is wrong)
        return


def merges_to_recover(tokenizer):
    """The :class:`core.bpe.ranks.RankMerges` of a tokenizer read from ranks (tiktoken, tekken)
    whose merge list is not rebuilt yet, or None (its merges are there, or made fast when read)."""
    from core.bpe.ranks import RankMerges

    if tokenizer.merges_built:
        return None
    lazy = tokenizer.to_spec().merges
    return lazy if isinstance(lazy, RankMerges) else None


def is_tokenizer_file(path: str | os.PathLike) -> bool:
    """Whether a dropped file looks like a tokenizer rather than a corpus."""
    p = Path(path)
    if p.is_dir():
        return True
    return (
        p.suffix in (".json", ".tiktoken", ".model")
        or ".model." in p.name  # mistral-common's tokenizer.model.v3
        or p.name.endswith("merges.txt")
    )
