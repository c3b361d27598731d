"""Against All Tyrants rules, section by section: setup, the three phases, targeting traits,
instructions, tokens, escalation, objectives and the resolution primitives."""
from __future__ import annotations

import pytest

from rules.core import PUBLIC, Draw, IllegalAction
from rules.against_all_tyrants import (
    GAME, Attack, Pending, Clear, Damage, Delegate, Discard, Done, EndPhase, Heal, Infiltrate, Instruct, Move, MoveTheater,
    Mulligan, Order, Place, PlaceObjective, Play, Score, Skip, Token,
)

from .helpers import ATT, DEF, SEATS, clear_board, cloned_deck, codes, combat, deploy, fresh, put, table_text, take, to_hand

# ------------------------------------------------------------------ setup (5.2.5)


def test_roles_bases_and_the_deal():
    s = GAME.new(SEATS, {}, 3)
    assert s.base(DEF).theater == "planetside" and s.base(ATT).theater == "space"
    assert GAME.prompt(s).actors == {DEF}                      # the Defender draws first
    for _ in range(5):
        GAME.push(s, GAME.sample(s))
    assert len(s.sides[DEF].hand) == 5 and GAME.prompt(s).actors == {ATT}
    assert len(s.sides[DEF].special_forces) == 5 and len(s.sides[DEF].objectives) == 3
    assert len(s.sides[DEF].deck) == 25


def test_a_physical_draw_names_the_card():
    s = GAME.new(SEATS, {}, 3)
    card = s.sides[DEF].deck.cards[-1]                      # the bottom card: the table's deck differs
    GAME.push(s, Draw(DEF, f"deck-{DEF}", card, source="touch"))
    assert card in s.sides[DEF].hand
    assert "card-not-in-deck" in codes(s, Draw(DEF, f"deck-{DEF}", "D:ff-rebel-cell#99"))


def test_mulligan_discards_draws_as_many_and_shuffles_back():
    s = GAME.new(SEATS, {}, 4)
    while s.phase == "deal":
        GAME.push(s, GAME.sample(s))
    hand = list(s.sides[DEF].hand.cards)
    GAME.push(s, Mulligan(DEF, tuple(hand[:2])))
    assert s.phase == "redraw" and s.sides[DEF].aside == hand[:2]
    assert not set(hand[:2]) & set(s.sides[DEF].deck.cards)    # not redrawn
    GAME.push(s, GAME.sample(s))
    GAME.push(s, GAME.sample(s))
    assert len(s.sides[DEF].hand) == 5 and not s.sides[DEF].aside
    assert set(hand[:2]) <= set(s.sides[DEF].deck.cards)        # shuffled back
    assert s.phase == "mulligan" and s.active == ATT
    # What was set aside stays hidden from the other player and the table.
    assert all(c not in str(GAME.view(s, v)) for c in hand[:2] for v in (PUBLIC, ATT))


def test_infiltrate_units_deploy_at_the_start():
    s = GAME.new(SEATS, {}, 5)
    while s.phase in ("deal", "mulligan", "redraw"):
        GAME.push(s, GAME.sample(s) or Mulligan(s.active, ()))
    # One-theater Infiltrate units are deployed by themselves; the Scout Skiff (both) asks.
    names = {s.card(p).name for p in s.pieces}
    assert {"Infiltrator", "Spec Ops"} <= names
    assert s.phase == "infiltrate" and s.active == DEF
    skiff = next(c for c in s.sides[DEF].special_forces if "scout-skiff" in c)
    assert "wrong-theater" in codes(s, Infiltrate(DEF, skiff, "moon"))
    GAME.push(s, Infiltrate(DEF, skiff, "space"))
    assert s.pieces[skiff].theater == "space" and s.phase == "draw" and s.active == DEF and s.turn == 1


def test_to_be_determined_subfactions_are_told_at_setup():
    cards, deck = cloned_deck("Alien Coalitions", "al-")
    s = GAME.new(SEATS, {"cards": cards, "defender_deck": deck}, 1)
    text = " ".join(e.text for e in s.log)
    assert "Build Alliances) is To Be Determined in the rulebook (5.1.2.3.5)" in text
    assert "Bob plays for the primary objective only" in text
    assert GAME.view(s)["sides"][DEF]["objective"]["to_be_determined"] is True


def test_an_illegal_deck_is_a_setup_error_naming_the_rule():
    cards, deck = cloned_deck("Alien Coalitions", "al-", swap=lambda d: d["main"].update({"al-starhawk": 4}))
    from rules.core import InvalidSetup
    with pytest.raises(InvalidSetup, match=r"at most 3 copies of Starhawk.*5\.2\.4\.3"):
        GAME.new(SEATS, {"cards": cards, "defender_deck": deck}, 1)


# ------------------------------------------------------------------ phase 1


