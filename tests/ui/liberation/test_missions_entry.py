"""The missions table entered by the table, without a window (issue 32, item 10): the
page's model pre-filled with the table in use, entering a card's words, cost and referee
question, the rules' refusals in players' words, saving once for every later game, a
broken saved file, the box's defaults, and the mission moment showing the words entered."""
from __future__ import annotations

import doctest
import json

import pytest

from companion.errors import CompanionError
from companion.ui.games.liberation import missions_entry as missions_entry_module
from companion.ui.games.liberation.missions_entry import (COST_WORDS, FILE, MissionsEntry, MissionsEntryError, QUESTION_WORDS,
                                                          load_saved, missions_folder)
from companion.ui.games.liberation.presenter import LiberationPresenter
from rules.liberation import GAME, Mission, Pass, default_missions, parse_missions
from rules.liberation.mapdata import CATEGORIES
from rules.liberation.missions import COSTS, QUESTION_KINDS, default_missions_data

from .test_presenter import _choose, _deal

# Made-up words standing for a printed card's (the rulebook prints no mission text, L-10).
PROBE_WORDS = "Name a City: the referee says whether the base is within 2 steps of it."


def test_doctests():
    assert doctest.testmod(missions_entry_module).failed == 0


def test_the_page_offers_every_cost_and_question_the_rules_know_in_players_words():
    assert set(COST_WORDS) == set(COSTS)
    assert set(QUESTION_WORDS) - {""} == set(QUESTION_KINDS)
    words = " ".join(COST_WORDS.values()) + " ".join(QUESTION_WORDS.values())
    assert not any(i in words for i in ("base-", "hand-among", "exploit'", "discard'")), words


def test_the_page_starts_from_the_box_and_lists_each_category_and_side(tmp_path):
    e = MissionsEntry.load(tmp_path)
    rows = e.rows()
    assert [(r.category, r.side) for r in rows] == [(c, s) for c in CATEGORIES for s in ("liberation", "dynasty")]
    box = default_missions()
    for r in rows:
        m = box.mission(r.category, r.side)
        assert (r.name, r.cost, r.text) == (m.name, m.cost, m.text)
        assert r.question == (m.question.kind if m.question else "")
    probe = e.row("research-station", "dynasty")
    assert (probe.question, probe.number) == ("base-within", "2")
    assert e.problems() == [] and parse_missions(e.option()) == box


def test_entering_a_cards_words_cost_and_question_saves_once_for_every_later_game(tmp_path):
    e = MissionsEntry.load(tmp_path)
    e.set_text("research-station", "dynasty", "  " + PROBE_WORDS + "\n")
    e.set_cost("research-station", "dynasty", "discard")
    e.set_question("shipyard", "dynasty", "base-among", "4")
    e.set_question("political-center", "dynasty", "")
    path = e.save()
    assert path == missions_folder(tmp_path) / FILE
    data, why = load_saved(tmp_path)
    assert why == ""
    table = parse_missions(data)
    probe = table.mission("research-station", "dynasty")
    assert (probe.text, probe.cost, probe.question.max_steps) == (PROBE_WORDS, "discard", 2)
    assert table.mission("shipyard", "dynasty").question.max_cities == 4
    assert table.mission("political-center", "dynasty").question is None
    # A later game's page starts from the saved table.
    again = MissionsEntry.load(tmp_path)
    assert again.row("research-station", "dynasty").text == PROBE_WORDS
    assert again.row("shipyard", "dynasty").number == "4"
    # And a game started with it plays by it: the rules accept the saved file as the option.
    s = GAME.new([{"id": "dyn", "faction": "dynasty"}, {"id": "lib", "faction": "liberation"}], {"missions": data}, seed=3)
    assert s.missions.mission("research-station", "dynasty") == probe


