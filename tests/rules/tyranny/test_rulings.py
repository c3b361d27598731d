"""RULINGS.md is complete and honest: every option names a ruling, every ruling cites tests
that exist, every ``RULINGS X-NN`` the engine mentions exists — and the rulings no other
test file covers are tested here."""
from __future__ import annotations

import ast
import re
from importlib import resources
from pathlib import Path

import pytest

from rules.core import Draw, Roll
from rules.tyranny import (
    GAME, Arrest, Capture, ChooseRange, CrossTier, Decline, MoveTo, OpenTunnel, PayEscape, PlayCard,
    BoardError, default_board, parse_board,
)

from .helpers import FOUR, draw, give, move, new, place, push, rejected, turn_of

HERE = Path(__file__).parent
RULINGS = resources.files("rules.tyranny").joinpath("RULINGS.md").read_text(encoding="utf-8")
HEADING = re.compile(r"^## ([A-Z]-\d\d) (.+)$", re.M)


def _sections() -> dict[str, str]:
    """Ruling id → its heading and text (up to the next ruling)."""
    marks = list(HEADING.finditer(RULINGS))
    return {m.group(1): RULINGS[m.start(): (marks[i + 1].start() if i + 1 < len(marks) else len(RULINGS))]
            for i, m in enumerate(marks)}


def _test_names() -> set[str]:
    names = set()
    for path in HERE.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                names.add(node.name)
    return names


# ------------------------------------------------------------ the document

def test_ruling_ids_are_unique_and_in_order():
    ids = [m.group(1) for m in HEADING.finditer(RULINGS)]
    assert len(ids) == len(set(ids)) and len(ids) >= 30
    by_prefix: dict[str, list[int]] = {}
    for i in ids:
        by_prefix.setdefault(i[0], []).append(int(i[2:]))
    for prefix, numbers in by_prefix.items():
        assert numbers == list(range(1, len(numbers) + 1)), prefix


def test_every_option_names_an_existing_ruling():
    sections = _sections()
    for option in GAME.options:
        assert option.ruling in sections, option.name
        assert f"`{option.name}`" in sections[option.ruling], option.name


def test_every_ruling_quotes_the_rulebook_and_cites_existing_tests():
    names = _test_names()
    for rid, text in _sections().items():
        assert "Rulebook:" in text or "Rulebook (silent)" in text, rid
        assert "Decision:" in text, rid
        cited = re.findall(r"Tests?: (.+)", text)
        assert cited, f"{rid} cites no test"
        tests = re.findall(r"`(test_\w+)`", " ".join(cited))
        assert tests, f"{rid} cites no test"
        missing = [t for t in tests if t not in names]
        assert not missing, f"{rid} cites tests that do not exist: {missing}"


def test_every_ruling_the_engine_mentions_exists():
    sections = _sections()
    package = resources.files("rules.tyranny")
    mentioned = set()
    for name in ("game.py", "effects.py", "board.py", "cards.py", "state.py", "actions.py"):
        mentioned |= set(re.findall(r"RULINGS ([A-Z]-\d\d)", package.joinpath(name).read_text(encoding="utf-8")))
    assert mentioned and mentioned <= set(sections), mentioned - set(sections)


# ------------------------------------------------------------- B: the board

def test_hideout_and_headquarters_are_one_tile():
    b = default_board()
    assert b.start["criminals"] == "hideout" and "Headquarters" in b.tiles["hideout"].name
    s = new()
    draw(s, "cop-1", "gamble-05b")  # "Kidnapped! Move to HQ"
    assert s.pos["cop-1"] == "hideout"
    s = new()
    place(s, "crim-1", "i-hotel")
    draw(s, "crim-1", "gamble-04a")  # "...from HQ": the criminals' home base
    assert s.pos["crim-1"] in b.homes["criminals"]


def test_each_tier_is_a_loop_with_a_home_base_per_faction():
    b = default_board()
    for tier, tiles in b.tiers.items():
        assert b.next[tiles[-1]] == tiles[0]
        for faction in ("cops", "criminals"):
            assert b.tier_of[b.home_on(faction, tier)] == tier
    assert b.tier_of[b.start["cops"]] == b.tier_of[b.start["criminals"]] == "outer"


# -------------------------------------------------------------- S: setup

def test_influence_is_one_shared_number_without_a_ceiling():
    s = new()
    s.influence.set(1900)
    draw(s, "crim-1", "gains-09a")
    assert s.influence.value == 2400 and "influence" in GAME.view(s) and s.influence.lo == 0


