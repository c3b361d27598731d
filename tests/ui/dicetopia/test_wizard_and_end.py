"""Dicetopia on the shared screens' models, without a window: the wizard offers the first
player by the players' names, and the end screen shows a shared win with each player's own
glyph. These were examples in companion/ui/presenters/setup.py and end.py, whose examples
now play the test game (tests/plugin_game)."""
from __future__ import annotations

from types import SimpleNamespace as NS

from companion.ui.presenters.end import EndModel
from companion.ui.presenters.setup import APP_CHOOSES, SetupModel, seat_options


def test_the_first_player_is_a_seat_option_offered_by_the_players_names() -> None:
    # §3 step 1: "Randomly determine a First Player": the table's choice, or the app draws.
    assert seat_options("dicetopia") == {"first"}
    m = SetupModel.for_game("dicetopia")
    m.rename(0, "Ann")
    offered = {o.name: o for o in m.option_choices()}
    assert offered["first"].labels == (APP_CHOOSES, "Ann", "Player 2")
    assert offered["first"].choices == ("", *[s["id"] for s in m.seats])
    assert offered["deal_factions"].labels == ("No", "Yes")


def test_a_shared_win_gives_each_player_their_own_factions_glyph() -> None:
    # A tie on stars, neighbourhoods and dice (§6) is a shared win: no one faction won.
    tie = NS(winner=None, reason="", scores={}, winning_seats=("a", "b"))
    e = EndModel("dicetopia", tie, {"a": "Ann", "b": "Bob"}, factions={"a": "banxa", "b": "ewo"})
    assert e.headline == "▣ Ann and ⊛ Bob share the win"
    assert e.winners == "Ann and Bob"
