"""How many players (RULINGS S-04), from the rulebook's words: the box equips four, and a
table that brings its own pieces and coins seats five or six."""
from __future__ import annotations

import re

import pytest

from rules import facts
from rules.core import InvalidSetup
from rules.outrage import GAME

from .helpers import NAMES

# GAME CONTENTS, as printed.
CONTENTS = ("1 Game Board; 2 set of cards; 4 Yeoman Warders; 4 flagged playing pieces and 4 unflagged "
            "playing pieces ; 4 coins; 2 dice.")
# BEFORE PLAY BEGINS, and ACCREDITATION: each player needs one piece of each kind and a coin.
SETUP = ("One coin for each player is placed in the Mint, … The player throwing the highest number starts, "
         "using an unflagged playing piece.")
ACCREDITATION = "Accreditation entitles players to change to a flagged playing piece"


def _box_players() -> int:
    """Players the printed box equips: the fewest of its flagged pieces, unflagged pieces
    and coins, since every player uses one of each (the passages above)."""
    assert "one coin for each player" in SETUP.lower() and "unflagged playing piece" in SETUP
    assert "flagged playing piece" in ACCREDITATION
    counts = {kind: int(n) for n, kind in re.findall(r"(\d+) (flagged playing pieces|unflagged playing pieces|coins)",
                                                     CONTENTS)}
    assert set(counts) == {"flagged playing pieces", "unflagged playing pieces", "coins"}
    return min(counts.values())


def seats(n: int) -> list[dict[str, str]]:
    colours = ("red", "blue", "green", "yellow", "white", "black")
    return [{"id": f"p{i + 1}", "faction": colours[i], "name": NAMES[i]} for i in range(n)]


def test_the_box_seats_four_and_five_are_refused_in_players_words() -> None:
    box = _box_players()
    assert box == 4
    for n in range(2, box + 1):
        state = GAME.new(seats(n), {}, 1)
        assert state.mint == n  # "One coin for each player is placed in the Mint"
    for n in (box + 1, box + 2):
        with pytest.raises(InvalidSetup) as e:
            GAME.new(seats(n), {}, 1)
        (v,) = e.value.violations
        assert (v.code, v.rule) == ("box-pieces", "GAME CONTENTS")
        # A clear refusal: what the box holds and what the table can do, no option id.
        assert "The box holds pieces and coins for 4 players" in v.message
        assert "We bring our own pieces and coins for a 5th and 6th player" in v.message
        assert "own_pieces" not in v.message and "S-04" not in v.message
    # Teams change nothing: every member of a team moves a piece of their own.
    team = [dict(s, faction=("red", "blue")[i % 2]) for i, s in enumerate(seats(box + 1))]
    with pytest.raises(InvalidSetup):
        GAME.new(team, {"teams": True}, 1)


def test_a_table_with_its_own_pieces_seats_five_or_six() -> None:
    option = next(o for o in GAME.options if o.name == "own_pieces")
    assert (option.default, option.ruling) == (False, "S-04")
    assert option.help == "We bring our own pieces and coins for a 5th and 6th player."
    for n in (5, 6):
        state = GAME.new(seats(n), {"own_pieces": True}, 1)
        assert state.mint == n and state.phase == "deal"
    with pytest.raises(InvalidSetup):  # six colours: a seventh is refused either way
        GAME.new(seats(6) + [{"id": "p7", "faction": "red", "name": "Gus"}], {"own_pieces": True}, 1)


def test_the_rulebook_sets_no_minimum_beyond_an_opponent() -> None:
    """The book states no minimum; it assumes opponents (the highest throw starts, a split
    seven moves "another player", attacks): two seats, never one."""
    assert GAME.min_seats == 2
    with pytest.raises(InvalidSetup):
        GAME.new(seats(1), {}, 1)
    GAME.new(seats(2), {}, 1)


def test_the_seat_counts_follow_the_option() -> None:
    assert facts.seat_counts("outrage") == [2, 3, 4]
    assert facts.seat_counts("outrage", {"own_pieces": True}) == [2, 3, 4, 5, 6]
