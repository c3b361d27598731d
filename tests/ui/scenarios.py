"""UI scenarios, each run in its own process by ``tests/ui/test_app.py`` through
``tests/ui/driver.py``. A scenario yields seconds to wait; it drives the app only with
simulated touches (taps, holds) and checks what the widget tree shows."""
from __future__ import annotations

import json
from typing import Any, Iterator

SECRET = "Gains 9: Gain 500 influence — SECRET-TEXT-42"


def privacy_gate(d: Any) -> Iterator[float]:
    """The gate never has the secret in the widget tree before the hold completes; a
    hold let go early shows nothing; a full hold shows it; it hides itself again."""
    from kivy.core.window import Window
    from kivy.uix.label import Label

    from companion.ui.widgets.privacy_gate import PrivacyGate

    # The gate runs on a clock this scenario moves, so "held 0.25 s of 0.6" and "auto-hid
    # after 1.5 s" do not depend on how late a loaded machine runs the frames.
    now = [0.0]
    gate = PrivacyGate(size_hint=(1, 1), clock=lambda: now[0])
    Window.add_widget(gate)
    built = []

    def build() -> Any:
        built.append(1)
        return Label(text=SECRET)

    gate.open_for("crim-1", "Bob (◆ Criminals)", build, purpose="see your hand", hold_s=0.6, auto_hide_s=1.5)
    yield 0.2
    d.check(not any(SECRET in t for t in d.texts()), "secret in the tree before any hold")
    d.check(d.has("Pass the device to") and d.has("Bob (◆ Criminals)"), "the gate names the seat")
    d.shot("gate-waiting")
    hold = d.find("HOLD here to reveal")
    touch = d.press(hold)
    now[0] += 0.25
    yield from _wait_for(lambda: gate.progress > 0, 3)  # the gate's next tick
    d.check(gate.phase == "holding" and 0 < gate.progress < 1, f"holding, progress {gate.progress}")
    d.check(not any(SECRET in t for t in d.texts()), "secret in the tree during the hold")
    d.shot("gate-holding")
    d.release(touch)
    yield 0.1
    d.check(gate.phase == "waiting" and not built, "an early release reveals nothing")
    touch = d.press(d.find("HOLD here to reveal"))
    yield 0.1
    now[0] += 0.9
    yield 0.1
    d.release(touch)
    yield 0.1
    d.check(gate.phase == "open" and built == [1], f"a full hold opens the gate (phase {gate.phase})")
    d.check(any(SECRET in t for t in d.texts()), "the secret shows after the hold")
    d.shot("gate-open")
    now[0] += 1.7
    yield from _wait_for(lambda: gate.phase == "idle", 3)  # the gate's next tick
    d.check(gate.phase == "idle" and not gate.active, "the gate hid itself")
    d.check(not any(SECRET in t for t in d.texts()), "the secret is gone from the tree after hiding")
    d.note("gate: secret built only after a full hold and destroyed on auto-hide")


# ---------------------------------------------------------------- Tyranny helpers

SEATS = [{"id": "cops-1", "faction": "cops", "name": "Ann"}, {"id": "criminals-1", "faction": "criminals", "name": "Bob"}]


def _screen(d: Any) -> Any:
    return d.app.sm.get_screen("game:tyranny")


def _face(d: Any, value: int) -> Any:
    tray = _screen(d).ids.dice
    return d.find(str(value), root=tray.ids.faces)


def _tap_face(d: Any, value: int) -> None:
    """Enter ``value`` by hand and submit it at once ("✔ Now"; otherwise the tray holds it
    a few seconds so it can be changed)."""
    tray = _screen(d).ids.dice
    d.tap(_face(d, value))
    if tray.model.pending is not None:
        d.tap(tray.ids.roll_for_me)


def _settled(d: Any) -> bool:
    scr = _screen(d)
    # A tap's commit runs on the input pump: settled once the Table answered and it is drawn.
    return d.app.table is not None and not scr.recording and scr.shown_ply == d.app.table.ply


def settle(d: Any, extra: float = 0.1, timeout: float = 5.0, since: int | None = None) -> Iterator[float]:
    """Wait until the table screen has redrawn the Table's latest state (a loaded machine
    may take several frames), then a little more for the layout to follow. ``since``: the
    ply before a tap; wait for the Table to move on from it first (a button inside a
    ScrollView releases 0.2 s after the finger, as Kivy tells a tap from a scroll)."""
    from kivy.app import App

    app = App.get_running_app()
    waited = 0.0
    while since is not None and app.table is not None and app.table.ply == since and waited < timeout:
        yield 0.05
        waited += 0.05
    while (app.sm.current == "game:tyranny" and not _settled(d)) and waited < timeout:
        yield 0.05
        waited += 0.05
    yield extra


def _reachable_tiles(d: Any) -> list[Any]:
    board = _screen(d).ids.board
    return [w for w in board._tiles.values() if w.reachable]


def _phase(d: Any) -> str:
    return d.app.table.view()["phase"]


