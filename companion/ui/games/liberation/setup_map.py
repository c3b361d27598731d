"""Liberation's part of the setup wizard: a fixed map (the table's saved map, chosen by
default once there is one; until then the labelled placeholder, with the question "enter
your printed map first?" and why; a way to enter a new map or correct the chosen one) or the map
cards arranged this game (RULINGS L-15: per quadrant the card, its side and its turn, as the
table laid them out, or shuffled by the app). Called by the wizard's house-rules step
(``SETUP`` in this package's ``__init__``); the model is :mod:`.map_cards`."""
from __future__ import annotations

from typing import Any

import random

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.stacklayout import StackLayout

from rules.liberation import default_missions
from rules.liberation.missions import MissionsError, default_missions_data, parse_missions_cached

from ...widgets.base import TCButton, TCLabel, TCToggle
from .card_entry_screen import open_card_entry
from .map_cards import CardsChoice, card_sets, quadrant_words
from .map_entry import default_choice, map_choices
from .map_entry_screen import open_map_entry, user_folder
from .missions_entry import load_saved
from .missions_entry_screen import open_missions_entry

FIXED, CARDS = "fixed", "cards"


def add_map_choice(screen: Any, box: Any) -> None:
    """Add the map choice to the setup wizard's ``box``; the choice sets ``options["map"]``."""
    theme = App.get_running_app().theme
    model = screen.model.__dict__  # kept with this game's setup choices, rebuilt with them
    mode = model.setdefault("liberation_map_mode", FIXED)
    box.add_widget(TCLabel(text="The map: a fixed map, or your four map cards laid out this game (shuffled, flipped and turned)."))
    row = StackLayout(spacing=dp(6), size_hint_y=None)
    row.bind(minimum_height=row.setter("height"))
    for value, text in ((FIXED, "▦ A fixed map"), (CARDS, "⊞ Map cards arranged this game")):
        b = TCToggle(text=text, group="liberation-map-mode", state="down" if mode == value else "normal",
                     allow_no_selection=False, size_hint=(None, None)).fit(dp(220), dp(52))
        b.bind(on_release=lambda _b, value=value: _mode(screen, value))
        row.add_widget(b)
    box.add_widget(row)
    if mode == CARDS:
        _add_cards(screen, box)
    else:
        screen.model.blockers = []  # a fixed map is checked by the engine itself
        _add_fixed(screen, box)
    _add_missions(screen, box)


def _mode(screen: Any, mode: str) -> None:
    model = screen.model.__dict__
    if model.get("liberation_map_mode") == mode:
        return
    model["liberation_map_mode"] = mode
    if mode == CARDS:
        cards = _cards(screen)
        if not cards.problems():
            screen.model.options["map"] = cards.option()
    else:
        from rules.liberation import placeholder_data

        screen.model.options["map"] = placeholder_data()
        screen.model.blockers = []
    y = screen.ids.scroll.scroll_y
    screen.show_step(screen.model.step)
    screen.ids.scroll.scroll_y = y


def _cards(screen: Any) -> CardsChoice:
    model = screen.model.__dict__
    if "liberation_cards" not in model:
        model["liberation_cards"] = CardsChoice(card_sets(user_folder(App.get_running_app()).parent))
    return model["liberation_cards"]


