"""The Against All Tyrants presenter without a window: the public panel never names a
hidden card, private choices go behind the gate, the attack's arithmetic is shown before
it is confirmed, a card's text is applied with checked primitives, player words only."""
from __future__ import annotations

import re

from rules import PUBLIC
from rules.against_all_tyrants import Attack, Damage, Done, EndPhase, Mulligan, Order, Play

from companion.ui.games.against_all_tyrants.presenter import AatPresenter
from companion.ui.presenters.gate import PickState

SEAT_IDS = re.compile(r"(?<![\w-])(att|def)(?![\w-])|[AD]:[a-z0-9-]+#\d|deck-(att|def)|\b[A]-\d\d\b")


def _gate_action(p: AatPresenter, seat: str, kind: type | None = None) -> object:
    for sec in p.hand_page(seat):
        if sec.pick is not None and kind is None:  # the mulligan: confirmed with nothing picked
            return PickState(sec.pick).action()
        for c in sec.choices:
            if kind is None or isinstance(c.action, kind):
                return c.action
    raise AssertionError(f"no {kind} choice behind {seat}'s gate")


def _to_combat(t, p: AatPresenter) -> None:
    """Setup and the Defender's phase 1 by the presenter's own buttons and gate pages."""
    for _ in range(60):
        v = p.view()
        if v["phase"] == "combat" and not v["pending"]:
            return
        b = p.buttons()
        if b[0].intent == "app-draw":
            t.roll_for_me()
        elif b[0].intent == "hand":
            t.submit(_gate_action(p, b[0].seat))
        else:
            t.submit(next(x.action for x in b if isinstance(x.action, EndPhase)) if v["phase"] == "deploy" else b[0].action)
    raise AssertionError("never reached combat")


def _public_words(p: AatPresenter) -> list[str]:
    v = p.view()
    words = [p.turn_line(v), p.prompt_line(), p.phase_line(v)] + [b.label for b in p.buttons() + p.standing_buttons()]
    words += [c.text for col in p.columns(v) for c in col.chips] + p.escalation(v)[2]
    return words


def test_setup_to_combat_keeps_hands_off_the_public_panel_and_in_player_words(new_table):
    t = new_table(seed=3)
    p = AatPresenter(t)
    b = p.buttons()
    assert b[0].intent == "app-draw" and b[0].count == 5 and "Dee" in b[0].label
    assert b[1].intent == "physical-draw" and b[1].seat == "def"
    for _ in range(10):
        t.roll_for_me()
    hand = t.private_view("def")["sides"]["def"]["hand"]["cards"]
    titles = {p.card_title(c) for c in hand}
    # The mulligan is a hidden choice: a button to the gate, never the cards themselves.
    assert [x.intent for x in p.buttons()] == ["hand"]
    assert not any(title in w for w in _public_words(p) for title in titles)
    page = p.hand_page("def")
    assert page[0].title == "Keep or mulligan" and page[0].pick is not None
    assert PickState(page[0].pick).confirm_label() == "Keep all five"
    _to_combat(t, p)
    for w in _public_words(p):
        assert not SEAT_IDS.search(w), w
    hidden = {h for h in t.hidden(PUBLIC)}
    assert not any(h in w for w in _public_words(p) for h in hidden)


def test_the_mulligan_discards_any_number_of_cards_picked_behind_the_gate(new_table):
    # 5.2.5.2: any number of the five. Two picked: the engine's own Mulligan naming
    # exactly those two, and two cards to draw again.
    t = new_table(seed=3)
    p = AatPresenter(t)
    for _ in range(10):
        t.roll_for_me()
    hand = list(t.private_view("def")["sides"]["def"]["hand"]["cards"])
    pick = p.hand_page("def")[0].pick
    assert pick is not None and [k for k, _ in pick.items] == hand
    assert [w for _, w in pick.items] == [p.card_title(c) for c in hand]
    assert len(pick.options) == 2 ** 5  # every subset, none to all five
    st = PickState(pick)
    st.toggle(hand[3])
    st.toggle(hand[1])
    assert st.count_line() == "2 of 5 cards to discard" and st.confirm_label() == "Mulligan 2 cards"
    action = st.action()
    assert isinstance(action, Mulligan) and action.seat == "def" and set(action.cards) == {hand[1], hand[3]}
    t.submit(action)
    left = t.private_view("def")["sides"]["def"]["hand"]["cards"]
    assert sorted(left) == sorted([hand[0], hand[2], hand[4]])
    st.toggle(hand[1])
    st.toggle(hand[3])
    assert st.confirm_label() == "Keep all five"


