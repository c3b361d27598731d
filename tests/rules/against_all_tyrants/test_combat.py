"""Combat arithmetic, exact (5.2.6.2.1, 5.2.8.2, 5.2.8.4), as pure functions and in play:
Armor, Pierce, Shield, Stealth, destruction, Bomber, Torpedo, Point-Defense."""
from __future__ import annotations

import pytest

from rules.against_all_tyrants import GAME, Attack, Side, combat_preview, damage_preview

from .helpers import ATT, DEF, clear_board, cloned_deck, combat, fresh, put


@pytest.mark.parametrize("attacker,target,damage,text", [
    (Side(3), Side(health=4), 3, "3 attack (3 of 4 health)"),
    (Side(3, traits={"Pierce": 1}), Side(health=4, traits={"Armor": 2}, tokens={"Shield": 1}), 1,
     "3 attack − Armor 2 (Pierce 1 → Armor 1) = 2; 1 absorbed by a Shield → 1 damage (1 of 4 health)"),
    (Side(3, traits={"Pierce": None}), Side(health=9, traits={"Armor": 5}), 3, "3 attack − Armor 5 (Pierce → Armor 0) = 3 (3 of 9 health)"),
    (Side(2), Side(health=9, traits={"Armor": 5}), 0, "2 attack − Armor 5 = 0"),
    (Side(3, traits={"Pierce": 4}), Side(health=9, traits={"Armor": 2}), 3, "3 attack − Armor 2 (Pierce 4 → Armor 0) = 3 (3 of 9 health)"),
    (Side(4), Side(health=9, tokens={"Shield": 5}), 0, "4 attack; 4 absorbed by 4 Shields → 0 damage"),
    (Side(4), Side(health=9, tokens={"Stealth": 1, "Shield": 2}), 0, "4 attack; a Stealth token negates it → 0 damage (the token is removed)"),
    (Side(3), Side(health=3, tokens={"Damage": 1}), 3, "3 attack (4 of 3 health: destroyed)"),
    (Side(2, traits={"Bomber": 1}), Side(health=9, theater="planetside"), 3, "2 attack + Bomber 1 (3 of 9 health)"),
    (Side(2, traits={"Bomber": 1}), Side(health=9, theater="space"), 2, "2 attack (2 of 9 health)"),
    (Side(2, traits={"Torpedo": 2}), Side(health=9, traits={"Capital": None, "Armor": 1}), 3, "2 attack + Torpedo 2 − Armor 1 = 3 (3 of 9 health)"),
    (Side(5, traits={"Point-Defense": 2}), Side(health=9, traits={"Fighter": None}), 2, "2 Point-Defense damage (instead of 5 attack) (2 of 9 health)"),
])
def test_the_arithmetic_step_by_step(attacker, target, damage, text):
    hit = combat_preview(attacker, target)
    assert hit.damage == damage
    assert hit.text == text


def test_damage_that_is_not_an_attack_ignores_armor():
    hit = damage_preview(Side(health=5, traits={"Armor": 3}, tokens={"Shield": 1}), 2, "Point-Defense")
    assert hit.damage == 1 and hit.text.startswith("2 damage (Point-Defense); 1 absorbed by a Shield")


def test_stealth_is_spent_and_shields_are_used_in_play():
    s = fresh()
    clear_board(s)
    a = put(s, ATT, "nv-assault-walker")
    t = put(s, DEF, "ff-shield-wall", Shield=2, Stealth=1)
    combat(s, ATT)
    GAME.push(s, Attack(ATT, a, t))
    assert s.pieces[t].tokens == {"Shield": 2}          # Stealth negated the whole instance
    combat(s, ATT)
    GAME.push(s, Attack(ATT, a, t))                       # 3 − Armor 1 = 2, both absorbed
    assert s.pieces[t].tokens == {}
    combat(s, ATT)
    GAME.push(s, Attack(ATT, a, t))
    assert s.pieces[t].tokens == {"Damage": 2}
    assert "3 attack − Armor 1 = 2 (2 of 5 health)" in s.log[-1].text and "Ann" in s.log[-1].text


