"""Showing a freshly built card in place of a shown one without replacing its widgets.

A panel that rebuilds its cards whenever what they show changes (a die's battery, the
face it shows, a phone attaching) throws away the button under a finger: a press that
began on the old button never ends on the new one, and the tap is lost. ``reconcile``
keeps every shown widget whose replacement has the same shape (the same classes, the same
number of children, all the way down) and copies over what a card's widgets say: text,
colour, role, whether disabled, an image's picture, and a button's ``act`` (what it does:
buttons built for reconciling call ``self.act()`` on release instead of binding a closure,
so the kept button does what the new card says). Sizes are not copied: labels and fitted
buttons size themselves from their text. Only a card whose shape changed (a warning line
appears, a button is added) is replaced.
"""
from __future__ import annotations

from typing import Any, Callable

from kivy.uix.image import Image

from .base import TCButton

__all__ = ["action_button", "reconcile", "same_shape"]

# What a card's widgets say; markup and wrapping are part of a widget's shape.
_SAID = ("text", "color", "disabled", "role", "font_size", "act")
_SHAPE = ("markup", "wrap", "size_hint_x", "size_hint_y")


def action_button(text: str, act: Callable[[], Any], role: str = "normal", **kw: Any) -> TCButton:
    """A button whose release calls its ``act`` attribute (which ``reconcile`` updates)."""
    b = TCButton(text=text, role=role, **kw)
    b.act = act  # type: ignore[attr-defined]
    b.bind(on_release=lambda btn: btn.act())
    return b


def same_shape(a: Any, b: Any) -> bool:
    if type(a) is not type(b) or len(a.children) != len(b.children):
        return False
    if any(getattr(a, p, None) != getattr(b, p, None) for p in _SHAPE):
        return False
    return all(same_shape(x, y) for x, y in zip(a.children, b.children))


def _copy(old: Any, new: Any) -> None:
    for p in _SAID:
        if hasattr(new, p) and hasattr(old, p):
            value = getattr(new, p)
            if getattr(old, p) != value:
                setattr(old, p, value)
    # A label's texture is rendered from its text; an image's is what it shows.
    if isinstance(old, Image) and old.texture is not new.texture:
        old.texture = new.texture
    for x, y in zip(old.children, new.children):
        _copy(x, y)


def reconcile(box: Any, cards: list[Any]) -> bool:
    """Make ``box`` show ``cards`` (in order), keeping each shown card whose new one has
    the same shape. Returns whether any widget was added or removed (then the caller lays
    the box out before the next frame)."""
    shown = list(reversed(box.children))  # Kivy keeps children last-added first
    changed = len(shown) != len(cards)
    for i, card in enumerate(cards):
        old = shown[i] if i < len(shown) else None
        if old is not None and same_shape(old, card):
            _copy(old, card)
            continue
        changed = True
        if old is not None:
            box.remove_widget(old)
        # add_widget's index counts from the end of ``children``, i.e. from the last shown.
        box.add_widget(card, index=len(box.children) - i)
    for extra in shown[len(cards):]:
        box.remove_widget(extra)
    return changed