def _autoplay_step(d: Any, face: int = 1) -> str:
    """One touch that moves the game on: a roll (tapping ``face``), a destination, or
    saying no to an optional step. Returns what it did."""
    from rules.core import RollRequest

    table = d.app.table
    p = table.prompt
    if isinstance(p.awaiting, RollRequest):
        _tap_face(d, face)
        return f"roll {face}"
    tiles = _reachable_tiles(d)
    if tiles:
        d.tap(tiles[0])
        return f"move {tiles[0].tile_id}"
    for label in ("Don't draw", "Let them pass", "Don't capture", "Stay on this tier", "Don't play the card"):
        if d.has(label):
            d.tap(label)
            return label
    raise AssertionError(f"autoplay does not know what to tap: {p} / {_screen(d).prompt_text}")


# ---------------------------------------------------------------- scenarios

def full_game(d: Any) -> Iterator[float]:
    """Home → setup wizard by touch → a whole game of Tyranny → the winner on the end
    screen → export. The cops win: Ann draws Gains 9 (entered as the physical card behind
    the gate), the criminals' influence drops to 0 and stays there for three rounds."""
    from kivy.uix.textinput import TextInput

    d.shot("home-empty")
    d.tap("New game")
    yield from settle(d)
    d.check(d.app.sm.current == "setup", "the wizard opens")
    d.shot("setup-game")
    d.tap("Next →")
    yield from settle(d)
    inputs = [w for w in d.walk(d.app.sm.get_screen("setup")) if isinstance(w, TextInput)]
    d.check(len(inputs) == 2, f"two name fields, got {len(inputs)}")
    for ti, name in zip(sorted(inputs, key=lambda w: -w.to_window(*w.pos)[1]), ("Ann", "Bob")):
        d.tap(ti)
        ti.insert_text(name)
    yield from settle(d)
    d.shot("setup-seats")
    d.tap("Next →")
    yield from settle(d)
    d.shot("setup-rules")
    d.tap("Next →")
    d.tap("Next →")
    d.tap("Next →")
    yield from settle(d)
    d.check(d.has("Ann (Cops)") and d.has("Bob (Criminals)"), "the summary names the players")
    d.shot("setup-start")
    d.tap("Start the game")
    yield from settle(d)
    d.check(d.app.sm.current == "game:tyranny", f"the table screen opens (at {d.app.sm.current})")
    d.check(d.app.table.view()["influence"] == 500, "influence starts at 500")
    d.shot("tyranny-start")
    # Ann: 6 → the Sewer Grate (a closed tunnel end): the turn is over.
    _tap_face(d, 6)
    yield from settle(d)
    d.check([t.tile_id for t in _reachable_tiles(d)] == ["o-tunnel-a"], "the roll shows the reachable tile")
    d.shot("tyranny-reachable")
    d.tap(_reachable_tiles(d)[0])
    yield from settle(d)
    # Bob: 1 → the Pawn Shop.
    _tap_face(d, 1)
    yield from settle(d)
    d.tap(_reachable_tiles(d)[0])
    yield from settle(d)
    # Ann: 2 → a Gains tile: enter the card drawn from the table behind the gate.
    _tap_face(d, 2)
    yield from settle(d)
    d.tap(_reachable_tiles(d)[0])
    yield from settle(d)
    d.check(_phase(d) == "draw", "landing on Gains offers a draw")
    d.shot("tyranny-draw")
    d.tap("Enter Gains card")
    yield from _wait_for(lambda: _screen(d).ids.gate.active, 3)
    yield 0.3  # the gate lays itself out on the next frames
    d.check(not any("Criminals lose 500" in t for t in d.texts()), "no card list before the hold")
    yield from hold_gate(d, _screen(d).ids.gate)
    yield from settle(d)
    d.shot("tyranny-enter-card")
    before = d.app.table.ply
    d.tap(d.find("Criminals lose 500"))
    yield from settle(d, since=before)
    d.check(d.app.table.view()["influence"] == 0, f"Gains 9 (cop half) takes 500: {d.app.table.view()['influence']}")
    d.shot("tyranny-influence-zero")
    steps = 0
    moments: list[str] = []
    while d.app.table.outcome is None:
        steps += 1
        d.check(steps < 60, "the game should be over by now")
        before = d.app.table.ply
        _autoplay_step(d, 1)
        yield from settle(d, since=before)
        if steps == 3:
            d.check("Cops hold influence at 0" in _screen(d).ids.influence.subtitle, "the streak countdown shows")
            d.shot("tyranny-streak")
        card = getattr(_screen(d), "moment_card", None)
        if card is not None and card.parent is not None and not moments:
            moments.append(card.title)
            d.check(d.is_visible(card) and card.ids.title.texture_size[1] <= card.height, f"the result moment is shown whole: {card.title!r}")
            d.shot("tyranny-moment")
    yield from _wait_for(lambda: d.app.sm.current == "end", 5)
    d.check(d.app.sm.current == "end", f"the end screen shows (at {d.app.sm.current})")
    d.check(d.has("▲ Ann wins"), "the headline names the winning player, with the faction's glyph")
    d.check(d.has("Ann (▲ Cops)"), "and the faction she won with")
    d.shot("end")
    d.tap("Export JSON")
    yield from settle(d)
    d.check(d.has("Saved"), "the export is saved")
    d.tap("Home")
    yield from settle(d)
    d.check(d.has("Tyranny · Ann, Bob"), "the finished game is in the history")
    d.shot("home-history")
    d.note(f"game won by the cops after {steps} autoplay touches")


