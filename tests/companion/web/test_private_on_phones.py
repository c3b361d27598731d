"""Every private choice a seat makes behind the privacy gate is on that seat's phone, for
every seed game (the phone lists the seat's own legal actions, its private ones first);
Outrage!'s attack is committed from two phones and revealed together, the other seat's
page never receiving the weapons laid before the reveal; and the table screen's action
panel says "waiting for Ann's phone" instead of opening the gate for a seat whose phone
is attached."""
from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rules.core import CommitRequest, DrawRequest, RollRequest
from rules.core.jsondata import to_data
from rules.outrage.actions import Arm, Attack

from companion import Journal, Table
from companion.ui.phones_link import choices_of
from companion.web.seatview import seat_payload

from ..table_helpers import seats_for
from .helpers import origin, path, receive, run
from .phone_games import PRESENTERS, presenter_for

PLIES = 100  # per game: a bounded walk (the adversarial test and the rules harness walk further)


def _step(t: Table, pick: random.Random, skip: tuple[type, ...] = ()) -> None:
    """One random ply: chance from the app's dice and deck, else a random legal action."""
    if any(isinstance(w, (RollRequest, DrawRequest)) for w in t.prompt.waits.values()):
        t.roll_for_me()
        return
    acts = [a for a in t.legal_actions() if not a.chance and not isinstance(a, skip)]
    t.submit(pick.choice(acts)) if acts else t.roll_for_me()


def _key(action: Any) -> str:
    data = to_data(action)
    data.pop("source", None)
    return json.dumps(data, sort_keys=True)


@pytest.mark.parametrize("game_id", sorted(PRESENTERS))
def test_every_legal_choice_behind_the_gate_is_on_the_seats_phone(game_id: str) -> None:
    """At every ply of a random game, for every seat: each choice its gate page (the
    presenter's ``hand_page``) offers that the Table would accept is among the phone's
    actions, so a seat with a phone never needs the gate. The few the gate shows only to
    explain a refusal ("not playable now") are not choices."""
    seed = 0
    t = Table.create(Journal.open(":memory:"), game_id=game_id, seats=seats_for(game_id), seed=seed)
    p, pick = presenter_for(t), random.Random(seed)
    seats = [s["id"] for s in t.seats]
    checked = 0
    for _ in range(PLIES):
        if t.is_over():
            break
        legal = {_key(a) for a in t.legal_actions()}
        for seat in seats:
            gate = [c.action for sec in p.hand_page(seat) for c in (sec.choices or ()) if c.action is not None]
            phone = {json.dumps(a["action"], sort_keys=True) for a in seat_payload(t, seat, p.physical_draws, p.card_texts)["actions"]}
            for a in gate:
                if _key(a) in legal:
                    assert _key(a) in phone, f"{game_id} ply {t.ply}: {seat}'s gate offers {a} and its phone does not"
                    checked += 1
        _step(t, pick)
    assert checked > 0


def test_private_choices_come_first_so_the_cap_never_hides_one() -> None:
    """A seat can be offered more choices than a page's cap (Against All Tyrants' units,
    tokens and cards); its hand's choices (placing, discarding) come first, marked
    private, so a cap that cuts the listing never hides one of them."""
    from companion.web import seatview

    t = Table.create(Journal.open(":memory:"), game_id="against_all_tyrants", seats=seats_for("against_all_tyrants"), seed=0)
    p, pick = presenter_for(t), random.Random(0)
    seat, private = None, 0
    for _ in range(400):
        for s in t.seats:  # a seat offered both private and public choices
            flags = [a["private"] for a in seat_payload(t, s["id"], p.physical_draws, p.card_texts)["actions"]]
            if any(flags) and not all(flags):
                seat, private = s["id"], sum(flags)
                break
        if seat is not None:
            break
        _step(t, pick)
    assert seat is not None, "no seat offered both private and public choices"
    old = seatview.MAX_ACTIONS
    seatview.MAX_ACTIONS = private  # a cap that cuts the public ones
    try:
        payload = seat_payload(t, seat, p.physical_draws, p.card_texts)
    finally:
        seatview.MAX_ACTIONS = old
    gate = {_key(c.action) for sec in p.hand_page(seat) for c in (sec.choices or ()) if c.action is not None}
    listed = [a for a in payload["actions"]]
    assert payload["truncated"] and len(listed) == private
    assert all(a["private"] for a in listed), "private choices first"
    assert gate and gate <= {json.dumps(a["action"], sort_keys=True) for a in listed}