def test_a_card_that_acts_then_its_targets_and_the_preview_before_the_attack(new_table):
    t = new_table(seed=3)
    p = AatPresenter(t)
    _to_combat(t, p)
    v = p.view()
    assert p.phase_steps(v) == [("1 Draw & deploy", "done"), ("2 Combat", "current"), ("3 End of turn", "todo")]
    assert p.phase_line(v).startswith("Still to act: ") and "Starhawk" in p.phase_line(v)
    star = next(x for x in v["pieces"] if x["name"] == "Starhawk")
    kind, _ = p.tap_piece(star["id"])
    assert kind == "select" and p.selected == star["id"]
    attacks = [b for b in p.buttons() if b.intent == "attack"]
    assert attacks and all(isinstance(b.action, Attack) for b in attacks)
    target = next(b.action for b in attacks if p.card_title(b.action.target) == "Orbital Fortress")
    chips = {c.id: c for col in p.columns() for c in col.chips}
    assert chips[star["id"]].selected and chips[target.target].target
    text = p.attack_preview(target)
    assert text == "Starhawk → Orbital Fortress: 2 attack − Armor 2 = 0"
    ply = t.ply
    assert t.ply == ply  # the preview changed nothing
    assert p.tap_piece(target.target) == ("attack", target)
    t.submit(target)
    fortress = next(c for col in p.columns() for c in col.chips if c.id == target.target)
    assert fortress.stats == "♥ 22 of 22 HP"  # Armor 2 took all of it
    assert not any(b.intent == "attack" for b in p.buttons()) and p.selected == ""  # the Starhawk has acted


def test_a_tap_on_any_card_shows_its_whole_text_and_tokens_in_words(new_table):
    t = new_table(seed=3)
    p = AatPresenter(t)
    _to_combat(t, p)
    base = next(x for x in p.view()["pieces"] if x["name"] == "Orbital Fortress")
    kind, text = p.tap_piece(base["id"])
    assert kind == "info"
    assert "Orbital Fortress — Ann (★ Attacker), Space" in text and "Hit points 22" in text
    assert "Traits: Armor 2, Mainframe" in text and "» " in text


def test_an_order_applied_with_the_engines_primitives_quoting_the_cards_text(new_table):
    from tests.rules.against_all_tyrants.helpers import table_typed_options

    t = new_table(seed=3, options=table_typed_options())  # the table's own cards: texts without steps
    p = AatPresenter(t)
    _to_combat(t, p)
    citadel = next(x for x in p.view()["pieces"] if x["name"] == "Hidden Citadel")
    assert "» Place 1 Shield token on a unit of yours in this theater.\n   (The table resolves this text; the app does not check it.)" \
        in p.describe(citadel["id"])                                          # said on the card in play
    p.tap_piece(citadel["id"])
    order = next(b for b in p.buttons() if isinstance(b.action, Order))
    assert order.label.startswith("» ")
    t.submit(order.action)
    text = p.view()["pending"]["text"]
    assert f"“{text}”" in p.prompt_line() and "The table resolves this text; the app does not check it." in p.prompt_line()
    kinds = [b for b in p.buttons() if b.intent == "mode"]
    assert kinds and kinds[0].label == "✖ Deal damage"
    p.mode = "damage"
    hits = [b for b in p.buttons() if isinstance(b.action, Damage)]
    assert hits and all(b.label.startswith("✖ 1 damage to ") for b in hits)
    t.submit(hits[0].action)
    p.mode = ""  # the screen resets it after an accepted action
    done = next(b for b in p.buttons() if isinstance(b.action, Done))
    t.submit(done.action)
    assert p.view()["pending"] is None
    log = " ".join(p.humanise(x.text) for x in t.log())
    assert "Hidden Citadel" in log