def undo_and_refusals(d: Any) -> Iterator[float]:
    """Undo takes back a move; undo across the roll is not offered, with the reason; a die roll
    nobody asked for is shown as rejected with its reason; a card tried at the wrong time
    is refused behind the gate, naming the rule."""
    from firmware_bridge.events import DieRolled

    d.app.new_game("tyranny", SEATS, {}, seed=11)
    yield from settle(d)
    # Ann rolls 2 and lands on a Gamble tile: the draw is still her decision, so the move
    # can be taken back.
    _tap_face(d, 2)
    yield from settle(d)
    d.tap(_reachable_tiles(d)[0])
    yield from settle(d)
    d.check(d.app.table.view()["pieces"]["cops-1"]["tile"] == "o-gamble-1", "moved")
    d.tap(_screen(d).ids.undo)
    yield from settle(d)
    v = d.app.table.view()
    d.check(v["pieces"]["cops-1"]["tile"] == "police-station" and v["phase"] == "move", "undo took the move back")
    d.check([t.tile_id for t in _reachable_tiles(d)] == ["o-gamble-1"], "the destination is offered again")
    d.shot("undo-done")
    # Back at the roll: Undo is disabled, and a long press on it says why.
    from tests.ui.undo_scenarios import hold

    d.check(_screen(d).ids.undo.disabled, "nothing more to undo: the button is disabled")
    banner = _screen(d).ids.banner
    yield from hold(d, _screen(d).ids.undo)
    yield from _wait_for(lambda: banner.shown >= 1, 3)
    d.check(banner.shown > 0 and "Nothing to undo" in banner.message and "rolled" in banner.message,
            f"the long press shows the reason: {banner.message!r}")
    d.check(_screen(d).ids.log.undo_reason, "the log shows why undo is not possible")
    d.note("undo refused: " + banner.message)
    d.shot("undo-refused")
    d.tap(_reachable_tiles(d)[0])
    yield from settle(d)
    before = d.app.table.ply
    d.tap("Don't draw")
    yield from settle(d, since=before)
    # Bob rolls by hand; while his destination is awaited, a die rolls: nobody asked.
    _tap_face(d, 1)
    yield from settle(d)
    ply = d.app.table.view()["ply"]
    result = d.app.route_event(DieRolled(device="sim", die=0, value=4, outcome="rolled", confidence=1.0, counter=1, t=1.0))
    yield from _wait_for(lambda: banner.shown >= 1, 3)
    d.check(result.rejected is not None and d.app.table.view()["ply"] == ply, "the unasked roll changes nothing")
    d.check(banner.shown > 0 and banner.code == result.rejected.code, f"banner shows the rejection {banner.code}")
    d.note(f"physical roll refused: {result.rejected.code}: {result.rejected.message}")
    d.shot("roll-rejected")


def slow_commit_roll(d: Any) -> Iterator[float]:
    """A physical roll while the journal's commit stalls (an fsync of hundreds of ms on a
    slow disk or SD card): the tray shows the die's reading at once, marked as being
    checked, the screen keeps drawing, and nothing is applied until the commit returns."""
    import threading

    from kivy.clock import Clock

    from firmware_bridge.events import DieRolled

    app = d.app
    app.new_game("tyranny", SEATS, {}, seed=11)
    yield from settle(d)
    tray = _screen(d).ids.dice
    ply = app.table.ply
    shown_ply = _screen(d).shown_ply
    last = tray.last_text
    stalled, release = threading.Event(), threading.Event()
    append = app.journal.append

    def slow_append(*a: Any, **kw: Any) -> int:
        # Only the die's roll stalls: another journal write meanwhile (a clock's) goes through.
        if str(kw.get("source", "")).startswith("die:"):
            stalled.set()
            release.wait(10)
        return append(*a, **kw)

    app.journal.append = slow_append
    frames = [0]
    counter = Clock.schedule_interval(lambda dt: frames.__setitem__(0, frames[0] + 1), 0)
    roll = DieRolled(device="sim", die=0, value=4, outcome="rolled", confidence=1.0, counter=1, t=1.0)
    threading.Thread(target=app.post_event, args=(roll,), daemon=True).start()  # as a reader thread does
    yield from _wait_for(lambda: stalled.is_set() and "checking" in tray.dice_text, 5)
    at_stall = frames[0]
    yield 0.5
    d.check(stalled.is_set(), "the roll reached the journal's commit")
    d.check("4 · checking…" in tray.dice_text, f"the tray shows the reading while it is checked: {tray.dice_text!r}")
    d.check(frames[0] - at_stall >= 5, f"the screen kept drawing during the commit ({frames[0] - at_stall} frames in 0.5 s)")
    # (Reading the Table here would wait for the commit: it holds the Table's lock.)
    d.check(_screen(d).shown_ply == shown_ply and tray.last_text == last and not _reachable_tiles(d),
            "nothing is applied on screen before the commit returns")
    d.shot("roll-checking")
    release.set()
    yield from _wait_for(lambda: tray.model.rolls_seen > 0, 5)
    yield from settle(d)
    counter.cancel()
    app.journal.append = append
    d.check(app.table.ply == ply + 1 and "✔ 4" in tray.dice_text and "rolled 4" in tray.last_text,
            f"applied once committed: {tray.dice_text!r} / {tray.last_text!r}")
    d.check(bool(_reachable_tiles(d)), "the reachable tiles show after the commit")
    d.note(f"slow commit: {frames[0] - at_stall} frames drawn while the commit stalled")


