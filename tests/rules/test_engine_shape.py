"""Every engine keeps the shape rules/README.md ("One engine shape") describes: the same
modules in the same places, and no module over 800 lines.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import rules

RULES = Path(rules.__file__).parent
MOST_LINES = 800
SHAPE = ("__init__.py", "game.py", "state.py", "actions.py", "position.py", "data", "README.md", "RULINGS.md")


GAMES = ["tyranny", "liberation", "dicetopia", "outrage", "against_all_tyrants"]


def test_every_built_in_game_is_checked() -> None:
    # The built-ins are the catalogue's games whose package is here; a plug-in installed
    # from elsewhere (a test's own game) keeps its own shape.
    assert set(GAMES) == {info.id for info in rules.catalog() if (RULES / info.id).is_dir()}


@pytest.mark.parametrize("game", GAMES)
def test_engine_has_the_shape(game: str) -> None:
    folder = RULES / game
    missing = [name for name in SHAPE if not (folder / name).exists()]
    assert not missing, f"rules/{game} lacks {missing}"
    assert (folder / "data").is_dir()


@pytest.mark.parametrize("game", GAMES)
def test_no_module_over_800_lines(game: str) -> None:
    long = {p.name: n for p in sorted((RULES / game).glob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MOST_LINES}
    assert not long, f"rules/{game}: modules over {MOST_LINES} lines: {long}"
