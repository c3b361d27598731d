"""Each game's display facts (rules/<game>/data/factions.json) agree with its engine and
the catalogue, and shared screens ask the engine for seat rules instead of copying them."""
from __future__ import annotations

import json
from typing import Any, Iterable

import pytest

import rules
from rules import facts
from rules.core import Violation
from rules.tyranny.game import WIN_INFLUENCE


@pytest.mark.parametrize("game_id", [g.id for g in rules.catalog()])
def test_every_faction_of_every_game_has_display_facts(game_id: str) -> None:
    game = rules.load(game_id)
    shown = facts.factions(game_id)
    assert sorted(shown) == sorted(game.factions) == sorted(rules.info(game_id).factions)
    assert all(f.glyph and f.name for f in shown.values())


def test_glyphs_are_unique_across_games() -> None:
    glyphs = [f.glyph for g in rules.catalog() for f in facts.factions(g.id).values()]
    assert len(glyphs) == len(set(glyphs))


def test_tyranny_chart_line_is_the_engines_win_threshold() -> None:
    (chart,) = facts.charts("tyranny")
    assert [line.at for line in chart.lines] == [WIN_INFLUENCE]
    game = rules.load("tyranny")
    assert chart.series in game.view(game.new(game.default_seats()))


def test_seat_counts_follow_the_engines_check_setup(monkeypatch: pytest.MonkeyPatch) -> None:
    game = rules.load("tyranny")
    assert facts.seat_counts("tyranny") == [2, 4]
    original = type(game).check_setup

    def no_four(self: Any, seats: list[Any], options: dict[str, Any]) -> Iterable[Violation]:
        yield from original(self, seats, options)
        if len(seats) == 4:
            yield Violation("four", "Setup", "Four is not allowed today.")

    monkeypatch.setattr(type(game), "check_setup", no_four)
    assert facts.seat_counts("tyranny") == [2]

    from companion.ui.presenters.setup import SetupModel

    m = SetupModel.for_game("tyranny")
    assert m.seat_counts() == [2]
    assert "Four is not allowed today." in m.seat_count_notes()


def test_a_broken_facts_file_is_a_typed_error_naming_field_and_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    bad = {"factions": {"cops": {"name": "Cops", "glyph": 3, "colour": "cops"}}, "charts": []}
    real = facts._facts_file
    broken = tmp_path / "factions.json"
    broken.write_text(json.dumps(bad), encoding="utf-8")
    # The engine's data file as read (from its folder, the engine not imported), broken.
    monkeypatch.setattr(facts, "_facts_file", lambda gid: ("rules.tyranny", broken) if gid == "tyranny" else real(gid))
    facts._data.cache_clear()
    try:
        with pytest.raises(facts.FactsError) as e:
            facts.factions("tyranny")
        assert isinstance(e.value, ValueError) and isinstance(e.value, rules.RulesError)
        assert "factions.cops.glyph" in str(e.value) and "rules/tyranny/data/factions.json" in str(e.value)
    finally:
        monkeypatch.undo()
        facts._data.cache_clear()


def test_the_rules_data_errors_are_rules_errors() -> None:
    # Issue 14's name clashes: one `except RulesError` catches every error the rules raise.
    from rules.core.zones import EmptyDeck
    from rules.liberation import MapError
    from rules.liberation.missions import MissionsError

    for error in (EmptyDeck, MapError, MissionsError, facts.FactsError):
        assert issubclass(error, rules.RulesError), error