def _add_cards(screen: Any, box: Any) -> None:
    theme = App.get_running_app().theme
    cards = _cards(screen)
    if len(cards.sets) > 1:
        row = StackLayout(spacing=dp(6), size_hint_y=None)
        row.bind(minimum_height=row.setter("height"))
        for cs in cards.sets:
            b = TCToggle(text=("⚠ " if cs.placeholder else "⊞ ") + cs.name, group="liberation-card-set",
                         state="down" if cs is cards.card_set else "normal", allow_no_selection=False,
                         size_hint=(None, None), font_size=theme.fs_small).fit(dp(260), dp(52), dp(420))
            b.bind(on_release=lambda _b, cs=cs: (cards.choose_set(cs.id), _changed(screen)))
            row.add_widget(b)
        box.add_widget(row)
    tools = StackLayout(spacing=dp(6), size_hint_y=None)
    tools.bind(minimum_height=tools.setter("height"))
    enter = TCButton(text="✎ Enter our map cards…", size_hint=(None, None)).fit(dp(220), dp(52))
    enter.bind(on_release=lambda _b: _enter_cards(screen, None))
    tools.add_widget(enter)
    if not cards.card_set.placeholder:
        fix = TCButton(text="✎ Correct these cards…", size_hint=(None, None)).fit(dp(220), dp(52))
        fix.bind(on_release=lambda _b: _enter_cards(screen, cards.card_set))
        tools.add_widget(fix)
    box.add_widget(tools)
    box.add_widget(TCLabel(text="Lay your map cards out, then tell the app, quadrant by quadrant: tap the card to change it, "
                                "⇆ to flip it, ↻ to turn it a quarter clockwise (the way its top edge points is shown).",
                           font_size=theme.fs_small))
    grid = GridLayout(cols=2, spacing=dp(6), size_hint_y=None)
    grid.bind(minimum_height=grid.setter("height"))
    buttons: dict[str, Any] = {}
    for cell in cards.cells():
        q = cell.quadrant
        panel = BoxLayout(orientation="vertical", spacing=dp(4), size_hint_y=None, height=dp(150))
        panel.add_widget(TCLabel(text=f"{quadrant_words(q)}  {cell.arrow}", size_hint_y=None, height=dp(26),
                                 font_size=theme.fs_small, color=theme.muted))
        card = TCButton(text=cell.text, font_size=theme.fs_small)
        card.bind(on_release=lambda _b, q=q: (cards.cycle_card(q), _changed(screen)))
        panel.add_widget(card)
        tools = BoxLayout(spacing=dp(4), size_hint_y=None, height=dp(50))
        flip = TCButton(text="⇆ Flip", font_size=theme.fs_small)
        flip.bind(on_release=lambda _b, q=q: (cards.flip(q), _changed(screen)))
        turn = TCButton(text="↻ Turn", font_size=theme.fs_small)
        turn.bind(on_release=lambda _b, q=q: (cards.turn(q), _changed(screen)))
        tools.add_widget(flip)
        tools.add_widget(turn)
        panel.add_widget(tools)
        buttons[q] = (card, panel.children[-1], flip, turn)
        grid.add_widget(panel)
    box.add_widget(grid)
    shuffle = TCButton(text="⇄ Shuffle for us", size_hint=(None, None)).fit(dp(220), dp(52))
    shuffle.bind(on_release=lambda _b: (cards.shuffle(_rng(screen)), _changed(screen)))
    box.add_widget(shuffle)
    status = TCLabel(text="", font_size=theme.fs_small)
    box.add_widget(status)
    screen.__dict__["_liberation_cards_view"] = (buttons, status)
    _changed(screen)


def _rng(screen: Any) -> random.Random:
    """The app's randomness for the layout: the game's seed when one was given (a demo or a
    test replays the same layout), the system's otherwise."""
    seed = screen.model.seed
    return random.Random(f"liberation-map-cards:{seed}") if seed is not None else random.Random()


def _changed(screen: Any) -> None:
    """After a tap: the composed map becomes the game's option; the picture and the status
    line are updated in place (the page keeps its scroll)."""
    cards = _cards(screen)
    buttons, status = screen.__dict__.get("_liberation_cards_view", ({}, None))
    for cell in cards.cells():
        if cell.quadrant in buttons:
            card, label = buttons[cell.quadrant][:2]
            card.text = cell.text
            label.text = f"{quadrant_words(cell.quadrant)}  {cell.arrow}"
    problems = cards.problems()
    theme = App.get_running_app().theme
    if problems:
        # Start stays off until the layout makes a map the engine can play (L-15), and
        # the wizard's footer says why, beside this line.
        screen.model.blockers = ["These map cards laid out this way make no playable map: " + p for p in problems[:2]]
        text = "✖ These cards laid out this way make no playable map: " + " ".join(problems[:2])
        color = theme.warn
    else:
        screen.model.blockers = []
        screen.model.options["map"] = cards.option()
        how = "shuffled by the app" if cards.shuffled_by_app else "as entered"
        text = f"✔ The map this game ({how}): {cards.describe()}."
        if cards.card_set.placeholder:
            text += "\n⚠ These map cards are made up (the printed cards were never published): use them to try the game."
        color = theme.warn if cards.card_set.placeholder else theme.muted
    if status is not None:
        status.text = text
        status.color = color
    screen._check()


def _enter_cards(screen: Any, card_set: Any) -> None:
    """The card-set entry; the set saved there becomes the one in use (back here, with
    every other choice kept)."""
    def saved(cs: Any) -> None:
        screen.model.__dict__["liberation_cards"] = CardsChoice(card_sets(user_folder(App.get_running_app()).parent), cs.id)

    screen.keep_once = True
    open_card_entry(card_set, on_saved=saved)


