"""Scenarios for the game screens as a whole (issue 16: player words, layout, stale
texts), run by ``tests/ui/test_game_screens.py`` as ``game_scenarios:<name>`` through
``tests/ui/driver.py``."""
from __future__ import annotations

import json
import re
from typing import Any, Iterator

from tests.ui.scenarios import SEATS, _reachable_tiles, _screen, _tap_face, _wait_for, settle

LIB_SEATS = [{"id": "dynasty-1", "faction": "dynasty", "name": "Dana"},
             {"id": "liberation-1", "faction": "liberation", "name": "Lee"}]
# What programs and referees read, never players: a key=value pair, a snake_case id, a
# ruling code.
_INTERNAL = [re.compile(r"\b[a-z_]+=\S"), re.compile(r"\b[a-z]+_[a-z_]+\b"), re.compile(r"RULINGS"),
             re.compile(r"\b[A-Z]-\d\d\b")]


def internal_names(d: Any, root: Any, ids: set[str]) -> list[str]:
    """Every text under ``root`` (shown or not: the banner, the log, the panels) that holds
    one of ``ids`` (seats, tiles, cities, option values) or an internal form."""
    pats = _INTERNAL + [re.compile(r"(?<![\w-])" + re.escape(i) + r"(?![\w-])") for i in ids if len(i) > 2]
    out = []
    for w in d.walk(root):
        for attr in ("text", "message", "rule", "prompt_text", "info_text", "undo_reason"):
            v = getattr(w, attr, None)
            plain = re.sub(r"\[/?[a-z]+(=[^\]]*)?\]", "", v) if isinstance(v, str) else ""  # markup tags are not words
            if plain and any(p.search(plain) for p in pats):
                out.append(f"{type(w).__name__}.{attr}: {v!r}")
    return sorted(set(out))


def _option_ids(game_id: str) -> set[str]:
    from rules import load

    return {c for o in load(game_id).options for c in (o.choices or ()) if isinstance(c, str) and "-" in c}


def tyranny_words(d: Any) -> Iterator[float]:
    """Tyranny's table after a move, its undo (the log's undone line) and why no more can be
    undone (the banner of a long press on Undo): no seat id, tile id, key=value or ruling code anywhere on the screen."""
    from rules.tyranny.board import board_for

    d.app.new_game("tyranny", SEATS, {}, seed=11)
    yield from settle(d)
    scr = _screen(d)
    _tap_face(d, 2)
    yield from settle(d)
    d.tap(_reachable_tiles(d)[0])
    yield from settle(d)
    d.tap(scr.ids.undo)
    yield from settle(d)
    from tests.ui.undo_scenarios import hold

    yield from hold(d, scr.ids.undo)  # across the roll: not offered, and a long press says why
    yield from _wait_for(lambda: scr.ids.banner.shown >= 1, 3)
    d.check("Nothing to undo" in scr.ids.banner.message and "Ann" in scr.ids.banner.message, f"banner: {scr.ids.banner.message!r}")
    d.tap(scr.ids.log_toggle)
    yield from settle(d)
    yield 0.3
    d.check(any(t.startswith("↶") and "undone" in t for t in d.texts(scr.ids.log)), f"the undone move is in the log: {d.texts(scr.ids.log)}")
    d.shot("words-tyranny")
    board = board_for(None)
    ids = {s["id"] for s in SEATS} | set(board.tiles) | set(board.tunnels) | _option_ids("tyranny")
    bad = internal_names(d, scr, ids)
    d.check(not bad, "internal names on the Tyranny screen:\n" + "\n".join(bad))
    d.note("tyranny: player words only")


