"""Tyranny in the real app at the Pi's size, 800×480 with 160 % text (tests/ui/test_tyranny_ui.py;
issue 32, item 7): "Hands" opens a page of its own where the player looks, and the card
just drawn lies on the board, face up when it acts at once, face down when it is kept.
Screenshots: artifacts/ui/tyranny/."""
from __future__ import annotations

import re
from typing import Any, Iterator

from tests.ui.scenarios import SEATS, _screen, _wait_for, hold_gate, settle


def _on_screen(d: Any, w: Any) -> bool:
    """Shown, and wholly inside the window (not scrolled away, not under its edge)."""
    from kivy.core.window import Window

    if not d.is_visible(w):
        return False
    x, y = w.to_window(w.x, w.y)
    return x >= -1 and y >= -1 and x + w.width <= Window.width + 1 and y + w.height <= Window.height + 1


def _submit(d: Any, action: Any) -> Iterator[float]:
    """A step of play that is not under test, given to the Table as the dice tray or the
    map would (the screen redraws from the Table's change)."""
    before = d.app.table.ply
    d.app.table.submit(action, source="touch")
    yield from settle(d, since=before)


def _ann_lands_on_gains(d: Any) -> Iterator[float]:
    """Seed 1, hand-entered rolls: Ann 6, Bob 1, Ann 2 lands Ann on a Gains tile (the
    route of tests/ui/scenarios.py's full game)."""
    from rules.core import Roll
    from rules.tyranny.actions import MoveTo

    for seat, value in (("cops-1", 6), ("criminals-1", 1), ("cops-1", 2)):
        yield from _submit(d, Roll(seat, (value,)))
        move = next(a for a in d.app.table.legal_actions() if isinstance(a, MoveTo))
        yield from _submit(d, move)


def hands_page(d: Any) -> Iterator[float]:
    """Four players: a tap on "▤ Hands" in the top bar shows a button per seat where the
    player looks (not added to a side panel scrolled out of view); a tap on one asks that
    seat to the privacy gate."""
    seats = SEATS + [{"id": "cops-2", "faction": "cops", "name": "Cat"}, {"id": "criminals-2", "faction": "criminals", "name": "Dan"}]
    d.app.new_game("tyranny", seats, {}, seed=1)
    yield from settle(d, 0.5)
    scr = _screen(d)
    d.shot("tyranny-hands-0-table")
    d.tap(scr.ids.hands)
    yield from settle(d, 0.6)
    d.shot("tyranny-hands-1-after-tap")
    shown = {}
    for w in d.walk():
        text = str(getattr(w, "text", ""))
        if "'s hand" in text and _on_screen(d, w):
            shown[text.split("'s hand")[0].split()[-1]] = w
    d.check(sorted(shown) == ["Ann", "Bob", "Cat", "Dan"],
            f"after a tap on Hands, a button for each player's hand is on screen: {sorted(shown)}; "
            f"in the widget tree: {[t for t in d.texts() if 'hand' in t]}")
    d.check(shown["Bob"].text == "▤ Bob's hand (0 cards)", f"it names the player and the count: {shown['Bob'].text!r}")
    d.tap(shown["Bob"])
    yield from _wait_for(lambda: scr.ids.gate.active, 3)
    yield 0.3
    d.check(scr.ids.gate.active and scr.ids.gate.who.startswith("Bob"), f"the gate asks for Bob: {scr.ids.gate.who!r}")
    d.check(not any("'s hand (" in str(getattr(w, "text", "")) and _on_screen(d, w) for w in d.walk()),
            "the hands page is gone")
    d.shot("tyranny-hands-2-gate")
    yield from hold_gate(d, scr.ids.gate)
    d.check(d.has("No cards in your hand."), "behind the gate: Bob's hand, empty")
    d.shot("tyranny-hands-3-behind-the-gate")
    d.note("hands page: Bob's gate")


