"""A game journaled before one of its engine's options existed still opens, played under
the value the engine says such a game had (``Option.saved_without``), never refused.

Outrage! gained ``own_pieces`` (RULINGS S-04: the box equips four players; a 5th and 6th
need the table's own pieces) after six-seat games had been journaled without it."""
from __future__ import annotations

import pytest

import rules
from companion import Journal, Table
from rules.core import Rng
from rules.core.playout import choose



def _six_seats() -> list[dict[str, str]]:
    """Six seats, one per colour of the game's card."""
    names = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")
    return [{"id": f"{f}-1", "faction": f, "name": n} for f, n in zip(rules.plugin("outrage").factions, names)]


def test_a_six_seat_game_saved_before_own_pieces_existed_reopens_and_plays(tmp_path):
    game = rules.load("outrage")
    seats = _six_seats()
    assert len(seats) == 6
    old = {k: v for k, v in game.resolve_options({"own_pieces": True}).items() if k != "own_pieces"}
    with pytest.raises(rules.RulesError):  # today's setup refuses six seats without the house rule
        Table.create(Journal.open(":memory:"), game_id="outrage", seats=seats, options=old, seed=3)
    path = tmp_path / "journal.sqlite3"
    j = Journal.open(path)
    # What an earlier version wrote: the options resolved when own_pieces did not exist.
    key = j.create_game(game_id="outrage", seats=seats, options=old, seed=3, started=1.0)
    table = Table.resume(j, key)
    assert table.options["own_pieces"] is True
    rng = Rng(3)
    for _ in range(20):
        if table.outcome is not None:
            break
        table.submit(choose(rng, list(table.legal_actions())))
    ply, state = table.ply, rules.core.to_data(table.state)
    table.close()
    j.close()
    j = Journal.open(path)
    again = Table.resume(j, key)
    assert (again.ply, rules.core.to_data(again.state)) == (ply, state)
    j.close()


def test_an_option_without_a_saved_value_takes_its_default_for_old_games():
    game = rules.load("outrage")
    stored = {k: v for k, v in game.resolve_options({}).items() if k != "searched"}
    assert game.saved_options(stored)["searched"] == "jewels-only"
