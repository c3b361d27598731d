"""Every game's table screen at the Pi's size, 800×480 with 160 % text (issue 32, item 6),
run by ``tests/ui/test_layout_pi.py`` as ``layout_pi_scenarios:<game>``: at a few moments
of each game (its start, a throw asked, a choice with many buttons, a refusal's banner
showing) the whole layout check (tests/ui/layout_check.py, nested scrolling and broken
words included) and the "what a player needs to act is on screen" check
(``check_visible(act_elements(screen))``). Each problem is a note line; the last note is
the JSON list the test expects empty. Screenshots: artifacts/ui/pi/pi-<game>-<moment>."""
from __future__ import annotations

import dataclasses
import json
from typing import Any, Iterator

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")


def _screen(d: Any) -> Any:
    return d.app.sm.current_screen


def _settle(d: Any, extra: float = 0.4) -> Iterator[float]:
    """Until the screen has drawn the Table's latest ply and its layout has followed."""
    for _ in range(120):
        scr = _screen(d)
        if d.app.table is None or getattr(scr, "shown_ply", -2) == d.app.table.ply and not (
                getattr(scr, "recording", False) or scr._refresh_trigger.is_triggered):
            break
        yield 0.05
    yield extra


def _moment(d: Any, game: str, moment: str, problems: list[str]) -> None:
    from tests.ui.layout_check import act_elements, check_layout, check_visible

    scr = _screen(d)
    found = [str(p) for p in check_layout(scr)] + [str(p) for p in check_visible(scr, act_elements(scr))]
    problems += [f"{game} {moment}: {p}" for p in found]
    d.shot(f"pi-{game}-{moment}")


def _refused(d: Any) -> Iterator[float]:
    """A real refusal on the banner: the first legal action, tapped for a seat that is not
    to act (the rules' own words and section), else an undo with nothing to undo."""
    table, scr = d.app.table, _screen(d)
    others = [s["id"] for s in table.seats if s["id"] not in table.prompt.actors]
    action = next((a for a in table.legal_actions() if hasattr(a, "seat")), None)
    if action is not None and others:
        scr.submit(dataclasses.replace(action, seat=others[0]), "that", confirmed=True)
    if scr.ids.banner.shown == 0 and scr.ids.banner.opacity == 0 and not scr.ids.banner.message:
        scr.undo()
    for _ in range(40):
        if scr.ids.banner.shown >= 1:
            break
        yield 0.05
    d.check(scr.ids.banner.message, f"a refusal is on the banner (ply {table.ply})")
    yield 0.3


def _seats(game_id: str, n: int) -> list[dict[str, str]]:
    import itertools

    import rules

    factions = rules.load(game_id).factions
    return [{"id": f"{f}-{i}", "faction": f, "name": NAMES[i - 1]}
            for i, f in zip(range(1, n + 1), itertools.cycle(factions))]


def _to_choices(d: Any, most: int = 12) -> Iterator[float]:
    """Play on by the Table (the app's dice, the first legal action), as the taps would,
    until the action panel offers a choice of several buttons."""
    table = d.app.table
    for _ in range(most):
        yield from _settle(d, 0.2)
        if len(_screen(d).ids.actions.buttons) >= 2 or table.outcome is not None:
            break
        legal = [a for a in table.legal_actions() if a.seat in table.prompt.actors and not a.chance]
        if legal:
            table.submit(legal[0])
        else:
            table.roll_for_me()
    yield from _settle(d, 0.8)
    d.check(len(_screen(d).ids.actions.buttons) >= 2, "a choice of several buttons came up")


def tyranny(d: Any) -> Iterator[float]:
    from companion.clocks import presets

    problems: list[str] = []
    d.app.new_game("tyranny", _seats("tyranny", 4), {}, seed=3, clocks=presets()["Blitz 5+3"])
    yield from _settle(d, 0.8)
    _moment(d, "tyranny", "start-throw", problems)  # the first move's roll is asked at once
    yield from _to_choices(d)
    _moment(d, "tyranny", "choices", problems)
    yield from _refused(d)
    _moment(d, "tyranny", "banner", problems)
    d.note(json.dumps(problems))


