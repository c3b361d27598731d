"""Views, secrets, private logs, the end-of-game audit, tracked values and undo barriers."""
from __future__ import annotations

import json

from rules.core import PUBLIC, Draw, dumps
from rules.liberation import GAME, Attack, Claim, Discard, Evade, FirstCity, Occupy, Pass, PlaceBase, Sabotage

from .helpers import D, L, c, hand, public_text, start
from .test_turns import pass_turn


def log_texts(state, viewer):
    return [e["text"] for e in GAME.view(state, viewer)["log"]]


def test_each_view_shows_only_its_own_secrets():
    s = start()       # Dynasty holds b d; Liberation holds e g; base f
    pub, dyn, lib = (GAME.view(s, v) for v in (PUBLIC, D, L))
    assert pub["hands"] == {D: {"count": 2}, L: {"count": 2}} and pub["base"] == {"placed": True}
    assert dyn["hands"][D]["cards"] == [c("b"), c("d")] and "cards" not in dyn["hands"][L] and "city" not in dyn["base"]
    assert lib["hands"][L]["cards"] == [c("e"), c("g")] and "cards" not in lib["hands"][D] and lib["base"]["city"] == c("f")
    for text in (json.dumps(pub), json.dumps(dyn)):
        assert c("f") not in text and "City F" not in text
    assert c("b") not in json.dumps(lib) and c("e") not in json.dumps(dyn)
    assert pub["occupied"] == [{"city": c("a"), "exploited": False}] and pub["act"] == 1 and pub["deck"] == 7


def test_secrets_are_the_strings_that_would_leak():
    s = start()
    pub = GAME.secrets(s, PUBLIC)
    assert {c("f"), "City F (Shipyard)", c("e"), c("b")} <= pub and c("a") not in pub  # a is occupied
    assert c("f") not in GAME.secrets(s, L) and c("e") not in GAME.secrets(s, L) and c("b") in GAME.secrets(s, L)
    assert c("f") in GAME.secrets(s, D) and c("b") not in GAME.secrets(s, D)
    assert c("n") in GAME.secrets(s, D)              # the face-down setup discard


def test_a_city_named_in_public_is_not_a_secret_string_any_more():
    s = start()
    GAME.push(s, Pass(D))
    GAME.push(s, Attack(D, c("a"), c("b")))          # names b, which the Dynasty holds
    assert c("b") not in GAME.secrets(s, PUBLIC) and c("b") in public_text(s)


def test_evading_looks_the_same_whichever_city_is_chosen():
    s = start()
    pass_turn(s)
    GAME.push(s, Pass(L))
    outcomes = []
    for to in GAME.evade_options(s):                 # e, f (stay), g
        t = GAME.apply(s, Evade(L, to))
        outcomes.append((GAME.view(t, PUBLIC), GAME.view(t, D)))
        assert t.base == to
    assert len(outcomes) == 3 and all(o == outcomes[0] for o in outcomes)


def test_private_log_lines_reach_only_their_seat():
    s = start()
    assert "Your secret base is City F (Shipyard)." in log_texts(s, L)
    assert not any("City F" in t for t in log_texts(s, PUBLIC) + log_texts(s, D))
    assert "You draw City B (Weapons Factory)." in log_texts(s, D)
    assert not any("City B" in t for t in log_texts(s, L) + log_texts(s, PUBLIC))
    pass_turn(s)
    GAME.push(s, Pass(L))
    GAME.push(s, Evade(L, c("g")))
    assert "Your base moves from City F (Shipyard) to City G (Political Center)." in log_texts(s, L)
    assert log_texts(s, PUBLIC)[-1] == log_texts(s, D)[-1] == "The Liberation evades: its base is returned to hand and put down again, face down."


def test_audit_only_when_the_game_is_over():
    s = start()
    pass_turn(s)
    GAME.push(s, Pass(L))
    GAME.push(s, Evade(L, c("g")))                   # f -> g
    GAME.push(s, Pass(D))
    assert GAME.audit(s) is None and "audit" not in GAME.view(s, PUBLIC)
    GAME.push(s, Occupy(D, c("a"), c("b")))
    GAME.push(s, Pass(L))
    GAME.push(s, Evade(L, c("g")))                   # stays at g
    GAME.push(s, Pass(D))
    GAME.push(s, Attack(D, c("b"), c("e")))          # takes e
    GAME.push(s, Claim(D, occupy=True))
    GAME.push(s, Pass(L))
    GAME.push(s, Pass(L))
    GAME.push(s, Pass(D))
    GAME.push(s, Attack(D, c("e"), c("g")))          # e–g: the base
    assert GAME.outcome(s).winner == "dynasty"
    audit = GAME.view(s, PUBLIC)["audit"]
    assert [(x["from"], x["to"], x["legal"]) for x in audit["base_history"]] == [
        ("", c("f"), True), (c("f"), c("g"), True), (c("g"), c("g"), True)]
    assert [x["turn"] for x in audit["base_history"]] == [0, 2, 4] and audit["base"] == c("g")
    assert GAME.view(s, PUBLIC)["base"]["city"] == c("g") and "cards" in GAME.view(s, PUBLIC)["hands"][L]
    assert GAME.secrets(s, PUBLIC) == set()
    assert GAME.outcome(s).scores["dynasty"].total == 1 and GAME.outcome(s).scores["dynasty"].breakdown["evades"] == 2


def test_tracked_values_are_public_counts():
    s = start()
    GAME.push(s, GAME.sample(s))
    t = GAME.tracked(s)
    assert t == {"act": 1, "turn": 1, "deck": 6, "discard": 1, "dynasty_hand": 3, "liberation_hand": 2, "occupied": 1, "exploited": 0}


def test_undo_barriers():
    s = start()
    assert GAME.undo_barrier(s, Draw(D, "city", c("c"))) == "a card was drawn"
    assert GAME.undo_barrier(s, Attack(D, c("a"), c("b")))
    assert GAME.undo_barrier(s, Occupy(D, c("a"), c("b")))
    assert GAME.undo_barrier(s, Sabotage(L, c("b")))
    assert GAME.undo_barrier(s, FirstCity(D, c("a")))
    assert GAME.undo_barrier(s, Pass(D)) is None
    assert GAME.undo_barrier(s, Evade(L, c("e"))) is None      # secret, not revealed
    assert GAME.undo_barrier(s, PlaceBase(L, c("e"))) is None
    assert GAME.undo_barrier(s, Discard(D, c("b"))) is None


def test_state_and_views_round_trip_through_json():
    s = start()
    pass_turn(s)
    GAME.push(s, Pass(L))
    GAME.push(s, Evade(L, c("e")))
    back = GAME.state_from_data(json.loads(json.dumps(GAME.state_to_data(s))))
    assert back == s and dumps(back) == dumps(s) and back.map is s.map
    for v in (PUBLIC, D, L):
        assert json.loads(json.dumps(GAME.view(s, v))) == GAME.view(s, v)
