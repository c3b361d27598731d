"""Every character the app can show is in the font it draws with (Kivy has no font
fallback: a missing glyph is an empty box, as "⛓ Capture Bob" was)."""
from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any, Iterator

from tests.ui.font_cmap import characters

ROOT = Path(__file__).resolve().parents[2]
# What the app's screens show: its own strings and the engines' (rule messages, card and
# board data, setup options).
SHOWN = ("companion", "rules")


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def app_strings() -> Iterator[tuple[Path, str]]:
    """(file, string) for every string literal in the .py files, every string in the .json
    files, and every line of the .kv files under the shown packages."""
    for pkg in SHOWN:
        for path in sorted((ROOT / pkg).rglob("*")):
            if path.suffix == ".py":
                for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                    if isinstance(node, ast.Constant) and isinstance(node.value, str):
                        yield path, node.value
            elif path.suffix == ".json":
                for s in _strings(json.loads(path.read_text(encoding="utf-8"))):
                    yield path, s
            elif path.suffix == ".kv":
                for line in path.read_text(encoding="utf-8").splitlines():
                    if not line.lstrip().startswith("#"):
                        yield path, line


def test_the_app_font_has_every_character_the_app_shows() -> None:
    from companion.ui.theme import FONT_FILE

    have = characters(FONT_FILE)
    missing: dict[str, set[str]] = {}
    for path, s in app_strings():
        for ch in s:
            if ord(ch) > 127 and ord(ch) not in have and ch.isprintable():
                missing.setdefault(f"U+{ord(ch):04X} {ch}", set()).add(str(path.relative_to(ROOT)))
    assert not missing, f"{FONT_FILE.name} lacks: {missing}"


def test_the_scan_finds_the_glyphs_the_table_uses() -> None:
    """The scan sees the chain and the skip glyphs where the table screens use them (so a
    passing font test is not a scan that found nothing)."""
    seen = {ch for _p, s in app_strings() for ch in s if ord(ch) > 127}
    assert {"⛓", "⏭", "✋", "▲", "◆", "∞"} <= seen


def test_the_app_draws_with_the_shipped_font() -> None:
    from companion.ui.theme import FONT, FONT_FILE

    kv = (ROOT / "companion/ui/widgets/base.kv").read_text(encoding="utf-8")
    assert "font_name: FONT" in kv and FONT_FILE.is_file() and FONT == "TabletopSans"
    licences = {p.name for p in FONT_FILE.parent.glob("LICENSE*")}
    assert licences == {"LICENSE-DejaVu.md", "LICENSE-Noto-OFL.md"}
