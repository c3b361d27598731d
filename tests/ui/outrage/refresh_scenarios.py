"""Outrage!'s table refreshed in place shows exactly what a screen drawn afresh from the
same Table shows (tests/ui/outrage/test_refresh_ui.py; issue 34): after a throw, a move,
its undo and another move, the live screen's words and board picture are compared with those of a
new screen bound to the same Table (tests/ui/fresh_screen.py)."""
from __future__ import annotations

from typing import Any, Iterator

from tests.ui.fresh_screen import drop_twin, fresh_twin, picture, settle_twin, table_words
from tests.ui.outrage.positions import SEATS, heist
from tests.ui.outrage.scenarios import _confirm, _screen, _settle, _tap, _tap_square, _throw


def _same_as_fresh(d: Any, step: str) -> Iterator[float]:
    live = _screen(d)
    twin = fresh_twin(live)
    try:
        yield from settle_twin(twin, live)
        words, fresh_words = table_words(live), table_words(twin)
        diff = [f"{a!r} != {b!r}" for a, b in zip(words, fresh_words) if a != b]
        d.check(len(words) == len(fresh_words) and not diff, f"{step}: the words differ from a fresh screen's: {diff[:4]}")
        board, fresh = live.ids.board, twin.ids.board
        d.check(tuple(board.size) == tuple(fresh.size), f"{step}: the boards' sizes differ: {board.size} {fresh.size}")
        shown = picture(board.canvas, board.x, board.y)
        drawn = picture(fresh.canvas, fresh.x, fresh.y)
        diff = [f"{a} != {b}" for a, b in zip(shown, drawn) if a != b]
        d.check(len(shown) == len(drawn) and not diff,
                f"{step}: the board differs from a fresh one's ({len(shown)} vs {len(drawn)} instructions): {diff[:4]}")
        d.note(f"{step}: {len(words)} words, {len(shown)} board instructions alike")
    finally:
        drop_twin(twin)


def _undo(d: Any) -> Iterator[float]:
    ply = d.app.table.ply
    d.tap(_screen(d).ids.undo)
    yield from _confirm(d)
    yield from _settle(d, since=ply)
    d.check(d.app.table.ply < ply, "the undo took the last action back")


def outrage_in_place(d: Any) -> Iterator[float]:
    """Six seats, Ann in the Bloody Tower: her double gets her out (the reachable squares
    outlined), she moves six squares on (her piece leaves its square), the move is undone
    and she moves again by a tap on the board; the screen matches a fresh one at every
    step."""
    options, position = heist()
    d.app.new_game("outrage", SEATS, options, seed=3, position=position)
    scr = _screen(d)
    yield from _settle(d)
    yield 0.3
    yield from _same_as_fresh(d, "start")
    yield from _throw(d, 3, 3)
    d.check(any(c.reachable for c in scr.ids.board._cells), "the throw outlines the squares Ann can end on")
    yield from _same_as_fresh(d, "thrown")
    yield from _tap(d, "→ Inner Ward row 15 column 2", scr.ids.actions)
    yield from _confirm(d)
    yield from _settle(d)
    yield from _same_as_fresh(d, "moved")
    yield from _undo(d)
    yield from _same_as_fresh(d, "move undone")
    # The move again, by a tap on its square on the board this time.
    square = next(c.id for c in scr.ids.board._cells if c.reachable and c.id != "i15-02")
    yield from _tap_square(d, square)
    yield from _confirm(d)
    yield from _settle(d)
    d.check(not any(c.reachable for c in scr.ids.board._cells), f"moved to {square}: no square outlined")
    yield from _same_as_fresh(d, "moved again")
