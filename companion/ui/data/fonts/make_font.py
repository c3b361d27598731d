"""Builds TabletopSans.ttf: DejaVu Sans 2.37 with the few glyphs it lacks (⏭ ⛓ ✋) taken
from Noto Sans Symbols 2, scaled to DejaVu's units. Kivy draws every label with one
font and no fallback, so a glyph missing from that font shows as an empty box.

A maintainer's tool, not part of the app (it needs fontTools):

    pip install fonttools
    python companion/ui/data/fonts/make_font.py DejaVuSans.ttf NotoSansSymbols2-Regular.ttf

The inputs are Debian's fonts-dejavu-core 2.37 (/usr/share/fonts/truetype/dejavu/) and
fonts-noto-core 20201225 (/usr/share/fonts/truetype/noto/). ``tests/ui/test_font.py``
checks that the shipped font has every character the app's strings use; when it names a
missing one, add it to DONATED and rebuild.
"""
from __future__ import annotations

import sys
from pathlib import Path

DONATED = (0x23ED, 0x26D3, 0x270B)  # ⏭ ⛓ ✋
FAMILY = "Tabletop Sans"
PS_NAME = "TabletopSans"
OUT = Path(__file__).with_name("TabletopSans.ttf")


def build(base_path: str, donor_path: str, out: Path = OUT) -> None:
    from fontTools.pens.transformPen import TransformPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont

    base, donor = TTFont(base_path), TTFont(donor_path)
    scale = base["head"].unitsPerEm / donor["head"].unitsPerEm
    donor_cmap, donor_glyphs = donor.getBestCmap(), donor.getGlyphSet()
    order = list(base.getGlyphOrder())
    for cp in DONATED:
        if cp in base.getBestCmap():
            continue
        src = donor_cmap[cp]
        name = f"uni{cp:04X}"
        pen = TTGlyphPen(None)
        donor_glyphs[src].draw(TransformPen(pen, (scale, 0, 0, scale, 0, 0)))
        glyph = pen.glyph()
        order.append(name)
        base["glyf"][name] = glyph  # (also appends to glyf's own order)
        glyph.recalcBounds(base["glyf"])
        advance = round(donor["hmtx"][src][0] * scale)
        base["hmtx"][name] = (advance, getattr(glyph, "xMin", 0))
        for table in base["cmap"].tables:
            if table.isUnicode():
                table.cmap[cp] = name
    base.setGlyphOrder(order)
    for tag in ("hdmx", "LTSH", "VDMX"):  # per-glyph device tables: cannot list the new glyphs
        if tag in base:
            del base[tag]
    names = base["name"]
    for rec in list(names.names):
        if rec.nameID in (1, 3, 4, 6, 16, 21):
            names.removeNames(nameID=rec.nameID)
    for pid, eid, lang in ((3, 1, 0x409), (1, 0, 0)):
        names.setName(FAMILY, 1, pid, eid, lang)
        names.setName(f"{FAMILY} 2.37+tc1", 3, pid, eid, lang)
        names.setName(FAMILY, 4, pid, eid, lang)
        names.setName(PS_NAME, 6, pid, eid, lang)
    base.save(str(out))


if __name__ == "__main__":
    build(sys.argv[1], sys.argv[2])
