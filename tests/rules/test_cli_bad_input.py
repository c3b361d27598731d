"""Bad input to the command-line referee: every case ends in one line on stderr and a
non-zero exit, never a traceback (issue 15).

Each case is run through ``main()`` with the real ``sys.stdout``/``sys.stderr`` captured
(as the console script runs it); a few also run as ``python -m rules`` subprocesses, so the
real entry point is covered too.
"""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.__main__ import main
from tests.json_mutations import mutated

GOOD_TYRANNY: dict[str, Any] = {
    "game": "tyranny",
    "seats": [{"id": "cops-1", "faction": "cops", "name": ""}, {"id": "criminals-2", "faction": "criminals", "name": ""}],
    "options": {},
    "seed": 0,
    "actions": [
        {"$": "core.roll", "seat": "cops-1", "source": "app", "values": [2]},
        {"$": "tyranny.move", "seat": "cops-1", "source": "touch", "tile": "o-gamble-1"},
    ],
}
GOOD_LIBERATION: dict[str, Any] = {
    "game": "liberation",
    "seats": [{"id": "dynasty-1", "faction": "dynasty"}, {"id": "liberation-2", "faction": "liberation"}],
    "options": {},
    "seed": 0,
    "actions": [{"$": "core.draw", "seat": "dynasty-1", "source": "app", "deck": "city", "card": "city-e"}],
}
DEEP = 100_000  # "a file of 10^5 nested lists"


def tyranny(**changes: Any) -> str:
    data = json.loads(json.dumps(GOOD_TYRANNY))
    for k, v in changes.items():
        if v is DROP:
            del data[k]
        else:
            data[k] = v
    return json.dumps(data)


def action(**fields: Any) -> str:
    """The good tyranny file with its first action changed."""
    data = json.loads(json.dumps(GOOD_TYRANNY))
    for k, v in fields.items():
        if v is DROP:
            del data["actions"][0][k]
        else:
            data["actions"][0][k] = v
    return json.dumps(data)


DROP = object()

