"""The base class a game's table screen subclasses (see README.md, "How to add a game screen").

The app calls :meth:`GameScreen.bind_table` with a Table when a game is opened or resumed,
:meth:`unbind_table` when it is left, and :meth:`show_reading` with every physical input
event as it arrives. Everything else comes from the bound Table's subscription, on the UI
thread: changes (:meth:`on_change`), clock alerts, and each routed input's result once
(:meth:`show_route`, from the Table's "routed" change). A subclass builds its widgets in
its ``.kv`` and refreshes them from the Table's public view in :meth:`refresh`.
"""
from __future__ import annotations

from typing import Any, Callable

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen


class GameScreen(Screen):
    table = ObjectProperty(None, allownone=True)
    game_id = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._unsubscribe: Callable[[], None] | None = None
        self._tick_ev: Any = None
        self._clock_alert: Any = None  # the clock alert the banner shows (a ClockAlert)
        # Bursts of changes (a die and a move in one frame) refresh once per frame.
        self._refresh_trigger = Clock.create_trigger(lambda dt: self.refresh(), 0)

    def bind_table(self, table: Any) -> None:
        self.unbind_table()
        self.table = table
        self._unsubscribe = table.subscribe(self._on_change)
        if getattr(table, "clocks", None) is not None:
            # The Table advances its clocks when asked; warnings and flag falls come back
            # as "clock" changes.
            self._tick_ev = Clock.schedule_interval(lambda dt: self._tick(), 0.25)
        self.on_table_bound(table)
        self.refresh()

    def _tick(self) -> None:
        if self.table is not None:
            try:
                self.table.tick(wait=False)  # never wait out another thread's commit
            except ValueError:  # a closed table
                pass

    def unbind_table(self) -> None:
        if self._tick_ev is not None:
            self._tick_ev.cancel()
            self._tick_ev = None
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self.table = None

    def _on_change(self, change: Any) -> None:
        # Table callbacks may come from a clock or bridge thread: marshal to the UI thread.
        Clock.schedule_once(lambda dt: self._dispatch_change(change), 0)

    def _dispatch_change(self, change: Any) -> None:
        kind = getattr(change, "kind", "")
        if kind == "clock":
            self.announce_clock(change.detail or ())
        elif kind == "routed":  # the one way an input event's result reaches the screen
            self.show_route(change.detail.event, change.detail.result)
            return
        self.on_change(change)

    def announce_clock(self, events: Any) -> None:
        """Low time, a flag fall, a penalty minute…: the most serious of a tick's events
        goes to the banner (every one stays in the Table's clock events), with a cue. Time
        given back to that seat by an admin takes its banner down."""
        from .presenters.clock_alerts import RULE, alerts_for, gives_time_back

        table = self.table
        names = {s["id"]: s.get("name") or s["id"] for s in (table.seats if table is not None else ())}
        events = list(events)
        alerts = alerts_for(events, names)
        banner = self.ids.get("banner")
        if banner is None:
            return
        shown = self._clock_alert
        if shown is not None and banner.shown > 0 and banner.message == shown.message and gives_time_back(events, shown):
            banner.hide()
            self._clock_alert = None
        if not alerts:
            return
        worst = max(alerts, key=lambda a: a.kind == "bad")
        self._clock_alert = worst
        banner.show(worst.message, RULE, worst.code, kind=worst.kind)
        app = App.get_running_app()
        if app is not None and hasattr(app, "cue"):
            app.cue(worst.cue)

    # ---------------------------------------------------------------- hooks

    def on_table_bound(self, table: Any) -> None:
        """Build anything that depends on the game's seats or board."""

    def on_change(self, change: Any) -> None:
        """A Table change (action, undo, clock…); by default refresh on the next frame."""
        self._refresh_trigger()

    def refresh(self) -> None:
        """Redraw from the Table's public view."""

    def show_reading(self, event: Any) -> None:
        """A physical input event as the device reports it, before the Table has checked it
        (a die's motion, its reading, a device gone offline)."""

    def humanise(self, text: str) -> str:
        """Player words for an engine message (seat ids → names…): the presenter's."""
        presenter = getattr(self, "presenter", None)
        return presenter.humanise(text) if presenter is not None and hasattr(presenter, "humanise") else text

    def after_accept(self, action: Any) -> None:
        """An action (or a routed input) was accepted: by default hide the banner and
        refresh. Games add what their screen resets (an info text, a peek)."""
        self.ids.banner.hide()
        self._refresh_trigger()

    def after_undo(self) -> None:
        """An undo was done: by default as after an accepted action."""
        self.after_accept(None)

    undo_rule = "Undo policy (Board Game Arena's): never across another seat's action, a revealed secret or a roll everyone saw"

    # ------------------------------------------------ what every game screen does

    def submit(self, action: Any) -> bool:
        """Give an action to the Table; a refusal shows every violation in player words
        and changes nothing. A journal that cannot save (a full disk) is shown the same
        way: nothing was applied."""
        if self.table is None:
            return False
        from rules.core import IllegalAction

        try:
            self.table.submit(action, source=getattr(action, "source", "touch") or "touch")
        except IllegalAction as e:
            vs = e.violations
            self.ids.banner.show(" ".join(self.humanise(v.message) for v in vs),
                                 " · ".join(dict.fromkeys(v.rule for v in vs)), vs[0].code if vs else "illegal")
            self._cue("rejected")
            return False
        except ValueError as e:
            self.show_rejection(getattr(e, "code", "refused"), str(e))
            return False
        self.after_accept(action)
        return True

    def undo(self) -> None:
        if self.table is None:
            return
        try:
            self.table.undo()
        except ValueError as e:
            reason = getattr(e, "reason", None) or str(e)
            self.ids.banner.show(f"Undo refused: {self.humanise(reason)}.", self.undo_rule, "undo-refused", kind="warn")
            return
        self.after_undo()

    def show_route(self, event: Any, result: Any) -> None:
        """A physical input event was routed by the Table (once, on the UI thread): a
        refusal goes to the banner in player words; an accepted input as a tap would."""
        rejected = getattr(result, "rejected", None)
        if rejected is not None:
            if rejected.code != "crooked-die":  # the dice tray shows that one
                # The message says what was refused in player words ("The end-turn
                # button…"); the device's address ("button:gpio/end-turn") is not for players.
                self.ids.banner.show(self.humanise(rejected.message), getattr(rejected, "rule", ""), rejected.code)
        elif getattr(result, "accepted", None) is not None:
            self.after_accept(result.accepted.action)

    def show_rejection(self, code: str, message: str) -> None:
        """Show a refused action with the rule it broke."""
        self.ids.banner.show(self.humanise(message), "", code)
        self._cue("rejected")

    def _cue(self, name: str) -> None:
        app = App.get_running_app()
        if app is not None and hasattr(app, "cue"):
            app.cue(name)
