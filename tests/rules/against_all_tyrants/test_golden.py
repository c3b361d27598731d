"""A golden game with the example decks: every draw entered as the physical card, every
action scripted, and the expected board worked out by hand from the rulebook at each
checkpoint (comments give the arithmetic)."""
from __future__ import annotations

from rules.core import PUBLIC, Draw, IllegalAction
from rules.against_all_tyrants import GAME, Attack, EndPhase, Infiltrate, Mulligan, Place, Play

from .helpers import ATT, DEF, SEATS


def draw(s, seat, card):
    GAME.push(s, Draw(seat, f"deck-{seat}", card))


def tokens(s, piece):
    return s.pieces[piece].tokens if piece in s.pieces else None


def test_golden_opening_two_turns():
    s = GAME.new(SEATS, {}, 11)
    # 5.2.5.2: five cards each, the Defender (Bob) first, the physical cards entered.
    for c in ("D:ff-rebel-cell#1", "D:ff-militia#1", "D:ff-sniper-team#1", "D:ff-shield-wall#1", "D:ff-black-market#1"):
        draw(s, DEF, c)
    for c in ("A:nv-marksman#1", "A:nv-conscript#1", "A:nv-assault-walker#1", "A:nv-interceptor#1", "A:nv-bulwark#1"):
        draw(s, ATT, c)
    GAME.push(s, Mulligan(DEF, ()))
    GAME.push(s, Mulligan(ATT, ("A:nv-bulwark#1",)))
    draw(s, ATT, "A:nv-honor-guard#1")
    assert "A:nv-bulwark#1" in s.sides[ATT].deck.cards and len(s.sides[ATT].deck) == 25
    # Infiltrate: the Infiltrator and Spec Ops (Planetside only) deploy with a Stealth
    # token each; the Scout Skiff (both theaters) asks Bob.
    assert tokens(s, "D:ff-infiltrator#1") == {"Stealth": 1} and tokens(s, "A:nv-spec-ops#1") == {"Stealth": 1}
    GAME.push(s, Infiltrate(DEF, "D:ff-scout-skiff#1", "space"))
    assert (s.turn, s.active, s.phase) == (1, DEF, "draw")

    # Turn 1, Bob (Defender).
    draw(s, DEF, "D:ff-rebel-cell#2")
    GAME.push(s, Play(DEF, "D:ff-rebel-cell#1", "planetside"))
    GAME.push(s, Play(DEF, "D:ff-black-market#1", "planetside"))        # Funds 2 on the base
    assert s.base(DEF).tokens == {"Funds": 2}
    GAME.push(s, EndPhase(DEF))
    # Infiltrator (2) on Spec Ops: its Stealth token negates the attack.
    GAME.push(s, Attack(DEF, "D:ff-infiltrator#1", "A:nv-spec-ops#1"))
    assert tokens(s, "A:nv-spec-ops#1") == {}
    # Rebel Cell (2) on Spec Ops (health 3): 2 Damage tokens.
    GAME.push(s, Attack(DEF, "D:ff-rebel-cell#1", "A:nv-spec-ops#1"))
    assert tokens(s, "A:nv-spec-ops#1") == {"Damage": 2}
    GAME.push(s, EndPhase(DEF))
    GAME.push(s, EndPhase(DEF))

    # Turn 2, Ann (Attacker).
    assert (s.turn, s.active) == (2, ATT)
    draw(s, ATT, "A:nv-conscript#2")
    try:
        GAME.push(s, Play(ATT, "A:nv-assault-walker#1", "planetside"))   # escalation 1 > 0
        raise AssertionError("the walker needs escalation 1")
    except IllegalAction as e:
        assert e.codes == ("escalation-too-low",) and "Ann" in str(e)
    GAME.push(s, Play(ATT, "A:nv-marksman#1", "planetside"))             # Mark 1
    GAME.push(s, Play(ATT, "A:nv-conscript#1", "planetside"))
    assert tokens(s, "A:nv-marksman#1") == {"Mark": 1}
    GAME.push(s, EndPhase(ATT))
    # Spec Ops (3) destroys the Rebel Cell (health 3): an Incident; Sympathized 1 lets Bob
    # place a Rallied unit from hand at once.
    GAME.push(s, Attack(ATT, "A:nv-spec-ops#1", "D:ff-rebel-cell#1"))
    assert "D:ff-rebel-cell#1" in s.sides[DEF].discard
    assert (s.escalation.level, s.escalation.incidents) == (0, 1)
    assert GAME.prompt(s).actors == {DEF}
    GAME.push(s, Place(DEF, "D:ff-militia#1", "planetside"))
    # Marksman (2, Pierce 1) on the Infiltrator: its Stealth token negates it.
    GAME.push(s, Attack(ATT, "A:nv-marksman#1", "D:ff-infiltrator#1"))
    assert tokens(s, "D:ff-infiltrator#1") == {}
    # Conscript (1) on the Infiltrator (health 2): 1 Damage token.
    GAME.push(s, Attack(ATT, "A:nv-conscript#1", "D:ff-infiltrator#1"))
    assert tokens(s, "D:ff-infiltrator#1") == {"Damage": 1}
    GAME.push(s, EndPhase(ATT))
    GAME.push(s, EndPhase(ATT))

    assert (s.turn, s.active, s.phase) == (3, DEF, "draw")
    view = GAME.view(s, PUBLIC)
    assert view["sides"][DEF]["hand"] == {"count": 3}       # 5 + 1 − 2 played − 1 Militia placed
    assert view["sides"][ATT]["hand"] == {"count": 4}       # 5 + 1 − 2 played
    assert sorted(p["name"] for p in view["pieces"] if p["owner"] == DEF) == [
        "Black Market", "Hidden Citadel", "Infiltrator", "Militia", "Scout Skiff"]
    assert view["escalation"] == {"level": 0, "incidents": 1, "max": 5}
    assert list(GAME.problems(s)) == []
    # The position at this turn start round-trips.
    p = GAME.position(s)
    assert GAME.position(GAME.new(SEATS, {}, 5, position=p)) == p