def _add_fixed(screen: Any, box: Any) -> None:
    theme = App.get_running_app().theme
    folder = user_folder(App.get_running_app())
    choices = map_choices(folder)
    model = screen.model.__dict__
    current = (screen.model.options.get("map") or {}).get("id", "placeholder")
    if not model.get("liberation_map_picked") and current == choices[-1].id:
        # A new game plays on the table's saved map without asking (the placeholder is
        # the engine's default only until the printed map is entered).
        first = default_choice(folder)
        screen.model.options["map"] = first.option
        current = first.id
    chosen = next((c for c in choices if c.id == current), choices[-1])
    if len(choices) == 1:
        _ask_for_the_printed_map(screen, box)
    box.add_widget(TCLabel(text="The map in use: the 14 cities and the lines between them. Enter your printed map once; it is saved for next time."))
    row = StackLayout(spacing=dp(6), size_hint_y=None)
    row.bind(minimum_height=row.setter("height"))
    for c in choices:
        b = TCToggle(text=c.label, group="liberation-map", state="down" if c is chosen else "normal", allow_no_selection=False,
                     size_hint=(None, None), size=(dp(300), dp(52)), font_size=theme.fs_small)
        b.bind(on_release=lambda _b, c=c: _choose(screen, c.option))
        row.add_widget(b)
    new = TCButton(text="✎ Enter a new map…", size_hint=(None, None), size=(dp(220), dp(52)))
    new.bind(on_release=lambda _b: _enter(screen, None))
    row.add_widget(new)
    edit = TCButton(text="✎ Copy the placeholder…" if chosen.spec.placeholder else "✎ Correct this map…",
                    size_hint=(None, None), size=(dp(220), dp(52)))
    edit.bind(on_release=lambda _b: _enter(screen, chosen.spec))
    row.add_widget(edit)
    box.add_widget(row)
    if chosen.spec.placeholder:
        box.add_widget(TCLabel(text="⚠ The placeholder map is invented (the printed map was never published): use it to try the game.",
                               color=theme.warn, font_size=theme.fs_small))


ASK = "Your first game of Liberation: enter your printed map first?"
WHY = ("The app checks every move against the map you play on: which cities an Attack can reach, where the base "
       "can Evade to, how many steps a referee question counts. So it needs your board's 14 cities and the lines "
       "between them. You enter them once; they are saved, and every later game uses them without asking.")


def _ask_for_the_printed_map(screen: Any, box: Any) -> None:
    """The table's first Liberation game (no map saved yet): ask for the printed map and
    say why, at the top of the step, where it is read first (the placeholder stays below
    for a table that only wants to try the game). Once entered the map is saved, and later
    games use it without asking."""
    theme = App.get_running_app().theme
    title = TCLabel(text=ASK)
    title.bold, title.color = True, theme.highlight  # after the class's kv rule, which sets them from the theme
    why = TCLabel(text=WHY)
    why.font_size = theme.fs_small
    ask = TCButton(text="✎ Enter our printed map…", role="primary", size_hint=(None, None)).fit(dp(260), dp(56))
    ask.bind(on_release=lambda _b: _enter(screen, None))
    for w in (ask, why, title):  # each goes on top of the step: the title ends first
        box.add_widget(w, index=len(box.children))


def _choose(screen: Any, option: dict[str, Any]) -> None:
    screen.model.__dict__["liberation_map_picked"] = True  # the table's choice stands, the placeholder too
    screen.model.options["map"] = option
    screen._check()


def _enter(screen: Any, spec: Any) -> None:
    from rules.liberation import dump_map

    def saved(new_spec: Any) -> None:
        screen.model.__dict__["liberation_map_picked"] = True
        screen.model.options["map"] = dump_map(new_spec)  # the new map is the one in use

    screen.keep_once = True
    open_map_entry(spec, on_saved=saved)


def _add_missions(screen: Any, box: Any) -> None:
    """The missions table this game plays with (the ``missions`` option): the table's saved
    one without asking once it has saved one, else the box's defaults; and the page where
    the table copies its City cards' missions (RULINGS L-10)."""
    theme = App.get_running_app().theme
    user_data = user_folder(App.get_running_app()).parent
    model = screen.model.__dict__
    saved, why = load_saved(user_data)
    if not model.get("liberation_missions_picked") and saved is not None:
        screen.model.options["missions"] = saved
    try:
        ours = parse_missions_cached(screen.model.options.get("missions") or default_missions_data()) != default_missions()
    except MissionsError:  # the engine's setup check refuses it and the footer says why
        ours = True
    box.add_widget(TCLabel(text="The missions: " + (
        "your own missions table, as you entered it from your City cards." if ours else
        "the box's defaults (the rulebook prints no mission words or costs): enter yours from your City cards.")))
    if why:
        box.add_widget(TCLabel(text="⚠ " + why, color=theme.warn, font_size=theme.fs_small))
    b = TCButton(text="★ Missions…", size_hint=(None, None)).fit(dp(220), dp(52))
    b.bind(on_release=lambda _b: _enter_missions(screen, user_data))
    box.add_widget(b)


def _enter_missions(screen: Any, user_data: Any) -> None:
    def saved(option: dict[str, Any]) -> None:
        screen.model.__dict__["liberation_missions_picked"] = True
        screen.model.options["missions"] = option  # the table just saved is the one in use

    screen.keep_once = True
    open_missions_entry(user_data, screen.model.options.get("missions"), on_saved=saved)
