"""A table screen refreshed in place against one built afresh from the same Table
(issue 34: a tap rebuilds only what changed, never at the cost of a stale screen).

A game's ``draw_table`` keeps its widgets and drawings and changes only what differs from
what it showed. :func:`fresh_twin` makes a second screen of the same class and size and
binds it to the live screen's Table, so it draws everything once from nothing; a scenario
then compares what the two show: :func:`table_words` (every text of the table's own
widgets, in the widget tree's order), :func:`picture` (a canvas's drawing instructions
and what they draw), or :func:`differences` (widget by widget under chosen ids, in
drawing order: what each says and how it is drawn — text, colours, rings, role, whether
disabled — and the screen's own words). An in-place update that forgot a change (a piece
left on its old square, a strip with last turn's words) makes the two differ."""
from __future__ import annotations

from typing import Any, Callable, Iterator

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


# What a widget says and how it shows it; colours are compared rounded.
SHOWN = ("text", "color", "fill", "ink", "ring", "ring_w", "disabled", "role", "state", "selected", "target",
         "base", "tint_role", "piece", "where", "index", "city_id", "key")
# What the screen itself says (its kv labels are bound to these).
SCREEN = ("turn_text", "prompt_text", "info_text", "steps_text", "score_text", "entry_text", "entering",
          "hands_text", "deck_text", "map_text", "answers_text", "act", "step_labels", "step_states", "phase_text")


def _value(v: Any) -> Any:
    if isinstance(v, float):
        return round(v, 3)
    if isinstance(v, (list, tuple)):
        return tuple(_value(x) for x in v)
    return v


def _walk(root: Any) -> Iterator[Any]:
    """Depth first, children in the order they were added (Kivy keeps them reversed)."""
    yield root
    for child in reversed(root.children):
        yield from _walk(child)


def shown(root: Any) -> list[tuple[Any, ...]]:
    """Every widget under ``root`` with text or a state: its class and what it shows."""
    out = []
    for w in _walk(root):
        said = tuple((p, _value(getattr(w, p))) for p in SHOWN if hasattr(w, p))
        if any(p in ("text", "fill", "ink") for p, _ in said):
            out.append((type(w).__name__, said))
    return out


def screen_words(screen: Any) -> dict[str, Any]:
    return {p: _value(getattr(screen, p)) for p in SCREEN if hasattr(screen, p)}


def differences(screen: Any, roots: tuple[str, ...],
                also: Callable[[Any, Any], list[str]] | None = None) -> list[str]:
    """What ``screen`` shows under its ``ids`` named in ``roots`` (and its own words) that
    a screen freshly bound to the same Table does not; empty when they agree. ``also(live,
    fresh)`` compares anything else (a drawing's instructions) while both are bound."""
    fresh = fresh_twin(screen)
    try:
        problems = []
        live_words, new_words = screen_words(screen), screen_words(fresh)
        for k in live_words:
            if live_words[k] != new_words[k]:
                problems.append(f"{k}: shown {live_words[k]!r}, fresh {new_words[k]!r}")
        for rid in roots:
            live, new = shown(screen.ids[rid]), shown(fresh.ids[rid])
            if len(live) != len(new):
                problems.append(f"{rid}: {len(live)} widgets shown, {len(new)} on a fresh screen")
            for i, (a, b) in enumerate(zip(live, new)):
                if a != b:
                    problems.append(f"{rid}[{i}]: shown {a}, fresh {b}")
        return problems + (also(screen, fresh) if also is not None else [])
    finally:
        drop_twin(fresh)
