"""Every rule of the rulebook's Setup, Gameplay and Winning sections, and rejections."""
from __future__ import annotations

import pytest

from rules.core import Draw, InvalidSetup, Roll
from rules.tyranny import (
    GAME, Arrest, Capture, ChooseRange, CollapseTunnel, CrossTier, Decline, MoveTo, OpenTunnel, PayEscape,
    PlayCard, reachable,
)

from .helpers import FOUR, TWO, at, give, move, new, place, push, rejected, said, turn_of


# ------------------------------------------------------------------ Setup

def test_setup_pieces_on_start_tiles_and_influence_500():
    s = new(FOUR)
    assert s.pos == {"cop-1": "police-station", "crim-1": "hideout", "cop-2": "police-station", "crim-2": "hideout"}
    assert s.influence.value == 500 and s.influence.lo == 0
    assert len(s.decks["gamble"]) == 20 and len(s.decks["gains"]) == 20
    assert all(len(h) == 0 for h in s.hands.values())
    assert s.actor == "cop-1"


def test_setup_order_may_start_with_either_faction():
    s = new([("crim-1", "criminals"), ("cop-1", "cops")])
    assert s.actor == "crim-1"


@pytest.mark.parametrize("seats,code", [
    ([("cop-1", "cops"), ("cop-2", "cops"), ("crim-1", "criminals"), ("crim-2", "criminals")], "order-not-alternating"),
    ([("cop-1", "cops"), ("crim-1", "criminals"), ("cop-2", "cops")], "three-seats"),
    ([("cop-1", "cops"), ("cop-2", "cops")], "unbalanced"),
    ([("cop-1", "cops")], "seat-count"),
    ([("cop-1", "cops"), ("crim-1", "robbers")], "unknown-faction"),
])
def test_setup_rejections(seats, code):
    with pytest.raises(InvalidSetup) as e:
        GAME.new(seats)
    assert code in [v.code for v in e.value.violations]


def test_seed_and_actions_determine_the_game():
    a, b = new(seed=5), new(seed=5)
    assert a.decks["gamble"].cards == b.decks["gamble"].cards
    assert new(seed=6).decks["gamble"].cards != a.decks["gamble"].cards


# --------------------------------------------------------------- movement

def test_movement_turn_roll_then_destination():
    s = new()
    p = GAME.prompt(s)
    assert p.actors == {"cop-1"} and p.awaiting.purpose == "move"
    push(s, Roll("cop-1", (3,)))
    assert s.phase == "move" and list(s.routes) == ["o-market"]
    assert reachable(s, "cop-1", 3) == {"o-market": ("o-docks", "o-gamble-1")}
    assert GAME.view(s)["reachable"] == ["o-market"]
    assert rejected(s, MoveTo("cop-1", "o-docks")) == ("unreachable",)
    push(s, MoveTo("cop-1", "o-market"))
    assert s.pos["cop-1"] == "o-market" and s.actor == "crim-1"  # property: the turn is over


def test_up_to_option_offers_shorter_moves():
    s = new(move="up-to")
    push(s, Roll("cop-1", (3,)))
    assert sorted(s.routes) == ["o-docks", "o-gamble-1", "o-market"]


def test_movement_wraps_around_the_tier():
    s = new()
    place(s, "cop-1", "o-scrapyard")
    move(s, "cop-1", 2, "o-docks")
    assert s.pos["cop-1"] == "o-docks"


def test_gamble_and_gains_tiles_offer_a_draw_that_may_be_declined():
    s = new()
    move(s, "cop-1", 2, "o-gamble-1")
    p = GAME.prompt(s)
    assert p.awaiting.deck == "gamble" and "decline" in p.awaiting.accepted
    top = s.decks["gamble"].cards[0]
    assert rejected(s, Draw("cop-1", "gains", s.decks["gains"].cards[0])) == ("wrong-deck",)
    assert rejected(s, Draw("cop-1", "gamble", "gamble-99a")) == ("card-not-in-deck",)
    push(s, Decline("cop-1"))
    assert s.actor == "crim-1" and s.decks["gamble"].cards[0] == top


