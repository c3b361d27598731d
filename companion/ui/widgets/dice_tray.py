"""The dice tray: what roll the game waits for, each physical die's live state (picked
up, rolling…, rolled, crooked "re-roll or accept"), the latest result, and two fallbacks:
manual entry (tap the face the real die shows) and the app's own roller.

A face entered by hand is held for ``grace_s`` seconds ("4 — committing in 3 s, tap to
change") before it goes to the Table: a chance result cannot be undone once submitted,
so this is the moment to fix a mistyped face. "✔ Now" submits it at once.

When a hub reports throws it could not deliver (``ThrowsMissed``: made while it was
unplugged or the app was closed, beyond what its result queue keeps), the tray says so in
words above the faces, for ``notice_s`` seconds or until "OK" is tapped.

The faces wrap onto as many rows as the tray's width needs, so every face of the die
(all six at 800×600, where one row showed 1–5) stays a 48 dp target."""
from __future__ import annotations

import math
import time
from typing import Any, Callable

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.errors import CompanionError

from ..kvload import load_kv
from ..presenters.dice import DiceModel, LiveDie, live_dice
from .base import TCButton
from .cached import CachedView  # noqa: F401  (used in dice_tray.kv)
from .drawn import set_drawn

# The labels of the buttons beside the faces (dice_tray.kv): their width fits each.
SIDE_LABELS = ("✔ Now", "⚄ App", "roll", "⚄ Demo", "die")


