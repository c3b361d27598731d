"""A table screen refreshed in place against one built afresh from the same Table
(issue 34: a tap rebuilds only what changed, never at the cost of a stale screen).

A game's ``draw_table`` keeps its widgets and drawings and changes only what differs from
what it showed. :func:`fresh_twin` makes a second screen of the same class and size and
binds it to the live screen's Table, so it draws everything once from nothing; a scenario
then compares what the two show: :func:`table_words` (every text of the table's own
widgets, in the widget tree's order) and :func:`picture` (a canvas's drawing instructions
and what they draw). An in-place update that forgot a change (a piece left on its old
square, a strip with last turn's words) makes the two differ."""
from __future__ import annotations

from typing import Any, Iterator

# The shared widgets GameScreen fills from its own state (a die being entered, the
# gate's page, the log's scroll, the banner's last refusal, the action panel's spare
# buttons, a moment over the board), not from the game's draw_table.
SHARED_IDS = ("gate", "log", "banner", "dice", "actions", "clocks", "search_box")


def fresh_twin(live: Any) -> Any:
    """A new screen of ``live``'s class and size, bound to ``live``'s Table (call
    :func:`drop_twin` when done)."""
    twin = type(live)(name=f"{live.name}:fresh", game_id=live.game_id)
    twin.size = live.size
    twin.bind_table(live.table)
    return twin


def settle_twin(twin: Any, live: Any) -> Iterator[float]:
    """Lay the twin out and draw it (over the live screen, for a few frames): its
    size-dependent rules run on the clock, and a line makes its points only when drawn."""
    from kivy.core.window import Window

    Window.add_widget(twin)
    for _ in range(8):
        twin.size = live.size
        yield 0.05


def drop_twin(twin: Any) -> None:
    from kivy.core.window import Window

    twin.unbind_table()
    if twin.parent is not None:
        Window.remove_widget(twin)


def table_words(scr: Any, besides: tuple[type, ...] = ()) -> list[str]:
    """The texts of every widget of the screen but the shared ones (and those of the
    classes ``besides``: what lies on the table between two actions only, which a screen
    bound afresh cannot know), in tree order."""
    from companion.ui.widgets.moment import MomentCard

    skip = {id(scr.ids[name].__self__) for name in SHARED_IDS if name in scr.ids}  # ids hold proxies
    out: list[str] = []
    stack = [scr]
    while stack:
        w = stack.pop()
        if id(w) in skip or isinstance(w, (MomentCard, *besides)):
            continue
        text = getattr(w, "text", None)
        if isinstance(text, str) and w is not scr:
            out.append(f"{type(w).__name__}: {text}")
        stack.extend(w.children)
    return out


def picture(canvas: Any, dx: float = 0.0, dy: float = 0.0) -> list[tuple[Any, ...]]:
    """What a canvas draws, instruction by instruction (nested groups and buffers
    included): each one's kind, colour, place and size, line points, texture size.
    Positions are taken relative to (dx, dy), so two widgets at different places that
    draw the same picture compare equal."""
    from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle

    out: list[tuple[Any, ...]] = []

    def r(v: Any) -> tuple[float, ...]:
        return tuple(round(float(x), 2) for x in v)

    def walk(group: Any) -> None:
        for ins in getattr(group, "children", ()):
            kind = type(ins).__name__
            if isinstance(ins, Color):
                out.append((kind, r(ins.rgba)))
            elif isinstance(ins, (Rectangle, Ellipse, RoundedRectangle)):
                tex = ins.texture
                out.append((kind, r((ins.pos[0] - dx, ins.pos[1] - dy)), r(ins.size),
                            None if tex is None else tuple(tex.size)))
            elif isinstance(ins, Line):
                # A rectangle or circle line makes its points only when first drawn (a
                # screen off the window never is): compare what it was asked to draw.
                shape = next(((m, list(v)) for m in ("rectangle", "rounded_rectangle", "circle", "ellipse")
                              if (v := getattr(ins, m, None))), ("points", list(ins.points)))
                mode, args = shape
                at = [a - (dx if i % 2 == 0 else dy) for i, a in enumerate(args[:2])] + args[2:]
                if mode == "points":
                    at = [a - (dx if i % 2 == 0 else dy) for i, a in enumerate(args)]
                out.append((kind, mode, r(at), round(ins.width, 2), ins.dash_length, ins.dash_offset))
            walk(ins)

    walk(canvas)
    return out