def test_draws_name_the_card_physical_or_the_apps():
    s = new()
    move(s, "cop-1", 2, "o-gamble-1")
    card = s.decks["gamble"].cards[7]  # any card still in the deck: a physical draw
    push(s, Draw("cop-1", "gamble", card))
    assert card not in s.decks["gamble"].cards


# ----------------------------------------------------------- M: movement

def test_free_actions_then_one_movement_or_capture_turn():
    s = new()
    give(s, "crim-1", "gains-07a")
    place(s, "crim-1", "o-docks")
    turn_of(s, "crim-1")
    push(s, PlayCard("crim-1", "gains-07a", tunnel="tunnel-b"))
    assert s.actor == "crim-1" and s.phase == "start"
    push(s, Capture("crim-1"))
    assert rejected(s, Roll("crim-1", (1, 2))) == ("wrong-dice-count",)
    push(s, Roll("crim-1", (6,)))
    assert s.actor == "cop-1"


def test_standing_on_your_property_or_passing_it_moves_no_influence():
    s = new()
    s.owner.update({"o-docks": "cops", "o-market": "cops"})
    place(s, "cop-1", "o-docks")
    move(s, "cop-1", 3, "o-safe-1")  # passes o-market (owned), lands on a safe tile
    assert s.influence.value == 500


def test_card_moves_are_movement_passing_and_landing_apply():
    s = new()
    s.owner["o-factory"] = "criminals"
    draw(s, "crim-1", "gamble-06a")  # from o-gamble-1: within 6
    place(s, "cop-1", "o-market")
    push(s, MoveTo("crim-1", "o-factory"))  # passes the cop on o-market
    assert s.phase == "passing" and s.queue == ["cop-1"]
    push(s, Decline("crim-1"))
    assert s.influence.value == 575  # landed on the criminals' Old Factory (+75)


def test_a_card_move_onto_a_gamble_tile_draws_again():
    s = new()
    draw(s, "cop-1", "gamble-08b")  # roll and move
    push(s, Roll("cop-1", (2,)))
    assert s.phase == "move" and list(s.routes) == ["o-safe-1"]
    s = new()
    draw(s, "cop-1", "gamble-06b")
    assert "o-gains-1" in s.routes
    push(s, MoveTo("cop-1", "o-gains-1"))
    assert s.phase == "draw" and GAME.prompt(s).awaiting.deck == "gains"


def test_teleports_are_not_landings():
    s = new()
    s.owner["i-bank"] = "criminals"
    give(s, "crim-1", "gamble-07a")
    place(s, "crim-1", "o-docks")
    place(s, "cop-1", "police-station-inner")
    turn_of(s, "crim-1")
    push(s, PlayCard("crim-1", "gamble-07a"))
    assert s.pos["crim-1"] == "police-station-inner"
    assert s.influence.value == 500 and s.custody == {} and s.phase == "start"


def test_missed_turns_stack_and_count_down():
    s = new()
    s.order.skip("crim-1", 1)
    draw(s, "crim-1", "gamble-10a")
    assert s.order.skips == {"crim-1": 2}
    for _ in range(2):
        assert s.actor == "cop-1"
        push(s, Roll("cop-1", (1,)))
        push(s, MoveTo("cop-1", next(iter(s.routes))))
        while s.actor == "cop-1" and s.phase not in ("start", "custody"):
            push(s, Decline("cop-1"))
    assert s.order.skips == {} and s.actor == "cop-1"
    assert any("crim-1 misses a turn" in e["text"] for e in GAME.view(s)["log"])


def test_a_missed_turn_in_custody_is_no_escape_attempt():
    s = new()
    place(s, "crim-1", "o-market")
    move(s, "cop-1", 3, "o-market")
    push(s, Arrest("cop-1", "crim-1"))
    s.order.skip("crim-1", 1)
    # crim-1 is in custody and to act now: the missed turn is its next one
    push(s, Roll("crim-1", (2,)))
    assert s.actor == "cop-1"
    push(s, Roll("cop-1", (1,)))
    push(s, MoveTo("cop-1", next(iter(s.routes))))
    while s.actor == "cop-1" and s.phase not in ("start", "custody"):
        push(s, Decline("cop-1"))
    assert s.actor == "cop-1" and "crim-1" in s.custody