def test_phase_one_draw_then_up_to_two_plays():
    s = fresh()
    assert "must-draw" in codes(s, EndPhase(DEF))
    GAME.push(s, GAME.sample(s))
    assert s.phase == "deploy"
    deploy(s, DEF)
    a, b, c = (to_hand(s, DEF, "ff-militia"), to_hand(s, DEF, "ff-militia"), to_hand(s, DEF, "ff-rebel-cell"))
    GAME.push(s, Play(DEF, a, "planetside"))
    GAME.push(s, Play(DEF, b, "planetside"))
    assert GAME.prompt(s).awaiting.choices == ("end_phase",)
    assert "not-awaited" in codes(s, Play(DEF, c, "planetside"))


def test_units_only_in_a_theater_on_their_card_and_escalation():
    s = fresh()
    deploy(s, DEF)
    m = to_hand(s, DEF, "ff-militia")
    assert codes(s, Play(DEF, m, "space")) == ["wrong-theater"]
    v = GAME.check(s, Play(DEF, m, "space"))[0]
    assert "Bob" in v.message and v.rule.startswith("5.2.6.2.1.2")
    g = to_hand(s, DEF, "ff-gunship")                       # escalation 1
    assert codes(s, Play(DEF, g, "space")) == ["escalation-too-low"]
    s.escalation.level = 1
    s.changed()
    GAME.push(s, Play(DEF, g, "space"))


def test_a_leader_goes_beside_the_base_and_an_effect_is_resolved_then_discarded():
    s = fresh()
    deploy(s, DEF)
    vex = to_hand(s, DEF, "ff-commander-vex")
    assert codes(s, Play(DEF, vex, "planetside")) == ["no-theater"]
    GAME.push(s, Play(DEF, vex, ""))
    assert s.pieces[vex].theater == "planetside"
    run = to_hand(s, DEF, "ff-supply-run")
    hand = len(s.sides[DEF].hand.cards)
    GAME.push(s, Play(DEF, run, ""))
    assert run in s.sides[DEF].discard and s.pending[0].kind == "supply"
    GAME.push(s, GAME.sample(s))
    GAME.push(s, GAME.sample(s))
    assert len(s.sides[DEF].hand) == hand + 1 and s.pending[0].kind == "text"   # then its text: "Draw 2 cards."
    assert codes(s, Done(DEF))                                                   # carried out as written: no stopping early
    GAME.push(s, GAME.sample(s))
    GAME.push(s, GAME.sample(s))
    assert len(s.sides[DEF].hand) == hand + 3
    assert not s.pending and "Supply Run" in s.log[-1].text


def test_unique_a_second_copy_discards_the_first():
    echo = {"id": "al-vex-echo", "name": "Commander Vex", "unique": True, "kind": "leader", "types": ["Character"],
            "health": 4, "traits": []}
    cards, deck = cloned_deck("Alien Coalitions", "al-", extra=[echo])
    s = fresh({"cards": cards, "defender_deck": deck})
    deploy(s, DEF)
    first = to_hand(s, DEF, "al-commander-vex")
    second = to_hand(s, DEF, "al-vex-echo")
    GAME.push(s, Play(DEF, first, ""))
    GAME.push(s, Play(DEF, second, ""))
    assert first in s.sides[DEF].discard and second in s.pieces
    assert "only one can be out at a time" in " ".join(e.text for e in s.log[-3:])


# ------------------------------------------------------------------ phase 2: targeting


def board(*specs):
    s = fresh()
    clear_board(s)
    ids = [put(s, seat, card, theater, **tokens) for seat, card, theater, tokens in specs]
    return s, ids


def test_only_the_same_theater():
    s, (a, t) = board((ATT, "nv-marine", "space", {}), (DEF, "ff-militia", None, {}))
    combat(s, ATT)
    assert codes(s, Attack(ATT, a, t)) == ["other-theater"]


def test_fighters_and_capitals():
    s, (f, cap, torp) = board((ATT, "nv-interceptor", None, {}), (DEF, "ff-flak-frigate", None, {}), (DEF, "ff-starhawk", None, {}))
    combat(s, ATT)
    assert codes(s, Attack(ATT, f, cap)) == ["fighter-vs-capital"]
    combat(s, DEF)
    assert codes(s, Attack(DEF, torp, f)) == []                 # Fighter on Fighter
    s2, (d, hawk) = board((ATT, "nv-destroyer", None, {}), (DEF, "ff-starhawk", None, {}))
    combat(s2, ATT)
    assert codes(s2, Attack(ATT, d, hawk)) == ["capital-vs-fighter"]
    combat(s2, DEF)
    assert codes(s2, Attack(DEF, hawk, d)) == []                # Torpedo may attack Capital


def test_capital_and_fighter_cannot_hit_the_base_past_their_kind():
    s, (d, enemy_cap, f, enemy_f) = board((DEF, "ff-flak-frigate", "space", {}), (ATT, "nv-destroyer", None, {}),
                                          (DEF, "ff-starhawk", None, {}), (ATT, "nv-interceptor", None, {}))
    combat(s, DEF)
    base = s.base(ATT).id
    assert "capital-blocked" in codes(s, Attack(DEF, d, base))
    assert "fighter-blocked" in codes(s, Attack(DEF, f, base))