def outrage_at_attack(seed: int = 7) -> tuple[Table, str, str]:
    """Random plays (no attack until one is possible), then the first attack possible:
    returns the table awaiting both seats' weapons, the attacker and the defender."""
    t = Table.create(Journal.open(":memory:"), game_id="outrage", seats=seats_for("outrage"), seed=seed)
    pick = random.Random(seed)
    for _ in range(600):
        attack = next((a for a in t.legal_actions() if isinstance(a, Attack)), None)
        if attack is not None:
            t.submit(attack)
            assert all(isinstance(t.prompt.of(s), CommitRequest) for s in (attack.seat, attack.target))
            return t, attack.seat, attack.target
        _step(t, pick, skip=(Attack,))
    raise AssertionError("no attack in 600 plies")


def _weapons(t: Table, seat: str) -> tuple[str, ...]:
    arms = [a for a in t.legal_actions() if isinstance(a, Arm) and a.seat == seat]
    return max((a.cards for a in arms), key=len)


def _attack_from_phones(which: int) -> tuple[list[str], dict, dict, Table, tuple[str, ...]]:
    """The attacker lays its ``which``-th weapon alone (seed 7: it holds two kinds)."""
    t, atk, dfn = outrage_at_attack()
    p = presenter_for(t)
    held = _weapons(t, atk)
    assert len(held) >= 2, "the attacker holds two weapons to choose between"
    laid = (held[which],)

    async def body(client, server):
        a_ws = await client.ws_connect(path(server.url_for(atk)) + "/ws", headers=origin(client))
        d_ws = await client.ws_connect(path(server.url_for(dfn)) + "/ws", headers=origin(client))
        a0 = (await receive(a_ws, "state"))["payload"]
        d0 = (await receive(d_ws, "state"))["payload"]
        assert a0["must"]["commit"] and d0["must"]["commit"]
        pick = next(a for a in a0["actions"] if a["kind"] == Arm.kind and tuple(a["action"]["cards"]) == laid)
        assert pick["secret"] and pick["private"]
        assert pick["label"] == p.private_label(Arm(atk, laid)), "in the gate page's words"
        await a_ws.send_json({"type": "act", "id": 1, "ply": a0["ply"], "action": pick["action"]})
        assert (await receive(a_ws, "ok"))["id"] == 1
        # Everything the defender's page is sent until it commits: its pushes and a fresh /state.
        seen = [json.dumps(d0)]
        d1 = (await receive(d_ws, "state"))["payload"]
        seen.append(json.dumps(d1))
        seen.append(await (await client.get(path(server.url_for(dfn)) + "/state")).text())
        assert d1["must"]["commit"] and atk not in [s for s in t.prompt.actors]
        mine = next(a for a in d1["actions"] if a["kind"] == Arm.kind and a["action"]["cards"])
        await d_ws.send_json({"type": "act", "id": 2, "ply": d1["ply"], "action": mine["action"]})
        assert (await receive(d_ws, "ok"))["id"] == 2
        a2 = d2 = None
        while a2 is None or a2["ply"] < d1["ply"] + 1:
            a2 = (await receive(a_ws, "state"))["payload"]
        while d2 is None or d2["ply"] < d1["ply"] + 1:
            d2 = (await receive(d_ws, "state"))["payload"]
        await a_ws.close()
        await d_ws.close()
        return seen, a2, d2

    seen, a2, d2 = run(body, t, extras=p.physical_draws, texts=p.card_texts, words=lambda s: choices_of(p, t, s))
    assert [e.source for e in t.journal.actions(t.key)][-2:] == ["phone", "phone"]
    return seen, a2, d2, t, laid