def resume_first(d: Any) -> Iterator[float]:
    """First process: start a game and play a few touches, then quit."""
    d.app.new_game("tyranny", SEATS, {}, seed=5)
    yield from settle(d)
    for face in (6, 0, 1, 0):
        if face:
            _tap_face(d, face)
        else:
            d.tap(_reachable_tiles(d)[0])
        yield from settle(d)
    v = d.app.table.view()
    d.note(json.dumps({"pieces": v["pieces"], "ply": v["ply"], "key": str(d.app.table.key)}))


def resume_second(d: Any) -> Iterator[float]:
    """Second process, same journal: the game is offered on the home screen and comes
    back exactly as it was."""
    yield from settle(d)
    d.shot("home-resume")
    d.tap(d.find("Resume Tyranny"))
    # The button may sit in the home screen's scroll view (released 0.2 s after the
    # finger), and the table screen is built on first use: wait for it.
    yield from _wait_for(lambda: d.app.sm.current == "game:tyranny", 10)
    d.check(d.app.sm.current == "game:tyranny", "the table screen opens")
    yield from settle(d)
    v = d.app.table.view()
    d.note(json.dumps({"pieces": v["pieces"], "ply": v["ply"], "key": str(d.app.table.key)}))
    d.check(d.has("Bob", root=_screen(d).ids.board), "the pieces are on the map")
    d.shot("tyranny-resumed")


def tour(d: Any) -> Iterator[float]:
    """Screenshots of every screen at this size (layout check at 1280×800, the Pi display
    800×480, and portrait)."""
    d.shot("home")
    d.app.go("setup")
    yield from settle(d)
    d.tap("Next →")
    yield from settle(d)
    d.shot("setup-seats")
    d.app.go("settings")
    yield from settle(d)
    d.shot("settings")
    d.tap("High contrast")
    # The settings page scrolls at 800×480: the view hands the tap over after a moment.
    yield from _wait_for(lambda: d.app.settings.palette == "high-contrast", 3)
    d.check(d.app.settings.palette == "high-contrast", "palette changed")
    d.shot("settings-high-contrast")
    yield 0.3  # the page is rebuilt with the new colours: tap where its buttons are now
    d.tap("Colour-blind safe")
    yield from _wait_for(lambda: d.app.settings.palette == "okabe-ito", 3)
    d.check(d.app.settings.palette == "okabe-ito" and d.app.settings.tour_seen, "that tap changed the palette, nothing else")
    d.app.go("devices")
    yield from settle(d)
    d.shot("devices")
    from companion.clocks import presets

    d.app.new_game("tyranny", SEATS + [{"id": "cops-2", "faction": "cops", "name": "Cat"},
                                       {"id": "criminals-2", "faction": "criminals", "name": "Dan"}], {}, seed=3,
                   clocks=presets()["Blitz 5+3"])
    yield from settle(d)
    yield 0.4
    import gc

    # Once the table is up, the app's long-lived objects are frozen out of collections
    # (companion/ui/collector.py), and automatic collections run: a Clock trigger 0.25 s
    # after the table opens, which a loaded machine may run later than our fixed wait.
    yield from _wait_for(lambda: gc.isenabled() and gc.get_freeze_count() > 10000, 5)
    d.check(gc.isenabled() and gc.get_freeze_count() > 10000, f"collector settled: {gc.isenabled()}, {gc.get_freeze_count()}")
    clocks = _screen(d).ids.clocks
    d.check(any(t.startswith("▶ ▲ Ann") and ":" in t for t in d.texts(clocks)), f"Ann's clock runs: {d.texts(clocks)}")
    # Every face fits its share of the row, beside the pause button (one-line faces ran
    # into each other and under the button with four seats at 800×480).
    from kivy.core.text import Label as CoreLabel

    for face in clocks.ids.row.children:
        lines = face.text.split("\n")
        measure = CoreLabel(font_size=face.font_size, bold=face.bold, font_name=face.font_name)
        widths = [measure.get_extents(line)[0] for line in lines]
        height = len(lines) * measure.get_extents("Ag")[1]
        d.check(len(lines) == 2 and max(widths) <= face.width and height <= face.height,
                f"clock face {face.text!r} ({widths}, {height} px high) fits {face.size}")
    d.check(clocks.ids.row.right <= clocks.ids.pause.x + 1, "the clock faces end before the pause button")
    from kivy.metrics import dp

    d.check(clocks.ids.pause.text == ("❚❚ Pause" if clocks.width >= dp(480) else "❚❚"), f"pause: {clocks.ids.pause.text!r}")
    d.tap(clocks.ids.pause)
    yield from _wait_for(lambda: d.app.table.clocks.is_paused and clocks.ids.pause.text.startswith("▶"), 3)
    d.check(d.app.table.clocks.is_paused, "the clocks pause from the table screen")
    d.check(clocks.ids.pause.text.startswith("▶"), f"the pause button offers to resume: {clocks.ids.pause.text!r}")
    d.tap(clocks.ids.pause)
    yield from _wait_for(lambda: not d.app.table.clocks.is_paused, 3)
    d.check(not d.app.table.clocks.is_paused, "the clocks resume from the table screen")
    # Low time: the screen says so in its banner (the Table's tick reports the warning).
    table = d.app.table
    table.adjust_clock("cops-1", -(table.clocks.remaining("cops-1") - 20), "test: low time")
    yield from _wait_for(lambda: "low time" in _screen(d).ids.banner.message, 3)
    d.check("Ann: low time, 0:" in _screen(d).ids.banner.message, f"the low-time warning names Ann: {_screen(d).ids.banner.message!r}")
    yield from _wait_for(lambda: _screen(d).ids.banner.shown >= 1, 3)  # the banner fades in
    d.shot("tyranny-clock-warning")
    table.adjust_clock("cops-1", 280, "test: time given back")
    # Time given back: the warning no longer holds, and its banner comes down.
    yield from _wait_for(lambda: _screen(d).ids.banner.shown == 0, 3)
    d.check(_screen(d).ids.banner.shown == 0, "the low-time banner comes down when time is given back")
    _tap_face(d, 3)
    yield from settle(d)
    d.check(_screen(d).ids.banner.shown == 0, "no banner over the table")
    d.shot("tyranny-table")
    d.tap(_screen(d).ids.log_toggle)
    yield from settle(d)
    d.shot("tyranny-log")