def test_defended_and_defender_and_mark():
    s, (mk, guard, wall) = board((ATT, "nv-marksman", None, {"Mark": 1}), (DEF, "ff-rebel-cell", None, {}), (DEF, "ff-shield-wall", None, {}))
    # Rebel Cell is not Defended: the Shield Wall does not protect it...
    combat(s, ATT)
    assert codes(s, Attack(ATT, mk, guard)) == []
    # ...but it protects the base in its theater.
    assert codes(s, Attack(ATT, mk, s.base(DEF).id)) == ["base-defended"]
    s2, (mk2, hg, bw) = board((DEF, "ff-sniper-team", None, {}), (ATT, "nv-honor-guard", None, {}), (ATT, "nv-bulwark", None, {}))
    combat(s2, DEF)
    assert codes(s2, Attack(DEF, mk2, hg)) == ["defended"]
    assert codes(s2, Attack(DEF, mk2, hg, True)) == ["no-mark"]


def test_mark_spends_a_token_to_ignore_defended():
    s, (sn, hg, bw) = board((DEF, "ff-sniper-team", None, {"Mark": 1}), (ATT, "nv-honor-guard", None, {}), (ATT, "nv-bulwark", None, {}))
    combat(s, DEF)
    GAME.push(s, Attack(DEF, sn, hg, True))
    assert s.pieces[sn].count("Mark") == 0 and hg not in s.pieces       # 3 attack ≥ 3 health


def test_leaders_only_with_a_mark_token():
    s, (mk, kane) = board((DEF, "ff-sniper-team", "planetside", {}), (ATT, "nv-admiral-kane", "space", {}))
    s.pieces[mk].theater = "space"
    combat(s, DEF)
    assert codes(s, Attack(DEF, mk, kane)) == ["leader-needs-mark"]
    s.pieces[mk].tokens["Mark"] = 1
    GAME.push(s, Attack(DEF, mk, kane, True))
    assert s.pieces[kane].count("Damage") == 3


def test_base_damage_may_be_delegated_to_a_leader():
    s, (w, kane) = board((DEF, "ff-flak-frigate", "space", {}), (ATT, "nv-admiral-kane", None, {}))
    combat(s, DEF)
    base = s.base(ATT)
    GAME.push(s, Attack(DEF, w, base.id))                 # 1 attack − Armor 2 = 0: nothing to delegate
    assert not s.pending
    s.pieces[w].tokens.clear()
    combat(s, DEF)
    s.pieces[base.id].tokens["Disruption"] = 1           # Armor still works under Disruption
    GAME.push(s, Attack(DEF, w, base.id))
    assert not s.pending
    s2, (bomber, kane2) = board((DEF, "ff-sniper-team", None, {}), (ATT, "nv-admiral-kane", None, {}))
    s2.pieces[bomber].theater = "space"
    combat(s2, DEF)
    GAME.push(s2, Attack(DEF, bomber, s2.base(ATT).id))  # 3 − Armor 2 (Pierce → 0) = 3
    assert s2.pending[0].kind == "delegate" and GAME.prompt(s2).actors == {ATT}
    assert "bad-amount" in codes(s2, Delegate(ATT, kane2, 4))
    GAME.push(s2, Delegate(ATT, kane2, 2))
    assert s2.pieces[kane2].count("Damage") == 2 and s2.base(ATT).count("Damage") == 1


def test_disruption_leaves_only_removing_it():
    s, (w, t) = board((ATT, "nv-assault-walker", None, {"Disruption": 2}), (DEF, "ff-militia", None, {}))
    combat(s, ATT)
    assert codes(s, Attack(ATT, w, t)) == ["disrupted"]
    GAME.push(s, Clear(ATT, w))
    assert s.pieces[w].count("Disruption") == 1
    assert codes(s, Clear(ATT, w)) == ["no-action"]


def test_change_theaters_only_for_units_of_both():
    s, (m, mil) = board((ATT, "nv-marine", "planetside", {}), (ATT, "nv-conscript", None, {}))
    combat(s, ATT)
    assert codes(s, Move(ATT, mil)) == ["one-theater"]
    GAME.push(s, Move(ATT, m))
    assert s.pieces[m].theater == "space"
    assert codes(s, Move(ATT, m)) == ["no-action"]


def test_units_placed_during_phase_two_do_not_act():
    s, (base_order,) = board((DEF, "ff-militia", None, {}))
    combat(s, DEF)
    base = s.base(DEF).id
    table_text(s, DEF)                                    # a text the table resolves
    new = next(c for c in s.sides[DEF].special_forces if "veteran" in c)
    GAME.push(s, Place(DEF, new, "planetside"))
    GAME.push(s, Done(DEF))
    assert codes(s, Move(DEF, new)) != [] and not GAME.can_act(s, s.pieces[new], True)


def test_bases_only_perform_orders():
    s, (t,) = board((ATT, "nv-conscript", None, {}))
    combat(s, DEF)
    base = s.base(DEF).id
    s.pieces[t].theater = "planetside"
    assert "base-cannot-attack" in codes(s, Attack(DEF, base, t))


