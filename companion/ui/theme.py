"""The app-wide theme the .kv files bind to (``app.theme.text``, ``app.theme.fs_body``…):
colours from the selected palette, text sizes scaled by the text-size setting, and the
glyph + name that go with every faction colour."""
from __future__ import annotations

from pathlib import Path

from kivy.event import EventDispatcher
from kivy.metrics import sp
from kivy.properties import ColorProperty, NumericProperty, ObjectProperty, StringProperty

from .presenters.palette import Palette, load_palette, rgba

# Kivy draws a label in one font, with no fallback: a character missing from it is an
# empty box. This one is DejaVu Sans with the few glyphs it lacks added (data/fonts/
# make_font.py); tests/ui/test_font.py checks it has every character the app's strings use.
FONT = "TabletopSans"
FONT_FILE = Path(__file__).parent / "data" / "fonts" / "TabletopSans.ttf"


class Theme(EventDispatcher):
    palette = ObjectProperty(None, rebind=True)
    name = StringProperty("")
    bg = ColorProperty("#15171c")
    surface = ColorProperty("#22252d")
    surface_hi = ColorProperty("#2e323c")
    line = ColorProperty("#474c59")
    text = ColorProperty("#f2f2f2")
    muted = ColorProperty("#a9adb8")
    accent = ColorProperty("#56b4e9")
    ok = ColorProperty("#009e73")
    warn = ColorProperty("#f0e442")
    bad = ColorProperty("#d55e00")
    highlight = ColorProperty("#f0e442")
    cops = ColorProperty("#0072b2")
    criminals = ColorProperty("#e69f00")
    neutral = ColorProperty("#8a8f99")
    scale = NumericProperty(1.0)
    fs_small = NumericProperty(0)
    fs_body = NumericProperty(0)
    fs_large = NumericProperty(0)
    fs_huge = NumericProperty(0)
    fs_giant = NumericProperty(0)

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self.apply(load_palette(None), 1.0)

    def apply(self, palette: Palette, scale: float) -> None:
        self.palette = palette
        self.name = palette.name
        for role, hex_colour in palette.colours.items():
            if hasattr(self, role):
                setattr(self, role, rgba(hex_colour))
        for f in ("cops", "criminals", "neutral"):
            setattr(self, f, rgba(palette.faction(f)))
        self.scale = scale
        self.fs_small = sp(13) * scale
        self.fs_body = sp(16) * scale
        self.fs_large = sp(21) * scale
        self.fs_huge = sp(34) * scale
        self.fs_giant = sp(54) * scale

    # Helpers the kv files call for any faction, known to this palette or not.
    def faction_rgba(self, faction: str, alpha: float = 1.0) -> tuple[float, float, float, float]:
        return rgba(self.palette.faction(faction), alpha)

    def glyph(self, faction: str) -> str:
        return self.palette.glyph(faction)

    def label(self, faction: str) -> str:
        return self.palette.label(faction)

    def tile_glyph(self, kind: str) -> str:
        return self.palette.tile_glyph(kind)

    def state_glyph(self, state: str) -> str:
        return self.palette.state_glyph(state)
