"""A Liberation mission in the real app at the Pi's size, 800×480 with 160 % text
(issue 32, item 10: missions "happened" with no visible effect). Run by
``tests/ui/liberation/test_app.py``; screenshots in artifacts/ui/liberation/."""
from __future__ import annotations

from typing import Any, Iterator

from .scenarios import SEATS, _hold_gate, _no_leak, _screen, _settle, _tap, _tap_city, _confirm, plan_mission_game

# The table typed its Deep-Space Probe card's words into its missions table (the rulebook
# prints none: RULINGS L-10); these words are made up for the test.
PROBE_TEXT = "Ask the referee whether the base is within 2 steps of a City you name."


def _whole(d: Any, label: Any) -> bool:
    """On screen, inside the window, and its text not cut (its lines fit its height)."""
    from kivy.core.window import Window

    x, y = label.to_window(label.x, label.y)
    return (d.is_visible(label) and label.texture_size[1] <= label.height + 1 and y >= 0
            and y + label.height <= Window.height and x >= 0 and x + label.width <= Window.width)


def liberation_mission_moment(d: Any) -> Iterator[float]:
    from rules.liberation import GAME, FirstCity, Pass, PlaceBase
    from rules.liberation.missions import default_missions_data

    seed, c = plan_mission_game()
    missions = default_missions_data()
    missions["categories"]["research-station"]["dynasty"]["text"] = PROBE_TEXT
    app = d.app
    app.new_game("liberation", SEATS, {"missions": missions}, seed=seed)
    yield 0.3
    scr = _screen(d)
    table = app.table
    # The deal and the placing of the first City and the base are not under test.
    while table.view()["phase"] in ("setup-discard", "deal"):
        table.roll_for_me()
    table.submit(FirstCity("dyn", c["X"]))
    table.submit(PlaceBase("lib", c["B"]))
    table.submit(Pass("dyn"))
    for _ in range(100):  # the screen redraws from the Table's changes on later frames
        if scr.shown_ply == table.ply:
            break
        yield 0.05
    yield from _settle(d)
    name = {k: GAME.map_of(table.state).name_of(v) for k, v in c.items()}
    yield from _tap(d, "occupy or mission")
    yield from _hold_gate(d)
    yield from _tap(d, f"★ Deep-Space Probe (play {name['R']}")
    yield 0.3
    d.check(scr.reveal_open, "after the mission, a moment for the whole table")
    title, text = scr.ids.reveal_title, scr.ids.reveal_text
    d.check(title.text == "★ Deep-Space Probe", f"it names the mission: {title.text!r}")
    for words in (f"The table carries out the card's effect: “{PROBE_TEXT}”", f"The Dynasty reveals {name['R']}",
                  "No cost.", "Next: its referee question, asked on the map"):
        d.check(words in text.text, f"it says {words!r}: {text.text!r}")
    d.check(_whole(d, title) and _whole(d, text) and d.is_visible(scr.ids.reveal_ok), "all of it on screen, uncut")
    d.shot("lib-mission-0-result")
    _no_leak(d, "the mission's result")
    yield from _tap(d, "Continue")
    d.check(not scr.reveal_open, "Continue puts the table back")
    yield from _tap_city(d, c["X"])
    yield from _tap(d, "within 2 steps")
    yield from _tap(d, f"? Ask: is the base within 2 steps of {name['X']}?")
    yield from _confirm(d)
    yield 0.3
    truth = GAME.map_of(table.state).distance(c["X"], c["B"]) <= 2
    d.check(scr.reveal_open and title.text == f"? The referee answers: {'YES' if truth else 'NO'}",
            f"the answer is a moment too: {title.text!r}")
    d.check(f"Is the base within 2 steps of {name['X']}?" in text.text, f"with the question: {text.text!r}")
    d.check(_whole(d, title) and _whole(d, text), "all of it on screen, uncut")
    d.shot("lib-mission-1-answer")
    _no_leak(d, "the referee's answer")
    yield from _tap(d, "Continue")
    d.note(f"mission seed {seed}: result and answer shown")