def test_repeater_makes_extra_attacks_in_one_action():
    s, (fr, a, b) = board((DEF, "ff-flak-frigate", None, {}), (ATT, "nv-destroyer", None, {}), (ATT, "nv-battle-net", None, {}))
    combat(s, DEF)
    GAME.push(s, Attack(DEF, fr, b))
    assert s.repeat == [fr, "1"]
    GAME.push(s, Attack(DEF, fr, b))                      # the Repeater 1 attack
    assert codes(s, Attack(DEF, fr, b)) == ["no-action"]


def test_command_gives_instructions_once_per_unit_per_turn():
    s, (vex, c1, c2, c3) = board((DEF, "ff-commander-vex", None, {}), (DEF, "ff-rebel-cell", None, {}),
                                 (DEF, "ff-militia", None, {}), (DEF, "ff-militia", None, {}))
    combat(s, DEF)
    base = s.base(DEF).id
    GAME.push(s, Order(DEF, base, vex, 0))                # the base performs Vex's order: Command Trooper: 2
    GAME.push(s, Skip(DEF))                               # its text: no enemy unit Planetside to deal 1 damage to
    assert s.command[:2] == ["Trooper", "2"]
    # A Trooper uses its own action first, then an instruction.
    enemy = put(s, ATT, "nv-bulwark")
    GAME.push(s, Attack(DEF, c1, enemy))
    GAME.push(s, Attack(DEF, c1, enemy))                  # an instruction (Command)
    assert c1 in s.instructed and s.command[1] == "1"
    assert codes(s, Attack(DEF, c1, enemy)) == ["no-action"]   # one instruction per unit per turn


def test_instruct_primitive_is_one_instruction_per_unit_per_turn():
    s, (m,) = board((DEF, "ff-militia", None, {}))
    combat(s, DEF)
    base = s.base(DEF).id
    table_text(s, DEF)
    assert codes(s, Instruct(DEF, m)) == ["one-instruction"]     # still has its own action
    s.ready.remove(m)
    s.changed()
    GAME.push(s, Instruct(DEF, m))
    assert codes(s, Instruct(DEF, m)) == ["one-instruction"]


# ------------------------------------------------------------------ traits on placement


def test_stealth_mark_funds_on_placement():
    s = fresh()
    deploy(s, DEF)
    sn, bm = to_hand(s, DEF, "ff-sniper-team"), to_hand(s, DEF, "ff-black-market")
    s.escalation.level = 1
    GAME.push(s, Play(DEF, sn, "planetside"))
    GAME.push(s, Play(DEF, bm, "planetside"))
    assert s.pieces[sn].tokens == {"Stealth": 1}
    assert s.base(DEF).count("Funds") == 2
    deploy(s, ATT)
    mk = to_hand(s, ATT, "nv-marksman")
    GAME.push(s, Play(ATT, mk, "planetside"))
    assert s.pieces[mk].tokens == {"Mark": 1}


def test_compute_places_on_mainframes_up_to_three():
    s = fresh()
    clear_board(s)
    net = put(s, ATT, "nv-battle-net", Computation=2)
    s.base(ATT).tokens["Computation"] = 3                  # the Orbital Fortress is a Mainframe too: full
    deploy(s, ATT)
    dc = to_hand(s, ATT, "nv-drone-controller")
    GAME.push(s, Play(ATT, dc, "space"))
    assert s.pending[0].kind == "compute" and s.pending[0].left == 2
    assert codes(s, Token(ATT, dc, "Computation", 1)) == ["not-mainframe"]
    GAME.push(s, Token(ATT, net, "Computation", 1))
    assert s.pieces[net].count("Computation") == 3 and not s.pending      # full: nothing more can go
    s.pending.append(Pending("compute", ATT, dc, 1))
    s.changed()
    assert codes(s, Token(ATT, net, "Computation", 1)) == ["mainframe-full"]


def test_backup_moves_computation_when_destroyed():
    s, (n1, n2, killer) = board((ATT, "nv-battle-net", None, {"Computation": 3, "Damage": 3}), (ATT, "nv-battle-net", None, {}),
                                (DEF, "ff-starhawk", None, {}))
    combat(s, DEF)
    GAME.push(s, Attack(DEF, killer, n1))
    assert n1 not in s.pieces and s.pending[0].kind == "backup" and s.pending[0].left == 2
    GAME.push(s, Token(ATT, n2, "Computation", 1))
    GAME.push(s, Skip(ATT))
    assert s.pieces[n2].count("Computation") == 1


def test_transport_places_units_of_its_type():
    s = fresh()
    deploy(s, DEF)
    fr = to_hand(s, DEF, "ff-smuggler-freighter")
    cell, wall = to_hand(s, DEF, "ff-rebel-cell"), to_hand(s, DEF, "ff-shield-wall")
    GAME.push(s, Play(DEF, fr, "planetside"))
    assert s.pending[0].kind == "transport" and s.pending[0].kind_of == "Trooper"
    assert codes(s, Place(DEF, wall, "planetside")) == ["wrong-type"]
    vet = next(c for c in s.sides[DEF].special_forces if "veteran" in c)
    GAME.push(s, Place(DEF, vet, "planetside"))           # from the Special Forces Deck
    assert vet in s.pieces and not s.pending and s.plays == 1


