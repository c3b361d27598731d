"""The README's "At the table and in the app" (issue 32): both lists are there, and what
they name is the engine's own: each option is one the engine declares, each ruling one
RULINGS.md settles, each section a heading of the book the engine cites."""
from __future__ import annotations

import re
from pathlib import Path

from rules import facts
from rules.outrage import GAME

README = (Path(__file__).resolve().parents[3] / "rules" / "outrage" / "README.md").read_text(encoding="utf-8")
RULINGS = (Path(__file__).resolve().parents[3] / "rules" / "outrage" / "RULINGS.md").read_text(encoding="utf-8")


def _section() -> str:
    start = README.index("## At the table and in the app")
    return README[start:README.index("\n## ", start + 1)]


def test_the_section_lists_what_the_table_does_and_what_the_app_checks() -> None:
    text = _section()
    table, app = text.index("**The table resolves itself"), text.index("**The app checks")
    assert table < app
    assert text[table:app].count("\n- ") >= 5 and text[app:].count("\n- ") >= 10


def test_what_the_section_names_is_the_engines() -> None:
    text = _section()
    options = {o.name for o in GAME.options}
    named = set(re.findall(r"option `(\w+)`", text)) | set(re.findall(r"`(\w+)`, RULINGS", text))
    assert named and named <= options, named - options
    cited = set(re.findall(r"RULINGS ([A-Z]-\d\d)", text))
    assert cited and all(f"**{c} " in RULINGS for c in cited), cited
    # The seat limit it states is the engine's: four by default, six with own pieces.
    assert "two to four seats, five or six only with the table's own pieces and coins" in text
    assert facts.seat_counts("outrage") == [2, 3, 4]
    assert facts.seat_counts("outrage", {"own_pieces": True}) == [2, 3, 4, 5, 6]
