"""The Kivy App: a ScreenManager holding the shared screens (home, setup, devices,
settings, end) and one table screen per game, created on first use from the registry.

App-level properties the .kv files bind to: ``app.theme`` (colours, text sizes, glyphs),
``app.table`` (the game in progress or None), ``app.settings``, ``app.devices`` (the
devices presenter), ``app.demo``. Physical input events arrive on reader threads through
:meth:`CompanionApp.post_event`: the screen shows the device's reading at once, and the
Table routes the event on the input pump's thread (:mod:`companion.ui.pump`).
"""
from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import Any, Callable

from kivy.config import Config

if "kivy.clock" not in sys.modules:
    # Bridge events arrive on reader threads. With Kivy's default clock a
    # schedule_once from such a thread waits for the main loop's next frame boundary
    # (up to 1/60 s of sleep); the interrupt clock wakes the loop at once. It must be
    # chosen before kivy.clock is first imported (KIVY_CLOCK in the environment wins).
    Config.set("kivy", "kivy_clock", "interrupt")

if "kivy.core.window" not in sys.modules and "KCFG_GRAPHICS_MULTISAMPLES" not in os.environ:
    # No multisampled window. Nearly all of a table screen reaches the window as pictures
    # of single-sampled buffers (widgets/cached.py), so Kivy's default 2x multisampling
    # smoothed almost nothing (744 bytes of 1.5 MB differed in the demo table's screenshot)
    # while doubling every frame's rasterising in software GL and adding a resolve to
    # every swap: dice-to-screen p50 13.9 → 6.5 ms here. ``KCFG_GRAPHICS_MULTISAMPLES=2``
    # in the environment brings it back.
    Config.set("graphics", "multisamples", "0")

from kivy.app import App  # noqa: E402  (after the clock is chosen)
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty  # noqa: E402
from kivy.uix.screenmanager import NoTransition, ScreenManager  # noqa: E402

from kivy import kivy_data_dir  # noqa: E402
from kivy.core.text import LabelBase  # noqa: E402

from . import collector  # noqa: E402
from .presenters.palette import load_palette  # noqa: E402
from .presenters.settings import Settings  # noqa: E402
from .pump import InputPump, PumpClosed  # noqa: E402
from .registry import screen_for  # noqa: E402
from .theme import FONT, FONT_FILE, Theme  # noqa: E402

# Registered, the font's name is a dictionary lookup (an unregistered name made Kivy
# search the resource paths ~600 times before the first frame). Kivy synthesises bold.
# A wheel built without the .ttf (pyproject's package-data) falls back to Kivy's own
# DejaVu Sans: a few glyphs show as boxes, rather than no app at all.
LabelBase.register(FONT, str(FONT_FILE) if FONT_FILE.is_file() else os.path.join(kivy_data_dir, "fonts", "DejaVuSans.ttf"))

log = logging.getLogger("companion.ui")

SHARED_SCREENS = {
    "home": "companion.ui.screens.home:HomeScreen",
    "setup": "companion.ui.screens.setup:SetupScreen",
    "devices": "companion.ui.screens.devices:DevicesScreen",
    "settings": "companion.ui.screens.settings:SettingsScreen",
    "end": "companion.ui.screens.end:EndScreen",
}


def _import(target: str) -> Any:
    import importlib

    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