def test_sympathized_places_rallied_units():
    s, (cell, walker) = board((DEF, "ff-rebel-cell", None, {"Damage": 2}), (ATT, "nv-assault-walker", None, {}))
    combat(s, ATT)
    GAME.push(s, Attack(ATT, walker, cell))
    assert s.pending[0].kind == "rally" and GAME.prompt(s).actors == {DEF}
    cell2 = to_hand(s, DEF, "ff-rebel-cell")
    assert codes(s, Place(DEF, cell2, "planetside")) == ["not-rallied"]
    mil = to_hand(s, DEF, "ff-militia")
    GAME.push(s, Place(DEF, mil, "planetside"))
    assert mil in s.pieces and not s.pending and s.active == ATT


# ------------------------------------------------------------------ escalation (5.2.7)


def test_four_incidents_raise_the_level_and_clear():
    s = fresh()
    for i in range(4):
        GAME._incident(s, "test")
    assert (s.escalation.level, s.escalation.incidents) == (1, 0)
    for i in range(30):
        GAME._incident(s, "test")
    assert s.escalation.level == 5 and s.escalation.in_bounds()


# ------------------------------------------------------------------ objectives


def test_primary_objective_base_at_zero_loses():
    s, (sn,) = board((DEF, "ff-sniper-team", "planetside", {}))
    s.pieces[sn].theater = "space"
    base = s.base(ATT)
    base.tokens["Damage"] = 20
    combat(s, DEF)
    GAME.push(s, Attack(DEF, sn, base.id))
    assert s.result.winner == "defender" and "Bob destroyed Ann's base" in s.result.reason


def test_score_four_objective_tokens_wins():
    # The Navy as Defender: Send Distress Signal (score 4).
    s2 = fresh({"attacker_deck": "freedom-fighters", "defender_deck": "first-leaders-navy"})
    clear_board(s2)
    b = put(s2, DEF, "nv-transmitter-beacon")
    combat(s2, DEF)
    table_text(s2, DEF, b)
    assert codes(s2, Score(DEF, b, True)) == ["no-escape"]
    for i in range(4):
        GAME.push(s2, Score(DEF, b))
    assert s2.result.winner == "defender" and "Send Distress Signal" in s2.result.reason
    assert s2.escalation.level == 1                        # each step was an incident


def test_base_evacuation_four_transports_escape():
    s = fresh()
    clear_board(s)
    ts = [put(s, DEF, c, "space") for c in ("ff-evac-transport", "ff-smuggler-freighter", "ff-smuggler-freighter", "ff-smuggler-freighter")]
    shuttle = put(s, DEF, "ff-evac-shuttle", "space")
    combat(s, DEF)
    table_text(s, DEF, shuttle)
    assert codes(s, Score(DEF, shuttle)) == ["no-objective-tokens"]
    mil = put(s, DEF, "ff-militia")
    assert codes(s, Score(DEF, mil, True)) == ["not-escaping"]
    s.pending.clear()
    s.changed()
    # Each Transport uses its own Escape order, as written: "from Space, leave the system".
    for t in ts:
        GAME.push(s, Order(DEF, t, t, 0))
        assert GAME.prompt(s).awaiting.choices == ("score",)
        GAME.push(s, Score(DEF, t, True))
    assert s.result.winner == "defender" and "Base Evacuation" in s.result.reason


def test_viral_computer_takeover():
    cards, deck = cloned_deck("Robot Uprising", "ru-", faction="Machines (test)")
    s = fresh({"cards": cards, "attacker_deck": deck, "defender_deck": "first-leaders-navy"})
    clear_board(s)
    enemy_base = s.base(DEF)
    # The Attacker's base order lets the table place Computation on the enemy base.
    combat(s, ATT)
    own = s.base(ATT).id
    table_text(s, ATT)
    GAME.push(s, Token(ATT, enemy_base.id, "Computation", 9))
    GAME.push(s, Done(ATT))
    # The Defender's units in its base's theater purge it by attacking their own base.
    c = put(s, DEF, "nv-conscript")
    combat(s, DEF)
    GAME.push(s, Attack(DEF, c, enemy_base.id))
    assert enemy_base.count("Computation") == 8 and enemy_base.count("Damage") == 0
    combat(s, ATT)
    table_text(s, ATT)
    GAME.push(s, Token(ATT, enemy_base.id, "Computation", 2))
    GAME.push(s, Done(ATT))
    GAME.push(s, EndPhase(ATT))
    assert s.phase == "end" and s.result is None
    GAME.push(s, EndPhase(ATT))
    assert s.result.winner == "attacker" and "Viral Computer Takeover" in s.result.reason