def _small_board(outer: int = 8, inner: int = 10) -> dict:
    """Two short tiers and two tunnels, placed so that a 6 could come back round through
    both of them over a tile it had passed."""
    def tier(p: str, n: int, tunnels: set[int]) -> list[dict]:
        homes = {0: "police-station", 1: "hideout"}
        return [{"id": f"{p}{i}", "kind": homes.get(i) or ("tunnel" if i in tunnels else "street")} for i in range(n)]
    return {"tiers": {"outer": tier("o", outer, {2, 6}), "inner": tier("i", inner, {3, 4})},
            "homes": {"cops": ["o0", "i0"], "criminals": ["o1", "i1"]},
            "tunnels": [{"id": "ta", "ends": ["o2", "i3"], "cost": 1}, {"id": "tb", "ends": ["i4", "o6"], "cost": 1}]}


def test_a_move_never_passes_a_tile_twice():
    b = parse_board(_small_board())
    routes = b.routes("o0", 6, {"ta", "tb"})
    # o0 o1 o2 ⇒ i3 i4 ⇒ o6 o7 o0 o1 would pass o1 (and the start) twice: not a move.
    assert routes == {
        "o6": ("o1", "o2", "o3", "o4", "o5"),
        "i4": ("o1", "o2", "o3", "o4", "o5", "o6"),
        "i7": ("o1", "o2", "i3", "i4", "i5", "i6"),
    }
    assert "o1" not in b.routes("o1", 5, {"ta", "tb"})  # nor end where it started
    s = GAME.new([("cop-1", "cops"), ("crim-1", "criminals")], {"board": _small_board()}, seed=1)
    s.open_tunnels = ["ta", "tb"]
    push(s, Roll("cop-1", (6,)))
    assert s.routes == routes
    for tile, passed in s.routes.items():
        assert len({*passed, tile, "o0"}) == len(passed) + 2


def test_a_tier_needs_more_tiles_than_the_longest_move():
    parse_board(_small_board(outer=7))
    data = _small_board()
    data["tiers"]["outer"] = data["tiers"]["outer"][:6]
    data["tunnels"] = data["tunnels"][:1]  # the other one ended on the tile cut off
    data["tiers"]["inner"][4]["kind"] = "street"
    with pytest.raises(BoardError) as e:
        parse_board(data, "short.json")
    assert e.value.problems == ("tiers.outer: a tier needs at least 7 tiles (one more than the longest move, 6), not 6",)


# ------------------------------------------------------ T: tiers, tunnels

def test_starting_on_your_home_base_is_no_crossing():
    s = new()
    p = GAME.prompt(s)
    assert "cross" not in p.awaiting.accepted
    assert rejected(s, CrossTier("cop-1")) == ("not-awaited", "not-now-cross")


def test_crossing_may_be_declined():
    s = new()
    place(s, "crim-1", "o-bar")
    turn_of(s, "crim-1")
    move(s, "crim-1", 2, "hideout")
    push(s, Decline("crim-1"))
    assert s.pos["crim-1"] == "hideout" and s.actor == "cop-1"


def test_tunnel_work_only_at_the_start_of_a_turn():
    s = new()
    place(s, "crim-1", "o-factory")
    turn_of(s, "crim-1")
    push(s, Roll("crim-1", (1,)))
    push(s, MoveTo("crim-1", "o-tunnel-a"))
    assert s.actor == "cop-1"  # landing on a closed tunnel end ends the turn
    turn_of(s, "crim-1")
    push(s, OpenTunnel("crim-1", "tunnel-a"), Roll("crim-1", (1,)))
    assert sorted(s.routes) == ["i-tower", "o-arcade"]  # the same turn goes on through it


def test_a_tunnel_opened_by_the_board_file():
    import json
    data = json.loads(json.dumps(default_board().data))
    data["tunnels"][0]["open"] = True
    s = GAME.new([("cop-1", "cops"), ("crim-1", "criminals")], {"board": data}, seed=1)
    assert s.open_tunnels == ["tunnel-a"]


# ------------------------------------------------- P: capturing players

def test_landing_on_two_enemies_arrests_each_or_declines_the_rest():
    s = new(FOUR)
    place(s, "crim-1", "o-market")
    place(s, "crim-2", "o-market")
    move(s, "cop-1", 3, "o-market")
    push(s, Arrest("cop-1", "crim-2"))
    assert GAME.prompt(s).awaiting.kinds == ("arrest", "decline")
    push(s, Arrest("cop-1", "crim-1"))
    assert set(s.custody) == {"crim-1", "crim-2"} and s.actor == "crim-1"
    s = new(FOUR)
    place(s, "crim-1", "o-market")
    place(s, "crim-2", "o-market")
    move(s, "cop-1", 3, "o-market")
    push(s, Arrest("cop-1", "crim-1"), Decline("cop-1"))
    assert set(s.custody) == {"crim-1"}