def test_golden_distress_signal_from_a_position():
    """The Navy defends (Send Distress Signal, 5.1.2.3.2): a game joined at turn 9 with three
    Objective tokens scored; the Transmitter Beacon transmits the fourth."""
    options = {"attacker_deck": "freedom-fighters", "defender_deck": "first-leaders-navy"}
    base = GAME.position(_start(options))
    p = dict(base, turn=9, active=DEF, escalation={"level": 1, "incidents": 2})
    p["pieces"] = [q for q in base["pieces"] if q["id"] in ("A:ff-rebel-carrier#1", "D:nv-garrison-citadel#1")] + [
        {"id": "D:nv-transmitter-beacon#1", "owner": DEF, "theater": "planetside", "tokens": {"Charge": 2, "Objective": 3}},
        {"id": "A:ff-sniper-team#1", "owner": ATT, "theater": "planetside", "tokens": {}},
    ]
    sides = {s: dict(v) for s, v in base["sides"].items()}
    sides[DEF].update(objectives=["D:nv-transmitter-beacon#2", "D:nv-finality-planet-cracker#1"], scored=3, discard=[],
                      deck=25, hand=5, special_forces=4)   # 30 main cards, none out yet
    sides[ATT].update(discard=[], deck=24, hand=5, special_forces=4)   # the Sniper Team is out
    p["sides"] = sides
    p["pieces"] += [{"id": "D:nv-spec-ops#1", "owner": DEF, "theater": "planetside", "tokens": {}},
                    {"id": "A:ff-infiltrator#1", "owner": ATT, "theater": "planetside", "tokens": {}}]
    s = GAME.new(SEATS, options, 3, position=p)
    assert GAME.position(s) == p
    draw(s, DEF, s.sides[DEF].deck.cards[3])
    GAME.push(s, EndPhase(DEF))
    # Phase 2: the Beacon performs its second order, "Transmit": the table applies it.
    from rules.against_all_tyrants import Order, Score, Token
    GAME.push(s, Order(DEF, "D:nv-transmitter-beacon#1", "D:nv-transmitter-beacon#1", 1))
    GAME.push(s, Token(DEF, "D:nv-transmitter-beacon#1", "Charge", -2))
    assert "applying Transmitter Beacon" in s.log[-1].text
    GAME.push(s, Score(DEF, "D:nv-transmitter-beacon#1"))
    # The fourth Objective token: an Incident (2 + 1 = 3 of 4) and the win.
    assert (s.escalation.level, s.escalation.incidents) == (1, 3)
    assert s.result.winner == "defender" and s.result.winning_seats == (DEF,)
    assert s.result.reason == "Bob completed Send Distress Signal (5.1.2.3.2)"


def _start(options):
    s = GAME.new(SEATS, options, 2)
    while s.phase in ("deal", "mulligan", "redraw", "infiltrate"):
        GAME.push(s, Mulligan(s.active, ()) if s.phase == "mulligan" else (GAME.sample(s) or next(iter(GAME.legal_actions(s)))))
    return s
