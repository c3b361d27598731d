"""Outrage!'s seat choice in the setup wizard, in a real window (tests/ui/outrage/test_seats_ui.py):
2–4 seats by default (the box equips four: RULINGS S-04), 5 and 6 only once the table says
it brings its own pieces and coins, which the seats page offers beside the count."""
from __future__ import annotations

import json
from typing import Any, Iterator

from tests.ui.scenarios import settle

OWN_PIECES = "We bring our own pieces and coins for a 5th and 6th player."


def _counts(d: Any, scr: Any) -> list[str]:
    """The seat counts offered: the toggles of the seat-count group, as shown."""
    from companion.ui.widgets.base import TCToggle

    return sorted((w.text for w in d.walk(scr.ids.content) if isinstance(w, TCToggle) and w.group == "seat-count"),
                  key=int)


def _option(d: Any, scr: Any, label: str) -> Any:
    from companion.ui.widgets.base import TCToggle

    return next(w for w in d.walk(scr.ids.content)
                if isinstance(w, TCToggle) and w.group == "opt-own_pieces" and w.text.startswith(label))


def outrage_seats_wizard(d: Any) -> Iterator[float]:
    from tests.ui.layout_check import check_layout

    problems: list[str] = []
    scale = int(d.app.theme.scale * 100)
    d.app.go("setup")
    yield from settle(d)
    scr = d.app.sm.get_screen("setup")
    d.tap(d.find("Outrage!", root=scr))
    yield 0.3
    d.tap("Next →")
    yield 0.4
    d.check(scr.step_title.endswith("Players and seats"), f"on the seats page: {scr.step_title}")
    d.check(_counts(d, scr) == ["2", "3", "4"], f"the box's seats by default: {_counts(d, scr)}")
    note = d.find("The box holds pieces and coins for 4 players", root=scr)
    d.check(d.is_visible(note), "the reason for no 5th seat shows")
    d.check(" ".join(d.texts(scr.ids.content)).count("The box holds") == 1, "the reason is said once, not per count")
    d.check(d.is_visible(d.find(OWN_PIECES, root=scr)), "the house rule shows beside the count")
    shown = " ".join(d.texts(scr.ids.content))
    d.check("own_pieces" not in shown and "S-04" not in shown and "RULINGS" not in shown,
            f"no option ids or ruling codes: {shown[:300]!r}")
    problems += [f"seats-box: {p}" for p in check_layout(scr)]
    d.shot(f"outrage-seats-box-{scale}")

    d.tap(_option(d, scr, "Yes"))
    yield 0.4
    d.check(_counts(d, scr) == ["2", "3", "4", "5", "6"], f"with own pieces: {_counts(d, scr)}")
    d.check(not d.has("The box holds pieces and coins", scr), "no refusal left to explain")
    d.tap(d.find("6", root=scr.ids.content))
    yield 0.4
    d.check(len(scr.model.seats) == 6, f"six seats: {len(scr.model.seats)}")
    problems += [f"seats-six: {p}" for p in check_layout(scr)]
    d.shot(f"outrage-seats-six-{scale}")

    # Taking the own pieces back leaves the largest table the box equips.
    scr.ids.scroll.scroll_y = 1
    yield 0.2
    d.tap(_option(d, scr, "No"))
    yield 0.4
    d.check(_counts(d, scr) == ["2", "3", "4"] and len(scr.model.seats) == 4,
            f"back to the box: {_counts(d, scr)}, {len(scr.model.seats)} seats")
    d.tap(_option(d, scr, "Yes"))
    yield 0.4
    d.tap(d.find("5", root=scr.ids.content))
    yield 0.4

    d.tap("Next →")
    yield 0.4
    d.check(scr.step_title.endswith("House rules"), f"on the house rules: {scr.step_title}")
    d.check(not d.has(OWN_PIECES, scr), "the rule is not asked twice")
    for _ in range(4):  # clocks, devices, start
        if scr.is_last:
            break
        d.tap("Next →")
        yield 0.3
    d.check(scr.can_start, f"five seats with their own pieces start: {scr.problems}")
    d.check(any(line.startswith(OWN_PIECES) for line in scr.model.summary()), "the summary says so")
    d.shot(f"outrage-seats-start-{scale}")
    d.tap("Start the game")
    yield from settle(d, extra=0.4)
    d.check(d.app.table is not None and len(d.app.table.seats) == 5, "a five-seat game began")
    d.note(json.dumps(problems))
    d.note("outrage seats: 2-4 by default, 5-6 with own pieces")