# (case id, file content: str, bytes, None for "no such file", or DIR; words stderr must hold)
DIR = object()
REPLAY_CASES: list[tuple[str, Any, tuple[str, ...]]] = [
    ("missing-file", None, ("no-such.json", "no such file")),
    ("directory", DIR, ("game-dir", "directory")),
    ("not-json", "{not json", ("not JSON",)),
    ("empty-file", "", ("empty",)),
    ("blank-file", "  \n\n", ("empty",)),
    ("not-utf8", b"\xff\xfe{\x00}", ("UTF-8",)),
    ("a-list", "[]", ("JSON object",)),
    ("a-string", '"tyranny"', ("JSON object",)),
    ("null-file", "null", ("JSON object",)),
    ("no-game", tyranny(game=DROP), ("'game'",)),
    ("no-seats", tyranny(seats=DROP), ("'seats'",)),
    ("no-actions", tyranny(actions=DROP), ("'actions'",)),
    ("unknown-key", tyranny(sede=3), ("'sede'",)),
    ("null-actions", tyranny(actions=None), ("actions", "list")),
    ("dict-actions", tyranny(actions={}), ("actions", "list")),
    ("null-game", tyranny(game=None), ("game", "text")),
    ("int-game", tyranny(game=5), ("game", "text")),
    ("unknown-game", tyranny(game="chess"), ("chess",)),
    ("seats-string", tyranny(seats="cops-1"), ("seats", "list")),
    ("seat-int", tyranny(seats=[5, 6]), ("seats[0]",)),
    ("seat-no-faction", tyranny(seats=[{"id": "a"}, {"id": "b", "faction": "cops"}]), ("seats[0].faction",)),
    ("seat-id-int", tyranny(seats=[{"id": 1, "faction": "cops"}, {"id": 2, "faction": "criminals"}]), ("seats[0].id",)),
    ("seat-name-null", tyranny(seats=[{"id": "a", "faction": "cops", "name": None}]), ("seats[0].name",)),
    ("seed-string", tyranny(seed="7"), ("seed", "whole number")),
    ("seed-float", tyranny(seed=1.5), ("seed", "whole number")),
    ("seed-bool", tyranny(seed=True), ("seed", "whole number")),
    ("seed-null", tyranny(seed=None), ("seed", "whole number")),
    ("seed-huge", tyranny(seed=10**30), ("seed",)),
    ("seed-negative", tyranny(seed=-1), ("seed",)),
    ("seed-nan", tyranny(seed=DROP)[:-1] + ', "seed": NaN}', ("NaN", "not a number JSON allows")),
    ("number-too-long", tyranny(seed=DROP)[:-1] + ', "seed": ' + "9" * 5000 + "}", ("digits",)),
    ("options-list", tyranny(options=[]), ("options", "object")),
    ("options-null", tyranny(options=None), ("options", "object")),
    ("unknown-option", tyranny(options={"nope": 1}), ("nope",)),
    ("option-wrong-type", tyranny(options={"move": 5}), ("move",)),
    ("board-int", tyranny(options={"board": 5}), ("board",)),
    ("board-null-tiers", tyranny(options={"board": {"tiers": None}}), ("board", "tiers")),
    ("board-bad-row", tyranny(options={"board": {"tiers": {"a": [None, 5], "b": "x"}}}), ("tiers.a[0]",)),
    ("map-list", json.dumps({**GOOD_LIBERATION, "options": {"map": []}}), ("map",)),
    ("map-bad-cities", json.dumps({**GOOD_LIBERATION, "options": {"map": {"cities": 5, "lines": None}}}), ("cities",)),
    ("missions-bad", json.dumps({**GOOD_LIBERATION, "options": {"missions": {"categories": {"shipyard": []}}}}), ("missions",)),
    ("action-int", tyranny(actions=[5]), ("actions[0]", "object")),
    ("action-null", tyranny(actions=[None]), ("actions[0]", "object")),
    ("action-list", tyranny(actions=[[1, 2]]), ("actions[0]", "object")),
    ("action-no-tag", action(**{"$": DROP}), ("actions[0]", "'$'")),
    ("action-unknown-tag", action(**{"$": "tyranny.fly"}), ("actions[0]", "tyranny.fly")),
    ("action-int-tag", action(**{"$": 7}), ("actions[0]", "'$'")),
    ("action-not-an-action", action(**{"$": "core.Rng"}), ("actions[0]", "core.Rng")),
    ("action-other-game", action(**{"$": "liberation.evade", "to": "city-a"}), ("actions[0]", "liberation.evade")),
    ("action-no-seat", action(seat=DROP), ("actions[0].seat",)),
    ("action-seat-int", action(seat=5), ("actions[0].seat", "text")),
    ("action-seat-null", action(seat=None), ("actions[0].seat",)),
    ("action-source-int", action(source=3), ("actions[0].source",)),
    ("action-unknown-field", action(colour="red"), ("actions[0].colour",)),
    ("roll-values-string", action(values="abc"), ("actions[0].values", "list")),
    ("roll-values-null", action(values=None), ("actions[0].values",)),
    ("roll-value-float", action(values=[1.5]), ("actions[0].values[0]", "whole number")),
    ("roll-value-bool", action(values=[True]), ("actions[0].values[0]", "whole number")),
    ("roll-value-nested", action(values=[[1]]), ("actions[0].values[0]",)),
    ("roll-value-huge", action(values=[10**30]), ("actions[0].values[0]",)),
    ("move-tile-int", json.dumps({**GOOD_TYRANNY, "actions": [GOOD_TYRANNY["actions"][0], {"$": "tyranny.move", "seat": "cops-1", "tile": 3}]}), ("actions[1].tile", "text")),
    ("pick-index-string", action(**{"$": "tyranny.pick", "target": "criminals-2", "index": "0"}, values=DROP), ("actions[0].index", "whole number")),
    ("pick-index-huge", action(**{"$": "tyranny.pick", "target": "criminals-2", "index": 10**30}, values=DROP), ("actions[0].index",)),
    ("claim-occupy-string", json.dumps({**GOOD_LIBERATION, "actions": [{"$": "liberation.claim", "seat": "dynasty-1", "occupy": "yes"}]}), ("actions[0].occupy", "true or false")),
    ("ask-cities-string", json.dumps({**GOOD_LIBERATION, "actions": [{"$": "liberation.ask", "seat": "dynasty-1", "cities": "city-a"}]}), ("actions[0].cities", "list")),
    ("deep-file", "[" * DEEP + "]" * DEEP, ("deep",)),
    ("deep-action", action(values=json.loads("[" * 400 + "]" * 400)), ("deep",)),
    ("deep-option", tyranny(options={"board": json.loads("[" * 400 + "]" * 400)}), ("deep",)),
]