def test_empty_deck_reshuffles_its_discards():
    s = new()
    deck = s.decks["gamble"]
    deck.discard.extend(deck.cards[:-1])
    del deck.cards[:-1]
    last = deck.cards[0]
    move(s, "cop-1", 2, "o-gamble-1")
    push(s, Draw("cop-1", "gamble", last))
    assert deck.reshuffles == 0
    turn_of(s, "cop-1")
    place(s, "cop-1", "o-docks")
    move(s, "cop-1", 1, "o-gamble-1")
    card = deck.discard[0]
    push(s, Draw("cop-1", "gamble", card))
    assert deck.reshuffles == 1


# ---------------------------------------------------------- capture turn

def test_capture_turn_unowned_in_range_becomes_owned():
    s = new()
    place(s, "cop-1", "o-docks")  # range 1-3
    assert "capture" in GAME.prompt(s).awaiting.accepted
    push(s, Capture("cop-1"), Roll("cop-1", (2,)))
    assert s.owner == {"o-docks": "cops"} and s.actor == "crim-1"
    assert GAME.tracked(s)["cop_properties"] == 1


def test_capture_turn_enemy_owned_in_range_becomes_neutral():
    s = at(tiles={"cop-1": "o-docks"}, owners={"o-docks": "criminals"})
    push(s, Capture("cop-1"), Roll("cop-1", (3,)))
    assert s.owner == {}


def test_capture_turn_out_of_range_ends_the_turn():
    s = at(tiles={"cop-1": "o-docks"})
    push(s, Capture("cop-1"), Roll("cop-1", (4,)))
    assert s.owner == {} and s.actor == "crim-1"


def test_capture_only_on_a_property_not_already_yours():
    # A typical capture turn: "capture the tile which they are on" (a property tile).
    s = new()
    assert rejected(s, Capture("cop-1")) == ("not-awaited", "cannot-capture")  # on the Police Station
    assert "Police Station is not one" in said(s, Capture("cop-1"))
    s = at(tiles={"cop-1": "o-docks"}, owners={"o-docks": "cops"})
    assert rejected(s, Capture("cop-1")) == ("not-awaited", "cannot-capture")
    assert "already belongs to the cops" in said(s, Capture("cop-1"))


# -------------------------------------------------------------- influence

@pytest.mark.parametrize("seat,faction,expected", [("crim-1", "criminals", 550), ("cop-1", "cops", 450)])
def test_landing_on_your_factions_property_moves_influence(seat, faction, expected):
    s = at(seat=seat, tiles={seat: "o-scrapyard"}, owners={"o-docks": faction})
    move(s, seat, 2, "o-docks")
    assert s.influence.value == expected


def test_landing_on_an_enemy_property_changes_nothing():
    s = at(owners={"o-docks": "criminals"})
    move(s, "cop-1", 1, "o-docks")
    assert s.influence.value == 500


def test_influence_never_goes_below_zero():
    s = at(influence=30, owners={"o-docks": "cops"})
    move(s, "cop-1", 1, "o-docks")
    assert s.influence.value == 0 and s.influence.in_bounds()


# -------------------------------------------------------------- tiers

def test_landing_on_your_home_base_offers_the_other_tier():
    s = new()
    place(s, "crim-1", "o-bar")
    turn_of(s, "crim-1")
    move(s, "crim-1", 2, "hideout")
    assert GAME.prompt(s).awaiting.kinds == ("cross", "decline")
    push(s, CrossTier("crim-1"))
    assert s.pos["crim-1"] == "hideout-inner" and s.actor == "cop-1"


def test_an_enemy_home_base_is_no_crossing():
    s = new()
    place(s, "cop-1", "o-bar")
    move(s, "cop-1", 2, "hideout")
    assert s.actor == "crim-1"


