"""The devices panel: hubs and dice, link state, battery, last roll, frame counters;
connect / disconnect; the calibration entry point.

Each device's card is as tall as what it holds (a fixed height put the "sim ● online"
header across the card's border). Calibration runs in the app only over a link that can
calibrate (``calibrate_face``); for any other the panel says how to calibrate from the
command line and never reports a calibration it did not do. The Measure and Cancel
buttons exist only while a calibration runs (a hidden zero-width button still showed as
a squashed remnant)."""
from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from ..kvload import load_kv
from ..widgets.base import Panel, TCButton, TCLabel

CALIBRATION_STEPS = (
    "Put the die on the table with face 1 up, hands off, and measure.",
    "Now face 2 up, and measure.",
    "Now face 3 up (not opposite face 1 or 2), and measure. A confidence above 990 is good.",
)


CLI_CALIBRATION = ("{device}: this link cannot calibrate from the app. Calibrate on the computer the hub is "
                   "plugged into: python hardware/hubctl.py --port <port> calibrate --die 0 "
                   "(hardware/README.md, section 6).")


class DevicesScreen(Screen):
    calibrating = StringProperty("")  # the device being calibrated in the app, or ""
    calibration_text = StringProperty("")  # the calibration step, or what the panel has to say
    calibration_running = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._ev: Any = None
        self._shown_rows: Any = None

    def on_pre_enter(self, *args: Any) -> None:
        self.reload(force=True)
        self._ev = Clock.schedule_interval(lambda dt: self.reload(), 1.0)

    def on_leave(self, *args: Any) -> None:
        if self._ev is not None:
            self._ev.cancel()
            self._ev = None

    def reload(self, force: bool = False) -> None:
        """Rebuild the cards when what they show has changed (the panel polls each second:
        rebuilding unchanged cards every time showed them half laid out now and then)."""
        app = App.get_running_app()
        box = self.ids.rows
        theme = app.theme
        model = app.devices
        rows = model.rows() if model is not None else []
        if rows == self._shown_rows and not force:
            return
        self._shown_rows = rows
        box.clear_widgets()
        if not rows:
            box.add_widget(TCLabel(text="No devices yet. Plug in a dice hub (it is found by its USB id), or start the app with --demo for the simulated hub. Manual entry and the app's roller always work.",
                                   color=theme.muted))
        for r in rows:
            panel = Panel(orientation="vertical", size_hint_y=None)
            panel.bind(minimum_height=panel.setter("height"))
            head = TCLabel(text=f"[b]{r.device}[/b]   {r.link}", markup=True, font_size=theme.fs_body)
            head.color = theme.ok if r.connected else theme.bad  # after the rule's own colour
            panel.add_widget(head)
            panel.add_widget(TCLabel(text=f"{r.detail or 'no details yet'}\nbattery {r.battery} · last roll {r.last_roll}",
                                     font_size=theme.fs_small))
            if r.counters:
                panel.add_widget(TCLabel(text="frames: " + r.counters, font_size=theme.fs_small, color=theme.muted))
            btns = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(6))
            if r.can_connect:
                c = TCButton(text="Disconnect" if r.connected else "Connect", role="normal" if r.connected else "primary")
                c.bind(on_release=lambda _b, d=r.device, on=r.connected: self._toggle(d, on))
                btns.add_widget(c)
            cal = TCButton(text="Calibrate dice…")
            cal.bind(on_release=lambda _b, d=r.device: self.start_calibration(d))
            btns.add_widget(cal)
            panel.add_widget(btns)
            box.add_widget(panel)

    def scan(self) -> None:
        """Look for hubs on USB (by VID:PID) and connect to the new ones."""
        from ..links import scan_hubs
        from ..presenters.devices import DevicesModel

        app = App.get_running_app()
        if app.devices is None:
            app.devices = DevicesModel()
        try:
            links = scan_hubs(app.post_event, set(app.devices.devices))
        except Exception as e:  # no serial support on this platform, a busy port…
            self.calibration_text = f"✖ Cannot look for hubs: {e}"
            return
        for link in links:
            app.devices.add_link(link.device, link)
            app.add_closer(link.close)
            link.connect()
        self.calibration_text = f"Found {len(links)} new hub{'s' if len(links) != 1 else ''}." if links else "No dice hub found on USB."
        self.reload()

    def _toggle(self, device: str, connected: bool) -> None:
        m = App.get_running_app().devices
        try:
            (m.disconnect if connected else m.connect)(device)
        except Exception as e:  # show why, never crash the panel
            self.calibration_text = f"✖ {device}: {e}"
        Clock.schedule_once(lambda dt: self.reload(), 0.3)

    # ---------------------------------------------------------- calibration

    def _link(self, device: str) -> Any:
        devices = App.get_running_app().devices
        return devices.links.get(device) if devices is not None else None

    def start_calibration(self, device: str) -> None:
        """Calibrate ``device``'s die in three measured steps, if its link can; else say
        how to do it from the command line."""
        link = self._link(device)
        if link is None or not hasattr(link, "calibrate_face"):
            self.stop_calibration()
            self.calibration_text = "✖ " + CLI_CALIBRATION.format(device=device)
            return
        self.calibrating = device
        self._cal_step = 0
        self._set_cal_buttons(True)
        self._show_cal()

    def stop_calibration(self) -> None:
        self.calibrating = ""
        self._set_cal_buttons(False)

    def _set_cal_buttons(self, shown: bool) -> None:
        """The Measure and Cancel buttons, present only while a calibration runs."""
        bar = self.ids.cal_buttons
        bar.clear_widgets()
        self.calibration_running = shown
        if not shown:
            return
        measure = TCButton(text="Measure", role="primary")
        measure.bind(on_release=lambda _b: self.measure())
        cancel = TCButton(text="Cancel")
        cancel.bind(on_release=lambda _b: (self.stop_calibration(), setattr(self, "calibration_text", "Calibration cancelled.")))
        bar.add_widget(measure)
        bar.add_widget(cancel)

    def _show_cal(self) -> None:
        if self._cal_step >= len(CALIBRATION_STEPS):
            device = self.calibrating
            self.stop_calibration()
            self.calibration_text = f"✔ {device}: calibration done."
            return
        how = CALIBRATION_STEPS[self._cal_step]
        self.calibration_text = f"Calibrating {self.calibrating}, step {self._cal_step + 1} of 3: {how}"

    def measure(self) -> None:
        link = self._link(self.calibrating)
        if link is None or not hasattr(link, "calibrate_face"):  # the link went away meanwhile
            device = self.calibrating
            self.stop_calibration()
            self.calibration_text = f"✖ {device}: the link is gone; calibration stopped, nothing was changed."
            return
        try:
            link.calibrate_face(0, self._cal_step)
        except Exception as e:
            self.calibration_text = f"✖ The hub refused: {e}. Keep the die still for half a second and measure again."
            return
        self._cal_step += 1
        self._show_cal()


load_kv(__file__)
