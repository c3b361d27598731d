"""Every trait of the example set, as the rulebook's trait table words it (5.2.8.2), offers
only the legal targets (issue 32, item 4): parametrised over the set, so a trait new to it
without a check here fails.

Each check builds a board where the trait matters and compares what the engine offers (its
legal actions) with the set the trait's words name, written here from those words."""
from __future__ import annotations

from typing import Any, Callable

import pytest

from rules.core import Draw
from rules.against_all_tyrants import (
    GAME, Attack, Damage, Infiltrate, Mulligan, Order, Place, PlaceObjective, Play, Skip, Token, example_set,
)

from .helpers import ATT, DEF, clear_board, combat, deploy, fresh, put, to_hand

TRAITS = sorted({t.name for c in example_set().cards.values() for t in c.traits})
CHECKS: dict[str, Callable[[], None]] = {}


def check(*names: str) -> Callable[[Callable[[], None]], Callable[[], None]]:
    def add(fn: Callable[[], None]) -> Callable[[], None]:
        for n in names:
            CHECKS[n] = fn
        return fn
    return add


def legal(s: Any, kind: type) -> set[Any]:
    return {a for a in GAME.legal_actions(s) if isinstance(a, kind)}


def board(*specs: tuple[str, str, str | None], options: dict[str, Any] | None = None) -> tuple[Any, list[str]]:
    s = fresh(options)
    clear_board(s)
    return s, [put(s, seat, card, theater) for seat, card, theater in specs]


def targets(s: Any, piece: str) -> set[tuple[str, bool]]:
    return {(a.target, a.mark) for a in legal(s, Attack) if a.piece == piece}


# ------------------------------------------------------------------ placing a card asks nothing


@check("Armor", "Pierce", "Stealth", "Repeater", "Mass", "Funds", "Mainframe", "Expert", "Rallied")
def nothing_to_choose_when_placed() -> None:
    """Traits whose words give no choice when the card is played (they bend combat, deck
    building or another trait): playing a card with only such traits asks nothing."""
    for card in ("nv-assault-walker", "ff-sniper-team", "nv-dreadnought", "nv-conscript", "ff-black-market",
                 "nv-battle-net", "nv-tactical-officer", "ff-militia"):
        options = {"attacker_deck": "freedom-fighters", "defender_deck": "first-leaders-navy"} if card.startswith("nv-") else None
        s = fresh(options)
        s.escalation.level = 5
        seat = DEF
        deploy(s, seat)
        inst = to_hand(s, seat, card)
        GAME.push(s, Play(seat, inst, s.card(inst).theaters[0]))
        assert not s.pending, (card, s.pending)
        if card == "ff-black-market":   # Funds: "gain X Funds tokens", on your base (5.2.8.4)
            assert s.base(seat).count("Funds") == 2
        if card == "ff-sniper-team":    # Stealth: "give this unit a Stealth token"
            assert s.pieces[inst].count("Stealth") == 1


# ------------------------------------------------------------------ traits that ask


@check("Supply")
def supply_draws_from_your_own_deck() -> None:
    """Supply X: "Draw X cards." — from the player's own deck, X times, nothing else."""
    s = fresh()
    deploy(s, DEF)
    run = to_hand(s, DEF, "ff-supply-run")
    GAME.push(s, Play(DEF, run, ""))
    for _ in range(2):
        assert s.pending[0].kind == "supply"
        offered = set(GAME.legal_actions(s))
        assert offered and all(isinstance(a, Draw) and a.deck == f"deck-{DEF}" for a in offered)
        GAME.push(s, GAME.sample(s))
    assert s.pending[0].kind == "text"      # then the card's own text


def _navy_vs_navy() -> dict[str, str]:
    return {"attacker_deck": "first-leaders-navy", "defender_deck": "first-leaders-navy"}


@check("Compute")
def compute_places_on_your_mainframes() -> None:
    """Compute X: "place them on units with the Mainframe trait" — the player's own
    Mainframe units (RULINGS A-18), up to 3 Computation each; stopping is allowed."""
    s, (mine, theirs) = board((ATT, "nv-battle-net", "space"), (DEF, "nv-battle-net", "space"), options=_navy_vs_navy())
    s.escalation.level = 5
    deploy(s, ATT)
    drones = to_hand(s, ATT, "nv-drone-controller")
    GAME.push(s, Play(ATT, drones, "space"))
    own_mainframes = {q.id for q in s.pieces.values() if q.owner == ATT and s.card(q.id).has("Mainframe")}
    assert own_mainframes == {mine, s.base(ATT).id}
    assert {a.target for a in legal(s, Token)} == own_mainframes and legal(s, Skip)
    assert all(a.token == "Computation" and a.delta == 1 for a in legal(s, Token))
    s.pieces[mine].tokens["Computation"] = 3          # full: "can host up to 3 Computation tokens"
    s.changed()
    assert {a.target for a in legal(s, Token)} == {s.base(ATT).id}


