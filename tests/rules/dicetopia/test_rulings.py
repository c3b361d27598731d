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


def test_every_ruling_names_a_test_that_exists():
    """Each ruling is held by a test: every entry names at least one, and each named test
    (``file.py::name`` or a ``name_*`` family) is in the named file."""
    bodies = re.split(r"^### (D-\d\d) .+$", TEXT, flags=re.M)[1:]
    roots = [Path(__file__).parent, Path(__file__).resolve().parents[3]]
    for rid, body in zip(bodies[::2], bodies[1::2]):
        named = re.findall(r"`([\w/]+\.py)::(\w+\*?)`", body)
        assert named, f"{rid} names no test"
        for path, name in named:
            files = [r / path for r in roots if (r / path).exists()]
            assert files, f"{rid}: no file {path}"
            src = files[0].read_text(encoding="utf-8")
            pattern = rf"^def {re.escape(name.rstrip('*'))}" + (r"\w*\(" if name.endswith("*") else r"\(")
            assert re.search(pattern, src, flags=re.M), f"{rid}: {path}::{name} does not exist"