def hold_gate(d: Any, gate: Any, hold_s: float = 1.5) -> Iterator[float]:
    """Hold the gate's button as a person would: at least ``hold_s``, and on until the
    secret shows (bounded: frames run late on a loaded machine), then let go."""
    touch = d.press(d.find("HOLD here to reveal"))
    yield hold_s
    yield from _wait_for(lambda: gate.phase == "open", 4, 0.1)
    d.release(touch)
    d.check(gate.phase == "open", f"the gate opened after the hold (phase {gate.phase})")
    yield 0.2  # the secret lays itself out


def _wait_for(cond: Any, timeout: float = 5.0, step: float = 0.05) -> Iterator[float]:
    """Yield until ``cond()`` is true (bounded; the caller checks the condition after)."""
    waited = 0.0
    while not cond() and waited < timeout:
        yield step
        waited += step


def demo_physical_roll(d: Any) -> Iterator[float]:
    """End to end, in demo mode: simulated hub → pty → serial bridge → Table → screen. A
    physical roll appears on screen and is applied; a roll nobody asked for is shown as
    rejected and changes nothing; a crooked die offers "accept"."""
    app = d.app
    link = app.demo_link
    d.check(link is not None, f"the demo link runs ({app.journal_error})")
    yield from _wait_for(lambda: any(r.connected for r in app.devices.rows()), 15)
    d.check(any(r.connected for r in app.devices.rows()), "the simulated hub is online")
    d.check(app.sm.current == "game:tyranny", "the demo opens a Tyranny game")
    scr = _screen(d)
    prompt = app.table.prompt
    seat = sorted(prompt.actors)[0]
    start_tile = app.table.view()["pieces"][seat]["tile"]
    ply = app.table.view()["ply"]
    guide = scr.ids.dice.guide_text
    d.check(guide.startswith("Roll the demo die (the app reads it)"), f"the tray says which input is live, in words: {guide!r}")
    d.check(scr.ids.dice.ids.guide.height > 0, "the guide is shown")
    d.shot("demo-roll-guide")
    d.tap(scr.ids.dice.ids.throw)  # the demo's "throw the simulated die" (a random face)
    yield from _wait_for(lambda: app.table.view()["ply"] > ply, 8)
    yield from settle(d)  # the screen refreshes on a frame after the Table's change
    v = app.table.view()
    d.check(v["ply"] == ply + 1 and v["phase"] == "move", f"the physical roll was applied (phase {v['phase']})")
    tray = scr.ids.dice
    d.check(tray.last_text.startswith("✔ The demo die rolled") and tray.last_ok, f"the tray shows the roll in words: {tray.last_text!r}")
    d.check("sim/0" not in tray.last_text + tray.dice_text + tray.guide_text, "no device address in the tray")
    d.check(_reachable_tiles(d), "the reachable tiles are highlighted")
    d.shot("demo-roll-applied")
    # A roll nobody asked for: a destination is awaited, not a roll.
    link.throw(0, value=5)
    yield from _wait_for(lambda: "5" in tray.last_text and not tray.last_ok, 8)
    yield from _wait_for(lambda: scr.ids.banner.shown > 0.5, 3)
    d.check(not tray.last_ok and "rolled 5" in tray.last_text, f"the unasked roll is shown as rejected: {tray.last_text!r}")
    d.check(app.table.view()["ply"] == ply + 1, "the unasked roll changed nothing")
    d.check(scr.ids.banner.shown > 0 and scr.ids.banner.code, "the banner names the rejection")
    d.note(f"unasked roll: {scr.ids.banner.code}: {scr.ids.banner.message}")
    d.shot("demo-roll-rejected")
    d.tap(_reachable_tiles(d)[0])
    yield from settle(d)
    # Finish the mover's turn if the tile asks something, until the next seat must roll.
    for _ in range(6):
        from rules.core import RollRequest

        if isinstance(app.table.prompt.awaiting, RollRequest):
            break
        before = app.table.ply
        _autoplay_step(d)
        yield from settle(d, since=before)
    # A crooked die: the table may accept the value the die leans towards.
    ply = app.table.view()["ply"]
    link.throw(0, value=3, crooked=True)
    yield from _wait_for(lambda: tray.crooked_value, 8)
    d.check(tray.crooked_value == 3 and app.table.view()["ply"] == ply, f"crooked die offered, not applied ({tray.last_text!r})")
    d.shot("demo-crooked")
    d.tap(tray.ids.accept)
    yield from settle(d)
    d.check(app.table.view()["ply"] == ply + 1, "accepting the crooked die applies it")
    d.note(f"demo: moved from {start_tile}; crooked 3 accepted")