def test_open_tunnel_lets_a_move_go_through():
    s = new()
    place(s, "cop-1", "o-factory")
    assert list(reachable(s, "cop-1", 2)) == ["o-arcade"]
    s.open_tunnels = ["tunnel-a"]
    assert sorted(reachable(s, "cop-1", 2)) == ["i-tower", "o-arcade"]
    assert reachable(s, "cop-1", 2)["i-tower"] == ("o-tunnel-a", "i-tunnel-a")
    assert sorted(reachable(s, "cop-1", 1)) == ["i-tunnel-a", "o-tunnel-a"]


def test_criminals_dig_and_collapse_at_the_cost():
    s = new()
    place(s, "crim-1", "o-tunnel-a")
    turn_of(s, "crim-1")
    assert "open" in GAME.prompt(s).awaiting.accepted
    assert rejected(s, OpenTunnel("crim-1", "tunnel-b")) == ("not-on-tunnel",)
    push(s, OpenTunnel("crim-1", "tunnel-a"))
    assert s.open_tunnels == ["tunnel-a"] and s.influence.value == 350 and s.actor == "crim-1"
    assert rejected(s, CollapseTunnel("crim-1", "tunnel-a")) == ("not-awaited", "cannot-collapse")  # once a turn
    assert "already been dug or collapsed this turn" in said(s, CollapseTunnel("crim-1", "tunnel-a"))
    turn_of(s, "crim-1")
    push(s, CollapseTunnel("crim-1", "tunnel-a"))
    assert s.open_tunnels == [] and s.influence.value == 200


def test_criminals_cannot_dig_without_the_influence():
    s = new()
    s.influence.set(100)
    place(s, "crim-1", "o-tunnel-a")
    turn_of(s, "crim-1")
    assert rejected(s, OpenTunnel("crim-1", "tunnel-a")) == ("not-awaited", "cannot-open")
    cost = s.board.tunnels["tunnel-a"].cost
    assert f"Opening this tunnel costs {cost} influence; the criminals have 100." in said(s, OpenTunnel("crim-1", "tunnel-a"))


@pytest.mark.parametrize("option,after_collapse", [("criminals-gain", 800), ("free", 650)])
def test_cops_dig_and_collapse_move_influence_to_the_criminals(option, after_collapse):
    s = new(cop_collapse=option)
    place(s, "cop-1", "i-tunnel-a")
    push(s, OpenTunnel("cop-1", "tunnel-a"))
    assert s.influence.value == 650
    turn_of(s, "cop-1")
    push(s, CollapseTunnel("cop-1", "tunnel-a"))
    assert s.influence.value == after_collapse


# ------------------------------------------------------- capturing players

def test_landing_on_an_enemy_captures_it():
    s = new()
    place(s, "crim-1", "o-market")
    move(s, "cop-1", 3, "o-market")
    assert GAME.prompt(s).awaiting.kinds == ("arrest", "decline")
    assert rejected(s, Arrest("cop-1", "cop-1")) == ("cannot-arrest",)
    push(s, Arrest("cop-1", "crim-1"))
    assert s.custody == {"crim-1": [6]} and s.pos["crim-1"] == "police-station"
    assert s.actor == "crim-1" and s.phase == "custody"


def test_criminals_capture_cops_too():
    s = new()
    place(s, "cop-1", "o-market")
    place(s, "crim-1", "o-docks")
    turn_of(s, "crim-1")
    move(s, "crim-1", 2, "o-market")
    push(s, Arrest("crim-1", "cop-1"))
    assert s.custody == {"cop-1": [6]} and s.pos["cop-1"] == "hideout"


def test_landing_capture_may_be_declined():
    s = new()
    place(s, "crim-1", "o-market")
    move(s, "cop-1", 3, "o-market")
    push(s, Decline("cop-1"))
    assert s.custody == {} and s.actor == "crim-1"


