"""Every order and effect text of the example set carried out as written (issue 32, item 4):
performing it offers, step by step, exactly the cards its words name.

The expectations below are written from each card's words (the rulebook's "Resolve the text
of the order", 5.2.6.2.2), not from the steps in the card file: the test is parametrised over
the example set, so a new text with no expectation here fails, and so does a text whose steps
in the card file offer one card more or less than its words."""
from __future__ import annotations

from typing import Any, Callable

import pytest

from rules.core import PUBLIC, Draw, DrawRequest
from rules.against_all_tyrants import (
    GAME, Damage, Done, Incident, MoveTheater, Order, Play, Score, Skip, Token, example_decks, example_set,
)
from rules.against_all_tyrants.steps import TABLE_RESOLVES

from .helpers import ATT, DEF, clear_board, codes, combat, deploy, fresh, put, to_hand

UNIT = ("unit", "objective")  # objective units are units (5.1.2.3, 5.2.6.3.1)

# A step as the card's words say it: (what, the cards it may be aimed at, the action on one).
# ``on(q, me, src)``: q a piece of the state, me the seat resolving, src the card whose text it is.
Aimed = tuple[str, Callable[..., bool], Callable[..., Any]]


def enemy_unit(theater: str = "") -> Callable[..., bool]:
    return lambda s, q, me, src: q.owner != me and s.card(q.id).kind in UNIT and (not theater or q.theater == theater)


def this(theater: str = "") -> Callable[..., bool]:
    return lambda s, q, me, src: q.id == src and (not theater or q.theater == theater)


def escape(me: str, q: str) -> Score:
    return Score(me, q, True)


SHIELD_HERE: list[Any] = [("aim", lambda s, q, me, src: q.owner == me and s.card(q.id).kind in UNIT and q.theater == s.pieces[src].theater,
                           lambda me, q: Token(me, q, "Shield", 1))]
ESCAPE: list[Any] = [("aim", this("space"), escape)]

WORDS: dict[str, list[Any]] = {
    "Place 1 Shield token on a unit of yours in this theater.": SHIELD_HERE,
    "Draw 1 card.": [("draw", 1)],
    "Deal 1 damage to an enemy unit in the Planetside theater.": [("aim", enemy_unit("planetside"), lambda me, q: Damage(me, q, 1))],
    "Spend 2 Funds: draw 1 card.": [("aim", lambda s, q, me, src: q.owner == me and s.card(q.id).kind == "base",
                                     lambda me, q: Token(me, q, "Funds", -2)), ("draw", 1)],
    "Draw 2 cards.": [("draw", 2)],
    "Deal 3 damage to an enemy unit.": [("aim", enemy_unit(), lambda me, q: Damage(me, q, 3))],
    "Escape: from Space, leave the system (score 1 Objective token).": ESCAPE,
    "Escape: from Space, leave the system.": ESCAPE,
    "Deal 1 damage to an enemy unit in Space.": [("aim", enemy_unit("space"), lambda me, q: Damage(me, q, 1))],
    "Place 1 Shield token on a Ship of yours.": [("aim", lambda s, q, me, src: q.owner == me and "Ship" in s.card(q.id).types,
                                                  lambda me, q: Token(me, q, "Shield", 1))],
    "Remove 1 Computation token here: place 1 Disruption token on an enemy unit in Space.": [
        ("aim", this(), lambda me, q: Token(me, q, "Computation", -1)),
        ("aim", enemy_unit("space"), lambda me, q: Token(me, q, "Disruption", 1))],
    "Deal 4 damage to an enemy Planetside unit.": [("aim", enemy_unit("planetside"), lambda me, q: Damage(me, q, 4))],
    "Charge: place 1 Charge token here.": [("aim", this(), lambda me, q: Token(me, q, "Charge", 1))],
    "Transmit: remove 2 Charge tokens here to score 1 Objective token.": [
        ("aim", this(), lambda me, q: Token(me, q, "Charge", -2)), ("aim", this(), lambda me, q: Score(me, q))],
}
# Texts beyond the checked primitives: the table resolves them, and the card says so.
TABLE: set[str] = {"Load supplies Planetside, then return to Space: score 1 Objective token."}

TEXTS = [(c.id, i, t) for c in example_set().cards.values() for i, t in enumerate(c.orders)] + \
        [(c.id, -1, c.effect) for c in example_set().cards.values() if c.effect]


def deck_key(card_id: str) -> str:
    return next(k for k, d in example_decks().items() if any(card_id in d.to_data()[sec] for sec in ("bases", "special_forces", "main", "objectives")))


