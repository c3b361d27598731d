from __future__ import annotations

import io
import json

import pytest

from rules import registry
from rules.__main__ import main



@pytest.fixture(autouse=True, scope="module")
def mini_doubles():
    # In the catalogue only while this module runs (other tests list the real games).
    registry.register("mini-doubles", "tests.rules.core.minigames:DOUBLES")
    yield
    registry.unregister("mini-doubles")


def run(argv, lines=(), err=None):
    out = io.StringIO()
    rc = main(argv, io.StringIO("".join(f"{l}\n" for l in lines)), out, err or io.StringIO())
    return rc, out.getvalue()


def test_list_shows_registered_games():
    rc, text = run(["list"])
    assert rc == 0 and "mini-doubles" in text and "Doubles" in text


def test_play_shows_prompt_takes_actions_and_rejections(tmp_path):
    save = tmp_path / "game.json"
    rc, text = run(
        ["play", "mini-doubles", "--seat", "a:red:Ann", "--seat", "b:blue:Bob", "--seed", "4", "--save", str(save)],
        ["roll 2 3", "roll 9", "1", "auto", "quit-not-a-command"],
    )
    assert rc == 0
    assert "a: roll 2d6 to score" in text
    assert "ok: a roll 2 3" in text
    assert "[face-out-of-range]" in text and "[wrong-dice-count]" in text
    assert "unknown command" in text
    data = json.loads(save.read_text())
    assert data["game"] == "mini-doubles" and len(data["actions"]) == 3


def test_replay_checks_every_action(tmp_path):
    save = tmp_path / "game.json"
    run(["play", "mini-doubles", "--save", str(save), "--seat", "a:red", "--seat", "b:blue"], ["roll 1 2", "roll 3 4"])
    rc, text = run(["replay", str(save)])
    assert rc == 0 and "replayed 2 actions" in text
    data = json.loads(save.read_text())
    data["actions"][1]["seat"] = "a"   # a's turn is over after a non-double
    save.write_text(json.dumps(data))
    rc, text = run(["replay", str(save)])
    assert rc == 1 and "[not-your-turn]" in text


def test_bad_setup_is_reported():
    err = io.StringIO()
    rc, text = run(["play", "mini-doubles", "--seat", "a:green"], err=err)
    assert rc == 2 and text == "" and "cannot start" in err.getvalue()


def test_unknown_game():
    err = io.StringIO()
    rc, _ = run(["play", "chess"], err=err)
    assert rc == 2 and "no game 'chess'" in err.getvalue()


def test_quit_still_saves_the_game(tmp_path):
    # 'quit' used to leave through SystemExit, skipping --save: the game was lost.
    save = tmp_path / "game.json"
    rc, text = run(["play", "mini-doubles", "--seat", "a:red", "--seat", "b:blue", "--save", str(save)], ["roll 1 2", "quit", "roll 3 4"])
    assert rc == 0 and "ok: a roll 1 2" in text and "ok: b roll 3 4" not in text
    assert len(json.loads(save.read_text())["actions"]) == 1


def test_save_during_play_then_replay(tmp_path):
    save = tmp_path / "mid.json"
    rc, text = run(["play", "mini-doubles", "--seat", "a:red", "--seat", "b:blue"], ["roll 1 2", f"save {save}"])
    assert f"saved 1 actions to {save}" in text
    rc, text = run(["replay", str(save)])
    assert rc == 0 and "replayed 1 actions" in text


def test_bad_seat_syntax():
    with pytest.raises(SystemExit):
        run(["play", "mini-doubles", "--seat", "nofaction"])