def liberation_words_and_info(d: Any) -> Iterator[float]:
    """Liberation with the wizard's seat ids: a city's words leave the screen with the next
    action (issue 16 #10), and no seat or city id, option id or ruling code reaches the
    screen: panels, the banner of a long press on Undo, the log (#6)."""
    from tests.ui.liberation.scenarios import _hold_gate, _tap, _tap_city

    from rules.liberation import GAME
    from rules.liberation.missions import QUESTION_KINDS

    app = d.app
    app.new_game("liberation", LIB_SEATS, {}, seed=3)
    yield 0.3
    scr = app.sm.get_screen("game:liberation")
    yield from _tap(d, "Discard the top card face down")
    yield from _tap(d, "deal 3 cards to Dana")
    yield from _tap(d, "deal 3 cards to Lee")
    yield from _tap(d, "place your first City")
    yield from _hold_gate(d)
    yield from _tap(d, "as your first City")
    yield from _tap(d, "place your secret base")
    yield from _hold_gate(d)
    yield from _tap(d, "Put your secret base at")
    m = GAME.map_of(app.table.state)
    occupied = {o["city"] for o in app.table.view()["occupied"]}
    free = [c.id for c in m.cities if c.id not in occupied]
    yield from _tap_city(d, free[0])
    d.check("lines to" in scr.info_text and d.has("lines to"), f"a tap on a city tells about it: {scr.info_text!r}")
    yield from _tap(d, "Don't draw")
    yield from _tap_city(d, free[1])
    d.check("lines to" in scr.info_text, f"and again in step 2: {scr.info_text!r}")
    d.shot("lib-city-info")
    yield from _tap(d, "Take no action")
    yield from _wait_for(lambda: "lib" in "".join(app.table.prompt.actors) or "liberation" in "".join(app.table.prompt.actors), 3)
    d.check(scr.info_text == "" and not any("lines to" in t for t in d.texts(scr)),
            f"the city's words are gone in the opponent's turn: {scr.info_text!r}")
    from tests.ui.undo_scenarios import hold

    # Lee has not acted yet: Dana may still take her turn back; a long press on Undo says
    # what it would take back, in the game's words.
    yield from hold(d, scr.ids.undo)
    yield from _wait_for(lambda: scr.ids.banner.shown >= 1, 3)
    d.check("Undo takes back" in scr.ids.banner.message and "The Dynasty" in scr.ids.banner.message,
            f"banner: {scr.ids.banner.message!r}")
    d.tap(scr.ids.log_toggle)
    yield from _wait_for(lambda: scr.log_open, 2)
    yield 0.3
    d.shot("lib-words")
    ids = {s["id"] for s in LIB_SEATS} | {c.id for c in m.cities} | set(QUESTION_KINDS) | _option_ids("liberation")
    bad = internal_names(d, scr, ids)
    d.check(not bad, "internal names on the Liberation screen:\n" + "\n".join(bad))
    d.note("liberation: info cleared, player words only")


def game_layout_tour(d: Any) -> Iterator[float]:
    """tests/ui/layout_check.py over every game screen (four seats and clocks for Tyranny,
    a Canadian clock for Liberation, each other game at its most seats), each problem a
    note; the test expects none."""
    from companion.clocks import presets
    from tests.ui.layout_check import check_layout

    problems: list[str] = []
    scale = int(d.app.theme.scale * 100)
    d.app.new_game("tyranny", SEATS + [{"id": "cops-2", "faction": "cops", "name": "Cat"},
                                       {"id": "criminals-2", "faction": "criminals", "name": "Dan"}],
                   {}, seed=3, clocks=presets()["Blitz 5+3"])
    yield from settle(d)
    yield 0.6
    problems += [f"tyranny: {p}" for p in check_layout(_screen(d))]
    d.shot(f"layout-game-tyranny-{scale}")
    canadian = next(v for k, v in presets().items() if "anadian" in k)
    d.app.new_game("liberation", LIB_SEATS, {}, seed=3, clocks=canadian)
    yield 0.8
    scr = d.app.sm.get_screen("game:liberation")
    problems += [f"liberation: {p}" for p in check_layout(scr)]
    d.shot(f"layout-game-liberation-{scale}")
    # Every other game with a table screen, at its most seats (Outrage!'s six at 800×480
    # is the hardest case), from its opening: a game added later is checked here too.
    import itertools

    import rules
    from companion.ui.registry import game_screens

    names = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
    from companion.ui.presenters.setup import SetupModel

    for gid in sorted(set(game_screens()) - {"tyranny", "liberation"}):
        game = rules.load(gid)
        seats = [{"id": f"{f}-{i}", "faction": f, "name": names[i - 1]}
                 for i, f in zip(range(1, game.max_seats + 1), itertools.cycle(game.factions))]
        # A house rule that seats the most (Outrage!'s own pieces for a 5th and 6th player) is on.
        options = {o.name: True for o in SetupModel.for_game(gid).seat_count_options() if True in o.choices}
        d.app.new_game(gid, seats, options, seed=3, clocks=presets()["Blitz 5+3"])
        yield from settle(d)
        yield 0.6
        problems += [f"{gid}: {p}" for p in check_layout(d.app.sm.get_screen(f"game:{gid}"))]
        d.shot(f"layout-game-{gid}-{scale}")
    d.note(json.dumps(problems))
