"""The card just drawn, on the table: over the middle of the board, where the decks are,
until the next action (issue 32: a card drawn from the app's deck showed only in the
log). A card that acts at once shows its name and the drawer's half for everyone; a card
kept face down shows only its back and which deck it came from, and a tap on it asks its
drawer to the privacy gate to read it. A tap on a face-up card puts it aside (it stays in
the log), so the board under it can be tapped."""
from __future__ import annotations

from typing import Any, Callable

from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from ...kvload import load_kv
from .presenter import DrawnCard


class DrawnCardView(ButtonBehavior, BoxLayout):
    title = StringProperty("")  # "Gains 8", or "Gamble card" face down
    text = StringProperty("")  # the drawer's half, or who keeps it
    who = StringProperty("")  # "drawn by Ann"
    hint = StringProperty("")  # what a tap does
    public = BooleanProperty(True)
    deck = StringProperty("")
    # While a move is awaited (Gamble 6's "move forward to any tile within 6 tiles") the
    # card shrinks into the square the tiles leave free: the highlighted tiles stay seen.
    compact = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        self.card: DrawnCard | None = None
        self._area: Any = None  # set before the kv rule lays it out (on_height places it)
        super().__init__(**kw)
        self.on_peek: Callable[[str], Any] | None = None  # opens the drawer's hand behind the gate

    def show_over(self, host: Any, area: Any, card: DrawnCard, index: int = 0, compact: bool = False) -> None:
        """Put ``card`` on ``host`` (at ``index`` among its children: under what must stay
        above it), centred over ``area`` (the board)."""
        self.card, self._area = card, area
        self.title, self.text, self.public, self.deck = card.title, card.text, card.public, card.deck
        self.compact = compact
        self.who = f"drawn by {card.who}"
        self.hint = "Tap to put it aside." if card.public else f"{card.who}: tap here to read it behind the privacy gate."
        if self.parent is None:
            host.add_widget(self, index=index)
        self.place()

    def place(self, *_a: Any) -> None:
        area = self._area
        if area is None or self.parent is None:
            return
        free = getattr(area.ids.get("centre"), "width", 0) if hasattr(area, "ids") else 0
        self.width = free if self.compact and free else min(max(area.width * 0.78, 1), self.parent.width - 16)
        self.center_x, self.center_y = area.center_x, area.center_y

    def on_compact(self, *_a: Any) -> None:
        self.place()

    def on_height(self, *_a: Any) -> None:
        self.place()  # its text laid out: centre it again

    def on_release(self) -> None:
        card = self.card
        if card is not None and not card.public and self.on_peek is not None:
            self.on_peek(card.seat)
        else:
            self.hide()

    def hide(self) -> None:
        self.card = None
        if self.parent is not None:
            self.parent.remove_widget(self)


load_kv(__file__, "drawn_card.kv")
