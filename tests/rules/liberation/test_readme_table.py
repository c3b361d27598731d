"""rules/liberation/README.md, "At the table and in the app": each mission's cost and
referee question, as the players' notes say them, is the shipped missions table's
(data/missions.json, RULINGS L-10), so the notes cannot drift from what the app enforces."""
from __future__ import annotations

import re
from pathlib import Path

from rules.liberation import default_missions
from rules.liberation.mapdata import CATEGORIES
from rules.liberation.missions import Mission

README = Path(__file__).resolve().parents[3] / "rules" / "liberation" / "README.md"
COSTS = {"none": "no cost", "discard": "discard 1 other card", "exploit": "exploit 1 other City"}


def _section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("## At the table and in the app")
    return " ".join(text[start:text.index("\n## ", start + 1)].split())


def _words(m: Mission, side: str) -> str:
    """A mission as the README says it: "Deep-Space Probe (no cost; asks whether the base
    is within up to 2 steps of a City)"."""
    words = COSTS[m.cost]
    q = m.question
    if q is not None:
        if q.kind == "base-among":
            words += f"; asks whether the base is among up to {q.max_cities} Cities"
        elif q.kind == "base-within":
            steps = "1 step" if q.max_steps == 1 else f"up to {q.max_steps} steps"
            words += f"; asks whether the base is within {steps} of a City"
        else:
            other = "Dynasty" if side == "liberation" else "Liberation"
            words += f"; asks whether the {other} holds any of up to {q.max_cities} Cities"
    return f"{m.name} ({words})"


def test_the_readme_says_each_missions_cost_and_question_as_the_app_enforces_them() -> None:
    section = _section()
    table = default_missions()
    for side, title in (("liberation", "Liberation"), ("dynasty", "Dynasty")):
        line = re.search(rf"- {title}: (.+?)(?= - |  These are| These are)", section)
        assert line, f"the README lists the {title}'s missions"
        said = line.group(1)
        for category in CATEGORIES:
            words = _words(table.mission(category, side), side)
            assert words in said, f"{words!r} not in the README's {title} line: {said!r}"


def test_the_section_says_what_the_table_does_and_what_the_app_checks() -> None:
    section = _section()
    assert "**The table does:**" in section and "**The app checks and carries out:**" in section
    assert "Carries out each mission's effect as its City card says" in section
