"""The devices panel: hubs and dice, link state, battery, last roll, frame counters;
connect / disconnect; the calibration entry point; and the GPIO header's board: which pin
is which token slot, button, keypad key, seat light or buzzer, each one's state now, and
what it does in the game on the table, in player words ("The Docks: a token here means
move there"). With simulated pins (``--gpio mock``) the board's "Place token" and "Press"
drive them, so a demo plays tokens and buttons without a Pi. The board follows its inputs
live: every GPIO event redraws it on the next frame.

Cards are updated in place when only what they say changes (a die's battery or face, a
counter): a rebuilt card would drop the button under a finger (``widgets/patch.py``); a
card whose shape changed (a warning line, a new button) is replaced. Each device's card is
as tall as what it holds (a fixed height put the "sim ● online"
header across the card's border). Calibration runs in the app only over a link that can
calibrate (``calibrate_face``); for any other the panel says how to calibrate from the
command line and never reports a calibration it did not do. The Measure and Cancel
buttons exist only while a calibration runs (a hidden zero-width button still showed as
a squashed remnant)."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from kivy.uix.stacklayout import StackLayout

from companion.errors import CompanionError

from ..ble_link import BLE_DEVICE, SHELLS
from ..gpio_link import GPIO_DEVICE
from ..kvload import load_kv
from ..presenters.devices import (BleCard, BleDieLine, GivenLine, GpioBoard, PinRow, TableWords, ble_card,
                                  given_lines, gpio_board, next_seat, next_shell)
from ..widgets.base import Panel, TCButton, TCLabel
from ..widgets.patch import action_button, reconcile

if TYPE_CHECKING:
    from ..gamescreen import GameScreen

log = logging.getLogger("companion.ui.screens.devices")

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
        self._qr_seat: str | None = None  # the seat whose phone code is shown

    def on_pre_enter(self, *args: Any) -> None:
        self.reload(force=True)
        self._ev = Clock.schedule_interval(lambda dt: self.reload(), 1.0)
        # A token placed or a button pressed shows at once, not at the next poll.
        self._live = Clock.create_trigger(lambda dt: self.reload(), 0)
        model = App.get_running_app().devices
        if model is not None and self._live not in model.listeners:
            model.listeners.append(self._live)

    def on_leave(self, *args: Any) -> None:
        if self._ev is not None:
            self._ev.cancel()
            self._ev = None
        model = App.get_running_app().devices
        live = getattr(self, "_live", None)
        if model is not None and live in model.listeners:
            model.listeners.remove(live)

    def reload(self, force: bool = False) -> None:
        """Rebuild the cards when what they show has changed (the panel polls each second:
        rebuilding unchanged cards every time showed them half laid out now and then)."""
        app = App.get_running_app()
        box = self.ids.rows
        theme = app.theme
        model = app.devices
        rows = model.rows() if model is not None else []
        board = self.gpio_board()
        ble = self.ble_card()
        phones = self.phones_card()
        given = self.given_lines()
        if (rows, board, ble, phones, given) == self._shown_rows and not force:
            return
        self._shown_rows = (rows, board, ble, phones, given)
        cards: list[Any] = []
        if phones is not None:
            cards.append(self._phones_panel(phones))
        if not rows and phones is None:
            cards.append(TCLabel(text="No devices yet. Plug in a dice hub (it is found by its USB id), or start the app with --demo for the simulated hub, or with --gpio mock for a simulated GPIO board, or with --ble on for Bluetooth dice (Pixels, GoDice). Manual entry and the app's roller always work.",
                                   color=theme.muted))
        for r in rows:
            if r.device == BLE_DEVICE:
                if ble is not None:
                    cards.append(self._ble_panel(ble))
                continue
            panel = Panel(orientation="vertical", size_hint_y=None)
            panel.bind(minimum_height=panel.setter("height"))
            head = TCLabel(text=f"[b]{r.title or r.device}[/b]   {r.link}", markup=True, font_size=theme.fs_body)
            head.color = theme.ok if r.connected else theme.bad  # after the rule's own colour
            panel.add_widget(head)
            is_gpio = r.device == GPIO_DEVICE
            facts = r.detail or "no details yet"
            if not is_gpio:  # the header has no battery and no dice
                facts += f"\nbattery {r.battery} · last roll {r.last_roll}"
            panel.add_widget(TCLabel(text=facts, font_size=theme.fs_small))
            if r.counters:
                panel.add_widget(TCLabel(text=("pins: " if is_gpio else "frames: ") + r.counters, font_size=theme.fs_small, color=theme.muted))
            btns = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(6))
            if r.can_connect:
                btns.add_widget(action_button("Disconnect" if r.connected else "Connect",
                                              lambda d=r.device, on=r.connected: self._toggle(d, on),
                                              "normal" if r.connected else "primary"))
            if not is_gpio:  # the header has no dice to calibrate
                btns.add_widget(action_button("Calibrate dice…", lambda d=r.device: self.start_calibration(d)))
            panel.add_widget(btns)
            cards.append(panel)
            if board is not None and r.device == GPIO_DEVICE:
                cards.append(self._board_panel(board))
        if given:
            # Last: a hub coming online adds its dice here, below every button a finger
            # may be on (a line added above one moved it from under the finger).
            cards.append(self._given_panel(given))
        # Cards of the same shape are updated in place: a die's status changes often, and
        # a rebuilt card drops the button under a finger (widgets/patch.py).
        if reconcile(box, cards):
            self._lay_out_now(box)

    @staticmethod
    def _lay_out_now(box: Any) -> None:
        """Lay the new cards out before the next frame is drawn (and before anything looks
        at them): left to Kivy's triggers, a card rebuilt while a die's status changed
        showed for a frame with its buttons heaped at its corner, and a finger on one
        then missed."""
        from kivy.uix.label import Label
        from kivy.uix.layout import Layout

        for w in box.walk(restrict=True):
            if isinstance(w, Label):
                w.texture_update()
        for _ in range(3):  # sizes settle from the inside out and positions from the outside in
            for w in box.walk(restrict=True):
                if isinstance(w, Layout):
                    w.do_layout()
        scroll = box.parent
        if hasattr(scroll, "update_from_scroll"):
            scroll.update_from_scroll()  # the content's place in the view, for its new height

    # ---------------------------------------------------------- whose each die is

    def given_lines(self) -> tuple[GivenLine, ...]:
        """The hubs' dice (the demo's too) and the GPIO keypad, each with the seat the game
        on the table gives it to; none without a game (dice are given within a game)."""
        app = App.get_running_app()
        table = app.table
        names = self._seat_names()
        if app.devices is None or table is None or not names:
            return ()
        gpio = app.devices.links.get(GPIO_DEVICE)
        pm = getattr(gpio, "pin_map", None)
        keypads = (f"keypad:{getattr(gpio, 'device', GPIO_DEVICE)}",) if pm is not None and pm.keypad else ()
        return given_lines(app.devices, dict(table.devices), names, keypads)

    def _given_panel(self, lines: tuple[GivenLine, ...]) -> Panel:
        theme = App.get_running_app().theme
        panel = self._card("Whose dice", "", True, None)
        hint = TCLabel(text="A die given to nobody is the table's: it throws for whoever must throw now. "
                            "Bluetooth dice are given on their own card.", font_size=theme.fs_small)
        hint.color = theme.muted
        panel.add_widget(hint)
        for line in lines:
            panel.add_widget(self._given_line(line))
        return panel

    def _given_line(self, line: GivenLine) -> Any:
        """A die (or keypad) by name, whose it is, and "Give to" (the table → each seat →
        the table)."""
        theme = App.get_running_app().theme
        box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(2))
        box.bind(minimum_height=box.setter("height"))
        box.source = line.source  # which die the line is of (its name changes with its owner)
        box.add_widget(TCLabel(text=f"[b]{line.name[:1].upper()}{line.name[1:]}[/b] · {line.seat}", markup=True,
                               font_size=theme.fs_small))
        row = self._row()
        names = self._seat_names()
        who = names.get(line.seat_id, "") if line.seat_id else "the table"
        row.add_widget(action_button(f"Give to: {who}",
                                     lambda src=line.source, cur=line.seat_id: self.give(src, next_seat(cur, tuple(names))),
                                     size_hint=(None, None)).fit(dp(150), dp(52)))
        box.add_widget(row)
        return box

    def give(self, source: str, seat: str) -> None:
        """Give ``source`` to ``seat`` ("" = back to the table) in the game on the table:
        journaled with the game, so a restart keeps it. A Bluetooth die's link keeps the
        choice too (it shows it before a game)."""
        app = App.get_running_app()
        try:
            app.table.assign_devices({source: seat or None})
        except CompanionError as e:  # a closed table, a refused journal write: nothing changed, say why
            self.calibration_text = f"✖ {e}"
        else:
            link = app.devices.links.get(BLE_DEVICE) if app.devices is not None else None
            device = source.partition(":")[2].rpartition("/")[0]
            if link is not None and device in getattr(link, "paired", {}):
                link.give(device, seat)
            refresh = getattr(app, "_table_screen", None)
            scr = refresh(app.table) if refresh is not None else None
            if scr is not None:
                scr.refresh()  # the dice tray names each die by its owner
        self.reload(force=True)

    # ---------------------------------------------------------- Bluetooth dice

    def ble_card(self) -> BleCard | None:
        """The Bluetooth dice card, or None when the app runs without Bluetooth dice."""
        app = App.get_running_app()
        link = app.devices.links.get(BLE_DEVICE) if app.devices is not None else None
        if link is None:
            return None
        table = app.table
        given = dict(table.devices) if table is not None and self._seat_names() else None
        return ble_card(link, app.devices.statuses, self._seat_names(), given)

    def _seat_names(self) -> dict[str, str]:
        table = App.get_running_app().table
        if table is None:
            return {}
        try:
            return {s["id"]: table.seat_name(s["id"]) for s in table.seats}
        except CompanionError:  # a closed table: no seats to give dice to
            return {}

    @staticmethod
    def _card(title: str, status: str, ok: bool, error: str | None, spacing: float = dp(4)) -> Panel:
        """A card headed by its title and status (green when ``ok``), with its error below."""
        theme = App.get_running_app().theme
        panel = Panel(orientation="vertical", size_hint_y=None, spacing=spacing)
        panel.bind(minimum_height=panel.setter("height"))
        # Colours are set after construction: TCLabel's kv rule would put its own back.
        head = TCLabel(text=f"[b]{title}[/b]   {status}", markup=True, font_size=theme.fs_body)
        head.color = theme.ok if ok else theme.bad
        panel.add_widget(head)
        if error:
            err = TCLabel(text=f"✖ {error}", font_size=theme.fs_small)
            err.color = theme.bad
            panel.add_widget(err)
        return panel

    def _ble_panel(self, card: BleCard) -> Panel:
        theme = App.get_running_app().theme
        panel = self._card("Bluetooth dice", card.status, card.online, card.error)
        if card.message:
            panel.add_widget(TCLabel(text=card.message, font_size=theme.fs_small))
        if card.hint:
            hint = TCLabel(text=card.hint, font_size=theme.fs_small)
            hint.color = theme.muted
            panel.add_widget(hint)
        row = self._row()
        find = action_button("Looking…" if card.scanning else "Find dice", lambda: self._ble(lambda link: link.scan()),
                             "primary", size_hint=(None, None), disabled=card.scanning).fit(dp(150), dp(52))
        row.add_widget(find)
        panel.add_widget(row)
        for f in card.found:
            line = TCLabel(text=f"[b]{f.title}[/b]\n{f.detail}", markup=True, font_size=theme.fs_small)
            panel.add_widget(line)
            row = self._row()
            row.add_widget(action_button("Pair", lambda a=f.address: self._ble(lambda link: link.pair(a)), "primary",
                                         size_hint=(None, None)).fit(dp(120), dp(52)))
            panel.add_widget(row)
        for d in card.dice:
            panel.add_widget(self._ble_die(d))
        return panel

    def _ble_die(self, d: BleDieLine) -> Any:
        theme = App.get_running_app().theme
        box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(4))
        box.bind(minimum_height=box.setter("height"))
        head = TCLabel(text=f"[b]{d.title}[/b]   {d.link}", markup=True, font_size=theme.fs_body)
        head.color = theme.ok if d.online else theme.bad  # with its ● / ○ and words
        box.add_widget(head)
        facts = " · ".join(x for x in (d.seat, d.shows) if x)
        box.add_widget(TCLabel(text=facts, font_size=theme.fs_small))
        bat = TCLabel(text=d.battery, font_size=theme.fs_small)
        if d.battery_low:
            bat.color = theme.bad
        box.add_widget(bat)
        if d.note:
            box.add_widget(TCLabel(text=d.note, font_size=theme.fs_small))
        if d.warning:
            warn = TCLabel(text=f"⚠ {d.warning}", font_size=theme.fs_small)
            warn.color = theme.bad
            box.add_widget(warn)
        row = self._row()
        seats = tuple(self._seat_names())

        def add(text: str, act: Any, role: str = "normal") -> None:
            row.add_widget(action_button(text, lambda: self._ble(act), role,
                                         size_hint=(None, None)).fit(dp(120), dp(52)))

        add("Blink", lambda link, dev=d.device: link.blink(dev))
        if seats:
            who = self._seat_names().get(d.seat_id, "") if d.seat_id else "the table"
            row.add_widget(action_button(f"Give to: {who}",
                                         lambda dev=d.device, cur=d.seat_id: self.give(f"die:{dev}/0", next_seat(cur, seats)),
                                         size_hint=(None, None)).fit(dp(120), dp(52)))
        if d.kind == "godice":
            add(f"Shell: {d.shell or 'D6'}", lambda link, dev=d.device, cur=d.shell: link.set_shell(dev, next_shell(cur, SHELLS)))
        add("Unpair", lambda link, dev=d.device: link.unpair(dev), "danger")
        if d.simulated and d.online:
            add("Throw", lambda link, dev=d.device: link.simulate(dev, "throw"))
            add("Tilted throw", lambda link, dev=d.device: link.simulate(dev, "tilted"))
            add("Turn by hand", lambda link, dev=d.device: link.simulate(dev, "turn"))
        box.add_widget(row)
        return box

    @staticmethod
    def _row() -> StackLayout:
        row = StackLayout(spacing=dp(6), size_hint_y=None)
        row.bind(minimum_height=row.setter("height"))
        return row

    def _ble(self, act: Any) -> None:
        """A button of the Bluetooth card (its outcome comes back as the card's message)."""
        link = App.get_running_app().devices.links.get(BLE_DEVICE)
        try:
            act(link)
        except Exception as e:  # the panel's button on a device link: a die gone meanwhile, a real die asked to move
            log.exception("Bluetooth button")
            self.calibration_text = f"✖ Bluetooth: {e}"
        self.reload()

    # ---------------------------------------------------------- players' phones

    def phones_card(self) -> tuple[Any, ...] | None:
        """What the phones panel shows (compared to know when to redraw), or None when the
        app serves no phones (``--phones off``): the link's state, then per seat
        (seat, name, attached, shown)."""
        app = App.get_running_app()
        link = getattr(app, "phones_link", None)
        if link is None:
            return None
        table = app.table
        seats = () if table is None or not link.listening else tuple(
            (s["id"], table.seat_name(s["id"]), s["id"] in link.attached(), s["id"] == self._qr_seat) for s in table.seats)
        state = link.error or (link.server.base_url if link.listening else "")
        advert = getattr(link, "advert", None)
        mdns = (f"✖ Not found by name on the network (mDNS): {link.mdns_error}" if link.mdns_error else
                f"Phones can also find this table by name: {advert.host} (mDNS)" if advert is not None else "")
        return (state, seats, mdns)

    def _phones_panel(self, card: tuple[Any, ...]) -> Panel:

        theme = App.get_running_app().theme
        link = App.get_running_app().phones_link
        state, seats, mdns = card
        panel = self._card("Players' phones", '● ' + state if link.listening else '○ not serving', link.listening,
                           link.error)
        if not link.error and not seats:
            panel.add_widget(TCLabel(text="Start or resume a game: each seat then gets a code to scan.",
                                     font_size=theme.fs_small))
        if mdns:
            line = TCLabel(text=mdns, font_size=theme.fs_small)
            line.color = theme.bad if link.mdns_error else theme.muted
            panel.add_widget(line)
        for seat, name, attached, shown in seats:
            panel.add_widget(TCLabel(text=f"[b]{name}[/b]   {'● phone attached' if attached else '○ no phone (the privacy gate)'}",
                                     markup=True, font_size=theme.fs_small))
            row = self._row()
            row.add_widget(action_button("Hide code" if shown else "Show code",
                                         lambda s=seat: self._show_qr(None if self._qr_seat == s else s),
                                         "primary", size_hint=(None, None)).fit(dp(140), dp(52)))
            row.add_widget(action_button("New code", lambda s=seat: (link.reissue(s), self._show_qr(s)),
                                         size_hint=(None, None)).fit(dp(140), dp(52)))
            panel.add_widget(row)
            if shown:
                panel.add_widget(self._qr_image(link.qr_png(seat)))
                panel.add_widget(TCLabel(text=f"Only {name} should scan this: it opens {name}'s secrets. "
                                              "\"New code\" makes the old one stop working.", font_size=theme.fs_small,
                                         color=theme.muted))
        return panel

    def _show_qr(self, seat: str | None) -> None:
        self._qr_seat = seat
        self.reload(force=True)

    @staticmethod
    def _qr_image(png: bytes | None) -> Any:
        import io

        from kivy.core.image import Image as CoreImage
        from kivy.uix.image import Image

        size = dp(240)
        if png is None:
            return TCLabel(text="(not serving)")
        texture = CoreImage(io.BytesIO(png), ext="png").texture
        texture.mag_filter = "nearest"  # a QR code's modules stay sharp squares
        return Image(texture=texture, size_hint=(None, None), size=(size, size), fit_mode="contain")

    # ---------------------------------------------------------- the GPIO board

    def gpio_board(self) -> GpioBoard | None:
        """The GPIO header's board for the game on the table, or None without GPIO."""
        app = App.get_running_app()
        link = app.devices.links.get(GPIO_DEVICE) if app.devices is not None else None
        if link is None:
            return None
        table = app.table
        mapping, words = None, None
        if table is not None:
            from companion.routing import load_mapping

            try:
                mapping = load_mapping(table.game_id)
            except CompanionError as e:  # a broken mapping file (a MappingError): the board says so, the app goes on
                mapping = None
                link.error = f"The {table.game.title} input mapping cannot be read: {e}"
            words = TableWords(table.game.title, tuple(table.seat_name(s["id"]) for s in table.seats),
                               self._entity_namer(table))
        return gpio_board(link, mapping, words)

    @staticmethod
    def _entity_namer(table: Any) -> Any:
        """Names of board entities ("tile:o-docks" → "The Docks") from the game's own
        screen: its presenter knows the board the table plays on (its
        ``entity_name(kind, id)``: Tyranny's tiles, Liberation's cities…)."""
        app = App.get_running_app()
        name = f"game:{table.game_id}"
        scr: GameScreen | None = app.sm.get_screen(name) if app.sm is not None and app.sm.has_screen(name) else None
        presenter = scr.presenter if scr is not None else None

        def namer(entity: str) -> str:
            kind, _, ident = entity.partition(":")
            return presenter.entity_name(kind, ident) if presenter is not None else ident

        return namer

    def _board_panel(self, board: GpioBoard) -> Panel:
        theme = App.get_running_app().theme
        panel = self._card("▦ GPIO board", board.status, board.online, board.error, spacing=0)
        for kind, heading in (("slot", "Token slots"), ("button", "Buttons"), ("keypad", "Keypad"),
                              ("led", "Seat lights"), ("buzzer", "")):
            rows = board.of(kind)
            if not rows:
                continue
            if heading:
                sub = TCLabel(text=f"[b]{heading}[/b]", markup=True, font_size=theme.fs_small)
                sub.color = theme.muted
                panel.add_widget(sub)
            for r in rows:
                panel.add_widget(self._pin_line(r, board.simulated))
        return panel

    def _pin_line(self, r: PinRow, simulated: bool) -> Any:
        theme = App.get_running_app().theme
        state = f"   {r.state}" if r.state else ""
        text = f"[b]{r.role}[/b]{state}  →  {r.meaning}\n[size={int(theme.fs_small * 0.9)}]{r.pin}[/size]"
        label = TCLabel(text=text, markup=True, font_size=theme.fs_small)
        label.color = theme.ok if r.active else theme.text  # with its ● and words: never colour alone
        if not simulated or r.kind not in ("slot", "button"):
            return label
        line = BoxLayout(size_hint_y=None, spacing=dp(6))
        line.add_widget(label)
        if r.kind == "slot":
            b = action_button("Lift token" if r.active else "Place token",
                              lambda slot=int(r.key), on=r.active: self._simulate(lambda link: link.set_token(slot, not on)),
                              size_hint=(None, None))
        else:
            b = action_button("Press", lambda name=r.key: self._simulate(lambda link: link.press(name)),
                              size_hint=(None, None))
        b.fit(dp(130), dp(48))  # one width for "Place token" and "Lift token": the column stays straight
        line.add_widget(b)
        line.bind(minimum_height=line.setter("height"))
        label.bind(height=lambda *_a: setattr(line, "height", max(label.height, b.height)))
        b.bind(height=lambda *_a: setattr(line, "height", max(label.height, b.height)))
        line.height = max(label.height, b.height)
        return line

    def _simulate(self, act: Any) -> None:
        """Drive a simulated pin as a finger or a magnet would (mock pins only)."""
        link = App.get_running_app().devices.links.get(GPIO_DEVICE)
        try:
            act(link)
        except Exception as e:  # the panel's button on a device link: real pins, or the board went away
            log.exception("simulated GPIO pin")
            self.calibration_text = f"✖ GPIO: {e}"

    def scan(self) -> None:
        """Look for hubs on USB (by VID:PID) and connect to the new ones."""
        from ..links import scan_hubs
        from ..presenters.devices import DevicesModel

        app = App.get_running_app()
        if app.devices is None:
            app.devices = DevicesModel()
        try:
            links = scan_hubs(app.post_event, set(app.devices.devices))
        except Exception as e:  # the panel's button: no serial support on this platform, a busy port…
            log.exception("looking for hubs")
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
        except Exception as e:  # the panel's button on a device link: show why, never crash the panel
            log.exception("connecting %s", device)
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
        except Exception as e:  # the panel's button on a hub link: say why
            log.exception("calibrating %s", self.calibrating)
            self.calibration_text = f"✖ The hub refused: {e}. Keep the die still for half a second and measure again."
            return
        self._cal_step += 1
        self._show_cal()


load_kv(__file__)
