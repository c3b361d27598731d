"""A tap's time to the screen, for every game: the touch → the first frame that answers it.

For each game of the plug-in catalogue (``rules.registry.catalog()``; ``--game=ID``, repeatable,
picks), a fresh process runs the real app at 800×480 under the X display (Xvfb when there is
none) with Mesa's llvmpipe limited to one thread (``LP_NUM_THREADS=1``) and the process pinned
to one core (``os.sched_setaffinity``): the budget of a Raspberry Pi's single-threaded draw. It
starts the game with the setup wizard's own defaults (``SetupModel.for_game``) and plays it
through real touches: a :class:`kivy.tests.common.UnitTestTouch` dispatched down and up through
the window (``EventLoop.post_dispatch_input``), so the app's own handlers run, as in
``tests/ui/driver.py``. What to tap is chosen each time from what the screen offers, found by
what it says or by its widget id, never by coordinates (:func:`choose`):

* a confirmation open (an irreversible tap asked about): its confirm button (``ids.ok``);
* the privacy gate up: "HOLD here to reveal" (``ids.hold``) pressed and held; once the page
  shows, one of its choices (a secret choice) or "Done — hide";
* the dice tray awaiting a roll: one of its face buttons (a die entered by hand), then
  "✔ Now" (the held entry committed);
* now and then Undo (``ids.undo``) when it is enabled, and a button on the board (a square,
  a city, a piece);
* otherwise a button of the action panel (``ids.actions``): a decision or move (``submit``),
  a seat's hand or a physical card to enter (both open the gate), the app's deck…

Start = just before the touch's last event is dispatched (the release, which is when a
button acts; the press for the gate's hold button, which acts on press). End = right after
the window's buffer swap (``Window.flip``) of the first frame in which the screen differs
from before the tap (:func:`screen_signature`: the screen refreshed from the Table, the
gate's phase, a confirmation, the dice tray's entry, the banner, the panel's buttons…), i.e.
the first frame swapped after the tap's handlers and the work they triggered changed what is
shown. The gate's reveal has no touch of its own (it opens when the hold has lasted long
enough, on the gate's tick): it is measured from the tick that opens it to its frame, and
reported as its own kind ("gate reveal") beside the taps, not among them.

Where the time went, per tap, by wrapping methods in this process (the app is not edited):
engine (the game's rules object, as the Table calls it), Table and journal (the Table's own
methods around it: submit, undo, the journal's commit…), presenter (the game's presenter and
the screen's ``action_specs``), widget tree (everything else on the UI thread until the frame
begins: the widgets' building, layout, the handlers), drawing (the frame's ``on_draw`` to the
end of its swap). The split is exclusive (a presenter's call into the Table counts for the
Table).

Target: p99 ≤ 33 ms per game (two frames at 60 Hz); printed, never asserted.

Run: ``./dev bench taps [--taps=N] [--game=ID ...]`` or
``.venv/bin/python -m benchmarks taps [--taps=N] [--game=ID ...]``.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable, Iterator

from benchmarks.bench_dice import percentile

ROOT = Path(__file__).resolve().parents[1]
XVFB = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24 +extension GLX +render -noreset"]
TARGET_P99_MS = 33.0  # two frames at 60 Hz
DEFAULT_TAPS = 60
ANSWER_TIMEOUT_S = 2.0  # a tap with no change on screen by then is counted as unanswered
RESULT = "TAPS-RESULT "
DEBUG = bool(os.environ.get("TC_TAPS_DEBUG"))  # print each tap chosen and each one left unanswered  # the child's last line: its figures, as JSON, for the parent
# The kind of tap an action-panel button's intent is (``presenters/actions.py``); a game's
# own intents (a step of its panel: Dicetopia's entry, Liberation's audit) are "panel step".
KINDS = {"submit": "decision", "hand": "gate open", "physical-draw": "gate open", "app-draw": "app deck"}
PARTS = ("engine", "table", "presenter", "widgets", "drawing")
PART_NAMES = {"engine": "engine", "table": "Table+journal", "presenter": "presenter",
              "widgets": "widget tree", "drawing": "drawing"}


# ----------------------------------------------------------------- figures


def summary(ms: list[float]) -> dict[str, float]:
    """n, p50, p95, p99 and max of a list of latencies (nearest-rank percentiles).

    >>> s = summary([float(v) for v in range(1, 101)])
    >>> (s["n"], s["p50"], s["p95"], s["p99"], s["max"])
    (100, 50.0, 95.0, 99.0, 100.0)
    """
    return {"n": len(ms), "p50": percentile(ms, 50), "p95": percentile(ms, 95), "p99": percentile(ms, 99),
            "max": max(ms)}


def game_lines(game: str, taps: list[dict[str, Any]], reveals: list[float], unanswered: list[str]) -> list[str]:
    """The report of one game: the figures over every tap, where the time went (the median
    tap's split and the slowest tap's), the figures per kind of tap, and the target.

    >>> tap = {"kind": "decision", "ms": 10.0, "engine": 1.0, "table": 2.0, "presenter": 3.0,
    ...        "widgets": 2.0, "drawing": 2.0}
    >>> print("\\n".join(game_lines("mini", [tap], [], [])))  # doctest: +NORMALIZE_WHITESPACE
    mini: taps n=1  p50 10.0  p95 10.0  p99 10.0  max 10.0 ms
      median split ms: engine 1.0  Table+journal 2.0  presenter 3.0  widget tree 2.0  drawing 2.0
      slowest tap (decision, 10.0 ms): engine 1.0  Table+journal 2.0  presenter 3.0  widget tree 2.0  drawing 2.0
      decision  n=1  p50 10.0  max 10.0
    mini: target p99 <= 33 ms: met
    """
    ms = [t["ms"] for t in taps]
    s = summary(ms)
    out = [f"{game}: taps n={s['n']}  p50 {s['p50']:.1f}  p95 {s['p95']:.1f}  p99 {s['p99']:.1f}  "
           f"max {s['max']:.1f} ms" + (f"  ({len(unanswered)} unanswered: {', '.join(sorted(set(unanswered)))})"
                                    if unanswered else "")]
    med = {p: sorted(t[p] for t in taps)[len(taps) // 2] for p in PARTS}
    out.append("  median split ms: " + "  ".join(f"{PART_NAMES[p]} {med[p]:.1f}" for p in PARTS))
    worst = max(taps, key=lambda t: t["ms"])
    out.append(f"  slowest tap ({worst['kind']}, {worst['ms']:.1f} ms): "
               + "  ".join(f"{PART_NAMES[p]} {worst[p]:.1f}" for p in PARTS))
    kinds: dict[str, list[float]] = defaultdict(list)
    for t in taps:
        kinds[t["kind"]].append(t["ms"])
    for kind, values in sorted(kinds.items()):
        out.append(f"  {kind:<14} n={len(values)}  p50 {percentile(values, 50):.1f}  max {max(values):.1f}")
    if reveals:
        out.append(f"  (gate reveal after the hold, not a tap: n={len(reveals)}  p50 {percentile(reveals, 50):.1f}  "
                   f"max {max(reveals):.1f})")
    out.append(f"{game}: target p99 <= {TARGET_P99_MS:.0f} ms: {'met' if s['p99'] <= TARGET_P99_MS else 'NOT met'}")
    return out


def worst_line(p99s: dict[str, float]) -> str:
    """The last line: the worst game's p99.

    >>> worst_line({"a": 12.0, "b": 40.5})
    'taps: worst p99 40.5 ms (b)'
    """
    game = max(p99s, key=lambda g: p99s[g])
    return f"taps: worst p99 {p99s[game]:.1f} ms ({game})"


# ----------------------------------------------------------------- where the time goes


class Ledger:
    """Exclusive time per part of the UI thread's work while a tap is measured: a wrapped
    call's time goes to its part, minus the time of the wrapped calls it makes; calls from
    other threads (the input pump's) and calls while no tap is measured are not counted.

    >>> now = [0.0]
    >>> ledger = Ledger(clock=lambda: now[0])
    >>> def rules_check() -> None:
    ...     now[0] += 2.0
    >>> check = ledger.timed(rules_check, "engine")
    >>> def submit() -> None:
    ...     now[0] += 1.0; check(); now[0] += 3.0
    >>> submit = ledger.timed(submit, "table")
    >>> ledger.start(); submit(); ledger.stop()
    {'table': 4.0, 'engine': 2.0}
    >>> submit(); ledger.totals["engine"]  # not measuring: not counted
    2.0
    """

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self._clock = clock
        self.active = False
        self.totals: dict[str, float] = defaultdict(float)
        self._stack: list[list[Any]] = []
        import threading

        self._ui = threading.get_ident()
        self._ident = threading.get_ident

    def start(self) -> None:
        self.totals = defaultdict(float)
        self._stack = []
        self.active = True

    def stop(self) -> dict[str, float]:
        self.active = False
        return dict(self.totals)

    def timed(self, fn: Callable[..., Any], part: str) -> Callable[..., Any]:
        ledger = self

        def wrapper(*a: Any, **k: Any) -> Any:
            if not ledger.active or ledger._ident() != ledger._ui:
                return fn(*a, **k)
            stack = ledger._stack
            now = ledger._clock()
            if stack:
                ledger.totals[stack[-1][0]] += now - stack[-1][1]
            stack.append([part, now])
            try:
                return fn(*a, **k)
            finally:
                end = ledger._clock()
                if stack:
                    p, began = stack.pop()
                    ledger.totals[p] += end - began
                    if stack:
                        stack[-1][1] = end

        wrapper.__wrapped__ = fn  # type: ignore[attr-defined]
        return wrapper

    def wrap_class(self, cls: type, names: list[str], part: str) -> None:
        for name in names:
            fn = cls.__dict__.get(name)
            if callable(fn) and not hasattr(fn, "__wrapped__"):
                setattr(cls, name, self.timed(fn, part))

    def wrap_public(self, obj: Any, part: str) -> None:
        """Every public method of ``obj``'s class (and its bases in the project), in ``part``."""
        for cls in type(obj).__mro__:
            if not cls.__module__.startswith(("rules", "companion")):
                continue
            names = [n for n, v in vars(cls).items() if not n.startswith("_") and callable(v)
                     and not isinstance(v, (type, staticmethod, classmethod))]
            self.wrap_class(cls, names, part)


# ----------------------------------------------------------------- finding on screen


def walk(root: Any) -> Iterator[Any]:
    stack = [root]
    while stack:
        w = stack.pop()
        yield w
        stack.extend(w.children)


def viewport(w: Any) -> tuple[float, float, float, float] | None:
    """The part of ``w`` not scrolled out of view (window coordinates), or None."""
    from kivy.uix.scrollview import ScrollView

    x0, y0 = w.to_window(w.x, w.y)
    x1, y1 = x0 + w.width, y0 + w.height
    node = w.parent
    while node is not None and node is not node.parent:
        if isinstance(node, ScrollView):
            sx, sy = node.to_window(node.x, node.y)
            x0, y0, x1, y1 = max(x0, sx), max(y0, sy), min(x1, sx + node.width), min(y1, sy + node.height)
            if x1 - x0 < 4 or y1 - y0 < 4:
                return None
        node = node.parent
    return x0, y0, x1, y1


def tappable(w: Any) -> bool:
    """Shown, enabled and not scrolled away: a finger could tap it."""
    if getattr(w, "disabled", False) or viewport(w) is None:
        return False
    node = w
    while node is not None and node is not node.parent:
        if getattr(node, "opacity", 1) == 0 or node.width <= 1 or node.height <= 1:
            return False
        node = node.parent
    return True


def buttons_in(root: Any) -> list[Any]:
    from kivy.uix.behaviors import ButtonBehavior

    return [w for w in walk(root) if isinstance(w, ButtonBehavior) and w is not root and tappable(w)]


def waits_in_scrollview(w: Any) -> bool:
    """Inside a ScrollView whose content overflows, a finger must rest its scroll_timeout
    before the view hands the touch to the button (as on a real screen)."""
    from kivy.uix.scrollview import ScrollView

    node = w.parent
    while node is not None and node is not node.parent:
        if isinstance(node, ScrollView) and node.children and "content" in node.scroll_type:
            c = node.children[0]
            if c.height > node.height + 1 or c.width > node.width + 1:
                return True
        node = node.parent
    return False


def scroll_area_of(w: Any) -> Any:
    """The nearest ScrollView holding ``w``, or None."""
    from kivy.uix.scrollview import ScrollView

    node = w.parent
    while node is not None and node is not node.parent:
        if isinstance(node, ScrollView):
            return node
        node = node.parent
    return None


def touch_on(w: Any) -> Any:
    from kivy.tests.common import UnitTestTouch

    x0, y0, x1, y1 = viewport(w) or (*w.to_window(w.x, w.y), *w.to_window(w.right, w.top))
    return UnitTestTouch((x0 + x1) / 2, (y0 + y1) / 2)


def irreversible(table: Any, action: Any) -> bool:
    """Whether the Table would ask before ``action`` (its undo barrier); a refusal is no."""
    from companion.errors import CompanionError
    from rules import RulesError

    try:
        return bool(table.irreversible(action))
    except (RulesError, CompanionError):
        return False


def screen_signature(scr: Any, refreshes: int) -> tuple[Any, ...]:
    """What the screen shows, in the values its widgets are drawn from: a tap is answered
    by the first frame in which this differs from before the tap."""
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    ids = scr.ids
    gate, tray, banner, actions = (ids.get(k) for k in ("gate", "dice", "banner", "actions"))
    return (
        refreshes, scr.info_text, scr.prompt_text, scr.turn_text,
        (gate.active, gate.phase, tuple(id(c) for c in gate.ids.content.children),
         # a choice refused behind the gate is answered there, on its page, never publicly
         tuple(getattr(c.ids.get("refusal"), "text", "") for c in gate.ids.content.children))
        if gate is not None else None,
        # The entry held, not its countdown's words (they change each second by themselves).
        (tray.model.pending, tray.entry_text, tray.last_text, tray.awaiting_text, tray.is_awaiting)
        if tray is not None else None,
        (banner.message, banner.shown > 0) if banner is not None else None,
        id(getattr(actions, "_shown", None)) if actions is not None else None,
        tuple(id(c) for c in Window.children if isinstance(c, ModalView)),
    )


# ----------------------------------------------------------------- one game, in this process


def run_game(game_id: str, taps: int, seed: int = 1) -> dict[str, Any]:
    """Play ``game_id`` through real touches until ``taps`` taps are measured (or the time
    runs out); returns the taps' figures (ms) and what was left unanswered."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from kivy.config import Config

    Config.set("graphics", "width", "800")
    Config.set("graphics", "height", "480")
    Config.set("input", "mouse", "mouse,disable_multitouch")
    from companion.ui.app import CompanionApp  # before kivy.clock: it picks the app's clock
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    import companion.table as table_module
    from companion.ui import gamescreen
    from companion.ui.presenters.setup import SetupModel

    rng = random.Random(seed)
    ledger = Ledger()
    # The Table's own work (its journal's included): exclusive of the engine's, wrapped below.
    ledger.wrap_class(table_module.Table, ["submit", "undo", "redo", "roll_for_me", "accept_crooked", "irreversible",
                                           "undo_reason", "can_undo", "log", "view", "private_view",
                                           "legal_actions", "hidden", "history", "tick", "check", "check_undo"],
                      "table")
    # A tap's commit runs on the input pump's thread; the UI thread's wait for it (at most
    # gamescreen.QUICK_COMMIT_S) is the Table's time too.
    ledger.wrap_class(gamescreen.GameScreen, ["_commit"], "table")
    ledger.wrap_class(gamescreen.GameScreen, ["action_specs"], "presenter")
    setup = SetupModel.for_game(game_id)
    seats, options = setup.named_seats(), dict(setup.options)
    folder = tempfile.mkdtemp(prefix="bench-taps-")
    done: list[dict[str, Any]] = []
    reveals: list[float] = []
    state: dict[str, Any] = {"pending": None, "refreshes": 0, "draw_began": 0.0, "step": 0, "unanswered": [],
                             "holding": None, "t_end": time.monotonic() + 30 + taps * 2.5, "games": 1,
                             "reveal": None, "error": "", "crash": ""}
    wrapped: set[int] = set()

    def instrument(app: Any) -> Any:
        scr = app.sm.get_screen(f"game:{game_id}")
        if id(scr) not in wrapped:
            wrapped.add(id(scr))
            refresh = scr.refresh

            def counted_refresh() -> None:
                state["refreshes"] += 1
                refresh()

            scr.refresh = counted_refresh
            gate = scr.ids.get("gate")
            if gate is not None:
                opened = gate._opened

                def timed_opened() -> None:
                    # The reveal comes from the gate's tick, not a touch: timed on its own.
                    state["reveal"] = time.perf_counter()
                    opened()

                gate._opened = timed_opened
        p = scr.presenter
        if p is not None and id(type(p)) not in wrapped:
            wrapped.add(id(type(p)))
            ledger.wrap_public(p, "presenter")
        game = getattr(app.table, "game", None)
        if game is not None and id(type(game)) not in wrapped:
            wrapped.add(id(type(game)))
            ledger.wrap_public(game, "engine")
        return scr

    def new_game(app: Any) -> Any:
        app.new_game(game_id, seats, dict(options), seed=seed + state["games"])
        return instrument(app)

    swap = Window.flip

    def on_draw(*_a: Any) -> None:
        state["draw_began"] = time.perf_counter()

    Window.fbind("on_draw", on_draw)

    def flip() -> None:
        swap()
        now = time.perf_counter()
        m = state["pending"]
        scr = state.get("screen")
        if scr is None:
            return
        gate = scr.ids.get("gate")
        if state["reveal"] is not None and gate is not None and gate.phase == "open" and gate.ids.content.children:
            reveals.append((now - state["reveal"]) * 1000)  # the seat's page is on screen
            state["reveal"] = None
        if m is None or m["t0"] is None:
            return
        if screen_signature(scr, state["refreshes"]) == m["sig"]:
            return
        parts = ledger.stop()
        total = now - m["t0"]
        drawing = now - max(state["draw_began"], m["t0"])
        rec = {"kind": m["kind"], "ms": total * 1000, "drawing": drawing * 1000,
               **{p: parts.get(p, 0.0) * 1000 for p in ("engine", "table", "presenter")}}
        rec["widgets"] = max(0.0, rec["ms"] - rec["drawing"] - rec["engine"] - rec["table"] - rec["presenter"])
        done.append(rec)
        state["pending"] = None

    Window.flip = flip

    def tap(w: Any, kind: str, on_press: bool = False) -> None:
        """Touch ``w`` down and up through the window; measure from the event that acts."""
        scr = state["screen"]
        t = touch_on(w)
        m = {"kind": kind, "t0": None, "sig": None, "at": time.monotonic()}

        def begin() -> None:
            m["sig"] = screen_signature(scr, state["refreshes"])
            ledger.start()
            m["t0"] = time.perf_counter()

        state["pending"] = m
        if on_press:
            begin()
            t.touch_down()
            state["holding"] = t
            return
        t.touch_down()
        if waits_in_scrollview(w):
            def up(_dt: float) -> None:
                begin()
                t.touch_up()

            Clock.schedule_once(up, 0.15)
        else:
            begin()
            t.touch_up()

    def choose(app: Any, scr: Any) -> tuple[Any, str, bool] | None:
        """The next thing to tap, from what the screen offers (see the module's doc)."""
        ids = scr.ids
        modals = [c for c in Window.children if isinstance(c, ModalView)]
        if modals:
            ok = modals[0].ids.get("ok")
            if ok is not None and tappable(ok):
                return ok, "confirmation", False
            found = buttons_in(modals[0])
            return (found[-1], "modal", False) if found else None
        gate = ids.get("gate")
        if gate is not None and gate.active:
            if gate.phase == "waiting":
                return gate.ids.hold, "gate hold", True
            if gate.phase == "open":
                content = buttons_in(gate.ids.content)
                if content and rng.random() < 0.7:
                    return rng.choice(content), "secret choice", False
                done_btn = next((b for b in buttons_in(gate) if "Done" in b.text), None)
                return (done_btn, "gate close", False) if done_btn is not None else None
            return None
        tray = ids.get("dice")
        if tray is not None and tray.is_awaiting:
            if tray.model.pending is not None and tappable(tray.ids.roll_for_me):
                return tray.ids.roll_for_me, "die commit", False
            faces = buttons_in(tray.ids.faces)
            if faces:
                return rng.choice(faces), "die by hand", False
        step = state["step"]
        undo = ids.get("undo")
        if step % 7 == 6 and undo is not None and tappable(undo):
            return undo, "undo", False
        if step % 5 == 4 and "board" in ids:
            squares = buttons_in(ids.board)
            if squares:
                return rng.choice(squares), "board square", False
        if "actions" in ids:
            panel = ids.actions
            specs = list(panel._shown or ())
            shown = panel.buttons
            pairs = [(s, b) for s, b in zip(specs, shown) if tappable(b)]
            if not pairs and shown:
                # Scrolled away: the panel sits in the side column's scroll area (it is no
                # scroll area of its own since the layout at 800x480).
                view = scroll_area_of(shown[0])
                if view is not None:
                    view.scroll_to(shown[0], animate=False)
                return None
            submits = [(s, b) for s, b in pairs if s.intent == "submit"]
            gates = [(s, b) for s, b in pairs if s.intent in ("hand", "physical-draw")]
            if gates and (step % 4 == 3 or not submits and rng.random() < 0.5):
                s, b = rng.choice(gates)
                return b, KINDS[s.intent], False
            if submits and step % 6 == 5:
                # Now and then a tap the Table says cannot be undone (an attack, a card
                # revealed), when one is offered: the screen asks first (a confirmation).
                asking = [(s, b) for s, b in submits if s.action is not None and irreversible(app.table, s.action)]
                if asking:
                    s, b = rng.choice(asking)
                    return b, "decision", False
            if submits:
                s, b = rng.choice(submits)
                return b, "decision", False
            others = [(s, b) for s, b in pairs if s.intent not in ("hands", "back")]
            if others:
                s, b = rng.choice(others)
                return b, KINDS.get(s.intent, "panel step"), False
        return None

    def advance(app: Any) -> None:
        """Nothing on screen to tap: let the Table play on (not measured)."""
        t = app.table
        try:
            acts = [a for a in t.legal_actions() if not getattr(a, "chance", False)]
            if acts:
                t.submit(rng.choice(acts))
            else:
                t.roll_for_me()
        except gamescreen.REFUSALS as e:  # a refusal: the next step picks again
            state["error"] = f"{type(e).__name__}: {e}"

    def step(_dt: float) -> None:
        app = state["app"]
        try:
            _step(app)
        except BaseException as e:
            import traceback

            state["error"] = state["crash"] = traceback.format_exc()
            print(f"bench taps ({game_id}): {e!r}", file=sys.__stderr__)
            app.stop()

    def _step(app: Any) -> None:
        if len(done) >= taps or time.monotonic() > state["t_end"]:
            app.stop()
            return
        m = state["pending"]
        scr0 = state["screen"]
        if m is not None:
            if m["t0"] is not None and time.monotonic() - m["at"] > ANSWER_TIMEOUT_S:
                if DEBUG:
                    print(f"unanswered {m['kind']}: {m['sig']} == {screen_signature(scr0, state['refreshes'])}",
                          file=sys.__stderr__)
                ledger.stop()
                state["pending"] = None
                state["unanswered"].append(m["kind"])
            Clock.schedule_once(step, 0.02)
            return
        held = state["holding"]
        scr = state["screen"]
        if held is not None:
            gate = scr.ids.gate
            revealing = state["reveal"] is not None and time.perf_counter() - state["reveal"] < ANSWER_TIMEOUT_S
            if gate.phase == "holding" or revealing:
                Clock.schedule_once(step, 0.05)  # keep holding until the page shows
                return
            held.touch_up()
            state["holding"] = state["reveal"] = None
            Clock.schedule_once(step, 0.1)
            return
        if app.table.outcome is not None:
            state["games"] += 1
            state["screen"] = new_game(app)
            Clock.schedule_once(step, 0.3)
            return
        picked = choose(app, scr)
        state["step"] += 1
        if picked is None:
            advance(app)
            Clock.schedule_once(step, 0.1)
            return
        w, kind, on_press = picked
        if DEBUG:
            print(f"tap {kind}: {getattr(w, 'text', w)!r}", file=sys.__stderr__)
        tap(w, kind, on_press)
        Clock.schedule_once(step, 0.05)

    def on_ready(app: Any) -> None:
        from kivy.graphics.opengl import GL_RENDERER, glGetString

        state["renderer"] = glGetString(GL_RENDERER).decode(errors="replace")
        state["threads"] = len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else 0
        state["app"] = app
        state["screen"] = new_game(app)
        Clock.schedule_once(step, 1.0)

    app = CompanionApp(journal_path=os.path.join(folder, "journal.sqlite3"),
                       settings_path=os.path.join(folder, "settings.json"), on_ready=on_ready)
    # A table that has seen the screen's tour once: the figures are play, not the tour.
    app.settings = app.settings.with_changes(sound=False, tour_seen=True)
    app.run()
    shutil.rmtree(folder, ignore_errors=True)
    return {"game": game_id, "taps": done, "reveals": reveals, "unanswered": state["unanswered"],
            "games": state["games"],
            "renderer": state.get("renderer", ""), "threads": state.get("threads", 0), "crash": state["crash"],
            "error": state["error"] if not done else ""}


# ----------------------------------------------------------------- the parent


def pin_to_one_core() -> int:
    """Pin this process (and the threads it starts: llvmpipe's) to one core; returns it."""
    cpu = int(os.environ.get("TC_TAPS_CPU", min(os.sched_getaffinity(0))))
    os.sched_setaffinity(0, {cpu})
    return cpu


def child_env() -> dict[str, str]:
    """Mesa's software rasteriser with one thread, as a Pi's single-threaded draw."""
    return {**os.environ, "LP_NUM_THREADS": "1", "LIBGL_ALWAYS_SOFTWARE": "1", "KIVY_NO_ARGS": "1",
            "KIVY_NO_CONSOLELOG": "1", "SDL_AUDIODRIVER": "dummy"}


def run_child(game_id: str, taps: int) -> dict[str, Any]:
    """One game in a process of its own (Kivy runs one app per process)."""
    cmd = [sys.executable, "-m", "benchmarks.bench_taps", f"--child={game_id}", f"--taps={taps}"]
    out = subprocess.run(cmd, cwd=ROOT, env=child_env(), capture_output=True, text=True, timeout=120 + taps * 5)
    for line in reversed(out.stdout.splitlines()):
        if line.startswith(RESULT):
            return json.loads(line[len(RESULT):])
    return {"game": game_id, "taps": [], "reveals": [], "unanswered": [],
            "error": f"exit {out.returncode}: {(out.stderr or out.stdout)[-1500:]}"}


def main(argv: list[str]) -> int:
    taps = DEFAULT_TAPS
    games: list[str] = []
    child = ""
    for a in argv:
        if a.startswith("--taps="):
            taps = int(a.split("=", 1)[1])
        elif a == "--quick":
            taps = 20
        elif a.startswith("--game="):
            games.append(a.split("=", 1)[1])
        elif a.startswith("--child="):
            child = a.split("=", 1)[1]
    if child:
        cpu = pin_to_one_core()
        print(f"{child}: pinned to core {cpu}, LP_NUM_THREADS={os.environ.get('LP_NUM_THREADS')}", flush=True)
        print(RESULT + json.dumps(run_game(child, taps)), flush=True)
        return 0
    if not os.environ.get("DISPLAY"):
        if shutil.which("xvfb-run") is None:
            print("bench taps: no DISPLAY and no xvfb-run")
            return 2
        return subprocess.call([*XVFB, sys.executable, "-m", "benchmarks.bench_taps", *argv], cwd=ROOT)
    from rules.registry import catalog

    known = [g.id for g in catalog()]
    unknown = [g for g in games if g not in known]
    if unknown:
        print(f"bench taps: unknown game(s) {', '.join(unknown)}; installed: {', '.join(known)}")
        return 2
    print(f"load average before: {os.getloadavg()[0]:.2f}; {taps} taps per game, 800x480, llvmpipe with "
          f"LP_NUM_THREADS=1, each game's process pinned to one core", flush=True)
    p99s: dict[str, float] = {}
    rc = 0
    for game_id in games or known:
        r = run_child(game_id, taps)
        if not r["taps"]:
            print(f"{game_id}: no tap measured: {r.get('error', '')}")
            rc = 1
            continue
        if not p99s:  # the first game's: the same for every one
            print(f"renderer: {r.get('renderer', '?')}; the app's process had {r.get('threads', '?')} threads "
                  f"when its game opened", flush=True)
        for line in game_lines(game_id, r["taps"], r["reveals"], r["unanswered"]):
            print(line, flush=True)
        if r.get("crash"):  # the run stopped early: what stopped it
            print(f"{game_id}: stopped by an error after {len(r['taps'])} taps:\n{r['crash']}")
            rc = 1
        p99s[game_id] = summary([t["ms"] for t in r["taps"]])["p99"]
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    if p99s:
        print(worst_line(p99s), flush=True)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