def test_the_move_goes_on_after_a_capture_roll():
    s = new()
    place(s, "crim-1", "o-docks")
    push(s, Roll("cop-1", (2,)), MoveTo("cop-1", "o-gamble-1"))
    push(s, ChooseRange("cop-1", "crim-1", 4), Roll("crim-1", (1,)))
    assert "crim-1" in s.custody
    assert s.phase == "draw" and s.actor == "cop-1"  # the landing still draws


def test_pieces_in_custody_are_neither_passed_nor_arrested():
    s = new(FOUR)
    s.custody["crim-2"] = [6]
    place(s, "crim-2", "o-docks")
    move(s, "cop-1", 2, "o-gamble-1")
    assert s.phase == "draw"  # no capture roll against crim-2


def test_an_enemys_home_base_is_not_safe():
    s = new()
    place(s, "crim-1", "police-station-inner")
    place(s, "cop-1", "i-gallery")
    move(s, "cop-1", 1, "police-station-inner")
    assert s.phase == "arrest"


def test_criminals_arresting_a_cop_play_no_gamble_3():
    s = new()
    give(s, "crim-1", "gamble-03a")
    give(s, "cop-1", "gamble-03b")
    place(s, "cop-1", "o-market")
    place(s, "crim-1", "o-docks")
    turn_of(s, "crim-1")
    move(s, "crim-1", 2, "o-market")
    push(s, Arrest("crim-1", "cop-1"))
    assert s.phase == "custody" and s.actor == "cop-1"


# ---------------------------------------------------------- E: escaping

def test_after_escaping_the_next_turn_moves_off_from_the_base():
    s = new()
    place(s, "crim-1", "o-market")
    move(s, "cop-1", 3, "o-market")
    push(s, Arrest("cop-1", "crim-1"), Roll("crim-1", (6,)))
    assert s.actor == "cop-1" and s.pos["crim-1"] == "police-station"  # the escape was the turn
    push(s, Roll("cop-1", (1,)), MoveTo("cop-1", "o-safe-1"))
    push(s, Roll("crim-1", (1,)))
    assert list(s.routes) == ["o-docks"]


def test_paying_still_frees_after_the_cops_escape_number():
    s = new()
    give(s, "cop-1", "gains-06b")
    s.custody["crim-1"] = [6]
    place(s, "crim-1", "police-station")
    turn_of(s, "cop-1")
    push(s, PlayCard("cop-1", "gains-06b", target="crim-1", number=1))
    push(s, Roll("cop-1", (1,)), MoveTo("cop-1", "o-docks"))
    push(s, PayEscape("crim-1"))
    assert s.custody == {} and s.influence.value == 300


def test_in_custody_only_escape_cards_can_be_played():
    s = new()
    give(s, "crim-1", "gains-07a")
    s.custody["crim-1"] = [6]
    place(s, "crim-1", "police-station")
    turn_of(s, "crim-1")
    assert "play" not in GAME.prompt(s).awaiting.accepted
    assert rejected(s, PlayCard("crim-1", "gains-07a", tunnel="tunnel-a")) == ("not-awaited", "not-now-play")


# ----------------------------------------------------------------- C: cards

def test_several_kept_cards_in_one_turn():
    s = new()
    give(s, "crim-1", "gains-01a")
    give(s, "crim-1", "gains-02a")
    place(s, "crim-1", "o-casino")  # range 5-6
    turn_of(s, "crim-1")
    push(s, Capture("crim-1"), PlayCard("crim-1", "gains-02a"), PlayCard("crim-1", "gains-01a"))
    push(s, Roll("crim-1", (5,)), Roll("crim-1", (3,)))  # 1-3 now; 5 misses, the extra roll hits
    assert s.owner["o-casino"] == "criminals"


def test_unused_extra_capture_rolls_are_lost():
    s = new()
    give(s, "crim-1", "gains-01a")
    place(s, "crim-1", "o-docks")
    turn_of(s, "crim-1")
    push(s, Capture("crim-1"), PlayCard("crim-1", "gains-01a"), Roll("crim-1", (1,)))
    assert s.actor == "cop-1" and s.extra_rolls == 0


def test_capture_range_card_once_per_capture():
    s = new()
    give(s, "crim-1", "gains-02a")
    give(s, "crim-1", "gains-02b")
    place(s, "crim-1", "o-casino")
    turn_of(s, "crim-1")
    push(s, Capture("crim-1"), PlayCard("crim-1", "gains-02a"))
    assert rejected(s, PlayCard("crim-1", "gains-02b")) == ("not-awaited", "not-now-play")


