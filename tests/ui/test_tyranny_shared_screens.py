"""Tyranny on the shared screens' models, without a window: the setup wizard's seat rules,
the join form's custody question, and the end screen's influence chart. These were the
shared modules' docstring examples; those now play the test game (tests/plugin_game), and
what is Tyranny's own is checked here."""
from __future__ import annotations

from types import SimpleNamespace as NS

from companion.ui.presenters.end import EndModel
from companion.ui.presenters.position_form import PositionForm
from companion.ui.presenters.setup import SetupModel

SEATS = [{"id": "cops-1", "faction": "cops", "name": "Ann"}, {"id": "criminals-1", "faction": "criminals", "name": "Bob"}]


def test_the_wizard_refuses_a_turn_order_that_does_not_alternate_factions() -> None:
    m = SetupModel.for_game("tyranny")
    assert [(s["id"], s["faction"]) for s in m.seats] == [("cops-1", "cops"), ("criminals-1", "criminals")]
    m.move(0, 1)
    assert [s["id"] for s in m.seats] == ["criminals-1", "cops-1"] and m.check() == []
    m.set_seat_count(4)
    m.move(0, 1)
    assert [s["faction"] for s in m.seats] == ["criminals", "cops", "cops", "criminals"]
    # Rulebook, setup step 4: "the order should alternate between factions – for example:
    # cop 1, criminal 1, cop 2, criminal 2".
    assert m.check()[0] == "The turn order must alternate between factions, e.g. cop 1, criminal 1, cop 2, criminal 2."


def test_the_wizard_offers_two_or_four_seats_and_says_why_not_three() -> None:
    m = SetupModel.for_game("tyranny")
    assert m.seat_counts() == [2, 4]
    # The engine's sentence, without its ruling reference (players see no ruling codes).
    assert m.seat_count_notes() == ["Seats are pieces and the box has 2 cops and 2 criminals: for 3 players use 4 seats, "
                                    "one person playing two pieces."]


def test_the_join_form_asks_the_numbers_that_free_a_piece_in_custody() -> None:
    f = PositionForm("tyranny", SEATS, {})
    assert (f.get("influence"), f.ok) == (500, True)
    f.set("pieces.criminals-1.custody", True)
    assert not f.ok
    assert f.public_problems()["pieces.criminals-1.escape_on"] == ["a piece in custody needs the numbers that free it (e.g. [6])."]
    f.toggle("pieces.criminals-1.escape_on", 6)
    assert f.ok and f.to_position()["pieces"]["criminals-1"]["escape_on"] == [6]


def test_the_end_screen_names_the_winning_criminals_and_charts_their_influence() -> None:
    out = NS(winner="criminals", reason="the criminals held 1000+ influence for 3 consecutive turns",
             scores={"criminals": NS(total=1150, breakdown={"influence": 1150, "properties": 4})}, winning_seats=("crim-1",))
    e = EndModel("tyranny", out, {"crim-1": "Bob"}, {"influence_history": [[0, 500], [1, 700], [2, 1150]]})
    assert (e.headline, e.winners) == ("◆ Bob wins", "Bob (◆ Criminals)")
    assert e.reason == "The criminals held 1000+ influence for 3 consecutive turns."
    assert e.score_lines() == ["◆ Criminals: 1150 (influence 1150, properties 4)"]
    # The chart runs from 0 to the higher of the series and the 1000 line (the criminals'
    # winning total: rulebook, "How the Criminals win").
    assert e.has_chart and e.chart_points(100, 50) == [(0.0, 21.74), (50.0, 30.43), (100.0, 50.0)]
    assert (e.chart_title, e.chart_faction) == ("◆ Criminals’ influence per turn   - - - 1000", "criminals")
    assert e.line_fractions() == [1000 / 1150]


def test_the_end_screen_names_a_team_and_says_what_captured_counts() -> None:
    team = NS(winner="criminals", reason="", scores={}, winning_seats=("crim-1", "crim-2"))
    both = EndModel("tyranny", team, {"crim-1": "Bob", "crim-2": "Dan"})
    assert (both.headline, both.winners) == ("◆ Bob and Dan win", "Bob and Dan (◆ Criminals)")
    cops = NS(winner="cops", reason="", winning_seats=(), scores={"cops": NS(total=2, breakdown={"properties": 2, "captured": 0})})
    end = EndModel("tyranny", cops, {})
    assert end.headline == "▲ Cops win"  # a plural faction name takes "win"
    # "captured" counts the criminals in custody when the game ends, not arrests made during it.
    assert end.score_lines() == ["▲ Cops: 2 (properties 2, criminals in custody at the end 0)"]