def game_for(card_id: str) -> tuple[Any, str]:
    """A game where ``card_id``'s deck plays the role that brings it into play (a base its
    theater's role; an objective card its trait's role), past setup, with a crowded board:
    each side's units in both theaters, a leader, Ships and a base."""
    c = example_set()[card_id]
    key = deck_key(card_id)
    role = "attacker" if (c.kind == "base" and "space" in c.theaters) or c.has("Attacker") else "defender"
    if c.kind not in ("base", "objective"):
        role = "attacker" if key == "first-leaders-navy" else "defender"
    other = "freedom-fighters" if key == "first-leaders-navy" else "first-leaders-navy"
    s = fresh({f"{role}_deck": key, f"{'defender' if role == 'attacker' else 'attacker'}_deck": other})
    clear_board(s)
    s.escalation.level = 5  # every card may be played
    for seat in (ATT, DEF):
        for cid, th in (("nv-interceptor", "space"), ("nv-conscript", "planetside"), ("nv-marine", "space"),
                        ("nv-marine", "planetside"), ("nv-destroyer", "space"), ("nv-tactical-officer", "planetside"),
                        ("ff-starhawk", "space"), ("ff-militia", "planetside"), ("ff-gunship", "space"), ("ff-gunship", "planetside"),
                        ("ff-sniper-team", "planetside"), ("nv-admiral-kane", None), ("ff-commander-vex", None)):
            if cid != card_id:
                try:
                    put(s, seat, cid, th)
                except LookupError:  # not in this seat's deck
                    pass
    return s, s.seat_of(role)


def targets(legal: list[Any]) -> set[Any]:
    return {a for a in legal if not isinstance(a, (Skip, Done))}


@pytest.mark.parametrize("card_id, index, text", TEXTS, ids=[f"{c}-{i}" for c, i, _t in TEXTS])
def test_every_text_of_the_example_set_offers_only_what_its_words_name(card_id, index, text):
    assert text in WORDS or text in TABLE, f"no expectation written from the words of {card_id}: {text!r}"
    card = example_set()[card_id]
    assert bool(card.steps_of(text)) == (text in WORDS), "the card file's steps and this test disagree on who resolves the text"
    s, me = game_for(card_id)
    if card.kind == "base":
        src = s.base(me).id
        assert s.card(src).id == card_id
    elif card.kind != "effect":
        src = put(s, me, card_id, "space" if "space" in card.theaters else None)
    # What the costs spend, so that each order can be performed ("Spend 2 Funds", "here").
    base = s.base(me)
    base.tokens["Funds"] = 2
    if card.kind != "effect" and card.kind != "base":
        s.pieces[src].tokens.update(Charge=2, Computation=1)
    s.changed()
    if card.kind == "effect":
        deploy(s, me)
        inst = to_hand(s, me, card_id)
        GAME.push(s, Play(me, inst, ""))
        while s.pending and s.pending[0].kind == "supply":    # Supply comes before the text (5.2.8.2)
            GAME.push(s, GAME.sample(s))
        src = inst
    else:
        combat(s, me)
        performer = base.id if card.kind == "leader" else src
        GAME.push(s, Order(me, performer, src, index))
    view = GAME.view(s, PUBLIC)["pending"]
    assert view["kind"] == "text" and view["text"] == text and view["checked"] == (text in WORDS)
    if text in TABLE:
        return
    for step in WORDS[text]:
        assert s.pending and s.pending[0].text == text
        if step[0] == "draw":
            for _ in range(step[1]):
                wait = GAME.prompt(s).awaiting
                assert isinstance(wait, DrawRequest) and wait.deck == f"deck-{me}"
                assert all(isinstance(a, Draw) for a in GAME.legal_actions(s))   # nothing but the draw
                GAME.push(s, GAME.sample(s))
            continue
        _kind, named, make = step
        want = {make(me, q.id) for q in s.pieces.values() if named(s, q, me, src)}
        assert want, f"the board offers no card for {text!r}: the test's board is too poor"
        got = targets(list(GAME.legal_actions(s)))
        assert got == want, f"{text!r}: offered {sorted(map(repr, got - want))} beyond its words, missing {sorted(map(repr, want - got))}"
        assert codes(s, Done(me)) != []                    # a text as written is not stopped early
        GAME.push(s, sorted(got, key=repr)[0])
    assert not s.pending, "the text is carried out once its last step is done"
    assert "carried out" in s.log[-1].text and s.card(src).title in s.log[-1].text


def test_the_fortress_base_order_first_asks_for_an_enemy_unit_in_space_and_refuses_the_others():
    s, me = game_for("nv-orbital-fortress")
    combat(s, me)
    fortress = s.base(me).id
    GAME.push(s, Order(me, fortress, fortress, 0))
    prompt = GAME.prompt(s)
    assert prompt.awaiting.choices == ("damage",) and "deal 1 damage to an enemy unit in Space" in prompt.awaiting.note
    own_space = next(q.id for q in s.pieces.values() if q.owner == me and q.theater == "space" and s.card(q.id).kind == "unit")
    enemy_planet = next(q.id for q in s.pieces.values() if q.owner != me and q.theater == "planetside" and s.card(q.id).kind == "unit")
    for wrong in (own_space, enemy_planet):
        v = GAME.check(s, Damage(me, wrong, 1))
        assert [x.code for x in v] == ["not-named"] and "is not an enemy unit in Space" in v[0].message
    enemy_space = next(q.id for q in s.pieces.values() if q.owner != me and q.theater == "space" and s.card(q.id).kind == "unit")
    assert [x.code for x in GAME.check(s, Damage(me, enemy_space, 2))] == ["text-says"]     # the text says 1
    assert codes(s, Incident(me)) and codes(s, MoveTheater(me, enemy_space))              # nor another primitive