def shared_widgets(d: Any) -> Iterator[float]:
    """The shared widgets Tyranny does not use, in a real window: the escalation scale with
    incidents, and simultaneous secret commits (each seat behind the gate, nothing of a
    choice shown until the hold, only "committed" shown after)."""
    from kivy.core.window import Window
    from kivy.uix.boxlayout import BoxLayout

    from companion.ui.widgets.escalation import EscalationScale
    from companion.ui.widgets.privacy_gate import PrivacyGate
    from companion.ui.widgets.secret_commit import SecretCommit

    root = BoxLayout(orientation="vertical", padding=8, spacing=8)
    esc = EscalationScale(title="Escalation")
    esc.set_scale(["I", "II", "III", "IV", "V"], 2, ["Riot in the docks", "Strike"])
    commit = SecretCommit()
    root.add_widget(esc)
    root.add_widget(commit)
    Window.add_widget(root)
    gate = PrivacyGate(size_hint=(1, 1))
    Window.add_widget(gate)
    commit.gate = gate
    chosen: dict[str, str] = {}
    seats = [("dyn", "Dee", "dynasty"), ("lib", "Lou", "liberation")]

    def choices(seat: str) -> list[tuple[str, str]]:
        return [(f"Attack {c} (SECRET-{seat})", c) for c in ("North", "South")]

    def do_commit(seat: str, value: str) -> bool:
        chosen[seat] = value
        commit.set_request("where to attack", seats, set(chosen), choices, do_commit)
        return True

    commit.set_request("where to attack", seats, set(), choices, do_commit)
    yield 0.3
    d.check(d.has("▼\nIII", root=esc) and d.has("Riot in the docks", root=esc), "the scale marks level III and lists incidents")
    d.shot("widgets-escalation-commit")
    for sid, name, _f in seats:
        d.tap(d.find(name, root=commit))
        yield from _wait_for(lambda: gate.active, 3)
        yield 0.2  # the gate lays itself out on the next frames
        d.check(gate.active and not any("SECRET-" in t for t in d.texts()), "no choice in the tree before the hold")
        yield from hold_gate(d, gate)
        d.check(any(f"SECRET-{sid}" in t for t in d.texts()), "the seat's choices show after the hold")
        d.tap(d.find(f"Attack South (SECRET-{sid})"))
        yield from _wait_for(lambda: not gate.active, 3)
        d.check(not gate.active and not any("SECRET-" in t for t in d.texts()), "committing hides the choices")
    d.check(chosen == {"dyn": "South", "lib": "South"}, f"both committed: {chosen}")
    d.check(d.has("2 of 2 committed"), "only who committed is shown")
    d.shot("widgets-committed")


def demo_first_frame(d: Any) -> Iterator[float]:
    """Demo start-up and frame economy: the table is the first screen (home is made when
    first visited), the bridge connects after the table is drawn, hidden overlays are
    out of the drawing until they show, and the board and panels draw through buffers
    whose buttons still work."""
    from companion.ui.widgets.cached import CachedView
    from companion.ui.widgets.drawn import is_drawn

    app = d.app
    scr = _screen(d)
    d.check(app.sm.current == "game:tyranny", f"the demo's first screen is its table, not {app.sm.current!r}")
    d.check(not app.sm.has_screen("home"), "home is not made before it is visited")
    d.check(not is_drawn(scr.ids.gate) and not is_drawn(scr.ids.log), "the closed gate and log are not drawn")
    d.check(not is_drawn(scr.ids.clocks), "a game without clocks does not draw the clock panel")
    board = scr.ids.board
    d.check(tuple(board._fbo.size) == (int(board.width), int(board.height)), "the board's buffer is the board's size")
    d.check(all(board._fbo.indexof(t.canvas) != -1 for t in board._tiles.values()), "every tile draws into the buffer")
    d.check(any(isinstance(w, CachedView) for w in d.walk(scr)), "the panels draw through a CachedView")
    d.check(board._picture.texture is not board._fbo.texture and tuple(board._picture.texture.size) == tuple(board._fbo.size),
            "the board's picture is a copy of its buffer, of the buffer's size")
    tray = scr.ids.dice
    buttons = tray.ids.buttons
    d.check(tray.is_awaiting and is_drawn(buttons), "the tray's buttons are drawn while a roll is awaited")
    d.check(buttons._fbo.indexof(buttons.children[0].canvas) != -1, "the tray's buttons draw into a buffer")
    d.shot("demo-first-frame")
    # A button inside a cached panel still works and its panel shows the change.
    d.tap(scr.ids.log_toggle)
    yield from _wait_for(lambda: scr.log_open, 2)
    d.check(scr.log_open and is_drawn(scr.ids.log), "the open log is drawn")
    d.tap(scr.ids.log_toggle)
    yield from _wait_for(lambda: not scr.log_open, 2)
    d.check(not is_drawn(scr.ids.log), "the closed log is not drawn again")
    yield from _wait_for(lambda: any(r.connected for r in app.devices.rows()), 15)
    d.check(any(r.connected for r in app.devices.rows()), "the simulated hub came online after the first frame")
    yield from settle(d)
    d.tap(scr.ids.hands)
    yield from _wait_for(lambda: d.has("Ann's hand"), 3)
    d.tap("Ann's hand")
    yield from _wait_for(lambda: scr.ids.gate.active, 2)
    d.check(is_drawn(scr.ids.gate), "the gate is drawn while it asks for a seat")
    d.shot("demo-gate-drawn")
    scr.ids.gate.close()
    yield 0.1
    d.check(not is_drawn(scr.ids.gate), "the closed gate is out of the drawing again")
    # Home is made on its first visit; back returns to the table.
    d.tap(scr.ids.home)
    yield from _wait_for(lambda: app.sm.current == "home", 3)
    d.check(app.sm.current == "home", f"home opens on first visit (at {app.sm.current!r})")
    d.shot("demo-home-first-visit")
    app.back()
    yield 0.1
    d.check(app.sm.current == "game:tyranny", "back returns to the table")


