"""Which characters a TrueType font maps to a glyph: its ``cmap`` table read with
``struct`` (formats 4 and 12, the Unicode ones), so the font test needs no font library.

>>> from companion.ui.theme import FONT_FILE
>>> 0x26D3 in characters(FONT_FILE)  # ⛓
True
"""
from __future__ import annotations

import struct
from pathlib import Path


class FontFileError(ValueError):
    """The file is not a TrueType font this reader understands."""


def characters(path: str | Path) -> set[int]:
    """The code points ``path``'s Unicode cmap subtables map to a real glyph (not .notdef)."""
    data = Path(path).read_bytes()
    tables = {}
    for i in range(struct.unpack_from(">H", data, 4)[0]):
        tag, _sum, offset, _length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        tables[tag] = offset
    if b"cmap" not in tables:
        raise FontFileError(f"{path}: no cmap table")
    cmap = tables[b"cmap"]
    out: set[int] = set()
    for i in range(struct.unpack_from(">H", data, cmap + 2)[0]):
        _platform, _encoding, sub = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        start = cmap + sub
        fmt = struct.unpack_from(">H", data, start)[0]
        if fmt == 4:
            out |= _format4(data, start)
        elif fmt == 12:
            out |= _format12(data, start)
    return out


def _format4(data: bytes, at: int) -> set[int]:
    segs = struct.unpack_from(">H", data, at + 6)[0] // 2
    ends = struct.unpack_from(f">{segs}H", data, at + 14)
    starts = struct.unpack_from(f">{segs}H", data, at + 16 + 2 * segs)
    deltas = struct.unpack_from(f">{segs}h", data, at + 16 + 4 * segs)
    range_at = at + 16 + 6 * segs
    offsets = struct.unpack_from(f">{segs}H", data, range_at)
    out = set()
    for k in range(segs):
        for c in range(starts[k], ends[k] + 1):
            if c == 0xFFFF:
                continue
            if offsets[k] == 0:
                glyph = (c + deltas[k]) & 0xFFFF
            else:
                glyph = struct.unpack_from(">H", data, range_at + 2 * k + offsets[k] + 2 * (c - starts[k]))[0]
                glyph = (glyph + deltas[k]) & 0xFFFF if glyph else 0
            if glyph:
                out.add(c)
    return out


def _format12(data: bytes, at: int) -> set[int]:
    out = set()
    for k in range(struct.unpack_from(">I", data, at + 12)[0]):
        first, last, glyph = struct.unpack_from(">III", data, at + 16 + 12 * k)
        out.update(c for c in range(first, last + 1) if glyph + (c - first))
    return out
