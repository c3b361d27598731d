"""rules/tyranny/README.md, "At the table and in the app": its lists of the cards that act
at once and the cards kept face down are the engine's own (data/cards.json's ``keep``,
RULINGS C-01), so the players' notes cannot drift from what the app does."""
from __future__ import annotations

import re
from pathlib import Path

from rules.tyranny.cards import CARDS

README = Path(__file__).resolve().parents[3] / "rules" / "tyranny" / "README.md"


def _section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("## At the table and in the app")
    return text[start:text.index("\n## ", start + 1)]


def _listed(label: str) -> set[tuple[str, int]]:
    """("gamble", 3)… from a line such as "- Kept face down until played: Gamble 3, 7; Gains 1"."""
    line = re.search(rf"- {re.escape(label)}: ([^\n]+)", _section())
    assert line, f"the README lists the cards that {label.lower()}"
    out = set()
    for part in line.group(1).rstrip(".").split(";"):
        deck, numbers = part.strip().split(" ", 1)
        out |= {(deck.lower(), int(n)) for n in numbers.split(",")}
    return out


def test_the_readme_lists_each_card_as_the_engine_resolves_it() -> None:
    now = {(c.deck, c.number) for c in CARDS.values() if not c.keep}
    kept = {(c.deck, c.number) for c in CARDS.values() if c.keep}
    assert _listed("Acts at once") == now
    assert _listed("Kept face down until played") == kept
    assert len(now | kept) == 20  # ten cards in each deck (RULINGS C-02)


def test_the_section_says_what_the_table_does_and_what_the_app_checks() -> None:
    section = _section()
    assert "**The table does:**" in section and "**The app checks and carries out:**" in section
