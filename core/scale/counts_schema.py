"""The counts file's schema and its records (a leaf module: no other counts module is imported here).

See :mod:`core.scale.counts` for the file layout.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import FormatError
from core.pretokenization.pretokenize import CorpusStats, check_special_tokens, pattern_name, resolve_pattern

FORMAT = "bpe-explorer-counts"
VERSION = 1
META_KEY = b"bpe_explorer"
POS_BITS = 40  # (file, offset) packed in one int64 while reducing: offsets below 1 TiB, 8M files
EXTRA_HINT = 'install the scale extra: pip install "bpe-explorer[scale]"'


class CountsError(FormatError):
    """A counts file is malformed, or counts that cannot be combined were combined."""


def need_pyarrow():
    try:
        import pyarrow as pa
        import pyarrow.parquet
    except ImportError as e:
        raise CountsError(f"counts files need pyarrow; {EXTRA_HINT}", code="counts_pyarrow") from e
    return pa


def tool_version() -> str:
    try:
        from importlib.metadata import version

        return f"bpe-explorer {version('bpe-explorer')}"
    except Exception:
        return "bpe-explorer"


@dataclass(frozen=True)
class CountsMeta:
    """What a counts file says about how it was counted."""

    pattern: str | None  # the resolved regex (None: no pre-tokenization)
    special_tokens: tuple[str, ...]
    sources: tuple[str, ...]
    tool: str = ""
    size_bytes: int = 0
    invalid_bytes: int = 0
    special_occurrences: int = 0
    chunks: int = 0
    known: bool = True  # False: read from a file without metadata (pattern and specials unknown)
    positions: bool = (
        True  # False: no first_file/first_offset columns (rows in file order; lexicographic only)
    )

    def to_json(self) -> bytes:
        d = {
            "format": FORMAT,
            "version": VERSION,
            "pattern": self.pattern,
            "pattern_name": pattern_name(self.pattern),
            "special_tokens": list(self.special_tokens),
            "sources": list(self.sources),
            "tool": self.tool,
            "size_bytes": self.size_bytes,
            "invalid_bytes": self.invalid_bytes,
            "special_occurrences": self.special_occurrences,
            "chunks": self.chunks,
        }
        return json.dumps(d, ensure_ascii=False).encode("utf-8")

    @classmethod
    def from_json(cls, raw: bytes, name: str) -> CountsMeta:
        try:
            d = json.loads(raw.decode("utf-8"))
            if d.get("format") != FORMAT:
                raise CountsError(
                    f"{name}: metadata 'bpe_explorer' is not a {FORMAT} record",
                    code="counts_meta_kind",
                    name=name,
                )
            if int(d.get("version", 0)) > VERSION:
                raise CountsError(
                    f"{name} is counts format version {d['version']}; this version reads "
                    f"up to {VERSION}: update bpe-explorer",
                    code="counts_newer",
                    name=name,
                    version=d["version"],
                    supported=VERSION,
                )
            specials = check_special_tokens(d.get("special_tokens") or [])
            return cls(
                _stored_pattern(d, name),
                tuple(specials),
                tuple(map(str, d.get("sources") or ())),
                str(d.get("tool", "")),
                int(d.get("size_bytes", 0)),
                int(d.get("invalid_bytes", 0)),
                int(d.get("special_occurrences", 0)),
                int(d.get("chunks", 0)),
            )
        except (ValueError, KeyError, TypeError, AttributeError, OverflowError, RecursionError) as e:
            if isinstance(e, CountsError):
                raise
            raise CountsError(
                f"{name}: unreadable 'bpe_explorer' metadata ({e}); see the README's counts schema",
                code="counts_meta_unreadable",
                name=name,
                detail=str(e),
            ) from e


def _stored_pattern(d: dict, name: str) -> str | None:
    """The resolved pattern of a metadata record: ``pattern`` (a regex, a name, or null for no
    pre-tokenization), else ``pattern_name``; a record with neither is refused (a missing key must not
    silently mean "no pre-tokenization")."""
    if "pattern" not in d and "pattern_name" not in d:
        raise CountsError(
            f"{name}: metadata 'bpe_explorer' has no 'pattern'; add the pattern the counts were "
            'made with ("gpt2", "gpt4", the regex, or null for no pre-tokenization)',
            code="counts_meta_no_pattern",
            name=name,
        )
    pattern = resolve_pattern(d["pattern"] if "pattern" in d else d["pattern_name"])
    if "pattern" in d and "pattern_name" in d and resolve_pattern(d["pattern_name"]) != pattern:
        raise CountsError(
            f"{name}: metadata 'bpe_explorer' has pattern {pattern_name(pattern)!r} but "
            f"pattern_name {d['pattern_name']!r}; make them agree",
            code="counts_meta_patterns",
            name=name,
            pattern=pattern_name(pattern),
            shown=repr(d["pattern_name"]),
        )
    return pattern


@dataclass(frozen=True)
class PretokenCounts:
    """Distinct pre-tokens with counts and first positions, sorted by first position."""

    tokens: list[bytes]
    counts: list[int]
    files: list[int]
    offsets: list[int]
    meta: CountsMeta
    workers: int = 1
    notes: tuple[str, ...] = field(default=())

    def word_counts(self) -> dict[bytes, int]:
        """``{pre-token: count}`` in first-seen order (what :class:`core.training.trainer.Trainer` takes)."""
        return dict(zip(self.tokens, self.counts))

    def stats(self, name: str | None = None) -> CorpusStats:
        m = self.meta
        src = m.sources
        label = name or (Path(src[0]).name if len(src) == 1 else f"{len(src)} files")
        notes = list(self.notes)
        if m.invalid_bytes:
            notes.append(
                f"{m.invalid_bytes:,} invalid UTF-8 byte{'' if m.invalid_bytes == 1 else 's'} kept byte-exactly"
            )
        return CorpusStats(
            name=label,
            size_bytes=m.size_bytes,
            pretokens=sum(self.counts),
            distinct_pretokens=len(self.tokens),
            invalid_bytes=m.invalid_bytes,
            special_occurrences=m.special_occurrences,
            chunks=m.chunks,
            workers=self.workers,
            notes=notes,
        )


# ---------------------------------------------------------------------------- counting here