def run_main(argv: list[str], capsys: pytest.CaptureFixture[str], stdin: str = "") -> tuple[int, str, str]:
    try:
        rc = main(argv, io.StringIO(stdin))
    except SystemExit as e:  # argparse's own exits
        rc = e.code if isinstance(e.code, int) else 1
    out, err = capsys.readouterr()
    return rc, out, err


def assert_one_line(rc: int, err: str, words: tuple[str, ...], folder: Path | None = None) -> None:
    assert rc != 0
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, lines
    assert "internal error" not in err  # a case the CLI checks, not the last-resort handler
    # pytest names the test's folder after the case: the words must be in the message itself
    said = err.replace(str(folder), "<tmp>") if folder else err
    for w in words:
        assert w.lower() in said.lower(), (w, said)


def write_case(tmp_path: Path, content: Any) -> Path:
    if content is None:
        return tmp_path / "no-such.json"
    if content is DIR:
        (tmp_path / "game-dir").mkdir()
        return tmp_path / "game-dir"
    p = tmp_path / "game.json"
    if isinstance(content, bytes):
        p.write_bytes(content)
    else:
        p.write_text(content, encoding="utf-8")
    return p


@pytest.mark.parametrize("content,words", [c[1:] for c in REPLAY_CASES], ids=[c[0] for c in REPLAY_CASES])
def test_replay_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: Any, words: tuple[str, ...]) -> None:
    path = write_case(tmp_path, content)
    rc, _, err = run_main(["replay", str(path)], capsys)
    assert_one_line(rc, err, words, tmp_path)


def test_the_good_files_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for data in (GOOD_TYRANNY, GOOD_LIBERATION):
        p = tmp_path / "good.json"
        p.write_text(json.dumps(data))
        rc, out, err = run_main(["replay", str(p)], capsys)
        assert (rc, err) == (0, "") and f"replayed {len(data['actions'])} actions" in out


# (case id, argv with {tmp} for the test's folder, words stderr must hold)
ARGV_CASES: list[tuple[str, list[str], tuple[str, ...]]] = [
    ("no-command", [], ("command",)),
    ("unknown-command", ["fly"], ("fly",)),
    ("play-no-game", ["play"], ("game",)),
    ("play-unknown-game", ["play", "chess"], ("chess",)),
    ("play-seed-float", ["play", "tyranny", "--seed", "1.5"], ("--seed", "1.5")),
    ("play-seed-huge", ["play", "tyranny", "--seed", str(10**30)], ("--seed",)),
    ("play-seed-too-many-digits", ["play", "tyranny", "--seed", "9" * 5000], ("--seed",)),
    ("play-bad-seat", ["play", "tyranny", "--seat", "nofaction"], ("--seat", "ID:FACTION")),
    ("play-unknown-faction", ["play", "tyranny", "--seat", "a:pirates", "--seat", "b:cops"], ("pirates",)),
    ("play-bad-option", ["play", "tyranny", "--option", "novalue"], ("--option", "KEY=VALUE")),
    ("play-unknown-option", ["play", "tyranny", "--option", "nope=1"], ("nope",)),
    ("play-board-int", ["play", "tyranny", "--option", "board=5"], ("board",)),
    ("play-board-null-tiers", ["play", "tyranny", "--option", 'board={"tiers": null}'], ("tiers",)),
    ("play-map-list", ["play", "liberation", "--option", "map=[1]"], ("map",)),
    ("play-save-missing-folder", ["play", "tyranny", "--save", "{tmp}/missing/game.json"], ("missing", "folder")),
    ("play-save-into-directory", ["play", "tyranny", "--save", "{tmp}"], ("folder",)),
    ("replay-no-file", ["replay"], ("file",)),
]


@pytest.mark.parametrize("argv,words", [c[1:] for c in ARGV_CASES], ids=[c[0] for c in ARGV_CASES])
def test_bad_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], words: tuple[str, ...]) -> None:
    rc, _, err = run_main([a.replace("{tmp}", str(tmp_path)) for a in argv], capsys, "quit\n")
    assert_one_line(rc, err, words, tmp_path)