def test_objective_units_in_phase_three():
    s = fresh()
    s.active, s.phase = DEF, "end"
    s.changed()
    rogue = next(c for c in s.sides[DEF].objectives if "rogue" in c)
    shuttle = next(c for c in s.sides[DEF].objectives if "shuttle" in c)
    assert codes(s, PlaceObjective(DEF, rogue, "planetside")) == ["wrong-role"]
    assert codes(s, PlaceObjective(DEF, shuttle, "space")) == ["not-base-theater"]
    GAME.push(s, PlaceObjective(DEF, shuttle, "planetside"))
    assert s.pieces[shuttle].theater == "planetside"
    assert GAME.prompt(s).awaiting.choices == ("end_phase",)     # one objective unit a turn
    assert "one-objective" in codes(s, PlaceObjective(DEF, s.sides[DEF].objectives[0], "planetside"))


# ------------------------------------------------------------------ primitives


def test_primitives_are_checked_and_logged_with_the_card():
    s, (m, w) = board((DEF, "ff-militia", None, {}), (ATT, "nv-assault-walker", None, {}))
    combat(s, DEF)
    base = s.base(DEF).id
    table_text(s, DEF)
    assert codes(s, Token(DEF, m, "Funds", 1)) == ["wrong-host"]
    assert codes(s, Token(DEF, m, "Computation", 1)) == ["not-mainframe"]
    assert codes(s, Token(DEF, m, "Incident", 1)) == ["bad-token"]
    assert codes(s, Token(DEF, m, "Shield", -1)) == ["too-few-tokens"]
    assert codes(s, Heal(DEF, m, 1)) == ["no-damage"]
    assert codes(s, MoveTheater(DEF, m)) == ["one-theater"]
    assert codes(s, Damage(DEF, m, 0)) == ["bad-amount"]
    GAME.push(s, Token(DEF, m, "Shield", 1))
    assert "applying Hidden Citadel" in s.log[-1].text and "Bob" in s.log[-1].text
    GAME.push(s, Damage(DEF, w, 2))                       # not an attack: Armor does not apply
    assert s.pieces[w].count("Damage") == 2
    GAME.push(s, Heal(DEF, w, 5))
    assert s.pieces[w].count("Damage") == 0
    card = to_hand(s, DEF, "ff-ambush")
    GAME.push(s, Discard(DEF, card))
    assert card in s.sides[DEF].discard
    GAME.push(s, Done(DEF))
    assert not s.pending


def test_rejections_leave_the_state_unchanged_and_name_the_player():
    s = fresh()
    from rules.core import dumps
    before = dumps(s)
    with pytest.raises(IllegalAction) as e:
        GAME.push(s, EndPhase(DEF))
    assert dumps(s) == before
    v = e.value.violations[-1]
    assert v.code == "must-draw" and "Bob" in v.message and v.rule.startswith("5.2.6.1.1")


def test_a_text_cannot_damage_a_leader():
    s, (kane,) = board((ATT, "nv-admiral-kane", None, {}))
    combat(s, DEF)
    base = s.base(DEF).id
    table_text(s, DEF)
    v = GAME.check(s, Damage(DEF, kane, 1))
    assert [x.code for x in v] == ["leader-needs-mark"] and "Bob" in v[0].message


def test_disruption_turns_traits_off_but_armor():
    # A Disrupted Defender no longer protects the Defended unit or the base...
    s, (sn, hg, bw) = board((DEF, "ff-sniper-team", None, {}), (ATT, "nv-honor-guard", None, {}),
                            (ATT, "nv-bulwark", None, {"Disruption": 1}))
    s.pieces[sn].theater = "planetside"
    combat(s, DEF)
    assert codes(s, Attack(DEF, sn, hg)) == []
    # ...while a Disrupted unit's Armor still counts (Assault Walker: Armor 2).
    s2, (c, w) = board((DEF, "ff-rebel-cell", None, {}), (ATT, "nv-assault-walker", None, {"Disruption": 1}))
    combat(s2, DEF)
    assert GAME.preview(s2, Attack(DEF, c, w)).text == "2 attack − Armor 2 = 0"


def test_charge_tokens_are_placed_and_spent_by_text():
    s, (b,) = board((DEF, "ff-militia", None, {}))
    combat(s, DEF)
    base = s.base(DEF).id
    table_text(s, DEF)
    GAME.push(s, Token(DEF, b, "Charge", 2))
    GAME.push(s, Token(DEF, b, "Charge", -1))
    assert s.pieces[b].tokens == {"Charge": 1}
    assert codes(s, Token(DEF, base, "Mark", 1)) == ["wrong-host"]
    GAME.push(s, Token(DEF, base, "Funds", 3))
    assert s.base(DEF).count("Funds") == 3


def test_a_text_may_add_an_incident_and_four_raise_the_level():
    from rules.against_all_tyrants import Incident

    s, (m,) = board((DEF, "ff-militia", None, {}))
    assert codes(s, Incident(DEF)) and s.escalation.incidents == 0  # not outside a text being resolved
    combat(s, DEF)
    base = s.base(DEF).id
    table_text(s, DEF)
    level, before = s.escalation.level, s.escalation.incidents
    GAME.push(s, Incident(DEF))
    assert s.escalation.incidents == (before + 1) % 4 and "applying Hidden Citadel" in s.log[-1].text
    for _ in range(3):
        GAME.push(s, Incident(DEF))
    assert s.escalation.level == level + 1


