"""The Undo button in the real app (tests/ui/test_undo_ui.py), at 800×480 with 160 % text,
driven by real touches on the window (issue 32, item 8): disabled while nothing can be
undone, a long press tells why in the players' words, enabled after a move, a move that
passed the turn taken back before the next player acts, and not after."""
from __future__ import annotations

import re
from typing import Any, Iterator

from tests.ui.scenarios import SEATS, _reachable_tiles, _screen, _tap_face, _wait_for, settle

# What a player must never read on the banner: seat ids, codes, the words of another app.
FORBIDDEN = re.compile(r"cops-1|criminals-1|nothing-to-undo|chance-shown|other-seat|next-seat-acted|Board Game Arena")


def hold(d: Any, w: Any, seconds: float = 1.2) -> Iterator[float]:
    """A finger held on ``w`` (on the window, where it shows) for ``seconds``, then lifted."""
    touch = d.press(w)
    yield seconds
    d.release(touch)
    yield 0.3


def _undo(d: Any) -> Any:
    return _screen(d).ids.undo


def _banner_after_hold(d: Any, what: str) -> Iterator[float]:
    banner = _screen(d).ids.banner
    banner.hide()
    yield 0.3
    yield from hold(d, _undo(d))
    yield from _wait_for(lambda: banner.shown >= 1 and bool(banner.message), 3)
    d.check(banner.shown > 0 and banner.message, f"a long press on Undo ({what}) shows a banner")
    text = banner.message + " " + banner.rule
    d.check(not FORBIDDEN.search(text), f"the banner speaks the players' words: {text!r}")
    d.note(f"{what}: {banner.message}")


def undo_button_states(d: Any) -> Iterator[float]:
    app = d.app
    app.new_game("tyranny", SEATS, {}, seed=11)
    yield from settle(d)
    scr, table = _screen(d), app.table
    undo = _undo(d)
    d.check(undo.disabled, "Undo is disabled at the start: nothing to undo")
    d.check(d._viewport(undo) is not None, "the Undo button is on screen")
    d.shot("undo-0-nothing-to-undo")

    # A long press on the disabled button says why.
    yield from _banner_after_hold(d, "nothing yet")
    d.check("Nothing to undo now" in scr.ids.banner.message and "nothing to undo" in scr.ids.banner.message,
            f"the reason: {scr.ids.banner.message!r}")
    d.shot("undo-1-why-nothing")

    # Ann throws a 1: the throw stays, so Undo stays disabled, and says so.
    _tap_face(d, 1)
    yield from settle(d)
    d.check(table.ply == 1 and undo.disabled, f"after the throw Undo is disabled (ply {table.ply})")
    yield from _banner_after_hold(d, "after the throw")
    d.check("Ann" in scr.ids.banner.message and "rolled" in scr.ids.banner.message,
            f"the throw stays, in words: {scr.ids.banner.message!r}")
    d.shot("undo-2-why-the-throw-stays")

    # Ann moves: the turn passes to Bob at once, and Undo is enabled for Ann's move.
    [tile] = _reachable_tiles(d)
    d.tap(tile)
    yield from settle(d)
    moved_to = table.view()["pieces"]["cops-1"]["tile"]
    d.check(table.prompt.actors == {"criminals-1"} and moved_to != "police-station",
            f"Ann moved and it is Bob's turn: {table.prompt}")
    d.check(not undo.disabled, "Undo is enabled after Ann's move, though the turn passed")
    d.shot("undo-3-enabled-after-a-move")

    # A long press on the enabled button tells what it would take back, and takes nothing back.
    ply = table.ply
    yield from _banner_after_hold(d, "after the move")
    d.check(table.ply == ply and table.prompt.actors == {"criminals-1"}, "holding Undo undid nothing")
    d.check(scr.ids.banner.message.startswith("Undo takes back") and "Ann" in scr.ids.banner.message,
            f"what Undo would take back: {scr.ids.banner.message!r}")
    d.shot("undo-4-what-it-takes-back")

    # A tap: the move is taken back, the turn is Ann's again, at the same throw.
    d.tap(undo)
    yield from settle(d, since=ply)
    v = table.view()
    d.check(table.prompt.actors == {"cops-1"} and v["pieces"]["cops-1"]["tile"] == "police-station",
            f"undo gave Ann her turn back: {table.prompt}")
    d.check([t.tile_id for t in _reachable_tiles(d)] == [moved_to], "the throw's destination is offered again")
    d.check(undo.disabled, "back at the throw: Undo is disabled again")
    yield 0.4  # the long press's banner, hidden by the undo, finishes leaving
    d.shot("undo-5-turn-given-back")

    # Ann moves again; Bob throws: his first action closes Ann's window.
    d.tap(_reachable_tiles(d)[0])
    yield from settle(d)
    d.check(table.prompt.actors == {"criminals-1"} and not undo.disabled, "Ann's move may be taken back until Bob acts")
    _tap_face(d, 3)
    yield from settle(d)
    d.check(table._line[-1].seat == "criminals-1" and undo.disabled, "after Bob's throw nothing can be undone")
    yield from _banner_after_hold(d, "after Bob's throw")
    d.check("Bob" in scr.ids.banner.message and "rolled" in scr.ids.banner.message,
            f"the reason names Bob's throw: {scr.ids.banner.message!r}")
    d.check(table.view()["pieces"]["cops-1"]["tile"] == moved_to, "Ann's move stands")
    d.shot("undo-6-bob-acted")
    # Every game's table screen has the top bar's Undo the screen keeps up to date.
    for game_id in ("tyranny", "liberation", "outrage", "dicetopia", "against_all_tyrants"):
        d.check("undo" in app.screen(f"game:{game_id}").ids, f"{game_id}: the top bar's Undo has id undo")
    d.note("undo button states: ok")