# ---------------------------------------------------------------- the journal (issue 15)

def journal_full(d: Any) -> Iterator[float]:
    """The journal's disk fills up in the middle of a game (SQLite's page limit: SQLITE_FULL,
    "database or disk is full", exactly as a full disk): the touch that could not be saved
    is refused on screen in plain words, nothing changes, and once there is space again the
    same table plays on."""
    app = d.app
    app.new_game("tyranny", SEATS, {}, seed=11)
    yield from settle(d)
    db = app.journal._db
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
    banner = _screen(d).ids.banner
    refused = False
    for _ in range(80):  # until a write needs a page the disk no longer has
        before = app.table.ply
        did = _autoplay_step(d)
        yield from settle(d, since=before, timeout=1.5)
        if banner.shown > 0 and "disk is full" in banner.message:
            refused = True
            break
    d.check(refused, "a touch was refused for the full disk")
    d.note(f"refused: {did}: {banner.message}")
    yield from _wait_for(lambda: banner.shown >= 1, 3)
    d.check(app.table.ply == before, f"nothing changed: ply {app.table.ply}, was {before}")
    d.check(app.table.ply == app.journal.in_force_count(app.table.key), "the screen's game is the journal's")
    d.check("sqlite" not in banner.message.lower() and "Error" not in banner.message, f"plain words: {banner.message!r}")
    d.check(_screen(d).shown_ply == before, "the screen shows the game as saved")
    d.shot("journal-full")
    # A die rolled on the table (routed off the touch path) meets the same full disk.
    from firmware_bridge.events import DieRolled
    from rules.core import RollRequest

    banner.hide()
    yield 0.3
    # Space given back until the game waits for a roll, then the disk full again: a roll
    # whose write still fits in the pages there are is accepted, so this goes on until one
    # needs a page the disk no longer has (how soon depends on the rows' sizes).
    result = None
    for counter in range(1, 61):
        db.execute("PRAGMA max_page_count = 1073741823")
        while not isinstance(app.table.prompt.awaiting, RollRequest) and app.table.outcome is None:
            step = app.table.ply
            _autoplay_step(d)
            yield from settle(d, since=step, timeout=1.5)
        if app.table.outcome is not None:
            break
        db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
        before = app.table.ply
        result = app.route_event(DieRolled(device="sim", die=0, value=3, outcome="rolled", confidence=1.0,
                                           counter=counter, t=float(counter)))
        if result is not None and result.rejected is not None:
            break
        yield from settle(d, since=before, timeout=1.5)
    if result is not None and result.rejected is not None:
        # The banner and the tray are redrawn by separate triggers: wait for both, as an eye would.
        yield from _wait_for(lambda: banner.shown >= 1 and "disk is full" in banner.message
                             and "checking" not in _screen(d).ids.dice.dice_text, 3)
        d.check(result.rejected.code == "journal-full" and app.table.ply == before,
                f"the die's roll was not applied: {result}")
        d.check("checking" not in _screen(d).ids.dice.dice_text, f"the tray is not left checking: {_screen(d).ids.dice.dice_text!r}")
        d.check("disk is full" in banner.message, f"the die's roll was refused on screen: {banner.message!r}")
        d.note("die roll refused: " + banner.message)
        d.shot("journal-full-die")
    before = app.table.ply
    db.execute("PRAGMA max_page_count = 1073741823")  # space freed
    _autoplay_step(d)
    yield from settle(d, since=before)
    d.check(app.sm.current == "game:tyranny" and app.table.ply == before + 1,
            f"the same table plays on once there is space: ply {app.table.ply}")
    d.note(f"played on: ply {app.table.ply}")
    d.shot("journal-full-played-on")


def journal_damaged(d: Any) -> Iterator[float]:
    """The app starts on a damaged journal (prepared by the test): home says it was set
    aside, how many games came back, and lists them; a recovered game resumes."""
    yield from settle(d)
    scr = d.app.sm.get_screen("home")
    d.check("The journal was damaged; it was set aside as journal.damaged-" in scr.message, f"message: {scr.message!r}")
    d.note(scr.message)
    d.note(json.dumps([r.key for r in scr.resume_rows]))
    d.shot("home-journal-damaged")
    d.tap(d.find("Resume Tyranny"))
    yield from _wait_for(lambda: d.app.sm.current == "game:tyranny", 10)
    d.check(d.app.sm.current == "game:tyranny", "a recovered game resumes")
    yield from settle(d)
    d.note(f"resumed ply {d.app.table.ply}")