def drawn_card(d: Any) -> Iterator[float]:
    """The app's deck deals Ann a Gains card that acts at once: it lies on the board, face
    up (its name and Ann's half), until the next action. Bob enters a kept card: it lies
    face down (the deck only), and a tap on it asks Bob to the gate, where it is read."""
    from rules.core import Draw, Roll
    from rules.tyranny.actions import MoveTo
    from rules.tyranny.cards import CARDS

    d.app.new_game("tyranny", SEATS, {}, seed=1)
    yield from settle(d, 0.3)
    scr = _screen(d)
    yield from _ann_lands_on_gains(d)
    d.check(d.app.table.view()["phase"] == "draw", "Ann may draw a Gains card")
    button = d.find("App's Gains card", visible=False)
    if "side_scroll" in scr.ids and not d.is_visible(button):
        scr.ids.side_scroll.scroll_to(button, animate=False)  # as a player scrolls to it
        yield 0.3
    ply = d.app.table.ply
    d.tap(d.find("App's Gains card"))
    yield from settle(d, 0.5, since=ply)
    drawn = d.app.table.view()["decks"]["gains"]["discard"]
    d.check(len(drawn) == 1, f"the app's card acted at once and lies on the discard pile: {drawn}")
    card = CARDS[drawn[0]]
    half = card.half("cops").text
    view = getattr(scr, "drawn_card", None)
    d.check(view is not None and view.parent is not None and _on_screen(d, view), "the drawn card is on the table")
    d.check(view.ids.title.text == f"+ Gains {card.number}" and view.ids.text.text == half and "Ann" in view.who,
            f"it shows the card, its text and who drew it: {view.title!r} {view.text!r} {view.who!r}")
    board = scr.ids.board
    bx, by = board.to_window(board.x, board.y)
    vx, vy = view.to_window(view.x, view.y)
    d.check(bx <= vx and vx + view.width <= bx + board.width and by <= vy and vy + view.height <= by + board.height,
            "it lies on the board")
    d.check(all(lbl.texture_size[1] <= lbl.height + 1 for lbl in (view.ids.title, view.ids.text)), "its words are whole")
    d.shot("tyranny-drawn-0-face-up")
    # The next action takes it off the table.
    yield from _submit(d, Roll("criminals-1", (1,)))
    d.check(view.parent is None, "after the next action the card is gone from the board")
    d.shot("tyranny-drawn-1-next-action")
    move = next(a for a in d.app.table.legal_actions() if isinstance(a, MoveTo))
    yield from _submit(d, move)
    d.check(d.app.table.view()["phase"] == "draw", "Bob may draw a Gains card")
    # Bob enters the card he drew from the table's deck: Gains 1, kept face down.
    kept = CARDS["gains-01a"]
    secret = kept.half("criminals").text
    yield from _submit(d, Draw("criminals-1", deck="gains", card="gains-01a", source="card"))
    d.check(view.parent is not None and _on_screen(d, view), "Bob's card is on the table")
    d.check(view.ids.title.text == "+ Gains card" and "face down" in view.text,
            f"face down: only its deck: {view.title!r} {view.text!r}")
    named = re.compile(rf"Gains {kept.number}\b")
    leaks = [t for t in d.texts() if secret in t or named.search(t)]
    d.check(not leaks, f"nothing on the public screen names the kept card: {leaks}")
    d.shot("tyranny-drawn-2-face-down")
    d.tap(view)
    yield from _wait_for(lambda: scr.ids.gate.active, 3)
    yield 0.3
    d.check(scr.ids.gate.who.startswith("Bob"), f"a tap on it asks Bob to the gate: {scr.ids.gate.who!r}")
    yield from hold_gate(d, scr.ids.gate)
    d.check(any(secret in t for t in d.texts(scr.ids.gate)), "behind the gate Bob reads his card")
    d.shot("tyranny-drawn-3-behind-the-gate")
    scr.ids.gate.close()
    # Ann lands on a Gamble tile and draws Gamble 6, a card move: the card keeps to the
    # square the tiles leave free, and no tile it lets her reach is under it.
    yield from _submit(d, Roll("cops-1", (3,)))
    yield from _submit(d, next(a for a in d.app.table.legal_actions() if isinstance(a, MoveTo)))
    yield from _submit(d, Draw("cops-1", deck="gamble", card="gamble-06a", source="card"))
    yield 0.3
    reach = [w for w in scr.ids.board._tiles.values() if w.reachable]
    d.check(reach and view.parent is not None and view.compact and _on_screen(d, view),
            f"Gamble 6 lies on the board while {len(reach)} tiles are highlighted")
    d.check(view.ids.text.text == CARDS["gamble-06a"].half("cops").text, f"with its text: {view.ids.text.text!r}")
    def rect(w: Any) -> tuple[float, float, float, float]:
        x, y = w.to_window(w.x, w.y)
        return x, y, x + w.width, y + w.height

    card_rect = rect(view)
    covered = [w.tile_id for w in reach if (lambda r: r[0] < card_rect[2] and card_rect[0] < r[2]
                                              and r[1] < card_rect[3] and card_rect[1] < r[3])(rect(w))]
    d.check(not covered, f"no highlighted tile lies under the card: {covered}")
    d.shot("tyranny-drawn-4-card-move")
    d.note(f"drawn: Gains {card.number} face up, Gains {kept.number} face down")