def test_playing_a_card_is_chosen_behind_the_gate_and_the_escalation_scale_reads_in_words(new_table):
    t = new_table(seed=3)
    p = AatPresenter(t)
    for _ in range(10):
        t.roll_for_me()
    while p.view()["phase"] != "deploy":
        b = p.buttons()
        t.roll_for_me() if b[0].intent == "app-draw" else t.submit(_gate_action(p, b[0].seat))
    assert p.hand_purpose("def") == "play a card" and p.hand_purpose("att") == "look at your hand"
    assert isinstance(_gate_action(p, "def", Play), Play)
    assert p.hand_page("att") and not any(c for s in p.hand_page("att") for c in s.choices)
    levels, current, lines = p.escalation()
    assert levels == ["0", "1", "2", "3", "4", "5"] and current == 0
    assert lines == ["0 of 4 incidents (4 more raise the level)"]


def test_a_destroyed_card_is_a_moment_with_the_incident(new_table):
    p = AatPresenter(new_table(seed=3))
    piece = {"id": "D:ff-starhawk#1", "name": "Starhawk", "kind": "unit", "owner": "def"}
    before = {"pieces": [piece], "escalation": {"level": 0, "incidents": 0}}
    after = {"pieces": [], "escalation": {"level": 0, "incidents": 1}}
    m = p.moment(before, after)
    assert m.title == "✖ Starhawk destroyed" and m.text == "An incident: 1 of 4." and m.faction == "defender"
    assert p.moment(after, {"pieces": [], "escalation": {"level": 1, "incidents": 0}}).title == "⚠ Escalation 1"


def _joined(new_table, citadel_tokens: dict) -> tuple:
    """A game joined at the start of the Attacker's turn 2, its Spec Ops in combat facing
    the Hidden Citadel (holding ``citadel_tokens``)."""
    from rules.against_all_tyrants import GAME

    s = GAME.new([("att", "attacker"), ("def", "defender")], {}, seed=3)
    while s.phase != "draw" or s.active != "def":
        GAME.push(s, GAME.sample(s) or next(iter(GAME.legal_actions(s))))
    pos = GAME.position(s)
    pos["active"], pos["turn"] = "att", 2
    next(x for x in pos["pieces"] if x["id"] == "D:ff-hidden-citadel#1")["tokens"] = citadel_tokens
    t = new_table(seed=3, position=pos)
    p = AatPresenter(t)
    t.roll_for_me()
    t.submit(next(b.action for b in p.buttons() if isinstance(b.action, EndPhase)))
    p.tap_piece("A:nv-spec-ops#1")
    attack = next(b.action for b in p.buttons() if b.intent == "attack" and b.action.target == "D:ff-hidden-citadel#1")
    return t, p, attack


def test_the_preview_shows_each_step_on_its_own_line(new_table):
    t, p, attack = _joined(new_table, {"Shield": 1})
    assert p.attack_preview(attack).split("\n")[0].startswith("Spec Ops → Hidden Citadel: 3 attack − Armor 1 = 2;")
    assert "Shield" in p.attack_preview(attack).split("\n")[1]


def test_the_last_attack_ends_the_game_and_the_end_screen_names_the_winner(new_table):
    """A game joined with the Defender's base at 19 damage of 20: the preview says it will
    be destroyed; after the attack no button is left and the shared end screen's model
    names the winner in player words."""
    from companion.ui.presenters.end import EndModel

    t, p, attack = _joined(new_table, {"Damage": 19})
    citadel = next(c for col in p.columns() for c in col.chips if c.title == "Hidden Citadel")
    assert citadel.stats == "♥ 1 of 20 HP  ✖19" and citadel.target
    assert p.attack_preview(attack) == "Spec Ops → Hidden Citadel: 3 attack − Armor 1 = 2 (21 of 20 health: destroyed)"
    t.submit(attack)
    assert p.is_over() and p.buttons() == [] and p.standing_buttons() == [] and p.turn_line() == "The game is over"
    # The shared end screen reads the engine's outcome as it is: the seats' names, the rule.
    end = EndModel("against_all_tyrants", t.outcome, {"att": "Ann", "def": "Dee"})
    assert end.headline == "★ Ann wins" and end.winners == "Ann (★ Attacker)"
    assert end.reason == "Ann destroyed Dee's base (5.1.2.1)."