class CompanionApp(App):
    theme = ObjectProperty(None)
    settings = ObjectProperty(None)
    table = ObjectProperty(None, allownone=True)
    journal = ObjectProperty(None, allownone=True)
    devices = ObjectProperty(None, allownone=True)
    demo = BooleanProperty(False)
    journal_error = StringProperty("")
    journal_notice = StringProperty("")  # what opening the journal had to repair (shown on home)
    title = "Tabletop Companion"

    def __init__(self, journal_path: str | None = None, settings_path: str | None = None,
                 demo: bool = False, on_ready: Callable[["CompanionApp"], None] | None = None,
                 gpio: str | None = None, pin_map: str | None = None, **kw: Any) -> None:
        self.theme = Theme()
        super().__init__(**kw)
        self.journal_path = journal_path
        self.settings_path = settings_path or str(Path(self.user_data_dir) / "settings.json")
        self.demo = demo
        self._on_ready = on_ready
        self.settings = Settings.load(self.settings_path)
        self.theme.apply(load_palette(self.settings.palette), self.settings.text_scale)
        self.sm: ScreenManager | None = None
        self._closers: list[Callable[[], None]] = []
        self._history: list[str] = []
        self.demo_link: Any = None  # set by demo.start_demo
        # The GPIO header: "pi", "mock" or "off" (gpio_link.resolve_mode: --gpio, else
        # TC_GPIO, else "pi" on a Raspberry Pi and "off" elsewhere); its link once started.
        from .gpio_link import resolve_mode

        self.gpio_mode = resolve_mode(gpio)
        self.pin_map_path = pin_map or os.environ.get("TC_PIN_MAP") or None
        self.gpio_link: Any = None  # set by gpio_link.start_gpio
        # Bridge events are routed on this pump's thread (started by the first event).
        self._pump = InputPump(lambda e: self._route(e))
        self._closers.append(self._pump.close)
        self._settle_armed = False
        self._journal_errors = _JournalErrors(self)

    # ------------------------------------------------------------------ build

    def build(self) -> ScreenManager:
        from .widgets import base  # noqa: F401  (the themed basics every .kv uses)

        from kivy.base import ExceptionManager

        ExceptionManager.add_handler(self._journal_errors)
        self._closers.append(lambda: ExceptionManager.remove_handler(self._journal_errors))
        Window.clearcolor = self.theme.bg
        self.theme.bind(bg=lambda _t, v: setattr(Window, "clearcolor", v))
        self.apply_keep_awake()
        self.open_journal()
        sm = ScreenManager(transition=NoTransition())
        self.sm = sm
        if not self.demo:
            self.screen("home")
        # else the demo's table is the first screen; home (its .kv, the saved-games
        # list) is made when first visited, not before the table's first frame.
        Window.bind(on_keyboard=self._on_key)
        # Once the first screen is up (and again after each table opens): collect what
        # start-up left and keep the app's long-lived objects out of later collections.
        self._settle_trigger = Clock.create_trigger(lambda _dt: collector.settle(), 0.25)
        self._settle_memory()
        # Full collections while nobody touches the screen, never under a finger.
        # A die or a token counts as a touch: a collection must not fall on its reading.
        idle = self._idle_gc = collector.IdleCollector()
        Window.bind(on_touch_down=lambda *_a: idle.touched(), on_touch_up=lambda *_a: idle.touched())
        Clock.schedule_interval(lambda _dt: idle.tick(), 1.0)
        Clock.schedule_once(self._ready, 0)
        return sm

    def _settle_memory(self) -> None:
        """Settle the collector 0.25 s after the next frame is on screen. Not by a delay
        alone: before the main loop runs, Kivy counts a delay from the clock's creation, so
        a trigger set in ``build`` fired in the first tick, before the first frame, and
        collections ran again while the table was being built."""
        if self._settle_armed:
            return
        self._settle_armed = True

        def flipped(*_a: Any) -> None:
            Window.unbind(on_flip=flipped)
            self._settle_armed = False
            self._settle_trigger()

        Window.bind(on_flip=flipped)

    def _ready(self, _dt: float) -> None:
        if self.gpio_mode != "off":
            # As the demo's hub: the link joins the devices panel now, its pins open once
            # the first frame is on screen; a failure is shown there, never raised.
            from .gpio_link import start_gpio

            start_gpio(self, self.gpio_mode, self.pin_map_path)
        if self._on_ready is not None:
            self._on_ready(self)
        assert self.sm is not None
        if not self.sm.screens:  # the demo could not open its table
            self.go("home")

    def open_journal(self) -> None:
        from companion.journal import Journal, JournalError

        try:
            self.journal = Journal.open(self.journal_path)
            self._closers.append(self.journal.close)
        except (JournalError, OSError) as e:  # no journal: the app still opens, and says why
            log.exception("journal unavailable")
            self.journal_error = f"The game journal cannot be opened: {e}"
            return
        except Exception:  # never a raw exception on screen: the log has it
            log.exception("journal unavailable")
            self.journal_error = ("The game journal cannot be opened (an unexpected error, written to the log). "
                                  "The file is left as it is.")
            return
        if self.journal.recovery is not None:  # a damaged journal was set aside: say so on home
            self.journal_notice = self.journal.recovery.message

    def show_journal_error(self, err: Exception) -> None:
        """A journal write or read failed (a full disk, another window, damage): nothing was
        saved or changed. Shown where the player is, in the error's plain words; the app
        carries on."""
        log.warning("journal: %s (%s)", err, getattr(err, "sqlite_error", ""))
        scr = self._table_screen(self.table)
        if scr is not None and self.sm is not None and self.sm.current == scr.name:
            scr.show_rejection(getattr(err, "code", "journal-error"), str(err))
        elif self.sm is not None and self.sm.has_screen("home"):
            self.sm.get_screen("home").message = str(err)

    def screen(self, name: str) -> Any:
        """The screen called ``name``, created (and its .kv loaded) on first use."""
        assert self.sm is not None or name == "home"
        if self.sm is not None and self.sm.has_screen(name):
            return self.sm.get_screen(name)
        if name.startswith("game:"):
            cls = screen_for(name[5:]).load_class()
            scr = cls(name=name, game_id=name[5:])
        else:
            scr = _import(SHARED_SCREENS[name])(name=name)
        if self.sm is not None:
            self.sm.add_widget(scr)
        return scr

    def go(self, name: str) -> Any:
        scr = self.screen(name)
        assert self.sm is not None
        if self.sm.current != name and self.sm.current:
            self._history.append(self.sm.current)
            del self._history[:-20]
        self.sm.current = name
        return scr

    def back(self) -> None:
        """Back to the screen before this one (home if there is none)."""
        assert self.sm is not None
        while self._history:
            name = self._history.pop()
            if name != self.sm.current and self.sm.has_screen(name):
                self.sm.current = name
                return
        self.screen("home")  # made on first use
        self.sm.current = "home"

    def _on_key(self, _window: Any, key: int, *args: Any) -> bool:
        # Escape / Android back goes home from a shared screen instead of quitting.
        if key == 27 and self.sm is not None and self.sm.current != "home":
            self.back()
            return True
        return False

    @property
    def data_dir(self) -> Path:
        """Where this user's data lives: the journal's folder (the platform's user data
        folder unless ``--journal`` names another); exports go to ``exports/`` in it."""
        if self.journal_path:
            return Path(self.journal_path).resolve().parent
        from companion.journal import default_path

        return default_path().parent

    # ------------------------------------------------------------------ games

    def new_game(self, game_id: str, seats: list[dict[str, str]], options: dict[str, Any] | None = None,
                 seed: int | None = None, clocks: Any = None, devices: dict[str, str] | None = None,
                 position: dict[str, Any] | None = None) -> Any:
        """Start a game through the Table (journalled first) and open its table screen;
        ``position``: a game joined where it stands. Raises the engine's InvalidSetup (a
        ValueError) naming every problem (a refused position in players' words)."""
        from companion.table import Table

        table = Table.create(self.journal, game_id=game_id, seats=seats, options=options or {},
                             seed=seed, clocks=clocks, devices=devices or {}, position=position)
        self.open_table(table)
        return table

    def resume_game(self, key: str) -> Any:
        """Open a game in progress. The game still open behind the home screen is shown
        again as it is: reopening it from the journal would charge its clocks for a
        "restart" (and say the app was closed) when the app never was."""
        from companion.table import Table

        if self.table is not None and self.table.key == key:
            self.go(f"game:{self.table.game_id}")
            return self.table
        table = Table.resume(self.journal, key)
        self.open_table(table)
        return table

    def open_table(self, table: Any) -> None:
        self.close_table()
        self.table = table
        scr = self.screen(f"game:{table.game_id}")
        scr.bind_table(table)
        self.go(scr.name)
        self._settle_memory()
        if not self.settings.tour_seen:
            # A new table's first game: a short tour of the screen, once (Settings shows
            # it again). After the screen's first layout, so each part can be outlined.
            Clock.schedule_once(lambda _dt: self.start_tour(scr), 0.6)

    def start_tour(self, scr: Any) -> None:
        """The table tour over ``scr`` (the game's tour.json, else the shared parts' data/tour.json); marked as seen when done or skipped."""
        if self.sm is None or self.sm.current != scr.name or self.table is None:
            return
        from .presenters.tour import TourModel
        from .widgets.tour import TourOverlay

        model = TourModel.for_game(self.table.game_id)
        if model.done:
            return
        scr.tour = TourOverlay()
        scr.tour.start(scr, model, on_done=lambda: self.apply_settings(self.settings.with_changes(tour_seen=True)))

    def close_table(self) -> None:
        if self.table is not None:
            collector.release()  # what only this table used may now be collected
            if self.sm is not None and self.sm.has_screen(f"game:{self.table.game_id}"):
                self.sm.get_screen(f"game:{self.table.game_id}").unbind_table()
            try:
                self.table.close()
            except Exception:
                log.exception("closing the table")
            self.table = None

    def show_end(self) -> None:
        """The game is over: the end screen (winner, chart, export, the final board). Once:
        a second refresh of the last state (the Table's own report of the last action,
        after the tap's answer) finds the end screen up for this table and leaves it,
        with the picture taken when the table was still on screen."""
        if self.sm is not None and self.sm.current == "end" and getattr(self.screen("end"), "table", None) is self.table:
            return
        final = self._final_board()
        scr = self.screen("end")
        scr.show(self.table, final_board=final)
        self.go("end")

    def _final_board(self) -> Any:
        """A picture of the table screen as the game ended (what everyone at the table
        saw: the public view), or None. Never while a privacy gate shows a private view."""
        scr = self._table_screen(self.table)
        if scr is None or self.sm is None or self.sm.current != scr.name:
            return None
        gate = scr.ids.get("gate")
        if gate is not None and getattr(gate, "active", False):
            return None
        from .screens.end import read_only_picture

        try:
            return read_only_picture(scr)  # the board without its controls: nothing in it looks live
        except Exception:  # a GL without framebuffers: no picture, the rest of the end screen stands
            log.exception("final board picture")
            return None

    # --------------------------------------------------------------- devices

    def post_event(self, event: Any) -> None:
        """Thread-safe: called by bridge reader threads with a firmware_bridge event. The
        screen shows the device's reading at once; the Table routes the event on the input
        pump's thread (its journal commit never holds up the screen), and the result comes
        back to the UI thread."""
        idle = getattr(self, "_idle_gc", None)
        if idle is not None:
            idle.touched()  # a device's input: no full collection while the table is playing
        Clock.schedule_once(lambda dt: self.show_reading(event), 0)
        try:
            self._pump.put(event)
        except PumpClosed:  # the app is closing: a reader thread's last event goes nowhere
            log.debug("input after the app closed: %s", type(event).__name__)

    @property
    def input_pump(self) -> InputPump:
        """The one ordered thread that carries input to the Table: bridge events, and the
        table screen's taps (GameScreen puts its commits here, so taps and dice keep one order)."""
        return self._pump

    def route_event(self, event: Any) -> Any:
        """On the UI thread, at once: show the reading and let the Table route the event to
        the action the game waits for; returns the RouteResult (or None without a table).
        The table screen shows the result as every result reaches it: through the Table's
        "routed" change."""
        self.show_reading(event)
        return self._route(event)

    def show_reading(self, event: Any) -> None:
        """On the UI thread: what the device reports (the devices panel, the die's live state
        in the tray), before the Table has checked it."""
        if self.devices is not None:
            self.devices.record(event)
        scr = self._table_screen(self.table)
        if scr is not None:
            scr.show_reading(event)

    def _route(self, event: Any) -> Any:
        """The Table's RouteResult for ``event``, or None without an open table. On the
        input pump's thread, or the UI thread for :meth:`route_event`."""
        table = self.table  # the game the event was meant for, as the pump reaches it
        if table is None:
            return None
        from companion.table import TableClosed

        try:
            return table.route(event)
        except TableClosed:  # left while the event waited: nothing to apply it to
            return None

    def _table_screen(self, table: Any) -> Any:
        name = f"game:{table.game_id}" if table is not None else ""
        if table is None or self.sm is None or not self.sm.has_screen(name):
            return None
        return self.sm.get_screen(name)

    def add_closer(self, fn: Callable[[], None]) -> None:
        """Something to stop when the app stops (a bridge, a simulated hub)."""
        self._closers.insert(0, fn)

    # -------------------------------------------------------------- settings

    def apply_settings(self, settings: Settings) -> None:
        self.settings = settings
        settings.save(self.settings_path)
        self.theme.apply(load_palette(settings.palette), settings.text_scale)
        self.apply_keep_awake()

    def apply_keep_awake(self) -> None:
        try:
            Window.allow_screensaver = not self.settings.keep_awake
        except Exception:  # a window provider without the property
            log.debug("cannot change the screensaver setting", exc_info=True)

    def cue(self, name: str) -> None:
        """Play a sound cue if sounds are on (see :mod:`companion.ui.sound`)."""
        if self.settings.sound:
            from .sound import play_cue

            play_cue(name)

    # ------------------------------------------------------------- lifecycle

    def on_pause(self) -> bool:
        # The journal commits every action as it happens; nothing is left to save.
        return True

    def on_stop(self) -> None:
        self.close_table()
        for fn in self._closers:
            try:
                fn()
            except Exception:
                log.exception("closing")
        self._closers.clear()


class _JournalErrors:
    """Kivy's exception handler for a journal error that no screen caught (a touch whose
    action could not be saved): the app shows it and carries on instead of closing. Every
    other exception still ends the app as before."""

    def __init__(self, app: CompanionApp) -> None:
        self.app = app

    def handle_exception(self, inst: BaseException) -> int:
        from kivy.base import ExceptionManager

        from companion.journal import JournalError

        if isinstance(inst, JournalError):
            try:
                self.app.show_journal_error(inst)
            except Exception:
                log.exception("showing a journal error")
            return ExceptionManager.PASS
        return ExceptionManager.RAISE


def run(journal_path: str | None = None, settings_path: str | None = None, demo: bool = False,
        on_ready: Callable[[CompanionApp], None] | None = None, gpio: str | None = None) -> CompanionApp:
    app = CompanionApp(journal_path=journal_path, settings_path=settings_path, demo=demo, on_ready=on_ready, gpio=gpio)
    app.run()
    return app
