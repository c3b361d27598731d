"""Every seed game on the phone: a card drawn from the physical deck is offered from what
the seat cannot rule out (the game screen presenter's ``physical_draws``, the same list as
behind the gate), sent by its words only, and journaled as the phone's; the seat's own
cards come with their rule text (``card_texts``), and nobody else's do."""
from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rules.core import Draw, DrawRequest, RollRequest

from companion import Journal, Table
from companion.web.seatview import OFFER, seat_payload

from ..table_helpers import seats_for
from .helpers import journal_rows, origin, path, receive, run
from .phone_games import PRESENTERS, presenter_for

GAMES = sorted(PRESENTERS)


def own_cards(t: Table, seat: str) -> list[str]:
    """The cards ``seat`` holds, read from its own view, game by game."""
    pv = t.private_view(seat)
    if t.game_id == "tyranny":
        return [c["id"] for c in pv.get("my_cards", [])]
    if t.game_id == "dicetopia":
        return list(pv["missions"][seat].get("cards", ()))
    if t.game_id == "against_all_tyrants":
        side = pv["sides"][seat]
        return list(side["hand"].get("cards") or []) + list((side.get("special_forces") or {}).get("cards") or [])
    return list(pv["hands"][seat].get("cards", ()))


def at_a_draw(game_id: str, seed: int = 3, limit: int = 400,
              want: Any = None) -> tuple[Table, Any, str]:
    """A table where a seat must draw a card, with physical draws to offer: random plays
    (the app's dice and deck for chance) until then, preferring a seat that holds cards
    (and for which ``want(t, p, seat)`` holds, when given)."""
    t = Table.create(Journal.open(":memory:"), game_id=game_id, seats=seats_for(game_id), seed=seed)
    p, pick = presenter_for(t), random.Random(seed)
    fallback = None
    for _ in range(limit):
        drawing = [s for s, w in t.prompt.waits.items() if isinstance(w, DrawRequest) and p.physical_draws(s)]
        for s in drawing:
            if own_cards(t, s) and (want is None or want(t, p, s)):
                return t, p, s
        if drawing and fallback is None:
            fallback = t.ply
        if any(isinstance(w, (RollRequest, DrawRequest)) for w in t.prompt.waits.values()):
            t.roll_for_me()
        else:
            acts = [a for a in t.legal_actions() if not a.chance]
            t.submit(pick.choice(acts)) if acts else t.roll_for_me()
        assert not t.is_over(), f"{game_id}: over before a draw with cards in hand"
    raise AssertionError(f"{game_id}: no draw with cards in hand in {limit} plies (first draw at ply {fallback})")


@pytest.mark.parametrize("game_id", GAMES)
def test_the_phone_offers_draws_the_seat_cannot_rule_out_and_journals_them_as_the_phones(game_id: str) -> None:
    t, p, seat = at_a_draw(game_id)
    extras, texts = (lambda s: p.physical_draws(s)), (lambda s: p.card_texts(s))
    draws = p.physical_draws(seat)
    mine = set(own_cards(t, seat))
    # Never a card the seat holds, each a Draw for this seat; the gate page lists the same.
    assert draws and all(isinstance(a, Draw) and a.seat == seat and a.card not in mine for _l, a in draws)
    gate = [c.label for sec in p.physical_draw_page(seat) for c in sec.choices]
    assert len(gate) == len(draws)
    # Another seat, not drawing now, is offered nothing.
    for other in (s["id"] for s in t.seats if s["id"] != seat):
        if not isinstance(t.prompt.waits.get(other), DrawRequest):
            assert p.physical_draws(other) == []
    payload = seat_payload(t, seat, extras, texts)
    offers = [a for a in payload["actions"] if a["action"].get("$") == OFFER]
    assert [a["label"] for a in offers] == [f"I drew {label}" for label, _a in draws]
    assert all(set(a["action"]) == {"$", "seat", "offer"} for a in offers)  # the words, never the card
    # The card really drawn: one the deck can give (the table's own deck agrees).
    chosen, card = next((label, a.card) for label, a in draws if not t.game.check(t.state, a))
    rows = journal_rows(t)

    async def body(client, server):
        ws = await client.ws_connect(path(server.url_for(seat)) + "/ws", headers=origin(client))
        first = (await receive(ws, "state"))["payload"]
        sent = {"$": OFFER, "seat": seat, "offer": "I drew " + chosen}
        await ws.send_json({"type": "act", "id": 1, "ply": first["ply"], "action": {**sent, "card": "x"}})
        assert (await receive(ws, "error"))["code"] == "bad-action"
        await ws.send_json({"type": "act", "id": 2, "ply": first["ply"], "action": {**sent, "offer": "I drew a joker"}})
        assert (await receive(ws, "error"))["code"] == "illegal"
        assert journal_rows(t) == rows
        await ws.send_json({"type": "act", "id": 3, "ply": first["ply"], "action": sent})
        assert (await receive(ws, "ok"))["id"] == 3
        await ws.send_json({"type": "act", "id": 4, "ply": first["ply"], "action": sent})  # a replay
        assert (await receive(ws, "error"))["code"] == "stale"
        await ws.close()

    run(body, t, extras=extras, texts=texts)
    entries = t.journal.actions(t.key)
    assert len(entries) == rows + 1 and entries[-1].source == "phone"
    done = json.loads(entries[-1].action)
    assert (done["$"], done["seat"], done["card"]) == ("core.draw", seat, card)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_phone_shows_its_own_cards_rule_text_and_nobody_elses(game_id: str) -> None:
    t, p, seat = at_a_draw(game_id)
    extras, texts = (lambda s: p.physical_draws(s)), (lambda s: p.card_texts(s))
    for s in (x["id"] for x in t.seats):
        hand = seat_payload(t, s, extras, texts)["hand"]
        mine = own_cards(t, s)
        assert sorted(c["id"] for c in hand) == sorted(mine)
        assert all(c["text"].strip() and c["name"].strip() for c in hand), hand
        others = {c for o in t.seats if o["id"] != s for c in own_cards(t, o["id"])}
        assert not others & {c["id"] for c in hand}
    assert own_cards(t, seat)  # the drawing seat held cards: the check above had some to see