def test_x_expert_is_said_when_an_x_card_is_played_for_the_table_to_count_it_twice():
    # RULINGS A-25: the book never says what is counted, so the engine names the Expert at
    # the moment it applies (the log, and the prompt of the played card's text).
    drill = {"id": "nv-drill", "name": "Trooper Drill", "faction": "Dominion (example)", "subfaction": "First Leader's Navy",
             "kind": "effect", "types": ["Trooper"], "effect": "Deal 1 damage for each Trooper you control."}
    cards = {"format": "against-all-tyrants/cards@1", "name": "Test", "cards": [drill]}
    s = fresh({"cards": cards})
    clear_board(s)
    officer = put(s, ATT, "nv-tactical-officer")
    deploy(s, ATT)
    conscript = to_hand(s, ATT, "nv-conscript")
    GAME.push(s, Play(ATT, conscript, "planetside"))
    assert "Trooper Expert" in s.log[-1].text and "Tactical Officer twice" in s.log[-1].text and "A-25" in s.log[-1].text
    inst = "A:nv-drill#1"  # a card of the table's own set, put in hand for the test
    s.sides[ATT].hand.add(inst)
    s.changed()
    GAME.push(s, Play(ATT, inst, ""))
    assert "count Tactical Officer twice" in str(GAME.prompt(s))
    assert GAME.view(s, ATT)["pending"]["expert"].startswith("Trooper Expert")
    s.pieces[officer].add("Disruption", 1)  # a Disrupted Expert's trait does not work (5.2.8.4)
    GAME.push(s, Done(ATT))
    deploy(s, ATT)
    other = to_hand(s, ATT, "nv-conscript")
    GAME.push(s, Play(ATT, other, "planetside"))
    assert "Expert" not in s.log[-1].text


# ------------------------------------------------------------------ audit additions (issue 19)

# Every token of the book's table (5.2.8.4, plus Mark and Objective) on each kind of host, by
# the `token` primitive while a text is resolved: accepted, or refused with the rule's code.
TOKEN_HOSTS = {
    #              unit              leader           base
    "Charge":      ([],              [],              []),
    "Computation": (["not-mainframe"], ["wrong-host"], ["not-mainframe"]),   # Hidden Citadel: no Mainframe
    "Damage":      (["bad-token"],   ["bad-token"],   ["bad-token"]),        # the `damage` primitive deals it
    "Escalation":  (["bad-token"],   ["bad-token"],   ["bad-token"]),        # on the scale, never on a card
    "Funds":       (["wrong-host"],  ["wrong-host"],  []),                   # "stored on your base"
    "Incident":    (["bad-token"],   ["bad-token"],   ["bad-token"]),        # the `incident` primitive
    "Shield":      ([],              [],              []),
    "Stealth":     ([],              [],              ["wrong-host"]),
    "Disruption":  ([],              [],              []),
    "Mark":        ([],              ["wrong-host"],  ["wrong-host"]),       # spent by the attacking unit
    "Objective":   ([],              ["wrong-host"],  []),
}


@pytest.mark.parametrize("token", sorted(TOKEN_HOSTS))
def test_every_token_of_the_table_goes_only_where_it_may(token):
    s, (m, vex) = board((DEF, "ff-militia", None, {}), (DEF, "ff-commander-vex", None, {}))
    combat(s, DEF)
    base = s.base(DEF).id
    table_text(s, DEF)
    got = tuple(codes(s, Token(DEF, x, token, 1)) for x in (m, vex, base))
    assert got == TOKEN_HOSTS[token]
    for host, ok in zip((m, vex, base), got):
        if not ok:
            before = s.pieces[host].count(token)
            GAME.push(s, Token(DEF, host, token, 1))
            assert s.pieces[host].count(token) == before + 1


def test_a_bomber_fighter_may_attack_a_capital_ship():
    bomber_wing = {"id": "ff-bomber-wing", "name": "Bomber Wing", "kind": "unit", "types": ["Ship"],
                   "theaters": ["space"], "attack": 2, "health": 2, "traits": ["Fighter", "Bomber 1"]}
    cards, deck = cloned_deck("Freedom Fighters", "fx-", faction="Rebels (test)", extra=[dict(bomber_wing, id="fx-bomber-wing")])
    s = fresh({"cards": cards, "defender_deck": deck})
    clear_board(s)
    wing, f, dest = put(s, DEF, "fx-bomber-wing"), put(s, DEF, "fx-starhawk"), put(s, ATT, "nv-destroyer")
    s.pieces[f].tokens.clear()
    combat(s, DEF)
    assert codes(s, Attack(DEF, wing, dest)) == []             # Bomber: "May attack Capital ships"
    # In space the Bomber adds nothing: "When attacking planetside units, deal X extra damage".
    assert GAME.preview(s, Attack(DEF, wing, dest)).text == "2 attack − Armor 1 = 1 (1 of 6 health)"
    GAME.push(s, Attack(DEF, wing, dest))
    assert s.pieces[dest].count("Damage") == 1