def game_open_elsewhere(d: Any) -> Iterator[float]:
    """Another window (the test's process) has the game open: Resume says so on home and
    the app stays there."""
    yield from settle(d)
    d.tap(d.find("Resume Tyranny"))
    scr = d.app.sm.get_screen("home")
    yield from _wait_for(lambda: "another window" in scr.message, 5)
    d.check(d.app.sm.current == "home" and d.app.table is None, "the game did not open here")
    d.check(scr.message.startswith("This game is open in another window"), f"message: {scr.message!r}")
    d.note(scr.message)
    yield 0.2  # drawn
    d.check(d.find("This game is open in another window", root=scr) is not None, "the message is on screen")
    d.shot("home-game-open-elsewhere")


def result_moment(d: Any) -> Iterator[float]:
    """A roll that decides something (here a property capture) reads as a result moment
    over the board: the whole table sees how it went, then it goes by itself; a roll that
    decides nothing shows none."""
    import random

    app = d.app
    app.new_game("tyranny", SEATS, {}, seed=1)
    yield from settle(d)
    scr = _screen(d)
    rng = random.Random(1)  # with game seed 1: a capture roll at the 37th action
    table = app.table
    # Play on (the Table's own legal actions) until a property capture roll is awaited.
    for _ in range(400):
        waits = (table.view()["prompt"] or {}).get("waits") or {}
        if any(w.get("purpose") == "capture" for w in waits.values()):
            break
        actions = list(table.legal_actions())
        d.check(bool(actions), f"the game goes on: {table.outcome}")
        table.submit(rng.choice(actions))
    else:
        d.check(False, "a capture roll comes up within 400 actions")
    yield from settle(d)
    d.check(getattr(scr, "moment_card", None) is None or scr.moment_card.parent is None,
            "no moment for plays that decided nothing on screen")
    seat = next(s for s, w in table.view()["prompt"]["waits"].items() if w.get("purpose") == "capture")
    tile = table.view()["pieces"][seat]["tile"]
    before = table.ply
    _tap_face(d, 6)
    yield from settle(d, since=before)
    yield from _wait_for(lambda: getattr(scr, "moment_card", None) is not None and scr.moment_card.parent is not None, 3)
    card = scr.moment_card
    name = next(s["name"] for s in SEATS if s["id"] == seat)
    owner = table.view()["owners"].get(tile)
    d.check(card.parent is not None and name in card.title, f"the capture roll's result is a moment: {card.title!r}")
    d.check(("captures" in card.title) == (owner == next(s["faction"] for s in SEATS if s["id"] == seat)),
            f"the moment says how it went ({card.title!r}, owner {owner})")
    d.check(d.is_visible(card) and card.ids.title.texture_size[1] <= card.height, "the moment is shown whole")
    d.note(f"moment: {card.title}")
    d.shot("tyranny-moment")
    card.seconds = 0.2  # it goes by itself (4 s in play)
    card.show_over(scr, scr.ids.board)
    yield from _wait_for(lambda: card.parent is None, 3)
    d.check(card.parent is None, "the moment goes by itself")


def table_tour(d: Any) -> Iterator[float]:
    """The first game on a new table starts with a tour of the screen: each part outlined
    in turn with what it is for, Next and Skip; nothing is played by a tap meanwhile; once
    done it is not shown again (Settings can bring it back)."""
    app = d.app
    d.check(not app.settings.tour_seen, "a new table has not seen the tour")
    app.new_game("tyranny", SEATS, {}, seed=1)
    scr = _screen(d)
    yield from _wait_for(lambda: getattr(scr, "tour", None) is not None and scr.tour.parent is not None and scr.tour.title, 5)
    tour = scr.tour
    d.check(tour.parent is not None, "the tour starts on the first game")
    ply = app.table.ply
    d.tap(_face(d, 3))  # under the tour: taken by it, not played
    yield 0.3
    d.check(app.table.ply == ply and scr.ids.dice.model.pending is None, "a tap during the tour plays nothing")
    titles = []
    for n in range(10):
        yield 0.2
        step = tour.model.step
        target = scr.ids[step.target]
        x, y = tour.to_widget(*target.to_window(target.x, target.y))
        d.check(abs(tour.hole[0] - x) < 2 and abs(tour.hole[1] - y) < 2 and abs(tour.hole[2] - target.width) < 2,
                f"step {n + 1} outlines {step.target}")
        d.check(d.is_visible(tour.ids.title) and tour.ids.text.texture_size[1] <= tour.ids.text.height + 1, "its words show whole")
        titles.append(tour.title)
        d.shot(f"tour-{n + 1}")
        last = tour.is_last
        d.tap(tour.ids.next)
        if last:
            break
    yield 0.3
    d.check(tour.parent is None, f"Done ends the tour after {len(titles)} steps")
    d.check(len(titles) >= 4 and titles[0] == "Your board, on screen", f"the tour's stops: {titles}")
    d.check(app.settings.tour_seen and '"tour_seen": true' in open(app.settings_path, encoding="utf-8").read(),
            "the tour is remembered as seen")
    d.note("tour: " + " / ".join(titles))
    app.new_game("tyranny", SEATS, {}, seed=2)
    yield 1.0
    d.check(getattr(_screen(d), "tour", None) is None or _screen(d).tour.parent is None, "not again on the next game")