def test_damage_at_health_destroys_and_adds_an_incident():
    s = fresh()
    clear_board(s)
    a = put(s, ATT, "nv-assault-walker")
    t = put(s, DEF, "ff-militia")
    combat(s, ATT)
    GAME.push(s, Attack(ATT, a, t))
    assert t not in s.pieces and t in s.sides[DEF].discard
    assert (s.escalation.level, s.escalation.incidents) == (0, 1)


def test_a_fighter_may_not_attack_a_capital_point_defense_ship():
    s = fresh()
    clear_board(s)
    f = put(s, ATT, "nv-interceptor")
    pd = put(s, DEF, "ff-flak-frigate")
    combat(s, ATT)
    assert [v.code for v in GAME.check(s, Attack(ATT, f, pd))] == ["fighter-vs-capital"]


def test_point_defense_answers_a_fighter_after_the_attack():
    turret = {"id": "al-pd-turret", "name": "PD Turret", "kind": "unit", "types": ["Emplacement"],
              "theaters": ["space"], "attack": 0, "health": 6, "traits": ["Point-Defense 2"]}
    cards, deck = cloned_deck("Alien Coalitions", "al-", extra=[turret])
    s = fresh({"cards": cards, "defender_deck": deck})
    clear_board(s)
    f = put(s, ATT, "nv-interceptor", Shield=1)
    pd = put(s, DEF, "al-pd-turret")
    combat(s, ATT)
    GAME.push(s, Attack(ATT, f, pd))
    assert s.pieces[pd].count("Damage") == 2
    # 2 damage back: 1 absorbed by the Shield, 1 destroys the 1-health Interceptor.
    assert f not in s.pieces
    assert "Point-Defense answers Interceptor: 2 damage (Point-Defense); 1 absorbed by a Shield" in " ".join(e.text for e in s.log[-4:])


def test_point_defense_attacks_a_fighter_with_x():
    s = fresh()
    clear_board(s)
    f = put(s, ATT, "nv-interceptor")
    pd = put(s, DEF, "ff-flak-frigate")
    combat(s, DEF)
    # The frigate (Capital with Point-Defense) attacks the Fighter with X = 2 instead of its attack.
    GAME.push(s, Attack(DEF, pd, f))
    assert f not in s.pieces                               # 2 damage ≥ 1 health
    assert "2 Point-Defense damage (instead of 1 attack)" in " ".join(e.text for e in s.log[-3:])


def test_preview_matches_what_the_attack_does():
    s = fresh()
    clear_board(s)
    a = put(s, ATT, "nv-marksman")
    t = put(s, DEF, "ff-veteran-squad", Shield=1)
    combat(s, ATT)
    hit = GAME.preview(s, Attack(ATT, a, t))
    assert hit.text == "2 attack − Armor 1 (Pierce 1 → Armor 0) = 2; 1 absorbed by a Shield → 1 damage (1 of 3 health)"
    GAME.push(s, Attack(ATT, a, t))
    assert s.pieces[t].tokens == {"Damage": 1}


def test_preview_text_shows_the_point_defense_reply():
    turret = {"id": "al-pd-turret", "name": "PD Turret", "kind": "unit", "types": ["Emplacement"],
              "theaters": ["space"], "attack": 0, "health": 6, "traits": ["Point-Defense 2"]}
    cards, deck = cloned_deck("Alien Coalitions", "al-", extra=[turret])
    s = fresh({"cards": cards, "defender_deck": deck})
    clear_board(s)
    f = put(s, ATT, "nv-interceptor")
    pd = put(s, DEF, "al-pd-turret")
    combat(s, ATT)
    text = GAME.preview_text(s, Attack(ATT, f, pd))
    assert text == ("Interceptor → PD Turret: 2 attack (2 of 6 health); "
                    "then PD Turret's Point-Defense: 2 damage (Point-Defense) (2 of 1 health: destroyed)")
    assert list(s.pieces) and s.pieces[pd].tokens == {}        # a preview changes nothing
