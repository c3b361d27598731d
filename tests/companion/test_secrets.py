"""Secrets on a shared screen: the desk asks seat by seat, keeps choices hidden until all
have chosen, reveals together; no hidden value reaches a public view, the public log, an
error message or an export of an unfinished game (both engines and the secret duel)."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from companion import Journal, NotYourSecret, Table
from rules.core import PUBLIC, IllegalAction, Rng
from rules.core.harness import strings_in

from tests.rules.core.minigames import Pick

from .table_helpers import GAMES, new_table, play, publicly_named, seats_for


def duel(seed=1):
    return Table.create(Journal.open(":memory:"), game_id="mini-duel", seats=seats_for("mini-duel"), seed=seed)


def leaks(t: Table, hidden: set[str]) -> list[str]:
    """Hidden values found in what the shared screen or an export may show: any string of
    the public view, the desk's public state, or an export's actions and tracked values
    (the options, e.g. a map everyone has in front of them, are setup), and any line the
    Table writes itself (undone actions) or CSV cell containing one. The engine's own log
    lines are checked as the rules harness checks views (whole strings): they may name a
    card that was shown then and has since gone back into the deck."""
    export = json.loads(t.export_json())
    values = set(strings_in([t.view(PUBLIC), t.secrets.public(), export["actions"], export["tracked"], export["outcome"]]))
    lines = t.log(PUBLIC)
    values |= {line.text for line in lines}
    texts = [line.text for line in lines if line.undone] + [t.export_csv()]
    return sorted(h for h in hidden if h in values or any(h in x for x in texts))


def public_text(t: Table) -> str:
    """Everything the shared screen or an export of the game may show, as one string."""
    parts = [json.dumps(t.view(PUBLIC)), json.dumps(t.secrets.public())]
    parts += [line.text for line in t.log(PUBLIC)]
    parts.append(t.export_json())
    parts.append(t.export_csv())
    return "\n".join(parts)


def test_seat_by_seat_then_revealed_together():
    t = duel()
    st0 = t.secrets.status()
    assert st0.seats == ("red-1", "blue-2") and st0.pending == st0.seats and st0.next_seat == "red-1"
    gate = t.secrets.behind_gate("red-1")
    assert [c.choice for c in gate["choices"]] == ["one", "two", "three"] and gate["view"]["viewer"] == "red-1"
    t.secrets.commit("red-1", Pick("red-1", "three"))
    st1 = t.secrets.status()
    assert st1.committed == ("red-1",) and st1.next_seat == "blue-2"
    text = public_text(t)
    assert "three" not in text and t.secrets.revealed is None
    assert "three" in json.dumps(t.private_view("red-1"))
    with pytest.raises(NotYourSecret):
        t.secrets.commit("red-1", Pick("red-1", "one"))
    with pytest.raises(NotYourSecret):
        t.secrets.behind_gate("red-1")
    t.secrets.commit("blue-2", Pick("blue-2", "one"))
    # both revealed together: the log says who showed what, the history has the choices
    assert t.ply == 2 and t.view()["history"] == [{"red-1": 3, "blue-2": 1}]
    assert any("three" in l.text and "one" in l.text for l in t.log())
    assert [r.data["choice"] for r in t.history()] == ["three", "one"]


def test_refused_choice_message_does_not_repeat_it():
    t = duel()
    with pytest.raises(IllegalAction) as e:
        t.secrets.commit("red-1", Pick("red-1", "zebra-secret"))
    assert "zebra-secret" not in str(e.value) and e.value.action is None
    assert all("zebra-secret" not in v.message for v in e.value.violations)
    assert t.ply == 0


def test_desk_is_closed_when_no_secret_is_awaited():
    t = new_table(Journal.open(":memory:"), "tyranny")
    assert not t.secrets.is_open and t.secrets.status() is None and t.secrets.public() == {"open": False}
    with pytest.raises(NotYourSecret):
        t.secrets.commit("cops-1", Pick("cops-1", "x"))


def test_a_seat_button_chooses_who_goes_next():
    from firmware_bridge.events import ButtonPressed

    from companion.routing import check_mapping

    mapping = check_mapping({"game": "mini-duel", "buttons": {"*/seat-1": {"does": "seat", "seat": 1}}}, "mini-duel")
    t = Table.create(Journal.open(":memory:"), game_id="mini-duel", seats=seats_for("mini-duel"), seed=1, mapping=mapping)
    t.route(ButtonPressed(device="gpio", button="seat-1", t=0.0))
    assert t.secrets.status().next_seat == "blue-2"


@settings(max_examples=10)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 5000), steps=st.integers(1, 80))
def test_no_hidden_value_in_public_outputs(game, seed, steps):
    t = new_table(Journal.open(":memory:"), game, seed=seed)
    rng = Rng(seed)
    for step in range(steps):
        if t.outcome is not None:
            break
        play(t, rng, 1, undo_rate=4)
        hidden = t.hidden(PUBLIC) - publicly_named(t)
        if t.outcome is None and hidden and (step % 3 == 0 or step == steps - 1):
            leaked = leaks(t, hidden)
            assert not leaked, f"hidden values in public output at ply {t.ply}: {leaked}"
            assert json.loads(t.export_json())["seed"] is None
        # refusals shown on the shared screen carry no secret either
        bad = next((a for a in _wrong_seat_actions(t)), None)
        if bad is not None and t.outcome is None:
            with pytest.raises(IllegalAction) as e:
                t.submit(bad)
            assert not any(h in str(e.value) for h in hidden)


def _public_outputs(t: Table):
    export = json.loads(t.export_json())
    return (t.view(PUBLIC), t.secrets.public(), [(l.ply, l.text, l.seat, l.undone) for l in t.log(PUBLIC)],
            [(a["ply"], a["seat"], a["kind"], a["data"], a["undone"]) for a in export["actions"]],
            export["tracked"], t.export_csv())


@settings(max_examples=20)
@given(seed=st.integers(0, 5000), picks=st.lists(st.sampled_from(["one", "two", "three"]), min_size=1, max_size=15),
       other=st.sampled_from(["one", "two", "three"]))
def test_a_pending_choice_changes_no_public_output(seed, picks, other):
    """Two tables that differ only in the pending secret choice look the same in public."""
    if len(picks) % 2 == 0:
        picks = picks[:-1]  # end on a pending choice (one of two seats has chosen)
    tables = [duel(seed), duel(seed)]
    for i, p in enumerate(picks):
        last = i == len(picks) - 1
        for n, t in enumerate(tables):
            if t.outcome is not None:
                return
            seat = t.secrets.status().next_seat
            t.secrets.commit(seat, Pick(seat, other if (last and n == 1) else p))
    a, b = (_public_outputs(t) for t in tables)
    assert a == b
    assert tables[0].private_view(tables[0]._line[-1].seat) != tables[1].private_view(tables[1]._line[-1].seat) or picks[-1] == other


def _wrong_seat_actions(t):
    actors = t.prompt.actors
    for a in t.legal_actions():
        for s in t.seats:
            if s["id"] not in actors:
                import dataclasses

                yield dataclasses.replace(a, seat=s["id"])
        return