def test_an_outrage_attack_is_committed_from_two_phones_and_revealed_together() -> None:
    seen_one, a2, d2, t, laid = _attack_from_phones(0)
    seen_other, _a, _d, _t, other = _attack_from_phones(1)
    # The defender's page, before it commits, is byte for byte the same whichever weapon
    # the attacker laid: it cannot tell which. (How many cards were laid is public, as
    # at the table: the attacker's hand count drops by the cards laid face down.)
    assert laid != other
    assert seen_one == seen_other, "the defender's page depends on the attacker's sealed weapons"
    assert not any(c in text for text in seen_one + seen_other for c in laid + other)
    # Revealed together: both phones get the same public reveal, naming the weapons laid.
    def reveal_of(payload: dict) -> list[dict]:
        return [e for e in payload["view"]["log"] if e["ply"] >= payload["ply"] - 1 and e.get("seat") is None]

    assert reveal_of(a2) == reveal_of(d2) and reveal_of(d2)
    assert not isinstance(t.prompt.waits.get(a2["seat"]), CommitRequest)
    reveal = json.dumps(reveal_of(d2))
    names = presenter_for(t)
    assert all(names.card_name(c).split(" ")[0] in reveal for c in laid), reveal[-600:]


def test_a_sealed_commit_stays_out_of_every_other_payload() -> None:
    """The differential check during the attack, with the attacker's weapons sealed: each
    seat's payload is the same for a twin state that differs only in what it may not see."""
    from rules.core import Rng

    t, atk, dfn = outrage_at_attack()
    p = presenter_for(t)
    t.secrets.commit(atk, Arm(atk, _weapons(t, atk)), source="phone")
    rng = Rng(7)
    compared = 0
    for seat in (atk, dfn):
        for _ in range(5):
            twin = t.game.hidden_variant(t.state, seat, rng)
            if twin is None:
                continue
            real = json.dumps(seat_payload(t, seat, p.physical_draws, p.card_texts, lambda s: choices_of(p, t, s)))
            saved = t._state
            t._state = twin
            try:
                other = json.dumps(seat_payload(t, seat, p.physical_draws, p.card_texts, lambda s: choices_of(p, t, s)))
            finally:
                t._state = saved
            assert real == other, f"{seat} sees a difference during the attack"
            compared += 1
    assert compared >= 5


def test_the_table_screen_waits_for_the_phones_instead_of_the_gate() -> None:
    """The action panel's hook (GameScreen.phone_specs, Kivy-free here): during the
    attack, a seat whose phone is attached has no gate button, one "waiting for its phone"
    button instead, and the prompt's badge names it; a seat without a phone keeps its
    gate button."""
    from companion.ui.presenters.phones import ON_PHONE, phone_buttons, waiting_line, waiting_on_phones

    t, atk, dfn = outrage_at_attack()
    p = presenter_for(t)
    specs = p.buttons()
    assert {s.seat for s in specs if s.intent == "hand"} == {atk, dfn}
    names = {s["id"]: s["name"] for s in p.seats()}
    waiting = waiting_on_phones(specs, {atk}, t.prompt.waits)
    assert waiting == {atk}
    shown = phone_buttons(specs, {atk}, waiting, names.get)
    assert [s.label for s in shown if s.seat == atk] == [f"☎ Waiting for {names[atk]}'s phone"]
    assert [s.intent for s in shown if s.seat == atk] == [ON_PHONE]
    assert [s.intent for s in shown if s.seat == dfn] == ["hand"]
    assert waiting_line([(s, names[s]) for s in (atk, dfn)], waiting) == f"☎ waiting for {names[atk]}'s phone"
    # The attacker commits from its phone: the table now waits for the defender only.
    t.secrets.commit(atk, Arm(atk, ()), source="phone")
    specs = p.buttons()
    both = waiting_on_phones(specs, {atk, dfn}, t.prompt.waits)
    assert both == {dfn}
    assert [s.label for s in phone_buttons(specs, {atk, dfn}, both, names.get) if s.intent == ON_PHONE] == \
        [f"☎ Waiting for {names[dfn]}'s phone"]