@check("Backup")
def backup_moves_to_your_other_mainframes() -> None:
    """Backup X: "When this unit is destroyed, move up to X Computation tokens to other units
    with the Mainframe trait." — the owner's other Mainframes, not the destroyed one."""
    s, (net, other, theirs, killer) = board((ATT, "nv-battle-net", "space"), (ATT, "nv-battle-net", "space"),
                                            (DEF, "nv-battle-net", "space"), (DEF, "nv-destroyer", "space"), options=_navy_vs_navy())
    s.pieces[net].tokens.update(Computation=2, Damage=3)
    s.changed()
    combat(s, DEF)
    GAME.push(s, Attack(DEF, killer, net))
    assert net not in s.pieces and s.pending[0].kind == "backup" and s.pending[0].seat == ATT
    assert {a.target for a in legal(s, Token)} == {other, s.base(ATT).id} and legal(s, Skip)


@check("Transport")
def transport_places_units_of_its_type() -> None:
    """Transport X: Y: "place X units with type Y from either your hand or your Special
    Forces Deck." — only Y units held by the player, in a theater printed on them."""
    s = fresh()
    clear_board(s)
    deploy(s, DEF)
    cell, ship = to_hand(s, DEF, "ff-rebel-cell"), to_hand(s, DEF, "ff-starhawk")
    freighter = to_hand(s, DEF, "ff-smuggler-freighter")
    GAME.push(s, Play(DEF, freighter, "planetside"))
    side = s.sides[DEF]
    held = side.hand.cards + side.special_forces
    want = {Place(DEF, c, t) for c in held if "Trooper" in s.card(c).types for t in s.card(c).theaters}
    assert cell in {a.card for a in want} and ship not in {a.card for a in want}
    assert legal(s, Place) == want and legal(s, Skip)


@check("Sympathized")
def sympathized_places_rallied_units() -> None:
    """Sympathized X: "When this unit is destroyed, you may immediately place X units with the
    Rallied trait from your hand or Special Forces Deck." """
    s, (cell, walker) = board((DEF, "ff-rebel-cell", None), (ATT, "nv-assault-walker", None))
    to_hand(s, DEF, "ff-militia")
    to_hand(s, DEF, "ff-sniper-team")
    combat(s, ATT)
    GAME.push(s, Attack(ATT, walker, cell))
    assert cell not in s.pieces and s.pending[0].kind == "rally"
    side = s.sides[DEF]
    held = side.hand.cards + side.special_forces
    want = {Place(DEF, c, t) for c in held if s.card(c).has("Rallied") for t in s.card(c).theaters}
    assert want and legal(s, Place) == want and legal(s, Skip)


@check("Infiltrate")
def infiltrate_deploys_from_special_forces_at_the_start() -> None:
    """Infiltrate: "If in the Special Forces Deck, deploy this unit at the start of the game."
    — the one-theater ones go by themselves; one that may go to either theater is asked,
    offering its own Special Forces' Infiltrate units in their theaters only."""
    s = GAME.new(fresh().seats, {}, 5)
    while s.phase in ("deal", "mulligan", "redraw"):
        GAME.push(s, GAME.sample(s) or Mulligan(s.active, ()))
    assert s.phase == "infiltrate"
    seat = s.active
    want = {Infiltrate(seat, c, t) for c in s.sides[seat].special_forces if s.card(c).has("Infiltrate")
            for t in s.card(c).theaters}
    assert want and set(GAME.legal_actions(s)) == want


@check("Attacker", "Defender (Objective)")
def objective_cards_only_for_their_role() -> None:
    """Attacker / Defender (Objective): "this unit can only be put into play if you are the
    Attacker" (the Defender) — phase 3 offers only the seat's own role's objective units, in
    its base's theater (5.2.6.3.1)."""
    for options, seat in (({}, DEF), ({"attacker_deck": "freedom-fighters", "defender_deck": "first-leaders-navy"}, ATT)):
        s = fresh(options)
        s.active, s.phase = seat, "end"
        s.changed()
        role = "Attacker" if seat == ATT else "Defender (Objective)"
        want = {PlaceObjective(seat, c, s.base(seat).theater) for c in s.sides[seat].objectives
                if s.card(c).has(role) and s.base(seat).theater in s.card(c).theaters}
        assert want and legal(s, PlaceObjective) == want


