"""RULINGS.md is complete: every ruling the code or an option cites exists, and every test a
ruling names exists."""
from __future__ import annotations

import re
from pathlib import Path

import rules.against_all_tyrants as pkg
from rules.against_all_tyrants import GAME

PKG = Path(pkg.__file__).parent
TEXT = (PKG / "RULINGS.md").read_text(encoding="utf-8")
IDS = set(re.findall(r"^## (A-\d\d) ", TEXT, re.M))


def test_every_cited_ruling_exists():
    cited = set()
    for f in PKG.glob("*.py"):
        cited |= set(re.findall(r"RULINGS (A-\d\d)", f.read_text(encoding="utf-8")))
    cited |= {o.ruling for o in GAME.options}
    assert cited and cited <= IDS, cited - IDS


def test_every_named_test_exists():
    names = set(re.findall(r"`(test_\w+)`", TEXT))
    tests = "".join(f.read_text(encoding="utf-8") for f in Path(__file__).parent.glob("test_*.py"))
    missing = sorted(n for n in names if f"def {n}(" not in tests)
    assert not missing, missing
    assert len(IDS) >= 25