@pytest.mark.parametrize("change, words", [
    (lambda e: e.set_cost("shipyard", "liberation", "exploit"),
     "Shipyard — the Liberation’s Mobilize Base: the Liberation never occupies a city, so its missions cannot cost “exploit a City”."),
    (lambda e: e.set_question("underworld", "liberation", "base-within", "1"),
     "Underworld — the Liberation’s Recruit Spy: the Liberation knows its own base; only Dynasty missions ask about it."),
    (lambda e: e.set_number("research-station", "dynasty", "14"),
     "Research Station — the Dynasty’s Deep-Space Probe: The number of steps must be a whole number from 1 to 13."),
    (lambda e: e.set_number("underworld", "dynasty", "three"),
     "Underworld — the Dynasty’s Recruit Spy: The number of Cities must be a whole number from 1 to 13."),
    (lambda e: e.set_text("shipyard", "dynasty", "word " * 81),
     "Shipyard — the Dynasty’s Launch Fleet: the card’s words can be at most 400 characters long."),
])
def test_a_bad_entry_is_refused_in_players_words_and_nothing_is_saved(tmp_path, change, words):
    e = MissionsEntry.load(tmp_path)
    e.set_text("research-station", "dynasty", PROBE_WORDS)
    e.save()
    before = (missions_folder(tmp_path) / FILE).read_bytes()
    change(e)
    assert e.problems() == [words]
    with pytest.raises(MissionsEntryError) as err:
        e.save()
    assert isinstance(err.value, CompanionError) and err.value.problems == [words]
    assert (missions_folder(tmp_path) / FILE).read_bytes() == before  # the saved table is kept
    # No field name, id or data path reaches the players.
    assert not any(i in words for i in ("categories.", "max_", "'", "dynasty,", "liberation,"))


def test_back_to_the_boxs_defaults(tmp_path):
    e = MissionsEntry.load(tmp_path)
    e.set_text("research-station", "dynasty", PROBE_WORDS)
    e.set_cost("shipyard", "liberation", "exploit")  # even a refused entry is reset
    e.save() if not e.problems() else None
    e.back_to_the_box()
    assert e.problems() == [] and parse_missions(e.option()) == default_missions()
    e.save()
    data, _ = load_saved(tmp_path)
    assert parse_missions(data) == default_missions()


def test_a_saved_table_that_cannot_be_read_is_named_and_left_as_it_is(tmp_path):
    path = missions_folder(tmp_path) / FILE
    path.parent.mkdir(parents=True)
    broken = json.dumps({"categories": {"shipyard": {}}})
    path.write_text(broken, encoding="utf-8")
    data, why = load_saved(tmp_path)
    assert data is None and why.startswith("Your saved missions (missions.json) cannot be read (damaged, or edited by hand)")
    assert MissionsEntry.load(tmp_path).problems() == []  # the page starts from the box
    assert path.read_text(encoding="utf-8") == broken


def test_the_mission_moment_shows_the_words_and_the_cost_the_table_entered(new_table, tmp_path):
    e = MissionsEntry.load(tmp_path)
    e.set_text("research-station", "dynasty", PROBE_WORDS)
    e.set_cost("research-station", "dynasty", "discard")
    options = {"missions": e.option()}
    for seed in range(1, 80):
        t = new_table(seed=seed, options=options)
        p = LiberationPresenter(t)
        _deal(t, p)
        dyn = t.private_view("dyn")["hands"]["dyn"]["cards"]
        probes = [c for c in dyn if GAME.map_of(t.state).category_of(c) == "research-station"]
        if probes and len(dyn) == 3:
            break
    probe = probes[0]
    _choose(t, p, "dyn", "first-city", lambda c: c.action.card != probe)
    _choose(t, p, "lib", "base")
    t.submit(Pass("dyn"))
    _choose(t, p, "dyn", "mission", lambda c: isinstance(c.action, Mission) and c.action.card == probe)
    m = p.mission_result()
    assert m.title == "★ Deep-Space Probe"
    assert m.lines[0] == f"The table carries out the card's effect: “{PROBE_WORDS}”"
    # The cost the table entered, paid and said once; the card paid goes face down, unnamed.
    assert "paying 1 card discarded face down" in m.lines[1] and m.lines[1].count("face down") == 1, m.lines[1]


def test_the_page_starts_from_the_table_in_use_and_from_the_saved_one_when_that_cannot_be_shown(tmp_path):
    e = MissionsEntry.load(tmp_path)
    e.set_text("shipyard", "dynasty", "Move a fleet.")
    e.save()
    in_use = default_missions_data()
    in_use["categories"]["underworld"]["dynasty"]["text"] = "Ask about three Cities."
    assert MissionsEntry.load(tmp_path, in_use).row("underworld", "dynasty").text == "Ask about three Cities."
    broken = {"categories": {"shipyard": {}}}
    assert MissionsEntry.load(tmp_path, broken).row("shipyard", "dynasty").text == "Move a fleet."