def _face(game_id: str, card: str) -> Any:
    """What tells a card apart to its holder (copies alike are one face): Tyranny's
    number, Outrage!'s Tower card kind, Dicetopia's mission."""
    if game_id == "tyranny":
        from rules.tyranny.cards import CARDS

        return CARDS[card].number
    if game_id == "outrage":
        from rules.outrage.cards import TOWER

        return TOWER[card].kind if card in TOWER else card
    return card


@pytest.mark.parametrize("game_id", ["tyranny", "outrage", "dicetopia"])
def test_a_card_in_another_seats_hidden_hand_cannot_be_ruled_out(game_id: str) -> None:
    """The rulings (Tyranny C-16, Outrage! T-01, Dicetopia D-33): the offers exclude only
    what the drawing seat knows (its own cards, the face-up discards); a card another seat
    holds face down is still offered, since ruling it out would tell the drawing seat that
    someone holds it. The offers are the same whoever holds what."""
    from rules.core import Rng

    def others_only(t: Table, p: Any, seat: str) -> set[Any]:
        """The faces of this deck that another seat holds and ``seat`` does not."""
        deck = next(a.deck for _l, a in p.physical_draws(seat))
        mine = {_face(game_id, c) for c in own_cards(t, seat)}
        return {_face(game_id, c) for o in t.seats if o["id"] != seat for c in own_cards(t, o["id"])
                if c in _deck_cards(t, deck)} - mine

    t, p, seat = at_a_draw(game_id, limit=1500, want=lambda t, p, s: bool(others_only(t, p, s)))
    offered = {_face(game_id, a.card) for _l, a in p.physical_draws(seat)}
    mine = {_face(game_id, c) for c in own_cards(t, seat)}
    held_only_by_others = others_only(t, p, seat)
    assert held_only_by_others, "no card of this deck in another seat's hand here"
    assert held_only_by_others <= offered, "a card in another seat's hand was ruled out"
    if game_id == "dicetopia":  # missions are unique: its own are never offered
        assert not mine & offered
    labels = [label for label, _a in p.physical_draws(seat)]
    rng = Rng(11)
    for _ in range(5):  # other hands swapped with the deck: the same offers
        twin = t.game.hidden_variant(t.state, seat, rng)
        if twin is None:
            continue
        saved, t._state = t._state, twin
        try:
            assert [label for label, _a in p.physical_draws(seat)] == labels
        finally:
            t._state = saved


def _deck_cards(t: Table, deck: str) -> set[str]:
    """Every card of ``deck`` in the game's data (whoever holds it now)."""
    if t.game_id == "tyranny":
        from rules.tyranny.cards import DECKS

        return set(DECKS[deck])
    if t.game_id == "outrage":
        from rules.outrage.cards import TOWER

        return set(TOWER)
    from rules.dicetopia.tables import tables

    return set(tables().missions)