def _same_as_fresh(d: Any, step: str) -> Iterator[float]:
    """The live table shows what a screen bound afresh to its Table shows: every word
    (tests/ui/fresh_screen.py) and every tile of the map, its words and its drawing."""
    from companion.ui.games.tyranny.drawn_card import DrawnCardView
    from companion.ui.widgets.track import TrackCounter
    from tests.ui.fresh_screen import drop_twin, fresh_twin, picture, settle_twin, table_words

    live = _screen(d)
    twin = fresh_twin(live)
    try:
        yield from settle_twin(twin, live)
        yield 0.2  # the tiles' texts are rendered just before a frame
        # The influence counter's number and its change float towards the new value for a
        # moment: compared by what it holds, not by its animated labels.
        words, fresh_words = (table_words(live, (DrawnCardView, TrackCounter)),
                              table_words(twin, (DrawnCardView, TrackCounter)))
        diff = [f"{a!r} != {b!r}" for a, b in zip(words, fresh_words) if a != b]
        d.check(len(words) == len(fresh_words) and not diff, f"{step}: the words differ from a fresh screen's: {diff[:4]}")
        counter = [(t.value, t.subtitle, t.deltas_text, list(t.points)) for t in (live.ids.influence, twin.ids.influence)]
        d.check(counter[0] == counter[1], f"{step}: the influence differs from a fresh screen's: {counter}")
        board, fresh = live.ids.board, twin.ids.board
        d.check(tuple(board.size) == tuple(fresh.size), f"{step}: the maps' sizes differ: {board.size} {fresh.size}")
        tiles = 0
        for c in board._cells:
            a, b = board.tile(c.id), fresh.tile(c.id)
            shown = (a.text, a.reachable, a.owner, tuple(a.pos), picture(a.canvas))
            drawn = (b.text, b.reachable, b.owner, tuple(b.pos), picture(b.canvas))
            d.check(shown == drawn, f"{step}: tile {c.id} differs from a fresh map's: {shown} != {drawn}")
            tiles += 1
        d.note(f"{step}: {len(words)} words, {tiles} tiles alike")
    finally:
        drop_twin(twin)


def _roll_and_move(d: Any, value: int) -> Iterator[float]:
    """A die entered by hand on the tray, then a tap on the tile the piece moves to (the
    first the engine offers)."""
    from rules.tyranny.actions import MoveTo

    from tests.ui.scenarios import _tap_face

    ply = d.app.table.ply
    _tap_face(d, value)
    yield from settle(d, 0.2, since=ply)
    move = next(a for a in d.app.table.legal_actions() if isinstance(a, MoveTo))
    tile = _screen(d).ids.board.tile(move.tile)
    d.check(tile.reachable, f"the roll highlights {move.tile}")
    ply = d.app.table.ply
    d.tap(tile)
    yield from settle(d, 0.2, since=ply)


def in_place(d: Any) -> Iterator[float]:
    """Refreshed in place, the table shows what a fresh screen shows (issue 34): after a
    roll (tiles highlighted), moves (pieces leave their tiles), the app's Gains card (the
    influence, its history and its streak lines), another move and its undo."""
    d.app.new_game("tyranny", SEATS, {}, seed=1)
    yield from settle(d, 0.3)
    scr = _screen(d)
    yield from _same_as_fresh(d, "start")
    from tests.ui.scenarios import _tap_face

    ply = d.app.table.ply
    _tap_face(d, 6)
    yield from settle(d, 0.2, since=ply)
    yield from _same_as_fresh(d, "rolled")
    from rules.tyranny.actions import MoveTo

    move = next(a for a in d.app.table.legal_actions() if isinstance(a, MoveTo))
    ply = d.app.table.ply
    d.tap(scr.ids.board.tile(move.tile))
    yield from settle(d, 0.2, since=ply)
    yield from _same_as_fresh(d, "moved")
    yield from _roll_and_move(d, 1)
    yield from _roll_and_move(d, 2)
    d.check(d.app.table.view()["phase"] == "draw", "Ann may draw a Gains card")
    button = d.find("App's Gains card", visible=False)
    if not d.is_visible(button):
        scr.ids.side_scroll.scroll_to(button, animate=False)  # as a player scrolls to it
        yield 0.3
    ply = d.app.table.ply
    d.tap(d.find("App's Gains card"))
    yield from settle(d, 0.3, since=ply)
    yield from _same_as_fresh(d, "drawn")
    # The app's card cannot be taken back (its deck is shuffled); Bob's next move can.
    yield from _roll_and_move(d, 3)
    yield from _same_as_fresh(d, "moved again")
    ply = d.app.table.ply
    d.tap(scr.ids.undo)
    yield from _wait_for(lambda: d.app.table.ply < ply)
    yield from settle(d, 0.3)
    d.check(d.app.table.ply < ply, "the undo took Bob's move back")
    yield from _same_as_fresh(d, "undone")
