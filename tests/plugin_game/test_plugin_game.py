"""A game plug-in end to end without a window: found through its entry point, listed by
the wizard's model, refereed (the random-playout harness), played and resumed through the
journal, joined in progress with its own form, shown on a phone page, exported; and no file
outside this folder knows it."""
from __future__ import annotations

import ast
import json
import subprocess
from pathlib import Path

import pytest

import rules
from companion import Journal, Table
from companion.export import parse_bgstats_link
from companion.positions import PositionRefused, check_position
from companion.ui.presenters.position_form import PositionForm
from companion.ui.presenters.setup import SetupModel
from companion.ui.registry import game_screens
from companion.web.seatview import seat_payload
from rules.core import Roll
from rules.core.harness import run_harness

from .engine import GAME, Gather, Leap

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SEATS = [{"id": "fox-1", "faction": "fox", "name": "Ann"}, {"id": "hare-1", "faction": "hare", "name": "Bob"}]


def test_it_is_found_through_its_entry_point_and_listed_like_a_built_in_game():
    card = rules.plugin("stepping_stones")
    assert card.engine == "tests.plugin_game:GAME" and rules.load("stepping_stones") is GAME
    assert (card.title, card.min_seats, card.max_seats, card.factions) == (GAME.title, GAME.min_seats, GAME.max_seats, GAME.factions)
    assert ("stepping_stones", "Stepping Stones") in SetupModel.games()
    assert game_screens()["stepping_stones"].target == "tests.plugin_game.screen:StonesScreen"
    assert card.bgstats["bggId"] is None  # says nothing of BG Stats: matched by name


def test_the_referee_holds_for_it():
    # Random games with illegal actions mixed in; the harness raises on any broken
    # invariant (a rejected action that changed the state, a replay that differs…).
    report = run_harness(GAME, games=40, seed=3)
    assert report.finished == 40 and report.rejected > 0 and set(report.winners) == {"fox", "hare"}


def _play(table: Table, *moves: tuple[int, str]) -> None:
    for face, choice in moves:
        seat = table.prompt.actors and sorted(table.prompt.actors)[0]
        table.submit(Roll(seat, (face,)))
        table.submit(Leap(seat) if choice == "leap" else Gather(seat))


def test_played_resumed_after_a_restart_and_exported(tmp_path):
    path = tmp_path / "journal.sqlite3"
    table = Table.create(Journal.open(str(path)), game_id="stepping_stones", seats=SEATS, seed=9)
    _play(table, (5, "leap"), (1, "gather"))
    key, state = table.key, table.view()
    table.close()

    again = Table.resume(Journal.open(str(path)), key)  # a new journal connection: a restart
    assert again.view() == state and again.ply == 4
    _play(again, (6, "leap"), (6, "leap"), (4, "leap"))  # Ann: the Mill → the Well → the Tower
    assert again.outcome is not None and again.outcome.winning_seats == ("fox-1",)

    data = json.loads(again.export_json())
    assert data["game"]["id"] == "stepping_stones" and data["game"]["title"] == "Stepping Stones"
    assert [a["kind"] for a in data["actions"][:2]] == ["roll", "leap"]
    csv = again.export_csv()
    assert "pebbles:hare-1" in csv.splitlines()[0]
    play = parse_bgstats_link(again.bgstats_link())
    assert play["game"]["name"] == "Stepping Stones" and "bggId" not in play["game"] and not play["game"]["noPoints"]
    assert [(p["name"], p["winner"]) for p in play["players"]] == [("Ann", True), ("Bob", False)]


def test_joined_in_progress_with_its_own_form_and_names():
    wizard = SetupModel.for_game("stepping_stones")
    assert wizard.can_join()
    form = PositionForm("stepping_stones", SEATS, {})
    assert [f.label for f in form.fields if f.path.startswith("stones.")] == ["Ann stands on", "Bob stands on"]
    assert [n for _, n in form.choices(form.field("stones.fox-1"))][-1] == "the Well"
    form.set("stones.fox-1", "tower")
    assert form.public_problems()["stones.fox-1"] == ["no stone 'the Tower' before the Tower (one standing on the Tower has won)."]
    form.set("stones.fox-1", "oak")
    form.set("seat", "hare-1")
    assert form.ok and form.summary() == ["Whose turn starts now: Bob", "Ann stands on: the Old Oak"]
    table = Table.create(Journal.open(":memory:"), game_id="stepping_stones", seats=SEATS, seed=2, position=form.to_position())
    assert table.view()["stones"] == {"fox-1": "oak", "hare-1": "ford"} and table.prompt.actors == {"hare-1"}
    bad = dict(form.to_position(), stones={"fox-1": "moon", "hare-1": "ford"})
    assert [p.message for p in check_position("stepping_stones", SEATS, {}, bad, form.labels)] == [
        "Ann stands on: no stone 'moon' before the Tower (one standing on the Tower has won)."]
    with pytest.raises(PositionRefused):
        Table.create(Journal.open(":memory:"), game_id="stepping_stones", seats=SEATS, seed=2, position=bad)


def test_shown_on_a_phone_page():
    from tests.companion.web.helpers import path, run

    table = Table.create(Journal.open(":memory:"), game_id="stepping_stones", seats=SEATS, seed=4)
    table.submit(Roll("fox-1", (3,)))
    mine = seat_payload(table, "fox-1")
    assert mine["title"] == "Stepping Stones" and mine["must"]["now"]
    assert {a["kind"] for a in mine["actions"]} == {"leap", "gather"}
    assert mine["names"] == {"ford": "the Ford"}  # the names of what the page shows
    assert not seat_payload(table, "hare-1")["must"]["now"]

    async def body(client, server):
        page = await client.get(path(server.url_for("fox-1")))
        assert page.status == 200
        state = await (await client.get(path(server.url_for("fox-1")) + "/state")).json()
        assert state["name"] == "Ann" and state["view"]["rolled"] == 3

    run(body, table)


# The docstring examples of shared code play Stepping Stones (they are documentation: they
# show the API without a built-in game's rules); these runners install it for them.
DOCS_RUNNERS = {"tests/test_doctests.py", "tests/companion/test_table_doctests.py"}
WORDS = (b"stepping_stones", b"Stepping Stones", b"plugin_game")


def _without_docstrings(path: Path) -> bytes:
    """A Python file's text with its docstrings blanked (lines kept, so nothing else moves)."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    for node in ast.walk(ast.parse(text, str(path))):
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            for i in range(body[0].lineno - 1, body[0].end_lineno or body[0].lineno):
                lines[i] = "\n"
    return "".join(lines).encode("utf-8")


def _knows_it(path: Path) -> bool:
    data = _without_docstrings(path) if path.suffix == ".py" else path.read_bytes()
    return any(w in data for w in WORDS)


def test_no_file_outside_its_folder_knows_it():
    # Code and data, that is: the docs (and docstrings) may point to it as the example of a plug-in.
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    outside = [f for f in tracked if not f.startswith("tests/plugin_game/") and not f.endswith(".md") and f not in DOCS_RUNNERS]
    knowing = [f for f in outside if (ROOT / f).is_file() and _knows_it(ROOT / f)]
    assert knowing == []


def test_the_scan_sees_it_in_code_but_not_in_a_docstring(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text('"""Example.\n\n>>> load("stepping_stones").id\n\'stepping_stones\'\n"""\nX = 1\n', encoding="utf-8")
    assert not _knows_it(probe)
    probe.write_text('"""Example."""\nGAME = "stepping_stones"\n', encoding="utf-8")
    assert _knows_it(probe)
