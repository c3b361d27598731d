"""The base class a game's table screen subclasses (see README.md, "How to add a game screen").

The app calls :meth:`GameScreen.bind_table` with a Table when a game is opened or resumed,
:meth:`unbind_table` when it is left, :meth:`show_reading` with every physical input event
as it arrives, and :meth:`show_route` with its result once the Table has routed it (both on
the UI thread). A subclass builds its widgets in
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
        if getattr(change, "kind", "") == "clock":
            self.announce_clock(change.detail or ())
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

    def show_route(self, event: Any, result: Any) -> None:
        """A physical input event was routed by the Table: show it (accepted or rejected)."""

    def show_rejection(self, code: str, message: str) -> None:
        """Show a refused action with the rule it broke."""