def test_passing_an_enemy_starts_a_capture_roll_with_a_chosen_range():
    s = new()
    place(s, "crim-1", "o-gamble-1")
    move(s, "cop-1", 3, "o-market")
    p = GAME.prompt(s)
    assert p.actors == {"cop-1"} and p.awaiting.kinds == ("range", "decline")
    assert rejected(s, ChooseRange("cop-1", "crim-1", 5)) == ("bad-range",)
    push(s, ChooseRange("cop-1", "crim-1", 2))
    p = GAME.prompt(s)
    assert p.actors == {"crim-1"} and p.awaiting.purpose.startswith("capture roll")
    push(s, Roll("crim-1", (5,)))  # outside 2-4: captured
    assert "crim-1" in s.custody and s.actor == "crim-1"


def test_capture_roll_inside_the_range_goes_free():
    s = new()
    place(s, "crim-1", "o-gamble-1")
    move(s, "cop-1", 3, "o-market")
    push(s, ChooseRange("cop-1", "crim-1", 1), Roll("crim-1", (3,)))
    assert s.custody == {} and s.actor == "crim-1"


@pytest.mark.parametrize("tile", ["o-safe-1", "hideout"])
def test_safe_zones_and_the_starter_tile_are_safe(tile):
    s = new()
    place(s, "crim-1", tile)
    place(s, "cop-1", {"o-safe-1": "o-gamble-1", "hideout": "o-bar"}[tile])
    move(s, "cop-1", 3, {"o-safe-1": "o-factory", "hideout": "o-pawnshop"}[tile])
    assert s.custody == {} and s.actor == "crim-1"
    place(s, "cop-1", {"o-safe-1": "o-market", "hideout": "o-gamble-2"}[tile])
    turn_of(s, "cop-1")
    move(s, "cop-1", 1, tile)
    assert s.phase != "arrest"


# ---------------------------------------------------------------- escape

def _captured(**options):
    s = new(**options)
    place(s, "crim-1", "o-market")
    move(s, "cop-1", 3, "o-market")
    push(s, Arrest("cop-1", "crim-1"))
    return s


def test_escape_by_paying_200():
    s = _captured()
    push(s, PayEscape("crim-1"))
    assert s.custody == {} and s.influence.value == 300 and s.actor == "cop-1"


def test_escape_by_rolling_a_6_else_stay():
    s = _captured()
    push(s, Roll("crim-1", (5,)))
    assert "crim-1" in s.custody and s.actor == "cop-1"
    push(s, Roll("cop-1", (1,)), MoveTo("cop-1", "o-safe-1"))
    push(s, Roll("crim-1", (6,)))
    assert s.custody == {} and s.pos["crim-1"] == "police-station"


def test_cannot_pay_without_200():
    s = _captured()
    s.influence.set(150)
    s.changed()
    # Escaping capture: "pay 200 Influence Points or roll a 6" (issue 31: the refusal said
    # only "a pay is not allowed now").
    assert rejected(s, PayEscape("crim-1")) == ("not-awaited", "cannot-pay")
    assert "Paying to escape costs 200 influence; the criminals have 150." in said(s, PayEscape("crim-1"))


def test_in_custody_no_move_or_capture():
    s = _captured()
    assert rejected(s, Capture("crim-1")) == ("not-awaited", "not-now-capture")
    assert GAME.prompt(s).awaiting.purpose == "escape"


@pytest.mark.parametrize("option,after", [("criminals-gain", 700), ("roll-only", None)])
def test_captured_cop_escapes(option, after):
    s = new(cop_escape_pay=option)
    place(s, "cop-1", "o-market")
    place(s, "crim-1", "o-docks")
    turn_of(s, "crim-1")
    move(s, "crim-1", 2, "o-market")
    push(s, Arrest("crim-1", "cop-1"))
    if after is None:
        assert rejected(s, PayEscape("cop-1")) == ("not-awaited", "cannot-pay")
        assert "escapes only by rolling (RULINGS E-02)" in said(s, PayEscape("cop-1"))
    else:
        push(s, PayEscape("cop-1"))
        assert s.influence.value == after and s.custody == {}


# -------------------------------------------------------------- winning