def outrage(d: Any) -> Iterator[float]:
    from companion.clocks import presets
    from tests.ui.outrage.positions import SEATS, heist

    problems: list[str] = []
    d.app.new_game("outrage", _seats("outrage", 4), {}, seed=3, clocks=presets()["Blitz 5+3"])
    yield from _settle(d, 0.8)
    _moment(d, "outrage", "start", problems)
    options, position = heist()
    d.app.new_game("outrage", SEATS, options, seed=3, position=position)
    yield from _settle(d, 0.8)
    _moment(d, "outrage", "throw", problems)
    for _ in range(4):  # the app's dice until a throw lets someone move: a button per square
        if not _screen(d).ids.dice.is_awaiting:
            break
        d.app.table.roll_for_me()
        yield from _settle(d, 0.3)
    yield from _settle(d, 0.8)
    _moment(d, "outrage", "moves", problems)
    yield from _refused(d)
    _moment(d, "outrage", "banner", problems)
    d.note(json.dumps(problems))


def liberation(d: Any) -> Iterator[float]:
    from companion.clocks import presets

    from tests.ui.game_scenarios import LIB_SEATS

    problems: list[str] = []
    canadian = next(v for k, v in presets().items() if "anadian" in k)
    d.app.new_game("liberation", LIB_SEATS, {}, seed=3, clocks=canadian)
    yield from _settle(d, 0.8)
    _moment(d, "liberation", "start", problems)
    # Through the setup by the Table (as the taps would), to the first turn's action list.
    table = d.app.table
    for _ in range(40):
        if table.view().get("phase") == "step2":  # the action list: a choice of many buttons
            break
        legal = [a for a in table.legal_actions() if a.seat in table.prompt.actors and not a.chance]
        if legal:
            table.submit(legal[0])
        else:
            table.roll_for_me()  # a deal by the app's deck
    yield from _settle(d, 0.8)
    _moment(d, "liberation", "actions", problems)
    yield from _refused(d)
    _moment(d, "liberation", "banner", problems)
    d.note(json.dumps(problems))


def dicetopia(d: Any) -> Iterator[float]:
    from companion.clocks import presets
    from tests.ui.dicetopia.scenarios import _first_die, _to_turns

    problems: list[str] = []
    seats = [{"id": f"{f}-1", "faction": f, "name": n} for f, n in
             (("dangmer", "Dana"), ("bingmai", "Bea"), ("centauri", "Cy"), ("roamers", "Rui"))]
    d.app.new_game("dicetopia", seats, {"first": "dangmer-1"}, seed=8, clocks=presets()["Blitz 5+3"])
    yield from _settle(d, 0.8)
    _moment(d, "dicetopia", "start", problems)
    yield from _to_turns(d)
    yield from _settle(d, 0.8)
    _moment(d, "dicetopia", "turn", problems)
    table = d.app.table
    # The Gugu Airforce's reroll of a die in the Agency: thrown on the dice tray.
    for hood in ("gugu", "agency"):
        action = _screen(d).presenter.tap(hood, _first_die(d, hood))
        d.check(action is not None, f"a tap on a die in {hood} is an action")
        table.submit(action)
        yield from _settle(d, 0.2)
    yield from _settle(d, 0.8)
    d.check(_screen(d).ids.dice.is_awaiting, "the reroll waits on the dice tray")
    _moment(d, "dicetopia", "throw", problems)
    table.roll_for_me()
    yield from _settle(d, 0.8)
    action = _screen(d).presenter.tap("waste", 0)  # an agent in Waste Management: its targets
    d.check(action is not None, "the next player may put an agent in Waste Management")
    table.submit(action)
    yield from _settle(d, 0.8)
    _moment(d, "dicetopia", "targets", problems)
    yield from _refused(d)
    _moment(d, "dicetopia", "banner", problems)
    d.note(json.dumps(problems))