def test_the_end_turn_button_on_the_gpio_header_ends_the_phase(new_table):
    """rules/against_all_tyrants/data/mappings.json: the hub's end-turn button is EndPhase,
    its roll button draws with the app's deck."""
    from firmware_bridge.events import ButtonPressed

    t = new_table(seed=3)
    p = AatPresenter(t)
    r = t.route(ButtonPressed(device="gpio", button="roll", t=1.0))
    assert r.accepted is not None and p.view()["sides"]["def"]["hand"]["count"] == 1
    _to_combat(t, p)
    r = t.route(ButtonPressed(device="gpio", button="end-turn", t=2.0))
    assert r.accepted is not None and p.view()["phase"] == "end"


def test_a_physical_card_drawn_is_entered_behind_the_gate_by_its_name(new_table):
    t = new_table(seed=3)
    p = AatPresenter(t)
    page = p.physical_draw_page("def")
    names = [c.label for c in page[0].choices]
    assert names == sorted(names) and len(names) == len(set(names)) and "Starhawk" in names
    star = next(c.action for c in page[0].choices if c.label == "Starhawk")
    t.submit(star)
    assert p.drawn_news(star) == "You drew: Starhawk"
    assert [p.card_title(c) for c in t.private_view("def")["sides"]["def"]["hand"]["cards"]] == ["Starhawk"]
    assert t.log()[-1].text and "Starhawk" not in " ".join(p.humanise(x.text) for x in t.log(PUBLIC))


def test_after_an_undo_and_another_action_the_panel_follows_the_new_state(new_table):
    """Undo, then a different action, reaches the same ply in another state: the panel is
    the engine's for the state now (phase 2's, not phase 3's it showed at that ply before)."""
    t = new_table(seed=3)
    p = AatPresenter(t)
    _to_combat(t, p)
    t.submit(next(b.action for b in p.buttons() if isinstance(b.action, EndPhase)))
    assert [b.label for b in p.buttons() if isinstance(b.action, EndPhase)] == ["End the turn"]
    t.undo()
    # Another player's tap (or a hub's event) acts before this panel is drawn again.
    t.submit(next(a for a in t.legal_actions() if isinstance(a, Attack)))
    assert p.view()["phase"] == "combat"
    labels = [b.label for b in p.buttons()]
    assert "End combat → phase 3" in labels and not any(x.startswith("⚑ Place") for x in labels), labels
    assert any(x.startswith("▸ ") for x in labels), labels  # the cards that still act
    actor = next(x["id"] for x in p.view()["pieces"] if x["acts"])
    assert p.tap_piece(actor)[0] == "select" and any(b.intent == "attack" or b.label.startswith("»") for b in p.buttons())


def test_a_card_drawn_is_offered_by_name_whatever_the_order_of_the_seat_s_deck(tmp_path):
    """``physical_draws(seat)``, for the gate and the phone alike: one choice per card name
    left in the seat's own deck, the copy named the same whatever the shuffle."""
    from companion import Journal, Table
    from rules.core import DrawRequest

    from tests.companion.table_helpers import seats_for

    t = Table.create(Journal.open(tmp_path / "j.sqlite3"), game_id="against_all_tyrants",
                     seats=seats_for("against_all_tyrants"), seed=5)
    p = AatPresenter(t)
    seat = next(s for s, w in t.prompt.waits.items() if isinstance(w, DrawRequest))
    other = next(s["id"] for s in t.seats if s["id"] != seat)
    before = p.physical_draws(seat)
    assert before and [c.label for c in p.physical_draw_page(seat)[0].choices] == [label for label, _a in before]
    if not isinstance(t.prompt.waits.get(other), DrawRequest):
        assert p.physical_draws(other) == []
    with t._lock:  # another shuffle of the same deck
        t._state.sides[seat].deck.cards.reverse()
        t._state.changed()
    assert p.physical_draws(seat) == before
    t.submit(before[0][1])
    texts = p.card_texts(seat)
    side = t.private_view(seat)["sides"][seat]
    assert [c for c, _n, _t in texts] == side["hand"]["cards"] + side["special_forces"]["cards"]
    assert before[0][1].card in side["hand"]["cards"]
    assert all(text.startswith(name) for _c, name, text in texts)


