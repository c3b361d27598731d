"""A table screen updated in place shows what a screen built afresh shows.

The table screens keep their widgets from one refresh to the next and give them only what
changed (a tap rebuilds only what changed, issue 34). An in-place update that forgot a
change would leave a stale state on the screen; :func:`differences` catches that by
binding a second screen of the same class to the same Table (its widgets all made for
this refresh) and comparing, widget by widget in drawing order, what each says and how
it is drawn (text, colours, rings, role, whether disabled).
"""
from __future__ import annotations

from typing import Any, Callable, Iterator

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


def fresh_screen(screen: Any, name: str = "fresh") -> Any:
    """A new screen of ``screen``'s class bound to its Table (not shown, not subscribed
    after the call: unbind it with ``fresh.unbind_table()``)."""
    fresh = type(screen)(name=name)
    fresh.bind_table(screen.table)
    return fresh


def differences(screen: Any, roots: tuple[str, ...],
                also: Callable[[Any, Any], list[str]] | None = None) -> list[str]:
    """What ``screen`` shows under its ``ids`` named in ``roots`` (and its own words) that
    a screen freshly bound to the same Table does not; empty when they agree. ``also(live,
    fresh)`` compares anything else (a drawing's instructions) while both are bound."""
    fresh = fresh_screen(screen)
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
        fresh.unbind_table()
