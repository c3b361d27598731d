"""The dice tray: what roll the game waits for, each physical die's live state (picked
up, rolling…, rolled, crooked "re-roll or accept"), the latest result, and two fallbacks:
manual entry (tap the face the real die shows) and the app's own roller."""
from __future__ import annotations

from typing import Any, Callable

from kivy.app import App
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from ..kvload import load_kv
from ..presenters.dice import DiceModel
from .base import TCButton
from .cached import CachedView  # noqa: F401  (used in dice_tray.kv)
from .drawn import set_drawn


class DiceTray(BoxLayout):
    awaiting_text = StringProperty("")
    last_text = StringProperty("")
    last_ok = BooleanProperty(True)
    dice_text = StringProperty("")
    is_awaiting = BooleanProperty(False)
    crooked_value = NumericProperty(0)
    sides = NumericProperty(6)
    # Set by the screen: submit(action) -> bool (False when refused), roll_for_me() -> bool.
    submit = ObjectProperty(None, allownone=True)
    roll_for_me = ObjectProperty(None, allownone=True)
    throw = ObjectProperty(None, allownone=True)  # demo: throw the simulated hub's die
    accept_crooked = ObjectProperty(None, allownone=True)  # set by the screen: () -> bool
    humanise = ObjectProperty(None, allownone=True)  # set by the screen: seat ids → names

    def __init__(self, **kw: Any) -> None:
        self.model = DiceModel()
        super().__init__(**kw)
        self._built_sides = 0

    def on_kv_post(self, base_widget: Any) -> None:
        set_drawn(self.ids.buttons, self.is_awaiting)

    def on_is_awaiting(self, _tray: Any, awaiting: bool) -> None:
        if "buttons" in self.ids:
            set_drawn(self.ids.buttons, awaiting)

    def set_prompt(self, prompt: Any, who: str = "") -> None:
        self.model.set_awaiting(prompt, who)
        self._sync()

    def show_reading(self, event: Any) -> None:
        """A bridge event as it arrives: a die's motion, its reading (still being checked),
        a device gone offline."""
        name = type(event).__name__
        if name == "DieMotion":
            self.model.on_motion(event)
        elif name == "DieRolled":
            self.model.on_reading(event)
        elif name == "DeviceOffline":
            self.model.on_offline(event.device)
        else:
            return
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
        action = self.model.manual(value)
        self._sync()
        if action is not None and self.submit is not None and self.submit(action):
            self.note(action.values, "entered by hand")

    def tap_roll_for_me(self) -> None:
        if self.roll_for_me is not None:
            self.roll_for_me()

    def tap_accept(self) -> None:
        """Accept the value a crooked die leans towards (the Table knows which roll it was)."""
        crooked = self.model.crooked
        if crooked is None:
            return
        if self.accept_crooked is not None:
            ok = self.accept_crooked()
        else:
            action = self.model.accept_action()
            ok = action is not None and self.submit is not None and self.submit(action)
        if ok:
            self.note((crooked.value,), "crooked die accepted")

    def _sync(self) -> None:
        m = self.model
        self.awaiting_text = m.awaiting_text or "No roll needed now."
        self.is_awaiting = m.is_awaiting
        self.last_text = self.humanise(m.last) if self.humanise is not None else m.last
        self.last_ok = m.last_ok
        self.crooked_value = m.crooked.value if m.crooked is not None and m.is_awaiting else 0
        self.dice_text = "   ".join(f"{d.short_name} {d.label}" for d in m.dice.values())
        if m.entry:
            self.awaiting_text += "  · entered: " + " + ".join(map(str, m.entry))
        # The face buttons exist only while a roll is awaited: hidden buttons would still
        # take touches meant for what is drawn over them.
        if not m.is_awaiting:
            self.ids.faces.clear_widgets()
            self._built_sides = 0
        elif self._built_sides != m.sides:
            self._build_faces(m.sides)

    def _build_faces(self, sides: int) -> None:
        box = self.ids.faces
        box.clear_widgets()
        for v in range(1, min(sides, 12) + 1):
            b = TCButton(text=str(v), font_size=App.get_running_app().theme.fs_large)
            b.bind(on_release=lambda _b, v=v: self.tap_face(v))
            box.add_widget(b)
        self._built_sides = sides


load_kv(__file__)