def against_all_tyrants(d: Any) -> Iterator[float]:
    from companion.clocks import presets

    problems: list[str] = []
    d.app.new_game("against_all_tyrants", _seats("against_all_tyrants", 2), {}, seed=3, clocks=presets()["Blitz 5+3"])
    yield from _settle(d, 0.8)
    _moment(d, "against_all_tyrants", "start", problems)
    table = d.app.table
    for _ in range(4):  # the deals by the app's deck: each seat then keeps or mulligans
        if not any(b.text.startswith("Deal") for b in _screen(d).ids.actions.buttons):
            break
        table.roll_for_me()
        yield from _settle(d, 0.2)
    yield from _settle(d, 0.8)
    _moment(d, "against_all_tyrants", "after-deal", problems)
    yield from _refused(d)
    _moment(d, "against_all_tyrants", "banner", problems)
    d.note(json.dumps(problems))


def check_finds(d: Any) -> Iterator[float]:
    """The checks themselves, on widgets made to show each problem the game night met: a
    label too narrow for "Bingmai Gamblers" (cut inside words), a scroll area in a scroll
    area, a centred text taller than its box (the banner that lost its first line), a
    button scrolled out of its scroll area and one off the window, an element missing;
    and a label that wraps between words, or cuts a path wider than the window, which
    is no problem."""
    from kivy.core.window import Window
    from kivy.metrics import dp
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.label import Label
    from kivy.uix.scrollview import ScrollView

    from companion.ui.widgets.base import TCButton
    from tests.ui.layout_check import check_layout, check_visible

    root = BoxLayout(orientation="vertical", size_hint=(None, None), size=(Window.width, Window.height), pos=(0, 0))
    narrow = Label(text="Bingmai Gamblers decide", size_hint=(None, None), size=(dp(70), dp(200)),
                   text_size=(dp(70), None))
    wraps = Label(text="the app reads it", size_hint=(None, None), size=(dp(120), dp(120)), text_size=(dp(120), None))
    # A folder's path wider than the window: no layout keeps it whole, so cutting it is fine.
    folder = Label(text="In /media/usb-stick/" + "/".join(["a-folder-of-card-sets-for-game-night"] * 6),
                   size_hint=(None, None), size=(Window.width, dp(90)), text_size=(Window.width, None))
    limited = Label(  # the old banner: more lines than its box holds
                    text="Undo refused: there is nothing to undo. Rule: never across another seat's action, a "
                         "revealed secret or a roll everyone saw", size_hint=(None, None), size=(dp(200), dp(60)),
                    text_size=(dp(200), None), valign="middle")
    outer = ScrollView(size_hint=(1, None), height=dp(100))
    column = BoxLayout(orientation="vertical", size_hint_y=None, height=dp(252))
    inner = ScrollView(size_hint_y=None, height=dp(200))
    inner.add_widget(Label(text="x", size_hint_y=None, height=dp(400)))
    far = TCButton(text="Far down", size_hint_y=None, height=dp(52))
    column.add_widget(inner)
    column.add_widget(far)
    outer.add_widget(column)
    for w in (narrow, wraps, folder, limited, outer):
        root.add_widget(w)
    Window.add_widget(root)
    yield 0.4
    outer.scroll_y = 1
    yield 0.2
    problems = [str(p) for p in check_layout(root, kinds={"broken-word", "nested-scroll", "text-overflow"})]
    problems += [str(p) for p in check_visible(root, {"turn": None, "choices": far})]
    off = TCButton(text="Off", size_hint=(None, None), size=(dp(60), dp(52)), pos=(Window.width - dp(20), 0))
    Window.add_widget(off)  # placed by hand, reaching past the window's right edge
    yield 0.1
    problems += [str(p) for p in check_visible(off, {"dice": off})]
    Window.remove_widget(off)
    Window.remove_widget(root)
    d.note(json.dumps(problems))
