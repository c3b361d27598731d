"""RULINGS.md holds every ruling the engine names: each option's, and every D-xx id the
code and data cite; each ruling quotes the book or says it is silent."""
from __future__ import annotations

import re
from pathlib import Path

from rules.dicetopia import GAME

PKG = Path(__file__).resolve().parents[3] / "rules" / "dicetopia"
TEXT = (PKG / "RULINGS.md").read_text(encoding="utf-8")
ENTRIES = dict(re.findall(r"^### (D-\d\d) (.+)$", TEXT, flags=re.M))


def test_every_option_names_a_ruling():
    for o in GAME.options:
        assert o.ruling in ENTRIES, o.name
        assert f"`{o.name}`" in TEXT


def test_every_cited_ruling_exists():
    cited = set()
    for path in list(PKG.glob("*.py")) + list((PKG / "data").glob("*.json")):
        cited |= set(re.findall(r"D-\d\d", path.read_text(encoding="utf-8")))
    assert cited and cited <= set(ENTRIES), cited - set(ENTRIES)


def test_rulings_are_numbered_without_gaps_and_scenarios_are_not_invented():
    numbers = sorted(int(k[2:]) for k in ENTRIES)
    assert numbers == list(range(1, len(numbers) + 1))
    assert "gives none\nof their texts. The engine implements none and invents none" in TEXT
