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


# ------------------------------------------------ the missions table entered in the app

OUR_WORDS = "Name a City: the referee says whether your enemy's base is within 2 steps of it. Then draw 1 card."
"""Made-up words standing for a printed Deep-Space Probe card's (the rulebook prints none, L-10)."""


def _plan(seats: list[dict[str, str]], options: dict[str, Any], max_seed: int = 400) -> tuple[int, dict[str, str]]:
    """A seed whose deal, with these seats and options, gives the Dynasty X, a Research
    Station R (Deep-Space Probe) and a third card P to pay with, and the Liberation a base B."""
    from rules.liberation import GAME

    dyn = next(s["id"] for s in seats if s["faction"] == "dynasty")
    lib = next(s["id"] for s in seats if s["faction"] == "liberation")
    for seed in range(1, max_seed):
        s = GAME.new(seats, options, seed=seed)
        while GAME.view(s)["phase"] in ("setup-discard", "deal"):
            GAME.push(s, GAME.sample(s))
        m = GAME.map_of(s)
        hand = list(s.hands[dyn].cards)
        probes = [r for r in hand if m.category_of(r) == "research-station"]
        if len(hand) == 3 and probes:
            r = probes[0]
            x, p = [c for c in hand if c != r]
            return seed, {"X": x, "R": r, "P": p, "B": s.hands[lib].cards[0], "dyn": dyn, "lib": lib}
    raise AssertionError("no seed gives the planned mission game")


def _in_group(d: Any, root: Any, group: str, text: str) -> Any:
    from kivy.uix.togglebutton import ToggleButton

    return next(w for w in d.walk(root) if isinstance(w, ToggleButton) and w.group == group and w.text == text)


def _tap_in_page(d: Any, scr: Any, w: Any) -> Iterator[float]:
    """Scroll the page to ``w`` as a finger would, then tap it."""
    scr.ids.scroll.scroll_to(w, padding=10, animate=False)
    yield 0.15
    d.check(d.is_visible(w), f"{getattr(w, 'text', w)!r} is on screen to tap")
    d.tap(w)
    yield 0.2