@check("Command")
def command_gives_its_type_an_additional_action() -> None:
    """Command X: Y: "When this unit takes an action, Y other X units may take an additional
    action." — after Commander Vex's order (performed by the base), the Troopers that have
    acted may attack again; a unit of another type may not."""
    s, (vex, cell, walker_target, sniper) = board((DEF, "ff-commander-vex", None), (DEF, "ff-rebel-cell", None),
                                                  (ATT, "nv-assault-walker", None), (DEF, "ff-sniper-team", None))
    combat(s, DEF)
    GAME.push(s, Attack(DEF, cell, walker_target))
    GAME.push(s, Attack(DEF, sniper, walker_target))
    assert not targets(s, cell) and not targets(s, sniper)
    base = s.base(DEF).id
    GAME.push(s, Order(DEF, base, vex, 0))
    GAME.push(s, Damage(DEF, walker_target, 1))         # Vex's text, as written: 1 damage to an enemy unit Planetside
    assert targets(s, cell) and not targets(s, sniper)


@check("Fighter", "Capital", "Bomber", "Torpedo", "Point-Defense")
def space_targets() -> None:
    """Fighter: "Units with the Capital trait can not attack this unit through
    non-Point-Defense attacks. This unit can not attack enemy bases while there are enemy
    units with the Fighter trait in the same theater." Capital: "Units with the Fighter trait
    can not attack this unit unless otherwise specified. This unit can not attack enemy bases
    ... when there are enemy units with the Capital trait". Bomber: "May attack Capital
    ships." Torpedo: "This unit can attack units with the Capital trait." Point-Defense: "This
    unit may attack units with the Fighter trait"."""
    s, (inter, destroyer, star, gun, flak) = board(
        (ATT, "nv-interceptor", "space"), (ATT, "nv-destroyer", "space"),
        (DEF, "ff-starhawk", "space"), (DEF, "ff-gunship", "space"), (DEF, "ff-flak-frigate", "space"))
    base = s.base(ATT).id
    combat(s, DEF)
    assert targets(s, star) == {(inter, False), (destroyer, False)}      # Fighter with Torpedo: Capital too; base blocked by a Fighter
    assert targets(s, gun) == {(inter, False), (destroyer, False), (base, False)}   # Bomber (no Fighter trait): anything
    assert targets(s, flak) == {(inter, False), (destroyer, False)}      # Capital: a Fighter by Point-Defense; base blocked by a Capital
    combat(s, ATT)
    assert targets(s, inter) == {(star, False), (gun, False)}            # Fighter: not the Capital frigate
    assert targets(s, destroyer) == {(gun, False), (flak, False)}        # Capital: not the Fighter without Point-Defense


@check("Defended", "Defender", "Mark")
def planetside_targets() -> None:
    """Defended: "can not be attacked by units in the same theater while an allied unit in
    the same theater has the Defender trait." Defender: "Allied bases along with units with
    the Defended trait can not be attacked ... if this unit is also present". Mark: "spend 1
    Mark token to ignore the Defended trait or target an enemy leader directly." """
    # The Navy on both sides: the Defender's Marksman against the Attacker's Honor Guard.
    s, (guard, bulwark, kane, marksman, conscript) = board(
        (ATT, "nv-honor-guard", "planetside"), (ATT, "nv-bulwark", "planetside"), (ATT, "nv-admiral-kane", None),
        (DEF, "nv-marksman", None), (DEF, "nv-conscript", None), options=_navy_vs_navy())
    s.pieces[kane].theater = "planetside"
    s.pieces[marksman].tokens["Mark"] = 1                # Mark 1: "Place X Mark tokens on this unit when placed"
    s.changed()
    combat(s, DEF)
    assert s.pieces[marksman].count("Mark") == 1 and s.base(ATT).theater == "space"
    assert targets(s, conscript) == {(bulwark, False)}                   # the Defended guard and the leader: not without a Mark
    assert targets(s, marksman) == {(bulwark, False), (guard, True), (kane, True)}   # a Mark only where it does something


@pytest.mark.parametrize("trait", TRAITS)
def test_every_trait_of_the_example_set_offers_only_what_its_words_allow(trait: str) -> None:
    assert trait in CHECKS, f"no check written from the words of the trait {trait!r}"
    CHECKS[trait]()