def test_the_theaters_show_the_base_with_hp_then_its_leader_then_units_with_glyph_and_number_badges(new_table):
    from tests.rules.against_all_tyrants.helpers import fresh

    base = __import__("rules.against_all_tyrants", fromlist=["GAME"]).GAME.position(fresh())
    p = dict(base)
    p["pieces"] = base["pieces"] + [
        {"id": "D:ff-commander-vex#1", "owner": "def", "theater": "planetside", "tokens": {"Shield": 1}},
        {"id": "D:ff-militia#1", "owner": "def", "theater": "planetside", "tokens": {"Damage": 1, "Disruption": 1}},
    ]
    p["sides"] = {s: dict(v) for s, v in base["sides"].items()}
    p["sides"]["def"]["deck"] -= 2
    t = new_table(position=p)
    pres = AatPresenter(t)
    space, planet = pres.columns()
    assert (space.theater, planet.theater) == ("space", "planetside")            # side by side, Space first
    defender = [c for c in planet.chips if c.role == "defender"]
    assert [c.kind for c in defender][:3] == ["base", "leader", "unit"]           # the leader beside its base (Unique: its asterisk)
    citadel, vex = defender[0], defender[1]
    assert citadel.title == "Hidden Citadel" and citadel.stats == "♥ 20 of 20 HP"
    assert vex.title == "Commander Vex*" and vex.stats == "♥5/5" and vex.badges == "◈1"
    militia = next(c for c in defender if c.title == "Militia")
    assert militia.stats == "⚔1  ♥1/2  ✖1" and militia.badges == "⊘1"           # glyph and number, never colour alone
    assert "⊘ 1 Disruption" in pres.describe(militia.id)                          # and in words on a tap


def test_an_example_cards_order_offers_first_exactly_the_cards_its_words_name(new_table):
    """Issue 32, item 4: the Hidden Citadel's "» Place 1 Shield token on a unit of yours in this
    theater." asks first for that unit: no draw, no kinds of primitive, no other card."""
    t = new_table(seed=3)
    p = AatPresenter(t)
    _to_combat(t, p)
    v = p.view()
    citadel = next(x for x in v["pieces"] if x["name"] == "Hidden Citadel")
    me = citadel["owner"]
    assert "table resolves" not in p.describe(citadel["id"])
    p.tap_piece(citadel["id"])
    t.submit(next(b for b in p.buttons() if isinstance(b.action, Order)).action)
    mine_here = [x["name"] for x in p.view()["pieces"] if x["owner"] == me and x["theater"] == "planetside" and x["kind"] in ("unit", "objective")]
    buttons = p.buttons()
    assert mine_here and sorted(b.label for b in buttons) == sorted(f"+◈ Shield on {n}" for n in mine_here), [b.label for b in buttons]
    assert p.prompt_line().endswith("Hidden Citadel — “Place 1 Shield token on a unit of yours in this theater.”")
    assert p.phase_line() == "First: Hidden Citadel's text"      # not "Still to act: nobody (end the phase)"
    t.submit(buttons[0].action)
    assert p.view()["pending"] is None


def test_a_whole_hand_is_entered_on_one_gate_page(new_table):
    """Issue 32, item 12: in the deal the gate's page stays for the seat's next card until
    its five are entered (the shared ``physical_draw_continues``), saying which card it is;
    a single draw in a turn closes it."""
    from rules.core import DrawRequest

    t = new_table(seed=3)
    p = AatPresenter(t)
    seat = next(s for s, w in t.prompt.waits.items() if isinstance(w, DrawRequest))
    assert any(b.label.endswith("enter the 5 cards you drew") for b in p.buttons())
    for n in range(1, 6):
        page = p.physical_draw_page(seat)
        assert f"card {n} of 5" in " ".join(line.text for line in page[0].lines)
        t.submit(page[0].choices[0].action)
        assert p.physical_draw_continues(seat) == (n < 5)
    assert len(t.private_view(seat)["sides"][seat]["hand"]["cards"]) == 5