def liberation_missions_entered_and_played(d: Any) -> Iterator[float]:
    """Issue 32, item 10: the table enters its Deep-Space Probe card's words and cost on the
    wizard's Missions page (a refused entry on the way), saves, starts a game and plays
    that mission: the moment shows the words entered and the cost paid."""
    from rules.liberation import GAME, FirstCity, Pass, PlaceBase
    from companion.ui.games.liberation.missions_entry import load_saved
    from tests.ui.liberation.map_scenarios import _start, _type, _wizard_to_the_map
    from tests.ui.liberation.scenarios import _tap_any

    app = d.app
    yield from _wizard_to_the_map(d)
    yield 0.3
    d.check(any("the box's defaults (the rulebook prints no mission words or costs)" in t for t in d.texts()),
            "setup says the box's missions are in use")
    yield from _tap_any(d, "★ Missions…")
    d.check(app.sm.current == "liberation-missions", f"the Missions page opens (at {app.sm.current})")
    page = app.sm.get_screen("liberation-missions")
    yield 0.3
    d.check(d.has("Political Center — the Liberation’s Public Support")
            and d.is_visible(page.fields[("political-center", "liberation")]["words"]),
            "the page starts with the first mission's fields")
    d.shot("lib-missions-0-page")
    from tests.ui.layout_check import check_layout

    problems = check_layout(page)
    d.check(not problems, f"the page passes the layout check: {problems[:3]}")
    # A refused entry: the Liberation's Mobilize Base cannot cost "exploit a City".
    yield from _tap_in_page(d, page, _in_group(d, page, "mission-cost-shipyard-liberation", "Exploit a City"))
    refusal = "Shipyard — the Liberation’s Mobilize Base: the Liberation never occupies a city, so its missions cannot cost “exploit a City”."
    d.check(refusal in page.ids.message.text and d.is_visible(page.ids.message), f"refused in players' words: {page.ids.message.text!r}")
    yield from _tap_any(d, "✔ Save")
    d.check(page.ids.message.text.startswith("✖ Not saved: ") and load_saved(page.entry.user_data)[0] is None,
            "Save refuses it, nothing written")
    d.shot("lib-missions-1-refused")
    problems = check_layout(page)
    d.check(not problems, f"with the refusal shown too: {problems[:3]}")
    yield from _tap_in_page(d, page, _in_group(d, page, "mission-cost-shipyard-liberation", "No cost"))
    d.check(page.ready, f"fixed: {page.ids.message.text!r}")
    # The Deep-Space Probe card: its words typed, its cost "discard a card".
    words = page.fields[("research-station", "dynasty")]["words"]
    page.ids.scroll.scroll_to(words, padding=10, animate=False)
    yield 0.15
    _type(d, words, OUR_WORDS)
    yield 0.1
    yield from _tap_in_page(d, page, _in_group(d, page, "mission-cost-research-station-dynasty", "Discard a card"))
    d.shot("lib-missions-2-entered")
    yield from _tap_any(d, "✔ Save")
    saved, _why = load_saved(page.entry.user_data)
    d.check(saved is not None and saved["categories"]["research-station"]["dynasty"] ==
            {"name": "Deep-Space Probe", "cost": "discard", "question": {"type": "base-within", "max_steps": 2}, "text": OUR_WORDS},
            f"saved as entered: {saved and saved['categories']['research-station']}")
    d.check("✔ Saved" in page.ids.message.text, f"and says so: {page.ids.message.text!r}")
    yield from _tap_any(d, "← Back")
    setup = app.sm.get_screen("setup")
    d.check(app.sm.current == "setup" and any("your own missions table" in t for t in d.texts()), "back at setup, with our missions in use")
    setup.ids.scroll.scroll_to(d.find("your own missions table", visible=False), padding=10, animate=False)
    yield 0.2
    d.shot("lib-missions-3-setup")
    # The deal is the app's: a seed that deals the Dynasty the Research Station (not under test).
    seed, c = _plan(setup.model.named_seats(), dict(setup.model.options))
    setup.model.seed = seed
    yield from _start(d)
    table = app.table
    scr = app.sm.get_screen("game:liberation")
    d.check(table.options["missions"] == saved, "the game plays with the saved missions")
    while table.view()["phase"] in ("setup-discard", "deal"):
        table.roll_for_me()
    table.submit(FirstCity(c["dyn"], c["X"]))
    table.submit(PlaceBase(c["lib"], c["B"]))
    table.submit(Pass(c["dyn"]))
    for _ in range(100):
        if scr.shown_ply == table.ply:
            break
        yield 0.05
    yield from _settle(d)
    name = {k: GAME.map_of(table.state).name_of(v) for k, v in c.items() if k in "XRPB"}
    yield from _tap(d, "occupy or mission")
    yield from _hold_gate(d)
    yield from _tap(d, f"★ Deep-Space Probe (play {name['R']}, paying: discard {name['P']})")
    yield 0.3
    d.check(scr.reveal_open, "after the mission, a moment for the whole table")
    title, text = scr.ids.reveal_title, scr.ids.reveal_text
    d.check(title.text == "★ Deep-Space Probe", f"it names the mission: {title.text!r}")
    for said in (f"The table carries out the card's effect: “{OUR_WORDS}”", f"The Dynasty reveals {name['R']}",
                 "paying 1 card discarded face down"):
        d.check(said in text.text, f"it says {said!r}: {text.text!r}")
    d.check(text.text.count("face down") == 1, f"the cost said once: {text.text!r}")
    d.check(name["P"] not in text.text, "the card paid stays face down")
    d.check(_whole(d, title) and _whole(d, text) and d.is_visible(scr.ids.reveal_ok), "all of it on screen, uncut")
    d.shot("lib-missions-4-moment")
    _no_leak(d, "the mission's result")
    yield from _tap(d, "Continue")
    # A later game: the saved missions without asking; then back to the box's defaults.
    app.go("home")
    yield 0.3
    yield from _wizard_to_the_map(d)
    yield 0.3
    setup = app.sm.get_screen("setup")
    d.check(setup.model.options["missions"] == saved and any("your own missions table" in t for t in d.texts()),
            "a later game starts with the saved missions, without asking")
    yield from _tap_any(d, "★ Missions…")
    page = app.sm.get_screen("liberation-missions")
    d.check(page.fields[("research-station", "dynasty")]["words"].text == OUR_WORDS, "the page shows the words saved")
    yield from _tap_any(d, "↺ The box’s defaults")
    d.check(page.fields[("research-station", "dynasty")]["words"].text == ""
            and _in_group(d, page, "mission-cost-research-station-dynasty", "No cost").state == "down",
            "the box's defaults are back in the fields")
    yield from _tap_any(d, "✔ Save")
    yield from _tap_any(d, "← Back")
    d.check(_box_categories() == load_saved(page.entry.user_data)[0]["categories"]
            and any("the box's defaults" in t for t in d.texts()), "saved, and setup says the box's missions are in use")
    d.note("missions entered on the page, saved, and the moment showed the words entered")


def _box_categories() -> dict[str, Any]:
    """The box's missions table, as a saved table holds it."""
    from rules.liberation.missions import default_missions

    return default_missions().to_data()["categories"]