class DiceTray(BoxLayout):
    awaiting_text = StringProperty("")
    guide_text = StringProperty("")  # what to do now, in words: which input is live
    # The guide has the status line's slot while a throw is awaited and nothing is
    # entered or held yet, nor a throw refused (its words matter then).
    show_guide = BooleanProperty(False)
    last_text = StringProperty("")
    last_ok = BooleanProperty(True)
    dice_text = StringProperty("")
    is_awaiting = BooleanProperty(False)
    crooked_value = NumericProperty(0)
    sides = NumericProperty(6)
    # Set by the screen: submit(action, then=...) -> bool (False when refused at once;
    # then(accepted) once the Table committed it or refused), roll_for_me() -> bool.
    submit = ObjectProperty(None, allownone=True)
    roll_for_me = ObjectProperty(None, allownone=True)
    throw = ObjectProperty(None, allownone=True)  # demo: throw the simulated hub's die
    accept_crooked = ObjectProperty(None, allownone=True)  # set by the screen: (then) -> bool
    humanise = ObjectProperty(None, allownone=True)  # set by the screen: seat ids → names
    who_of = ObjectProperty(None, allownone=True)  # set by the screen: a seat → "Ann (▲ Cops)"
    pending_text = StringProperty("")  # a face entered by hand, held before it is submitted
    entry_text = StringProperty("")  # the faces tapped so far of a throw of several dice
    # Room kept for the status line while a roll is awaited (its longest hold or entry
    # line at this width and text size), and the width of the button beside the faces
    # for either of its labels: what a player taps next never moves under the finger.
    status_h = NumericProperty(0)
    side_w = NumericProperty(0)
    grace_s = NumericProperty(3.0)  # how long a face entered by hand can be changed
    face_cols = NumericProperty(6)
    face_rows = NumericProperty(1)
    notice_text = StringProperty("")  # throws a hub lost while unheard (ThrowsMissed), in words
    notice_s = NumericProperty(60.0)  # how long that notice stays up unless dismissed

    def __init__(self, clock: Callable[[], float] = time.monotonic, **kw: Any) -> None:
        self.model = DiceModel()
        self._clock = clock
        self._pending_ev: Any = None
        self._notice_ev: Any = None
        super().__init__(**kw)
        self._built_sides = 0
        self._faces: dict[int, list[Any]] = {}  # the face buttons of each kind of die, made once

    def on_kv_post(self, base_widget: Any) -> None:
        set_drawn(self.ids.buttons, self.is_awaiting)
        self.ids.faces.bind(width=lambda *_a: self._arrange_faces())
        self._reserved: tuple[Any, ...] = ()
        self.ids.last.bind(width=lambda *_a: self._reserve(), font_size=lambda *_a: self._reserve())

    def _reserve(self) -> None:
        """Measure the room the status line and the side button need (see ``status_h``)."""
        from kivy.core.text import Label as CoreLabel

        last, side = self.ids.last, self.ids.roll_for_me
        samples = self.model.status_samples(self.grace_s)
        key = (last.width, last.font_size, side.font_size, samples)
        if key == self._reserved or last.width <= 1:
            return
        self._reserved = key
        height = 0.0
        for text in samples:
            core = CoreLabel(text=text, font_size=last.font_size, font_name=last.font_name, bold=True,
                             text_size=(last.width, None), halign="left")
            core.refresh()
            height = max(height, core.texture.size[1] if core.texture is not None else 0)
        self.status_h = height
        core = CoreLabel(font_size=side.font_size, font_name=side.font_name, bold=side.bold)
        self.side_w = max(core.get_extents(line)[0] for line in SIDE_LABELS) + dp(24)

    def on_is_awaiting(self, _tray: Any, awaiting: bool) -> None:
        if "buttons" in self.ids:
            set_drawn(self.ids.buttons, awaiting)

    def set_prompt(self, prompt: Any, who: str = "") -> None:
        """The Table's prompt: the roll awaited and whose throw it is. Several seats
        throwing (who starts) are named in turn, in the table's seat order."""
        table = getattr(App.get_running_app(), "table", None)
        try:
            seats = tuple(s["id"] for s in table.seats) if table is not None else ()
        except CompanionError:  # a closed table: its seats are gone with it
            seats = ()
        self.model.set_awaiting(prompt, who, seats, self.who_of)
        self.model.set_live(self._live_dice())
        self._sync()

    def _live_dice(self) -> tuple[LiveDie, ...]:
        """The dice the app hears now (the devices panel's model), named for players, with
        the seat each is given to in the open game."""
        app = App.get_running_app()
        devices, table = getattr(app, "devices", None), getattr(app, "table", None)
        if devices is None:
            return ()
        given = dict(getattr(table, "devices", None) or {})
        return live_dice(devices, given, table.seat_name if table is not None else None)

    def show_reading(self, event: Any) -> None:
        """A bridge event as it arrives: a die's motion, its reading (still being checked),
        a device gone offline."""
        name = type(event).__name__
        if name == "DieMotion":
            self.model.on_motion(event, self._at_rest_on(event))
        elif name == "DieRolled":
            self.model.on_reading(event)
        elif name == "DeviceOffline":
            self.model.on_offline(event.device)
            self.model.set_live(self._live_dice())
        elif name == "DeviceOnline":
            self.model.on_online(event.device)
            self.model.set_live(self._live_dice())  # the devices panel has recorded it first
        elif name == "ThrowsMissed":
            self.model.on_missed(event, self._clock())
            self._show_notice()
        else:
            return
        self._sync()

    @staticmethod
    def _at_rest_on(event: Any) -> int | None:
        """The face a Bluetooth die says it lies on after being handled (its status, which
        the devices model recorded just before this event), else None."""
        devices = getattr(App.get_running_app(), "devices", None)
        status = getattr(devices, "statuses", {}).get(event.device) if devices is not None else None
        if status is None or status.state != "onFace" or status.value is None:
            return None
        return int(status.value)

    def _show_notice(self) -> None:
        """Keep the lost-throws notice up for ``notice_s`` seconds (the results replayed
        after the gap arrive right behind it and take the status line), then clear it;
        "OK" clears it at once."""
        if self._notice_ev is not None:
            self._notice_ev.cancel()
        self._notice_ev = Clock.schedule_once(lambda _dt: self.dismiss_notice(), self.notice_s)

    def dismiss_notice(self) -> None:
        if self._notice_ev is not None:
            self._notice_ev.cancel()
            self._notice_ev = None
        self.model.clear_notice()
        self._sync()

    def show_result(self, event: Any, result: Any) -> None:
        """A die's result once the Table has routed it: applied, refused, or crooked."""
        if type(event).__name__ != "DieRolled":
            return
        self.model.on_rolled(event, result)
        App.get_running_app().cue("roll" if getattr(result, "rejected", None) is None else "rejected")
        self._sync()

    def note(self, values: tuple[int, ...], how: str) -> None:
        self.model.note_applied(values, how)
        self._sync()

    def tap_face(self, value: int) -> None:
        """A face tapped: part of the entry, or the whole roll, which is then held for
        ``grace_s`` seconds (a tap meanwhile changes it)."""
        self.model.hold(self.model.manual(value), self._clock())
        if self.model.pending is not None and self.grace_s <= 0:
            self.commit_pending()
            return
        if self.model.pending is not None and self._pending_ev is None:
            self._pending_ev = Clock.schedule_interval(lambda _dt: self._tick_pending(), 0.2)
        self._sync()

    def _tick_pending(self) -> None:
        if self.model.pending is None:
            self._stop_pending()
        elif self.model.due(self._clock(), self.grace_s):
            self.commit_pending()
            return
        self._sync()

    def _stop_pending(self) -> None:
        if self._pending_ev is not None:
            self._pending_ev.cancel()
            self._pending_ev = None

    def commit_pending(self) -> None:
        """Submit the roll entered by hand now."""
        action = self.model.take_pending()
        self._stop_pending()
        self._sync()
        if action is not None and self.submit is not None:
            # Noted as applied only once the Table has committed it.
            self.submit(action, then=lambda ok: self.note(action.values, "entered by hand") if ok else None)

    def tap_roll_for_me(self) -> None:
        """The button beside the faces: "✔ Now" while a face is held, else the app's roller."""
        if self.model.pending is not None:
            self.commit_pending()
        elif self.roll_for_me is not None:
            self.roll_for_me()

    def tap_accept(self) -> None:
        """Accept the value a crooked die leans towards (the Table knows which roll it was)."""
        crooked = self.model.crooked
        if crooked is None:
            return

        def answered(ok: bool) -> None:
            if ok:
                self.note((crooked.value,), "crooked die accepted")

        if self.accept_crooked is not None:
            self.accept_crooked(then=answered)
        else:
            action = self.model.accept_action()
            if action is not None and self.submit is not None:
                self.submit(action, then=answered)

    def _sync(self) -> None:
        m = self.model
        self.awaiting_text = m.awaiting_text or "No roll needed now."
        self.is_awaiting = m.is_awaiting
        self.last_text = self.humanise(m.last) if self.humanise is not None else m.last
        self.last_ok = m.last_ok
        self.crooked_value = m.crooked.value if m.crooked is not None and m.is_awaiting else 0
        self.guide_text = m.guide
        self.dice_text = "   ".join(f"{m.name_of(d.source)}: {d.label}" for d in m.dice.values())
        # The faces tapped so far go on the status line, whose room is kept: on the
        # prompt they wrapped it onto another line and moved the faces under the finger.
        self.entry_text = m.entry_text
        if m.pending is None:
            self._stop_pending()
        self.pending_text = m.pending_text(self._clock(), self.grace_s)
        self.notice_text = m.notice
        if "last" in self.ids:
            self._reserve()
        # The face buttons exist only while a roll is awaited: hidden buttons would still
        # take touches meant for what is drawn over them.
        if not m.is_awaiting:
            self.ids.faces.clear_widgets()
            self._built_sides = 0
        elif self._built_sides != m.sides:
            self._build_faces(m.sides)

    def _build_faces(self, sides: int) -> None:
        """The face buttons for a die of ``sides``: made once per kind of die and kept
        while no roll is awaited (taken off the tray, not remade: six buttons took 6–38 ms
        to make on a Pi-class core, on every roll)."""
        box = self.ids.faces
        box.clear_widgets()
        faces = self._faces.get(sides)
        if faces is None:
            faces = self._faces[sides] = []
            for v in range(1, min(sides, 12) + 1):
                b = TCButton(text=str(v), font_size=App.get_running_app().theme.fs_large)
                b.bind(on_release=lambda _b, v=v: self.tap_face(v))
                faces.append(b)
        size = App.get_running_app().theme.fs_large  # the text size may have changed since
        for b in faces:
            b.font_size = size
            box.add_widget(b)
        self._built_sides = sides
        self._arrange_faces()

    def _arrange_faces(self) -> None:
        """As many 48 dp faces in a row as the width holds, the rows evened out."""
        n = len(self.ids.faces.children)
        if not n:
            return
        gap = self.ids.faces.spacing[0] if isinstance(self.ids.faces.spacing, (list, tuple)) else self.ids.faces.spacing
        fit = max(1, int((self.ids.faces.width + gap) // (dp(48) + gap)))
        rows = math.ceil(n / min(n, fit))
        self.face_rows = rows
        self.face_cols = math.ceil(n / rows)


load_kv(__file__)
