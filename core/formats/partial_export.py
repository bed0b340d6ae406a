"""After a long training run, write every format that can hold the tokenizer, not none of them.

:func:`~core.formats.export_all` is all or nothing: a format that cannot hold the tokenizer (a
special token that is also a byte token, e.g. ``|``, cannot be a second key of GPT-2's
``vocab.json``) refuses the whole export. :func:`export_what_fits` writes the other formats in one
export (one record, see :mod:`core.formats.export_record`) and says why each refused one was left out.
:func:`one_byte_specials` finds the common case before the run.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from core.errors import BPEError

#: formats whose files key tokens by their text: a special token that is a single byte collides with that byte
KEYED_BY_TEXT = ("gpt2", "hf")


class _DryRun(Exception):
    pass


def one_byte_specials(special_tokens: Iterable[str], formats: Iterable[str]) -> BPEError | None:
    """The error to give before training when a special token is a single byte and a chosen format
    keys tokens by their text (GPT-2's vocab.json, HF's tokenizer.json): it would fail after the run."""
    ones = [s for s in special_tokens if len(s.encode("utf-8", "surrogateescape")) == 1]
    clash = [f for f in formats if f in KEYED_BY_TEXT]
    if not ones or not clash:
        return None
    keep = [f for f in formats if f not in KEYED_BY_TEXT] or ["native"]
    return BPEError(
        f"special token {ones[0]!r} is a single byte, the same text as the byte token {ones[0]!r}; the "
        f"{' and '.join(clash)} files hold each token text once, so they cannot hold it: choose "
        f"--format {','.join(keep)}, or a longer special token (e.g. '<|sep|>')"
    )


def export_what_fits(
    directory: str | os.PathLike,
    source: Any,
    formats: Iterable[str],
    *,
    replace_others: bool = False,
    lossy: bool = False,
) -> tuple[dict[str, list[Path]], dict[str, BPEError]]:
    """Export ``formats``; those that cannot hold the tokenizer are left out: (written files per format,
    the error that left each format out). ``replace_others`` and ``lossy`` as for
    :func:`core.formats.export_all`."""
    from core.files import staged_writes
    from core.formats import export_all, parse_formats, save

    names = parse_formats(formats)
    try:
        return export_all(directory, source, names, replace_others=replace_others, lossy=lossy), {}
    except BPEError as first:
        failed: dict[str, BPEError] = {}
        for name in names:  # which formats refuse (written to temp files, then dropped)
            try:
                with staged_writes():
                    save(source, directory, name, lossy=lossy)
                    raise _DryRun
            except _DryRun:
                pass
            except BPEError as e:
                failed[name] = e  # (its code and values: the app says it in its language)
        if not failed or len(failed) == len(names):  # (the folder or the disk failed, not a format)
            raise first from None
        fits = [n for n in names if n not in failed]
        kept = export_all(directory, source, fits, replace_others=replace_others, lossy=lossy) if fits else {}
        return kept, failed


def non_utf8_specials_error(special_tokens: Iterable[str], formats: Iterable[str]) -> BPEError | None:
    """The error to give before training when a special token's bytes are not UTF-8 (a byte-exact
    special token of a non-UTF-8 corpus) and a chosen format cannot hold it as a special token
    (tokenizer.json, tiktoken: see :func:`core.formats.losses.special_token_losses`)."""
    from core.formats.losses import HOLDS_ANY_SPECIAL, non_utf8_specials, special_shown

    bad = non_utf8_specials(special_tokens)
    lossy = [f for f in formats if f not in HOLDS_ANY_SPECIAL]
    if not bad or not lossy:
        return None
    keep = [f for f in formats if f in HOLDS_ANY_SPECIAL] or ["gpt2", "native"]
    return BPEError(
        f"special token {special_shown(bad[0])} is not UTF-8: the {' and '.join(lossy)} files cannot hold "
        f"it as a special token (a tokenizer.json and tiktoken's special tokens are text): choose "
        f"--format {','.join(keep)} (vocab.json + merges.txt and bpe.json hold its bytes), or convert "
        "to the others afterwards with --allow-lossy"
    )