@pytest.mark.parametrize("sub, role, card, name", [
    ("Freedom Fighters", ATT, "ff-rogue-transport", "Supply Raid"),
    ("Robot Uprising", DEF, "ru-evac-shuttle", "Summon the Singularity"),
])
def test_the_other_score_objectives_win_on_the_fourth_token(sub, role, card, name):
    if sub == "Freedom Fighters":
        s = fresh({"attacker_deck": "freedom-fighters", "defender_deck": "first-leaders-navy"})
    else:
        cards, deck = cloned_deck(sub, "ru-", faction="Machines (test)")
        s = fresh({"cards": cards, "defender_deck": deck})
    clear_board(s)
    u = put(s, role, card, s.base(role).theater)
    combat(s, role)
    table_text(s, role, u)
    assert codes(s, Score(role, u, True)) == ["no-escape"]
    level = s.escalation.level
    for i in range(3):
        GAME.push(s, Score(role, u))
    assert s.result is None
    GAME.push(s, Score(role, u))
    assert s.result.winner == ("attacker" if role == ATT else "defender") and name in s.result.reason
    assert s.escalation.level == level + 1                    # each step was an incident (5.2.7)


def test_crack_the_planet_is_the_base_destroyed_and_names_the_planet_cracker():
    for with_cracker in (True, False):
        s = fresh({"attacker_deck": "first-leaders-navy", "defender_deck": "freedom-fighters"})
        clear_board(s)
        if with_cracker:
            put(s, ATT, "nv-finality-planet-cracker", "space")
        w = put(s, ATT, "nv-assault-walker")
        base = s.base(DEF)
        base.tokens["Damage"] = s.card(base.id).health - 1
        s.changed()
        assert GAME.view(s, PUBLIC)["sides"][ATT]["objective"]["name"] == "Crack the Planet"
        combat(s, ATT)
        GAME.push(s, Attack(ATT, w, base.id))
        assert s.result.winner == "attacker" and "destroyed" in s.result.reason
        # The reason names Crack the Planet only when the Finality Planet Cracker is in play.
        assert ("(Crack the Planet)" in s.result.reason) == with_cracker


def test_draw_place_and_move_theater_by_a_text_are_checked_and_name_the_card():
    s, (g,) = board((DEF, "ff-gunship", "planetside", {}))
    combat(s, DEF)
    base = s.base(DEF).id
    table_text(s, DEF)                                        # a text the table resolves, on Hidden Citadel
    hand = len(s.sides[DEF].hand.cards)
    top = s.sides[DEF].deck.cards[-1]
    GAME.push(s, Draw(DEF, f"deck-{DEF}", top))
    assert len(s.sides[DEF].hand.cards) == hand + 1 and top in s.sides[DEF].hand.cards
    public = [e.text for e in s.log if e.to is None]
    assert "Bob draws a card (Hidden Citadel)." in public
    assert not any(s.card(top).title in t for t in public[-1:])  # the drawn card is Bob's alone
    vet = next(c for c in s.sides[DEF].special_forces if "veteran" in c)
    assert codes(s, Place(DEF, vet, "space")) == ["wrong-theater"]   # Veteran Squad: Planetside only
    GAME.push(s, Place(DEF, vet, "planetside"))
    assert s.pieces[vet].theater == "planetside" and "(Hidden Citadel)" in s.log[-1].text
    assert codes(s, MoveTheater(DEF, vet)) == ["one-theater"]
    GAME.push(s, MoveTheater(DEF, g))                        # Gunship: Space and Planetside
    assert s.pieces[g].theater == "space"
    assert s.log[-1].text == "Bob, applying Hidden Citadel: Gunship moves to Space."


def test_phase_one_never_offers_to_play_zero_more_cards():
    # 5.2.6.2: up to two cards a turn. Once both are played (or the hand is empty) the
    # prompt offers only the phase's end, and says so; it read "play up to 0 more card(s)"
    # (issue 32, item 12).
    s = fresh()
    GAME.push(s, GAME.sample(s))
    deploy(s, DEF)
    a, b = to_hand(s, DEF, "ff-militia"), to_hand(s, DEF, "ff-militia")
    assert GAME.prompt(s).awaiting.note.startswith("phase 1: play up to 2 more cards")
    GAME.push(s, Play(DEF, a, "planetside"))
    assert GAME.prompt(s).awaiting.note.startswith("phase 1: play up to 1 more card ")
    GAME.push(s, Play(DEF, b, "planetside"))
    note = GAME.prompt(s).awaiting.note
    assert GAME.prompt(s).awaiting.choices == ("end_phase",)
    assert "0 more" not in note and "play up to" not in note and "2 cards played" in note
    deploy(s, DEF)
    s.sides[DEF].hand.cards.clear()
    s.changed()
    note = GAME.prompt(s).awaiting.note
    assert "play up to" not in note and "no card in hand" in note
