"""Tyranny's own facts as the shared screens read them (rules/tyranny/data/factions.json and
the engine's check_setup), moved here from rules/facts.py's examples, which play the test
game: the seat counts the box allows and the criminals' influence chart."""
from __future__ import annotations

from rules import facts
from rules.tyranny.game import WIN_INFLUENCE


def test_the_criminals_are_shown_by_glyph_and_name() -> None:
    assert facts.factions("tyranny")["criminals"].title == "◆ Criminals"
    assert facts.faction_title("tyranny", "cops") == "▲ Cops"


def test_three_seats_are_refused_because_the_box_has_two_pieces_a_side() -> None:
    # The box holds 2 cops and 2 criminals and each seat is a piece (RULINGS S-02): three
    # players take four seats, one person playing two pieces.
    assert facts.seat_counts("tyranny") == [2, 4]
    refusals = facts.seat_refusals("tyranny")
    assert list(refusals) == [3]
    assert refusals[3].startswith("Seats are pieces and the box has 2 cops and 2 criminals")


def test_the_end_screen_charts_the_criminals_influence_against_their_winning_total() -> None:
    # Rulebook, "How the Criminals win": "the criminals must reach 1000 Influence Points".
    (chart,) = facts.charts("tyranny")
    assert (chart.series, chart.faction) == ("influence_history", "criminals")
    assert [(line.at, line.label) for line in chart.lines] == [(1000, "the criminals win holding this")]
    assert WIN_INFLUENCE == 1000