def _end_turns(s, n):
    for _ in range(n):
        seat = s.actor
        place(s, seat, "o-gains-3")  # one step before the Police Station: no effect for a criminal
        if s._faction[seat] == "cops":
            place(s, seat, "o-gamble-3")  # lands on o-station, unowned
        push(s, Roll(seat, (1,)))
        push(s, MoveTo(seat, next(iter(s.routes))))
        while s.result is None and s.actor == seat and s.phase not in ("start", "custody"):
            push(s, Decline(seat))


def test_criminals_win_holding_1000_for_three_rounds():
    s = new()
    s.influence.set(1000)
    _end_turns(s, 5)
    assert s.result is None and s.criminal_streak.count == 2
    _end_turns(s, 1)
    assert s.result.winner == "criminals" and s.result.winning_seats == ("crim-1",)
    assert GAME.prompt(s).over
    assert rejected(s, Roll("cop-1", (1,))) == ("game-over",)


def test_streak_breaks_when_influence_drops():
    s = new()
    s.influence.set(1000)
    _end_turns(s, 4)
    s.influence.set(999)
    _end_turns(s, 2)
    assert s.criminal_streak.count == 0 and s.result is None


def test_cops_win_holding_0_for_three_turns_per_seat_turn_option():
    s = new(streak_turn="seat-turn")
    s.influence.set(0)
    _end_turns(s, 2)
    assert s.result is None and s.cop_streak.count == 2
    _end_turns(s, 1)
    assert s.result.winner == "cops" and "0" in s.result.reason
    assert s.result.scores["criminals"].total == 0


# ------------------------------------------------------------- rejections

def test_out_of_turn_and_bad_dice_all_reported():
    s = new()
    codes = rejected(s, Roll("crim-1", (7,)))
    assert set(codes) == {"not-your-turn", "face-out-of-range"}
    assert rejected(s, Roll("cop-1", (1, 2))) == ("wrong-dice-count",)
    assert rejected(s, MoveTo("cop-1", "o-docks")) == ("not-awaited", "not-now-move")
    assert rejected(s, PlayCard("cop-1", "gains-07a", tunnel="tunnel-a")) == ("not-awaited", "not-now-play")


def test_playing_a_card_you_do_not_hold():
    s = new()
    give(s, "crim-1", "gains-07a")
    give(s, "cop-1", "gains-07b")
    codes = rejected(s, PlayCard("cop-1", "gains-07a", tunnel="tunnel-a"))
    assert codes == ("not-in-hand",)
    e = None
    try:
        GAME.push(s, PlayCard("cop-1", "gains-07a", tunnel="tunnel-a"))
    except Exception as err:
        e = err
    assert "Gains 7" not in str(e)  # the other seat's card is not described


def test_legal_actions_listing_and_in():
    s = new()
    legal = list(GAME.legal_actions(s))
    assert Roll("cop-1", (4,)) in GAME.legal_actions(s) and len(legal) == 6
    assert Roll("crim-1", (4,)) not in GAME.legal_actions(s)


def test_rejections_name_tiles_tunnels_and_players_as_the_table_does():
    # A refusal reaches players (the table screen, the command-line referee): the printed
    # tile name and the player's name, never a tile id or a seat id.
    from rules import IllegalAction, Seat

    s = GAME.new([Seat("cop-1", "cops", "Ann"), Seat("crim-1", "criminals", "Bob")], {}, 1)
    push(s, Roll("cop-1", (3,)))
    with pytest.raises(IllegalAction) as e:
        GAME.push(s, MoveTo("cop-1", "o-docks"))
    assert "Docks" in str(e.value) and "o-docks" not in str(e.value)
    with pytest.raises(IllegalAction) as e:
        GAME.push(s, MoveTo("cop-1", "o-nowhere"))
    assert "no such tile" in str(e.value)
    place(s, "crim-1", "o-market")
    push(s, MoveTo("cop-1", "o-market"))
    with pytest.raises(IllegalAction) as e:
        GAME.push(s, Arrest("cop-1", "cop-1"))
    assert "Ann is not an enemy" in str(e.value) and "cop-1" not in str(e.value)