# Mistakes typed during play are answered with one line and the game goes on.
SESSION_CASES: list[tuple[str, str, tuple[str, ...]]] = [
    ("json-not-json", "json {nope", ("could not read that",)),
    ("json-empty", "json", ("could not read that",)),
    ("json-list", "json []", ("could not read that", "object")),
    ("json-int", "json 5", ("could not read that", "object")),
    ("json-unknown-tag", 'json {"$": "tyranny.fly", "seat": "cops-1"}', ("could not read that", "tyranny.fly")),
    ("json-roll-values-string", 'json {"$": "core.roll", "seat": "cops-1", "values": "abc"}', ("could not read that", "values")),
    ("json-roll-value-float", 'json {"$": "core.roll", "seat": "cops-1", "values": [2.5]}', ("could not read that", "values[0]")),
    ("json-seat-int", 'json {"$": "core.roll", "seat": 5, "values": [2]}', ("could not read that", "seat")),
    ("json-move-tile-list", 'json {"$": "tyranny.move", "seat": "cops-1", "tile": ["a"]}', ("could not read that", "tile")),
    ("json-deep", "json " + "[" * DEEP + "]" * DEEP, ("could not read that", "deep")),
    ("json-too-many-digits", 'json {"$": "core.roll", "seat": "cops-1", "values": [' + "9" * 5000 + "]}", ("could not read that", "digits")),
    ("roll-float", "roll 1.5", ("could not read that",)),
    ("roll-too-many-digits", "roll " + "9" * 5000, ("could not read that",)),
    ("roll-huge", "roll " + "9" * 40, ("REJECTED",)),
    ("number-huge", "9" * 40, ("no action",)),
    ("save-missing-folder", "save {tmp}/missing/game.json", ("could not save", "missing")),
    ("save-no-name", "save", ("could not save",)),
    ("save-into-directory", "save {tmp}", ("could not save",)),
    ("view-unknown-seat", "view nobody", ("no seat", "nobody")),
]


@pytest.mark.parametrize("line,words", [c[1:] for c in SESSION_CASES], ids=[c[0] for c in SESSION_CASES])
def test_bad_input_during_play(tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, words: tuple[str, ...]) -> None:
    line = line.replace("{tmp}", str(tmp_path))
    rc, out, err = run_main(["play", "tyranny"], capsys, f"{line}\nauto\n")
    assert rc == 0 and err == "" and "Traceback" not in out
    after = out.split(f"> ", 2)[2] if out.count("> ") >= 2 else ""
    answer = out.split("> ", 1)[1].split("\n", 1)[0].replace(str(tmp_path), "<tmp>")
    for w in words:
        assert w.lower() in answer.lower(), (w, answer)
    assert "ok: cops-1 roll" in after  # the game went on: 'auto' rolled for the next line


SUBPROCESS_CASES = ["missing-file", "not-json", "deep-file", "roll-value-float"]


@pytest.mark.parametrize("case", SUBPROCESS_CASES)
def test_python_m_rules_answers_in_one_line(tmp_path: Path, case: str) -> None:
    content, words = next(c[1:] for c in REPLAY_CASES if c[0] == case)
    path = write_case(tmp_path, content)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.run(
        [sys.executable, "-m", "rules", "replay", str(path)], capture_output=True, text=True, env=env, timeout=120
    )
    assert_one_line(proc.returncode, proc.stderr, words, tmp_path)
    assert proc.stdout == ""


@given(st.sampled_from([GOOD_TYRANNY, GOOD_LIBERATION]).flatmap(mutated))
def test_altered_game_files_replay_or_end_in_one_line(data: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        try:
            path.write_text(json.dumps(data), encoding="utf-8")
        except (ValueError, RecursionError):  # nested too deep for json.dumps itself
            path.write_text("[" * DEEP + "]" * DEEP, encoding="utf-8")
        out, err = io.StringIO(), io.StringIO()
        rc = main(["replay", str(path), "--quiet"], io.StringIO(), out, err)
    assert rc in (0, 1, 2), err.getvalue()
    if rc == 2:
        assert len(err.getvalue().splitlines()) == 1 and "internal error" not in err.getvalue()
    else:
        assert err.getvalue() == ""
