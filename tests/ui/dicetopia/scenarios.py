"""Dicetopia UI scenarios, run by ``tests/ui/dicetopia/test_app.py`` through the shared
driver as ``dicetopia.scenarios:<name>`` (each in its own process, under Xvfb)."""
from __future__ import annotations

import json
from typing import Any, Iterator

from tests.ui.liberation.scenarios import _find, _hold_gate
from tests.ui.scenarios import settle

SEATS = [{"id": "ann", "faction": "banxa", "name": "Ann"}, {"id": "bob", "faction": "hollows", "name": "Bob"}]


def _screen(d: Any) -> Any:
    return d.app.sm.get_screen("game:dicetopia")


def _tap(d: Any, text: str) -> Iterator[float]:
    w = _find(d, text)
    for _ in range(40):
        if (w.width != 100 or w.height != 100) and d.is_visible(w):
            break
        yield 0.05
        w = _find(d, text)
    d.tap(w)
    yield 0.16
    yield from settle(d)


def _cell(d: Any, where: str, index: int) -> Any:
    from companion.ui.games.dicetopia.screen import DCell

    scr = _screen(d)
    for w in d.walk(scr.ids.board):
        if isinstance(w, DCell) and w.where == where and int(w.index) == index:
            return w
    raise AssertionError(f"no cell {where} {index}")


def _tap_cell(d: Any, where: str, index: int) -> Iterator[float]:
    w = _cell(d, where, index)
    scr = _screen(d)
    scr.ids.board.scroll_to(w, padding=10, animate=False)
    yield 0.1
    d.tap(w)
    yield 0.1
    yield from settle(d)


def dicetopia_look(d: Any) -> Iterator[float]:
    from tests.ui.layout_check import check_layout

    app = d.app
    app.new_game("dicetopia", SEATS, {"first": "ann"}, seed=5)
    yield from settle(d)
    d.shot("dt-roll")
    app.table.roll_for_me()
    yield from settle(d)
    for _ in range(6):
        app.table.roll_for_me()
    yield from settle(d)
    yield 0.5
    d.shot("dt-keep")
    d.note(json.dumps([str(p) for p in check_layout(_screen(d))]))
