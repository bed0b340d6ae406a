"""A reader for SentencePiece ``.model`` files (a protobuf ``ModelProto``), without ``protobuf``.

Only the fields that decide ids are read: the pieces (text, score, type), the trainer spec's model
type, ``byte_fallback``, ``treat_whitespace_as_suffix`` and ``unk_surface``, and the normalizer spec
(name, precompiled character map, dummy prefix, extra whitespace, whitespace escaping). Unknown
fields are skipped, as protobuf readers do.

>>> raw = bytes([0x0A, 0x08, 0x0A, 0x01]) + b"a" + bytes([0x15, 0, 0, 0x80, 0xBF]) + bytes([0x12, 0x02, 0x18, 0x02])
>>> m = parse_model(raw)
>>> m.pieces, m.model_type
([Piece(piece='a', score=-1.0, type=1)], 2)
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from core.errors import FormatError

#: SentencePiece piece types (``ModelProto.SentencePiece.Type``)
NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6
TYPE_NAMES = {
    NORMAL: "normal",
    UNKNOWN: "unknown",
    CONTROL: "control",
    USER_DEFINED: "user-defined",
    UNUSED: "unused",
    BYTE: "byte",
}
#: ``TrainerSpec.ModelType``
MODEL_TYPES = {1: "Unigram", 2: "BPE", 3: "Word", 4: "Char"}


@dataclass(frozen=True)
class Piece:
    piece: str
    score: float
    type: int = NORMAL


@dataclass
class SPModel:
    """What a ``.model`` file says (protobuf defaults where a field is absent)."""

    pieces: list[Piece] = field(default_factory=list)
    model_type: int = 1  # Unigram
    byte_fallback: bool = False
    treat_whitespace_as_suffix: bool = False
    unk_surface: str = " \u2047 "
    normalizer_name: str = ""
    precompiled_charsmap: bytes = b""
    add_dummy_prefix: bool = True
    remove_extra_whitespaces: bool = True
    escape_whitespaces: bool = True


class _Bad(Exception):
    pass


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    out = shift = 0
    while True:
        if pos >= len(buf):
            raise _Bad("a number runs past the end")
        b = buf[pos]
        pos += 1
        out |= (b & 0x7F) << shift
        if b < 0x80:
            return out, pos
        shift += 7
        if shift > 63:
            raise _Bad("a number is longer than 10 bytes")


def _fields(buf: bytes):
    """(field number, wire type, value) of each field of one message; value is an int for
    varints and fixed widths, bytes for length-delimited fields."""
    pos, n = 0, len(buf)
    while pos < n:
        key, pos = _varint(buf, pos)
        num, wire = key >> 3, key & 7
        if wire == 0:
            val, pos = _varint(buf, pos)
            yield num, wire, val
        elif wire == 1:
            if pos + 8 > n:
                raise _Bad("a 64-bit field runs past the end")
            yield num, wire, buf[pos : pos + 8]
            pos += 8
        elif wire == 2:
            size, pos = _varint(buf, pos)
            if pos + size > n:
                raise _Bad(f"field {num} says {size} bytes but the message ends first")
            yield num, wire, buf[pos : pos + size]
            pos += size
        elif wire == 5:
            if pos + 4 > n:
                raise _Bad("a 32-bit field runs past the end")
            yield num, wire, buf[pos : pos + 4]
            pos += 4
        else:
            raise _Bad(f"wire type {wire} (field {num}) is not protobuf's")


def _text(b: object, what: str) -> str:
    if not isinstance(b, bytes):
        raise _Bad(f"{what} is not a string field")
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        raise _Bad(f"{what} is not UTF-8") from None


def _piece(buf: bytes) -> Piece:
    text, score, kind = "", 0.0, NORMAL
    for num, wire, val in _fields(buf):
        if num == 1 and wire == 2:
            text = _text(val, "a piece")
        elif num == 2 and wire == 5:
            assert isinstance(val, bytes)
            score = struct.unpack("<f", val)[0]
        elif num == 3 and wire == 0:
            assert isinstance(val, int)
            kind = val
    return Piece(text, score, kind)


def parse_model(data: bytes) -> SPModel:
    """A :class:`SPModel` from the bytes of a ``.model`` file; raises ``_Bad`` (caught by
    :func:`read_model`) on a damaged file."""
    m = SPModel()
    for num, wire, val in _fields(data):
        if num == 1 and wire == 2:
            assert isinstance(val, bytes)
            m.pieces.append(_piece(val))
        elif num == 2 and wire == 2:
            assert isinstance(val, bytes)
            for n, w, v in _fields(val):
                if n == 3 and w == 0:
                    m.model_type = int(v)
                elif n == 35 and w == 0:
                    m.byte_fallback = bool(v)
                elif n == 24 and w == 0:
                    m.treat_whitespace_as_suffix = bool(v)
                elif n == 44 and w == 2:
                    m.unk_surface = _text(v, "unk_surface")
        elif num == 3 and wire == 2:
            assert isinstance(val, bytes)
            for n, w, v in _fields(val):
                if n == 1 and w == 2:
                    m.normalizer_name = _text(v, "the normalizer name")
                elif n == 2 and w == 2:
                    assert isinstance(v, bytes)
                    m.precompiled_charsmap = v
                elif n == 3 and w == 0:
                    m.add_dummy_prefix = bool(v)
                elif n == 4 and w == 0:
                    m.remove_extra_whitespaces = bool(v)
                elif n == 5 and w == 0:
                    m.escape_whitespaces = bool(v)
    return m


def read_model(path: object, data: bytes) -> SPModel:
    """:func:`parse_model` with errors as :class:`FormatError` naming the file."""
    try:
        m = parse_model(data)
    except _Bad as e:
        raise FormatError(
            f"{path}: this looks like a SentencePiece .model file but cannot be read ({e}); "
            "the file is damaged or truncated: download it again",
            code="sp_model_damaged",
            file=str(path),
            detail=str(e),
        ) from None
    if not m.pieces:
        raise FormatError(
            f"{path}: a SentencePiece .model file without pieces; the file is damaged",
            code="sp_model_empty",
            file=str(path),
        )
    return m
