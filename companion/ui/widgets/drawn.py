"""Stop drawing a widget that is hidden, without taking it out of the widget tree.

Kivy draws a widget of opacity 0 (or one moved off screen) at full cost in every frame;
in software GL the hidden overlays of a table screen (privacy gate, log, banner) were a
good part of each frame. :func:`set_drawn` takes the widget's canvas out of its parent's
canvas while it is hidden and puts it back in its place (its stacking order among its
siblings) when it shows again; its ids, bindings and layout are untouched."""
from __future__ import annotations

from typing import Any

from kivy.clock import Clock


def is_drawn(widget: Any) -> bool:
    parent = widget.parent
    return parent is not None and parent.canvas.indexof(widget.canvas) != -1


def set_drawn(widget: Any, drawn: bool) -> None:
    """Draw ``widget`` (in its parent's main canvas) or not."""
    parent = widget.parent
    if parent is None or drawn == is_drawn(widget):
        return
    canvas = parent.canvas
    if not drawn:
        canvas.remove(widget.canvas)
        return
    # Siblings before it in ``children`` are drawn after it (children[0] is on top):
    # go just below the nearest of them that is drawn.
    siblings = parent.children
    above = [c.canvas for c in siblings[:siblings.index(widget)] if canvas.indexof(c.canvas) != -1]
    if above:
        canvas.insert(canvas.indexof(above[-1]), widget.canvas)
    else:
        canvas.add(widget.canvas)


def draw_when(widget: Any, prop: str, shown: Any = bool) -> None:
    """Keep ``widget`` drawn exactly while ``shown(widget.<prop>)`` is true; also once it
    has a parent (the parent adds the canvas after ``on_parent``, so that waits a frame)."""
    def sync(*_a: Any) -> None:
        set_drawn(widget, bool(shown(getattr(widget, prop))))

    widget.fbind(prop, sync)
    widget.fbind("parent", lambda *_a: Clock.schedule_once(sync, -1))