def test_no_hand_limit():
    s = new()
    for c in ("gamble-03a", "gamble-07a", "gains-01a", "gains-02a", "gains-06a", "gains-07a", "gains-10a"):
        give(s, "crim-1", c)
    draw(s, "crim-1", "gains-10b")
    assert len(s.hands["crim-1"]) == 8 and GAME.view(s)["hands"]["crim-1"] == {"count": 8}


@pytest.mark.parametrize("option,tile", [("facing", "i-gains-1"), ("home", "hideout-inner")])
def test_gamble_7_destination_option(option, tile):
    s = new(switch_tier=option)
    give(s, "crim-1", "gamble-07a")
    place(s, "crim-1", "o-market")  # 3 of 24 round the outer tier; faces 2 of 16 inside
    turn_of(s, "crim-1")
    push(s, PlayCard("crim-1", "gamble-07a"))
    assert s.pos["crim-1"] == tile


def test_gains_3_takes_an_enemy_property_outright_and_stays_on_the_tier():
    s = new()
    s.owner["o-garage"] = "cops"
    draw(s, "crim-1", "gains-03a")  # from o-gains-1
    assert s.owner["o-garage"] == "criminals"
    s = new()
    for t in default_board().tiers["outer"]:
        if default_board().tiles[t].kind == "property":
            s.owner[t] = "criminals"
    before = dict(s.owner)
    draw(s, "crim-1", "gains-03a")
    assert s.owner == before  # nothing ahead to take on this tier


@pytest.mark.parametrize("option,neutral", [("enemy", "o-bar"), ("any", "o-garage")])
def test_gains_4_neutralise_option(option, neutral):
    s = new(neutralise=option)
    s.owner.update({"o-garage": "criminals", "o-bar": "cops"})
    draw(s, "crim-1", "gains-04a")  # from o-gains-1: o-garage is closest, then o-bar
    assert neutral not in s.owner and len(s.owner) == 1


def test_gains_5_reveals_the_discard_to_everyone():
    s = new()
    give(s, "crim-1", "gamble-07a")
    draw(s, "cop-1", "gains-05b")
    from rules.tyranny import PickCard
    push(s, PickCard("cop-1", "crim-1", 0))
    public = " ".join(e["text"] for e in GAME.view(s)["log"])
    assert "Gamble 7" in public and "gamble-07a" in GAME.view(s)["decks"]["gamble"]["discard"]


def test_gains_10_needs_an_opponent_holding_a_card():
    s = new()
    give(s, "crim-1", "gains-10a")
    turn_of(s, "crim-1")
    assert "play" not in GAME.prompt(s).awaiting.accepted
    assert rejected(s, PlayCard("crim-1", "gains-10a")) == ("not-awaited", "not-now-play")


# ------------------------------------------------------------ W: winning

def test_exactly_1000_counts_and_999_does_not():
    from .test_rules import _end_turns
    s = new(streak_turn="seat-turn")
    s.influence.set(999)
    _end_turns(s, 3)
    assert s.criminal_streak.count == 0
    s.influence.set(1000)
    _end_turns(s, 3)
    assert s.result is not None and s.result.winner == "criminals"


@pytest.mark.parametrize("option,count", [("round", 1), ("seat-turn", 2)])
def test_what_a_turn_is_for_the_streaks(option, count):
    from .test_rules import _end_turns
    s = new(streak_turn=option)
    s.influence.set(1000)
    _end_turns(s, 2)  # cop-1's turn, then crim-1's: one round
    assert s.criminal_streak.count == count


def test_round_streaks_look_only_at_the_end_of_each_round():
    from .test_rules import _end_turns
    s = new()
    s.influence.set(10)
    _end_turns(s, 1)  # cop-1's turn ends at 10: mid-round, not checked
    s.influence.set(1000)
    _end_turns(s, 1)  # end of round 1
    assert s.criminal_streak.count == 1


def test_the_whole_faction_wins_and_the_game_stops():
    from .test_rules import _end_turns
    s = new(FOUR)
    s.influence.set(0)
    _end_turns(s, 12)
    assert s.result.winner == "cops" and s.result.winning_seats == ("cop-1", "cop-2")
    assert rejected(s, Roll(s.actor, (1,))) == ("game-over",)


def test_the_board_format_is_documented_where_the_default_board_says():
    from rules.tyranny.board import KINDS
    package = resources.files("rules.tyranny")
    comment = default_board().data["$comment"]
    assert "DEFAULT BOARD" in comment and "README.md" in comment
    readme = package.joinpath("README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Board files"):]
    for word in (*KINDS, "tiers", "homes", "tunnels", "ends", "cost", "range", "base", "open"):
        assert f"`{word}`" in section, word
