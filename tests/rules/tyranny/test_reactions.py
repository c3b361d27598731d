"""Reaction windows upon an arrest (RULINGS P-03, option ``react_windows``): whether a
window opens, and what the shared screen sees of it, never tells who holds a Gamble 3."""
from __future__ import annotations

from rules.core import PUBLIC
from rules.tyranny import GAME, Arrest, Decline, PlayCard

from .helpers import give, move, new, place, push, turn_of


def _arrest(holds_card: bool, windows: str = "always"):
    s = new(react_windows=windows)
    if holds_card:
        give(s, "crim-1", "gamble-03a")
    place(s, "crim-1", "o-market")
    place(s, "cop-1", "o-docks")
    turn_of(s, "cop-1")
    move(s, "cop-1", 2, "o-market")
    push(s, Arrest("cop-1", "crim-1"))
    return s


def test_every_cop_arrest_opens_both_windows_and_the_public_prompt_is_the_same_with_or_without_the_card():
    with_card, without = _arrest(True), _arrest(False)
    for s in (with_card, without):
        assert s.phase == "react" and GAME.prompt(s).actors == {"cop-1"}   # the captor answers first
    assert GAME.view(with_card, PUBLIC)["prompt"] == GAME.view(without, PUBLIC)["prompt"]
    push(with_card, Decline("cop-1"))
    push(without, Decline("cop-1"))
    assert GAME.prompt(with_card).actors == GAME.prompt(without).actors == {"crim-1"}
    assert GAME.view(with_card, PUBLIC)["prompt"] == GAME.view(without, PUBLIC)["prompt"]
    assert GAME.view(with_card, "cop-1")["prompt"] == GAME.view(without, "cop-1")["prompt"]
    # Only the holder's own screen offers the card.
    assert GAME.prompt(with_card).accepts("crim-1", "play")
    assert not GAME.prompt(without).accepts("crim-1", "play")
    assert "play" in GAME.view(with_card, "crim-1")["prompt"]["waits"]["crim-1"]["private"]
    push(with_card, PlayCard("crim-1", "gamble-03a"))
    assert "crim-1" not in with_card.custody
    push(without, Decline("crim-1"))
    assert "crim-1" in without.custody


def test_when_held_opens_a_window_only_for_the_holder():
    assert _arrest(False, "when-held").phase != "react"
    s = _arrest(True, "when-held")
    assert s.phase == "react" and GAME.prompt(s).actors == {"crim-1"}


def test_a_playable_card_is_a_private_kind_the_public_prompt_does_not_show():
    s = new(react_windows="always")
    turn_of(s, "cop-1")
    bare = GAME.view(s, PUBLIC)["prompt"]
    give(s, "cop-1", "gamble-07a")   # a start-of-turn card (switch tier)
    turn_of(s, "cop-1")
    assert GAME.prompt(s).accepts("cop-1", "play")
    assert GAME.view(s, PUBLIC)["prompt"] == bare
    assert GAME.view(s, "crim-1")["prompt"] == bare