def test_an_order_whose_cost_cannot_be_paid_or_condition_met_is_not_offered():
    s, me = game_for("nv-battle-net")
    net = put(s, me, "nv-battle-net")                             # no Computation token on it
    combat(s, me)
    v = GAME.check(s, Order(me, net, net, 0))
    assert [x.code for x in v] == ["cannot-carry-out"] and "remove 1 Computation token from this card" in v[0].message
    assert Order(me, net, net, 0) not in set(GAME.legal_actions(s))
    s, me = game_for("ff-black-market")
    market = put(s, me, "ff-black-market")
    s.base(me).tokens.pop("Funds", None)
    combat(s, me)
    assert codes(s, Order(me, market, market, 0)) == ["cannot-carry-out"]
    s, me = game_for("ff-evac-shuttle")
    shuttle = put(s, me, "ff-evac-shuttle", "planetside")
    combat(s, me)
    v = GAME.check(s, Order(me, shuttle, shuttle, 0))
    assert [x.code for x in v] == ["cannot-carry-out"] and "(it is in Planetside)" in v[0].message


def test_a_step_with_nothing_to_aim_at_is_passed_and_said():
    s, me = game_for("nv-orbital-fortress")
    for q in list(s.pieces.values()):
        if q.owner != me and q.theater == "space" and s.card(q.id).kind != "base":
            del s.pieces[q.id]
    combat(s, me)
    fortress = s.base(me).id
    GAME.push(s, Order(me, fortress, fortress, 0))
    assert GAME.prompt(s).awaiting.choices == ("skip",) and "nothing to deal 1 damage" in GAME.prompt(s).awaiting.note
    assert list(GAME.legal_actions(s)) == [Skip(me)]
    GAME.push(s, Skip(me))
    assert not s.pending


def test_a_text_the_app_cannot_check_is_marked_and_keeps_the_generic_primitives():
    assert TABLE_RESOLVES == "The table resolves this text; the app does not check it."
    s, me = game_for("ff-rogue-transport")
    rogue = put(s, me, "ff-rogue-transport", "space")
    combat(s, me)
    GAME.push(s, Order(me, rogue, rogue, 0))
    pend = GAME.view(s, PUBLIC)["pending"]
    assert pend["checked"] is False and pend["steps"] == []
    assert {"damage", "token", "score", "done"} <= set(GAME.prompt(s).awaiting.also or GAME.prompt(s).awaiting.choices)


def test_a_refusal_while_a_text_is_carried_out_names_its_step():
    s, me = game_for("nv-orbital-fortress")
    combat(s, me)
    fortress = s.base(me).id
    GAME.push(s, Order(me, fortress, fortress, 0))
    from rules.against_all_tyrants import EndPhase
    v = GAME.check(s, EndPhase(me))
    assert any("Orbital Fortress as written: deal 1 damage to an enemy unit in Space" in x.message for x in v), v


@pytest.mark.parametrize("steps, words", [
    ({"Draw 2 cards.": [{"do": "draw", "amount": 2}]}, "is not one of this card's orders or its effect text"),
    ({"Draw 1 card.": [{"do": "fly"}]}, "is one of damage, heal"),
    ({"Draw 1 card.": [{"do": "damage", "amount": 1, "on": {"who": "foe"}}]}, "is one of this, own, enemy, any"),
    ({"Draw 1 card.": [{"do": "token", "token": "Escalation", "amount": 1, "on": {"who": "this"}}]}, "names the token"),
    ({"Draw 1 card.": [{"do": "draw", "amount": 1, "on": {"who": "this"}}]}, "a draw step has no target"),
    ({"Draw 1 card.": []}, "a non-empty list"),
])
def test_a_card_file_with_bad_steps_is_refused_naming_the_field(steps, words):
    from rules.against_all_tyrants import CardError, parse_card

    data = dict(example_set()["ff-rebel-carrier"].to_data(), steps=steps)
    with pytest.raises(CardError) as e:
        parse_card(data)
    assert any(words in p.message and p.field.startswith("steps[") for p in e.value.found), e.value.found


def test_steps_round_trip_through_the_card_file():
    from rules.against_all_tyrants import parse_card

    for c in example_set().cards.values():
        assert parse_card(c.to_data()) == c and parse_card(c.to_data()).steps == c.steps
