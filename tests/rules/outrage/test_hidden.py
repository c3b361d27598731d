"""Hidden information: Tower cards in hands, the cards laid face down in an attack, and
what a card in hand allows, stay with their holder."""
from __future__ import annotations

from rules.core import PUBLIC, Draw, Roll
from rules.outrage import GAME, Arm, Attack, MoveTo

from .helpers import empty_hand, give, push, put, started


def test_a_tower_card_drawn_is_seen_by_its_drawer_only():
    s = started()
    put(s, "p1", "w06")
    push(s, Roll("p1", (1, 2)))
    push(s, MoveTo("p1", "w09"))  # St Thomas's Tower: a Tower card
    card = s.decks["tower"].cards[0]
    action = Draw("p1", "tower", card)
    push(s, action)
    assert "card" not in GAME.public_action(s, action, PUBLIC) and "card" not in GAME.public_action(s, action, "p2")
    assert GAME.public_action(s, action, "p1")["card"] == card
    assert card in GAME.view(s, "p1")["hands"]["p1"]["cards"]
    for viewer in (PUBLIC, "p2"):
        view = GAME.view(s, viewer)
        assert "cards" not in view["hands"]["p1"] and view["hands"]["p1"]["count"] == 4
        assert not any(e["seat"] == "p1" and "You took" in e["text"] for e in view["log"])


def test_what_a_hand_allows_is_private():
    holding, empty = started(), started()
    for s in (holding, empty):
        empty_hand(s, "p1")
        put(s, "p1", "t05", accredited=True)
        push(s, Roll("p1", (1, 2)))
    give(holding, "p1", "key-1")
    for s in (holding, empty):
        push(s, MoveTo("p1", "t08"))
    assert GAME.prompt(holding).of("p1").private == ("burgle",) and GAME.prompt(empty).of("p1").private == ()
    assert GAME.view(holding, "p2")["prompt"] == GAME.view(empty, "p2")["prompt"]
    assert GAME.view(holding, PUBLIC)["prompt"] == GAME.view(empty, PUBLIC)["prompt"]


def test_weapons_laid_face_down_are_hidden_until_both_have_chosen():
    s = started()
    empty_hand(s, "p1")
    empty_hand(s, "p2")
    give(s, "p1", "pistols-1")
    give(s, "p2", "mace-3")
    put(s, "p1", "i0-05", accredited=True)
    put(s, "p2", "i0-10", accredited=True)
    push(s, Attack("p1", "p2"))
    push(s, Arm("p1", ("pistols-1",)))
    for viewer in (PUBLIC, "p2"):
        assert "pistols-1" not in str(GAME.view(s, viewer))
        assert "Pistols" not in str(GAME.view(s, viewer)["log"])
    assert GAME.view(s, "p1")["attack"]["mine"] == ["pistols-1"]
    push(s, Arm("p2", ("mace-3",)))
    assert "Brace of Pistols" in str(GAME.view(s, PUBLIC)["log"])  # revealed together
