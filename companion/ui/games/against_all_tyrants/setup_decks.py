"""Against All Tyrants' part of the setup wizard: the deck each side plays (an example
deck, labelled as made for trying the rules, or one of the table's saved decks), what the
book says of its alternate objective, every deck-construction problem with its section,
and the way to the table's card editor and deck builder. Called by the wizard's
house-rules step (``SETUP`` in this package's ``__init__``); the logic is :mod:`.library`."""
from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.stacklayout import StackLayout

from . import cardfiles
from ...widgets.base import TCButton, TCLabel, TCToggle
from .library import deck_choices, deck_notes, default_choice
from .library_screen import open_library, user_folder
from .presenter import ROLE


def add_setup(screen: Any, box: Any) -> None:
    """Add each side's deck choice to the wizard's ``box``: it sets the game's
    ``attacker_deck`` / ``defender_deck`` options, and ``cards`` to the table's own cards."""
    app = App.get_running_app()
    theme = app.theme
    folder = user_folder(app)
    choices = deck_choices(folder)
    opts = screen.model.options
    opts["cards"] = cardfiles.library(folder)
    seats = {s["faction"]: s.get("name") for s in getattr(screen.model, "seats", []) if s.get("name")}
    for role in ("attacker", "defender"):
        f = ROLE[role]
        key = f"{role}_deck"
        current = next((c for c in choices if c.option == opts.get(key)), None) or default_choice(choices, role)
        opts[key] = current.option
        who = f"{seats[role]} — " if role in seats else ""
        base = "base in Space" if role == "attacker" else "base Planetside, plays first"
        box.add_widget(TCLabel(text=f"{f.glyph} {who}{f.name}'s deck ({base}):", font_size=theme.fs_body, color=theme.text))
        row = StackLayout(spacing=dp(6), size_hint_y=None)
        row.bind(minimum_height=row.setter("height"))
        for c in choices:
            b = TCToggle(text=c.label, group=f"aat-{role}-deck", state="down" if c is current else "normal",
                         allow_no_selection=False, size_hint=(None, None), font_size=theme.fs_small).fit(dp(240), dp(52), dp(560))
            b.bind(on_release=lambda _b, c=c, key=key: _choose(screen, key, c.option))
            row.add_widget(b)
        box.add_widget(row)
        for note in deck_notes(current, role, opts["cards"]):
            box.add_widget(TCLabel(text=note, font_size=theme.fs_small,
                                   color=theme.bad if note.startswith("✖") else (theme.warn if note.startswith("⚠") else theme.muted)))
    edit = TCButton(text="✎ Our cards and decks…", size_hint=(None, None)).fit(dp(240), dp(52))
    edit.bind(on_release=lambda _b: _open(screen))
    box.add_widget(edit)


def _choose(screen: Any, key: str, option: Any) -> None:
    screen.model.options[key] = option
    screen.show_step(screen.model.step)  # the notes under each deck follow the choice
    screen._check()


def _open(screen: Any) -> None:
    screen.keep_once = True  # back in the wizard with every choice kept
    open_library("card")
