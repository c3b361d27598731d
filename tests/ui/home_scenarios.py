"""Home in a real window (issue 32, item 12), run by ``tests/ui/test_home_ui.py`` as
``home_scenarios:<name>``: three games in progress at 800×480 with 160 % text, and the
table told that there are more than the two it can see. Screenshots: artifacts/ui/home/."""
from __future__ import annotations

import json
from typing import Any, Iterator

from tests.ui.scenarios import SEATS


def _shown(d: Any, w: Any, view: Any) -> bool:
    """``w`` lies whole inside the scroll view ``view`` as it is scrolled now."""
    wx, wy = w.to_window(w.x, w.y)
    vx, vy = view.to_window(view.x, view.y)
    return d.is_visible(w) and wy >= vy - 1 and wy + w.height <= vy + view.height + 1


def three_in_progress(d: Any) -> Iterator[float]:
    """Three games in progress: every one is seen whole, or home says plainly, where the
    list is cut, that more are below and how many."""
    yield from _in_progress(d, 3, "three")


def six_in_progress(d: Any) -> Iterator[float]:
    """Six games in progress (more than the Pi's screen holds): home says where the list
    is cut how many are below, and stops saying it at the list's end."""
    yield from _in_progress(d, 6, "six")


def _in_progress(d: Any, n: int, name: str) -> Iterator[float]:
    from companion.table import Table
    from tests.ui.layout_check import check_layout

    app = d.app
    for seed in range(1, n + 1):
        Table.create(app.journal, game_id="tyranny", seats=SEATS, seed=seed).close()
    app.go("home")
    yield 0.6
    home = app.sm.get_screen("home")
    home.reload()
    yield 0.6
    view, box = home.ids.resume_scroll, home.ids.resume_box
    games = [w for w in box.children if "Resume" in getattr(w, "text", "")]
    d.check(len(games) == n, f"{n} games listed: {len(games)}")
    hidden = [g for g in games if not _shown(d, g, view)]
    hint = home.ids.resume_more
    if hidden:
        d.check(d.is_visible(hint) and f"{len(hidden)} more" in hint.text and "below" in hint.text,
                f"{len(hidden)} game(s) out of sight, and the hint says so: {hint.text!r} (shown: {d.is_visible(hint)})")
        d.check(hint.texture_size[1] <= hint.height + 1, f"the hint is whole: {hint.texture_size} in {hint.size}")
    problems = check_layout(home)
    d.shot(f"home-{name}-in-progress")
    view.scroll_y = 0  # read to the end of the list: the hint goes
    yield 0.5
    d.check(all(_shown(d, g, view) for g in games[:1]), "the last game shows once scrolled")
    d.check(not home.ids.resume_more.text, f"no hint at the end of the list: {home.ids.resume_more.text!r}")
    d.shot(f"home-{name}-scrolled")
    d.note(f"out of sight before scrolling: {len(hidden)}")
    d.note(json.dumps(problems))
