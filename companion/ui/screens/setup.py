"""The setup wizard: game (and whether it starts now or is already under way) → seats
(names, factions, order) → house rules → the game so far (a game under way only: its
position, secrets entered behind the privacy gate) → clocks → dice and devices → start. The model (``presenters/setup.py``) holds the choices and asks
the engine whether the game can start; this screen only draws the steps."""
from __future__ import annotations

from typing import Any, Callable

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView
from kivy.uix.stacklayout import StackLayout
from kivy.uix.textinput import TextInput

from companion.errors import CompanionError
from rules import RulesError
from rules.registry import demo_game

from ..kvload import load_kv
from ..presenters.setup import FROM_START, UNDER_WAY, OptionChoice, SetupModel
from ..widgets.base import TCButton, TCLabel, TCToggle


# A seat's faction button steps through this many factions at most; a game with more
# shows them all at once in a FactionPicker.
CYCLE_AT_MOST = 3


class FactionPicker(ModalView):
    """Every faction of the game at once, each in its colour with its glyph, the seat's
    current one marked; a tap picks it and closes."""

    def __init__(self, factions: list[str], current: str, theme: Any, on_pick: Callable[[str], None], **kw: Any) -> None:
        kw.setdefault("size_hint", (0.96, 0.96))
        kw.setdefault("background_color", (0, 0, 0, 0.6))
        super().__init__(**kw)
        with self.canvas.before:
            Color(*theme.surface)
            face = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=lambda _w, v: setattr(face, "pos", v), size=lambda _w, v: setattr(face, "size", v))
        box = BoxLayout(orientation="vertical", padding=dp(8), spacing=dp(6))
        box.add_widget(TCLabel(text="Choose this seat's faction", font_size=theme.fs_large, bold=True))
        cols = 2 if len(factions) > 4 else 1
        grid = GridLayout(cols=cols, spacing=dp(6), size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        self.choices: dict[str, TCButton] = {}
        for f in factions:
            mark = "✔ " if f == current else ""
            b = TCButton(text=mark + theme.label(f), size_hint_y=None, height=dp(52), role="quiet" if f != current else "normal")
            b.color = theme.faction_rgba(f)
            b.bind(texture_size=lambda w, ts: setattr(w, "height", max(dp(52), ts[1] + dp(12))))
            b.bind(on_release=lambda _b, f=f: (self.dismiss(), on_pick(f)))
            self.choices[f] = b
            grid.add_widget(b)
        scroll = ScrollView(do_scroll_x=False)  # only on a screen too small for them all
        scroll.add_widget(grid)
        box.add_widget(scroll)
        cancel = TCButton(text="Cancel", size_hint_y=None, height=dp(52))
        cancel.bind(on_release=lambda _b: self.dismiss())
        box.add_widget(cancel)
        self.add_widget(box)


class SetupScreen(Screen):
    step_title = StringProperty("")
    problems = ListProperty()
    footer = StringProperty("✔ Ready to start.")
    can_start = BooleanProperty(False)
    is_last = BooleanProperty(False)
    is_first = BooleanProperty(True)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.faction_picker: FactionPicker | None = None  # open while a seat's faction is chosen
        # The wizard opens on the catalogue's demo game (the first whose card offers a demo:
        # rules.registry.demo_game), else its first playable game, until the players choose.
        playable = [gid for gid, _title in SetupModel.games()]
        demo = demo_game().id
        self.model = SetupModel.for_game(demo if demo in playable else playable[0])

    def on_pre_enter(self, *args: Any) -> None:
        if self.__dict__.pop("keep_once", False):
            # Back from a game's own sub-screen (e.g. Liberation's map entry): keep the choices.
            self.show_step(self.model.step)
            return
        self.model = SetupModel.for_game(self.model.game_id)
        self.show_step(0)

    # ------------------------------------------------------------ steps

    def show_step(self, i: int) -> None:
        steps = self.model.steps()
        self.model.step = max(0, min(len(steps) - 1, i))
        step = steps[self.model.step]
        self.step_title = self.model.step_title(self.model.step)
        self.is_first = self.model.step == 0
        self.is_last = step == "start"
        box = self.ids.content
        box.clear_widgets()
        getattr(self, f"_step_{step}")(box)
        self._check()
        # Each page opens at its top (the view kept the last page's scroll: the house
        # rules opened at their bottom after a long seats page).
        self.ids.scroll.scroll_y = 1
        Clock.schedule_once(lambda _dt: setattr(self.ids.scroll, "scroll_y", 1), 0)

    def next(self) -> None:
        self.show_step(self.model.step + 1)

    def back(self) -> None:
        if self.model.step == 0:
            App.get_running_app().go("home")
        else:
            self.show_step(self.model.step - 1)

    def _check(self) -> None:
        self.problems = self.model.check()
        self.can_start = not self.problems
        on_form = self.model.steps()[self.model.step] == "position"
        if not self.problems:
            self.footer = "✔ Ready to start." if not self.model.joining else "✔ The rules accept this position: ready to start."
        elif on_form:
            # Each problem is shown beside its field; the footer only counts them.
            n = len(self.problems)
            self.footer = f"✖ {n} problem{'s' if n != 1 else ''} with the game as entered: see the red lines above."
        else:
            self.footer = "✖ " + "\n✖ ".join(self.problems)
        view = getattr(self, "_form_view", None)
        if on_form and view is not None and view.parent is not None:
            view.show_problems()

    def _theme(self) -> Any:
        return App.get_running_app().theme

    def _row(self, **kw: Any) -> StackLayout:
        row = StackLayout(spacing=dp(6), size_hint_y=None, **kw)
        row.bind(minimum_height=row.setter("height"))
        return row

    # ------------------------------------------------------------- game

    def _step_game(self, box: Any) -> None:
        box.add_widget(TCLabel(text="Which game is on the table?"))
        row = self._row()
        for gid, title in self.model.games():
            b = TCToggle(text=title, group="game", state="down" if gid == self.model.game_id else "normal",
                         size_hint=(None, None), allow_no_selection=False).fit(dp(200), dp(64))
            b.bind(on_release=lambda _b, gid=gid: self._pick_game(gid))
            row.add_widget(b)
        box.add_widget(row)
        if self.model.can_join():
            box.add_widget(TCLabel(text="Where does the game stand?"))
            row = self._row()
            for joining, text in ((False, FROM_START), (True, UNDER_WAY)):
                b = TCToggle(text=text, group="joining", state="down" if self.model.joining == joining else "normal",
                             size_hint=(None, None), allow_no_selection=False).fit(dp(240), dp(64))
                b.bind(on_release=lambda _b, joining=joining: self._pick_joining(joining))
                row.add_widget(b)
            box.add_widget(row)
            if self.model.joining:
                box.add_widget(TCLabel(text="After the players and house rules, you enter the game as it stands: whose turn, "
                                            "the track, the pieces, the cards… Secrets are entered in private.",
                                       color=self._theme().muted, font_size=self._theme().fs_small))

    def _pick_game(self, gid: str) -> None:
        if gid != self.model.game_id:
            joining = self.model.joining
            self.model = SetupModel.for_game(gid)
            self.model.joining = joining and self.model.can_join()
            self.show_step(self.model.step)
        self._check()

    def _pick_joining(self, joining: bool) -> None:
        if joining != self.model.joining:
            self.model.joining = joining
            self.show_step(self.model.step)

    # ------------------------------------------------------------ seats

    def _step_seats(self, box: Any) -> None:
        m = self.model
        theme = self._theme()
        counts = self._row()
        seats = TCLabel(text="Seats (pieces):", size_hint=(None, None), size=(dp(140), dp(52)), wrap=False)
        seats.bind(texture_size=lambda w, ts: setattr(w, "width", max(dp(140), ts[0] + dp(8))))
        counts.add_widget(seats)
        for n in m.seat_counts():
            b = TCToggle(text=str(n), group="seat-count", state="down" if n == len(m.seats) else "normal",
                         size_hint=(None, None), allow_no_selection=False).fit(dp(64), dp(52))
            b.bind(on_release=lambda _b, n=n: (m.set_seat_count(n), self.show_step(m.step)))
            counts.add_widget(b)
        box.add_widget(counts)
        for note in m.seat_count_notes():  # the engine's own words for a count it refuses
            box.add_widget(TCLabel(text=note, color=theme.muted, font_size=theme.fs_small))
        for o in m.seat_count_options():  # a house rule that seats more (own pieces): beside the count
            self._option_row(box, o, lambda name, c: (m.set_option(name, c), self.show_step(m.step)))
        for i, s in enumerate(m.seats):
            row = BoxLayout(size_hint_y=None, height=dp(56) if theme.scale <= 1.25 else dp(72), spacing=dp(6))
            row.add_widget(TCLabel(text=f"{i + 1}.", size_hint=(None, None), size=(dp(30), dp(52)), wrap=False))
            fb = TCButton(text=theme.label(s["faction"]), size_hint_x=None)
            fb.bind(one_line_width=lambda w, v: setattr(w, "width", max(dp(150), v)))
            fb.width = max(dp(150), fb.one_line_width)
            fb.color = theme.faction_rgba(s["faction"])
            fb.bind(on_release=lambda _b, i=i: self._cycle_faction(i))
            row.add_widget(fb)
            ti = TextInput(text=s["name"], hint_text=f"Player {i + 1}", multiline=False, write_tab=False,
                           font_size=theme.fs_body, size_hint_y=None, height=max(dp(50), theme.fs_body * 1.3 + dp(20)),
                           padding=[dp(8), dp(10)])
            ti.bind(text=lambda _t, v, i=i: (m.rename(i, v), self._check()))
            row.add_widget(ti)
            up = TCButton(text="↑", size_hint_x=None, width=dp(52), disabled=i == 0)
            up.bind(on_release=lambda _b, i=i: (m.move(i, -1), self.show_step(m.step)))
            dn = TCButton(text="↓", size_hint_x=None, width=dp(52), disabled=i == len(m.seats) - 1)
            dn.bind(on_release=lambda _b, i=i: (m.move(i, 1), self.show_step(m.step)))
            row.add_widget(up)
            row.add_widget(dn)
            box.add_widget(row)

    def _cycle_faction(self, i: int) -> None:
        """A tap on a seat's faction: with two or three to choose from, the next one; with
        more, all of them at once to pick from (tapping round ten factions to reach one was
        slow and hid what there was to choose)."""
        fs = list(self.model.game.factions)
        cur = self.model.seats[i]["faction"]
        if len(fs) > CYCLE_AT_MOST:
            self.faction_picker = FactionPicker(fs, cur, self._theme(), lambda f: self._pick_faction(i, f))
            self.faction_picker.bind(on_dismiss=lambda *_a: setattr(self, "faction_picker", None))
            self.faction_picker.open()
            return
        self.model.set_faction(i, fs[(fs.index(cur) + 1) % len(fs)])
        self.show_step(self.model.step)

    def _pick_faction(self, i: int, faction: str) -> None:
        self.model.set_faction(i, faction)
        self.show_step(self.model.step)

    # ------------------------------------------------------------ rules

    def _step_rules(self, box: Any) -> None:
        on_seats = {o.name for o in self.model.seat_count_options()}  # offered on the seats page
        opts = [o for o in self.model.option_choices() if o.name not in on_seats]
        if not opts:
            box.add_widget(TCLabel(text="This game has no house-rule options."))
        for o in opts:
            self._option_row(box, o, lambda name, c: (self.model.set_option(name, c), self._check()))
        before = dict(self.model.options)
        self._game_setup(box)
        if self.model.options != before:
            # The game's own setup set an option (Outrage's birthday, from the date): draw
            # the page again so its toggle shows the value (the hook sets it only once).
            self.show_step(self.model.step)

    def _option_row(self, box: Any, o: OptionChoice, pick: Callable[[str, Any], Any]) -> None:
        """A house rule in the players' words and a toggle for each of its values;
        ``pick(name, value)`` on a tap."""
        box.add_widget(TCLabel(text=o.help, font_size=self._theme().fs_body))
        row = self._row()
        for c, label in zip(o.choices, o.labels):
            b = TCToggle(text=label + ("  (default)" if c == o.default else ""), group=f"opt-{o.name}",
                         state="down" if c == o.value else "normal", allow_no_selection=False,
                         size_hint=(None, None)).fit(dp(220), dp(50))
            b.bind(on_release=lambda _b, name=o.name, c=c: pick(name, c))
            row.add_widget(b)
        box.add_widget(row)

    def _game_setup(self, box: Any) -> None:
        """A game's own setup widgets (its package's ``SETUP = "module:function"``), called
        as ``function(screen, box)``; they set ``screen.model.options`` and call ``_check``."""
        from ..registry import game_screens

        info = game_screens().get(self.model.game_id)
        if info is not None and info.setup:
            module, _, name = info.setup.partition(":")
            import importlib

            getattr(importlib.import_module(module), name)(self, box)

    # ------------------------------------------------- the game so far

    def _step_position(self, box: Any) -> None:
        from ..widgets.position_form import PositionFormView

        form = self.model.position_form()
        self._form_view = PositionFormView(form, changed=self._check, rebuild=self._rebuild_position,
                                           open_secret=self._open_secret)
        box.add_widget(self._form_view)

    def _rebuild_position(self) -> None:
        # Fields appeared or went (custody's escape numbers): draw the page again where it was.
        y = self.ids.scroll.scroll_y
        box = self.ids.content
        box.clear_widgets()
        self._step_position(box)
        self._check()
        Clock.schedule_once(lambda _dt: setattr(self.ids.scroll, "scroll_y", y), 0)

    def _open_secret(self, seat: str) -> None:
        """``seat`` enters its secrets (the base, its hand) behind the gate; the shared
        screen only learns whether they were entered and whether the engine accepts them."""
        from ..widgets.position_form import secret_entry

        form = self.model.position_form()
        gate = self.ids.gate
        name = form.names[seat]
        faction = next(s["faction"] for s in self.model.seats if s["id"] == seat)
        gate.open_for(seat, f"{name} ({self._theme().label(faction)})", lambda: secret_entry(form, seat),
                      purpose="enter your secrets for the game under way", on_close=self._rebuild_position,
                      auto_hide_s=60.0)

    # ----------------------------------------------------------- clocks

    def _step_clocks(self, box: Any) -> None:
        box.add_widget(TCLabel(text="Clocks for each seat (optional):"))
        row = self._row()
        for name, plain in self.model.clock_presets():
            # The preset's name, then what it means in plain words; as tall as its text.
            b = TCToggle(text=(f"{name}\n{plain}" if name else plain), group="clock",
                         state="down" if name == self.model.clock else "normal", allow_no_selection=False,
                         size_hint=(None, None), font_size=self._theme().fs_small)
            b.fit(dp(200), dp(64), dp(330))
            b.bind(on_release=lambda _b, name=name: setattr(self.model, "clock", name))
            row.add_widget(b)
        box.add_widget(row)

    # ---------------------------------------------------------- devices

    def _step_devices(self, box: Any) -> None:
        theme = self._theme()
        dice = self.model.known_dice(App.get_running_app().devices)
        if not dice:
            box.add_widget(TCLabel(text="No electronic dice are connected. Roll real dice and tap the face, or let the app roll: both work without hardware. Connect a hub in Devices.",
                                   color=theme.muted))
            return
        box.add_widget(TCLabel(text="Which die belongs to which seat? (Any: whoever the game waits for.)"))
        for die, name in dice:
            row = self._row()
            die_label = TCLabel(text=f"⚄ {name}", size_hint=(None, None), size=(dp(120), dp(50)), wrap=False)
            die_label.bind(texture_size=lambda w, ts: setattr(w, "width", max(dp(120), ts[0] + dp(8))))
            row.add_widget(die_label)
            current = self.model.devices.get(die, "")
            for sid, label in [("", "Any seat")] + [(s["id"], s["name"]) for s in self.model.named_seats()]:
                b = TCToggle(text=label, group=f"die-{die}", state="down" if sid == current else "normal",
                             allow_no_selection=False, size_hint=(None, None)).fit(dp(130), dp(50))
                b.bind(on_release=lambda _b, die=die, sid=sid: self.model.assign(die, sid))
                row.add_widget(b)
            box.add_widget(row)

    # ------------------------------------------------------------ start

    def _step_start(self, box: Any) -> None:
        for line in self.model.summary():
            box.add_widget(TCLabel(text="• " + line))

    def start(self) -> None:
        self._check()
        if self.problems:
            return
        app = App.get_running_app()
        m = self.model
        try:
            app.new_game(m.game_id, m.named_seats(), dict(m.options), seed=m.seed, clocks=m.clock_config(),
                         devices=dict(m.devices), position=m.position())
        except (RulesError, CompanionError) as e:  # the engine's setup check, a position refused, the journal
            self.problems = [str(e)]
            self.can_start = False


load_kv(__file__)
